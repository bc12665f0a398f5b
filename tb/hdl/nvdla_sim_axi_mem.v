// Simulation-only AXI4 slave memory (not product RTL): the whole 32-bit address space, stored sparsely in
// SLOTS pages of 2^PAGE_BITS bytes found by tag compare once per burst (AXI bursts never cross 4 KB, so never
// a page). A page is allocated by the first write burst into it (lowest free slot) or by the Python side
// (tb/bfm/sim_memory.py, highest free slot, through the public `tag`/`used`/`store` arrays); reads of a page
// never allocated return 0. `clear` (held for a clock edge) zeroes every used page and frees it.
//
// Timing, configured on the cfg_* inputs (sampled while rst_n is low):
//   read latency   AR handshake to the first R beat being offered: cfg_rd_lat + a random 0..cfg_rd_jit;
//   write latency  last W beat to B being offered: cfg_wr_lat + a random 0..cfg_wr_jit;
//   stalls         cfg_stall holds one 8-bit probability (n/256) per channel, {B, W, AW, R, AR} from the
//                  top byte down: each cycle a channel's ready (AR, AW, W) or next valid (R, B) is withheld
//                  with that probability.
// Every random draw comes from one xorshift32 per channel seeded from cfg_seed, so a seed replays exactly.
// Several reads and writes outstanding (QDEPTH each), responses in request order (the DMA engines of
// rtl/dma rely on in-order responses per ID; in-order over all IDs is a legal subset). INCR and FIXED
// bursts of any size up to the bus width; a WRAP burst or a full memory raises `error`.
/* verilator lint_off BLKSEQ */  // a behavioural model: the storage and statistics update in place
module nvdla_sim_axi_mem #(
    parameter DATA_W    = 64,
    parameter ID_W      = 4,
    parameter PAGE_BITS = 20,   // 1 MB pages
    parameter SLOTS     = 64,
    parameter QDEPTH    = 16
) (
    input  wire              clk,
    input  wire              rst_n,
    input  wire [31:0]       cfg_seed,
    input  wire [15:0]       cfg_rd_lat,
    input  wire [15:0]       cfg_rd_jit,
    input  wire [15:0]       cfg_wr_lat,
    input  wire [15:0]       cfg_wr_jit,
    input  wire [39:0]       cfg_stall,
    input  wire              clear,
    output reg               error /*verilator public_flat_rd*/,
    input  wire              s_axi_arvalid,
    output wire              s_axi_arready,
    input  wire [31:0]       s_axi_araddr,
    input  wire [7:0]        s_axi_arlen,
    input  wire [2:0]        s_axi_arsize,
    input  wire [1:0]        s_axi_arburst,
    input  wire [ID_W-1:0]   s_axi_arid,
    output reg               s_axi_rvalid,
    input  wire              s_axi_rready,
    output reg  [DATA_W-1:0] s_axi_rdata,
    output wire [1:0]        s_axi_rresp,
    output reg               s_axi_rlast,
    output reg  [ID_W-1:0]   s_axi_rid,
    input  wire              s_axi_awvalid,
    output wire              s_axi_awready,
    input  wire [31:0]       s_axi_awaddr,
    input  wire [7:0]        s_axi_awlen,
    input  wire [2:0]        s_axi_awsize,
    input  wire [1:0]        s_axi_awburst,
    input  wire [ID_W-1:0]   s_axi_awid,
    input  wire              s_axi_wvalid,
    output wire              s_axi_wready,
    input  wire [DATA_W-1:0] s_axi_wdata,
    input  wire [DATA_W/8-1:0] s_axi_wstrb,
    input  wire              s_axi_wlast,
    output reg               s_axi_bvalid,
    input  wire              s_axi_bready,
    output wire [1:0]        s_axi_bresp,
    output reg  [ID_W-1:0]   s_axi_bid
);
    localparam BYTES  = DATA_W / 8;
    localparam LB     = $clog2(BYTES);
    localparam WORDS  = (1 << PAGE_BITS) / BYTES;    // words per page
    localparam TAG_W  = 32 - PAGE_BITS;
    localparam SLOT_W = $clog2(SLOTS) + 1;           // one more bit: SLOTS means "no page"
    localparam Q_W    = $clog2(QDEPTH);

    // ---- storage and page table (public: the Python side reads and writes them between clock edges) ----
    // (public_flat_rw: these alone are visible to VPI when the design is built without --public-flat-rw,
    // which keeps Verilator from re-evaluating every public signal's logic on each eval)
    reg [DATA_W-1:0] store [0:SLOTS*WORDS-1] /*verilator public_flat_rw*/;
    reg [TAG_W-1:0]  tag [0:SLOTS-1] /*verilator public_flat_rw*/;
    reg [SLOTS-1:0]  used /*verilator public_flat_rw*/;      // pages allocated by write bursts (lowest free)
    reg [SLOTS-1:0]  py_used /*verilator public_flat_rw*/;   // pages allocated by the Python side (highest)
    wire [SLOTS-1:0] taken = used | py_used;
    // blocks (4 KB) written by W beats since the last clear, per slot: the Python side reads back only
    // those (and its own), so checking a large sparse region costs handle reads for what was written only
    localparam BLK_BITS = 12;
    localparam BLOCKS   = 1 << (PAGE_BITS - BLK_BITS);
    reg [BLOCKS-1:0] dirty [0:SLOTS-1] /*verilator public_flat_rw*/;
    // statistics since the last clear: bytes served on R, bytes written (strobed) on W
    reg [63:0] rd_bytes /*verilator public_flat_rd*/;
    reg [63:0] wr_bytes /*verilator public_flat_rd*/;

    integer i;
    initial begin
        // Icarus starts at X; Verilator at 0 unless told to randomize: either way the memory reads 0.
        for (i = 0; i < SLOTS * WORDS; i = i + 1) store[i] = {DATA_W{1'b0}};
        for (i = 0; i < SLOTS; i = i + 1) tag[i] = {TAG_W{1'b0}};
        for (i = 0; i < SLOTS; i = i + 1) dirty[i] = {BLOCKS{1'b0}};
        used = {SLOTS{1'b0}};
        py_used = {SLOTS{1'b0}};
        rd_bytes = 64'd0;
        wr_bytes = 64'd0;
        error = 1'b0;
    end

    function [SLOT_W-1:0] lookup(input [TAG_W-1:0] page);
        integer s;
        begin
            lookup = SLOTS[SLOT_W-1:0];
            for (s = SLOTS - 1; s >= 0; s = s - 1)
                if (taken[s] && tag[s] == page) lookup = s[SLOT_W-1:0];
        end
    endfunction

    function [SLOT_W-1:0] lowest_free(input [SLOTS-1:0] u);
        integer s;
        begin
            lowest_free = SLOTS[SLOT_W-1:0];
            for (s = SLOTS - 1; s >= 0; s = s - 1)
                if (!u[s]) lowest_free = s[SLOT_W-1:0];
        end
    endfunction

    function [31:0] xorshift(input [31:0] x);
        reg [31:0] y;
        begin
            y = x ^ (x << 13);
            y = y ^ (y >> 17);
            xorshift = y ^ (y << 5);
        end
    endfunction

    // ---- random sources: AR, R, AW, W, B stalls; read and write latency jitter ----
    reg [31:0] rnd [0:6];
    reg [63:0] now;
    wire stall_ar = rnd[0][7:0] < cfg_stall[7:0];
    wire stall_r  = rnd[1][7:0] < cfg_stall[15:8];
    wire stall_aw = rnd[2][7:0] < cfg_stall[23:16];
    wire stall_w  = rnd[3][7:0] < cfg_stall[31:24];
    wire stall_b  = rnd[4][7:0] < cfg_stall[39:32];
    wire [31:0] rd_extra = cfg_rd_jit == 16'd0 ? 32'd0 : rnd[5] % ({16'd0, cfg_rd_jit} + 32'd1);
    wire [31:0] wr_extra = cfg_wr_jit == 16'd0 ? 32'd0 : rnd[6] % ({16'd0, cfg_wr_jit} + 32'd1);
    wire [63:0] rd_due = now + {48'd0, cfg_rd_lat} + {32'd0, rd_extra};
    wire [63:0] wr_due = now + {48'd0, cfg_wr_lat} + {32'd0, wr_extra};

    // ---- read queue: bursts accepted on AR, served in order on R ----
    reg [31:0]       rq_addr  [0:QDEPTH-1];
    reg [7:0]        rq_len   [0:QDEPTH-1];
    reg [2:0]        rq_size  [0:QDEPTH-1];
    reg              rq_fixed [0:QDEPTH-1];
    reg [ID_W-1:0]   rq_id    [0:QDEPTH-1];
    reg [SLOT_W-1:0] rq_slot  [0:QDEPTH-1];
    reg [63:0]       rq_due   [0:QDEPTH-1];
    reg [Q_W:0]      rq_wr, rq_rd;
    reg [7:0]        r_beat;
    wire rq_full  = (rq_wr - rq_rd) == QDEPTH[Q_W:0];
    wire rq_empty = rq_wr == rq_rd;

    // ---- write queue: bursts accepted on AW, filled by W; then B responses in order ----
    reg [31:0]       wq_addr  [0:QDEPTH-1];
    reg [7:0]        wq_len   [0:QDEPTH-1];
    reg [2:0]        wq_size  [0:QDEPTH-1];
    reg              wq_fixed [0:QDEPTH-1];
    reg [ID_W-1:0]   wq_id    [0:QDEPTH-1];
    reg [SLOT_W-1:0] wq_slot  [0:QDEPTH-1];
    reg [Q_W:0]      wq_wr, wq_rd;
    reg [7:0]        w_beat;
    reg [ID_W-1:0]   bq_id    [0:QDEPTH-1];
    reg [63:0]       bq_due   [0:QDEPTH-1];
    reg [Q_W:0]      bq_wr, bq_rd;
    wire wq_full  = (wq_wr - wq_rd) == QDEPTH[Q_W:0];
    wire wq_empty = wq_wr == wq_rd;
    wire bq_full  = (bq_wr - bq_rd) == QDEPTH[Q_W:0];
    wire bq_empty = bq_wr == bq_rd;

    reg ar_ok, aw_ok, w_ok;   // registered readies (stall draws of the cycle before)
    assign s_axi_arready = ar_ok & ~rq_full;
    assign s_axi_awready = aw_ok & ~wq_full;
    assign s_axi_wready  = w_ok & ~wq_empty & ~bq_full;
    assign s_axi_rresp   = 2'b00;
    assign s_axi_bresp   = 2'b00;

    wire ar_fire = s_axi_arvalid & s_axi_arready;
    wire aw_fire = s_axi_awvalid & s_axi_awready;
    wire w_fire  = s_axi_wvalid & s_axi_wready;

    // address of beat n of a burst: INCR steps by the beat size, FIXED stays
    function [31:0] beat_addr(input [31:0] base, input [2:0] size, input fixed, input [7:0] n);
        begin
            beat_addr = fixed ? base : ((base >> size) + {24'd0, n}) << size;
        end
    endfunction

    // word index in `store` of a byte address inside slot s
    function [31:0] word_of(input [SLOT_W-1:0] s, input [31:0] addr);
        begin
            word_of = s * WORDS + ((addr & ((32'd1 << PAGE_BITS) - 1)) >> LB);
        end
    endfunction

    reg [SLOT_W-1:0] aw_slot;
    reg [SLOTS-1:0]  used_next;
    reg [31:0]       addr;
    /* verilator lint_off UNUSEDSIGNAL */
    reg [31:0]       word;   // wider than any index into store
    /* verilator lint_on UNUSEDSIGNAL */
    integer b, s, k;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            for (k = 0; k < 7; k = k + 1) rnd[k] <= xorshift(cfg_seed ^ (32'h9E3779B9 * (k + 1)) | 32'd1);
            now <= 64'd0;
            rq_wr <= 0; rq_rd <= 0; r_beat <= 8'd0;
            wq_wr <= 0; wq_rd <= 0; w_beat <= 8'd0;
            bq_wr <= 0; bq_rd <= 0;
            s_axi_rvalid <= 1'b0; s_axi_rlast <= 1'b0; s_axi_rdata <= {DATA_W{1'b0}};
            s_axi_rid <= {ID_W{1'b0}};
            s_axi_bvalid <= 1'b0; s_axi_bid <= {ID_W{1'b0}};
            ar_ok <= 1'b0; aw_ok <= 1'b0; w_ok <= 1'b0;
        end else begin
            now <= now + 64'd1;
            for (k = 0; k < 7; k = k + 1) rnd[k] <= xorshift(rnd[k]);
            ar_ok <= ~stall_ar;
            aw_ok <= ~stall_aw;
            w_ok  <= ~stall_w;
            used_next = used;

            // AR: queue the burst with its page (or none) and the cycle its first beat may go
            if (ar_fire) begin
                rq_addr[rq_wr[Q_W-1:0]]  <= s_axi_araddr;
                rq_len[rq_wr[Q_W-1:0]]   <= s_axi_arlen;
                rq_size[rq_wr[Q_W-1:0]]  <= s_axi_arsize;
                rq_fixed[rq_wr[Q_W-1:0]] <= s_axi_arburst == 2'b00;
                rq_id[rq_wr[Q_W-1:0]]    <= s_axi_arid;
                rq_slot[rq_wr[Q_W-1:0]]  <= lookup(s_axi_araddr[31:PAGE_BITS]);
                rq_due[rq_wr[Q_W-1:0]]   <= rd_due;
                rq_wr <= rq_wr + 1'b1;
                if (s_axi_arburst == 2'b10) error <= 1'b1;
            end

            // R: offer the next beat of the head burst once it is due
            if (!s_axi_rvalid || s_axi_rready) begin
                if (!rq_empty && now >= rq_due[rq_rd[Q_W-1:0]] && !stall_r) begin
                    addr = beat_addr(rq_addr[rq_rd[Q_W-1:0]], rq_size[rq_rd[Q_W-1:0]],
                                     rq_fixed[rq_rd[Q_W-1:0]], r_beat);
                    s_axi_rvalid <= 1'b1;
                    s_axi_rid    <= rq_id[rq_rd[Q_W-1:0]];
                    s_axi_rlast  <= r_beat == rq_len[rq_rd[Q_W-1:0]];
                    s_axi_rdata  <= rq_slot[rq_rd[Q_W-1:0]] == SLOTS[SLOT_W-1:0] ? {DATA_W{1'b0}}
                                    : store[word_of(rq_slot[rq_rd[Q_W-1:0]], addr)];
                    rd_bytes = rd_bytes + (64'd1 << rq_size[rq_rd[Q_W-1:0]]);
                    if (r_beat == rq_len[rq_rd[Q_W-1:0]]) begin
                        r_beat <= 8'd0;
                        rq_rd  <= rq_rd + 1'b1;
                    end else begin
                        r_beat <= r_beat + 8'd1;
                    end
                end else begin
                    s_axi_rvalid <= 1'b0;
                end
            end

            // AW: find the page, or allocate the lowest free slot
            if (aw_fire) begin
                aw_slot = lookup(s_axi_awaddr[31:PAGE_BITS]);
                if (aw_slot == SLOTS[SLOT_W-1:0]) begin
                    aw_slot = lowest_free(used_next | py_used);
                    if (aw_slot == SLOTS[SLOT_W-1:0]) begin
                        error <= 1'b1;   // memory full: the burst's data is dropped
                    end else begin
                        tag[aw_slot[SLOT_W-2:0]] <= s_axi_awaddr[31:PAGE_BITS];
                        used_next[aw_slot[SLOT_W-2:0]] = 1'b1;
                    end
                end
                wq_addr[wq_wr[Q_W-1:0]]  <= s_axi_awaddr;
                wq_size[wq_wr[Q_W-1:0]]  <= s_axi_awsize;
                wq_len[wq_wr[Q_W-1:0]]   <= s_axi_awlen;
                wq_fixed[wq_wr[Q_W-1:0]] <= s_axi_awburst == 2'b00;
                wq_id[wq_wr[Q_W-1:0]]    <= s_axi_awid;
                wq_slot[wq_wr[Q_W-1:0]]  <= aw_slot;
                wq_wr <= wq_wr + 1'b1;
                if (s_axi_awburst == 2'b10) error <= 1'b1;
            end

            // W: strobed bytes into the head burst's page; the last beat queues its B response
            if (w_fire) begin
                addr = beat_addr(wq_addr[wq_rd[Q_W-1:0]], wq_size[wq_rd[Q_W-1:0]], wq_fixed[wq_rd[Q_W-1:0]],
                                 w_beat);
                if (wq_slot[wq_rd[Q_W-1:0]] != SLOTS[SLOT_W-1:0]) begin
                    word = word_of(wq_slot[wq_rd[Q_W-1:0]], addr);
                    for (b = 0; b < BYTES; b = b + 1)
                        if (s_axi_wstrb[b]) store[word][8*b +: 8] = s_axi_wdata[8*b +: 8];
                    dirty[wq_slot[wq_rd[Q_W-1:0]][SLOT_W-2:0]][addr[PAGE_BITS-1:BLK_BITS]] = 1'b1;
                end
                for (b = 0; b < BYTES; b = b + 1)
                    if (s_axi_wstrb[b]) wr_bytes = wr_bytes + 64'd1;
                if (s_axi_wlast != (w_beat == wq_len[wq_rd[Q_W-1:0]])) error <= 1'b1;  // WLAST misplaced
                if (s_axi_wlast) begin
                    w_beat <= 8'd0;
                    wq_rd  <= wq_rd + 1'b1;
                    bq_id[bq_wr[Q_W-1:0]]  <= wq_id[wq_rd[Q_W-1:0]];
                    bq_due[bq_wr[Q_W-1:0]] <= wr_due;
                    bq_wr <= bq_wr + 1'b1;
                end else begin
                    w_beat <= w_beat + 8'd1;
                end
            end

            // B: offer the head response once due
            if (!s_axi_bvalid || s_axi_bready) begin
                if (!bq_empty && now >= bq_due[bq_rd[Q_W-1:0]] && !stall_b) begin
                    s_axi_bvalid <= 1'b1;
                    s_axi_bid    <= bq_id[bq_rd[Q_W-1:0]];
                    bq_rd <= bq_rd + 1'b1;
                end else begin
                    s_axi_bvalid <= 1'b0;
                end
            end

            // clear: zero every used page and free it (between traces, with the bus idle)
            if (clear) begin
                for (s = 0; s < SLOTS; s = s + 1)
                    if (used_next[s] || py_used[s])
                        for (k = 0; k < WORDS; k = k + 1) store[s * WORDS + k] = {DATA_W{1'b0}};
                for (s = 0; s < SLOTS; s = s + 1) dirty[s] = {BLOCKS{1'b0}};
                used_next = {SLOTS{1'b0}};
                rd_bytes = 64'd0;
                wr_bytes = 64'd0;
                error <= 1'b0;
            end
            used <= used_next;
        end
    end
endmodule
/* verilator lint_on BLKSEQ */
