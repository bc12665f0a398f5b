// CDP square sums at FP16 (models/cdp/fp16.py steps 2 and 3), the last STAGES = 7 stages of nvdla_cdp_sqsum's
// pipeline, whose enables it takes (a fixed-latency stall pipeline: en[k] loads stage k):
//   S2 (en[0]): every lane of the window vector FP17 -> FP32 (nvdla_fp_widen, no denormals) and squared as an
//       FP32 multiply (nvdla_fp_mul);
//   T1..T6 (en[1..6]): per lane the sum over the window in FP32 adds in NVIDIA's fp_sum_block order,
//       s3 = (c-1 + c+1) + c, s5 = s3 + (c-2 + c+2), s7 = s5 + (c-3 + c+3), s9 = s7 + (c-4 + c+4),
//       the sum of the window NORMALZ_LEN selects (pair_on: the pairs inside it; pair_on[d] implies
//       pair_on[d-1], so a sum outside the window simply passes the narrower one on).
// Each add is split between two stages: its first half (nvdla_fp_add_align: order, align, add) ends a stage,
// its second half (nvdla_fp_add_norm: normalise, round) starts the next, followed there by the next add's
// first half: T1 the four pair adds' first halves; T2 pair 1 finished, its add with the centre begun, pairs
// 2-4 finished; T3..T5 one chain add finished and the next begun; T6 the last finished (the output register).
// ext: the window vector, LANES + 2*HALF FP17 lanes, lane e = channel (lane e - HALF of the atom); the
// neighbours outside the cube are +0 already. sum: lane l's FP32 sum at bits [32l+31:32l].
module nvdla_cdp_sqsum_fp #(
    parameter LANES = 4,    // FP16 lanes per atom
    parameter HALF  = 4     // widest half window (NORMALZ_LEN 3: 9 channels)
) (
    input  wire                          clk,       // no reset: the registers are read only once enabled
    input  wire [6:0]                    en,        // stage enables of S2, T1..T6 (nvdla_pipe_ctrl)
    input  wire [HALF:2]                 pair_on,   // pair d (channels c-d and c+d) is inside the window (1 always)
    input  wire [(LANES+2*HALF)*17-1:0]  ext,       // the window vector, FP17 lane e = channel e - HALF
    output wire [LANES*32-1:0]           sum        // FP32 window sums, lane l at [32l+31:32l] (T6 register)
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (LANES < 1 || HALF != 4) begin
            $display("ERROR: nvdla_cdp_sqsum_fp %m: LANES >= 1 and HALF 4 (windows of 3, 5, 7 and 9 channels)");
            $finish;
        end
    end
    localparam EXT = LANES + 2 * HALF;

    // ---------------------------------------------------------------- S2: FP32 squares
    reg [EXT*32-1:0] s2_sq;
    genvar e;
    generate
        for (e = 0; e < EXT; e = e + 1) begin : g_sq
            wire [31:0] x32, sq;
            nvdla_fp_widen #(.EI(6), .MI(10), .EO(8), .MO(23), .DENORM(0)) u_widen (.x(ext[e*17 +: 17]), .y(x32));
            nvdla_fp_mul #(.E(8), .M(23)) u_sq (.a(x32), .b(x32), .y(sq));
            always @(posedge clk) begin
                if (en[0]) s2_sq[e*32 +: 32] <= sq;
            end
        end
    endgenerate

    // ---------------------------------------------------------------- T1..T6: window sums
    localparam MID = 2 * 8 + 3 * 23 + 7;    // nvdla_fp_add_align's output at FP32
    reg [LANES*32-1:0] s3_sum;
    genvar l, d;
    generate
        for (l = 0; l < LANES; l = l + 1) begin : g_sum
            // T1: the pairs (c-d) + (c+d) begun, the centre carried
            reg [MID*HALF-1:0] t1_pm;      // slot d-1: pair d's first half
            reg [31:0]         t1_c;
            for (d = 1; d <= HALF; d = d + 1) begin : g_pair
                wire [MID-1:0] pm;
                nvdla_fp_add_align #(.E(8), .M(23)) u_pair (
                    .a(s2_sq[(l+HALF-d)*32 +: 32]), .b(s2_sq[(l+HALF+d)*32 +: 32]), .mid(pm)
                );
                always @(posedge clk) begin
                    if (en[1]) t1_pm[(d-1)*MID +: MID] <= pm;
                end
            end
            always @(posedge clk) begin
                if (en[1]) t1_c <= s2_sq[(l+HALF)*32 +: 32];
            end

            // T2: the pairs finished; s3 = pair 1 + centre begun
            wire [32*HALF-1:0] pair;
            reg  [32*HALF-1:0] t2_pair;    // slots 1..HALF-1 read (pairs 2..HALF)
            for (d = 1; d <= HALF; d = d + 1) begin : g_pnorm
                nvdla_fp_add_norm #(.E(8), .M(23)) u_norm (.mid(t1_pm[(d-1)*MID +: MID]), .y(pair[(d-1)*32 +: 32]));
            end
            wire [MID-1:0] m1;
            reg  [MID-1:0] t2_m;
            nvdla_fp_add_align #(.E(8), .M(23)) u_centre (.a(pair[0 +: 32]), .b(t1_c), .mid(m1));
            always @(posedge clk) begin
                if (en[2]) begin
                    t2_m    <= m1;
                    t2_pair <= pair;
                end
            end

            // T3..T5: part d-1 finished (or, outside the window, the narrower sum passed on), part d begun;
            // T6: the last part finished into the output register
            wire [MID*HALF-1:0] cm;        // slot k: the chain add begun in stage T(k+2), k = 0..HALF-1
            /* verilator lint_off UNUSEDSIGNAL */   // a stage reads only the pairs still to come, T6 its own part
            wire [32*HALF-1:0]  cpart;     // slot k: the sum reaching stage T(k+3)'s registers
            wire [32*HALF*HALF-1:0] pins;  // slot k: the pairs as stage T(k+2) registered them
            /* verilator lint_on UNUSEDSIGNAL */
            assign cm[0 +: MID] = t2_m;
            assign pins[0 +: 32*HALF] = t2_pair;
            for (d = 2; d <= HALF + 1; d = d + 1) begin : g_chain
                // stage T(d+1): finish the add begun in T(d) (part d-1 = s(2d-1)), begin part d
                wire [31:0] done_y, part;
                nvdla_fp_add_norm #(.E(8), .M(23)) u_norm (.mid(cm[(d-2)*MID +: MID]), .y(done_y));
                if (d == 2) begin : g_first
                    assign part = done_y;                          // s3 always counts
                end else begin : g_next
                    reg [31:0] prev;                               // the narrower sum, one stage on
                    always @(posedge clk) begin
                        if (en[d]) prev <= cpart[(d-3)*32 +: 32];
                    end
                    assign part = pair_on[d-1] ? done_y : prev;
                end
                assign cpart[(d-2)*32 +: 32] = part;
                if (d <= HALF) begin : g_begin
                    wire [MID-1:0] mn;
                    reg  [MID-1:0] t_m;
                    reg  [32*HALF-1:0] t_pair;                     // pairs d+1.. carried one stage further
                    wire [32*HALF-1:0] pin = pins[(d-2)*32*HALF +: 32*HALF];
                    nvdla_fp_add_align #(.E(8), .M(23)) u_add (.a(part), .b(pin[(d-1)*32 +: 32]), .mid(mn));
                    always @(posedge clk) begin
                        if (en[d+1]) begin
                            t_m    <= mn;
                            t_pair <= pin;
                        end
                    end
                    assign cm[(d-1)*MID +: MID] = t_m;
                    assign pins[(d-1)*32*HALF +: 32*HALF] = t_pair;
                end else begin : g_last
                    always @(posedge clk) begin
                        if (en[d+1]) s3_sum[l*32 +: 32] <= part;
                    end
                end
            end
        end
    endgenerate
    assign sum = s3_sum;
endmodule
