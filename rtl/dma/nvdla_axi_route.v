// One unit's AXI4 master to two memories, as NVDLA's DMA interfaces route it (nocif NV_NVDLA_DMAIF_rdreq,
// _rdrsp, _wr): each request carries its RAM type (the DMA client's *_RAM_TYPE register) on a*user,
// 1 = MC goes to memory 0 (the primary memory, the top's m_axi), 0 = CV to memory 1 (the CV SRAM, c_axi).
// With SEC_MEM = 0 there is no memory 1 and every request goes to memory 0 whatever its type (NVIDIA's
// nv_small RTL would instead never issue a CV request: its DMA stalls; a register value must not hang here).
// Memory k is port k of the packed master side ([k*W +: W]); each port goes to that memory's arbiter.
//
// Ordering rule: a direction (reads, writes) switches memory only when it has nothing outstanding there.
// The unit's engines use one AXI ID and take read data in request order (rtl/dma/nvdla_axi_rd.v; the SDP
// read DMA steers its four streams' beats by issue order, rtl/sdp/nvdla_sdp_rdma_arb.v), and two memories
// answer independently, so requests in flight on both could return out of order. Instead:
// - AR goes to its memory only while no read burst of this unit is in flight, or all that are in flight went
//   to the same memory; R then comes only from that memory, so it stays in request order.
// - AW likewise against the write bursts awaiting their response; W follows the memory of the bursts whose
//   AW went (it waits for an AW, so data never reaches a memory before its address decided where), B comes
//   from that memory.
// Why this cannot deadlock, for any RAM types and any bus timing: a held request waits only for the bursts
// already in flight on the other memory, which complete without it (their data is taken by the unit as
// before, write data is already behind its AW in the arbiter's store-and-forward queue), after which the
// held request goes. No request waits for a later one. Cost: a unit whose requests alternate memories
// (SDP with operands in the CV SRAM and its input in MC) drains its reads at every switch; NVIDIA avoids
// that by giving every SDP read DMA (MRDMA, BRDMA, NRDMA, ERDMA) its own memory client with its own
// response path (NV_NVDLA_SDP_RDMA_dmaif per stream), which this project's single SDP read engine lacks.
//
// Combinational paths: the router adds no cycle, like rtl/dma/nvdla_axi_arb.v behind it; valid goes to
// valid and ready to ready, the memory select being a register (R, W, B) or the request's own a*user (AR,
// AW; AXI lets ready depend on the request it answers). A request shown to a memory stays shown until taken:
// its memory's permission only widens while it waits (the in-flight count can only fall).
module nvdla_axi_route #(
    parameter SEC_MEM         = 1,    // 1: the CV SRAM exists (memory 1); 0: everything to memory 0
    parameter ADDR_W          = 32,
    parameter DATA_W          = 64,
    parameter ID_W            = 4,
    parameter MAX_OUTSTANDING = 8     // bursts the unit keeps in flight per direction (sizes the counters)
) (
    input  wire                  clk,
    input  wire                  rst_n,
    // the unit
    input  wire                  s_arvalid,
    output wire                  s_arready,
    input  wire [ADDR_W-1:0]     s_araddr,
    input  wire [7:0]            s_arlen,
    input  wire [2:0]            s_arsize,
    input  wire [1:0]            s_arburst,
    input  wire [ID_W-1:0]       s_arid,
    input  wire                  s_aruser,    // RAM type: 1 MC (memory 0), 0 CV (memory 1)
    output wire                  s_rvalid,
    input  wire                  s_rready,
    output wire [DATA_W-1:0]     s_rdata,
    output wire [1:0]            s_rresp,
    output wire                  s_rlast,
    input  wire                  s_awvalid,
    output wire                  s_awready,
    input  wire [ADDR_W-1:0]     s_awaddr,
    input  wire [7:0]            s_awlen,
    input  wire [2:0]            s_awsize,
    input  wire [1:0]            s_awburst,
    input  wire [ID_W-1:0]       s_awid,
    input  wire                  s_awuser,    // RAM type: 1 MC (memory 0), 0 CV (memory 1)
    input  wire                  s_wvalid,
    output wire                  s_wready,
    input  wire [DATA_W-1:0]     s_wdata,
    input  wire [DATA_W/8-1:0]   s_wstrb,
    input  wire                  s_wlast,
    output wire                  s_bvalid,
    input  wire                  s_bready,
    output wire [1:0]            s_bresp,
    // the two memories' arbiter ports (memory k at [k*W +: W])
    output wire [1:0]            m_arvalid,
    input  wire [1:0]            m_arready,
    output wire [2*ADDR_W-1:0]   m_araddr,
    output wire [15:0]           m_arlen,
    output wire [5:0]            m_arsize,
    output wire [3:0]            m_arburst,
    output wire [2*ID_W-1:0]     m_arid,
    input  wire [1:0]            m_rvalid,
    output wire [1:0]            m_rready,
    input  wire [2*DATA_W-1:0]   m_rdata,
    input  wire [3:0]            m_rresp,
    input  wire [1:0]            m_rlast,
    output wire [1:0]            m_awvalid,
    input  wire [1:0]            m_awready,
    output wire [2*ADDR_W-1:0]   m_awaddr,
    output wire [15:0]           m_awlen,
    output wire [5:0]            m_awsize,
    output wire [3:0]            m_awburst,
    output wire [2*ID_W-1:0]     m_awid,
    output wire [1:0]            m_wvalid,
    input  wire [1:0]            m_wready,
    output wire [2*DATA_W-1:0]   m_wdata,
    output wire [2*DATA_W/8-1:0] m_wstrb,
    output wire [1:0]            m_wlast,
    input  wire [1:0]            m_bvalid,
    output wire [1:0]            m_bready,
    input  wire [3:0]            m_bresp
);
    // one spare count above the unit's limit; at the cap the router stops taking requests (never reached
    // with a unit that keeps its own limit, and then only a pause, never a loss)
    localparam CNT_W = $clog2(MAX_OUTSTANDING + 2);
    localparam [CNT_W-1:0] CAP = {CNT_W{1'b1}};
    localparam [CNT_W-1:0] ZERO = {CNT_W{1'b0}};

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if ((SEC_MEM != 0 && SEC_MEM != 1) || MAX_OUTSTANDING < 1 || ADDR_W < 1 || ID_W < 1 ||
            DATA_W < 8 || DATA_W % 8 != 0) begin
            $display("ERROR: nvdla_axi_route %m: SEC_MEM 0 or 1, MAX_OUTSTANDING >= 1, DATA_W a multiple of 8");
            $finish;
        end
    end

    // the memory a request goes to: CV (0) to memory 1 when it exists, everything else to memory 0
    wire ar_mem = (SEC_MEM != 0) & ~s_aruser;
    wire aw_mem = (SEC_MEM != 0) & ~s_awuser;

    // ---- reads ------------------------------------------------------------------------------------------
    reg  [CNT_W-1:0] rd_out;    // bursts whose AR went and whose last beat has not reached the unit
    reg              rd_mem;    // the memory they went to
    wire ar_ok   = (rd_out == ZERO || rd_mem == ar_mem) && rd_out != CAP;
    wire ar_fire = s_arvalid & s_arready;
    wire r_end   = s_rvalid & s_rready & s_rlast;

    assign m_arvalid = {s_arvalid & ar_ok & ar_mem, s_arvalid & ar_ok & ~ar_mem};
    assign s_arready = ar_ok & m_arready[ar_mem];
    assign m_araddr  = {2{s_araddr}};
    assign m_arlen   = {2{s_arlen}};
    assign m_arsize  = {2{s_arsize}};
    assign m_arburst = {2{s_arburst}};
    assign m_arid    = {2{s_arid}};

    // only the memory holding this unit's bursts answers it (nothing is in flight on the other one)
    assign s_rvalid = m_rvalid[rd_mem];
    assign s_rdata  = m_rdata[rd_mem * DATA_W +: DATA_W];
    assign s_rresp  = m_rresp[rd_mem * 2 +: 2];
    assign s_rlast  = m_rlast[rd_mem];
    assign m_rready = {s_rready & rd_mem, s_rready & ~rd_mem};

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            rd_out <= ZERO;
            rd_mem <= 1'b0;
        end else begin
            rd_out <= rd_out + {{(CNT_W-1){1'b0}}, ar_fire} - {{(CNT_W-1){1'b0}}, r_end};
            if (ar_fire) rd_mem <= ar_mem;
        end
    end

    // ---- writes -----------------------------------------------------------------------------------------
    reg  [CNT_W-1:0] wr_out;    // bursts whose AW went and whose response has not reached the unit
    reg  [CNT_W-1:0] w_out;     // bursts whose AW went and whose last W beat has not
    reg              wr_mem;    // the memory they went to
    wire aw_ok   = (wr_out == ZERO || wr_mem == aw_mem) && wr_out != CAP;
    wire aw_fire = s_awvalid & s_awready;
    wire w_ok    = w_out != ZERO;
    wire w_end   = s_wvalid & s_wready & s_wlast;
    wire b_fire  = s_bvalid & s_bready;

    assign m_awvalid = {s_awvalid & aw_ok & aw_mem, s_awvalid & aw_ok & ~aw_mem};
    assign s_awready = aw_ok & m_awready[aw_mem];
    assign m_awaddr  = {2{s_awaddr}};
    assign m_awlen   = {2{s_awlen}};
    assign m_awsize  = {2{s_awsize}};
    assign m_awburst = {2{s_awburst}};
    assign m_awid    = {2{s_awid}};

    assign m_wvalid  = {s_wvalid & w_ok & wr_mem, s_wvalid & w_ok & ~wr_mem};
    assign s_wready  = w_ok & m_wready[wr_mem];
    assign m_wdata   = {2{s_wdata}};
    assign m_wstrb   = {2{s_wstrb}};
    assign m_wlast   = {2{s_wlast}};

    assign s_bvalid  = m_bvalid[wr_mem];
    assign s_bresp   = m_bresp[wr_mem * 2 +: 2];
    assign m_bready  = {s_bready & wr_mem, s_bready & ~wr_mem};

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            wr_out <= ZERO;
            w_out  <= ZERO;
            wr_mem <= 1'b0;
        end else begin
            wr_out <= wr_out + {{(CNT_W-1){1'b0}}, aw_fire} - {{(CNT_W-1){1'b0}}, b_fire};
            w_out  <= w_out + {{(CNT_W-1){1'b0}}, aw_fire} - {{(CNT_W-1){1'b0}}, w_end};
            if (aw_fire) wr_mem <= aw_mem;
        end
    end
endmodule
