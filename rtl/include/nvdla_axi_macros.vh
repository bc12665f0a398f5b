// AXI4 master bundles as macros (in the spirit of pulp-platform/axi's assign.svh): one place that lists the
// channel signals, so a top connects a unit's AXI master to one port of the memory interfaces
// (rtl/dma/nvdla_axi_memif.v: a router per unit, an arbiter per memory) in one line. The memory-interface
// side is a set of packed vectors named arb_<signal> (port i at [i*W +: W]); widths come from the localparams
// AXI_AW, AXI_DW, AXI_IW of the including module. a*user carries each request's RAM type (NVDLA's
// *_RAM_TYPE: 1 MC, the primary memory; 0 CV, the CV SRAM). Include inside a module body.
`ifndef NVDLA_AXI_MACROS_VH
`define NVDLA_AXI_MACROS_VH

// the arbiter's slave-side vectors for n ports
`define NVDLA_AXI_ARB_WIRES(n) \
    wire [(n)-1:0]        arb_arvalid, arb_arready, arb_rvalid, arb_rready, arb_rlast; \
    wire [(n)-1:0]        arb_awvalid, arb_awready, arb_wvalid, arb_wready, arb_wlast, arb_bvalid, arb_bready; \
    wire [(n)-1:0]        arb_aruser, arb_awuser; \
    wire [(n)*AXI_AW-1:0] arb_araddr, arb_awaddr; \
    wire [(n)*8-1:0]      arb_arlen, arb_awlen; \
    wire [(n)*3-1:0]      arb_arsize, arb_awsize; \
    wire [(n)*2-1:0]      arb_arburst, arb_awburst, arb_rresp, arb_bresp; \
    wire [(n)*AXI_IW-1:0] arb_arid, arb_awid; \
    wire [(n)*AXI_DW-1:0] arb_rdata, arb_wdata; \
    wire [(n)*AXI_DW/8-1:0] arb_wstrb;

// a unit's m_axi_* master (IDs out, no IDs in: responses come back on the unit's own port) to port i
`define NVDLA_AXI_UNIT_TO_ARB(i) \
    .m_axi_arvalid(arb_arvalid[i]), .m_axi_arready(arb_arready[i]), \
    .m_axi_araddr(arb_araddr[(i)*AXI_AW +: AXI_AW]), .m_axi_arlen(arb_arlen[(i)*8 +: 8]), \
    .m_axi_arsize(arb_arsize[(i)*3 +: 3]), .m_axi_arburst(arb_arburst[(i)*2 +: 2]), \
    .m_axi_arid(arb_arid[(i)*AXI_IW +: AXI_IW]), .m_axi_aruser(arb_aruser[i]), \
    .m_axi_rvalid(arb_rvalid[i]), .m_axi_rready(arb_rready[i]), .m_axi_rdata(arb_rdata[(i)*AXI_DW +: AXI_DW]), \
    .m_axi_rresp(arb_rresp[(i)*2 +: 2]), .m_axi_rlast(arb_rlast[i]), \
    .m_axi_awvalid(arb_awvalid[i]), .m_axi_awready(arb_awready[i]), \
    .m_axi_awaddr(arb_awaddr[(i)*AXI_AW +: AXI_AW]), .m_axi_awlen(arb_awlen[(i)*8 +: 8]), \
    .m_axi_awsize(arb_awsize[(i)*3 +: 3]), .m_axi_awburst(arb_awburst[(i)*2 +: 2]), \
    .m_axi_awid(arb_awid[(i)*AXI_IW +: AXI_IW]), .m_axi_awuser(arb_awuser[i]), \
    .m_axi_wvalid(arb_wvalid[i]), .m_axi_wready(arb_wready[i]), .m_axi_wdata(arb_wdata[(i)*AXI_DW +: AXI_DW]), \
    .m_axi_wstrb(arb_wstrb[(i)*AXI_DW/8 +: AXI_DW/8]), .m_axi_wlast(arb_wlast[i]), \
    .m_axi_bvalid(arb_bvalid[i]), .m_axi_bready(arb_bready[i]), .m_axi_bresp(arb_bresp[(i)*2 +: 2])

// the memory interfaces' unit ports to the arb_* vectors
`define NVDLA_AXI_MEMIF_SLAVES \
    .s_arvalid(arb_arvalid), .s_arready(arb_arready), .s_araddr(arb_araddr), .s_arlen(arb_arlen), \
    .s_arsize(arb_arsize), .s_arburst(arb_arburst), .s_arid(arb_arid), .s_aruser(arb_aruser), \
    .s_rvalid(arb_rvalid), .s_rready(arb_rready), .s_rdata(arb_rdata), .s_rresp(arb_rresp), \
    .s_rlast(arb_rlast), \
    .s_awvalid(arb_awvalid), .s_awready(arb_awready), .s_awaddr(arb_awaddr), .s_awlen(arb_awlen), \
    .s_awsize(arb_awsize), .s_awburst(arb_awburst), .s_awid(arb_awid), .s_awuser(arb_awuser), \
    .s_wvalid(arb_wvalid), .s_wready(arb_wready), .s_wdata(arb_wdata), .s_wstrb(arb_wstrb), \
    .s_wlast(arb_wlast), .s_bvalid(arb_bvalid), .s_bready(arb_bready), .s_bresp(arb_bresp)

// the memory interfaces' two masters to the module's m_axi_* (primary memory, MC) and c_axi_* (CV SRAM) ports
`define NVDLA_AXI_MEMIF_MASTERS \
    .m_arvalid(m_axi_arvalid), .m_arready(m_axi_arready), .m_araddr(m_axi_araddr), .m_arlen(m_axi_arlen), \
    .m_arsize(m_axi_arsize), .m_arburst(m_axi_arburst), .m_arid(m_axi_arid), \
    .m_rvalid(m_axi_rvalid), .m_rready(m_axi_rready), .m_rdata(m_axi_rdata), .m_rresp(m_axi_rresp), \
    .m_rlast(m_axi_rlast), .m_rid(m_axi_rid), \
    .m_awvalid(m_axi_awvalid), .m_awready(m_axi_awready), .m_awaddr(m_axi_awaddr), .m_awlen(m_axi_awlen), \
    .m_awsize(m_axi_awsize), .m_awburst(m_axi_awburst), .m_awid(m_axi_awid), \
    .m_wvalid(m_axi_wvalid), .m_wready(m_axi_wready), .m_wdata(m_axi_wdata), .m_wstrb(m_axi_wstrb), \
    .m_wlast(m_axi_wlast), .m_bvalid(m_axi_bvalid), .m_bready(m_axi_bready), .m_bresp(m_axi_bresp), \
    .m_bid(m_axi_bid), \
    .c_arvalid(c_axi_arvalid), .c_arready(c_axi_arready), .c_araddr(c_axi_araddr), .c_arlen(c_axi_arlen), \
    .c_arsize(c_axi_arsize), .c_arburst(c_axi_arburst), .c_arid(c_axi_arid), \
    .c_rvalid(c_axi_rvalid), .c_rready(c_axi_rready), .c_rdata(c_axi_rdata), .c_rresp(c_axi_rresp), \
    .c_rlast(c_axi_rlast), .c_rid(c_axi_rid), \
    .c_awvalid(c_axi_awvalid), .c_awready(c_axi_awready), .c_awaddr(c_axi_awaddr), .c_awlen(c_axi_awlen), \
    .c_awsize(c_axi_awsize), .c_awburst(c_axi_awburst), .c_awid(c_axi_awid), \
    .c_wvalid(c_axi_wvalid), .c_wready(c_axi_wready), .c_wdata(c_axi_wdata), .c_wstrb(c_axi_wstrb), \
    .c_wlast(c_axi_wlast), .c_bvalid(c_axi_bvalid), .c_bready(c_axi_bready), .c_bresp(c_axi_bresp), \
    .c_bid(c_axi_bid)

// a read-only master's m_axi_* read channels (a convolution DMA: CDMA's feature data) to port i, and
// the same for w_axi_* (CDMA's weights); NVDLA_AXI_ARB_NO_WRITE(i) ties the port's write channels idle
`define NVDLA_AXI_RD_TO_ARB(i) \
    .m_axi_arvalid(arb_arvalid[i]), .m_axi_arready(arb_arready[i]), \
    .m_axi_araddr(arb_araddr[(i)*AXI_AW +: AXI_AW]), .m_axi_arlen(arb_arlen[(i)*8 +: 8]), \
    .m_axi_arsize(arb_arsize[(i)*3 +: 3]), .m_axi_arburst(arb_arburst[(i)*2 +: 2]), \
    .m_axi_arid(arb_arid[(i)*AXI_IW +: AXI_IW]), .m_axi_aruser(arb_aruser[i]), \
    .m_axi_rvalid(arb_rvalid[i]), .m_axi_rready(arb_rready[i]), .m_axi_rdata(arb_rdata[(i)*AXI_DW +: AXI_DW]), \
    .m_axi_rresp(arb_rresp[(i)*2 +: 2]), .m_axi_rlast(arb_rlast[i])
`define NVDLA_AXI_WRD_TO_ARB(i) \
    .w_axi_arvalid(arb_arvalid[i]), .w_axi_arready(arb_arready[i]), \
    .w_axi_araddr(arb_araddr[(i)*AXI_AW +: AXI_AW]), .w_axi_arlen(arb_arlen[(i)*8 +: 8]), \
    .w_axi_arsize(arb_arsize[(i)*3 +: 3]), .w_axi_arburst(arb_arburst[(i)*2 +: 2]), \
    .w_axi_arid(arb_arid[(i)*AXI_IW +: AXI_IW]), .w_axi_aruser(arb_aruser[i]), \
    .w_axi_rvalid(arb_rvalid[i]), .w_axi_rready(arb_rready[i]), .w_axi_rdata(arb_rdata[(i)*AXI_DW +: AXI_DW]), \
    .w_axi_rresp(arb_rresp[(i)*2 +: 2]), .w_axi_rlast(arb_rlast[i])
`define NVDLA_AXI_ARB_NO_WRITE(i) \
    assign arb_awvalid[i] = 1'b0; \
    assign arb_awaddr[(i)*AXI_AW +: AXI_AW] = {AXI_AW{1'b0}}; \
    assign arb_awlen[(i)*8 +: 8] = 8'd0; \
    assign arb_awsize[(i)*3 +: 3] = 3'd0; \
    assign arb_awburst[(i)*2 +: 2] = 2'd1; \
    assign arb_awid[(i)*AXI_IW +: AXI_IW] = {AXI_IW{1'b0}}; \
    assign arb_awuser[i] = 1'b1; \
    assign arb_wvalid[i] = 1'b0; \
    assign arb_wdata[(i)*AXI_DW +: AXI_DW] = {AXI_DW{1'b0}}; \
    assign arb_wstrb[(i)*AXI_DW/8 +: AXI_DW/8] = {AXI_DW/8{1'b0}}; \
    assign arb_wlast[i] = 1'b0; \
    assign arb_bready[i] = 1'b1;

`endif  // NVDLA_AXI_MACROS_VH
