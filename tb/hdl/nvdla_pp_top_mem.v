// Test-bench top (not product RTL): nvdla_pp_top with its AXI masters on simulation memories
// (tb/hdl/nvdla_sim_axi_mem.v: u_mem on m_axi, the primary memory; u_cmem on c_axi, the CV SRAM, which
// stays empty when SEC_MEM = 0) and a 100 MHz clock generated here, so a cocotb test only touches the CSB port,
// the memory's configuration and `intr`, and the design runs free between those (no per-cycle Python).
// The clock needs --timing on Verilator (tb/registry/top.py passes it); the ports and the clock are marked
// public for a build without --public-flat-rw.
module nvdla_pp_top_mem #(
    parameter ATOM      = 8,
    parameter CSB_MAP   = 0,
    parameter PDP_MAX_W = 64,
    parameter SEC_MEM   = 0,
    parameter BDMA      = 0,
    parameter RUBIK     = 0,
    parameter SDP_EW    = 1,
    parameter SDP_LUT   = 1,
    parameter INT16     = 0,
    parameter CDP_LUT_PAIRED = 0,   // CDP's INT8 LUT index as nvdlav1's (nvdla_pp_top)
    parameter FP16      = 0,
    parameter CONV      = 0,    // the convolution pipeline and its geometry (nvdla_pp_top)
    parameter ATOMIC_C  = 8,
    parameter ATOMIC_K  = 8,
    parameter CBUF_BANKS = 32,
    parameter CBUF_DEPTH = 512,
    parameter CBUF_ENTRY = 8,
    parameter SDP_LANES = ATOM,     // SDP's core lanes and the LUTs' (nvdla_pp_top)
    parameter SDP_LUT_LANES = ATOM,
    parameter CDP_LUT_LANES = ATOM,
    parameter SLOTS     = 64
) (
    input  wire        rst_n /*verilator public_flat_rw*/,
    input  wire        csb_req_valid /*verilator public_flat_rw*/,
    output wire        csb_req_ready /*verilator public_flat_rw*/,
    input  wire [15:0] csb_req_addr /*verilator public_flat_rw*/,
    input  wire [31:0] csb_req_wdat /*verilator public_flat_rw*/,
    input  wire        csb_req_write /*verilator public_flat_rw*/,
    input  wire        csb_req_nposted /*verilator public_flat_rw*/,
    output wire        csb_resp_valid /*verilator public_flat_rw*/,
    output wire [31:0] csb_resp_data /*verilator public_flat_rw*/,
    output wire        csb_wr_complete /*verilator public_flat_rw*/,
    output wire        intr /*verilator public_flat_rw*/,
    // memory configuration (sampled in reset) and control
    input  wire [31:0] mem_seed /*verilator public_flat_rw*/,
    input  wire [15:0] mem_rd_lat /*verilator public_flat_rw*/,
    input  wire [15:0] mem_rd_jit /*verilator public_flat_rw*/,
    input  wire [15:0] mem_wr_lat /*verilator public_flat_rw*/,
    input  wire [15:0] mem_wr_jit /*verilator public_flat_rw*/,
    input  wire [39:0] mem_stall /*verilator public_flat_rw*/,
    input  wire        mem_clear /*verilator public_flat_rw*/,
    output wire        mem_error /*verilator public_flat_rw*/
);
    reg clk /*verilator public_flat_rd*/;   // the Python side waits on its edges
    initial clk = 1'b0;
    always #5 clk = ~clk;

    wire        arvalid, arready, rvalid, rready, rlast, awvalid, awready, wvalid, wready, wlast;
    wire        bvalid, bready;
    wire [31:0] araddr, awaddr;
    wire [7:0]  arlen, awlen;
    wire [ATOM-1:0] wstrb;
    wire [2:0]  arsize, awsize;
    wire [1:0]  arburst, awburst, rresp, bresp;
    wire [3:0]  arid, rid, awid, bid;
    wire [ATOM*8-1:0] rdata, wdata;
    // the second memory's bus (c_axi)
    wire        c_arvalid, c_arready, c_rvalid, c_rready, c_rlast, c_awvalid, c_awready, c_wvalid, c_wready;
    wire        c_wlast, c_bvalid, c_bready;
    wire [31:0] c_araddr, c_awaddr;
    wire [7:0]  c_arlen, c_awlen;
    wire [ATOM-1:0] c_wstrb;
    wire [2:0]  c_arsize, c_awsize;
    wire [1:0]  c_arburst, c_awburst, c_rresp, c_bresp;
    wire [3:0]  c_arid, c_rid, c_awid, c_bid;
    wire [ATOM*8-1:0] c_rdata, c_wdata;
    wire        m_error, c_error;
    assign mem_error = m_error | c_error;

    nvdla_pp_top #(.ATOM(ATOM), .CSB_MAP(CSB_MAP), .PDP_MAX_W(PDP_MAX_W), .SEC_MEM(SEC_MEM), .BDMA(BDMA),
                   .RUBIK(RUBIK), .SDP_EW(SDP_EW), .SDP_LUT(SDP_LUT), .INT16(INT16), .CDP_LUT_PAIRED(CDP_LUT_PAIRED),
                   .FP16(FP16), .CONV(CONV), .ATOMIC_C(ATOMIC_C), .ATOMIC_K(ATOMIC_K),
                   .CBUF_BANKS(CBUF_BANKS), .CBUF_DEPTH(CBUF_DEPTH), .CBUF_ENTRY(CBUF_ENTRY),
                   .SDP_LANES(SDP_LANES), .SDP_LUT_LANES(SDP_LUT_LANES), .CDP_LUT_LANES(CDP_LUT_LANES)) u_top (
        .clk(clk), .rst_n(rst_n),
        .csb_req_valid(csb_req_valid), .csb_req_ready(csb_req_ready), .csb_req_addr(csb_req_addr),
        .csb_req_wdat(csb_req_wdat), .csb_req_write(csb_req_write), .csb_req_nposted(csb_req_nposted),
        .csb_resp_valid(csb_resp_valid), .csb_resp_data(csb_resp_data), .csb_wr_complete(csb_wr_complete),
        .m_axi_arvalid(arvalid), .m_axi_arready(arready), .m_axi_araddr(araddr), .m_axi_arlen(arlen),
        .m_axi_arsize(arsize), .m_axi_arburst(arburst), .m_axi_arid(arid),
        .m_axi_rvalid(rvalid), .m_axi_rready(rready), .m_axi_rdata(rdata), .m_axi_rresp(rresp),
        .m_axi_rlast(rlast), .m_axi_rid(rid),
        .m_axi_awvalid(awvalid), .m_axi_awready(awready), .m_axi_awaddr(awaddr), .m_axi_awlen(awlen),
        .m_axi_awsize(awsize), .m_axi_awburst(awburst), .m_axi_awid(awid),
        .m_axi_wvalid(wvalid), .m_axi_wready(wready), .m_axi_wdata(wdata), .m_axi_wstrb(wstrb),
        .m_axi_wlast(wlast),
        .m_axi_bvalid(bvalid), .m_axi_bready(bready), .m_axi_bresp(bresp), .m_axi_bid(bid),
        .intr(intr),
        .c_axi_arvalid(c_arvalid), .c_axi_arready(c_arready), .c_axi_araddr(c_araddr), .c_axi_arlen(c_arlen),
        .c_axi_arsize(c_arsize), .c_axi_arburst(c_arburst), .c_axi_arid(c_arid),
        .c_axi_rvalid(c_rvalid), .c_axi_rready(c_rready), .c_axi_rdata(c_rdata), .c_axi_rresp(c_rresp),
        .c_axi_rlast(c_rlast), .c_axi_rid(c_rid),
        .c_axi_awvalid(c_awvalid), .c_axi_awready(c_awready), .c_axi_awaddr(c_awaddr), .c_axi_awlen(c_awlen),
        .c_axi_awsize(c_awsize), .c_axi_awburst(c_awburst), .c_axi_awid(c_awid),
        .c_axi_wvalid(c_wvalid), .c_axi_wready(c_wready), .c_axi_wdata(c_wdata), .c_axi_wstrb(c_wstrb),
        .c_axi_wlast(c_wlast),
        .c_axi_bvalid(c_bvalid), .c_axi_bready(c_bready), .c_axi_bresp(c_bresp), .c_axi_bid(c_bid)
    );

    nvdla_sim_axi_mem #(.DATA_W(ATOM * 8), .ID_W(4), .SLOTS(SLOTS)) u_mem (
        .clk(clk), .rst_n(rst_n),
        .cfg_seed(mem_seed), .cfg_rd_lat(mem_rd_lat), .cfg_rd_jit(mem_rd_jit), .cfg_wr_lat(mem_wr_lat),
        .cfg_wr_jit(mem_wr_jit), .cfg_stall(mem_stall), .clear(mem_clear), .error(m_error),
        .s_axi_arvalid(arvalid), .s_axi_arready(arready), .s_axi_araddr(araddr), .s_axi_arlen(arlen),
        .s_axi_arsize(arsize), .s_axi_arburst(arburst), .s_axi_arid(arid),
        .s_axi_rvalid(rvalid), .s_axi_rready(rready), .s_axi_rdata(rdata), .s_axi_rresp(rresp),
        .s_axi_rlast(rlast), .s_axi_rid(rid),
        .s_axi_awvalid(awvalid), .s_axi_awready(awready), .s_axi_awaddr(awaddr), .s_axi_awlen(awlen),
        .s_axi_awsize(awsize), .s_axi_awburst(awburst), .s_axi_awid(awid),
        .s_axi_wvalid(wvalid), .s_axi_wready(wready), .s_axi_wdata(wdata), .s_axi_wstrb(wstrb),
        .s_axi_wlast(wlast),
        .s_axi_bvalid(bvalid), .s_axi_bready(bready), .s_axi_bresp(bresp), .s_axi_bid(bid)
    );

    // the CV SRAM: the same timing knobs, its own random sequence (another seed), cleared with the first
    nvdla_sim_axi_mem #(.DATA_W(ATOM * 8), .ID_W(4), .SLOTS(SLOTS)) u_cmem (
        .clk(clk), .rst_n(rst_n),
        .cfg_seed(mem_seed ^ 32'h9e37_79b9), .cfg_rd_lat(mem_rd_lat), .cfg_rd_jit(mem_rd_jit),
        .cfg_wr_lat(mem_wr_lat), .cfg_wr_jit(mem_wr_jit), .cfg_stall(mem_stall), .clear(mem_clear),
        .error(c_error),
        .s_axi_arvalid(c_arvalid), .s_axi_arready(c_arready), .s_axi_araddr(c_araddr), .s_axi_arlen(c_arlen),
        .s_axi_arsize(c_arsize), .s_axi_arburst(c_arburst), .s_axi_arid(c_arid),
        .s_axi_rvalid(c_rvalid), .s_axi_rready(c_rready), .s_axi_rdata(c_rdata), .s_axi_rresp(c_rresp),
        .s_axi_rlast(c_rlast), .s_axi_rid(c_rid),
        .s_axi_awvalid(c_awvalid), .s_axi_awready(c_awready), .s_axi_awaddr(c_awaddr), .s_axi_awlen(c_awlen),
        .s_axi_awsize(c_awsize), .s_axi_awburst(c_awburst), .s_axi_awid(c_awid),
        .s_axi_wvalid(c_wvalid), .s_axi_wready(c_wready), .s_axi_wdata(c_wdata), .s_axi_wstrb(c_wstrb),
        .s_axi_wlast(c_wlast),
        .s_axi_bvalid(c_bvalid), .s_axi_bready(c_bready), .s_axi_bresp(c_bresp), .s_axi_bid(c_bid)
    );
endmodule
