// CDP (local response normalization) datapath core, INT8 and (INT16 = 1) INT16, the model of models/cdp/model.py
// cdp_compute:
//   input convertor (nvdla_cdp_icvt: 9-bit, int8 DATIN_OFFSET) -> square sum over NORMALZ_LEN 3/5/7/9
//   channels (nvdla_cdp_sqsum; SQSUM_BYPASS: x itself) -> hybrid LUT (nvdla_lut, CDP flavour) -> multiply by
//   x (MUL_BYPASS: the LUT value) -> output convertor with the HLS saturation flag (nvdla_cdp_ocvt).
// Stream order and ports: docs/CONTRACTS.md "CDP core". One atom (ATOM int8 lanes) per cycle sustained,
// valid/ready with full backpressure; in_ready and out_valid come from flops.
// INT16 (elem16 on a build with INT16 = 1: both D_DATA_FORMAT registers say INT16): an atom is ATOM/2 int16
// lanes, the same path at models/cdp/model.py's INT16 widths (int16 DATIN_OFFSET, 17-bit x, 36-bit square sums,
// the whole START for every LUT lane, 33-bit products, the 32-bit DATOUT_OFFSET, int16 outputs); the LUT's
// ATOM/2 unused lanes count as hybrid (one per element, as NVIDIA's nv_full RTL counts). The first ATOM/2
// lanes of each stage are built wide for it; with INT16 = 0 none of that is built and elem16 is ignored.
// FP16 (fp16 on a build with FP16 = 1, which needs INT16 = 1: both D_DATA_FORMAT registers say FP16):
// models/cdp/fp16.py in the same ATOM/2 lanes: the input convertor flushes NaNs (D_NAN_FLUSH_TO_ZERO) and
// widens FP16 to FP17, the square sum squares and sums in FP32 (nvdla_cdp_sqsum_fp), the LUT runs at FP16 on
// the FP32 sum (or, SQSUM_BYPASS, x in FP32) and gives FP17, the back end multiplies in FP17 and narrows to
// FP16. D_OUT_SATURATION counts outputs of magnitude 65504, D_NAN_OUTPUT_NUM the NaN outputs of the layer
// before (NVIDIA's register reports a layer's count at the next done: models/subsystem.py), D_NAN_INPUT_NUM
// and D_INF_INPUT_NUM read 0 (models/cdp/fp16.py InputCounter). With FP16 = 0 none of it is built.
//
// The converted atoms travel beside the LUT in a FIFO (rtl/common/nvdla_fifo.v): the fork pushes both only
// together, the join pops both together, so the FIFO holds exactly the atoms inside the LUT (at most its
// skid plus five stages: 7) and a depth of 8 never stalls it.
// A layer: `start` clears the counters and opens the input for W*H*ceil(C/ATOM) atoms; `done` pulses once
// the last output atom was taken. Configuration must stay stable from start to done.
`include "nvdla_cdp_fields.vh"
`include "nvdla_cdp_rdma_fields.vh"
module nvdla_cdp_core #(
    parameter ATOM  = 8,
    parameter CHUNK = 8,
    parameter LUT_PAIRED = 0,  // LUT index (nvdla_lut START_MODE): 0 START[21:0] (nv_small), 1 nvdlav1's INT8 pairs
    parameter INT16 = 0,       // 1: the INT16 path (the configuration's precisions include INT16)
    parameter FP16  = 0,       // 1: the FP16 path (the configuration's precisions include FP16; needs INT16)
    parameter LUT_LANES = ATOM // the LUT's lanes (the configuration's CDP throughput; a gearbox between
                               // them and the atom when fewer: nvdla_lut DP_LANES)
) (
    input  wire                 clk,
    input  wire                 rst_n,
    // layer control
    input  wire                 start,
    input  wire                 elem16,   // the layer's elements are int16 (INT16 = 1 builds only; else ignored)
    input  wire                 fp16,     // the layer's elements are FP16 (FP16 = 1 builds only; else ignored)
    output reg                  busy,
    output reg                  done,
    output wire                 lut_busy, // the LUT tables' clear sweep after reset (nvdla_lut busy)
    // configuration bundles of the CDP and CDP_RDMA register blocks (rtl/gen/nvdla_cdp*_fields.vh):
    // the cube from CDP_RDMA, the datapath and the LUT from CDP
    /* verilator lint_off UNUSEDSIGNAL */  // each block reads its own fields of the bundle
    input  wire [`CDP_CFG_W-1:0]      cfg,
    input  wire [`CDP_RDMA_CFG_W-1:0] rdma_cfg,
    /* verilator lint_on UNUSEDSIGNAL */
    // atom streams
    input  wire                 in_valid,
    output wire                 in_ready,
    input  wire [ATOM*8-1:0]    in_data,
    output wire                 out_valid,
    input  wire                 out_ready,
    output wire [ATOM*8-1:0]    out_data,
    // statistics bundle of the layer (cleared at start, held from done to the next start)
    output wire [`CDP_STAT_W-1:0] stat
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (ATOM < 2 || ATOM > 4096 || (ATOM & (ATOM - 1)) != 0 || CHUNK < 1 || LUT_PAIRED < 0
            || LUT_PAIRED > 1 || (INT16 != 0 && INT16 != 1) || (INT16 == 1 && ATOM < 8)
            || (FP16 != 0 && FP16 != 1) || (FP16 == 1 && INT16 != 1)) begin
            $display("ERROR: nvdla_cdp_core %m: ATOM a power of two, 2 <= ATOM <= 4096 (LANE_W = log2 ATOM, SURF_W = 13 - LANE_W >= 1), CHUNK >= 1, LUT_PAIRED 0 or 1, ",
                     "INT16 0 or 1 and with INT16 ATOM >= 8 (a window of 9 within 4 int16 lanes of each neighbour), ",
                     "FP16 0 or 1 and only with INT16 (its lanes)");
            $finish;
        end
    end
    localparam X_W    = 9;                   // input convertor output (INT16: 17 bits, packed in the same word)
    localparam SUM_W  = 20;                  // square sum: 9 * 256^2 < 2^20 (INT16: 36 bits, packed likewise)
    localparam S16_W  = 36;
    localparam LUT_IN = (INT16 == 1) ? S16_W + 1 : SUM_W + 1;   // signed LUT input: a square sum or (bypass) x
    localparam LUT_W  = 16;                  // CDP LUT output
    localparam LUT_Y  = (FP16 == 1) ? 17 : LUT_W;   // the LUT's output lanes (FP16: FP17, integers sign-extended)
    localparam LANE_W = $clog2(ATOM);        // ATOM is a power of two
    localparam SURF_W = 13 - LANE_W + INT16;   // INT16: twice as many surfaces
    localparam AW     = ATOM * X_W;
    localparam CNT_W  = 32;                  // the statistics registers' width

    // ---------------------------------------------------------------- configuration fields
    wire [12:0] cfg_width   = rdma_cfg[`CDP_RDMA_WIDTH];
    wire [12:0] cfg_height  = rdma_cfg[`CDP_RDMA_HEIGHT];
    wire [12:0] cfg_channel = rdma_cfg[`CDP_RDMA_CHANNEL];
    // constants 0 without the INT16 / FP16 paths, so none of their logic is built
    wire        i16 = (INT16 == 1) && elem16;
    wire        f16 = (FP16 == 1) && fp16;
    wire        w16 = i16 || f16;            // two-byte elements: ATOM/2 lanes

    // ---------------------------------------------------------------- layer control
    wire in_fire  = in_valid & in_ready;
    wire out_fire = out_valid & out_ready;
    wire in_last, out_last;
    reg  in_open;                            // input atoms of the current layer still to come

    // surfaces - 1 and the last surface's last lane: ATOM int8 or ATOM/2 int16 lanes per surface
    wire [SURF_W-1:0] cfg_surf;
    wire [LANE_W-1:0] cfg_last_lane;
    generate
        if (INT16 == 1) begin : g_surf16
            assign cfg_surf      = w16 ? cfg_channel[12:LANE_W-1] : {1'b0, cfg_channel[12:LANE_W]};
            assign cfg_last_lane = w16 ? {1'b0, cfg_channel[LANE_W-2:0]} : cfg_channel[LANE_W-1:0];
        end else begin : g_surf8
            assign cfg_surf      = cfg_channel[12:LANE_W];
            assign cfg_last_lane = cfg_channel[LANE_W-1:0];
        end
    endgenerate

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

    nvdla_cdp_icvt #(.ATOM(ATOM), .INT16(INT16), .FP16(FP16)) u_icvt (
        .clk(clk), .rst_n(rst_n), .i16(i16), .f16(f16), .cfg_nan_flush(cfg[`CDP_NAN_TO_ZERO]),
        .cfg_offset(cfg[`CDP_DATIN_OFFSET]), .cfg_scale(cfg[`CDP_DATIN_SCALE]), .cfg_shift(cfg[`CDP_DATIN_SHIFTER]),
        .in_valid(in_valid & in_open), .in_ready(cvt_in_ready), .in_data(in_data),
        .out_valid(cvt_valid), .out_ready(cvt_ready), .out_data(cvt_data)
    );

    // ---------------------------------------------------------------- square sum
    wire                  sq_valid, sq_ready;
    wire [AW-1:0]         sq_x;
    wire [ATOM*SUM_W-1:0] sq_sum;

    nvdla_cdp_sqsum #(.ATOM(ATOM), .CHUNK(CHUNK), .X_W(X_W), .SUM_W(SUM_W), .DIM_W(13), .SURF_W(SURF_W),
                      .LANE_W(LANE_W), .INT16(INT16), .FP16(FP16)) u_sqsum (
        .clk(clk), .rst_n(rst_n), .init(start), .i16(i16), .f16(f16),
        .cfg_width(cfg_width), .cfg_height(cfg_height), .cfg_surf(cfg_surf), .cfg_last_lane(cfg_last_lane),
        .cfg_normalz_len(cfg[`CDP_NORMALZ_LEN]),
        .in_valid(cvt_valid), .in_ready(cvt_ready), .in_data(cvt_data),
        .out_valid(sq_valid), .out_ready(sq_ready), .out_x(sq_x), .out_sum(sq_sum)
    );

    // ---------------------------------------------------------------- fork: LUT and the x FIFO
    wire lut_in_ready, fifo_in_ready;
    wire [CNT_W-1:0] cnt_le_hit, cnt_lo_hit, cnt_uflow, cnt_oflow, cnt_hybrid, cnt_out_sat;
    assign sq_ready = lut_in_ready & fifo_in_ready;

    // per lane a square sum or (bypass) x, from the packed layouts of the precision
    reg [ATOM*LUT_IN-1:0] lut_in8;
    integer i;
    always @(*) begin
        for (i = 0; i < ATOM; i = i + 1) begin
            lut_in8[i*LUT_IN +: LUT_IN] = cfg[`CDP_SQSUM_BYPASS]
                ? {{(LUT_IN-X_W){sq_x[i*X_W + X_W - 1]}}, sq_x[i*X_W +: X_W]}
                : {{(LUT_IN-SUM_W){1'b0}}, sq_sum[i*SUM_W +: SUM_W]};
        end
    end
    wire [ATOM*LUT_IN-1:0] lut_in;
    generate
        if (INT16 == 1) begin : g_lut_in16
            // INT16: the first ATOM/2 lanes from the 17-bit x / 36-bit sum layouts (the rest is unused)
            reg [ATOM*LUT_IN-1:0] lut_in16;
            integer i16l;
            always @(*) begin
                lut_in16 = lut_in8;
                for (i16l = 0; i16l < ATOM / 2; i16l = i16l + 1) begin
                    lut_in16[i16l*LUT_IN +: LUT_IN] = cfg[`CDP_SQSUM_BYPASS]
                        ? {{(LUT_IN-17){sq_x[i16l*17 + 16]}}, sq_x[i16l*17 +: 17]}
                        : {{(LUT_IN-S16_W){1'b0}}, sq_sum[i16l*S16_W +: S16_W]};
                end
            end
            if (FP16 == 1) begin : g_lut_in_fp
                // FP16: the FP32 sum, or (bypass) x widened to FP32, in the low 32 bits of the first ATOM/2 lanes
                reg [ATOM*LUT_IN-1:0] lut_inf;
                wire [ATOM/2*32-1:0]  x32;
                genvar fl;
                for (fl = 0; fl < ATOM / 2; fl = fl + 1) begin : g_x32
                    nvdla_fp_widen #(.EI(6), .MI(10), .EO(8), .MO(23), .DENORM(0)) u_widen (
                        .x(sq_x[fl*17 +: 17]), .y(x32[fl*32 +: 32])
                    );
                end
                integer fl2;
                always @(*) begin
                    lut_inf = {(ATOM*LUT_IN){1'b0}};
                    for (fl2 = 0; fl2 < ATOM / 2; fl2 = fl2 + 1) begin
                        lut_inf[fl2*LUT_IN +: 32] = cfg[`CDP_SQSUM_BYPASS] ? x32[fl2*32 +: 32] : sq_sum[fl2*32 +: 32];
                    end
                end
                assign lut_in = f16 ? lut_inf : i16 ? lut_in16 : lut_in8;
            end else begin : g_lut_in_int
                assign lut_in = i16 ? lut_in16 : lut_in8;
            end
        end else begin : g_lut_in8
            assign lut_in = lut_in8;
        end
    endgenerate

    wire                  lut_valid, lut_ready;
    wire [ATOM*LUT_Y-1:0] lut_y;
    // the integer values (LUT_W bits of each lane) and, FP16, the FP17 values of the first ATOM/2 lanes
    wire [ATOM*LUT_W-1:0] lut_data;
    wire [ATOM/2*17-1:0]  lut_f17;
    generate
        if (FP16 == 1) begin : g_lut_y17
            reg [ATOM*LUT_W-1:0] lut_int;
            integer yl;
            always @(*) begin
                for (yl = 0; yl < ATOM; yl = yl + 1) lut_int[yl*LUT_W +: LUT_W] = lut_y[yl*LUT_Y +: LUT_W];
            end
            genvar fy;
            for (fy = 0; fy < ATOM / 2; fy = fy + 1) begin : g_f17
                assign lut_f17[fy*17 +: 17] = lut_y[fy*LUT_Y +: 17];
            end
            assign lut_data = lut_int;
        end else begin : g_lut_y16
            assign lut_data = lut_y;
            assign lut_f17  = {(ATOM/2*17){1'b0}};
        end
    endgenerate
    wire                  fifo_valid;
    wire [AW-1:0]         fifo_x;
    wire                  ocvt_ready;

    /* verilator lint_off PINCONNECTEMPTY */
    // lane l is channel l of the atom (ATOM is even): its parity is the channel's
    nvdla_lut #(.LANES(ATOM), .DP_LANES(LUT_LANES), .IN_W(LUT_IN), .CFG_W(`CDP_LUT_CFG_BOUND_W), .SDP(0), .CNT_W(CNT_W),
                .START_MODE(LUT_PAIRED ? 2 : 1), .FP16(FP16)) u_lut (
        // int16 at FP16 too: the upper ATOM/2 lanes count as hybrid (models/cdp/fp16.py, as at INT16)
        .clk(clk), .rst_n(rst_n), .int16(w16), .fp16(f16),
        .lut_cfg(`CDP_LUT_CFG(cfg)),
        .acc_we(cfg[`CDP_LUT_ACCESS_WE]), .acc_table(cfg[`CDP_LUT_TABLE_ID]), .acc_addr(cfg[`CDP_LUT_ACCESS_ADDR]),
        .acc_next(cfg[`CDP_LUT_ACCESS_NEXT]), .acc_wdata(cfg[`CDP_LUT_ACCESS_WDATA]), .acc_rdata(stat[`CDP_LUT_ACCESS_RDATA]),
        .busy(lut_busy),
        .in_valid(sq_valid & fifo_in_ready), .in_ready(lut_in_ready), .in_data(lut_in),
        .out_valid(lut_valid), .out_ready(lut_ready), .out_data(lut_y), .out_dbg(),
        // the C model and the CDP RTL count whatever D_PERF_ENABLE.LUT_EN says (models/cdp/model.py)
        .cnt_clr(start), .cnt_en(1'b1), .cnt_half(1'b0),
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

    nvdla_cdp_ocvt #(.LANES(ATOM), .LUT_W(LUT_W), .X_W(X_W), .OUT_W(8), .INT16(INT16), .FP16(FP16)) u_ocvt (
        .clk(clk), .rst_n(rst_n), .i16(i16), .f16(f16), .in_lutf(lut_f17),
        .cfg_mul_bypass(cfg[`CDP_MUL_BYPASS]), .cfg_offset(cfg[`CDP_DATOUT_OFFSET]),
        .cfg_scale(cfg[`CDP_DATOUT_SCALE]), .cfg_shift(cfg[`CDP_DATOUT_SHIFTER]),
        .in_valid(lut_valid & fifo_valid), .in_ready(ocvt_ready), .in_lut(lut_data), .in_x(fifo_x),
        .out_valid(out_valid), .out_ready(out_ready), .out_data(out_data), .out_sat(out_sat)
    );

    nvdla_sat_counter #(.LANES(ATOM), .CNT_W(CNT_W)) u_sat_cnt (
        .clk(clk), .rst_n(rst_n), .clr(start), .inc_valid(out_fire), .inc_mask(out_sat), .count(cnt_out_sat)
    );

    // ---------------------------------------------------------------- FP16: NaN outputs
    // counted over the first ATOM/2 lanes of every output atom of an FP16 layer (padding lanes included, as
    // the model writes them), reported from the next start on: the register latches the layer before's
    wire [CNT_W-1:0] nan_out_prev;
    generate
        if (FP16 == 1) begin : g_nan_out
            reg [ATOM-1:0] nan_lane;
            integer nl;
            always @(*) begin
                nan_lane = {ATOM{1'b0}};
                for (nl = 0; nl < ATOM / 2; nl = nl + 1) begin
                    nan_lane[nl] = f16 && (out_data[nl*16 + 10 +: 5] == 5'h1f) && (out_data[nl*16 +: 10] != 10'd0);
                end
            end
            wire [CNT_W-1:0] nan_count;
            reg  [CNT_W-1:0] prev;
            nvdla_sat_counter #(.LANES(ATOM), .CNT_W(CNT_W)) u_nan_cnt (
                .clk(clk), .rst_n(rst_n), .clr(start), .inc_valid(out_fire), .inc_mask(nan_lane), .count(nan_count)
            );
            always @(posedge clk or negedge rst_n) begin
                if (!rst_n) prev <= {CNT_W{1'b0}};
                else if (start) prev <= nan_count;
            end
            assign nan_out_prev = prev;
        end else begin : g_no_nan
            assign nan_out_prev = {CNT_W{1'b0}};
        end
    endgenerate

    // ---------------------------------------------------------------- statistics bundle
    // no NaN/Inf input counts (FP16: models/cdp/fp16.py InputCounter, always 0); the write stall count is the
    // write DMA's (nvdla_cdp replaces this 0)
    assign stat[`CDP_NAN_INPUT_NUM]    = 32'd0;
    assign stat[`CDP_INF_INPUT_NUM]    = 32'd0;
    assign stat[`CDP_NAN_OUTPUT_NUM]   = nan_out_prev;
    assign stat[`CDP_OUT_SATURATION]   = cnt_out_sat;
    assign stat[`CDP_PERF_WRITE_STALL] = 32'd0;
    assign stat[`CDP_PERF_LUT_UFLOW]   = cnt_uflow;
    assign stat[`CDP_PERF_LUT_OFLOW]   = cnt_oflow;
    assign stat[`CDP_PERF_LUT_HYBRID]  = cnt_hybrid;
    assign stat[`CDP_PERF_LUT_LE_HIT]  = cnt_le_hit;
    assign stat[`CDP_PERF_LUT_LO_HIT]  = cnt_lo_hit;
endmodule
