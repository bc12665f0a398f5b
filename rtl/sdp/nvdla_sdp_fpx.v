// One SDP X block (BS or BN) at FP16 processing on LANES lanes, as models/sdp/fp16.py x_block (the C
// model's FpAlu / FpMul / FpRelu; NVIDIA's float rules: rtl/fp, models/common/nvfloat.py):
//   ALU:  the operand (register or memory, FP16; NaN -> +0 with NAN_TO_ZERO) widened to FP32, then
//         SUM: FP32 add (data first), MAX / MIN: FP32 compare, algo 3: 1 where data != operand, else 0
//   MUL:  the operand likewise, FP32 product; PReLU: data whose sign bit is 0 (NaNs included) passes
//   ReLU: a NaN or a number with sign bit 0 passes, anything else (-0 too) becomes +0
// The shift values (ALU_SHIFT_VALUE, MUL_SHIFT_VALUE) are ignored at FP16, as the model does. The operands
// come per lane from the operand stream (ALU [15:0], MUL [31:16] of a 32-bit lane) or from the register's
// low 16 bits; a memory operand whose stream is not enabled reads as 0.
//
// A three-stage segment of the parent's stall pipeline (en[k] loads stage k+1, in_* sampled with en[0]):
// stage 1 ALU, stage 2 MUL, stage 3 ReLU (out_x is the stage-3 register). Data are FP32 bit patterns.
`include "nvdla_x_cfg.vh"
module nvdla_sdp_fpx #(
    parameter LANES = 8
) (
    input  wire                clk,
    input  wire [2:0]          en,
    // D_DP_{BS,BN}_* raw fields: the X_CFG sub-bundle (rtl/gen/nvdla_x_cfg.vh), one copy per block
    /* verilator lint_off UNUSEDSIGNAL */  // the shift fields are not used at FP16
    input  wire [`X_CFG_W-1:0] x_cfg,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire                nan_to_zero,        // D_FEATURE_MODE_CFG.NAN_TO_ZERO
    input  wire                op_en,              // the operand stream carries data this layer
    input  wire [LANES*32-1:0] in_x,
    /* verilator lint_off UNUSEDSIGNAL */  // lanes' bits above what an operand uses
    input  wire [LANES*32-1:0] in_op,
    /* verilator lint_on UNUSEDSIGNAL */
    output wire [LANES*32-1:0] out_x
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (LANES < 1) begin
            $display("ERROR: nvdla_sdp_fpx %m: LANES >= 1");
            $finish;
        end
    end
    wire        cfg_bypass      = x_cfg[`X_CFG_BYPASS];
    wire        cfg_alu_bypass  = x_cfg[`X_CFG_ALU_BYPASS];
    wire [1:0]  cfg_alu_algo    = x_cfg[`X_CFG_ALU_ALGO];
    wire        cfg_alu_src     = x_cfg[`X_CFG_ALU_SRC];       // 1: memory (the operand stream)
    wire [15:0] cfg_alu_operand = x_cfg[`X_CFG_ALU_OPERAND];
    wire        cfg_mul_bypass  = x_cfg[`X_CFG_MUL_BYPASS];
    wire        cfg_mul_prelu   = x_cfg[`X_CFG_MUL_PRELU];
    wire        cfg_mul_src     = x_cfg[`X_CFG_MUL_SRC];
    wire [15:0] cfg_mul_operand = x_cfg[`X_CFG_MUL_OPERAND];
    wire        cfg_relu_bypass = x_cfg[`X_CFG_RELU_BYPASS];

    wire alu_on  = ~cfg_bypass & ~cfg_alu_bypass;
    wire mul_on  = ~cfg_bypass & ~cfg_mul_bypass;
    wire relu_on = ~cfg_bypass & ~cfg_relu_bypass;

    // an FP16 operand with NAN_TO_ZERO applied (the flush looks at the FP16 pattern)
    function [15:0] flush16(input [15:0] h, input on);
        flush16 = (on && h[14:10] == 5'h1F && h[9:0] != 10'd0) ? 16'd0 : h;
    endfunction

    reg [LANES*32-1:0] s1_x, s1_mop, s2_x, s3_x;

    genvar l;
    generate
        for (l = 0; l < LANES; l = l + 1) begin : g_lane
            // ---------------------------------------------------------- stage 1: operands, ALU
            wire [31:0] x     = in_x[l*32 +: 32];
            wire [15:0] mem_a = op_en ? in_op[l*32 +: 16] : 16'd0;
            wire [15:0] mem_m = op_en ? in_op[l*32 + 16 +: 16] : 16'd0;
            wire [31:0] aop, mop, sum, pick, prod;
            nvdla_fp_widen #(.EI(5), .MI(10), .EO(8), .MO(23), .DENORM(1)) u_aop (
                .x(flush16(cfg_alu_src ? mem_a : cfg_alu_operand, nan_to_zero)), .y(aop)
            );
            nvdla_fp_widen #(.EI(5), .MI(10), .EO(8), .MO(23), .DENORM(1)) u_mop (
                .x(flush16(cfg_mul_src ? mem_m : cfg_mul_operand, nan_to_zero)), .y(mop)
            );
            nvdla_fp_add #(.E(8), .M(23)) u_sum (.a(x), .b(aop), .y(sum));
            nvdla_fp_cmp #(.E(8), .M(23)) u_cmp (.a(x), .b(aop), .pick_max(cfg_alu_algo == 2'd0), .y(pick));
            wire [31:0] alu = (cfg_alu_algo == 2'd2) ? sum
                            : (cfg_alu_algo == 2'd3) ? {31'd0, x != aop}
                            : pick;

            // ---------------------------------------------------------- stage 2: MUL
            wire [31:0] x1   = s1_x[l*32 +: 32];
            nvdla_fp_mul #(.E(8), .M(23)) u_mul (.a(x1), .b(s1_mop[l*32 +: 32]), .y(prod));
            wire        pass = cfg_mul_prelu & ~x1[31];

            // ---------------------------------------------------------- stage 3: ReLU
            wire [31:0] x2   = s2_x[l*32 +: 32];
            wire        nan2 = (x2[30:23] == 8'hFF) && (x2[22:0] != 23'd0);

            always @(posedge clk) begin
                if (en[0]) begin
                    s1_x[l*32 +: 32]   <= alu_on ? alu : x;
                    s1_mop[l*32 +: 32] <= mop;
                end
                if (en[1]) s2_x[l*32 +: 32] <= (mul_on & ~pass) ? prod : x1;
                if (en[2]) s3_x[l*32 +: 32] <= (relu_on & ~nan2 & x2[31]) ? 32'd0 : x2;
            end
        end
    endgenerate

    assign out_x = s3_x;
endmodule
