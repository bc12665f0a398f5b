// Test harness (not product RTL): the read DMA's data stream feeds the write DMA, so a bench can copy
// regions of an AXI memory and check both engines, their burst splitting and their outstanding limits.
module nvdla_dma_loopback #(
    parameter MAX_BURST       = 16,
    parameter MAX_OUTSTANDING = 8
) (
    input  wire        clk,
    input  wire        rst_n,
    input  wire        rd_cmd_valid,
    output wire        rd_cmd_ready,
    input  wire [47:0] rd_cmd_data,   // {addr[31:0], beats[15:0]}
    input  wire        wr_cmd_valid,
    output wire        wr_cmd_ready,
    input  wire [47:0] wr_cmd_data,
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
    input  wire [3:0]  m_axi_rid,   // single ID: the IDs only complete the bus for the memory model
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
    output wire        rd_busy,
    output wire        wr_idle
);
    wire        d_valid, d_ready;
    wire [63:0] d_data;
    // one memory here: the RAM type the engines carry for the top's router goes nowhere
    /* verilator lint_off UNUSEDSIGNAL */
    wire        aruser_unused, awuser_unused;
    /* verilator lint_on UNUSEDSIGNAL */

    nvdla_axi_rd #(.MAX_BURST(MAX_BURST), .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_rd (
        .clk(clk), .rst_n(rst_n),
        .cmd_valid(rd_cmd_valid), .cmd_ready(rd_cmd_ready),
        .cmd_addr(rd_cmd_data[47:16]), .cmd_beats(rd_cmd_data[15:0]), .cmd_ram_type(1'b1),
        .m_axi_aruser(aruser_unused), .m_axi_arvalid(m_axi_arvalid), .m_axi_arready(m_axi_arready), .m_axi_araddr(m_axi_araddr),
        .m_axi_arlen(m_axi_arlen), .m_axi_arsize(m_axi_arsize), .m_axi_arburst(m_axi_arburst),
        .m_axi_arid(m_axi_arid), .m_axi_rvalid(m_axi_rvalid), .m_axi_rready(m_axi_rready),
        .m_axi_rdata(m_axi_rdata), .m_axi_rresp(m_axi_rresp), .m_axi_rlast(m_axi_rlast),
        .out_valid(d_valid), .out_ready(d_ready), .out_data(d_data), .busy(rd_busy)
    );

    nvdla_axi_wr #(.MAX_BURST(MAX_BURST), .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_wr (
        .clk(clk), .rst_n(rst_n),
        .cmd_valid(wr_cmd_valid), .cmd_ready(wr_cmd_ready),
        .cmd_addr(wr_cmd_data[47:16]), .cmd_beats(wr_cmd_data[15:0]), .cmd_ram_type(1'b1),
        .m_axi_awuser(awuser_unused), .in_valid(d_valid), .in_ready(d_ready), .in_data(d_data),
        .m_axi_awvalid(m_axi_awvalid), .m_axi_awready(m_axi_awready), .m_axi_awaddr(m_axi_awaddr),
        .m_axi_awlen(m_axi_awlen), .m_axi_awsize(m_axi_awsize), .m_axi_awburst(m_axi_awburst),
        .m_axi_awid(m_axi_awid), .m_axi_wvalid(m_axi_wvalid), .m_axi_wready(m_axi_wready),
        .m_axi_wdata(m_axi_wdata), .m_axi_wstrb(m_axi_wstrb), .m_axi_wlast(m_axi_wlast),
        .m_axi_bvalid(m_axi_bvalid), .m_axi_bready(m_axi_bready), .m_axi_bresp(m_axi_bresp),
        .idle(wr_idle)
    );
endmodule
