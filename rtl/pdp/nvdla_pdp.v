// PDP hardware layer: read DMA (PDP_RDMA) -> pooling core -> write DMA, on one AXI4 master each way.
//
// `op_en` is the register block's OP_EN of the consumer group, and with input from memory PDP_RDMA's too
// (`rdma_op_en`); a layer starts when they rise (or are still high after the previous layer's done), and
// `done` pulses once the last output write has its AXI response, so an interrupt raised on `done` is never
// ahead of the memory (the trace CRCs rely on that).
// `done` also waits for the read side: every read command issued, every burst returned and every beat taken
// by the core (which drops input columns/lines no output needs). An inconsistent program can have input
// after the last output; none of it may stay in flight, or the next layer would receive it.
// The configuration must hold from start to done, as the register groups guarantee.
`include "nvdla_pdp_fields.vh"
`include "nvdla_pdp_rdma_fields.vh"

module nvdla_pdp #(
    parameter ATOM            = 8,     // int8 lanes per atom = bytes per 64-bit beat
    parameter MAX_W           = 64,    // the core's line-buffer words: band columns with one row in flight
    parameter MAX_BURST       = 16,
    parameter MAX_OUTSTANDING = 8,
    parameter INT16           = 0,     // 1: INT16 layers (D_DATA_FORMAT.INPUT_DATA = INT16); 0: they run as INT8
    parameter FP16            = 0      // 1: FP16 layers (INPUT_DATA = FP16); 0: they run as INT8
) (
    input  wire              clk,
    input  wire              rst_n,
    input  wire              op_en,            // PDP's OP_EN (consumer group)
    input  wire              rdma_op_en,       // PDP_RDMA's OP_EN: a layer with input from memory waits for it
    // On-the-fly input from SDP (FLYING_MODE = ON): the core takes its input from the fly_* stream (SDP's
    // output, cube order: surface, line, column) instead of the read DMA. NVDLA forbids split width on the
    // fly; such a program runs here without split, so the core takes exactly the input cube's atoms. The
    // layer waits for an SDP layer with OUTPUT_DST = PDP, as in NVDLA (the driver pairs them: same cube).
    input  wire              fly_valid,
    output wire              fly_ready,
    input  wire [ATOM*8-1:0] fly_data,
    output wire              done,
    output wire              busy,
    // configuration: the register bundles of PDP and PDP_RDMA (rtl/gen/nvdla_pdp*_fields.vh). The datapath
    // takes its geometry from PDP and only the source addresses from PDP_RDMA, as NVDLA's does.
    input  wire [`PDP_CFG_W-1:0]       cfg,
    input  wire [`PDP_RDMA_CFG_W-1:0]  rdma_cfg,
    // statistics into the register blocks: the DMA stall counts (NaN/Inf counts read 0)
    output wire [`PDP_STAT_W-1:0]      stat,
    output wire [`PDP_RDMA_STAT_W-1:0] rdma_stat,
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
        if (ATOM < 1 || (ATOM & (ATOM - 1)) != 0 || MAX_W < 8 || MAX_W % 8 != 0 || (INT16 != 0 && INT16 != 1)
            || (FP16 != 0 && FP16 != 1) || ((INT16 == 1 || FP16 == 1) && ATOM < 2)) begin
            $display("ERROR: nvdla_pdp %m: ATOM a power of two (byte offsets shift by log2 ATOM), MAX_W a multiple of 8, ",
                     "INT16 and FP16 0 or 1 and with either ATOM >= 2");
            $finish;
        end
    end
    localparam DATA_W = ATOM * 8;
    localparam LEN_W  = 16;

    // ---- statistics -------------------------------------------------------------------------------------
    assign stat[`PDP_INF_INPUT_NUM]             = 32'd0;
    assign stat[`PDP_NAN_INPUT_NUM]             = 32'd0;
    assign stat[`PDP_NAN_OUTPUT_NUM]            = 32'd0;
    // DMA stall counts (docs/perf_counters.md): a read stall is a cycle the AR request waits for its ready, a
    // write stall one in which the AW request or a W beat waits for its ready; gated by each unit's
    // D_PERF_ENABLE.DMA_EN and, as in NVIDIA's RTL, never cleared (nvdla_perf_counter CLEAR 0)
    wire [31:0] rd_stall_count, wr_stall_count;
    nvdla_perf_counter #(.CLEAR(0)) u_rd_stall (
        .clk(clk), .rst_n(rst_n), .start(1'b0), .en(rdma_cfg[`PDP_RDMA_DMA_EN]),
        .inc(m_axi_arvalid & ~m_axi_arready), .count(rd_stall_count)
    );
    nvdla_perf_counter #(.CLEAR(0)) u_wr_stall (
        .clk(clk), .rst_n(rst_n), .start(1'b0), .en(cfg[`PDP_DMA_EN]),
        .inc((m_axi_awvalid & ~m_axi_awready) | (m_axi_wvalid & ~m_axi_wready)), .count(wr_stall_count)
    );
    assign stat[`PDP_PERF_WRITE_STALL]          = wr_stall_count;
    assign rdma_stat[`PDP_RDMA_PERF_READ_STALL] = rd_stall_count;

    // ---- configuration --------------------------------------------------------------------------------
    wire flying = ~cfg[`PDP_FLYING_MODE];   // FLYING_MODE: 0 = on the fly, 1 = off
    // two-byte elements: INPUT_DATA = INT16 (FP16) on a build with INT16 (FP16); otherwise every layer runs as
    // INT8 (a precision without its path, which the model and the driver refuse, computes INT8 and never
    // hangs: the read and write sides and the core agree on the geometry either way)
    wire fp16   = (FP16 == 1) && (cfg[`PDP_INPUT_DATA] == 2'd2);
    wire elem16 = ((INT16 == 1) && (cfg[`PDP_INPUT_DATA] == 2'd1)) || fp16;
    // On the fly every block sees SPLIT_NUM = 0 (one pass over the whole cube).
    reg [`PDP_CFG_W-1:0] pcfg;
    always @(*) begin
        pcfg = cfg;
        if (flying) pcfg[`PDP_SPLIT_NUM] = 8'd0;
    end

    // ---- layer control (rtl/common/nvdla_layer_ctrl.v: start, running, sticky finished flags, done) -------
    // On-the-fly layers need no RDMA; memory-input layers wait for the RDMA's group to be enabled too.
    wire layer_op_en = op_en & (flying | rdma_op_en);
    wire running;
    wire core_finished, wr_cmds_finished, rd_cmds_finished;
    wire start;                        // starts the core and the write side
    wire rd_start = start & ~flying;   // the read DMA only for input from memory
    wire core_done, wr_seq_done, wr_idle, core_busy, rd_busy, rd_seq_done;
    reg  flying_layer;
    // rd_busy covers the burst splitter, the bursts in flight and the beat waiting for the core; the core's
    // done covers the beats it took. Both sides fetch/consume the same atoms (one split geometry), so these
    // all come true; the read flags make `done` safe whatever the data path's timing.
    wire rd_clean = rd_cmds_finished & ~rd_busy;
    wire finish   = core_finished & (flying_layer | rd_clean) & wr_cmds_finished & wr_idle;

    nvdla_layer_ctrl #(.N_FLAGS(3)) u_ctrl (
        .clk(clk), .rst_n(rst_n), .op_en(layer_op_en),
        .set({rd_seq_done, wr_seq_done, core_done}), .finish(finish),
        .start(start), .running(running), .finished({rd_cmds_finished, wr_cmds_finished, core_finished}),
        .done(done)
    );

    // the input source of the layer, latched at start
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n)     flying_layer <= 1'b0;
        else if (start) flying_layer <= flying;
    end
    assign busy = running | core_busy | rd_busy;

    // ---- read side: PDP_RDMA commands -> AXI reads -> core input ---------------------------------------
    wire             rd_cmd_valid, rd_cmd_ready;
    wire [31:0]      rd_cmd_addr;
    wire [LEN_W-1:0] rd_cmd_beats;
    wire             rd_valid, rd_ready;
    wire [DATA_W-1:0] rd_data;

    nvdla_pdp_dma_seq #(.WRITE_SIDE(0), .ATOM_BYTES(ATOM), .LEN_W(LEN_W)) u_rd_seq (
        .clk(clk), .rst_n(rst_n), .start(rd_start), .elem16(elem16),
        .cfg(pcfg), .rdma_cfg(rdma_cfg),
        .cmd_valid(rd_cmd_valid), .cmd_ready(rd_cmd_ready), .cmd_addr(rd_cmd_addr), .cmd_beats(rd_cmd_beats),
        .done(rd_seq_done)
    );

    nvdla_axi_rd #(.ADDR_W(32), .DATA_W(DATA_W), .LEN_W(LEN_W), .MAX_BURST(MAX_BURST),
                   .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_axi_rd (
        .clk(clk), .rst_n(rst_n),
        .cmd_valid(rd_cmd_valid), .cmd_ready(rd_cmd_ready), .cmd_addr(rd_cmd_addr), .cmd_beats(rd_cmd_beats),
        .cmd_ram_type(rdma_cfg[`PDP_RDMA_SRC_RAM_TYPE]), .m_axi_aruser(m_axi_aruser),
        .m_axi_arvalid(m_axi_arvalid), .m_axi_arready(m_axi_arready), .m_axi_araddr(m_axi_araddr),
        .m_axi_arlen(m_axi_arlen), .m_axi_arsize(m_axi_arsize), .m_axi_arburst(m_axi_arburst),
        .m_axi_arid(m_axi_arid), .m_axi_rvalid(m_axi_rvalid), .m_axi_rready(m_axi_rready),
        .m_axi_rdata(m_axi_rdata), .m_axi_rresp(m_axi_rresp), .m_axi_rlast(m_axi_rlast),
        .out_valid(rd_valid), .out_ready(rd_ready), .out_data(rd_data), .busy(rd_busy)
    );

    // ---- pooling ---------------------------------------------------------------------------------------
    // core input: the read DMA, or SDP's stream in an on-the-fly layer (flying_layer holds from start, when
    // the read DMA has nothing in flight: done waited for it)
    wire              core_in_valid, core_in_ready;
    wire [DATA_W-1:0] core_in_data;
    assign core_in_valid = flying_layer ? (fly_valid & running) : rd_valid;
    assign core_in_data  = flying_layer ? fly_data : rd_data;
    assign rd_ready      = ~flying_layer & core_in_ready;
    assign fly_ready     = running & flying_layer & core_in_ready;

    wire              pool_valid, pool_ready;
    wire [DATA_W-1:0] pool_data;

    nvdla_pdp_core #(.ATOM(ATOM), .MAX_W(MAX_W), .INT16(INT16), .FP16(FP16)) u_core (
        .clk(clk), .rst_n(rst_n), .start(start), .elem16(elem16), .fp16(fp16), .busy(core_busy), .done(core_done),
        .cfg(pcfg),
        .in_valid(core_in_valid), .in_ready(core_in_ready), .in_data(core_in_data),
        .out_valid(pool_valid), .out_ready(pool_ready), .out_data(pool_data)
    );

    // ---- write side: PDP destination commands + pooled atoms -> AXI writes -----------------------------
    wire             wr_cmd_valid, wr_cmd_ready;
    wire [31:0]      wr_cmd_addr;
    wire [LEN_W-1:0] wr_cmd_beats;

    nvdla_pdp_dma_seq #(.WRITE_SIDE(1), .ATOM_BYTES(ATOM), .LEN_W(LEN_W)) u_wr_seq (
        .clk(clk), .rst_n(rst_n), .start(start), .elem16(elem16),
        .cfg(pcfg), .rdma_cfg(rdma_cfg),
        .cmd_valid(wr_cmd_valid), .cmd_ready(wr_cmd_ready), .cmd_addr(wr_cmd_addr), .cmd_beats(wr_cmd_beats),
        .done(wr_seq_done)
    );

    nvdla_axi_wr #(.ADDR_W(32), .DATA_W(DATA_W), .LEN_W(LEN_W), .MAX_BURST(MAX_BURST),
                   .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_axi_wr (
        .clk(clk), .rst_n(rst_n),
        .cmd_valid(wr_cmd_valid), .cmd_ready(wr_cmd_ready), .cmd_addr(wr_cmd_addr), .cmd_beats(wr_cmd_beats),
        .cmd_ram_type(cfg[`PDP_DST_RAM_TYPE]), .m_axi_awuser(m_axi_awuser),
        .in_valid(pool_valid), .in_ready(pool_ready), .in_data(pool_data),
        .m_axi_awvalid(m_axi_awvalid), .m_axi_awready(m_axi_awready), .m_axi_awaddr(m_axi_awaddr),
        .m_axi_awlen(m_axi_awlen), .m_axi_awsize(m_axi_awsize), .m_axi_awburst(m_axi_awburst),
        .m_axi_awid(m_axi_awid), .m_axi_wvalid(m_axi_wvalid), .m_axi_wready(m_axi_wready),
        .m_axi_wdata(m_axi_wdata), .m_axi_wstrb(m_axi_wstrb), .m_axi_wlast(m_axi_wlast),
        .m_axi_bvalid(m_axi_bvalid), .m_axi_bready(m_axi_bready), .m_axi_bresp(m_axi_bresp),
        .idle(wr_idle)
    );

endmodule
