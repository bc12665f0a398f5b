// CDP hardware layer: read DMA (CDP_RDMA source) -> LRN datapath core -> write DMA (CDP destination), on
// one AXI4 master each way. Both DMA sides walk the cube in the core's stream order (docs/CONTRACTS.md
// "CDP core"): per line, per 8-pixel width chunk, per surface, one burst of the chunk's atoms.
//
// `op_en` is the register blocks' OP_EN of the consumer group; a layer starts on its rising edge (or when it
// is still high after the previous layer's done), and `done` pulses once the last output write has its
// AXI response, so an interrupt raised on `done` is never ahead of the memory (the trace CRCs rely on that).
// The core's statistics (LUT hit/miss counts, output saturation) are final before `done` and hold until the
// next layer starts, so the register block latches the right values on `done`.
// The configuration must hold from start to done, as the register groups guarantee.
`include "nvdla_cdp_fields.vh"
`include "nvdla_cdp_rdma_fields.vh"
module nvdla_cdp #(
    parameter ATOM            = 8,     // int8 lanes per atom = bytes per 64-bit beat
    parameter CHUNK           = 8,     // pixels per width chunk of the stream order
    parameter MAX_BURST       = 16,
    parameter MAX_OUTSTANDING = 8,
    parameter LUT_PAIRED      = 0,     // the LUT index of nvdlav1's paired INT8 channels (nvdla_lut START_MODE)
    parameter INT16           = 0,     // 1: INT16 layers (both D_DATA_FORMAT registers INT16); 0: they run as INT8
    parameter FP16            = 0,     // 1: FP16 layers (both D_DATA_FORMAT registers FP16; needs INT16)
    parameter LUT_LANES       = ATOM   // the LUT's lanes (CDP throughput; a gearbox to the atom when fewer)
) (
    input  wire              clk,
    input  wire              rst_n,
    input  wire              op_en,
    output wire              done,
    output wire              busy,
    output wire              lut_busy,  // the LUT tables' clear sweep after reset: hold LUT accesses off
    // configuration bundles of the CDP and CDP_RDMA register blocks (rtl/gen/nvdla_cdp*_fields.vh): the cube
    // and the source from CDP_RDMA, the destination, datapath and LUT from CDP
    /* verilator lint_off UNUSEDSIGNAL */  // each block reads its own fields of the bundle
    input  wire [`CDP_CFG_W-1:0]       cfg,
    input  wire [`CDP_RDMA_CFG_W-1:0]  rdma_cfg,
    /* verilator lint_on UNUSEDSIGNAL */
    // statistics bundles: the core's hold from done to the next start, the DMA stall counts run on across
    // layers (docs/perf_counters.md)
    output wire [`CDP_STAT_W-1:0]      stat,
    output wire [`CDP_RDMA_STAT_W-1:0] rdma_stat,
    // AXI4 master, 64-bit data, 32-bit addresses
    output wire              m_axi_arvalid,
    input  wire              m_axi_arready,
    output wire [31:0]       m_axi_araddr,
    output wire [7:0]        m_axi_arlen,
    output wire [2:0]        m_axi_arsize,
    output wire [1:0]        m_axi_arburst,
    output wire [3:0]        m_axi_arid,
    output wire              m_axi_aruser,   // the burst's RAM type (NVDLA RAM_TYPE: 1 MC, 0 CV), for the router
    input  wire              m_axi_rvalid,
    output wire              m_axi_rready,
    input  wire [ATOM*8-1:0] m_axi_rdata,
    input  wire [1:0]        m_axi_rresp,
    input  wire              m_axi_rlast,
    output wire              m_axi_awvalid,
    input  wire              m_axi_awready,
    output wire [31:0]       m_axi_awaddr,
    output wire [7:0]        m_axi_awlen,
    output wire [2:0]        m_axi_awsize,
    output wire [1:0]        m_axi_awburst,
    output wire [3:0]        m_axi_awid,
    output wire              m_axi_awuser,   // the burst's RAM type (NVDLA RAM_TYPE: 1 MC, 0 CV), for the router
    output wire              m_axi_wvalid,
    input  wire              m_axi_wready,
    output wire [ATOM*8-1:0] m_axi_wdata,
    output wire [ATOM-1:0]   m_axi_wstrb,
    output wire              m_axi_wlast,
    input  wire              m_axi_bvalid,
    output wire              m_axi_bready,
    input  wire [1:0]        m_axi_bresp
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (ATOM < 1 || (ATOM & (ATOM - 1)) != 0 || CHUNK < 1 || (INT16 != 0 && INT16 != 1)
            || (INT16 == 1 && ATOM < 8) || (FP16 != 0 && FP16 != 1) || (FP16 == 1 && INT16 != 1)) begin
            $display("ERROR: nvdla_cdp %m: ATOM a power of two (byte offsets shift by log2 ATOM), CHUNK >= 1, ",
                     "INT16 0 or 1 and with INT16 ATOM >= 8, FP16 0 or 1 and only with INT16");
            $finish;
        end
    end
    localparam DATA_W = ATOM * 8;
    localparam LEN_W  = 16;

    // cube (value-minus-one encodings), shared by both DMA sides and the core
    wire [12:0] width_m1   = rdma_cfg[`CDP_RDMA_WIDTH];
    wire [12:0] height_m1  = rdma_cfg[`CDP_RDMA_HEIGHT];
    wire [12:0] channel_m1 = rdma_cfg[`CDP_RDMA_CHANNEL];
    // two-byte elements: both D_DATA_FORMAT registers INT16 on a build with INT16, or both FP16 on a build
    // with FP16; otherwise every layer runs as INT8 (a mismatch, and a precision the build lacks, which the
    // model and the driver refuse, compute INT8 and never hang: the read and write sides and the core agree
    // on the geometry either way)
    wire int16 = (INT16 == 1) && (cfg[`CDP_INPUT_DATA_TYPE] == 2'd1) && (rdma_cfg[`CDP_RDMA_INPUT_DATA] == 2'd1);
    wire fp16  = (FP16 == 1) && (cfg[`CDP_INPUT_DATA_TYPE] == 2'd2) && (rdma_cfg[`CDP_RDMA_INPUT_DATA] == 2'd2);
    wire elem16 = int16 || fp16;
    // DMA stall counts (docs/perf_counters.md): a read stall is a cycle the AR request waits for its ready, a
    // write stall one in which the AW request or a W beat waits for its ready; gated by each unit's
    // D_PERF_ENABLE.DMA_EN and, as in NVIDIA's RTL, never cleared (nvdla_perf_counter CLEAR 0). The write
    // count replaces the core's (unused) slice of the statistics bundle.
    wire [31:0] rd_stall_count, wr_stall_count;
    nvdla_perf_counter #(.CLEAR(0)) u_rd_stall (
        .clk(clk), .rst_n(rst_n), .start(1'b0), .en(rdma_cfg[`CDP_RDMA_DMA_EN]),
        .inc(m_axi_arvalid & ~m_axi_arready), .count(rd_stall_count)
    );
    nvdla_perf_counter #(.CLEAR(0)) u_wr_stall (
        .clk(clk), .rst_n(rst_n), .start(1'b0), .en(cfg[`CDP_DMA_EN]),
        .inc((m_axi_awvalid & ~m_axi_awready) | (m_axi_wvalid & ~m_axi_wready)), .count(wr_stall_count)
    );
    assign rdma_stat[`CDP_RDMA_PERF_READ_STALL] = rd_stall_count;
    /* verilator lint_off UNUSEDSIGNAL */  // the core's write stall slice (0) is replaced
    wire [`CDP_STAT_W-1:0] core_stat;
    /* verilator lint_on UNUSEDSIGNAL */
    reg  [`CDP_STAT_W-1:0] stat_r;
    always @(*) begin
        stat_r = core_stat;
        stat_r[`CDP_PERF_WRITE_STALL] = wr_stall_count;
    end
    assign stat = stat_r;

    // ---- layer control (rtl/common/nvdla_layer_ctrl.v: start, running, sticky finished flags, done) -------
    wire running;
    wire core_finished, wr_cmds_finished;
    wire start;
    wire core_done, wr_seq_done, wr_idle, core_busy, rd_busy;
    // The read side needs no "finished" flag: the core consumes exactly the atoms the read DMA fetches.
    /* verilator lint_off UNUSEDSIGNAL */
    wire rd_seq_done;
    /* verilator lint_on UNUSEDSIGNAL */
    wire finish = core_finished & wr_cmds_finished & wr_idle;

    nvdla_layer_ctrl #(.N_FLAGS(2)) u_ctrl (
        .clk(clk), .rst_n(rst_n), .op_en(op_en),
        .set({wr_seq_done, core_done}), .finish(finish),
        .start(start), .running(running), .finished({wr_cmds_finished, core_finished}), .done(done)
    );
    assign busy = running | core_busy | rd_busy;

    // ---- read side: CDP_RDMA commands -> AXI reads -> core input ---------------------------------------
    wire             rd_cmd_valid, rd_cmd_ready;
    wire [31:0]      rd_cmd_addr;
    wire [LEN_W-1:0] rd_cmd_beats;
    wire             rd_valid, rd_ready;
    wire [DATA_W-1:0] rd_data;

    nvdla_cdp_dma_seq #(.ATOM_BYTES(ATOM), .CHUNK(CHUNK), .LEN_W(LEN_W)) u_rd_seq (
        .clk(clk), .rst_n(rst_n), .start(start), .elem16(elem16),
        .width_m1(width_m1), .height_m1(height_m1), .channel_m1(channel_m1),
        .surf(`CDP_RDMA_DMA_SURF(rdma_cfg)),
        .cmd_valid(rd_cmd_valid), .cmd_ready(rd_cmd_ready), .cmd_addr(rd_cmd_addr), .cmd_beats(rd_cmd_beats),
        .done(rd_seq_done)
    );

    nvdla_axi_rd #(.ADDR_W(32), .DATA_W(DATA_W), .LEN_W(LEN_W), .MAX_BURST(MAX_BURST),
                   .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_axi_rd (
        .clk(clk), .rst_n(rst_n),
        .cmd_valid(rd_cmd_valid), .cmd_ready(rd_cmd_ready), .cmd_addr(rd_cmd_addr), .cmd_beats(rd_cmd_beats),
        .cmd_ram_type(rdma_cfg[`CDP_RDMA_SRC_RAM_TYPE]), .m_axi_aruser(m_axi_aruser),
        .m_axi_arvalid(m_axi_arvalid), .m_axi_arready(m_axi_arready), .m_axi_araddr(m_axi_araddr),
        .m_axi_arlen(m_axi_arlen), .m_axi_arsize(m_axi_arsize), .m_axi_arburst(m_axi_arburst),
        .m_axi_arid(m_axi_arid), .m_axi_rvalid(m_axi_rvalid), .m_axi_rready(m_axi_rready),
        .m_axi_rdata(m_axi_rdata), .m_axi_rresp(m_axi_rresp), .m_axi_rlast(m_axi_rlast),
        .out_valid(rd_valid), .out_ready(rd_ready), .out_data(rd_data), .busy(rd_busy)
    );

    // ---- LRN datapath ----------------------------------------------------------------------------------
    wire              lrn_valid, lrn_ready;
    wire [DATA_W-1:0] lrn_data;

    nvdla_cdp_core #(.ATOM(ATOM), .CHUNK(CHUNK), .LUT_PAIRED(LUT_PAIRED), .INT16(INT16), .FP16(FP16),
                     .LUT_LANES(LUT_LANES)) u_core (
        .clk(clk), .rst_n(rst_n), .start(start), .elem16(int16), .fp16(fp16), .busy(core_busy), .done(core_done), .lut_busy(lut_busy),
        .cfg(cfg), .rdma_cfg(rdma_cfg),
        .in_valid(rd_valid), .in_ready(rd_ready), .in_data(rd_data),
        .out_valid(lrn_valid), .out_ready(lrn_ready), .out_data(lrn_data),
        .stat(core_stat)
    );

    // ---- write side: CDP destination commands + LRN atoms -> AXI writes --------------------------------
    wire             wr_cmd_valid, wr_cmd_ready;
    wire [31:0]      wr_cmd_addr;
    wire [LEN_W-1:0] wr_cmd_beats;

    nvdla_cdp_dma_seq #(.ATOM_BYTES(ATOM), .CHUNK(CHUNK), .LEN_W(LEN_W)) u_wr_seq (
        .clk(clk), .rst_n(rst_n), .start(start), .elem16(elem16),
        .width_m1(width_m1), .height_m1(height_m1), .channel_m1(channel_m1),
        .surf(`CDP_DMA_SURF(cfg)),
        .cmd_valid(wr_cmd_valid), .cmd_ready(wr_cmd_ready), .cmd_addr(wr_cmd_addr), .cmd_beats(wr_cmd_beats),
        .done(wr_seq_done)
    );

    nvdla_axi_wr #(.ADDR_W(32), .DATA_W(DATA_W), .LEN_W(LEN_W), .MAX_BURST(MAX_BURST),
                   .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_axi_wr (
        .clk(clk), .rst_n(rst_n),
        .cmd_valid(wr_cmd_valid), .cmd_ready(wr_cmd_ready), .cmd_addr(wr_cmd_addr), .cmd_beats(wr_cmd_beats),
        .cmd_ram_type(cfg[`CDP_DST_RAM_TYPE]), .m_axi_awuser(m_axi_awuser),
        .in_valid(lrn_valid), .in_ready(lrn_ready), .in_data(lrn_data),
        .m_axi_awvalid(m_axi_awvalid), .m_axi_awready(m_axi_awready), .m_axi_awaddr(m_axi_awaddr),
        .m_axi_awlen(m_axi_awlen), .m_axi_awsize(m_axi_awsize), .m_axi_awburst(m_axi_awburst),
        .m_axi_awid(m_axi_awid), .m_axi_wvalid(m_axi_wvalid), .m_axi_wready(m_axi_wready),
        .m_axi_wdata(m_axi_wdata), .m_axi_wstrb(m_axi_wstrb), .m_axi_wlast(m_axi_wlast),
        .m_axi_bvalid(m_axi_bvalid), .m_axi_bready(m_axi_bready), .m_axi_bresp(m_axi_bresp),
        .idle(wr_idle)
    );

endmodule
