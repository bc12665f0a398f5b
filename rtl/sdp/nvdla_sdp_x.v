// One SDP X block (BS or BN) on LANES lanes, as models/sdp/datapath.py x_block (cmod/hls/sdp/sdp_x.cpp):
//   ALU:      x33 = max / min / sum(x, sat32(operand16 << ALU_SHIFT))      (algo 3 is a sum, as the C model)
//   MUL:      v = x33 * operand16 (49 bits); PReLU: x33 >= 0 passes untouched
//   truncate: y = sat32(round_half_away(v >> MUL_SHIFT)), also when MUL is bypassed; a PReLU pass keeps
//             the low 32 bits of x33 (NVDLA's X_int_trt forwards mul_data_out[31:0]: it wraps)
//   ReLU:     y = max(y, 0)
// The operands come from the register or, per lane, from the operand stream (ALU [15:0], MUL [31:16] of a
// 32-bit lane); a memory operand whose stream is not enabled reads as 0.
//
// A three-stage segment of the parent's stall pipeline: en[k] loads stage k+1, in_* are sampled with en[0].
// Stage 1 ALU, stage 2 multiply, stage 3 truncate and ReLU (out_x is the stage-3 register).
`include "nvdla_x_cfg.vh"
module nvdla_sdp_x #(
    parameter LANES = 8
) (
    input  wire               clk,
    input  wire [2:0]         en,
    // D_DP_{BS,BN}_* raw fields: the X_CFG sub-bundle (rtl/gen/nvdla_x_cfg.vh), one copy per block
    input  wire [`X_CFG_W-1:0] x_cfg,
    input  wire               op_en,              // the operand stream carries data this layer
    input  wire [LANES*32-1:0] in_x,
    input  wire [LANES*32-1:0] in_op,
    output wire [LANES*32-1:0] out_x
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (LANES < 1) begin
            $display("ERROR: nvdla_sdp_x %m: LANES >= 1");
            $finish;
        end
    end
    wire               cfg_bypass      = x_cfg[`X_CFG_BYPASS];
    wire               cfg_alu_bypass  = x_cfg[`X_CFG_ALU_BYPASS];
    wire [1:0]         cfg_alu_algo    = x_cfg[`X_CFG_ALU_ALGO];
    wire               cfg_alu_src     = x_cfg[`X_CFG_ALU_SRC];       // 1: memory (the operand stream)
    wire [5:0]         cfg_alu_shift   = x_cfg[`X_CFG_ALU_SHIFT];
    wire [15:0]        cfg_alu_operand = x_cfg[`X_CFG_ALU_OPERAND];
    wire               cfg_mul_bypass  = x_cfg[`X_CFG_MUL_BYPASS];
    wire               cfg_mul_prelu   = x_cfg[`X_CFG_MUL_PRELU];
    wire               cfg_mul_src     = x_cfg[`X_CFG_MUL_SRC];
    wire [15:0]        cfg_mul_operand = x_cfg[`X_CFG_MUL_OPERAND];
    wire [7:0]         mul_shift_field = x_cfg[`X_CFG_MUL_SHIFT];
    wire [5:0]         cfg_mul_shift   = mul_shift_field[5:0];       // the truncate takes 6 bits, as before
    wire               cfg_relu_bypass = x_cfg[`X_CFG_RELU_BYPASS];
    /* verilator lint_off UNUSEDSIGNAL */
    wire               unused_shift    = ^mul_shift_field[7:6];
    /* verilator lint_on UNUSEDSIGNAL */
    localparam signed [47:0] MAX32 = 48'sh0000_7FFF_FFFF;
    localparam signed [47:0] MIN32 = -48'sh0000_8000_0000;

    wire alu_on  = ~cfg_bypass & ~cfg_alu_bypass;
    wire mul_on  = ~cfg_bypass & ~cfg_mul_bypass;
    wire relu_on = ~cfg_bypass & ~cfg_relu_bypass;

    // lanes packed side by side in plain vectors (Yosys maps unpacked arrays to memories)
    reg [LANES*33-1:0] s1_x;
    reg [LANES*16-1:0] s1_mop;
    reg [LANES*49-1:0] s2_v;
    reg [LANES-1:0]    s2_pass;     // PReLU pass: no truncate
    reg [LANES*32-1:0] s3_y;

    genvar l;
    generate
        for (l = 0; l < LANES; l = l + 1) begin : g_lane
            // ---------------------------------------------------------- stage 1: ALU
            wire signed [31:0] x     = in_x[l*32 +: 32];
            wire [15:0]        mem_a = op_en ? in_op[l*32 +: 16] : 16'd0;
            wire [15:0]        mem_m = op_en ? in_op[l*32 + 16 +: 16] : 16'd0;
            wire signed [15:0] aop   = cfg_alu_src ? mem_a : cfg_alu_operand;
            // operand << shift saturated to 32 bits: any shift of 32 or more saturates a non-zero operand
            wire signed [47:0] wide  = {{32{aop[15]}}, aop} <<< cfg_alu_shift[4:0];
            wire               big   = cfg_alu_shift[5] & (aop != 16'sd0);
            wire signed [31:0] sh    = (~aop[15] & (big | (wide > MAX32))) ? 32'sh7FFF_FFFF
                                     : (aop[15] & (big | (wide < MIN32)))  ? 32'sh8000_0000
                                     : wide[31:0];
            wire signed [32:0] xa    = {x[31], x};
            wire signed [32:0] sa    = {sh[31], sh};
            wire signed [32:0] alu   = (cfg_alu_algo == 2'd0) ? ((xa > sa) ? xa : sa)
                                     : (cfg_alu_algo == 2'd1) ? ((xa < sa) ? xa : sa)
                                     : xa + sa;

            // ---------------------------------------------------------- stage 2: MUL
            wire signed [32:0] x1    = s1_x[l*33 +: 33];
            wire signed [15:0] mop   = s1_mop[l*16 +: 16];
            wire signed [48:0] x1w   = {{16{x1[32]}}, x1};
            // a 33 x 16 multiplier: the operands are sign-extended to the 49-bit product by the context
            wire signed [48:0] prod  = x1 * mop;
            wire               pass  = cfg_mul_prelu & ~x1[32];

            // ---------------------------------------------------------- stage 3: truncate, ReLU
            wire signed [48:0] v     = s2_v[l*49 +: 49];
            wire signed [31:0] tr;
            /* verilator lint_off UNUSEDSIGNAL */
            wire               tr_sat;
            /* verilator lint_on UNUSEDSIGNAL */
            nvdla_round_sat #(.IN_W(49), .SHIFT_W(6), .OUT_W(32)) u_trt (
                .x(v), .shift(cfg_mul_shift), .y(tr), .sat(tr_sat)
            );
            // a bypassed block passes x (carried unchanged in v), a PReLU pass wraps to 32 bits
            wire signed [31:0] y     = (cfg_bypass | s2_pass[l]) ? v[31:0] : tr;
            wire signed [31:0] yr    = (relu_on & y[31]) ? 32'sd0 : y;

            always @(posedge clk) begin
                if (en[0]) begin
                    s1_x[l*33 +: 33]   <= alu_on ? alu : xa;
                    s1_mop[l*16 +: 16] <= cfg_mul_src ? mem_m : cfg_mul_operand;
                end
                if (en[1]) begin
                    s2_v[l*49 +: 49] <= mul_on & ~pass ? prod : x1w;
                    s2_pass[l]       <= mul_on & pass;
                end
                if (en[2]) s3_y[l*32 +: 32] <= yr;
            end
        end
    endgenerate

    assign out_x = s3_y;
endmodule
