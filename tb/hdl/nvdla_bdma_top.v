// Test harness (not product RTL) of the BDMA bench (tb/test_bdma.py): the generated BDMA register block
// (rtl/gen/nvdla_bdma_regs.v) on its unit-side register port, and nvdla_bdma with its two AXI masters (MC
// and CV SRAM), each to its own memory model. The bench drives the register port as the CSB slave would
// (one access a cycle, same-cycle read data).
`include "nvdla_bdma_fields.vh"

module nvdla_bdma_top #(
    parameter ATOM            = 32,
    parameter MAX_BURST       = 16,
    parameter MAX_OUTSTANDING = 8
) (
    input  wire        clk,
    input  wire        rst_n,
    input  wire        reg_sel,
    input  wire [9:0]  reg_offset,
    input  wire [31:0] reg_wdata,
    input  wire        reg_write,
    output wire [31:0] reg_rdata,
    output wire [1:0]  done_intr,
    output wire        busy,
    /* verilator lint_off UNUSEDSIGNAL */
    output wire m_axi_arvalid,
    input  wire m_axi_arready,
    output wire [31:0] m_axi_araddr,
    output wire [7:0] m_axi_arlen,
    output wire [2:0] m_axi_arsize,
    output wire [1:0] m_axi_arburst,
    output wire [3:0] m_axi_arid,
    input  wire m_axi_rvalid,
    output wire m_axi_rready,
    input  wire [ATOM*8-1:0] m_axi_rdata,
    input  wire [1:0] m_axi_rresp,
    input  wire m_axi_rlast,
    output wire m_axi_awvalid,
    input  wire m_axi_awready,
    output wire [31:0] m_axi_awaddr,
    output wire [7:0] m_axi_awlen,
    output wire [2:0] m_axi_awsize,
    output wire [1:0] m_axi_awburst,
    output wire [3:0] m_axi_awid,
    output wire m_axi_wvalid,
    input  wire m_axi_wready,
    output wire [ATOM*8-1:0] m_axi_wdata,
    output wire [ATOM-1:0] m_axi_wstrb,
    output wire m_axi_wlast,
    input  wire m_axi_bvalid,
    output wire m_axi_bready,
    input  wire [1:0] m_axi_bresp,
    input  wire [3:0] m_axi_rid,  // the IDs complete the bus for the memory model only
    input  wire [3:0] m_axi_bid,
    output wire cv_axi_arvalid,
    input  wire cv_axi_arready,
    output wire [31:0] cv_axi_araddr,
    output wire [7:0] cv_axi_arlen,
    output wire [2:0] cv_axi_arsize,
    output wire [1:0] cv_axi_arburst,
    output wire [3:0] cv_axi_arid,
    input  wire cv_axi_rvalid,
    output wire cv_axi_rready,
    input  wire [ATOM*8-1:0] cv_axi_rdata,
    input  wire [1:0] cv_axi_rresp,
    input  wire cv_axi_rlast,
    output wire cv_axi_awvalid,
    input  wire cv_axi_awready,
    output wire [31:0] cv_axi_awaddr,
    output wire [7:0] cv_axi_awlen,
    output wire [2:0] cv_axi_awsize,
    output wire [1:0] cv_axi_awburst,
    output wire [3:0] cv_axi_awid,
    output wire cv_axi_wvalid,
    input  wire cv_axi_wready,
    output wire [ATOM*8-1:0] cv_axi_wdata,
    output wire [ATOM-1:0] cv_axi_wstrb,
    output wire cv_axi_wlast,
    input  wire cv_axi_bvalid,
    output wire cv_axi_bready,
    input  wire [1:0] cv_axi_bresp,
    input  wire [3:0] cv_axi_rid,  // the IDs complete the bus for the memory model only
    input  wire [3:0] cv_axi_bid
    /* verilator lint_on UNUSEDSIGNAL */
);
    wire [`BDMA_CFG_W-1:0]  cfg;
    wire [`BDMA_STAT_W-1:0] stat;

    nvdla_bdma_regs u_regs (
        .clk(clk), .rst_n(rst_n), .reg_sel(reg_sel), .reg_offset(reg_offset), .reg_wdata(reg_wdata),
        .reg_write(reg_write), .reg_rdata(reg_rdata), .cfg(cfg), .stat(stat)
    );

    nvdla_bdma #(.ATOM(ATOM), .MAX_BURST(MAX_BURST), .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_bdma (
        .clk(clk), .rst_n(rst_n), .cfg(cfg), .stat(stat), .done_intr(done_intr), .busy(busy),
        .m_axi_arvalid(m_axi_arvalid), .m_axi_arready(m_axi_arready), .m_axi_araddr(m_axi_araddr), .m_axi_arlen(m_axi_arlen),
        .m_axi_arsize(m_axi_arsize), .m_axi_arburst(m_axi_arburst), .m_axi_arid(m_axi_arid), .m_axi_rvalid(m_axi_rvalid),
        .m_axi_rready(m_axi_rready), .m_axi_rdata(m_axi_rdata), .m_axi_rresp(m_axi_rresp), .m_axi_rlast(m_axi_rlast),
        .m_axi_awvalid(m_axi_awvalid), .m_axi_awready(m_axi_awready), .m_axi_awaddr(m_axi_awaddr), .m_axi_awlen(m_axi_awlen),
        .m_axi_awsize(m_axi_awsize), .m_axi_awburst(m_axi_awburst), .m_axi_awid(m_axi_awid), .m_axi_wvalid(m_axi_wvalid),
        .m_axi_wready(m_axi_wready), .m_axi_wdata(m_axi_wdata), .m_axi_wstrb(m_axi_wstrb), .m_axi_wlast(m_axi_wlast),
        .m_axi_bvalid(m_axi_bvalid), .m_axi_bready(m_axi_bready), .m_axi_bresp(m_axi_bresp), .cv_axi_arvalid(cv_axi_arvalid),
        .cv_axi_arready(cv_axi_arready), .cv_axi_araddr(cv_axi_araddr), .cv_axi_arlen(cv_axi_arlen), .cv_axi_arsize(cv_axi_arsize),
        .cv_axi_arburst(cv_axi_arburst), .cv_axi_arid(cv_axi_arid), .cv_axi_rvalid(cv_axi_rvalid), .cv_axi_rready(cv_axi_rready),
        .cv_axi_rdata(cv_axi_rdata), .cv_axi_rresp(cv_axi_rresp), .cv_axi_rlast(cv_axi_rlast), .cv_axi_awvalid(cv_axi_awvalid),
        .cv_axi_awready(cv_axi_awready), .cv_axi_awaddr(cv_axi_awaddr), .cv_axi_awlen(cv_axi_awlen), .cv_axi_awsize(cv_axi_awsize),
        .cv_axi_awburst(cv_axi_awburst), .cv_axi_awid(cv_axi_awid), .cv_axi_wvalid(cv_axi_wvalid), .cv_axi_wready(cv_axi_wready),
        .cv_axi_wdata(cv_axi_wdata), .cv_axi_wstrb(cv_axi_wstrb), .cv_axi_wlast(cv_axi_wlast), .cv_axi_bvalid(cv_axi_bvalid),
        .cv_axi_bready(cv_axi_bready), .cv_axi_bresp(cv_axi_bresp)
    );
endmodule
