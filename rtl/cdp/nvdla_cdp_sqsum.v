// CDP square sum (LRN window over 3/5/7/9 channels) on the CDP stream order (docs/CONTRACTS.md "CDP core").
//
// Input: converted atoms x (ATOM signed X_W-bit lanes, lane i = channel s*ATOM+i), for each line, width
// chunk and surface s, the chunk's pixels. Output, in the same order and count: the atom x itself and per
// lane the sum of x^2 over channels c-half .. c+half (half = NORMALZ_LEN + 1). Channels outside the cube
// count as 0: lanes at or past CHANNEL are zeroed on the way in, and the neighbours of surface 0 / of the
// last surface read as 0 (the model's square_sum pads with zeros).
//
// The window of surface s needs surfaces s-1 and s+1 of the same pixel, so the atoms go through a ring of
// 3*CHUNK atoms in arrival order: (s, p) of a chunk of width cw sits at ring address a, its neighbours at
// a - cw and a + cw. With `lag` = atoms written - atoms emitted:
//   - (s, p) is emitted once (s+1, p) has arrived: lag >= cw + 1 (in the last surface lag >= 1);
//   - an atom written overwrites the one 3*CHUNK places earlier, which the emission of the atom cw places
//     after it may still need: writes wait while lag >= 2*CHUNK (steady state needs only cw + 1).
// Pipeline after the ring: S1 read the three atoms -> S2 squares -> S3 window sums (output register).
// ATOM must be at least 4 (a window of 9 reaches 4 lanes into each neighbour).
module nvdla_cdp_sqsum #(
    parameter ATOM   = 8,
    parameter CHUNK  = 8,
    parameter X_W    = 9,
    parameter SUM_W  = 20,     // 9 * 256^2 < 2^20
    parameter DIM_W  = 13,
    parameter SURF_W = 10,
    parameter LANE_W = 3       // lane index width: log2(ATOM)
) (
    input  wire                   clk,
    input  wire                   rst_n,
    input  wire                   init,          // start of a layer: walkers and ring back to the start
    input  wire [DIM_W-1:0]       cfg_width,     // W - 1
    input  wire [DIM_W-1:0]       cfg_height,    // H - 1
    input  wire [SURF_W-1:0]      cfg_surf,      // surfaces - 1
    input  wire [LANE_W-1:0]      cfg_last_lane, // (C - 1) mod ATOM: lanes above it in the last surface are 0
    input  wire [1:0]             cfg_normalz_len,
    input  wire                   in_valid,
    output wire                   in_ready,
    input  wire [ATOM*X_W-1:0]    in_data,
    output wire                   out_valid,
    input  wire                   out_ready,
    output wire [ATOM*X_W-1:0]    out_x,
    output wire [ATOM*SUM_W-1:0]  out_sum
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (ATOM < 1 || (1 << LANE_W) != ATOM || CHUNK < 1 || X_W < 1 || SUM_W < 2 * (X_W - 1) + 4) begin
            $display("ERROR: nvdla_cdp_sqsum %m: ATOM = 2**LANE_W, CHUNK >= 1, SUM_W holds 9 squares of X_W-bit values");
            $finish;
        end
    end
    localparam HALF  = 4;                       // widest half window (NORMALZ_LEN 3: 9 channels)
    localparam R     = 3 * CHUNK;               // ring depth in atoms
    localparam RA_W  = $clog2(R);
    localparam LAG_W = $clog2(2 * CHUNK + 1);
    localparam P_W   = (CHUNK > 1) ? $clog2(CHUNK) : 1;
    localparam AW    = ATOM * X_W;
    localparam EXT   = ATOM + 2 * HALF;         // lanes of the extended window vector
    localparam SQ_W  = 2 * X_W - 1;             // x^2 of a signed X_W-bit value fits 2*X_W-1 bits unsigned
    localparam [RA_W-1:0]  R_LAST  = R - 1;
    localparam [RA_W:0]    R_FULL  = R;
    localparam [LAG_W-1:0] LAG_MAX = 2 * CHUNK;

    // ---------------------------------------------------------------- write side
    wire              wr_s_last;
    wire              in_fire = in_valid & in_ready;
    reg  [RA_W-1:0]   wa;
    reg  [RA_W-1:0]   ra;
    reg  [LAG_W-1:0]  lag;
    reg  [R*AW-1:0]   ring;

    assign in_ready = (lag < LAG_MAX);

    /* verilator lint_off PINCONNECTEMPTY */
    nvdla_cdp_walk #(.CHUNK(CHUNK), .DIM_W(DIM_W), .SURF_W(SURF_W)) u_wr_walk (
        .clk(clk), .rst_n(rst_n), .init(init), .step(in_fire),
        .cfg_width(cfg_width), .cfg_height(cfg_height), .cfg_surf(cfg_surf),
        .cw_m1(), .s_first(), .s_last(wr_s_last), .last()
    );
    /* verilator lint_on PINCONNECTEMPTY */

    // padding lanes of the last surface convert as DATIN_OFFSET, i.e. to 0
    reg [AW-1:0] wr_atom;
    integer i;
    always @(*) begin
        for (i = 0; i < ATOM; i = i + 1) begin
            wr_atom[i*X_W +: X_W] = (wr_s_last && (i > cfg_last_lane)) ? {X_W{1'b0}} : in_data[i*X_W +: X_W];
        end
    end

    // Ring entries need no reset: an entry is read only after it was written in this layer.
    integer j;
    always @(posedge clk) begin
        for (j = 0; j < R; j = j + 1) begin
            if (in_fire && (wa == j[RA_W-1:0])) ring[j*AW +: AW] <= wr_atom;
        end
    end

    // ---------------------------------------------------------------- emission side
    wire [P_W-1:0] em_cw_m1;
    wire           em_s_first, em_s_last;
    wire [2:0]     en;
    // (s+1, p) sits cw atoms after (s, p): it has arrived once lag > cw, i.e. lag > cw_m1 + 1
    wire [LAG_W-1:0] need  = {{(LAG_W-P_W){1'b0}}, em_cw_m1} + 1'b1;
    // lag != 0 first: an empty ring never emits, whatever the configuration (X in 4-state before it is set)
    wire           emit_ok = (lag != {LAG_W{1'b0}}) & (em_s_last | (lag > need));
    wire           emit    = emit_ok & en[0];

    /* verilator lint_off PINCONNECTEMPTY */
    nvdla_cdp_walk #(.CHUNK(CHUNK), .DIM_W(DIM_W), .SURF_W(SURF_W)) u_em_walk (
        .clk(clk), .rst_n(rst_n), .init(init), .step(emit),
        .cfg_width(cfg_width), .cfg_height(cfg_height), .cfg_surf(cfg_surf),
        .cw_m1(em_cw_m1), .s_first(em_s_first), .s_last(em_s_last), .last()
    );
    /* verilator lint_on PINCONNECTEMPTY */

    /* verilator lint_off PINCONNECTEMPTY */
    nvdla_pipe_ctrl #(.DEPTH(3)) u_ctrl (     // in_ready is en[0]
        .clk(clk), .rst_n(rst_n),
        .in_valid(emit_ok), .in_ready(), .stage_en(en),
        .out_valid(out_valid), .out_ready(out_ready)
    );
    /* verilator lint_on PINCONNECTEMPTY */

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            wa  <= {RA_W{1'b0}};
            ra  <= {RA_W{1'b0}};
            lag <= {LAG_W{1'b0}};
        end else if (init) begin
            wa  <= {RA_W{1'b0}};
            ra  <= {RA_W{1'b0}};
            lag <= {LAG_W{1'b0}};
        end else begin
            if (in_fire) wa <= (wa == R_LAST) ? {RA_W{1'b0}} : wa + 1'b1;
            if (emit)    ra <= (ra == R_LAST) ? {RA_W{1'b0}} : ra + 1'b1;
            if (in_fire != emit) lag <= in_fire ? lag + 1'b1 : lag - 1'b1;
        end
    end

    // neighbour addresses a +- cw, modulo the ring
    wire [RA_W:0] cw      = {{(RA_W+1-P_W){1'b0}}, em_cw_m1} + 1'b1;
    wire [RA_W:0] up_sum  = {1'b0, ra} + cw;
    wire [RA_W:0] up_addr = (up_sum >= R_FULL) ? up_sum - R_FULL : up_sum;
    wire [RA_W:0] dn_addr = ({1'b0, ra} >= cw) ? {1'b0, ra} - cw : {1'b0, ra} + R_FULL - cw;

    // only the HALF lanes of each neighbour that a window can reach are read
    localparam NW = HALF * X_W;
    reg [AW-1:0] rd_cur;
    reg [NW-1:0] rd_prev, rd_next;
    integer k;
    always @(*) begin
        rd_cur  = {AW{1'b0}};
        rd_prev = {NW{1'b0}};
        rd_next = {NW{1'b0}};
        for (k = 0; k < R; k = k + 1) begin
            if (ra == k[RA_W-1:0]) rd_cur = ring[k*AW +: AW];
            if (dn_addr == k[RA_W:0]) rd_prev = ring[k*AW + AW - NW +: NW];
            if (up_addr == k[RA_W:0]) rd_next = ring[k*AW +: NW];
        end
    end

    // ---------------------------------------------------------------- S1: the window's atoms
    reg [AW-1:0] s1_cur;
    reg [NW-1:0] s1_prev, s1_next;
    always @(posedge clk) begin
        if (en[0]) begin
            s1_cur  <= rd_cur;
            s1_prev <= em_s_first ? {NW{1'b0}} : rd_prev;
            s1_next <= em_s_last  ? {NW{1'b0}} : rd_next;
        end
    end

    // ---------------------------------------------------------------- S2: squares of the reachable lanes
    // extended vector e[0 .. EXT-1]: channel s*ATOM + e_index - HALF
    wire [EXT*X_W-1:0] ext = {s1_next, s1_cur, s1_prev};
    reg  [EXT*SQ_W-1:0] s2_sq;
    reg  [AW-1:0]       s2_x;
    genvar e;
    generate
        for (e = 0; e < EXT; e = e + 1) begin : g_sq
            wire signed [X_W-1:0]   xe = ext[e*X_W +: X_W];
            /* verilator lint_off UNUSEDSIGNAL */
            wire signed [2*X_W-1:0] sq = xe * xe;     // the top bit is always 0
            /* verilator lint_on UNUSEDSIGNAL */
            always @(posedge clk) begin
                if (en[1]) s2_sq[e*SQ_W +: SQ_W] <= sq[SQ_W-1:0];
            end
        end
    endgenerate
    always @(posedge clk) begin
        if (en[1]) s2_x <= s1_cur;
    end

    // ---------------------------------------------------------------- S3: window sums
    reg [ATOM*SUM_W-1:0] s3_sum;
    reg [AW-1:0]         s3_x;
    wire [HALF:1]        pair_on;    // pair d (channels c-d and c+d) is inside the window
    genvar l, p;
    generate
        for (p = 1; p <= HALF; p = p + 1) begin : g_pair
            if (p == 1) begin : g_always
                assign pair_on[p] = 1'b1;     // NORMALZ_LEN 0 is already 3 channels
            end else begin : g_len
                localparam integer PM1 = p - 1;
                assign pair_on[p] = (cfg_normalz_len >= PM1[1:0]);
            end
        end
        for (l = 0; l < ATOM; l = l + 1) begin : g_sum
            reg [SUM_W-1:0] acc;
            integer d;
            always @(*) begin
                acc = {{(SUM_W-SQ_W){1'b0}}, s2_sq[(l+HALF)*SQ_W +: SQ_W]};
                for (d = 1; d <= HALF; d = d + 1) begin
                    if (pair_on[d]) begin
                        acc = acc + {{(SUM_W-SQ_W){1'b0}}, s2_sq[(l+HALF-d)*SQ_W +: SQ_W]}
                                  + {{(SUM_W-SQ_W){1'b0}}, s2_sq[(l+HALF+d)*SQ_W +: SQ_W]};
                    end
                end
            end
            always @(posedge clk) begin
                if (en[2]) s3_sum[l*SUM_W +: SUM_W] <= acc;
            end
        end
    endgenerate
    always @(posedge clk) begin
        if (en[2]) s3_x <= s2_x;
    end

    assign out_x   = s3_x;
    assign out_sum = s3_sum;
endmodule
