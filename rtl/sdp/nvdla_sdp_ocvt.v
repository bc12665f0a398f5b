// SDP output convertor on LANES lanes (seed 002; models/sdp/datapath.py sdp_datapath / output_saturation):
//   y = sat8(round_half_away((x - CVT_OFFSET) * CVT_SCALE >> CVT_SHIFT))     (33 x 16 bits)
// with the saturation flag D_PERF_OUT_SATURATION counts: the 49 -> 17-bit rounding shift saturated (the
// final clamp to int8 is not counted), judged on the floor of the shift for negative values.
// EQL mode: the data passes unconverted (the compare result 0/1 in its low byte), no flag, and out_neq
// reports lanes whose value is not 0 (D_STATUS.STATUS_UNEQUAL).
// INT16 = 1: each lane is 16 bits wide on out_data: with out16 the 17-bit result saturated to int16
// (models/sdp/datapath.py out_bits 16), else the int8 result sign-extended. The flag is the same.
// FP16 = 1 (needs INT16 = 1) with fp16 (FP16 processing, in the low LANES/2 lanes): the lane's FP32 value
// becomes FP16, or with out_int INT16, in nvdla_sdp_fpo (computed before S1, carried through S2); the flag
// is then an FP16 output of magnitude 65504, and out_nan marks FP16 NaN outputs. out_fp (INT16 processing):
// the 17-bit result becomes FP16. EQL passes its 0/1 as at INT8.
// Pipeline: S1 subtract -> S2 multiply -> S3 round/saturate and flag (output register). in_ready depends
// on out_ready through the stall pipeline (nvdla_pipe_ctrl); the parent cuts paths at its own boundary.
module nvdla_sdp_ocvt #(
    parameter LANES = 8,
    parameter INT16 = 0,                          // 1: 16-bit output lanes, int16 saturation with out16
    parameter FP16  = 0,                          // 1: the fp16 mode (needs INT16 = 1)
    parameter OB    = (INT16 == 1) ? 16 : 8       // output bits per lane (derived; do not set)
) (
    input  wire                clk,
    input  wire                rst_n,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire                out16,             // INT16 output (INT16 = 1 only)
    input  wire                fp16,              // FP16 processing (FP16 = 1 only)
    input  wire                out_int,           // with fp16: INT16 output, else FP16
    input  wire                out_fp,            // without fp16: FP16 output (FP16 = 1 only)
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [31:0]         cfg_offset,
    input  wire [15:0]         cfg_scale,
    input  wire [5:0]          cfg_shift,
    input  wire                cfg_eql,
    input  wire                in_valid,
    output wire                in_ready,
    input  wire [LANES*32-1:0] in_data,
    output wire                out_valid,
    input  wire                out_ready,
    output wire [LANES*OB-1:0] out_data,
    output wire [LANES-1:0]    out_sat,
    output wire [LANES-1:0]    out_neq,
    output wire [LANES-1:0]    out_nan            // FP16 NaN outputs (fp16 only)
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (LANES < 1 || (INT16 != 0 && INT16 != 1) || OB != ((INT16 == 1) ? 16 : 8) || (FP16 != 0 && FP16 != 1)
            || (FP16 == 1 && INT16 != 1)) begin
            $display("ERROR: nvdla_sdp_ocvt %m: LANES >= 1, INT16 0 or 1, OB not set, FP16 0 or 1 and only with INT16");
            $finish;
        end
    end
    localparam signed [48:0] NEG_LIMIT = -49'sd65536;     // floor below -2^16 saturates the 17-bit stage

    wire [2:0] en;

    nvdla_pipe_ctrl #(.DEPTH(3)) u_ctrl (
        .clk(clk), .rst_n(rst_n),
        .in_valid(in_valid), .in_ready(in_ready), .stage_en(en),
        .out_valid(out_valid), .out_ready(out_ready)
    );

    genvar l;
    generate
        for (l = 0; l < LANES; l = l + 1) begin : g_lane
            reg signed [32:0] s1_diff;
            reg signed [48:0] s2_prod;
            reg        [7:0]  s1_low, s2_low;
            reg        [OB-1:0] s3_y;
            reg               s1_nz, s2_nz, s3_sat, s3_neq, s3_nan;
            wire [OB-1:0]     f_y;      // the fp16 mode's result and flags at S2 (0 with FP16 = 0)
            wire              f_sat, f_nan;
            wire [OB-1:0]     i_fp;     // the INT result, FP16 with out_fp
            wire              f_on = (FP16 == 1) & fp16;

            wire signed [31:0] x     = in_data[l*32 +: 32];
            wire signed [32:0] xw    = {x[31], x};
            wire signed [32:0] offw  = {cfg_offset[31], cfg_offset};
            wire signed [48:0] difw  = {{16{s1_diff[32]}}, s1_diff};
            wire signed [48:0] sclw  = {{33{cfg_scale[15]}}, cfg_scale};

            wire signed [16:0] y17;
            wire               sat17;
            nvdla_round_sat #(.IN_W(49), .SHIFT_W(6), .OUT_W(17)) u_rs (
                .x(s2_prod), .shift(cfg_shift), .y(y17), .sat(sat17)
            );
            // int8 clamp of the 17-bit result (the same value as rounding straight to 8 bits)
            wire [7:0] y8 = (~y17[16] & (|y17[15:7])) ? 8'h7F
                          : (y17[16] & ~(&y17[15:7])) ? 8'h80
                          : y17[7:0];
            // int16 clamp (INT16 = 1 with out16), else the int8 result sign-extended to the lane; EQL's
            // result passes in the low byte
            wire [OB-1:0] yo, low;
            if (INT16 == 1) begin : g_w16
                wire [15:0] y16 = (~y17[16] & y17[15]) ? 16'h7FFF : (y17[16] & ~y17[15]) ? 16'h8000 : y17[15:0];
                assign yo  = out16 ? y16 : {{8{y8[7]}}, y8};
                assign low = {8'd0, s2_low};
            end else begin : g_w8
                assign yo  = y8;
                assign low = s2_low;
            end
            // the FP16 results exist in the low LANES/2 lanes only: FP16 and INT16 processing use no others
            if (FP16 == 1 && l < LANES / 2) begin : g_fp
                wire [15:0] fy, hi;
                wire        fnan, fsat;
                reg  [15:0] s1_f, s2_f;
                reg         s1_fnan, s1_fsat, s2_fnan, s2_fsat;
                nvdla_sdp_fpo u_fpo (.x(x), .out_int(out_int), .y(fy), .nan(fnan), .sat(fsat), .i17(y17),
                                     .hi(hi));
                always @(posedge clk) begin
                    if (en[0]) begin s1_f <= fy;   s1_fnan <= fnan;    s1_fsat <= fsat;    end
                    if (en[1]) begin s2_f <= s1_f; s2_fnan <= s1_fnan; s2_fsat <= s1_fsat; end
                end
                assign f_y   = s2_f;
                assign f_nan = s2_fnan;
                assign f_sat = s2_fsat;
                assign i_fp  = out_fp ? hi : yo;
            end else begin : g_no_fp
                assign f_y   = {OB{1'b0}};
                assign f_nan = 1'b0;
                assign f_sat = 1'b0;
                assign i_fp  = yo;
            end
            wire signed [48:0] fl   = s2_prod >>> cfg_shift;
            wire               flag = s2_prod[48] ? (fl < NEG_LIMIT) : sat17;

            always @(posedge clk) begin
                if (en[0]) begin
                    s1_diff <= xw - offw;
                    s1_low  <= x[7:0];
                    s1_nz   <= x != 32'sd0;
                end
                if (en[1]) begin
                    s2_prod <= difw * sclw;
                    s2_low  <= s1_low;
                    s2_nz   <= s1_nz;
                end
                if (en[2]) begin
                    s3_y   <= cfg_eql ? low : f_on ? f_y : i_fp;
                    s3_sat <= ~cfg_eql & (f_on ? f_sat : flag);
                    s3_neq <= cfg_eql & s2_nz;
                    s3_nan <= ~cfg_eql & f_on & f_nan;
                end
            end
            assign out_data[l*OB +: OB] = s3_y;
            assign out_sat[l]         = s3_sat;
            assign out_neq[l]         = s3_neq;
            assign out_nan[l]         = s3_nan;
        end
    endgenerate
endmodule
