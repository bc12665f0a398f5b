// N AXI4 masters (each using one transaction ID, e.g. rtl/dma/nvdla_axi_rd.v / nvdla_axi_wr.v) sharing one
// AXI4 master port. Ports are packed per master, master k at [k*W +: W] (the verilog-axi convention).
// - AR: round robin per burst (after a grant, the masters after it go first). A request shown to the memory
//   stays granted until accepted, so VALID and its address never change under the slave (AXI rule). The AR
//   and AW grants are one module, rtl/dma/nvdla_axi_rr.v.
// - The ID of every burst is the master's own ID with bits [ID_BIT +: IDX_W] replaced by the master's index;
//   R beats and B responses are routed by those bits and handed on with the ID they carry, so each master
//   still sees its own bursts in order (AXI orders responses per ID) however the memory interleaves them.
// - Writes are store-and-forward per burst: each master's AW requests and W beats go into its own queues,
//   and a burst is offered to the memory (round robin, as AR) only once all of its W beats are buffered.
//   AXI4 W has no ID, so W must follow AW order; forwarding a burst before its data exists would let one
//   master's stalled write data block another's, and with a memory that returns reads in order across
//   IDs two units could then wait on each other forever. W_DEPTH must hold the longest burst.
module nvdla_axi_arb #(
    parameter N        = 2,
    parameter ADDR_W   = 32,
    parameter DATA_W   = 64,
    parameter ID_W     = 4,
    parameter ID_BIT   = 0,    // the lowest ID bit that carries the master index
    parameter AW_DEPTH = 4,    // queued write requests per master (power of two)
    parameter W_DEPTH  = 32    // buffered write beats per master (power of two, >= the longest burst)
) (
    input  wire                   clk,
    input  wire                   rst_n,
    // masters
    input  wire [N-1:0]           s_arvalid,
    output wire [N-1:0]           s_arready,
    input  wire [N*ADDR_W-1:0]    s_araddr,
    input  wire [N*8-1:0]         s_arlen,
    input  wire [N*3-1:0]         s_arsize,
    input  wire [N*2-1:0]         s_arburst,
    input  wire [N*ID_W-1:0]      s_arid,
    output wire [N-1:0]           s_rvalid,
    input  wire [N-1:0]           s_rready,
    output wire [N*DATA_W-1:0]    s_rdata,
    output wire [N*2-1:0]         s_rresp,
    output wire [N-1:0]           s_rlast,
    output wire [N*ID_W-1:0]      s_rid,
    input  wire [N-1:0]           s_awvalid,
    output wire [N-1:0]           s_awready,
    input  wire [N*ADDR_W-1:0]    s_awaddr,
    input  wire [N*8-1:0]         s_awlen,
    input  wire [N*3-1:0]         s_awsize,
    input  wire [N*2-1:0]         s_awburst,
    input  wire [N*ID_W-1:0]      s_awid,
    input  wire [N-1:0]           s_wvalid,
    output wire [N-1:0]           s_wready,
    input  wire [N*DATA_W-1:0]    s_wdata,
    input  wire [N*DATA_W/8-1:0]  s_wstrb,
    input  wire [N-1:0]           s_wlast,
    output wire [N-1:0]           s_bvalid,
    input  wire [N-1:0]           s_bready,
    output wire [N*2-1:0]         s_bresp,
    output wire [N*ID_W-1:0]      s_bid,
    // shared port
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
    input  wire [ID_W-1:0]        m_bid
);
    localparam IDX_W  = (N > 1) ? $clog2(N) : 1;
    localparam AW_PTR = $clog2(AW_DEPTH);
    localparam W_PTR  = $clog2(W_DEPTH);
    localparam AW_E   = ID_W + ADDR_W + 8 + 3 + 2;  // queued request: {id, addr, len, size, burst}
    localparam W_E    = DATA_W + DATA_W / 8 + 1;    // buffered beat: {data, strb, last}
    localparam WQ_DEPTH = 4;                        // bursts sent on AW whose W beats are still to go
    localparam [ID_W-1:0] INDEX_MASK = {{(ID_W-IDX_W){1'b0}}, {IDX_W{1'b1}}} << ID_BIT;
    localparam [N-1:0] ONE = 1;

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (N < 1 || ID_BIT + IDX_W > ID_W || (1 << AW_PTR) != AW_DEPTH || (1 << W_PTR) != W_DEPTH ||
            W_DEPTH < 2 || AW_DEPTH < 2 || DATA_W % 8 != 0) begin
            $display("ERROR: nvdla_axi_arb %m: N >= 1, ID_BIT + clog2(N) <= ID_W, AW_DEPTH and W_DEPTH powers of two >= 2, DATA_W a multiple of 8");
            $finish;
        end
    end

    // the master's ID with the index bits set to `sel`
    function [ID_W-1:0] with_index(input [ID_W-1:0] id, input [IDX_W-1:0] sel);
        with_index = (id & ~INDEX_MASK) | ({{(ID_W-IDX_W){1'b0}}, sel} << ID_BIT);
    endfunction

    // ---- AR: round robin per burst, held while shown and not accepted ----------------------------------
    wire [IDX_W-1:0] ar_sel;
    nvdla_axi_rr #(.N(N)) u_ar_rr (
        .clk(clk), .rst_n(rst_n), .req(s_arvalid), .valid(m_arvalid), .ready(m_arready), .sel(ar_sel)
    );

    assign m_arvalid = s_arvalid[ar_sel];
    assign m_araddr  = s_araddr[ar_sel * ADDR_W +: ADDR_W];
    assign m_arlen   = s_arlen[ar_sel * 8 +: 8];
    assign m_arsize  = s_arsize[ar_sel * 3 +: 3];
    assign m_arburst = s_arburst[ar_sel * 2 +: 2];
    assign m_arid    = with_index(s_arid[ar_sel * ID_W +: ID_W], ar_sel);

    // ---- R and B: routed by the index bits of the ID ------------------------------------------------------
    wire [IDX_W-1:0] r_to = m_rid[ID_BIT +: IDX_W];
    wire [IDX_W-1:0] b_to = m_bid[ID_BIT +: IDX_W];
    // gated by VALID: the ID is only meaningful with it (a 4-state memory model may leave it X before)
    assign m_rready = m_rvalid & s_rready[r_to];
    assign m_bready = m_bvalid & s_bready[b_to];

    // ---- per-master write queues ------------------------------------------------------------------------
    wire [N-1:0]      eligible;       // a whole burst buffered, its request at the head of the queue
    wire [N*AW_E-1:0] aw_head;
    wire [N*W_E-1:0]  w_head;
    wire [N-1:0]      aw_pop, w_pop;

    genvar m;
    generate
        for (m = 0; m < N; m = m + 1) begin : g_port
            assign s_arready[m]              = m_arready & (ar_sel == m);
            assign s_rvalid[m]               = m_rvalid & (r_to == m);
            assign s_rdata[m*DATA_W +: DATA_W] = m_rdata;
            assign s_rresp[m*2 +: 2]         = m_rresp;
            assign s_rlast[m]                = m_rlast;
            assign s_rid[m*ID_W +: ID_W]     = m_rid;
            assign s_bvalid[m]               = m_bvalid & (b_to == m);
            assign s_bresp[m*2 +: 2]         = m_bresp;
            assign s_bid[m*ID_W +: ID_W]     = m_bid;

            reg  [AW_E-1:0]   aw_mem [0:AW_DEPTH-1];
            reg  [AW_PTR:0]   aw_wr, aw_rd;
            reg  [W_E-1:0]    w_mem [0:W_DEPTH-1];
            reg  [W_PTR:0]    w_wr, w_rd;
            // bursts whose last beat is buffered minus bursts sent on AW: at most AW_DEPTH + W_DEPTH
            reg  [W_PTR+1:0]  whole;
            wire aw_push   = s_awvalid[m] & s_awready[m];
            wire w_push    = s_wvalid[m] & s_wready[m];
            wire last_push = w_push & s_wlast[m];

            assign s_awready[m] = (aw_wr - aw_rd) != AW_DEPTH[AW_PTR:0];
            assign s_wready[m]  = (w_wr - w_rd) != W_DEPTH[W_PTR:0];
            assign eligible[m]  = (aw_wr != aw_rd) & (whole != {(W_PTR+2){1'b0}});
            assign aw_head[m*AW_E +: AW_E] = aw_mem[aw_rd[AW_PTR-1:0]];
            assign w_head[m*W_E +: W_E]    = w_mem[w_rd[W_PTR-1:0]];

            always @(posedge clk) begin
                if (aw_push) aw_mem[aw_wr[AW_PTR-1:0]] <= {s_awid[m*ID_W +: ID_W], s_awaddr[m*ADDR_W +: ADDR_W],
                                                          s_awlen[m*8 +: 8], s_awsize[m*3 +: 3],
                                                          s_awburst[m*2 +: 2]};
                if (w_push)  w_mem[w_wr[W_PTR-1:0]]    <= {s_wdata[m*DATA_W +: DATA_W],
                                                          s_wstrb[m*DATA_W/8 +: DATA_W/8], s_wlast[m]};
            end

            always @(posedge clk or negedge rst_n) begin
                if (!rst_n) begin
                    aw_wr <= {(AW_PTR+1){1'b0}};
                    aw_rd <= {(AW_PTR+1){1'b0}};
                    w_wr  <= {(W_PTR+1){1'b0}};
                    w_rd  <= {(W_PTR+1){1'b0}};
                    whole <= {(W_PTR+2){1'b0}};
                end else begin
                    if (aw_push)   aw_wr <= aw_wr + 1'b1;
                    if (aw_pop[m]) aw_rd <= aw_rd + 1'b1;
                    if (w_push)    w_wr  <= w_wr + 1'b1;
                    if (w_pop[m])  w_rd  <= w_rd + 1'b1;
                    whole <= whole + {{(W_PTR+1){1'b0}}, last_push} - {{(W_PTR+1){1'b0}}, aw_pop[m]};
                end
            end
        end
    endgenerate

    // ---- AW to the memory: round robin among masters with a whole burst buffered ---------------------------
    reg  [2:0]       wq_wr, wq_rd;
    reg  [IDX_W-1:0] wq_sel [0:WQ_DEPTH-1];
    wire             wq_full  = (wq_wr - wq_rd) == 3'd4;
    wire             wq_empty = wq_wr == wq_rd;

    wire [IDX_W-1:0] aw_sel;
    nvdla_axi_rr #(.N(N)) u_aw_rr (
        .clk(clk), .rst_n(rst_n), .req(eligible), .valid(m_awvalid), .ready(m_awready), .sel(aw_sel)
    );
    wire             aw_fire = m_awvalid & m_awready;
    wire [ID_W-1:0]  aw_sub;

    assign m_awvalid = eligible[aw_sel] & ~wq_full;
    assign {aw_sub, m_awaddr, m_awlen, m_awsize, m_awburst} = aw_head[aw_sel * AW_E +: AW_E];
    assign m_awid    = with_index(aw_sub, aw_sel);
    assign aw_pop    = aw_fire ? ONE << aw_sel : {N{1'b0}};

    // ---- W: whole bursts in AW order --------------------------------------------------------------------
    wire [IDX_W-1:0] w_sel  = wq_sel[wq_rd[1:0]];
    wire             w_fire = m_wvalid & m_wready;

    // the head burst's beats are all buffered, so the master's queue is never empty here
    assign m_wvalid = ~wq_empty;
    assign {m_wdata, m_wstrb, m_wlast} = w_head[w_sel * W_E +: W_E];
    assign w_pop    = w_fire ? ONE << w_sel : {N{1'b0}};

    always @(posedge clk) begin
        if (aw_fire) wq_sel[wq_wr[1:0]] <= aw_sel;
    end

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            wq_wr <= 3'd0;
            wq_rd <= 3'd0;
        end else begin
            if (aw_fire) wq_wr <= wq_wr + 3'd1;
            if (w_fire && m_wlast) wq_rd <= wq_rd + 3'd1;
        end
    end
endmodule
