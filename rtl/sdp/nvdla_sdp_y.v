// The SDP EW (Y) block's MUL and ALU on LANES lanes, as models/sdp/datapath.py y_block (the LUT follows in
// the parent):
//   MUL: v = sat32(round_half_away((x * op) >> EW_TRUNCATE))   (32 x 32 bits, shift 0..1023);
//        PReLU: x >= 0 passes untouched
//   ALU: max / min / sat32(sum) / EQL (x != op: 1, else 0) of v and the ALU operand
// The 32-bit operands come from nvdla_sdp_ewcvt (register or converted memory operand).
// A three-stage segment of the parent's stall pipeline (en[k] loads stage k+1, in_* sampled with en[0]):
// stage 1 multiply, stage 2 rounding shift and PReLU, stage 3 ALU (out_x is the stage-3 register).
module nvdla_sdp_y #(
    parameter LANES = 8
) (
    input  wire                clk,
    input  wire [2:0]          en,
    input  wire                cfg_bypass,
    input  wire                cfg_alu_bypass,
    input  wire [1:0]          cfg_alu_algo,
    input  wire                cfg_mul_bypass,
    input  wire                cfg_mul_prelu,
    input  wire [9:0]          cfg_truncate,
    input  wire [LANES*32-1:0] in_x,
    input  wire [LANES*32-1:0] in_alu_op,
    input  wire [LANES*32-1:0] in_mul_op,
    output wire [LANES*32-1:0] out_x
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (LANES < 1) begin
            $display("ERROR: nvdla_sdp_y %m: LANES >= 1");
            $finish;
        end
    end
    localparam signed [32:0] MAX32 = 33'sh0_7FFF_FFFF;
    localparam signed [32:0] MIN32 = -33'sh0_8000_0000;

    wire alu_on = ~cfg_bypass & ~cfg_alu_bypass;
    wire mul_on = ~cfg_bypass & ~cfg_mul_bypass;

    genvar l;
    generate
        for (l = 0; l < LANES; l = l + 1) begin : g_lane
            reg signed [31:0] s1_x, s1_aop, s2_aop, s2_v, s3_y;
            reg signed [63:0] s1_prod;

            // ---------------------------------------------------------- stage 1: multiply
            wire signed [31:0] x    = in_x[l*32 +: 32];
            wire signed [31:0] mop  = in_mul_op[l*32 +: 32];
            wire signed [63:0] xw   = {{32{x[31]}}, x};
            wire signed [63:0] mw   = {{32{mop[31]}}, mop};

            // ---------------------------------------------------------- stage 2: rounding shift, PReLU
            wire signed [31:0] tr;
            /* verilator lint_off UNUSEDSIGNAL */
            wire               tr_sat;
            /* verilator lint_on UNUSEDSIGNAL */
            // shifts past the product's width give 0 (and 2^62 >> 63 rounds to 1), as the model's
            nvdla_round_sat #(.IN_W(64), .SHIFT_W(10), .OUT_W(32)) u_trt (
                .x(s1_prod), .shift(cfg_truncate), .y(tr), .sat(tr_sat)
            );
            wire signed [31:0] v    = (~mul_on | (cfg_mul_prelu & ~s1_x[31])) ? s1_x : tr;

            // ---------------------------------------------------------- stage 3: ALU
            wire signed [32:0] a    = {s2_v[31], s2_v};
            wire signed [32:0] b    = {s2_aop[31], s2_aop};
            wire signed [32:0] sum  = a + b;
            wire signed [31:0] sums = (sum > MAX32) ? 32'sh7FFF_FFFF : (sum < MIN32) ? 32'sh8000_0000
                                    : sum[31:0];
            wire signed [31:0] alu  = (cfg_alu_algo == 2'd0) ? ((s2_v > s2_aop) ? s2_v : s2_aop)
                                    : (cfg_alu_algo == 2'd1) ? ((s2_v < s2_aop) ? s2_v : s2_aop)
                                    : (cfg_alu_algo == 2'd2) ? sums
                                    : {31'd0, s2_v != s2_aop};

            always @(posedge clk) begin
                if (en[0]) begin
                    s1_x    <= x;
                    s1_aop  <= in_alu_op[l*32 +: 32];
                    s1_prod <= xw * mw;
                end
                if (en[1]) begin
                    s2_aop <= s1_aop;
                    s2_v   <= v;
                end
                if (en[2]) s3_y <= alu_on ? alu : s2_v;
            end
            assign out_x[l*32 +: 32] = s3_y;
        end
    endgenerate
endmodule
