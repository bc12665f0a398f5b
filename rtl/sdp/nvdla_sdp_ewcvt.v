// The EW operands on LANES lanes, as models/sdp/datapath.py y_block / ew_convert: per lane and per operand
// (ALU from [15:0], MUL from [31:16] of a 32-bit stream lane) the 32-bit operand the EW block uses:
//   register:  EW_{ALU,MUL}_OPERAND (32 bits)
//   memory:    x = the raw signed 16-bit stream value (0 when the stream is not enabled), then
//              CVT_BYPASS ? x : sat32(round_half_away((x - CVT_OFFSET) * CVT_SCALE >> CVT_TRUNCATE))
// A three-stage segment of the parent's stall pipeline (en[k] loads stage k+1, in_op sampled with en[0]):
// stage 1 subtract, stage 2 multiply (33 x 16), stage 3 round/saturate and the register/memory choice.
module nvdla_sdp_ewcvt #(
    parameter LANES = 8
) (
    input  wire                clk,
    input  wire [2:0]          en,
    input  wire                cfg_alu_src,           // 1: memory
    input  wire                cfg_alu_cvt_bypass,
    input  wire [31:0]         cfg_alu_operand,
    input  wire [31:0]         cfg_alu_cvt_offset,
    input  wire [15:0]         cfg_alu_cvt_scale,
    input  wire [5:0]          cfg_alu_cvt_truncate,
    input  wire                cfg_mul_src,
    input  wire                cfg_mul_cvt_bypass,
    input  wire [31:0]         cfg_mul_operand,
    input  wire [31:0]         cfg_mul_cvt_offset,
    input  wire [15:0]         cfg_mul_cvt_scale,
    input  wire [5:0]          cfg_mul_cvt_truncate,
    input  wire                op_en,
    input  wire [LANES*32-1:0] in_op,
    output wire [LANES*32-1:0] out_alu_op,
    output wire [LANES*32-1:0] out_mul_op
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (LANES < 1) begin
            $display("ERROR: nvdla_sdp_ewcvt %m: LANES >= 1");
            $finish;
        end
    end
    genvar l, k;
    generate
        for (l = 0; l < LANES; l = l + 1) begin : g_lane
            wire [63:0] ops;                                 // {MUL, ALU} operand of the lane
            for (k = 0; k < 2; k = k + 1) begin : g_op      // k = 0: ALU operand, 1: MUL operand
                wire        src    = (k == 0) ? cfg_alu_src : cfg_mul_src;
                wire        cvt_by = (k == 0) ? cfg_alu_cvt_bypass : cfg_mul_cvt_bypass;
                wire [31:0] reg_op = (k == 0) ? cfg_alu_operand : cfg_mul_operand;
                wire [31:0] offset = (k == 0) ? cfg_alu_cvt_offset : cfg_mul_cvt_offset;
                wire [15:0] scale  = (k == 0) ? cfg_alu_cvt_scale : cfg_mul_cvt_scale;
                wire [5:0]  trunc  = (k == 0) ? cfg_alu_cvt_truncate : cfg_mul_cvt_truncate;

                reg signed [15:0] s1_raw, s2_raw;
                reg signed [32:0] s1_diff;
                reg signed [48:0] s2_prod;
                reg signed [31:0] s3_op;

                wire signed [15:0] raw   = op_en ? in_op[l*32 + k*16 +: 16] : 16'sd0;
                wire signed [32:0] raw_w = {{17{raw[15]}}, raw};
                wire signed [32:0] off_w = {offset[31], offset};
                wire signed [48:0] dif_w = {{16{s1_diff[32]}}, s1_diff};
                wire signed [48:0] scl_w = {{33{scale[15]}}, scale};

                wire signed [31:0] cvt;
                /* verilator lint_off UNUSEDSIGNAL */
                wire               cvt_sat;
                /* verilator lint_on UNUSEDSIGNAL */
                nvdla_round_sat #(.IN_W(49), .SHIFT_W(6), .OUT_W(32)) u_rs (
                    .x(s2_prod), .shift(trunc), .y(cvt), .sat(cvt_sat)
                );

                always @(posedge clk) begin
                    if (en[0]) begin
                        s1_raw  <= raw;
                        s1_diff <= raw_w - off_w;
                    end
                    if (en[1]) begin
                        s2_raw  <= s1_raw;
                        s2_prod <= dif_w * scl_w;
                    end
                    if (en[2]) s3_op <= ~src ? reg_op : cvt_by ? {{16{s2_raw[15]}}, s2_raw} : cvt;
                end
                assign ops[k*32 +: 32] = s3_op;
            end
            assign out_alu_op[l*32 +: 32] = ops[31:0];
            assign out_mul_op[l*32 +: 32] = ops[63:32];
        end
    endgenerate
endmodule
