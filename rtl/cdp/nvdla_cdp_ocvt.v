// CDP back end, per lane: the multiply by the converted input, then the output convertor (seed 002;
// cmod/hls/cdp_libs/cdp_ocvt.cpp):
//   v = MUL_BYPASS ? lut : lut * x                            (25 bits signed)
//   y = sat8(round_half_away((v - DATOUT_OFFSET[24:0]) * DATOUT_SCALE >> DATOUT_SHIFTER))
// and the saturation flag as the HLS convertor raises it: floor((v - offset) * scale / 2^shift) differs
// from y by more than one (so a value that rounds to 128 and clamps to 127 is not flagged), as
// models/cdp.py output_convert counts it.
// Pipeline: S1 multiply -> S2 subtract -> S3 scale -> S4 round/saturate and flag (output register).
// in_ready depends on out_ready through the stall pipeline (nvdla_pipe_ctrl); the parent cuts paths at its
// own boundary.
module nvdla_cdp_ocvt #(
    parameter LANES = 8,
    parameter LUT_W = 16,
    parameter X_W   = 9,
    parameter OUT_W = 8
) (
    input  wire                   clk,
    input  wire                   rst_n,
    input  wire                   cfg_mul_bypass,
    input  wire [24:0]            cfg_offset,
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
        if (LANES < 1 || OUT_W < 1 || X_W < 1 || LUT_W < 1 || LUT_W + X_W > 25) begin
            $display("ERROR: nvdla_cdp_ocvt %m: LANES, OUT_W >= 1, LUT_W + X_W <= 25 (the product is NVDLA's 25-bit multiply)");
            $finish;
        end
    end
    localparam V_W    = 25;             // the multiply's width in NVDLA (LUT_W + X_W)
    localparam DIFF_W = V_W + 1;
    localparam PROD_W = DIFF_W + 16;

    wire [3:0] en;

    nvdla_pipe_ctrl #(.DEPTH(4)) u_ctrl (
        .clk(clk), .rst_n(rst_n),
        .in_valid(in_valid), .in_ready(in_ready), .stage_en(en),
        .out_valid(out_valid), .out_ready(out_ready)
    );

    reg [LANES*V_W-1:0]    s1_v;
    reg [LANES*DIFF_W-1:0] s2_diff;
    reg [LANES*PROD_W-1:0] s3_prod;
    reg [LANES*OUT_W-1:0]  s4_y;
    reg [LANES-1:0]        s4_sat;

    genvar l;
    generate
        for (l = 0; l < LANES; l = l + 1) begin : g_lane
            wire signed [LUT_W-1:0] lut = in_lut[l*LUT_W +: LUT_W];
            wire signed [X_W-1:0]   x   = in_x[l*X_W +: X_W];
            wire signed [V_W-1:0]   prod_lx = lut * x;
            wire signed [V_W-1:0]   v = cfg_mul_bypass ? {{(V_W-LUT_W){lut[LUT_W-1]}}, lut} : prod_lx;

            wire signed [PROD_W-1:0] p = s3_prod[l*PROD_W +: PROD_W];
            wire signed [OUT_W-1:0]  y;
            /* verilator lint_off UNUSEDSIGNAL */
            wire                     rs_sat;     // the plain clamp flag: CDP counts the HLS flag instead
            /* verilator lint_on UNUSEDSIGNAL */
            nvdla_round_sat #(.IN_W(PROD_W), .SHIFT_W(6), .OUT_W(OUT_W)) u_rs (
                .x(p), .shift(cfg_shift), .y(y), .sat(rs_sat)
            );
            wire signed [PROD_W-1:0] fl   = p >>> cfg_shift;
            wire signed [PROD_W-1:0] ys   = {{(PROD_W-OUT_W){y[OUT_W-1]}}, y};
            wire signed [PROD_W-1:0] dlt  = fl - ys;
            // |floor - y| > 1
            wire                     flag = (dlt > $signed({{(PROD_W-1){1'b0}}, 1'b1}))
                                          | (dlt < $signed({PROD_W{1'b1}}));

            always @(posedge clk) begin
                if (en[0]) s1_v[l*V_W +: V_W] <= v;
                if (en[1]) s2_diff[l*DIFF_W +: DIFF_W] <= $signed({s1_v[l*V_W + V_W - 1], s1_v[l*V_W +: V_W]})
                                                      - $signed({cfg_offset[24], cfg_offset});
                if (en[2]) s3_prod[l*PROD_W +: PROD_W] <= $signed(s2_diff[l*DIFF_W +: DIFF_W])
                                                      * $signed(cfg_scale);
                if (en[3]) begin
                    s4_y[l*OUT_W +: OUT_W] <= y;
                    s4_sat[l] <= flag;
                end
            end
        end
    endgenerate

    assign out_data = s4_y;
    assign out_sat  = s4_sat;
endmodule
