// The memory interfaces of the subsystem: N unit AXI4 masters (packed, port i at [i*W +: W], the arbiter's
// convention) to memory 0 (NVDLA's MCIF, the primary memory: m_*) and memory 1 (the CV SRAM interface,
// CVIF: c_*). Each unit's requests pass its router (rtl/dma/nvdla_axi_route.v: a request's RAM type on
// a*user picks the memory, in order, without deadlock), then one N-port arbiter per memory
// (rtl/dma/nvdla_axi_arb.v: round robin per burst, the port index in the AXI ID).
// SEC_MEM = 0 (an nv_small-like build): no memory 1, no second arbiter; every request goes to m_* and the
// c_* outputs are tied idle (valid and ready low), its inputs ignored.
module nvdla_axi_memif #(
    parameter N               = 3,
    parameter SEC_MEM         = 1,
    parameter ADDR_W          = 32,
    parameter DATA_W          = 64,
    parameter ID_W            = 4,
    parameter ID_BIT          = 0,
    parameter W_DEPTH         = 32,   // the arbiters' buffered write beats per unit (>= the longest burst)
    parameter MAX_OUTSTANDING = 8     // bursts a unit keeps in flight per direction
) (
    input  wire                   clk,
    input  wire                   rst_n,
    // units
    input  wire [N-1:0]           s_arvalid,
    output wire [N-1:0]           s_arready,
    input  wire [N*ADDR_W-1:0]    s_araddr,
    input  wire [N*8-1:0]         s_arlen,
    input  wire [N*3-1:0]         s_arsize,
    input  wire [N*2-1:0]         s_arburst,
    input  wire [N*ID_W-1:0]      s_arid,
    input  wire [N-1:0]           s_aruser,    // RAM type per request: 1 MC (memory 0), 0 CV (memory 1)
    output wire [N-1:0]           s_rvalid,
    input  wire [N-1:0]           s_rready,
    output wire [N*DATA_W-1:0]    s_rdata,
    output wire [N*2-1:0]         s_rresp,
    output wire [N-1:0]           s_rlast,
    input  wire [N-1:0]           s_awvalid,
    output wire [N-1:0]           s_awready,
    input  wire [N*ADDR_W-1:0]    s_awaddr,
    input  wire [N*8-1:0]         s_awlen,
    input  wire [N*3-1:0]         s_awsize,
    input  wire [N*2-1:0]         s_awburst,
    input  wire [N*ID_W-1:0]      s_awid,
    input  wire [N-1:0]           s_awuser,    // RAM type per request: 1 MC (memory 0), 0 CV (memory 1)
    input  wire [N-1:0]           s_wvalid,
    output wire [N-1:0]           s_wready,
    input  wire [N*DATA_W-1:0]    s_wdata,
    input  wire [N*DATA_W/8-1:0]  s_wstrb,
    input  wire [N-1:0]           s_wlast,
    output wire [N-1:0]           s_bvalid,
    input  wire [N-1:0]           s_bready,
    output wire [N*2-1:0]         s_bresp,
    // memory 0: the primary memory (MC)
    output wire                   m_arvalid,
    input  wire                   m_arready,
    output wire [ADDR_W-1:0]      m_araddr,
    output wire [7:0]             m_arlen,
    output wire [2:0]             m_arsize,
    output wire [1:0]             m_arburst,
    output wire [ID_W-1:0]        m_arid,
    input  wire                   m_rvalid,
    output wire                   m_rready,
    input  wire [DATA_W-1:0]      m_rdata,
    input  wire [1:0]             m_rresp,
    input  wire                   m_rlast,
    input  wire [ID_W-1:0]        m_rid,
    output wire                   m_awvalid,
    input  wire                   m_awready,
    output wire [ADDR_W-1:0]      m_awaddr,
    output wire [7:0]             m_awlen,
    output wire [2:0]             m_awsize,
    output wire [1:0]             m_awburst,
    output wire [ID_W-1:0]        m_awid,
    output wire                   m_wvalid,
    input  wire                   m_wready,
    output wire [DATA_W-1:0]      m_wdata,
    output wire [DATA_W/8-1:0]    m_wstrb,
    output wire                   m_wlast,
    input  wire                   m_bvalid,
    output wire                   m_bready,
    input  wire [1:0]             m_bresp,
    input  wire [ID_W-1:0]        m_bid,
    // memory 1: the CV SRAM (CV); idle when SEC_MEM = 0
    output wire                   c_arvalid,
    input  wire                   c_arready,
    output wire [ADDR_W-1:0]      c_araddr,
    output wire [7:0]             c_arlen,
    output wire [2:0]             c_arsize,
    output wire [1:0]             c_arburst,
    output wire [ID_W-1:0]        c_arid,
    input  wire                   c_rvalid,
    output wire                   c_rready,
    input  wire [DATA_W-1:0]      c_rdata,
    input  wire [1:0]             c_rresp,
    input  wire                   c_rlast,
    input  wire [ID_W-1:0]        c_rid,
    output wire                   c_awvalid,
    input  wire                   c_awready,
    output wire [ADDR_W-1:0]      c_awaddr,
    output wire [7:0]             c_awlen,
    output wire [2:0]             c_awsize,
    output wire [1:0]             c_awburst,
    output wire [ID_W-1:0]        c_awid,
    output wire                   c_wvalid,
    input  wire                   c_wready,
    output wire [DATA_W-1:0]      c_wdata,
    output wire [DATA_W/8-1:0]    c_wstrb,
    output wire                   c_wlast,
    input  wire                   c_bvalid,
    output wire                   c_bready,
    input  wire [1:0]             c_bresp,
    input  wire [ID_W-1:0]        c_bid
);
    localparam SW = DATA_W / 8;
    // Each arbiter queues as many write requests per unit as the unit keeps in flight (a power of two, >= 2):
    // a unit's AW, sent ahead of its data, is always taken at once, so it waits only on a memory that holds
    // its writes (the units' write stall counts, docs/perf_counters.md, count those waits and no others).
    localparam AW_DEPTH = MAX_OUTSTANDING <= 2 ? 2 : 1 << $clog2(MAX_OUTSTANDING);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0; the router and the
    // arbiters check the rest)
    initial begin
        if (N < 1 || (SEC_MEM != 0 && SEC_MEM != 1)) begin
            $display("ERROR: nvdla_axi_memif %m: N >= 1, SEC_MEM 0 or 1");
            $finish;
        end
    end

    // Arbiter k's slave side, packed per unit (k = 0 memory 0, k = 1 memory 1): vector [k][unit]
    wire [2*N-1:0]        a_arvalid, a_arready, a_rvalid, a_rready, a_rlast;
    wire [2*N-1:0]        a_awvalid, a_awready, a_wvalid, a_wready, a_wlast, a_bvalid, a_bready;
    wire [2*N*ADDR_W-1:0] a_araddr, a_awaddr;
    wire [2*N*8-1:0]      a_arlen, a_awlen;
    wire [2*N*3-1:0]      a_arsize, a_awsize;
    wire [2*N*2-1:0]      a_arburst, a_awburst, a_rresp, a_bresp;
    wire [2*N*ID_W-1:0]   a_arid, a_awid;
    wire [2*N*DATA_W-1:0] a_rdata, a_wdata;
    wire [2*N*SW-1:0]     a_wstrb;

    genvar i;
    generate
        for (i = 0; i < N; i = i + 1) begin : g_unit
            // the router's port k is arbiter k's port i: index k*N + i of the a_* vectors
            nvdla_axi_route #(.SEC_MEM(SEC_MEM), .ADDR_W(ADDR_W), .DATA_W(DATA_W), .ID_W(ID_W),
                              .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_route (
                .clk(clk), .rst_n(rst_n),
                .s_arvalid(s_arvalid[i]), .s_arready(s_arready[i]), .s_araddr(s_araddr[i*ADDR_W +: ADDR_W]),
                .s_arlen(s_arlen[i*8 +: 8]), .s_arsize(s_arsize[i*3 +: 3]), .s_arburst(s_arburst[i*2 +: 2]),
                .s_arid(s_arid[i*ID_W +: ID_W]), .s_aruser(s_aruser[i]),
                .s_rvalid(s_rvalid[i]), .s_rready(s_rready[i]), .s_rdata(s_rdata[i*DATA_W +: DATA_W]),
                .s_rresp(s_rresp[i*2 +: 2]), .s_rlast(s_rlast[i]),
                .s_awvalid(s_awvalid[i]), .s_awready(s_awready[i]), .s_awaddr(s_awaddr[i*ADDR_W +: ADDR_W]),
                .s_awlen(s_awlen[i*8 +: 8]), .s_awsize(s_awsize[i*3 +: 3]), .s_awburst(s_awburst[i*2 +: 2]),
                .s_awid(s_awid[i*ID_W +: ID_W]), .s_awuser(s_awuser[i]),
                .s_wvalid(s_wvalid[i]), .s_wready(s_wready[i]), .s_wdata(s_wdata[i*DATA_W +: DATA_W]),
                .s_wstrb(s_wstrb[i*SW +: SW]), .s_wlast(s_wlast[i]),
                .s_bvalid(s_bvalid[i]), .s_bready(s_bready[i]), .s_bresp(s_bresp[i*2 +: 2]),
                .m_arvalid({a_arvalid[N+i], a_arvalid[i]}), .m_arready({a_arready[N+i], a_arready[i]}),
                .m_araddr({a_araddr[(N+i)*ADDR_W +: ADDR_W], a_araddr[i*ADDR_W +: ADDR_W]}),
                .m_arlen({a_arlen[(N+i)*8 +: 8], a_arlen[i*8 +: 8]}),
                .m_arsize({a_arsize[(N+i)*3 +: 3], a_arsize[i*3 +: 3]}),
                .m_arburst({a_arburst[(N+i)*2 +: 2], a_arburst[i*2 +: 2]}),
                .m_arid({a_arid[(N+i)*ID_W +: ID_W], a_arid[i*ID_W +: ID_W]}),
                .m_rvalid({a_rvalid[N+i], a_rvalid[i]}), .m_rready({a_rready[N+i], a_rready[i]}),
                .m_rdata({a_rdata[(N+i)*DATA_W +: DATA_W], a_rdata[i*DATA_W +: DATA_W]}),
                .m_rresp({a_rresp[(N+i)*2 +: 2], a_rresp[i*2 +: 2]}), .m_rlast({a_rlast[N+i], a_rlast[i]}),
                .m_awvalid({a_awvalid[N+i], a_awvalid[i]}), .m_awready({a_awready[N+i], a_awready[i]}),
                .m_awaddr({a_awaddr[(N+i)*ADDR_W +: ADDR_W], a_awaddr[i*ADDR_W +: ADDR_W]}),
                .m_awlen({a_awlen[(N+i)*8 +: 8], a_awlen[i*8 +: 8]}),
                .m_awsize({a_awsize[(N+i)*3 +: 3], a_awsize[i*3 +: 3]}),
                .m_awburst({a_awburst[(N+i)*2 +: 2], a_awburst[i*2 +: 2]}),
                .m_awid({a_awid[(N+i)*ID_W +: ID_W], a_awid[i*ID_W +: ID_W]}),
                .m_wvalid({a_wvalid[N+i], a_wvalid[i]}), .m_wready({a_wready[N+i], a_wready[i]}),
                .m_wdata({a_wdata[(N+i)*DATA_W +: DATA_W], a_wdata[i*DATA_W +: DATA_W]}),
                .m_wstrb({a_wstrb[(N+i)*SW +: SW], a_wstrb[i*SW +: SW]}), .m_wlast({a_wlast[N+i], a_wlast[i]}),
                .m_bvalid({a_bvalid[N+i], a_bvalid[i]}), .m_bready({a_bready[N+i], a_bready[i]}),
                .m_bresp({a_bresp[(N+i)*2 +: 2], a_bresp[i*2 +: 2]})
            );
        end
    endgenerate

    // the units take responses by their own valid, in order per direction: the IDs handed back are not used
    /* verilator lint_off UNUSEDSIGNAL */
    wire [2*N*ID_W-1:0] a_rid_unused, a_bid_unused;
    /* verilator lint_on UNUSEDSIGNAL */

    nvdla_axi_arb #(.N(N), .ADDR_W(ADDR_W), .DATA_W(DATA_W), .ID_W(ID_W), .ID_BIT(ID_BIT),
                    .AW_DEPTH(AW_DEPTH), .W_DEPTH(W_DEPTH)) u_arb_mc (
        .clk(clk), .rst_n(rst_n),
        .s_arvalid(a_arvalid[0 +: N]), .s_arready(a_arready[0 +: N]), .s_araddr(a_araddr[0 +: N*ADDR_W]),
        .s_arlen(a_arlen[0 +: N*8]), .s_arsize(a_arsize[0 +: N*3]), .s_arburst(a_arburst[0 +: N*2]),
        .s_arid(a_arid[0 +: N*ID_W]), .s_rvalid(a_rvalid[0 +: N]), .s_rready(a_rready[0 +: N]),
        .s_rdata(a_rdata[0 +: N*DATA_W]), .s_rresp(a_rresp[0 +: N*2]), .s_rlast(a_rlast[0 +: N]),
        .s_rid(a_rid_unused[0 +: N*ID_W]),
        .s_awvalid(a_awvalid[0 +: N]), .s_awready(a_awready[0 +: N]), .s_awaddr(a_awaddr[0 +: N*ADDR_W]),
        .s_awlen(a_awlen[0 +: N*8]), .s_awsize(a_awsize[0 +: N*3]), .s_awburst(a_awburst[0 +: N*2]),
        .s_awid(a_awid[0 +: N*ID_W]), .s_wvalid(a_wvalid[0 +: N]), .s_wready(a_wready[0 +: N]),
        .s_wdata(a_wdata[0 +: N*DATA_W]), .s_wstrb(a_wstrb[0 +: N*SW]), .s_wlast(a_wlast[0 +: N]),
        .s_bvalid(a_bvalid[0 +: N]), .s_bready(a_bready[0 +: N]), .s_bresp(a_bresp[0 +: N*2]),
        .s_bid(a_bid_unused[0 +: N*ID_W]),
        .m_arvalid(m_arvalid), .m_arready(m_arready), .m_araddr(m_araddr), .m_arlen(m_arlen),
        .m_arsize(m_arsize), .m_arburst(m_arburst), .m_arid(m_arid),
        .m_rvalid(m_rvalid), .m_rready(m_rready), .m_rdata(m_rdata), .m_rresp(m_rresp), .m_rlast(m_rlast),
        .m_rid(m_rid),
        .m_awvalid(m_awvalid), .m_awready(m_awready), .m_awaddr(m_awaddr), .m_awlen(m_awlen),
        .m_awsize(m_awsize), .m_awburst(m_awburst), .m_awid(m_awid),
        .m_wvalid(m_wvalid), .m_wready(m_wready), .m_wdata(m_wdata), .m_wstrb(m_wstrb), .m_wlast(m_wlast),
        .m_bvalid(m_bvalid), .m_bready(m_bready), .m_bresp(m_bresp), .m_bid(m_bid)
    );

    generate
        if (SEC_MEM != 0) begin : g_cv
            nvdla_axi_arb #(.N(N), .ADDR_W(ADDR_W), .DATA_W(DATA_W), .ID_W(ID_W), .ID_BIT(ID_BIT),
                            .AW_DEPTH(AW_DEPTH), .W_DEPTH(W_DEPTH)) u_arb_cv (
                .clk(clk), .rst_n(rst_n),
                .s_arvalid(a_arvalid[N +: N]), .s_arready(a_arready[N +: N]),
                .s_araddr(a_araddr[N*ADDR_W +: N*ADDR_W]), .s_arlen(a_arlen[N*8 +: N*8]),
                .s_arsize(a_arsize[N*3 +: N*3]), .s_arburst(a_arburst[N*2 +: N*2]),
                .s_arid(a_arid[N*ID_W +: N*ID_W]), .s_rvalid(a_rvalid[N +: N]), .s_rready(a_rready[N +: N]),
                .s_rdata(a_rdata[N*DATA_W +: N*DATA_W]), .s_rresp(a_rresp[N*2 +: N*2]),
                .s_rlast(a_rlast[N +: N]), .s_rid(a_rid_unused[N*ID_W +: N*ID_W]),
                .s_awvalid(a_awvalid[N +: N]), .s_awready(a_awready[N +: N]),
                .s_awaddr(a_awaddr[N*ADDR_W +: N*ADDR_W]), .s_awlen(a_awlen[N*8 +: N*8]),
                .s_awsize(a_awsize[N*3 +: N*3]), .s_awburst(a_awburst[N*2 +: N*2]),
                .s_awid(a_awid[N*ID_W +: N*ID_W]), .s_wvalid(a_wvalid[N +: N]), .s_wready(a_wready[N +: N]),
                .s_wdata(a_wdata[N*DATA_W +: N*DATA_W]), .s_wstrb(a_wstrb[N*SW +: N*SW]),
                .s_wlast(a_wlast[N +: N]), .s_bvalid(a_bvalid[N +: N]), .s_bready(a_bready[N +: N]),
                .s_bresp(a_bresp[N*2 +: N*2]), .s_bid(a_bid_unused[N*ID_W +: N*ID_W]),
                .m_arvalid(c_arvalid), .m_arready(c_arready), .m_araddr(c_araddr), .m_arlen(c_arlen),
                .m_arsize(c_arsize), .m_arburst(c_arburst), .m_arid(c_arid),
                .m_rvalid(c_rvalid), .m_rready(c_rready), .m_rdata(c_rdata), .m_rresp(c_rresp),
                .m_rlast(c_rlast), .m_rid(c_rid),
                .m_awvalid(c_awvalid), .m_awready(c_awready), .m_awaddr(c_awaddr), .m_awlen(c_awlen),
                .m_awsize(c_awsize), .m_awburst(c_awburst), .m_awid(c_awid),
                .m_wvalid(c_wvalid), .m_wready(c_wready), .m_wdata(c_wdata), .m_wstrb(c_wstrb),
                .m_wlast(c_wlast), .m_bvalid(c_bvalid), .m_bready(c_bready), .m_bresp(c_bresp), .m_bid(c_bid)
            );
        end else begin : g_no_cv
            // no CV SRAM: the routers never use port 1 (SEC_MEM = 0 sends everything to memory 0)
            assign a_arready[N +: N] = {N{1'b0}};
            assign a_rvalid[N +: N]  = {N{1'b0}};
            assign a_rdata[N*DATA_W +: N*DATA_W] = {(N*DATA_W){1'b0}};
            assign a_rresp[N*2 +: N*2] = {(N*2){1'b0}};
            assign a_rlast[N +: N]   = {N{1'b0}};
            assign a_rid_unused[N*ID_W +: N*ID_W] = {(N*ID_W){1'b0}};
            assign a_awready[N +: N] = {N{1'b0}};
            assign a_wready[N +: N]  = {N{1'b0}};
            assign a_bvalid[N +: N]  = {N{1'b0}};
            assign a_bresp[N*2 +: N*2] = {(N*2){1'b0}};
            assign a_bid_unused[N*ID_W +: N*ID_W] = {(N*ID_W){1'b0}};
            assign c_arvalid = 1'b0;
            assign c_araddr  = {ADDR_W{1'b0}};
            assign c_arlen   = 8'd0;
            assign c_arsize  = 3'd0;
            assign c_arburst = 2'd0;
            assign c_arid    = {ID_W{1'b0}};
            assign c_rready  = 1'b0;
            assign c_awvalid = 1'b0;
            assign c_awaddr  = {ADDR_W{1'b0}};
            assign c_awlen   = 8'd0;
            assign c_awsize  = 3'd0;
            assign c_awburst = 2'd0;
            assign c_awid    = {ID_W{1'b0}};
            assign c_wvalid  = 1'b0;
            assign c_wdata   = {DATA_W{1'b0}};
            assign c_wstrb   = {SW{1'b0}};
            assign c_wlast   = 1'b0;
            assign c_bready  = 1'b0;
            /* verilator lint_off UNUSEDSIGNAL */
            wire unused_cv = &{1'b0, c_arready, c_rvalid, c_rdata, c_rresp, c_rlast, c_rid, c_awready,
                               c_wready, c_bvalid, c_bresp, c_bid, a_arvalid[N +: N], a_araddr[N*ADDR_W +: N*ADDR_W],
                               a_arlen[N*8 +: N*8], a_arsize[N*3 +: N*3], a_arburst[N*2 +: N*2],
                               a_arid[N*ID_W +: N*ID_W], a_rready[N +: N], a_awvalid[N +: N],
                               a_awaddr[N*ADDR_W +: N*ADDR_W], a_awlen[N*8 +: N*8], a_awsize[N*3 +: N*3],
                               a_awburst[N*2 +: N*2], a_awid[N*ID_W +: N*ID_W], a_wvalid[N +: N],
                               a_wdata[N*DATA_W +: N*DATA_W], a_wstrb[N*SW +: N*SW], a_wlast[N +: N],
                               a_bready[N +: N]};
            /* verilator lint_on UNUSEDSIGNAL */
        end
    endgenerate
endmodule
