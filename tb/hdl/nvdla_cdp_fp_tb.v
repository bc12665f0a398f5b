// Test harness (not product RTL): the FP16 parts of the CDP datapath around its LUT, at FP16 (tb/test_cdp_fp.py).
//   front: nvdla_cdp_icvt -> nvdla_cdp_sqsum (FP16 = 1): FP16 atoms in the CDP stream order in, the FP17 x
//          (packed x layout) and the FP32 window sums out (models/cdp/fp16.py steps 1-3);
//   back:  nvdla_cdp_ocvt (FP16 = 1): FP17 x and FP17 LUT values in, FP16 outputs and the saturation flags out
//          (steps 5-6).
// The two are independent streams (the LUT sits between them in nvdla_cdp_core).
module nvdla_cdp_fp_tb #(
    parameter ATOM  = 8,
    parameter CHUNK = 8
) (
    input  wire                clk,
    input  wire                rst_n,
    // front
    input  wire                start,
    input  wire [12:0]         cfg_width,       // W - 1
    input  wire [12:0]         cfg_height,      // H - 1
    input  wire [13-$clog2(ATOM):0] cfg_surf,   // surfaces - 1 (ATOM/2 channels each)
    input  wire [$clog2(ATOM)-1:0]  cfg_last_lane,
    input  wire [1:0]          cfg_normalz_len,
    input  wire                cfg_nan_flush,
    input  wire                in_valid,
    output wire                in_ready,
    input  wire [ATOM*8-1:0]   in_data,
    output wire                out_valid,
    input  wire                out_ready,
    output wire [ATOM*9-1:0]   out_x,
    output wire [ATOM*20-1:0]  out_sum,
    // back
    input  wire                cfg_mul_bypass,
    input  wire                b_in_valid,
    output wire                b_in_ready,
    input  wire [ATOM*9+ATOM/2*17-1:0] b_in_data,   // {FP17 LUT values (ATOM/2 x 17), packed FP17 x}
    output wire                b_out_valid,
    input  wire                b_out_ready,
    output wire [ATOM*8-1:0]   b_out_data,
    output wire [ATOM-1:0]     b_out_sat
);
    localparam LANE_W = $clog2(ATOM);
    localparam SURF_W = 14 - LANE_W;

    wire              cvt_valid, cvt_ready;
    wire [ATOM*9-1:0] cvt_data;

    nvdla_cdp_icvt #(.ATOM(ATOM), .INT16(1), .FP16(1)) u_icvt (
        .clk(clk), .rst_n(rst_n), .i16(1'b0), .f16(1'b1), .cfg_nan_flush(cfg_nan_flush),
        .cfg_offset(16'h1234), .cfg_scale(16'h5678), .cfg_shift(5'd3),   // not used at FP16
        .in_valid(in_valid), .in_ready(in_ready), .in_data(in_data),
        .out_valid(cvt_valid), .out_ready(cvt_ready), .out_data(cvt_data)
    );

    nvdla_cdp_sqsum #(.ATOM(ATOM), .CHUNK(CHUNK), .X_W(9), .SUM_W(20), .DIM_W(13), .SURF_W(SURF_W),
                      .LANE_W(LANE_W), .INT16(1), .FP16(1)) u_sqsum (
        .clk(clk), .rst_n(rst_n), .init(start), .i16(1'b0), .f16(1'b1),
        .cfg_width(cfg_width), .cfg_height(cfg_height), .cfg_surf(cfg_surf), .cfg_last_lane(cfg_last_lane),
        .cfg_normalz_len(cfg_normalz_len),
        .in_valid(cvt_valid), .in_ready(cvt_ready), .in_data(cvt_data),
        .out_valid(out_valid), .out_ready(out_ready), .out_x(out_x), .out_sum(out_sum)
    );

    nvdla_cdp_ocvt #(.LANES(ATOM), .LUT_W(16), .X_W(9), .OUT_W(8), .INT16(1), .FP16(1)) u_ocvt (
        .clk(clk), .rst_n(rst_n), .i16(1'b0), .f16(1'b1), .in_lutf(b_in_data[ATOM*9 +: ATOM/2*17]),
        .cfg_mul_bypass(cfg_mul_bypass), .cfg_offset(32'h89abcdef), .cfg_scale(16'h4321), .cfg_shift(6'd5),
        .in_valid(b_in_valid), .in_ready(b_in_ready), .in_lut({(ATOM*16){1'b1}}), .in_x(b_in_data[ATOM*9-1:0]),
        .out_valid(b_out_valid), .out_ready(b_out_ready), .out_data(b_out_data), .out_sat(b_out_sat)
    );
endmodule
