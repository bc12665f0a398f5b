// CDP (local response normalization) datapath core, INT8, the model of models/cdp.py cdp_compute:
//   input convertor (nvdla_cvt: 9-bit, int8 DATIN_OFFSET) -> square sum over NORMALZ_LEN 3/5/7/9 channels
//   (nvdla_cdp_sqsum; SQSUM_BYPASS: x itself) -> hybrid LUT (nvdla_lut, CDP flavour) -> multiply by x
//   (MUL_BYPASS: the LUT value) -> output convertor with the HLS saturation flag (nvdla_cdp_ocvt).
// Stream order and ports: docs/CONTRACTS.md "CDP core". One atom (ATOM int8 lanes) per cycle sustained,
// valid/ready with full backpressure; in_ready and out_valid/out_data come from flops.
//
// The converted atoms travel beside the LUT in a FIFO (rtl/common/nvdla_fifo.v): the fork pushes both only
// together, the join pops both together, so the FIFO holds exactly the atoms inside the LUT (at most its
// skid plus five stages: 7) and a depth of 8 never stalls it.
// A layer: `start` clears the counters and opens the input for W*H*ceil(C/ATOM) atoms; `done` pulses once
// the last output atom was taken. Configuration must stay stable from start to done.
module nvdla_cdp_core #(
    parameter ATOM  = 8,
    parameter CHUNK = 8,
    parameter CNT_W = 32
) (
    input  wire                 clk,
    input  wire                 rst_n,
    // layer control
    input  wire                 start,
    output reg                  busy,
    output reg                  done,
    // D_DATA_CUBE_* (CDP_RDMA), D_LRN_CFG, D_FUNC_BYPASS, D_DATIN_*, D_DATOUT_*: raw register fields
    input  wire [12:0]          cfg_width,
    input  wire [12:0]          cfg_height,
    input  wire [12:0]          cfg_channel,
    input  wire [1:0]           cfg_normalz_len,
    input  wire                 cfg_sqsum_bypass,
    input  wire                 cfg_mul_bypass,
    input  wire [15:0]          cfg_datin_offset,
    input  wire [15:0]          cfg_datin_scale,
    input  wire [4:0]           cfg_datin_shifter,
    input  wire [31:0]          cfg_datout_offset,
    input  wire [15:0]          cfg_datout_scale,
    input  wire [5:0]           cfg_datout_shifter,
    // S_LUT_* fields (START/END: {HIGH[5:0], LOW[31:0]})
    input  wire                 cfg_lut_le_function,
    input  wire                 cfg_lut_uflow_priority,
    input  wire                 cfg_lut_oflow_priority,
    input  wire                 cfg_lut_hybrid_priority,
    input  wire [7:0]           cfg_lut_le_index_offset,
    input  wire [7:0]           cfg_lut_le_index_select,
    input  wire [7:0]           cfg_lut_lo_index_select,
    input  wire [37:0]          cfg_lut_le_start,
    input  wire [37:0]          cfg_lut_le_end,
    input  wire [37:0]          cfg_lut_lo_start,
    input  wire [37:0]          cfg_lut_lo_end,
    input  wire [15:0]          cfg_lut_le_slope_uflow_scale,
    input  wire [15:0]          cfg_lut_le_slope_oflow_scale,
    input  wire [4:0]           cfg_lut_le_slope_uflow_shift,
    input  wire [4:0]           cfg_lut_le_slope_oflow_shift,
    input  wire [15:0]          cfg_lut_lo_slope_uflow_scale,
    input  wire [15:0]          cfg_lut_lo_slope_oflow_scale,
    input  wire [4:0]           cfg_lut_lo_slope_uflow_shift,
    input  wire [4:0]           cfg_lut_lo_slope_oflow_shift,
    // LUT access port (nvdla_lut / nvdla_lut_ram, CDP saturating pointer)
    input  wire                 acc_cfg_we,
    input  wire [9:0]           acc_cfg_addr,
    input  wire                 acc_cfg_table,
    input  wire                 acc_cfg_write,
    output wire [9:0]           acc_cfg_addr_q,
    output wire                 acc_table,
    output wire                 acc_write,
    input  wire                 acc_data_we,
    input  wire [15:0]          acc_data_wdata,
    input  wire                 acc_data_re,
    output wire [15:0]          acc_data_rdata,
    // atom streams
    input  wire                 in_valid,
    output wire                 in_ready,
    input  wire [ATOM*8-1:0]    in_data,
    output wire                 out_valid,
    input  wire                 out_ready,
    output wire [ATOM*8-1:0]    out_data,
    // statistics of the layer (cleared at start)
    output wire [CNT_W-1:0]     cnt_le_hit,
    output wire [CNT_W-1:0]     cnt_lo_hit,
    output wire [CNT_W-1:0]     cnt_uflow,
    output wire [CNT_W-1:0]     cnt_oflow,
    output wire [CNT_W-1:0]     cnt_hybrid,
    output wire [CNT_W-1:0]     cnt_out_sat
);
    localparam X_W    = 9;                   // input convertor output
    localparam SUM_W  = 20;                  // square sum: 9 * 256^2 < 2^20
    localparam LUT_IN = SUM_W + 1;           // signed LUT input: a square sum or (bypass) x
    localparam LUT_W  = 16;                  // CDP LUT output
    localparam LANE_W = $clog2(ATOM);        // ATOM is a power of two
    localparam SURF_W = 13 - LANE_W;
    localparam AW     = ATOM * X_W;

    // ---------------------------------------------------------------- layer control
    wire in_fire  = in_valid & in_ready;
    wire out_fire = out_valid & out_ready;
    wire in_last, out_last;
    reg  in_open;                            // input atoms of the current layer still to come

    wire [SURF_W-1:0] cfg_surf      = cfg_channel[12:LANE_W];
    wire [LANE_W-1:0] cfg_last_lane = cfg_channel[LANE_W-1:0];

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            busy    <= 1'b0;
            done    <= 1'b0;
            in_open <= 1'b0;
        end else begin
            done <= out_fire & out_last & busy;
            if (start) busy <= 1'b1;
            else if (out_fire & out_last) busy <= 1'b0;
            if (start) in_open <= 1'b1;
            else if (in_fire & in_last) in_open <= 1'b0;
        end
    end

    /* verilator lint_off PINCONNECTEMPTY */
    nvdla_cdp_walk #(.CHUNK(CHUNK), .DIM_W(13), .SURF_W(SURF_W)) u_in_walk (
        .clk(clk), .rst_n(rst_n), .init(start), .step(in_fire),
        .cfg_width(cfg_width), .cfg_height(cfg_height), .cfg_surf(cfg_surf),
        .cw_m1(), .s_first(), .s_last(), .last(in_last)
    );
    nvdla_cdp_walk #(.CHUNK(CHUNK), .DIM_W(13), .SURF_W(SURF_W)) u_out_walk (
        .clk(clk), .rst_n(rst_n), .init(start), .step(out_fire),
        .cfg_width(cfg_width), .cfg_height(cfg_height), .cfg_surf(cfg_surf),
        .cw_m1(), .s_first(), .s_last(), .last(out_last)
    );
    /* verilator lint_on PINCONNECTEMPTY */

    // ---------------------------------------------------------------- input convertor
    wire            cvt_in_ready;
    wire            cvt_valid, cvt_ready;
    wire [AW-1:0]   cvt_data;

    assign in_ready = cvt_in_ready & in_open;

    /* verilator lint_off PINCONNECTEMPTY */
    nvdla_cvt #(.LANES(ATOM), .IN_W(8), .OFFSET_W(8), .SCALE_W(16), .SHIFT_W(5), .OUT_W(X_W), .CNT_W(8))
    u_icvt (
        .clk(clk), .rst_n(rst_n),
        .cfg_offset(cfg_datin_offset[7:0]), .cfg_scale(cfg_datin_scale), .cfg_shift(cfg_datin_shifter),
        .sat_count_clr(start),
        .in_valid(in_valid & in_open), .in_ready(cvt_in_ready), .in_data(in_data),
        .out_valid(cvt_valid), .out_ready(cvt_ready), .out_data(cvt_data),
        .out_sat(), .sat_count()
    );
    /* verilator lint_on PINCONNECTEMPTY */

    // ---------------------------------------------------------------- square sum
    wire                  sq_valid, sq_ready;
    wire [AW-1:0]         sq_x;
    wire [ATOM*SUM_W-1:0] sq_sum;

    nvdla_cdp_sqsum #(.ATOM(ATOM), .CHUNK(CHUNK), .X_W(X_W), .SUM_W(SUM_W), .DIM_W(13), .SURF_W(SURF_W),
                      .LANE_W(LANE_W)) u_sqsum (
        .clk(clk), .rst_n(rst_n), .init(start),
        .cfg_width(cfg_width), .cfg_height(cfg_height), .cfg_surf(cfg_surf), .cfg_last_lane(cfg_last_lane),
        .cfg_normalz_len(cfg_normalz_len),
        .in_valid(cvt_valid), .in_ready(cvt_ready), .in_data(cvt_data),
        .out_valid(sq_valid), .out_ready(sq_ready), .out_x(sq_x), .out_sum(sq_sum)
    );

    // ---------------------------------------------------------------- fork: LUT and the x FIFO
    wire lut_in_ready, fifo_in_ready;
    assign sq_ready = lut_in_ready & fifo_in_ready;

    reg [ATOM*LUT_IN-1:0] lut_in;
    integer i;
    always @(*) begin
        for (i = 0; i < ATOM; i = i + 1) begin
            lut_in[i*LUT_IN +: LUT_IN] = cfg_sqsum_bypass
                ? {{(LUT_IN-X_W){sq_x[i*X_W + X_W - 1]}}, sq_x[i*X_W +: X_W]}
                : {1'b0, sq_sum[i*SUM_W +: SUM_W]};
        end
    end

    wire                  lut_valid, lut_ready;
    wire [ATOM*LUT_W-1:0] lut_data;
    wire                  fifo_valid;
    wire [AW-1:0]         fifo_x;
    wire                  ocvt_ready;

    /* verilator lint_off PINCONNECTEMPTY */
    nvdla_lut #(.LANES(ATOM), .IN_W(LUT_IN), .CFG_W(38), .SDP(0), .CNT_W(CNT_W)) u_lut (
        .clk(clk), .rst_n(rst_n),
        .cfg_le_function(cfg_lut_le_function), .cfg_uflow_priority(cfg_lut_uflow_priority),
        .cfg_oflow_priority(cfg_lut_oflow_priority), .cfg_hybrid_priority(cfg_lut_hybrid_priority),
        .cfg_le_index_offset(cfg_lut_le_index_offset), .cfg_le_index_select(cfg_lut_le_index_select),
        .cfg_lo_index_select(cfg_lut_lo_index_select),
        .cfg_le_start(cfg_lut_le_start), .cfg_le_end(cfg_lut_le_end),
        .cfg_lo_start(cfg_lut_lo_start), .cfg_lo_end(cfg_lut_lo_end),
        .cfg_le_slope_uflow_scale(cfg_lut_le_slope_uflow_scale),
        .cfg_le_slope_oflow_scale(cfg_lut_le_slope_oflow_scale),
        .cfg_le_slope_uflow_shift(cfg_lut_le_slope_uflow_shift),
        .cfg_le_slope_oflow_shift(cfg_lut_le_slope_oflow_shift),
        .cfg_lo_slope_uflow_scale(cfg_lut_lo_slope_uflow_scale),
        .cfg_lo_slope_oflow_scale(cfg_lut_lo_slope_oflow_scale),
        .cfg_lo_slope_uflow_shift(cfg_lut_lo_slope_uflow_shift),
        .cfg_lo_slope_oflow_shift(cfg_lut_lo_slope_oflow_shift),
        .acc_cfg_we(acc_cfg_we), .acc_cfg_addr(acc_cfg_addr), .acc_cfg_table(acc_cfg_table),
        .acc_cfg_write(acc_cfg_write), .acc_cfg_addr_q(acc_cfg_addr_q), .acc_table(acc_table),
        .acc_write(acc_write), .acc_data_we(acc_data_we), .acc_data_wdata(acc_data_wdata),
        .acc_data_re(acc_data_re), .acc_data_rdata(acc_data_rdata),
        .in_valid(sq_valid & fifo_in_ready), .in_ready(lut_in_ready), .in_data(lut_in),
        .out_valid(lut_valid), .out_ready(lut_ready), .out_data(lut_data), .out_dbg(),
        // the C model and the CDP RTL count whatever D_PERF_ENABLE.LUT_EN says (models/cdp.py)
        .cnt_clr(start), .cnt_en(1'b1),
        .cnt_le_hit(cnt_le_hit), .cnt_lo_hit(cnt_lo_hit), .cnt_uflow(cnt_uflow), .cnt_oflow(cnt_oflow),
        .cnt_hybrid(cnt_hybrid)
    );
    /* verilator lint_on PINCONNECTEMPTY */

    nvdla_fifo #(.WIDTH(AW), .DEPTH(8)) u_xfifo (
        .clk(clk), .rst_n(rst_n),
        .in_valid(sq_valid & lut_in_ready), .in_ready(fifo_in_ready), .in_data(sq_x),
        .out_valid(fifo_valid), .out_ready(ocvt_ready & lut_valid), .out_data(fifo_x)
    );

    // ---------------------------------------------------------------- join: multiply and output convertor
    wire [ATOM-1:0] out_sat;
    assign lut_ready = ocvt_ready & fifo_valid;

    nvdla_cdp_ocvt #(.LANES(ATOM), .LUT_W(LUT_W), .X_W(X_W), .OUT_W(8)) u_ocvt (
        .clk(clk), .rst_n(rst_n),
        .cfg_mul_bypass(cfg_mul_bypass), .cfg_offset(cfg_datout_offset[24:0]),
        .cfg_scale(cfg_datout_scale), .cfg_shift(cfg_datout_shifter),
        .in_valid(lut_valid & fifo_valid), .in_ready(ocvt_ready), .in_lut(lut_data), .in_x(fifo_x),
        .out_valid(out_valid), .out_ready(out_ready), .out_data(out_data), .out_sat(out_sat)
    );

    nvdla_sat_counter #(.LANES(ATOM), .CNT_W(CNT_W)) u_sat_cnt (
        .clk(clk), .rst_n(rst_n), .clr(start), .inc_valid(out_fire), .inc_mask(out_sat), .count(cnt_out_sat)
    );

    // D_DATIN_OFFSET is int8 in nv_small and D_DATOUT_OFFSET 25 bits (models/cdp.py): the rest is unused
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_cfg = ^{cfg_datin_offset[15:8], cfg_datout_offset[31:25]};
    /* verilator lint_on UNUSEDSIGNAL */
endmodule
