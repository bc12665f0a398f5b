// Two AXI4 masters (each using one transaction ID, e.g. rtl/dma/nvdla_axi_rd.v / nvdla_axi_wr.v) sharing
// one AXI4 master port.
// - AR: round robin per burst (after a grant the other master goes first). A request shown to the memory
//   stays granted until accepted, so VALID and its address never change under the slave (AXI rule).
// - The ID of every burst is the master's own ID with bit ID_BIT replaced by the master's index (0 or 1);
//   R beats and B responses are routed by that bit and handed on with the ID they carry, so each master still
//   sees its own bursts in order (AXI orders responses per ID) however the memory interleaves the two. Two
//   arbiters cascade: the inner one (ID_BIT 0) as master 0 of an outer one (ID_BIT 1) shares one port among
//   three masters, and the outer arbiter's R/B routing leaves bit 0 for the inner one.
// - Writes are store-and-forward per burst: each master's AW requests and W beats go into its own queues,
//   and a burst is offered to the memory (round robin, as AR) only once all of its W beats are buffered.
//   AXI4 W has no ID, so W must follow AW order; forwarding a burst before its data exists would let one
//   master's stalled write data block the other's, and with a memory that returns reads in order across
//   IDs the two units could then wait on each other forever. W_DEPTH must hold the longest burst.
module nvdla_axi_arb #(
    parameter ADDR_W  = 32,
    parameter DATA_W  = 64,
    parameter ID_W    = 4,
    parameter ID_BIT  = 0,    // the ID bit that carries the master index
    parameter AW_DEPTH = 4,   // queued write requests per master (power of two)
    parameter W_DEPTH  = 32   // buffered write beats per master (power of two, >= the longest burst)
) (
    input  wire                 clk,
    input  wire                 rst_n,
    // master 0
    input  wire                 s0_arvalid,
    output wire                 s0_arready,
    input  wire [ADDR_W-1:0]    s0_araddr,
    input  wire [7:0]           s0_arlen,
    input  wire [2:0]           s0_arsize,
    input  wire [1:0]           s0_arburst,
    input  wire [ID_W-1:0]      s0_arid,
    output wire                 s0_rvalid,
    input  wire                 s0_rready,
    output wire [DATA_W-1:0]    s0_rdata,
    output wire [1:0]           s0_rresp,
    output wire                 s0_rlast,
    output wire [ID_W-1:0]      s0_rid,
    input  wire                 s0_awvalid,
    output wire                 s0_awready,
    input  wire [ADDR_W-1:0]    s0_awaddr,
    input  wire [7:0]           s0_awlen,
    input  wire [2:0]           s0_awsize,
    input  wire [1:0]           s0_awburst,
    input  wire [ID_W-1:0]      s0_awid,
    input  wire                 s0_wvalid,
    output wire                 s0_wready,
    input  wire [DATA_W-1:0]    s0_wdata,
    input  wire [DATA_W/8-1:0]  s0_wstrb,
    input  wire                 s0_wlast,
    output wire                 s0_bvalid,
    input  wire                 s0_bready,
    output wire [1:0]           s0_bresp,
    output wire [ID_W-1:0]      s0_bid,
    // master 1
    input  wire                 s1_arvalid,
    output wire                 s1_arready,
    input  wire [ADDR_W-1:0]    s1_araddr,
    input  wire [7:0]           s1_arlen,
    input  wire [2:0]           s1_arsize,
    input  wire [1:0]           s1_arburst,
    input  wire [ID_W-1:0]      s1_arid,
    output wire                 s1_rvalid,
    input  wire                 s1_rready,
    output wire [DATA_W-1:0]    s1_rdata,
    output wire [1:0]           s1_rresp,
    output wire                 s1_rlast,
    output wire [ID_W-1:0]      s1_rid,
    input  wire                 s1_awvalid,
    output wire                 s1_awready,
    input  wire [ADDR_W-1:0]    s1_awaddr,
    input  wire [7:0]           s1_awlen,
    input  wire [2:0]           s1_awsize,
    input  wire [1:0]           s1_awburst,
    input  wire [ID_W-1:0]      s1_awid,
    input  wire                 s1_wvalid,
    output wire                 s1_wready,
    input  wire [DATA_W-1:0]    s1_wdata,
    input  wire [DATA_W/8-1:0]  s1_wstrb,
    input  wire                 s1_wlast,
    output wire                 s1_bvalid,
    input  wire                 s1_bready,
    output wire [1:0]           s1_bresp,
    output wire [ID_W-1:0]      s1_bid,
    // shared port
    output wire                 m_arvalid,
    input  wire                 m_arready,
    output wire [ADDR_W-1:0]    m_araddr,
    output wire [7:0]           m_arlen,
    output wire [2:0]           m_arsize,
    output wire [1:0]           m_arburst,
    output wire [ID_W-1:0]      m_arid,
    input  wire                 m_rvalid,
    output wire                 m_rready,
    input  wire [DATA_W-1:0]    m_rdata,
    input  wire [1:0]           m_rresp,
    input  wire                 m_rlast,
    input  wire [ID_W-1:0]      m_rid,
    output wire                 m_awvalid,
    input  wire                 m_awready,
    output wire [ADDR_W-1:0]    m_awaddr,
    output wire [7:0]           m_awlen,
    output wire [2:0]           m_awsize,
    output wire [1:0]           m_awburst,
    output wire [ID_W-1:0]      m_awid,
    output wire                 m_wvalid,
    input  wire                 m_wready,
    output wire [DATA_W-1:0]    m_wdata,
    output wire [DATA_W/8-1:0]  m_wstrb,
    output wire                 m_wlast,
    input  wire                 m_bvalid,
    output wire                 m_bready,
    input  wire [1:0]           m_bresp,
    input  wire [ID_W-1:0]      m_bid
);
    localparam AW_PTR = $clog2(AW_DEPTH);
    localparam [ID_W-1:0] INDEX_MASK = {{(ID_W-1){1'b0}}, 1'b1} << ID_BIT;

    // the master's ID with the index bit set to `sel`
    function [ID_W-1:0] with_index(input [ID_W-1:0] id, input sel);
        with_index = (id & ~INDEX_MASK) | (sel ? INDEX_MASK : {ID_W{1'b0}});
    endfunction

    localparam W_PTR  = $clog2(W_DEPTH);
    localparam AW_E   = ID_W + ADDR_W + 8 + 3 + 2;  // queued request: {id, addr, len, size, burst}
    localparam W_E    = DATA_W + DATA_W / 8 + 1; // buffered beat: {data, strb, last}

    // ---- AR: round robin per burst, held while shown and not accepted ----------------------------------
    reg  ar_last, ar_hold, ar_hold_sel;
    wire ar_sel = ar_hold ? ar_hold_sel : ((s0_arvalid & s1_arvalid) ? ~ar_last : s1_arvalid);
    wire ar_fire = m_arvalid & m_arready;

    assign m_arvalid  = ar_sel ? s1_arvalid : s0_arvalid;
    assign m_araddr   = ar_sel ? s1_araddr  : s0_araddr;
    assign m_arlen    = ar_sel ? s1_arlen   : s0_arlen;
    assign m_arsize   = ar_sel ? s1_arsize  : s0_arsize;
    assign m_arburst  = ar_sel ? s1_arburst : s0_arburst;
    wire [ID_W-1:0] ar_sub = ar_sel ? s1_arid : s0_arid;
    assign m_arid     = with_index(ar_sub, ar_sel);
    assign s0_arready = m_arready & ~ar_sel;
    assign s1_arready = m_arready & ar_sel;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            ar_last     <= 1'b1;
            ar_hold     <= 1'b0;
            ar_hold_sel <= 1'b0;
        end else begin
            if (ar_fire) ar_last <= ar_sel;
            ar_hold     <= m_arvalid & ~m_arready;
            ar_hold_sel <= ar_sel;
        end
    end

    // ---- R: routed by ID ----------------------------------------------------------------------------------
    assign s0_rvalid = m_rvalid & ~m_rid[ID_BIT];
    assign s1_rvalid = m_rvalid & m_rid[ID_BIT];
    assign m_rready  = m_rid[ID_BIT] ? s1_rready : s0_rready;
    assign s0_rid    = m_rid;
    assign s1_rid    = m_rid;
    assign s0_rdata  = m_rdata;
    assign s1_rdata  = m_rdata;
    assign s0_rresp  = m_rresp;
    assign s1_rresp  = m_rresp;
    assign s0_rlast  = m_rlast;
    assign s1_rlast  = m_rlast;

    // ---- per-master write queues ------------------------------------------------------------------------
    wire [1:0]       aw_in_valid = {s1_awvalid, s0_awvalid};
    wire [2*AW_E-1:0] aw_in_data = {s1_awid, s1_awaddr, s1_awlen, s1_awsize, s1_awburst,
                                    s0_awid, s0_awaddr, s0_awlen, s0_awsize, s0_awburst};
    wire [1:0]       w_in_valid  = {s1_wvalid, s0_wvalid};
    wire [2*W_E-1:0] w_in_data   = {s1_wdata, s1_wstrb, s1_wlast, s0_wdata, s0_wstrb, s0_wlast};
    wire [1:0]       aw_in_ready, w_in_ready;
    wire [1:0]       eligible;       // a whole burst buffered, its request at the head of the queue
    wire [2*AW_E-1:0] aw_head;
    wire [2*W_E-1:0] w_head;
    wire [1:0]       aw_pop, w_pop;

    genvar m;
    generate
        for (m = 0; m < 2; m = m + 1) begin : g_wq
            reg  [AW_E-1:0]   aw_mem [0:AW_DEPTH-1];
            reg  [AW_PTR:0]   aw_wr, aw_rd;
            reg  [W_E-1:0]    w_mem [0:W_DEPTH-1];
            reg  [W_PTR:0]    w_wr, w_rd;
            // bursts whose last beat is buffered minus bursts sent on AW: at most AW_DEPTH + W_DEPTH
            reg  [W_PTR+1:0]  whole;
            wire aw_push   = aw_in_valid[m] & aw_in_ready[m];
            wire w_push    = w_in_valid[m] & w_in_ready[m];
            wire last_push = w_push & w_in_data[m*W_E];
            wire aw_sent   = aw_pop[m];

            assign aw_in_ready[m] = (aw_wr - aw_rd) != AW_DEPTH[AW_PTR:0];
            assign w_in_ready[m]  = (w_wr - w_rd) != W_DEPTH[W_PTR:0];
            assign eligible[m]    = (aw_wr != aw_rd) & (whole != {(W_PTR+2){1'b0}});
            assign aw_head[m*AW_E +: AW_E] = aw_mem[aw_rd[AW_PTR-1:0]];
            assign w_head[m*W_E +: W_E]    = w_mem[w_rd[W_PTR-1:0]];

            always @(posedge clk) begin
                if (aw_push) aw_mem[aw_wr[AW_PTR-1:0]] <= aw_in_data[m*AW_E +: AW_E];
                if (w_push)  w_mem[w_wr[W_PTR-1:0]]    <= w_in_data[m*W_E +: W_E];
            end

            always @(posedge clk or negedge rst_n) begin
                if (!rst_n) begin
                    aw_wr <= {(AW_PTR+1){1'b0}};
                    aw_rd <= {(AW_PTR+1){1'b0}};
                    w_wr  <= {(W_PTR+1){1'b0}};
                    w_rd  <= {(W_PTR+1){1'b0}};
                    whole <= {(W_PTR+2){1'b0}};
                end else begin
                    if (aw_push) aw_wr <= aw_wr + 1'b1;
                    if (aw_sent) aw_rd <= aw_rd + 1'b1;
                    if (w_push)  w_wr  <= w_wr + 1'b1;
                    if (w_pop[m]) w_rd <= w_rd + 1'b1;
                    whole <= whole + {{(W_PTR+1){1'b0}}, last_push} - {{(W_PTR+1){1'b0}}, aw_sent};
                end
            end
        end
    endgenerate

    assign s0_awready = aw_in_ready[0];
    assign s1_awready = aw_in_ready[1];
    assign s0_wready  = w_in_ready[0];
    assign s1_wready  = w_in_ready[1];

    // ---- AW to the memory: round robin among masters with a whole burst buffered ---------------------------
    // Order of the bursts sent on AW whose W beats are still to go (their data is already buffered).
    localparam WQ_DEPTH = 4;
    reg  [2:0] wq_wr, wq_rd;
    reg        wq_sel [0:WQ_DEPTH-1];
    wire       wq_full  = (wq_wr - wq_rd) == 3'd4;
    wire       wq_empty = wq_wr == wq_rd;

    reg  aw_last, aw_hold, aw_hold_sel;
    wire aw_sel = aw_hold ? aw_hold_sel : ((eligible[0] & eligible[1]) ? ~aw_last : eligible[1]);
    wire aw_fire = m_awvalid & m_awready;
    wire [AW_E-1:0] aw_req = aw_head[aw_sel * AW_E +: AW_E];

    assign m_awvalid = eligible[aw_sel] & ~wq_full;
    wire [ID_W-1:0] aw_sub;
    assign {aw_sub, m_awaddr, m_awlen, m_awsize, m_awburst} = aw_req;
    assign m_awid    = with_index(aw_sub, aw_sel);
    assign aw_pop    = {aw_fire & aw_sel, aw_fire & ~aw_sel};

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            aw_last     <= 1'b1;
            aw_hold     <= 1'b0;
            aw_hold_sel <= 1'b0;
        end else begin
            if (aw_fire) aw_last <= aw_sel;
            aw_hold     <= m_awvalid & ~m_awready;
            aw_hold_sel <= aw_sel;
        end
    end

    // ---- W: whole bursts in AW order --------------------------------------------------------------------
    wire            w_sel  = wq_sel[wq_rd[1:0]];
    wire [W_E-1:0]  w_beat = w_head[w_sel * W_E +: W_E];
    wire            w_fire = m_wvalid & m_wready;

    // the head burst's beats are all buffered, so the master's queue is never empty here
    assign m_wvalid = ~wq_empty;
    assign {m_wdata, m_wstrb, m_wlast} = w_beat;
    assign w_pop    = {w_fire & w_sel, w_fire & ~w_sel};

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

    // ---- B: routed by ID ----------------------------------------------------------------------------------
    assign s0_bvalid = m_bvalid & ~m_bid[ID_BIT];
    assign s1_bvalid = m_bvalid & m_bid[ID_BIT];
    assign m_bready  = m_bid[ID_BIT] ? s1_bready : s0_bready;
    assign s0_bid    = m_bid;
    assign s1_bid    = m_bid;
    assign s0_bresp  = m_bresp;
    assign s1_bresp  = m_bresp;
endmodule
