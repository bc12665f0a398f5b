// CDP square sums at FP16 (models/cdp/fp16.py steps 2 and 3), the two last stages of nvdla_cdp_sqsum's
// pipeline, whose enables it takes:
//   S2: every lane of the window vector FP17 -> FP32 (nvdla_fp_widen, no denormals) and squared as an FP32
//       multiply (nvdla_fp_mul);
//   S3: per lane the sum over the window in FP32 adds (nvdla_fp_add) in NVIDIA's fp_sum_block order,
//       s3 = (c-1 + c+1) + c, s5 = s3 + (c-2 + c+2), s7 = s5 + (c-3 + c+3), s9 = s7 + (c-4 + c+4),
//       the sum of the window NORMALZ_LEN selects (pair_on: the pairs inside it).
// ext: the window vector, LANES + 2*HALF FP17 lanes, lane e = channel (lane e - HALF of the atom); the
// neighbours outside the cube are +0 already. sum: lane l's FP32 sum at bits [32l+31:32l].
// The additions are combinational between the S2 and S3 registers (one pair add, then four in a chain).
module nvdla_cdp_sqsum_fp #(
    parameter LANES = 4,    // FP16 lanes per atom
    parameter HALF  = 4     // widest half window (NORMALZ_LEN 3: 9 channels)
) (
    input  wire                          clk,       // no reset: the registers are read only once enabled
    input  wire [1:0]                    en,        // stage enables of S2 and S3 (nvdla_pipe_ctrl)
    input  wire [HALF:2]                 pair_on,   // pair d (channels c-d and c+d) is inside the window (1 always)
    input  wire [(LANES+2*HALF)*17-1:0]  ext,       // the window vector, FP17 lane e = channel e - HALF
    output wire [LANES*32-1:0]           sum        // FP32 window sums, lane l at [32l+31:32l] (S3 register)
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

    // ---------------------------------------------------------------- S3: window sums
    reg [LANES*32-1:0] s3_sum;
    genvar l, d;
    generate
        for (l = 0; l < LANES; l = l + 1) begin : g_sum
            wire [32*HALF-1:0] pair;       // slot d-1: (c-d) + (c+d), d = 1..HALF
            wire [32*HALF-1:0] part;       // slot d-1: the sum over the window of half width d
            for (d = 1; d <= HALF; d = d + 1) begin : g_pair
                nvdla_fp_add #(.E(8), .M(23)) u_pair (
                    .a(s2_sq[(l+HALF-d)*32 +: 32]), .b(s2_sq[(l+HALF+d)*32 +: 32]), .y(pair[(d-1)*32 +: 32])
                );
                if (d == 1) begin : g_centre
                    nvdla_fp_add #(.E(8), .M(23)) u_add (
                        .a(pair[0 +: 32]), .b(s2_sq[(l+HALF)*32 +: 32]), .y(part[0 +: 32])
                    );
                end else begin : g_chain
                    nvdla_fp_add #(.E(8), .M(23)) u_add (
                        .a(part[(d-2)*32 +: 32]), .b(pair[(d-1)*32 +: 32]), .y(part[(d-1)*32 +: 32])
                    );
                end
            end
            // the widest window inside pair_on (pair 1 always is)
            wire [31:0] pick = pair_on[4] ? part[3*32 +: 32] : pair_on[3] ? part[2*32 +: 32]
                             : pair_on[2] ? part[1*32 +: 32] : part[0 +: 32];
            always @(posedge clk) begin
                if (en[1]) s3_sum[l*32 +: 32] <= pick;
            end
        end
    endgenerate
    assign sum = s3_sum;
endmodule
