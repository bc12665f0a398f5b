// The convolution pipeline (direct convolution, feature input, INT8): CDMA (feature and weight DMA,
// rtl/cdma) -> CBUF (rtl/cbuf) -> CSC (rtl/csc: weight atoms into CMAC, one operation a cycle) -> CMAC
// (rtl/cmac, both halves) -> CACC (rtl/cacc) -> `out_*`, SDP's on-the-fly input (AK 32-bit lanes a beat, the
// output cube's order). Each unit's fields come from its own register block: CDMA's for what is read and
// where CBUF holds it, CSC's for the convolution walk, CACC's for the truncation; copies that disagree
// give wrong data, never a stall (every wait has an exit: see nvdla_csc_wt, nvdla_cdma_wt).
//
// One layer runs when all five units' OP_EN are set (NVIDIA's driver enables them in reverse order; the
// layer starts with the last) and ends when CDMA has written every byte, CSC has issued every operation and
// CACC has delivered every output: `done` then ends all five register groups. `dat_done` / `wt_done` pulse
// when CDMA's feature data / weights are all in CBUF (GLB's CDMA_DAT / CDMA_WT bits); `out_end` holds from
// done to the next start (SDP then pads a layer that asked for more outputs than the convolution makes).
//
// CBUF layout: data banks 0..DATA_BANK, weight banks after them; feature line h at entry h * pitch
// (pitch = D_ENTRY_PER_SLICE, CDMA's copy for the writes, CSC's for the reads), block b's W entries at b * W
// in the slice, a short last block packed several pixels an entry as NVIDIA's CDMA packs it (nvdla_cdma_dat):
// a slice takes NVIDIA's ENTRY_PER_SLICE, so an input filling DATA_BANK stays out of the weight banks; weights as the byte image NVIDIA's driver writes,
// entry after entry in a circular region (partial-weight mode: CDMA refills what CSC releases).
// Not built: Winograd, image input, INT16/FP16, compressed weights, multi-batch, data/weight reuse across
// layers (CDMA always fetches); those registers are ignored (the layer runs as direct convolution).
`include "nvdla_cdma_fields.vh"
`include "nvdla_csc_fields.vh"
`include "nvdla_cacc_fields.vh"
module nvdla_conv #(
    parameter ATOM            = 8,     // memory atom bytes
    parameter AC              = 8,     // atomic C (= CBUF entry bytes)
    parameter AK              = 8,     // atomic K
    parameter BANKS           = 32,
    parameter DEPTH           = 512,   // entries per bank
    parameter EB              = 8,     // CBUF entry bytes
    parameter MAX_BURST       = 16,
    parameter MAX_OUTSTANDING = 8
) (
    input  wire                  clk,
    input  wire                  rst_n,
    input  wire                  cdma_op_en,
    input  wire                  csc_op_en,
    input  wire                  cmac_a_op_en,
    input  wire                  cmac_b_op_en,
    input  wire                  cacc_op_en,
    /* verilator lint_off UNUSEDSIGNAL */  // each block reads its own fields of the bundles
    input  wire [`CDMA_CFG_W-1:0] cdma_cfg,
    input  wire [`CSC_CFG_W-1:0]  csc_cfg,
    input  wire [`CACC_CFG_W-1:0] cacc_cfg,
    /* verilator lint_on UNUSEDSIGNAL */
    output wire [`CDMA_STAT_W-1:0] cdma_stat,
    output wire [`CACC_STAT_W-1:0] cacc_stat,
    output wire                  done,
    output reg                   dat_done,
    output reg                   wt_done,
    output wire                  busy,
    output wire                  out_valid,
    input  wire                  out_ready,
    output wire [AK*32-1:0]      out_data,
    output reg                   out_end,
    // feature-data AXI read master
    output wire                  m_axi_arvalid,
    input  wire                  m_axi_arready,
    output wire [31:0]           m_axi_araddr,
    output wire [7:0]            m_axi_arlen,
    output wire [2:0]            m_axi_arsize,
    output wire [1:0]            m_axi_arburst,
    output wire [3:0]            m_axi_arid,
    output wire                  m_axi_aruser,
    input  wire                  m_axi_rvalid,
    output wire                  m_axi_rready,
    input  wire [ATOM*8-1:0]     m_axi_rdata,
    input  wire [1:0]            m_axi_rresp,
    input  wire                  m_axi_rlast,
    // weight AXI read master
    output wire                  w_axi_arvalid,
    input  wire                  w_axi_arready,
    output wire [31:0]           w_axi_araddr,
    output wire [7:0]            w_axi_arlen,
    output wire [2:0]            w_axi_arsize,
    output wire [1:0]            w_axi_arburst,
    output wire [3:0]            w_axi_arid,
    output wire                  w_axi_aruser,
    input  wire                  w_axi_rvalid,
    output wire                  w_axi_rready,
    input  wire [ATOM*8-1:0]     w_axi_rdata,
    input  wire [1:0]            w_axi_rresp,
    input  wire                  w_axi_rlast
);
    localparam STRIPE = (2 * AK > 32) ? 2 * AK : 32;   // >= loading an atom's AK kernels + hand-over
    // an entry of EB bytes (nv_full: 128 = two atomic C) is kept as EB / AC entries of AC bytes: the same
    // banks and capacity, one atomic C an entry (the layout below)
    localparam D_EFF  = DEPTH * (EB / AC);
    localparam PW     = $clog2(STRIPE);
    localparam A_W    = $clog2(BANKS) + $clog2(D_EFF);
    localparam PARTS  = AC / ATOM;
    localparam PSW    = 16 + $clog2(AC);
    localparam EPR    = EB / AC;

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (EB < AC || EB % AC != 0 || ((EB / AC) & (EB / AC - 1)) != 0 || AC < ATOM || AC % ATOM != 0 || AK < 4
            || AK > AC || (AK & (AK - 1)) != 0) begin
            $display("ERROR: nvdla_conv %m: CBUF entry bytes EB a power-of-two multiple of atomic C, AC a multiple ",
                     "of the memory atom, AK a power of two, 4 <= AK <= AC (the units check the rest)");
            $finish;
        end
    end

    // ---- layer control
    wire all_en = cdma_op_en & csc_op_en & cmac_a_op_en & cmac_b_op_en & cacc_op_en;
    wire start, running;
    /* verilator lint_off UNUSEDSIGNAL */
    wire finished_unused;
    /* verilator lint_on UNUSEDSIGNAL */
    wire dat_all, wt_all, csc_wt_done, csc_dat_busy, cacc_idle;
    wire mac_empty;
    wire finish = dat_all & wt_all & csc_wt_done & ~csc_dat_busy & mac_empty & cacc_idle;
    nvdla_layer_ctrl #(.N_FLAGS(1)) u_ctrl (
        .clk(clk), .rst_n(rst_n), .op_en(all_en), .set(1'b0), .finish(finish),
        .start(start), .running(running), .finished(finished_unused), .done(done)
    );
    assign busy = running;
    reg dat_q, wt_q;
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            dat_q <= 1'b0; wt_q <= 1'b0; dat_done <= 1'b0; wt_done <= 1'b0; out_end <= 1'b0;
        end else begin
            dat_q <= dat_all & running;
            wt_q  <= wt_all & running;
            dat_done <= dat_all & running & ~dat_q;
            wt_done  <= wt_all & running & ~wt_q;
            if (start) out_end <= 1'b0;
            else if (done) out_end <= 1'b1;
        end
    end

    // ---- CDMA
    wire [PARTS-1:0] dw_we, ww_we;
    wire [A_W-1:0]   dw_addr, ww_addr;
    wire [AC*8-1:0]  dw_data, ww_data;
    wire [31:0]      wt_written, wt_released;
    wire             dat_stall, wt_stall, wt_blocked;
    wire [13:0]      dat_slices;
    nvdla_cdma_dat #(.ATOM(ATOM), .AC(AC), .EPR(EPR), .BANKS(BANKS), .DEPTH(D_EFF), .MAX_BURST(MAX_BURST),
                     .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_cdma_dat (
        .clk(clk), .rst_n(rst_n), .start(start),
        .width_m1(cdma_cfg[`CDMA_DATAIN_WIDTH]), .height_m1(cdma_cfg[`CDMA_DATAIN_HEIGHT]),
        .channel_m1(cdma_cfg[`CDMA_DATAIN_CHANNEL]), .base(cdma_cfg[`CDMA_DATAIN_ADDR_LOW_0]),
        .line_stride(cdma_cfg[`CDMA_LINE_STRIDE]), .surf_stride(cdma_cfg[`CDMA_SURF_STRIDE]),
        .entries_m1(cdma_cfg[`CDMA_ENTRIES]), .surf_packed(cdma_cfg[`CDMA_SURF_PACKED]), .ram_type(cdma_cfg[`CDMA_DATAIN_RAM_TYPE]),
        .cvt_en(cdma_cfg[`CDMA_CVT_EN]), .cvt_offset(cdma_cfg[`CDMA_CVT_OFFSET]),
        .cvt_scale(cdma_cfg[`CDMA_CVT_SCALE]), .cvt_truncate(cdma_cfg[`CDMA_CVT_TRUNCATE]),
        .cb_we(dw_we), .cb_addr(dw_addr), .cb_data(dw_data), .done(dat_all), .slices(dat_slices),
        .ar_stall(dat_stall),
        .m_axi_arvalid(m_axi_arvalid), .m_axi_arready(m_axi_arready), .m_axi_araddr(m_axi_araddr),
        .m_axi_arlen(m_axi_arlen), .m_axi_arsize(m_axi_arsize), .m_axi_arburst(m_axi_arburst),
        .m_axi_arid(m_axi_arid), .m_axi_aruser(m_axi_aruser), .m_axi_rvalid(m_axi_rvalid),
        .m_axi_rready(m_axi_rready), .m_axi_rdata(m_axi_rdata), .m_axi_rresp(m_axi_rresp),
        .m_axi_rlast(m_axi_rlast)
    );
    nvdla_cdma_wt #(.ATOM(ATOM), .AC(AC), .BANKS(BANKS), .DEPTH(D_EFF), .MAX_BURST(MAX_BURST),
                    .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_cdma_wt (
        .clk(clk), .rst_n(rst_n), .start(start),
        .addr(cdma_cfg[`CDMA_WEIGHT_ADDR_LOW]), .bytes(cdma_cfg[`CDMA_WEIGHT_BYTES]),
        .ram_type(cdma_cfg[`CDMA_WEIGHT_RAM_TYPE]), .data_bank_m1(cdma_cfg[`CDMA_DATA_BANK]),
        .weight_bank_m1(cdma_cfg[`CDMA_WEIGHT_BANK]), .released(wt_released),
        .cb_we(ww_we), .cb_addr(ww_addr), .cb_data(ww_data), .written(wt_written), .done(wt_all),
        .blocked(wt_blocked), .ar_stall(wt_stall),
        .m_axi_arvalid(w_axi_arvalid), .m_axi_arready(w_axi_arready), .m_axi_araddr(w_axi_araddr),
        .m_axi_arlen(w_axi_arlen), .m_axi_arsize(w_axi_arsize), .m_axi_arburst(w_axi_arburst),
        .m_axi_arid(w_axi_arid), .m_axi_aruser(w_axi_aruser), .m_axi_rvalid(w_axi_rvalid),
        .m_axi_rready(w_axi_rready), .m_axi_rdata(w_axi_rdata), .m_axi_rresp(w_axi_rresp),
        .m_axi_rlast(w_axi_rlast)
    );
    // CDMA statistics: the read stall counts as NVIDIA's (a cycle a request waits on the read channel, while
    // DMA_EN), from every layer's start; the read latency counts as NVIDIA's (cycles with a read burst
    // outstanding on the port, from its AR handshake to its RLAST beat: nvdla_perf_latency); NaN/infinity
    // counts are 0 at INT8
    wire [31:0] dat_stall_count, wt_stall_count, dat_latency, wt_latency;
    nvdla_perf_counter #(.CLEAR(2)) u_dat_stall (
        .clk(clk), .rst_n(rst_n), .start(start), .en(cdma_cfg[`CDMA_DMA_EN]), .inc(dat_stall),
        .count(dat_stall_count)
    );
    nvdla_perf_counter #(.CLEAR(2)) u_wt_stall (
        .clk(clk), .rst_n(rst_n), .start(start), .en(cdma_cfg[`CDMA_DMA_EN]), .inc(wt_stall),
        .count(wt_stall_count)
    );
    nvdla_perf_latency u_dat_latency (
        .clk(clk), .rst_n(rst_n), .start(start), .en(cdma_cfg[`CDMA_DMA_EN]),
        .req(m_axi_arvalid & m_axi_arready), .rsp(m_axi_rvalid & m_axi_rready & m_axi_rlast),
        .count(dat_latency)
    );
    nvdla_perf_latency u_wt_latency (
        .clk(clk), .rst_n(rst_n), .start(start), .en(cdma_cfg[`CDMA_DMA_EN]),
        .req(w_axi_arvalid & w_axi_arready), .rsp(w_axi_rvalid & w_axi_rready & w_axi_rlast),
        .count(wt_latency)
    );
    reg [`CDMA_STAT_W-1:0] cdma_stat_r;
    always @(*) begin
        cdma_stat_r = {`CDMA_STAT_W{1'b0}};
        cdma_stat_r[`CDMA_DAT_RD_STALL] = dat_stall_count;
        cdma_stat_r[`CDMA_WT_RD_STALL]  = wt_stall_count;
        cdma_stat_r[`CDMA_DAT_RD_LATENCY] = dat_latency;
        cdma_stat_r[`CDMA_WT_RD_LATENCY]  = wt_latency;
    end
    assign cdma_stat = cdma_stat_r;

    // ---- CBUF
    wire            dr_re, wr_re;
    wire [A_W-1:0]  dr_addr, wr_addr;
    wire [AC*8-1:0] dr_data, wr_data;
    nvdla_cbuf #(.BANKS(BANKS), .DEPTH(D_EFF), .EB(AC), .ATOM(ATOM)) u_cbuf (
        .clk(clk), .rst_n(rst_n),
        .dw_we(dw_we), .dw_addr(dw_addr), .dw_data(dw_data), .ww_we(ww_we), .ww_addr(ww_addr), .ww_data(ww_data),
        .dr_re(dr_re), .dr_addr(dr_addr), .dr_data(dr_data), .wr_re(wr_re), .wr_addr(wr_addr), .wr_data(wr_data)
    );

    // ---- CSC
    wire             mac_we, swap_done;
    wire [$clog2(AK)-1:0] mac_k;
    wire [AC*8-1:0]  mac_wdata;
    wire             desc_valid, desc_take, desc_first, desc_last, desc_new_group;
    wire [10:0]      desc_block;
    wire [4:0]       desc_r, desc_s;
    wire [PW:0]      desc_len;
    nvdla_csc_wt #(.AC(AC), .AK(AK), .BANKS(BANKS), .DEPTH(D_EFF), .STRIPE(STRIPE)) u_csc_wt (
        .clk(clk), .rst_n(rst_n), .start(start),
        .channel_m1(csc_cfg[`CSC_DATAIN_CHANNEL_EXT]), .kw_m1(csc_cfg[`CSC_WEIGHT_WIDTH_EXT]),
        .kh_m1(csc_cfg[`CSC_WEIGHT_HEIGHT_EXT]), .kernels_m1(csc_cfg[`CSC_WEIGHT_KERNEL]),
        .out_w_m1(csc_cfg[`CSC_DATAOUT_WIDTH]), .out_h_m1(csc_cfg[`CSC_DATAOUT_HEIGHT]),
        .data_bank_m1(csc_cfg[`CSC_DATA_BANK]), .weight_bank_m1(csc_cfg[`CSC_WEIGHT_BANK]),
        .wt_written(wt_written), .wt_done(wt_all), .wt_blocked(wt_blocked), .wt_released(wt_released),
        .cb_re(wr_re), .cb_addr(wr_addr), .cb_data(wr_data),
        .mac_we(mac_we), .mac_k(mac_k), .mac_data(mac_wdata), .swap_done(swap_done),
        .desc_valid(desc_valid), .desc_take(desc_take), .desc_block(desc_block), .desc_r(desc_r),
        .desc_s(desc_s), .desc_first(desc_first), .desc_last(desc_last), .desc_new_group(desc_new_group),
        .desc_len(desc_len), .done(csc_wt_done)
    );
    // CSC pads with its D_ZERO_PADDING_VALUE's low byte, as it is (INT8: NVIDIA's pad_value[7:0])
    /* verilator lint_off UNUSEDSIGNAL */
    wire [15:0]      pad16 = csc_cfg[`CSC_PAD_VALUE];
    /* verilator lint_on UNUSEDSIGNAL */
    wire             op_valid, op_ready, op_swap;
    wire [AC*8-1:0]  op_data;
    wire [PW+1:0]    op_side;
    nvdla_csc_dat #(.AC(AC), .ATOM(ATOM), .EPR(EPR), .BANKS(BANKS), .DEPTH(D_EFF), .STRIPE(STRIPE)) u_csc_dat (
        .clk(clk), .rst_n(rst_n), .start(start),
        .width_m1(csc_cfg[`CSC_DATAIN_WIDTH_EXT]), .height_m1(csc_cfg[`CSC_DATAIN_HEIGHT_EXT]),
        .channel_m1(csc_cfg[`CSC_DATAIN_CHANNEL_EXT]), .entries_m1(csc_cfg[`CSC_ENTRIES]),
        .out_w_m1(csc_cfg[`CSC_DATAOUT_WIDTH]),
        .sx_m1(csc_cfg[`CSC_CONV_X_STRIDE_EXT]), .sy_m1(csc_cfg[`CSC_CONV_Y_STRIDE_EXT]),
        .dx_m1(csc_cfg[`CSC_X_DILATION_EXT]), .dy_m1(csc_cfg[`CSC_Y_DILATION_EXT]),
        .pad_left(csc_cfg[`CSC_PAD_LEFT]), .pad_top(csc_cfg[`CSC_PAD_TOP]),
        .pad_value(pad16[7:0]),
        .dat_ready(dat_all), .slices(dat_slices),
        .desc_valid(desc_valid), .desc_take(desc_take), .desc_block(desc_block), .desc_r(desc_r),
        .desc_s(desc_s), .desc_first(desc_first), .desc_last(desc_last), .desc_new_group(desc_new_group),
        .desc_len(desc_len),
        .cb_re(dr_re), .cb_addr(dr_addr), .cb_data(dr_data),
        .op_valid(op_valid), .op_ready(op_ready), .op_data(op_data), .op_swap(op_swap), .op_side(op_side),
        .busy(csc_dat_busy)
    );

    // ---- CMAC
    wire              mac_valid, mac_ready;
    wire [AK*PSW-1:0] mac_sum;
    wire [PW+1:0]     mac_side;
    nvdla_cmac #(.AC(AC), .AK(AK), .SIDE_W(PW + 2)) u_cmac (
        .clk(clk), .rst_n(rst_n), .in_valid(op_valid), .in_ready(op_ready), .in_data(op_data),
        .in_swap(op_swap), .in_side(op_side), .wt_we(mac_we), .wt_k(mac_k), .wt_data(mac_wdata),
        .out_valid(mac_valid), .out_ready(mac_ready), .out_sum(mac_sum), .out_side(mac_side),
        .swap_done(swap_done)
    );

    // operations inside CMAC (between CSC's hand-over and CACC's acceptance): the layer is not over
    reg [5:0] in_mac;
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) in_mac <= 6'd0;
        else in_mac <= in_mac + {5'd0, op_valid & op_ready} - {5'd0, mac_valid & mac_ready};
    end
    assign mac_empty = in_mac == 6'd0;

    // ---- CACC
    nvdla_cacc #(.AC(AC), .AK(AK), .STRIPE(STRIPE), .OUT_DEPTH(8)) u_cacc (
        .clk(clk), .rst_n(rst_n), .start(start), .truncate(cacc_cfg[`CACC_CLIP_TRUNCATE]),
        .in_valid(mac_valid), .in_ready(mac_ready), .in_sum(mac_sum), .in_pos(mac_side[PW+1:2]),
        .in_first(mac_side[1]), .in_last(mac_side[0]),
        .out_valid(out_valid), .out_ready(out_ready), .out_data(out_data),
        .sat_count(cacc_stat[`CACC_SAT_COUNT]), .idle(cacc_idle)
    );
endmodule
