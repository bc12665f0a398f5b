// The SDP EW (Y) block's MUL and ALU at FP16 processing on LANES lanes, as models/sdp/fp16.py y_block (the
// LUT is not here; the parent's LUT path is INT only):
//   operands: a register operand is EW_{ALU,MUL}_OPERAND read as FP32 bits (no convertor, no NaN flush);
//             a memory operand (ALU [15:0], MUL [31:16] of a 32-bit stream lane; 0 when the stream is not
//             enabled) is FP16: NaN -> +0 with NAN_TO_ZERO, widened to FP32. The convertors' offset, scale
//             and truncate, and EW_TRUNCATE, are ignored at FP16, as the model does.
//   MUL: FP32 product; PReLU: data whose sign bit is 0 (NaNs included) passes
//   ALU: SUM: FP32 add (data first), MAX / MIN: FP32 compare, EQL: 1 where data != operand, else 0
// A three-stage segment of the parent's stall pipeline (en[k] loads stage k+1, in_* sampled with en[0]):
// stage 1 operands, stage 2 MUL, stage 3 ALU (out_x is the stage-3 register). Data are FP32 bit patterns.
module nvdla_sdp_fpy #(
    parameter LANES = 8
) (
    input  wire                clk,
    input  wire [2:0]          en,
    input  wire                cfg_bypass,
    input  wire                cfg_alu_bypass,
    input  wire [1:0]          cfg_alu_algo,
    input  wire                cfg_alu_src,        // 1: memory
    input  wire [31:0]         cfg_alu_operand,
    input  wire                cfg_mul_bypass,
    input  wire                cfg_mul_prelu,
    input  wire                cfg_mul_src,
    input  wire [31:0]         cfg_mul_operand,
    input  wire                nan_to_zero,        // D_FEATURE_MODE_CFG.NAN_TO_ZERO
    input  wire                op_en,              // the operand stream carries data this layer
    input  wire [LANES*32-1:0] in_x,
    input  wire [LANES*32-1:0] in_op,
    output wire [LANES*32-1:0] out_x
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (LANES < 1) begin
            $display("ERROR: nvdla_sdp_fpy %m: LANES >= 1");
            $finish;
        end
    end
    wire alu_on = ~cfg_bypass & ~cfg_alu_bypass;
    wire mul_on = ~cfg_bypass & ~cfg_mul_bypass;

    function [15:0] flush16(input [15:0] h, input on);
        flush16 = (on && h[14:10] == 5'h1F && h[9:0] != 10'd0) ? 16'd0 : h;
    endfunction

    reg [LANES*32-1:0] s1_x, s1_aop, s1_mop, s2_x, s2_aop, s3_x;

    genvar l;
    generate
        for (l = 0; l < LANES; l = l + 1) begin : g_lane
            // ---------------------------------------------------------- stage 1: operands
            wire [15:0] mem_a = op_en ? in_op[l*32 +: 16] : 16'd0;
            wire [15:0] mem_m = op_en ? in_op[l*32 + 16 +: 16] : 16'd0;
            wire [31:0] wa, wm, prod, sum, pick;
            nvdla_fp_widen #(.EI(5), .MI(10), .EO(8), .MO(23), .DENORM(1)) u_aop (
                .x(flush16(mem_a, nan_to_zero)), .y(wa)
            );
            nvdla_fp_widen #(.EI(5), .MI(10), .EO(8), .MO(23), .DENORM(1)) u_mop (
                .x(flush16(mem_m, nan_to_zero)), .y(wm)
            );

            // ---------------------------------------------------------- stage 2: MUL
            wire [31:0] x1 = s1_x[l*32 +: 32];
            nvdla_fp_mul #(.E(8), .M(23)) u_mul (.a(x1), .b(s1_mop[l*32 +: 32]), .y(prod));
            wire        pass = cfg_mul_prelu & ~x1[31];

            // ---------------------------------------------------------- stage 3: ALU
            wire [31:0] x2 = s2_x[l*32 +: 32];
            wire [31:0] b2 = s2_aop[l*32 +: 32];
            nvdla_fp_add #(.E(8), .M(23)) u_sum (.a(x2), .b(b2), .y(sum));
            nvdla_fp_cmp #(.E(8), .M(23)) u_cmp (.a(x2), .b(b2), .pick_max(cfg_alu_algo == 2'd0), .y(pick));
            wire [31:0] alu = (cfg_alu_algo == 2'd2) ? sum
                            : (cfg_alu_algo == 2'd3) ? {31'd0, x2 != b2}
                            : pick;

            always @(posedge clk) begin
                if (en[0]) begin
                    s1_x[l*32 +: 32]   <= in_x[l*32 +: 32];
                    s1_aop[l*32 +: 32] <= cfg_alu_src ? wa : cfg_alu_operand;
                    s1_mop[l*32 +: 32] <= cfg_mul_src ? wm : cfg_mul_operand;
                end
                if (en[1]) begin
                    s2_x[l*32 +: 32]   <= (mul_on & ~pass) ? prod : x1;
                    s2_aop[l*32 +: 32] <= s1_aop[l*32 +: 32];
                end
                if (en[2]) s3_x[l*32 +: 32] <= alu_on ? alu : x2;
            end
        end
    endgenerate

    assign out_x = s3_x;
endmodule
