// Burst arbiter and read-data router of the SDP read DMA. Each of the N streams offers one burst at a time;
// a burst is eligible only when its stream's FIFO has room reserved for ALL its beats (a credit counter:
// FIFO_DEPTH minus beats in the FIFO or still on their way), so the single in-order AXI ID can always hand
// its data over and no consumer order can deadlock the bus. Eligible streams are served round robin, so
// every used stream keeps pace. The stream and length of each issued burst go to an order FIFO that steers
// the returning beats (in issue order, one AXI ID) to their stream FIFO. Each stream's RAM type (its
// *_RAM_TYPE register) goes with its bursts to the read engine, for the memory router.
module nvdla_sdp_rdma_arb #(
    parameter N               = 4,
    parameter ADDR_W          = 32,
    parameter FIFO_DEPTH      = 32,
    parameter MAX_OUTSTANDING = 8
) (
    input  wire              clk,
    input  wire              rst_n,
    // one burst request per stream (from its nvdla_dma_burst_split)
    input  wire [N-1:0]        req_valid,
    output wire [N-1:0]        req_ready,
    input  wire [N*ADDR_W-1:0] req_addr,
    input  wire [N*9-1:0]      req_beats,    // 1..MAX_BURST, MAX_BURST <= FIFO_DEPTH
    input  wire [N-1:0]        req_ram_type, // each stream's memory (NVDLA RAM_TYPE: 1 MC, 0 CV)
    input  wire [N-1:0]        fifo_pop,     // a beat left stream i's FIFO: one credit back
    // to the AXI read engine (one command = one burst)
    output wire              cmd_valid,
    input  wire              cmd_ready,
    output wire [ADDR_W-1:0] cmd_addr,
    output wire [8:0]        cmd_beats,
    output wire              cmd_ram_type,
    output wire [N-1:0]      cmd_stream,   // one-hot: the stream of the burst offered (for the AR stall counts)
    // read data from the AXI read engine, steered to the stream FIFOs (data goes to all, push to one)
    input  wire              beat_valid,
    output wire              beat_ready,
    output wire [N-1:0]      fifo_push,
    input  wire [N-1:0]      fifo_ready,
    output wire              busy           // a burst issued whose beats have not all been steered
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (N < 1 || ADDR_W < 1 || FIFO_DEPTH < 1 || MAX_OUTSTANDING < 1) begin
            $display("ERROR: nvdla_sdp_rdma_arb %m: N, ADDR_W, FIFO_DEPTH, MAX_OUTSTANDING >= 1");
            $finish;
        end
    end
    localparam SEL_W     = (N > 1) ? $clog2(N) : 1;
    localparam CR_W      = $clog2(FIFO_DEPTH + 1);
    // entries live from issue to their last beat: the bursts on the bus and the two beats of the engine's
    // output skid buffer
    localparam ORD_DEPTH = 1 << $clog2(MAX_OUTSTANDING + 4);
    localparam ORD_W     = SEL_W + 8;

    // ---- credits --------------------------------------------------------------------------------------
    reg  [N*CR_W-1:0] credit;
    wire [N-1:0]      eligible;
    wire [N-1:0]      grant;
    wire              issue;

    genvar g;
    generate
        for (g = 0; g < N; g = g + 1) begin : g_credit
            // 16-bit arithmetic holds any credit (CR_W <= 16) and any burst length
            wire [15:0] have = {{(16-CR_W){1'b0}}, credit[g*CR_W +: CR_W]};
            wire [15:0] need = {7'd0, req_beats[g*9 +: 9]};
            wire [15:0] take = (issue & grant[g]) ? need : 16'd0;
            /* verilator lint_off UNUSEDSIGNAL */
            wire [15:0] next = have - take + {15'd0, fifo_pop[g]};  // never above FIFO_DEPTH
            /* verilator lint_on UNUSEDSIGNAL */
            assign eligible[g] = req_valid[g] & (have >= need);
            always @(posedge clk or negedge rst_n) begin
                if (!rst_n) credit[g*CR_W +: CR_W] <= FIFO_DEPTH[CR_W-1:0];
                else credit[g*CR_W +: CR_W] <= next[CR_W-1:0];
            end
        end
    endgenerate

    // ---- round robin over eligible streams, starting after the last one served --------------------------
    reg [SEL_W-1:0] last;
    reg [SEL_W-1:0] pick;
    reg [SEL_W:0]   cand;
    reg             found;
    integer k;
    always @(*) begin
        pick  = {SEL_W{1'b0}};
        found = 1'b0;
        for (k = 1; k <= N; k = k + 1) begin
            cand = {1'b0, last} + k[SEL_W:0];
            if (cand >= N[SEL_W:0]) cand = cand - N[SEL_W:0];
            if (!found && eligible[cand[SEL_W-1:0]]) begin
                pick  = cand[SEL_W-1:0];
                found = 1'b1;
            end
        end
    end

    // A burst offered and not taken stays the one offered (the engine sends it to AR as it is, and AXI wants
    // AR stable until its handshake): another stream turning eligible meanwhile waits its turn.
    wire            ord_in_ready;
    reg             held;
    reg [SEL_W-1:0] held_pick;
    wire [SEL_W-1:0] sel = held ? held_pick : pick;
    assign cmd_valid = (held ? req_valid[held_pick] : found) & ord_in_ready;
    assign issue     = cmd_valid & cmd_ready;
    assign grant     = (held | found) ? ({{(N-1){1'b0}}, 1'b1} << sel) : {N{1'b0}};  // gated by cmd_ready
    assign req_ready = (cmd_ready & ord_in_ready) ? grant : {N{1'b0}};
    assign cmd_addr  = req_addr[sel*ADDR_W +: ADDR_W];
    assign cmd_beats = req_beats[sel*9 +: 9];
    assign cmd_ram_type = req_ram_type[sel];
    assign cmd_stream   = grant;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            last      <= {SEL_W{1'b0}};
            held      <= 1'b0;
            held_pick <= {SEL_W{1'b0}};
        end else begin
            if (issue) last <= sel;
            held      <= cmd_valid & ~cmd_ready;
            held_pick <= sel;
        end
    end

    // ---- order FIFO: which stream, how many beats -------------------------------------------------------
    wire             ord_valid;
    wire [ORD_W-1:0] ord_data;
    wire [SEL_W-1:0] ord_sel  = ord_data[ORD_W-1:8];
    wire [7:0]       ord_last = ord_data[7:0];
    reg  [7:0]       beat_no;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [8:0]       len = cmd_beats - 9'd1;  // 0..255: bit 8 is always 0
    /* verilator lint_on UNUSEDSIGNAL */
    wire             take_beat = beat_valid & beat_ready;
    wire             burst_end = take_beat & (beat_no == ord_last);

    nvdla_fifo #(.WIDTH(ORD_W), .DEPTH(ORD_DEPTH)) u_order (
        .clk(clk), .rst_n(rst_n),
        .in_valid(issue), .in_ready(ord_in_ready), .in_data({sel, len[7:0]}),
        .out_valid(ord_valid), .out_ready(burst_end), .out_data(ord_data)
    );

    wire [N-1:0] sel_onehot = {{(N-1){1'b0}}, 1'b1} << ord_sel;
    assign beat_ready = ord_valid & |(fifo_ready & sel_onehot);
    assign fifo_push  = (beat_valid & beat_ready) ? sel_onehot : {N{1'b0}};
    assign busy       = ord_valid;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) beat_no <= 8'd0;
        else if (burst_end) beat_no <= 8'd0;
        else if (take_beat) beat_no <= beat_no + 8'd1;
    end
endmodule
