// CACC: accumulates CMAC's partial sums over a stripe's weight atoms and delivers the finished outputs to
// SDP. Each operation carries its stripe position `in_pos` (the accumulator entry), `in_first` (the
// stripe's first weight atom: the entry starts from this partial sum) and `in_last` (its last: the sum is
// final and goes out). Partial sums add into 34-bit accumulators with saturation (NVIDIA's INT8 RTL);
// the final sum is truncated by CLIP_TRUNCATE with NVIDIA's rounding and saturated to INT32
// (nvdla_cacc_round), each saturated lane counted in `sat_count` (D_OUT_SATURATION, cleared at `start`).
// Outputs leave in operation order (CSC issues stripes in output-cube order, so this is NVDLA's order:
// kernel group = output surface, then lines, then columns), AK 32-bit lanes a beat.
//
// The accumulators are one RAM of STRIPE entries x AK x 34 bits (registered read); an operation reads its
// entry as it is accepted and writes it back one cycle later, the operation right behind it taking that
// sum by forwarding. Backpressure: an operation is accepted only while the output FIFO has room for every
// final sum already accepted (`resv`), so nothing is ever dropped and the pipeline never needs to stall.
module nvdla_cacc #(
    parameter AC        = 8,     // atomic C (partial sums are 16 + log2(AC) bits)
    parameter AK        = 8,     // lanes (atomic K)
    parameter STRIPE    = 16,    // accumulator entries (a power of two)
    parameter OUT_DEPTH = 8      // output FIFO beats (a power of two)
) (
    input  wire                 clk,
    input  wire                 rst_n,
    input  wire                 start,
    input  wire [4:0]           truncate,
    input  wire                 in_valid,
    output wire                 in_ready,
    input  wire [AK*PSW-1:0]    in_sum,
    input  wire [PW-1:0]        in_pos,
    input  wire                 in_first,
    input  wire                 in_last,
    output wire                 out_valid,
    input  wire                 out_ready,
    output wire [AK*32-1:0]     out_data,
    output wire [31:0]          sat_count,
    output wire                 idle
);
    localparam PSW = 16 + $clog2(AC);
    localparam PW  = $clog2(STRIPE);
    localparam RW  = (OUT_DEPTH > 1) ? $clog2(OUT_DEPTH) + 1 : 1;

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (AC < 2 || AK < 1 || STRIPE < 2 || (STRIPE & (STRIPE - 1)) != 0 || OUT_DEPTH < 2
            || (OUT_DEPTH & (OUT_DEPTH - 1)) != 0 || PSW > 34) begin
            $display("ERROR: nvdla_cacc %m: AC >= 2 (partial sums narrower than 34 bits), AK >= 1, STRIPE and ",
                     "OUT_DEPTH powers of two >= 2");
            $finish;
        end
    end

    wire in_fire = in_valid & in_ready;
    wire pop     = out_valid & out_ready;
    reg  [RW-1:0] resv;      // final sums accepted and not yet taken from the FIFO
    assign in_ready = resv < OUT_DEPTH[RW-1:0];
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) resv <= {RW{1'b0}};
        else resv <= resv + {{(RW-1){1'b0}}, in_fire & in_last} - {{(RW-1){1'b0}}, pop};
    end

    // ---- stage A: accepted operation; its accumulator entry is being read
    reg              a_valid, a_first, a_last;
    reg [AK*PSW-1:0] a_sum;
    reg [PW-1:0]     a_pos;
    reg [AK*34-1:0]  acc_ram [0:STRIPE-1];
    reg [AK*34-1:0]  acc_q;
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) a_valid <= 1'b0;
        else a_valid <= in_fire;
    end
    always @(posedge clk) begin
        if (in_fire) begin
            a_sum   <= in_sum;
            a_pos   <= in_pos;
            a_first <= in_first;
            a_last  <= in_last;
            acc_q   <= acc_ram[in_pos];
        end
    end

    // ---- stage B: add with 34-bit saturation, write back; a final sum goes on to rounding
    reg              f_valid;      // the sum written last cycle (read-during-write forwarding)
    reg [PW-1:0]     f_pos;
    reg [AK*34-1:0]  f_acc;
    reg [AK*34-1:0]  b_new;
    wire [AK*34-1:0] old = (f_valid && f_pos == a_pos) ? f_acc : acc_q;
    integer l;
    reg signed [34:0] s;
    always @(*) begin
        for (l = 0; l < AK; l = l + 1) begin
            s = {{(35-PSW){a_sum[l*PSW + PSW - 1]}}, a_sum[l*PSW +: PSW]};
            if (!a_first) s = s + {old[l*34 + 33], old[l*34 +: 34]};
            if (s > 35'sd8589934591)       b_new[l*34 +: 34] = 34'h1_ffff_ffff;
            else if (s < -35'sd8589934592) b_new[l*34 +: 34] = 34'h2_0000_0000;
            else                           b_new[l*34 +: 34] = s[33:0];
        end
    end
    always @(posedge clk) begin
        if (a_valid) acc_ram[a_pos] <= b_new;
    end
    reg              b_valid;
    reg [AK*34-1:0]  b_acc;
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            f_valid <= 1'b0;
            b_valid <= 1'b0;
        end else begin
            f_valid <= a_valid;
            b_valid <= a_valid & a_last;
        end
    end
    always @(posedge clk) begin
        f_pos <= a_pos;
        f_acc <= b_new;
        if (a_valid & a_last) b_acc <= b_new;
    end

    // ---- stage C: truncate, round, saturate to INT32 (registered), into the output FIFO
    wire [AK*32-1:0] rounded;
    wire [AK-1:0]    sat_lane;
    genvar g;
    generate
        for (g = 0; g < AK; g = g + 1) begin : g_round
            nvdla_cacc_round u_round (
                .acc(b_acc[g*34 +: 34]), .truncate(truncate), .y(rounded[g*32 +: 32]), .sat(sat_lane[g])
            );
        end
    endgenerate
    reg              c_valid;
    reg [AK*32-1:0]  c_data;
    reg [AK-1:0]     c_sat;
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) c_valid <= 1'b0;
        else c_valid <= b_valid;
    end
    always @(posedge clk) begin
        if (b_valid) begin
            c_data <= rounded;
            c_sat  <= sat_lane;
        end
    end
    nvdla_sat_counter #(.LANES(AK), .CNT_W(32)) u_sat (
        .clk(clk), .rst_n(rst_n), .clr(start), .inc_valid(c_valid), .inc_mask(c_sat), .count(sat_count)
    );

    /* verilator lint_off UNUSEDSIGNAL */
    wire fifo_in_ready;   // always 1 when pushed: room was reserved at acceptance (resv)
    /* verilator lint_on UNUSEDSIGNAL */
    nvdla_fifo #(.WIDTH(AK*32), .DEPTH(OUT_DEPTH)) u_out (
        .clk(clk), .rst_n(rst_n), .in_valid(c_valid), .in_ready(fifo_in_ready), .in_data(c_data),
        .out_valid(out_valid), .out_ready(out_ready), .out_data(out_data)
    );

    assign idle = ~a_valid & ~b_valid & ~c_valid & ~out_valid;
endmodule
