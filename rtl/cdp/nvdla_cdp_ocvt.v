// CDP back end, per lane: the multiply by the converted input, then the output convertor (seed 002;
// cmod/hls/cdp_libs/cdp_ocvt.cpp):
//   v = MUL_BYPASS ? lut : lut * x                            (25 bits signed)
//   y = sat8(round_half_away((v - DATOUT_OFFSET[24:0]) * DATOUT_SCALE >> DATOUT_SHIFTER))
// and the saturation flag as the HLS convertor raises it: floor((v - offset) * scale / 2^shift) differs
// from y by more than one (so a value that rounds to 128 and clamps to 127 is not flagged), as
// models/cdp/model.py output_convert counts it.
// INT16 (i16, on a build with INT16 = 1; models/cdp/model.py Widths): x is 17 bits in the packed x layout of
// nvdla_cdp_icvt, v = lut * x 33 bits, the whole 32-bit DATOUT_OFFSET, the output saturated to int16, ATOM/2
// lanes, output lane l at bits [16l+15:16l]. The first LANES/2 lanes are built that wide and serve INT8 too
// (its operands sign-extended, its result clamped to int8 after the int16 saturation: the same as
// saturating to int8 directly); with INT16 = 0 none of it is built.
// FP16 (f16, on a build with FP16 = 1, which needs INT16 = 1; models/cdp/fp16.py steps 5 and 6): x and the
// LUT value (in_lutf, lane l at [17l+16:17l]) are FP17; v = x * lut (nvdla_fp_mul, FP17) or, MUL_BYPASS, the
// LUT value (x itself when x is a NaN), then FP17 -> FP16 (nvdla_fp_narrow); the output convertor's
// registers are not used and the flag is an output of magnitude 65504 (NV_NVDLA_CDP_DP_cvtout). The wide
// lanes' registers carry it (S1 computes v, S4 narrows it); with FP16 = 0 none of it is built.
// Pipeline: S1 multiply -> S2 subtract -> S3 scale -> S4 round/saturate and flag (output register).
// in_ready depends on out_ready through the stall pipeline (nvdla_pipe_ctrl); the parent cuts paths at its
// own boundary.
module nvdla_cdp_ocvt #(
    parameter LANES = 8,
    parameter LUT_W = 16,
    parameter X_W   = 9,
    parameter OUT_W = 8,
    parameter INT16 = 0,   // 1: the INT16 path (i16; needs X_W 9, OUT_W 8, LUT_W 16)
    parameter FP16  = 0    // 1: the FP16 path (f16; needs INT16 = 1)
) (
    input  wire                   clk,
    input  wire                   rst_n,
    input  wire                   i16,             // INT16 layer (ignored with INT16 = 0)
    /* verilator lint_off UNUSEDSIGNAL */   // FP16 = 0 reads neither
    input  wire                   f16,             // FP16 layer (ignored with FP16 = 0)
    input  wire [LANES/2*17-1:0]  in_lutf,         // FP16: the FP17 LUT values of the LANES/2 lanes
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire                   cfg_mul_bypass,
    /* verilator lint_off UNUSEDSIGNAL */   // INT8 reads bits [24:0]
    input  wire [31:0]            cfg_offset,      // D_DATOUT_OFFSET
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [15:0]            cfg_scale,
    input  wire [5:0]             cfg_shift,
    input  wire                   in_valid,
    output wire                   in_ready,
    input  wire [LANES*LUT_W-1:0] in_lut,
    input  wire [LANES*X_W-1:0]   in_x,
    output wire                   out_valid,
    input  wire                   out_ready,
    output wire [LANES*OUT_W-1:0] out_data,
    output wire [LANES-1:0]       out_sat
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (LANES < 1 || OUT_W < 1 || X_W < 1 || LUT_W < 1 || LUT_W + X_W > 25 || (INT16 != 0 && INT16 != 1)
            || (INT16 == 1 && (LANES < 2 || X_W != 9 || OUT_W != 8 || LUT_W != 16))
            || (FP16 != 0 && FP16 != 1) || (FP16 == 1 && INT16 != 1)) begin
            $display("ERROR: nvdla_cdp_ocvt %m: LANES, OUT_W >= 1, LUT_W + X_W <= 25 (the product is NVDLA's 25-bit ",
                     "multiply); INT16 0 or 1, and with INT16 LANES >= 2, X_W 9, OUT_W 8, LUT_W 16; FP16 0 or 1 ",
                     "and only with INT16");
            $finish;
        end
    end
    localparam HALF = LANES / 2;                 // int16 lanes
    localparam YS   = (INT16 == 1) ? 16 : OUT_W;   // per-lane result register stride

    wire [3:0] en;
    wire       wide16 = (INT16 == 1) && i16;
    wire       fp     = (FP16 == 1) && f16;     // a constant 0 without the FP16 path

    nvdla_pipe_ctrl #(.DEPTH(4)) u_ctrl (
        .clk(clk), .rst_n(rst_n),
        .in_valid(in_valid), .in_ready(in_ready), .stage_en(en),
        .out_valid(out_valid), .out_ready(out_ready)
    );

    // per lane the stored result, sign-extended to YS bits, and its flag
    /* verilator lint_off UNUSEDSIGNAL */
    wire [LANES*YS-1:0] y_q;
    /* verilator lint_on UNUSEDSIGNAL */
    wire [LANES-1:0]    sat_q;

    genvar l;
    generate
        for (l = 0; l < LANES; l = l + 1) begin : g_lane
            localparam WIDE   = (INT16 == 1) && (l < HALF);
            localparam XL     = WIDE ? 17 : X_W;            // x
            localparam V_W    = WIDE ? 33 : 25;             // lut * x (NVDLA's 25-bit multiply at INT8)
            localparam OFF_W  = WIDE ? 32 : 25;             // DATOUT_OFFSET
            localparam DIFF_W = ((V_W > OFF_W) ? V_W : OFF_W) + 1;
            localparam PROD_W = DIFF_W + 16;
            localparam OW     = WIDE ? 16 : OUT_W;
            wire signed [LUT_W-1:0] lut = in_lut[l*LUT_W +: LUT_W];
            wire        [XL-1:0]    x;
            wire        [OFF_W-1:0] off;
            if (WIDE) begin : g_wide
                assign x   = (wide16 || fp) ? in_x[l*17 +: 17] : {{8{in_x[l*X_W + X_W - 1]}}, in_x[l*X_W +: X_W]};
                assign off = wide16 ? cfg_offset : {{7{cfg_offset[24]}}, cfg_offset[24:0]};
            end else begin : g_narrow
                assign x   = in_x[l*X_W +: X_W];
                assign off = cfg_offset[24:0];
            end
            wire signed [V_W-1:0] prod_lx = lut * $signed(x);
            wire signed [V_W-1:0] v = cfg_mul_bypass ? {{(V_W-LUT_W){lut[LUT_W-1]}}, lut} : prod_lx;

            reg  [V_W-1:0]    s1_v;
            reg  [DIFF_W-1:0] s2_diff;
            reg  [PROD_W-1:0] s3_prod;
            reg  [OW-1:0]     s4_y;
            reg               s4_sat;

            wire signed [PROD_W-1:0] p = s3_prod;
            wire signed [OW-1:0]     y;
            /* verilator lint_off UNUSEDSIGNAL */
            wire                     rs_sat;     // the plain clamp flag: CDP counts the HLS flag instead
            /* verilator lint_on UNUSEDSIGNAL */
            nvdla_round_sat #(.IN_W(PROD_W), .SHIFT_W(6), .OUT_W(OW)) u_rs (
                .x(p), .shift(cfg_shift), .y(y), .sat(rs_sat)
            );
            // the element: at INT8 a wide lane's int16 result is clamped to int8 (a narrow lane's already is)
            wire signed [OW-1:0] y_el;
            if (WIDE) begin : g_clamp
                wire lo = y < -16'sd128;
                wire hi = y > 16'sd127;
                assign y_el = (wide16 || !(lo || hi)) ? y : (lo ? -16'sd128 : 16'sd127);
            end else begin : g_as_is
                assign y_el = y;
            end
            wire signed [PROD_W-1:0] fl   = p >>> cfg_shift;
            wire signed [PROD_W-1:0] ys   = {{(PROD_W-OW){y_el[OW-1]}}, y_el};
            wire signed [PROD_W-1:0] dlt  = fl - ys;
            // |floor - y| > 1
            wire                     flag = (dlt > $signed({{(PROD_W-1){1'b0}}, 1'b1}))
                                          | (dlt < $signed({PROD_W{1'b1}}));

            wire [DIFF_W-1:0] diff = $signed({{(DIFF_W-V_W){s1_v[V_W-1]}}, s1_v})
                                   - $signed({{(DIFF_W-OFF_W){off[OFF_W-1]}}, off});
            wire [PROD_W-1:0] prod = $signed(s2_diff) * $signed(cfg_scale);
            // FP16: S1 holds the FP17 v, S2 and S3 pass it on, S4 the FP16 output and its flag
            wire [V_W-1:0]    v_in;
            wire [DIFF_W-1:0] d_in;
            wire [PROD_W-1:0] p_in;
            wire [OW-1:0]     y_in;
            wire              sat_in;
            if (FP16 == 1 && WIDE) begin : g_fp
                wire [16:0] lutf  = in_lutf[l*17 +: 17];
                wire        x_nan = (x[15:10] == 6'h3f) && (x[9:0] != 10'd0);
                wire [16:0] prodf;
                wire [15:0] h;
                nvdla_fp_mul #(.E(6), .M(10)) u_mul (.a(x), .b(lutf), .y(prodf));
                nvdla_fp_narrow #(.EI(6), .MI(10), .EO(5), .MO(10), .DENORM(1)) u_narrow (
                    .x(s3_prod[16:0]), .y(h)
                );
                wire [16:0] vf = cfg_mul_bypass ? (x_nan ? x : lutf) : prodf;
                assign v_in   = fp ? {v[V_W-1:17], vf} : v;
                assign d_in   = fp ? {diff[DIFF_W-1:17], s1_v[16:0]} : diff;
                assign p_in   = fp ? {prod[PROD_W-1:17], s2_diff[16:0]} : prod;
                assign y_in   = fp ? h : y_el;
                assign sat_in = fp ? (h[14:0] == 15'h7bff) : flag;
            end else begin : g_int
                assign v_in   = v;
                assign d_in   = diff;
                assign p_in   = prod;
                assign y_in   = y_el;
                assign sat_in = flag;
            end

            always @(posedge clk) begin
                if (en[0]) s1_v <= v_in;
                if (en[1]) s2_diff <= d_in;
                if (en[2]) s3_prod <= p_in;
                if (en[3]) begin
                    s4_y   <= y_in;
                    s4_sat <= sat_in;
                end
            end
            assign y_q[l*YS +: YS] = {{(YS-OW){s4_y[OW-1]}}, s4_y};
            // an INT16 layer has no elements in the upper lanes
            assign sat_q[l] = s4_sat & ~((wide16 || fp) && (l >= HALF));
        end
    endgenerate

    // the output atom: LANES int8 elements, or LANES/2 int16 ones
    reg [LANES*OUT_W-1:0] pack8;
    integer k;
    always @(*) begin
        for (k = 0; k < LANES; k = k + 1) pack8[k*OUT_W +: OUT_W] = y_q[k*YS +: OUT_W];
    end
    generate
        if (INT16 == 1) begin : g_pack16
            reg [LANES*OUT_W-1:0] pack16;
            integer k16;
            always @(*) begin
                for (k16 = 0; k16 < HALF; k16 = k16 + 1) pack16[k16*16 +: 16] = y_q[k16*YS +: 16];
            end
            assign out_data = (wide16 || fp) ? pack16 : pack8;
        end else begin : g_pack8
            assign out_data = pack8;
        end
    endgenerate
    assign out_sat = sat_q;
endmodule
