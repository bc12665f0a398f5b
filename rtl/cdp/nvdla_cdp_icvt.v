// CDP input convertor (seed 002; cmod/hls/cdp_libs/cdp_icvt.cpp; models/cdp/model.py input_convert), per lane:
//   x' = sat(round_half_away((x - DATIN_OFFSET) * DATIN_SCALE >> DATIN_SHIFTER))
// INT8: ATOM int8 lanes, an int8 offset (DATIN_OFFSET[7:0]), 9-bit results. INT16 (i16, on a build with
// INT16 = 1): ATOM/2 int16 lanes (bytes 2l+1:2l), the int16 offset, 17-bit results.
// Output layout ("packed x", ATOM*9 bits either way): INT8 lane l at bits [9l+8:9l], INT16 lane l at
// [17l+16:17l] (ATOM/2 * 17 bits fit; the bits above are 0).
// With INT16 = 1 the first ATOM/2 lanes are built 17 bits wide and serve both precisions: an INT8 value and
// offset enter them sign-extended and the 17-bit result is clamped to 9 bits, the same as saturating to 9
// bits directly (nested clamps). With INT16 = 0 none of that is built.
// FP16 (f16, on a build with FP16 = 1, which needs INT16 = 1; models/cdp/fp16.py step 1): the offset, scale
// and shifter are not used; a NaN becomes +0 with cfg_nan_flush, then FP16 -> FP17 (nvdla_fp_widen, exact)
// into the same 17-bit lanes. The wide lanes' registers carry it (S1 converts, S2 and S3 pass it on), so
// FP16 adds a widener and three 17-bit multiplexers per lane; with FP16 = 0 none of it is built.
// Pipeline: input skid -> S1 subtract -> S2 multiply -> S3 round/saturate (output register), full
// backpressure; in_ready comes from the skid buffer.
module nvdla_cdp_icvt #(
    parameter ATOM  = 8,
    parameter INT16 = 0,
    parameter FP16  = 0    // 1: FP16 layers too (f16; needs INT16 = 1)
) (
    input  wire              clk,
    input  wire              rst_n,
    /* verilator lint_off UNUSEDSIGNAL */   // INT16 = 0 reads neither i16 nor the offset's high byte
    input  wire              i16,          // INT16 layer (ignored with INT16 = 0)
    input  wire              f16,          // FP16 layer (ignored with FP16 = 0)
    input  wire              cfg_nan_flush, // D_NAN_FLUSH_TO_ZERO (FP16 only)
    input  wire [15:0]       cfg_offset,   // D_DATIN_OFFSET (INT8 reads its low 8 bits)
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [15:0]       cfg_scale,    // D_DATIN_SCALE
    input  wire [4:0]        cfg_shift,    // D_DATIN_SHIFTER
    input  wire              in_valid,
    output wire              in_ready,
    input  wire [ATOM*8-1:0] in_data,
    output wire              out_valid,
    input  wire              out_ready,
    output wire [ATOM*9-1:0] out_data      // packed x (see above)
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (ATOM < 2 || (ATOM % 2) != 0 || (INT16 != 0 && INT16 != 1) || (FP16 != 0 && FP16 != 1)
            || (FP16 == 1 && INT16 != 1)) begin
            $display("ERROR: nvdla_cdp_icvt %m: ATOM even and >= 2, INT16 0 or 1, FP16 0 or 1 and only with INT16");
            $finish;
        end
    end
    localparam HALF = ATOM / 2;                // int16 lanes per atom
    localparam SW   = (INT16 == 1) ? 17 : 9;   // per-lane result register stride

    wire              s0_valid, s0_ready;
    wire [ATOM*8-1:0] s0_data;
    wire [2:0]        en;

    nvdla_skid #(.WIDTH(ATOM*8)) u_in_skid (
        .clk(clk), .rst_n(rst_n),
        .in_valid(in_valid), .in_ready(in_ready), .in_data(in_data),
        .out_valid(s0_valid), .out_ready(s0_ready), .out_data(s0_data)
    );

    nvdla_pipe_ctrl #(.DEPTH(3)) u_ctrl (
        .clk(clk), .rst_n(rst_n),
        .in_valid(s0_valid), .in_ready(s0_ready), .stage_en(en),
        .out_valid(out_valid), .out_ready(out_ready)
    );

    /* verilator lint_off UNUSEDSIGNAL */
    wire wide16 = (INT16 == 1) && i16;
    wire fp     = (FP16 == 1) && f16;     // a constant 0 without the FP16 path
    /* verilator lint_on UNUSEDSIGNAL */
    // per lane the result, sign-extended to SW bits (narrow lanes: 9 bits; wide lanes at INT8: clamped to 9)
    /* verilator lint_off UNUSEDSIGNAL */
    wire [ATOM*SW-1:0] y_q;
    /* verilator lint_on UNUSEDSIGNAL */

    genvar l;
    generate
        for (l = 0; l < ATOM; l = l + 1) begin : g_lane
            localparam WIDE   = (INT16 == 1) && (l < HALF);
            localparam IW     = WIDE ? 16 : 8;       // element and offset width
            localparam SUB_W  = IW + 1;
            localparam PROD_W = SUB_W + 16;
            localparam OW     = WIDE ? 17 : 9;
            wire [IW-1:0] x;
            wire [IW-1:0] off;
            if (WIDE) begin : g_wide
                assign x   = (wide16 || fp) ? s0_data[l*16 +: 16] : {{8{s0_data[l*8 + 7]}}, s0_data[l*8 +: 8]};
                assign off = wide16 ? cfg_offset : {{8{cfg_offset[7]}}, cfg_offset[7:0]};
            end else begin : g_narrow
                assign x   = s0_data[l*8 +: 8];
                assign off = cfg_offset[7:0];
            end
            reg  [SUB_W-1:0]  s1_diff;
            reg  [PROD_W-1:0] s2_prod;
            reg  [OW-1:0]     s3_y;
            wire signed [OW-1:0] y;
            /* verilator lint_off UNUSEDSIGNAL */
            wire                 sat;   // CDP counts no input saturation
            /* verilator lint_on UNUSEDSIGNAL */
            nvdla_round_sat #(.IN_W(PROD_W), .SHIFT_W(5), .OUT_W(OW)) u_rs (
                .x(s2_prod), .shift(cfg_shift), .y(y), .sat(sat)
            );
            // the stored result: at INT8 a wide lane's is clamped to 9 bits (a narrow lane's already is)
            wire [OW-1:0] y_st;
            if (WIDE) begin : g_clamp
                wire lo = y < -17'sd256;
                wire hi = y > 17'sd255;
                assign y_st = (wide16 || !(lo || hi)) ? y : (lo ? -17'sd256 : 17'sd255);
            end else begin : g_as_is
                assign y_st = y;
            end
            wire [SUB_W-1:0]  diff = $signed({x[IW-1], x}) - $signed({off[IW-1], off});
            wire [PROD_W-1:0] prod = $signed(s1_diff) * $signed(cfg_scale);
            // FP16: S1 holds the FP17 value, S2 and S3 pass it on (the integer path otherwise)
            wire [SUB_W-1:0]  d_in;
            wire [PROD_W-1:0] p_in;
            wire [OW-1:0]     y_in;
            if (FP16 == 1 && WIDE) begin : g_fp
                wire        nan = (x[14:10] == 5'h1f) && (x[9:0] != 10'd0);
                wire [15:0] h   = (cfg_nan_flush && nan) ? 16'd0 : x;
                wire [16:0] f17;
                nvdla_fp_widen #(.EI(5), .MI(10), .EO(6), .MO(10), .DENORM(1)) u_widen (.x(h), .y(f17));
                assign d_in = fp ? f17 : diff;
                assign p_in = fp ? {prod[PROD_W-1:17], s1_diff} : prod;
                assign y_in = fp ? s2_prod[16:0] : y_st;
            end else begin : g_int
                assign d_in = diff;
                assign p_in = prod;
                assign y_in = y_st;
            end
            always @(posedge clk) begin
                if (en[0]) s1_diff <= d_in;
                if (en[1]) s2_prod <= p_in;
                if (en[2]) s3_y <= y_in;
            end
            assign y_q[l*SW +: SW] = {{(SW-OW){s3_y[OW-1]}}, s3_y};
        end
    endgenerate

    // the packed layouts
    reg [ATOM*9-1:0] pack8;
    integer k;
    always @(*) begin
        for (k = 0; k < ATOM; k = k + 1) pack8[k*9 +: 9] = y_q[k*SW +: 9];
    end
    generate
        if (INT16 == 1) begin : g_pack16
            reg [ATOM*9-1:0] pack16;
            integer k16;
            always @(*) begin
                pack16 = {(ATOM*9){1'b0}};
                for (k16 = 0; k16 < HALF; k16 = k16 + 1) pack16[k16*17 +: 17] = y_q[k16*SW +: 17];
            end
            assign out_data = (wide16 || fp) ? pack16 : pack8;
        end else begin : g_pack8
            assign out_data = pack8;
        end
    endgenerate
endmodule
