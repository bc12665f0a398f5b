// Test harness (not product RTL) of the BDMA bench (tb/test_bdma.py): the generated BDMA register block
// (rtl/gen/nvdla_bdma_regs.v) on its unit-side register port, and nvdla_bdma behind the subsystem's memory
// interfaces (rtl/dma/nvdla_axi_memif.v, one unit, with the CV SRAM) as in the top: m_axi_* reaches the
// MC memory model, c_axi_* the CV SRAM's. The bench drives the register port as the CSB slave would
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
    output wire c_axi_arvalid,
    input  wire c_axi_arready,
    output wire [31:0] c_axi_araddr,
    output wire [7:0] c_axi_arlen,
    output wire [2:0] c_axi_arsize,
    output wire [1:0] c_axi_arburst,
    output wire [3:0] c_axi_arid,
    input  wire c_axi_rvalid,
    output wire c_axi_rready,
    input  wire [ATOM*8-1:0] c_axi_rdata,
    input  wire [1:0] c_axi_rresp,
    input  wire c_axi_rlast,
    output wire c_axi_awvalid,
    input  wire c_axi_awready,
    output wire [31:0] c_axi_awaddr,
    output wire [7:0] c_axi_awlen,
    output wire [2:0] c_axi_awsize,
    output wire [1:0] c_axi_awburst,
    output wire [3:0] c_axi_awid,
    output wire c_axi_wvalid,
    input  wire c_axi_wready,
    output wire [ATOM*8-1:0] c_axi_wdata,
    output wire [ATOM-1:0] c_axi_wstrb,
    output wire c_axi_wlast,
    input  wire c_axi_bvalid,
    output wire c_axi_bready,
    input  wire [1:0] c_axi_bresp,
    input  wire [3:0] c_axi_rid,  // the IDs complete the bus for the memory model only
    input  wire [3:0] c_axi_bid
    /* verilator lint_on UNUSEDSIGNAL */
);
    wire [`BDMA_CFG_W-1:0]  cfg;
    wire [`BDMA_STAT_W-1:0] stat;

    nvdla_bdma_regs u_regs (
        .clk(clk), .rst_n(rst_n), .reg_sel(reg_sel), .reg_offset(reg_offset), .reg_wdata(reg_wdata),
        .reg_write(reg_write), .reg_rdata(reg_rdata), .cfg(cfg), .stat(stat)
    );

    `include "nvdla_axi_macros.vh"
    localparam AXI_AW = 32, AXI_DW = ATOM * 8, AXI_IW = 4;
    `NVDLA_AXI_ARB_WIRES(1)

    nvdla_bdma #(.ATOM(ATOM), .MAX_BURST(MAX_BURST), .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_bdma (
        .clk(clk), .rst_n(rst_n), .cfg(cfg), .stat(stat), .done_intr(done_intr), .busy(busy),
        `NVDLA_AXI_UNIT_TO_ARB(0)
    );

    nvdla_axi_memif #(.N(1), .SEC_MEM(1), .ADDR_W(AXI_AW), .DATA_W(AXI_DW), .ID_W(AXI_IW), .ID_BIT(0),
                      .W_DEPTH(2 * MAX_BURST), .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_memif (
        .clk(clk), .rst_n(rst_n), `NVDLA_AXI_MEMIF_SLAVES, `NVDLA_AXI_MEMIF_MASTERS
    );
endmodule
