// Post-processing subsystem top level: NVDLA host CSB port, one AXI4 master (64-bit data, 32-bit addresses),
// the GLB interrupt. Units: SDP (with SDP_RDMA), PDP (with PDP_RDMA) and CDP (with CDP_RDMA), sharing the AXI
// master through two cascaded rtl/dma/nvdla_axi_arb.v: PDP and CDP on the inner one (ID bit 0), that one and
// SDP on the outer one (ID bit 1), so the AXI IDs are PDP 0, CDP 1, SDP 2. Addresses outside the units'
// windows answer as NVDLA's unmapped ones (reads 0, writes dropped, non-posted writes acknowledged).
//
// The PDP datapath takes its geometry from the PDP registers and only the source addresses from PDP_RDMA:
// NVDLA requires both copies to agree (the driver layer checks), and one geometry for both DMA sides and the
// core means that registers which disagree can give wrong data but never a stalled pipeline. CDP likewise:
// the cube comes from CDP_RDMA (the CDP registers have none), the destination and datapath from CDP.
`include "nvdla_pdp_fields.vh"
`include "nvdla_pdp_rdma_fields.vh"
`include "nvdla_cdp_fields.vh"
`include "nvdla_cdp_rdma_fields.vh"
`include "nvdla_sdp_fields.vh"
`include "nvdla_sdp_rdma_fields.vh"
module nvdla_pp_top #(
    parameter PDP_MAX_W       = 64,   // output columns of one PDP band held by the line buffer
    parameter MAX_BURST       = 16,
    parameter MAX_OUTSTANDING = 8
) (
    input  wire        clk,
    input  wire        rst_n,
    // CSB host side (NVDLA csb2nvdla / nvdla2csb)
    input  wire        csb_req_valid,
    output wire        csb_req_ready,
    input  wire [15:0] csb_req_addr,
    input  wire [31:0] csb_req_wdat,
    input  wire        csb_req_write,
    input  wire        csb_req_nposted,
    output wire        csb_resp_valid,
    output wire [31:0] csb_resp_data,
    output wire        csb_wr_complete,
    // AXI4 master
    output wire        m_axi_arvalid,
    input  wire        m_axi_arready,
    output wire [31:0] m_axi_araddr,
    output wire [7:0]  m_axi_arlen,
    output wire [2:0]  m_axi_arsize,
    output wire [1:0]  m_axi_arburst,
    output wire [3:0]  m_axi_arid,
    input  wire        m_axi_rvalid,
    output wire        m_axi_rready,
    input  wire [63:0] m_axi_rdata,
    input  wire [1:0]  m_axi_rresp,
    input  wire        m_axi_rlast,
    input  wire [3:0]  m_axi_rid,
    output wire        m_axi_awvalid,
    input  wire        m_axi_awready,
    output wire [31:0] m_axi_awaddr,
    output wire [7:0]  m_axi_awlen,
    output wire [2:0]  m_axi_awsize,
    output wire [1:0]  m_axi_awburst,
    output wire [3:0]  m_axi_awid,
    output wire        m_axi_wvalid,
    input  wire        m_axi_wready,
    output wire [63:0] m_axi_wdata,
    output wire [7:0]  m_axi_wstrb,
    output wire        m_axi_wlast,
    input  wire        m_axi_bvalid,
    output wire        m_axi_bready,
    input  wire [1:0]  m_axi_bresp,
    input  wire [3:0]  m_axi_bid,
    output wire        intr
);
    // CSB windows and LUT access registers, generated from the register description (make regs)
    /* verilator lint_off UNUSEDPARAM */
    `include "nvdla_csb_map.vh"
    /* verilator lint_on UNUSEDPARAM */

    // unit order on the CSB slave: GLB, PDP_RDMA, PDP, CDP_RDMA, CDP, SDP_RDMA, SDP
    localparam NUNITS = 7;
    localparam U_GLB = 0, U_PDP_RDMA = 1, U_PDP = 2, U_CDP_RDMA = 3, U_CDP = 4, U_SDP_RDMA = 5, U_SDP = 6;

    wire [NUNITS-1:0]    reg_sel;
    wire [9:0]           reg_offset;
    wire [31:0]          reg_wdata;
    wire                 reg_write;
    wire [NUNITS*32-1:0] reg_rdata;

    nvdla_csb_slave #(.NUNITS(NUNITS), .UNIT_IDS({CSB_WIN_SDP, CSB_WIN_SDP_RDMA, CSB_WIN_CDP, CSB_WIN_CDP_RDMA,
                                                  CSB_WIN_PDP, CSB_WIN_PDP_RDMA, CSB_WIN_GLB})) u_csb (
        .clk(clk), .rst_n(rst_n),
        .csb_req_valid(csb_req_valid), .csb_req_ready(csb_req_ready), .csb_req_addr(csb_req_addr),
        .csb_req_wdat(csb_req_wdat), .csb_req_write(csb_req_write), .csb_req_nposted(csb_req_nposted),
        .csb_resp_valid(csb_resp_valid), .csb_resp_data(csb_resp_data), .csb_wr_complete(csb_wr_complete),
        .reg_sel(reg_sel), .reg_offset(reg_offset), .reg_wdata(reg_wdata), .reg_write(reg_write),
        .reg_rdata(reg_rdata)
    );

    // ---- PDP registers (both groups): configuration bundles to nvdla_pdp, its statistics back -----------
    wire pdp_op_en, pdp_consumer, rdma_op_en, rdma_consumer_unused, pdp_done;

    wire [`PDP_CFG_W-1:0] pdp_cfg;
    wire [`PDP_STAT_W-1:0] pdp_stat;
    nvdla_pdp_regs u_pdp_regs (
        .clk(clk), .rst_n(rst_n), .reg_sel(reg_sel[U_PDP]), .reg_offset(reg_offset), .reg_wdata(reg_wdata),
        .reg_write(reg_write), .reg_rdata(reg_rdata[U_PDP*32 +: 32]), .dp_done(pdp_done), .op_en(pdp_op_en),
        .consumer(pdp_consumer), .cfg(pdp_cfg), .stat(pdp_stat)
    );

    wire [`PDP_RDMA_CFG_W-1:0] pdp_rdma_cfg;
    wire [`PDP_RDMA_STAT_W-1:0] pdp_rdma_stat;
    nvdla_pdp_rdma_regs u_pdp_rdma_regs (
        .clk(clk), .rst_n(rst_n), .reg_sel(reg_sel[U_PDP_RDMA]), .reg_offset(reg_offset), .reg_wdata(reg_wdata),
        .reg_write(reg_write), .reg_rdata(reg_rdata[U_PDP_RDMA*32 +: 32]), .dp_done(pdp_done & rdma_op_en),
        .op_en(rdma_op_en), .consumer(rdma_consumer_unused), .cfg(pdp_rdma_cfg), .stat(pdp_rdma_stat)
    );

    // PDP's AXI master, to port 0 of the arbiter
    wire pdp_axi_arvalid;
    wire pdp_axi_arready;
    wire [31:0] pdp_axi_araddr;
    wire [7:0] pdp_axi_arlen;
    wire [2:0] pdp_axi_arsize;
    wire [1:0] pdp_axi_arburst;
    wire [3:0] pdp_axi_arid;
    wire pdp_axi_rvalid;
    wire pdp_axi_rready;
    wire [63:0] pdp_axi_rdata;
    wire [1:0] pdp_axi_rresp;
    wire pdp_axi_rlast;
    wire pdp_axi_awvalid;
    wire pdp_axi_awready;
    wire [31:0] pdp_axi_awaddr;
    wire [7:0] pdp_axi_awlen;
    wire [2:0] pdp_axi_awsize;
    wire [1:0] pdp_axi_awburst;
    wire [3:0] pdp_axi_awid;
    wire pdp_axi_wvalid;
    wire pdp_axi_wready;
    wire [63:0] pdp_axi_wdata;
    wire [7:0] pdp_axi_wstrb;
    wire pdp_axi_wlast;
    wire pdp_axi_bvalid;
    wire pdp_axi_bready;
    wire [1:0] pdp_axi_bresp;

    // ---- PDP datapath ---------------------------------------------------------------------------------
    // SDP -> PDP on the fly (SDP OUTPUT_DST = PDP, PDP FLYING_MODE = ON): SDP's output atoms in cube order
    wire        sdp_fly_valid, sdp_fly_ready;
    wire [63:0] sdp_fly_data;
    wire pdp_busy_unused;

    nvdla_pdp #(.ATOM(8), .MAX_W(PDP_MAX_W), .MAX_BURST(MAX_BURST), .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_pdp (
        .clk(clk), .rst_n(rst_n), .op_en(pdp_op_en), .rdma_op_en(rdma_op_en),
        .fly_valid(sdp_fly_valid), .fly_ready(sdp_fly_ready), .fly_data(sdp_fly_data),
        .done(pdp_done), .busy(pdp_busy_unused),
        .cfg(pdp_cfg), .rdma_cfg(pdp_rdma_cfg), .stat(pdp_stat), .rdma_stat(pdp_rdma_stat),
        .m_axi_arvalid(pdp_axi_arvalid), .m_axi_arready(pdp_axi_arready), .m_axi_araddr(pdp_axi_araddr),
        .m_axi_arlen(pdp_axi_arlen), .m_axi_arsize(pdp_axi_arsize), .m_axi_arburst(pdp_axi_arburst),
        .m_axi_arid(pdp_axi_arid), .m_axi_rvalid(pdp_axi_rvalid), .m_axi_rready(pdp_axi_rready),
        .m_axi_rdata(pdp_axi_rdata), .m_axi_rresp(pdp_axi_rresp), .m_axi_rlast(pdp_axi_rlast),
        .m_axi_awvalid(pdp_axi_awvalid), .m_axi_awready(pdp_axi_awready), .m_axi_awaddr(pdp_axi_awaddr),
        .m_axi_awlen(pdp_axi_awlen), .m_axi_awsize(pdp_axi_awsize), .m_axi_awburst(pdp_axi_awburst),
        .m_axi_awid(pdp_axi_awid), .m_axi_wvalid(pdp_axi_wvalid), .m_axi_wready(pdp_axi_wready),
        .m_axi_wdata(pdp_axi_wdata), .m_axi_wstrb(pdp_axi_wstrb), .m_axi_wlast(pdp_axi_wlast),
        .m_axi_bvalid(pdp_axi_bvalid), .m_axi_bready(pdp_axi_bready), .m_axi_bresp(pdp_axi_bresp)
    );


    // ---- CDP registers (both groups), consumer-group fields out ------------------------------------------
    /* verilator lint_off UNUSEDSIGNAL */
    // the register block's LUT strobes: the core takes its accesses from the CSB request (see below)
    wire [9:0]  cdp_lut_access_addr;
    wire        cdp_lut_access_wr, cdp_lut_access_rd;
    wire [15:0] cdp_lut_access_wdata;
    /* verilator lint_on UNUSEDSIGNAL */
    wire [15:0] cdp_lut_access_rdata;
    wire        cdp_op_en, cdp_consumer, crdma_op_en, crdma_consumer_unused, cdp_done;
    wire [`CDP_CFG_W-1:0]  cdp_cfg;
    wire [`CDP_STAT_W-1:0] cdp_stat;
    nvdla_cdp_regs u_cdp_regs (
        .clk(clk), .rst_n(rst_n), .reg_sel(reg_sel[U_CDP]), .reg_offset(reg_offset), .reg_wdata(reg_wdata),
        .reg_write(reg_write), .reg_rdata(reg_rdata[U_CDP*32 +: 32]), .dp_done(cdp_done), .op_en(cdp_op_en),
        .consumer(cdp_consumer), .lut_access_addr(cdp_lut_access_addr), .lut_access_wr(cdp_lut_access_wr),
        .lut_access_wdata(cdp_lut_access_wdata), .lut_access_rd(cdp_lut_access_rd),
        .lut_access_rdata(cdp_lut_access_rdata), .cfg(cdp_cfg), .stat(cdp_stat)
    );

    wire [`CDP_RDMA_CFG_W-1:0]  cdp_rdma_cfg;
    wire [`CDP_RDMA_STAT_W-1:0] cdp_rdma_stat;
    nvdla_cdp_rdma_regs u_cdp_rdma_regs (
        .clk(clk), .rst_n(rst_n), .reg_sel(reg_sel[U_CDP_RDMA]), .reg_offset(reg_offset), .reg_wdata(reg_wdata),
        .reg_write(reg_write), .reg_rdata(reg_rdata[U_CDP_RDMA*32 +: 32]), .dp_done(cdp_done & crdma_op_en),
        .op_en(crdma_op_en), .consumer(crdma_consumer_unused), .cfg(cdp_rdma_cfg), .stat(cdp_rdma_stat)
    );

    // ---- CDP datapath ---------------------------------------------------------------------------------
    // The LUT RAM in the core keeps the access pointer itself (rtl/lut/nvdla_lut_ram.v) and answers a DATA
    // read one cycle after its strobe, while the register block reads LUT data in its access cycle. So the
    // LUT accesses are decoded from the CSB request itself, one cycle ahead of the register access
    // (nvdla_csb_slave: request in cycle 0, register access in cycle 1, every request accepted): the read
    // word is ready when the register block returns it. Requests reach the LUT one per cycle in CSB order,
    // the same sequence the register block's own copy of the pointer (S_LUT_ACCESS_CFG read-back) sees.
    wire       cdp_lut_req    = csb_req_valid & (csb_req_addr[15:10] == CSB_WIN_CDP);
    wire       cdp_acc_cfg_we = cdp_lut_req & csb_req_write & (csb_req_addr[9:0] == CDP_LUT_ACCESS_CFG);
    wire       cdp_acc_data   = cdp_lut_req & (csb_req_addr[9:0] == CDP_LUT_ACCESS_DATA);
    /* verilator lint_off UNUSEDSIGNAL */
    wire [9:0] cdp_acc_cfg_addr_q;
    wire       cdp_acc_table, cdp_acc_write, cdp_busy_unused;
    /* verilator lint_on UNUSEDSIGNAL */
    wire cdp_axi_arvalid;
    wire cdp_axi_arready;
    wire [31:0] cdp_axi_araddr;
    wire [7:0] cdp_axi_arlen;
    wire [2:0] cdp_axi_arsize;
    wire [1:0] cdp_axi_arburst;
    wire [3:0] cdp_axi_arid;
    wire cdp_axi_rvalid;
    wire cdp_axi_rready;
    wire [63:0] cdp_axi_rdata;
    wire [1:0] cdp_axi_rresp;
    wire cdp_axi_rlast;
    wire cdp_axi_awvalid;
    wire cdp_axi_awready;
    wire [31:0] cdp_axi_awaddr;
    wire [7:0] cdp_axi_awlen;
    wire [2:0] cdp_axi_awsize;
    wire [1:0] cdp_axi_awburst;
    wire [3:0] cdp_axi_awid;
    wire cdp_axi_wvalid;
    wire cdp_axi_wready;
    wire [63:0] cdp_axi_wdata;
    wire [7:0] cdp_axi_wstrb;
    wire cdp_axi_wlast;
    wire cdp_axi_bvalid;
    wire cdp_axi_bready;
    wire [1:0] cdp_axi_bresp;

    nvdla_cdp #(.ATOM(8), .CHUNK(8), .MAX_BURST(MAX_BURST), .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_cdp (
        .clk(clk), .rst_n(rst_n),
        .op_en(cdp_op_en & crdma_op_en), .done(cdp_done), .busy(cdp_busy_unused),
        .cfg(cdp_cfg), .rdma_cfg(cdp_rdma_cfg), .stat(cdp_stat), .rdma_stat(cdp_rdma_stat),
        .acc_cfg_we(cdp_acc_cfg_we), .acc_cfg_addr(csb_req_wdat[CDP_LUT_ADDR_MSB:CDP_LUT_ADDR_LSB]),
        .acc_cfg_table(csb_req_wdat[CDP_LUT_TABLE_ID_MSB:CDP_LUT_TABLE_ID_LSB]),
        .acc_cfg_write(csb_req_wdat[CDP_LUT_ACCESS_TYPE_MSB:CDP_LUT_ACCESS_TYPE_LSB]),
        .acc_cfg_addr_q(cdp_acc_cfg_addr_q), .acc_table(cdp_acc_table),
        .acc_write(cdp_acc_write), .acc_data_we(cdp_acc_data & csb_req_write),
        .acc_data_wdata(csb_req_wdat[CDP_LUT_DATA_MSB:CDP_LUT_DATA_LSB]),
        .acc_data_re(cdp_acc_data & ~csb_req_write),
        .acc_data_rdata(cdp_lut_access_rdata),
        .m_axi_arid(cdp_axi_arid), .m_axi_awid(cdp_axi_awid),
        .m_axi_arvalid(cdp_axi_arvalid),
        .m_axi_arready(cdp_axi_arready),
        .m_axi_araddr(cdp_axi_araddr),
        .m_axi_arlen(cdp_axi_arlen),
        .m_axi_arsize(cdp_axi_arsize),
        .m_axi_arburst(cdp_axi_arburst),
        .m_axi_rvalid(cdp_axi_rvalid),
        .m_axi_rready(cdp_axi_rready),
        .m_axi_rdata(cdp_axi_rdata),
        .m_axi_rresp(cdp_axi_rresp),
        .m_axi_rlast(cdp_axi_rlast),
        .m_axi_awvalid(cdp_axi_awvalid),
        .m_axi_awready(cdp_axi_awready),
        .m_axi_awaddr(cdp_axi_awaddr),
        .m_axi_awlen(cdp_axi_awlen),
        .m_axi_awsize(cdp_axi_awsize),
        .m_axi_awburst(cdp_axi_awburst),
        .m_axi_wvalid(cdp_axi_wvalid),
        .m_axi_wready(cdp_axi_wready),
        .m_axi_wdata(cdp_axi_wdata),
        .m_axi_wstrb(cdp_axi_wstrb),
        .m_axi_wlast(cdp_axi_wlast),
        .m_axi_bvalid(cdp_axi_bvalid),
        .m_axi_bready(cdp_axi_bready),
        .m_axi_bresp(cdp_axi_bresp)
    );


    // ---- SDP registers (both groups) and SDP_RDMA registers ---------------------------------------------
    /* verilator lint_off UNUSEDSIGNAL */
    wire [9:0] sdp_lut_access_addr;
    wire sdp_lut_access_wr;
    wire [15:0] sdp_lut_access_wdata;
    wire sdp_lut_access_rd;
    // the register block's LUT strobes: the datapath takes its accesses from the CSB request (see CDP)
    /* verilator lint_on UNUSEDSIGNAL */
    wire [15:0] sdp_lut_access_rdata;
    wire        sdp_op_en, sdp_consumer, srdma_op_en, srdma_consumer_unused, sdp_done;
    wire [`SDP_CFG_W-1:0]  sdp_cfg;
    wire [`SDP_STAT_W-1:0] sdp_stat;
    nvdla_sdp_regs u_sdp_regs (
        .clk(clk), .rst_n(rst_n), .reg_sel(reg_sel[U_SDP]), .reg_offset(reg_offset), .reg_wdata(reg_wdata),
        .reg_write(reg_write), .reg_rdata(reg_rdata[U_SDP*32 +: 32]), .dp_done(sdp_done), .op_en(sdp_op_en),
        .consumer(sdp_consumer), .lut_access_addr(sdp_lut_access_addr), .lut_access_wr(sdp_lut_access_wr),
        .lut_access_wdata(sdp_lut_access_wdata), .lut_access_rd(sdp_lut_access_rd),
        .lut_access_rdata(sdp_lut_access_rdata), .cfg(sdp_cfg), .stat(sdp_stat)
    );

    // SDP_RDMA's OP_EN takes part only when the layer reads something (always here: the input comes from
    // memory); its group latches on the same done.
    wire [`SDP_RDMA_CFG_W-1:0]  sdp_rdma_cfg;
    wire [`SDP_RDMA_STAT_W-1:0] sdp_rdma_stat;
    nvdla_sdp_rdma_regs u_sdp_rdma_regs (
        .clk(clk), .rst_n(rst_n), .reg_sel(reg_sel[U_SDP_RDMA]), .reg_offset(reg_offset), .reg_wdata(reg_wdata),
        .reg_write(reg_write), .reg_rdata(reg_rdata[U_SDP_RDMA*32 +: 32]), .dp_done(sdp_done & srdma_op_en),
        .op_en(srdma_op_en), .consumer(srdma_consumer_unused), .cfg(sdp_rdma_cfg), .stat(sdp_rdma_stat)
    );

    // ---- SDP datapath ---------------------------------------------------------------------------------
    // LUT accesses decoded from the CSB request one cycle ahead of the register block, as for CDP.
    wire       sdp_lut_req    = csb_req_valid & (csb_req_addr[15:10] == CSB_WIN_SDP);
    wire       sdp_acc_cfg_we = sdp_lut_req & csb_req_write & (csb_req_addr[9:0] == SDP_LUT_ACCESS_CFG);
    wire       sdp_acc_data   = sdp_lut_req & (csb_req_addr[9:0] == SDP_LUT_ACCESS_DATA);
    /* verilator lint_off UNUSEDSIGNAL */
    wire [9:0] sdp_acc_cfg_addr_q;
    wire       sdp_acc_table, sdp_acc_write, sdp_busy_unused;
    /* verilator lint_on UNUSEDSIGNAL */
    wire sdp_axi_arvalid;
    wire sdp_axi_arready;
    wire [31:0] sdp_axi_araddr;
    wire [7:0] sdp_axi_arlen;
    wire [2:0] sdp_axi_arsize;
    wire [1:0] sdp_axi_arburst;
    wire [3:0] sdp_axi_arid;
    wire sdp_axi_rvalid;
    wire sdp_axi_rready;
    wire [63:0] sdp_axi_rdata;
    wire [1:0] sdp_axi_rresp;
    wire sdp_axi_rlast;
    wire sdp_axi_awvalid;
    wire sdp_axi_awready;
    wire [31:0] sdp_axi_awaddr;
    wire [7:0] sdp_axi_awlen;
    wire [2:0] sdp_axi_awsize;
    wire [1:0] sdp_axi_awburst;
    wire [3:0] sdp_axi_awid;
    wire sdp_axi_wvalid;
    wire sdp_axi_wready;
    wire [63:0] sdp_axi_wdata;
    wire [7:0] sdp_axi_wstrb;
    wire sdp_axi_wlast;
    wire sdp_axi_bvalid;
    wire sdp_axi_bready;
    wire [1:0] sdp_axi_bresp;

    nvdla_sdp #(.ATOM(8), .MAX_BURST(MAX_BURST), .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_sdp (
        .clk(clk), .rst_n(rst_n),
        .op_en(sdp_op_en & srdma_op_en), .done(sdp_done), .busy(sdp_busy_unused),
        .cfg(sdp_cfg), .rdma_cfg(sdp_rdma_cfg),
        .acc_cfg_we(sdp_acc_cfg_we), .acc_cfg_addr(csb_req_wdat[SDP_LUT_ADDR_MSB:SDP_LUT_ADDR_LSB]),
        .acc_cfg_table(csb_req_wdat[SDP_LUT_TABLE_ID_MSB:SDP_LUT_TABLE_ID_LSB]),
        .acc_cfg_write(csb_req_wdat[SDP_LUT_ACCESS_TYPE_MSB:SDP_LUT_ACCESS_TYPE_LSB]),
        .acc_cfg_addr_q(sdp_acc_cfg_addr_q), .acc_table(sdp_acc_table),
        .acc_write(sdp_acc_write), .acc_data_we(sdp_acc_data & csb_req_write),
        .acc_data_wdata(csb_req_wdat[SDP_LUT_DATA_MSB:SDP_LUT_DATA_LSB]),
        .acc_data_re(sdp_acc_data & ~csb_req_write),
        .acc_data_rdata(sdp_lut_access_rdata),
        .stat(sdp_stat), .rdma_stat(sdp_rdma_stat),
        .fly_valid(sdp_fly_valid), .fly_ready(sdp_fly_ready), .fly_data(sdp_fly_data),
        .m_axi_arvalid(sdp_axi_arvalid),
        .m_axi_arready(sdp_axi_arready),
        .m_axi_araddr(sdp_axi_araddr),
        .m_axi_arlen(sdp_axi_arlen),
        .m_axi_arsize(sdp_axi_arsize),
        .m_axi_arburst(sdp_axi_arburst),
        .m_axi_arid(sdp_axi_arid),
        .m_axi_rvalid(sdp_axi_rvalid),
        .m_axi_rready(sdp_axi_rready),
        .m_axi_rdata(sdp_axi_rdata),
        .m_axi_rresp(sdp_axi_rresp),
        .m_axi_rlast(sdp_axi_rlast),
        .m_axi_awvalid(sdp_axi_awvalid),
        .m_axi_awready(sdp_axi_awready),
        .m_axi_awaddr(sdp_axi_awaddr),
        .m_axi_awlen(sdp_axi_awlen),
        .m_axi_awsize(sdp_axi_awsize),
        .m_axi_awburst(sdp_axi_awburst),
        .m_axi_awid(sdp_axi_awid),
        .m_axi_wvalid(sdp_axi_wvalid),
        .m_axi_wready(sdp_axi_wready),
        .m_axi_wdata(sdp_axi_wdata),
        .m_axi_wstrb(sdp_axi_wstrb),
        .m_axi_wlast(sdp_axi_wlast),
        .m_axi_bvalid(sdp_axi_bvalid),
        .m_axi_bready(sdp_axi_bready),
        .m_axi_bresp(sdp_axi_bresp)
    );

    // ---- AXI: one arbiter, master index = the ID the memory sees (PDP 0, CDP 1, SDP 2) -----------------------
    /* verilator lint_off UNUSEDSIGNAL */  // the units take responses by their own valid, not by ID
    wire [3*4-1:0] unit_rid_unused, unit_bid_unused;
    /* verilator lint_on UNUSEDSIGNAL */
    nvdla_axi_arb #(.N(3), .ADDR_W(32), .DATA_W(64), .ID_W(4), .ID_BIT(0), .W_DEPTH(2 * MAX_BURST)) u_axi_arb (
        .clk(clk), .rst_n(rst_n),
        .s_arvalid({sdp_axi_arvalid, cdp_axi_arvalid, pdp_axi_arvalid}),
        .s_arready({sdp_axi_arready, cdp_axi_arready, pdp_axi_arready}),
        .s_araddr({sdp_axi_araddr, cdp_axi_araddr, pdp_axi_araddr}),
        .s_arlen({sdp_axi_arlen, cdp_axi_arlen, pdp_axi_arlen}),
        .s_arsize({sdp_axi_arsize, cdp_axi_arsize, pdp_axi_arsize}),
        .s_arburst({sdp_axi_arburst, cdp_axi_arburst, pdp_axi_arburst}),
        .s_arid({sdp_axi_arid, cdp_axi_arid, pdp_axi_arid}),
        .s_rvalid({sdp_axi_rvalid, cdp_axi_rvalid, pdp_axi_rvalid}),
        .s_rready({sdp_axi_rready, cdp_axi_rready, pdp_axi_rready}),
        .s_rdata({sdp_axi_rdata, cdp_axi_rdata, pdp_axi_rdata}),
        .s_rresp({sdp_axi_rresp, cdp_axi_rresp, pdp_axi_rresp}),
        .s_rlast({sdp_axi_rlast, cdp_axi_rlast, pdp_axi_rlast}),
        .s_awvalid({sdp_axi_awvalid, cdp_axi_awvalid, pdp_axi_awvalid}),
        .s_awready({sdp_axi_awready, cdp_axi_awready, pdp_axi_awready}),
        .s_awaddr({sdp_axi_awaddr, cdp_axi_awaddr, pdp_axi_awaddr}),
        .s_awlen({sdp_axi_awlen, cdp_axi_awlen, pdp_axi_awlen}),
        .s_awsize({sdp_axi_awsize, cdp_axi_awsize, pdp_axi_awsize}),
        .s_awburst({sdp_axi_awburst, cdp_axi_awburst, pdp_axi_awburst}),
        .s_awid({sdp_axi_awid, cdp_axi_awid, pdp_axi_awid}),
        .s_wvalid({sdp_axi_wvalid, cdp_axi_wvalid, pdp_axi_wvalid}),
        .s_wready({sdp_axi_wready, cdp_axi_wready, pdp_axi_wready}),
        .s_wdata({sdp_axi_wdata, cdp_axi_wdata, pdp_axi_wdata}),
        .s_wstrb({sdp_axi_wstrb, cdp_axi_wstrb, pdp_axi_wstrb}),
        .s_wlast({sdp_axi_wlast, cdp_axi_wlast, pdp_axi_wlast}),
        .s_bvalid({sdp_axi_bvalid, cdp_axi_bvalid, pdp_axi_bvalid}),
        .s_bready({sdp_axi_bready, cdp_axi_bready, pdp_axi_bready}),
        .s_bresp({sdp_axi_bresp, cdp_axi_bresp, pdp_axi_bresp}),
        .s_rid(unit_rid_unused),
        .s_bid(unit_bid_unused),
        .m_arvalid(m_axi_arvalid),
        .m_arready(m_axi_arready),
        .m_araddr(m_axi_araddr),
        .m_arlen(m_axi_arlen),
        .m_arsize(m_axi_arsize),
        .m_arburst(m_axi_arburst),
        .m_arid(m_axi_arid),
        .m_rvalid(m_axi_rvalid),
        .m_rready(m_axi_rready),
        .m_rdata(m_axi_rdata),
        .m_rresp(m_axi_rresp),
        .m_rlast(m_axi_rlast),
        .m_rid(m_axi_rid),
        .m_awvalid(m_axi_awvalid),
        .m_awready(m_axi_awready),
        .m_awaddr(m_axi_awaddr),
        .m_awlen(m_axi_awlen),
        .m_awsize(m_axi_awsize),
        .m_awburst(m_axi_awburst),
        .m_awid(m_axi_awid),
        .m_wvalid(m_axi_wvalid),
        .m_wready(m_axi_wready),
        .m_wdata(m_axi_wdata),
        .m_wstrb(m_axi_wstrb),
        .m_wlast(m_axi_wlast),
        .m_bvalid(m_axi_bvalid),
        .m_bready(m_axi_bready),
        .m_bresp(m_axi_bresp),
        .m_bid(m_axi_bid)
    );

    // ---- GLB: interrupt status per unit and group --------------------------------------------------------
    nvdla_glb u_glb (
        .clk(clk), .rst_n(rst_n),
        .reg_sel(reg_sel[U_GLB]), .reg_offset(reg_offset), .reg_wdata(reg_wdata), .reg_write(reg_write),
        .reg_rdata(reg_rdata[U_GLB*32 +: 32]),
        .sdp_done_intr({sdp_done & sdp_consumer, sdp_done & ~sdp_consumer}),
        .cdp_done_intr({cdp_done & cdp_consumer, cdp_done & ~cdp_consumer}),
        .pdp_done_intr({pdp_done & pdp_consumer, pdp_done & ~pdp_consumer}),
        .intr(intr)
    );

endmodule
