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
// Pipeline after the ring: S1 read the three atoms -> S2 squares -> S3 window sums (output register); on an
// FP16 build the FP32 sums take 5 stages more (nvdla_cdp_sqsum_fp) and every precision's results wait as long.
// ATOM must be at least 4 (a window of 9 reaches 4 lanes into each neighbour).
//
// INT16 (i16, on a build with INT16 = 1; ATOM >= 8): the atoms carry ATOM/2 17-bit lanes in the packed x
// layout of nvdla_cdp_icvt (lane l at bits [17l+16:17l] of the same ATOM*X_W-bit word, so the ring is the
// same), squares are 33 bits and the window sums 36 bits (9 * 2^32 < 2^36), lane l of out_sum at bits
// [36l+35:36l] (ATOM/2 * 36 <= ATOM * SUM_W). A separate set of squarers and adders is built for it; with
// INT16 = 0 none is.
// FP16 (f16, on a build with FP16 = 1, which needs INT16 = 1): the same 17-bit lanes hold FP17 values (the
// ring, the zeroing and the neighbour reads are INT16's: FP17 +0 is 0); nvdla_cdp_sqsum_fp squares and sums
// them in FP32 (S2, S3) in NVIDIA's order, lane l's FP32 sum at bits [32l+31:32l] of out_sum.
module nvdla_cdp_sqsum #(
    parameter ATOM   = 8,
    parameter CHUNK  = 8,
    parameter X_W    = 9,
    parameter SUM_W  = 20,     // 9 * 256^2 < 2^20
    parameter DIM_W  = 13,
    parameter SURF_W = 10,
    parameter LANE_W = 3,      // lane index width: log2(ATOM)
    parameter INT16  = 0,      // 1: the INT16 path (i16)
    parameter FP16   = 0       // 1: the FP16 path (f16; needs INT16 = 1)
) (
    input  wire                   clk,
    input  wire                   rst_n,
    input  wire                   init,          // start of a layer: walkers and ring back to the start
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire                   i16,           // INT16 layer (ignored with INT16 = 0)
    input  wire                   f16,           // FP16 layer (ignored with FP16 = 0)
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [DIM_W-1:0]       cfg_width,     // W - 1
    input  wire [DIM_W-1:0]       cfg_height,    // H - 1
    input  wire [SURF_W-1:0]      cfg_surf,      // surfaces - 1
    input  wire [LANE_W-1:0]      cfg_last_lane, // (C - 1) mod lanes per atom: lanes above it in the last surface are 0
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
        if (ATOM < 1 || (1 << LANE_W) != ATOM || CHUNK < 1 || X_W < 1 || SUM_W < 2 * (X_W - 1) + 4
            || (INT16 != 0 && INT16 != 1) || (INT16 == 1 && (ATOM < 8 || X_W != 9 || SUM_W < 18))
            || (FP16 != 0 && FP16 != 1) || (FP16 == 1 && (INT16 != 1 || SUM_W < 16))) begin
            $display("ERROR: nvdla_cdp_sqsum %m: ATOM = 2**LANE_W, CHUNK >= 1, SUM_W holds 9 squares of X_W-bit ",
                     "values; INT16 0 or 1, and with INT16 ATOM >= 8, X_W = 9, SUM_W >= 18 (the INT16 layouts); ",
                     "FP16 0 or 1 and only with INT16, SUM_W >= 16 (ATOM/2 FP32 sums)");
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
    // FP16 builds: the FP32 window sums take XS stages more than S3 (nvdla_cdp_sqsum_fp's T1..T6 for S3);
    // the integer results wait as long in a delay line, so every precision has the same fixed latency
    localparam XS    = (FP16 == 1) ? 5 : 0;

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
    reg [AW-1:0] wr_atom8;
    integer i;
    always @(*) begin
        for (i = 0; i < ATOM; i = i + 1) begin
            wr_atom8[i*X_W +: X_W] = (wr_s_last && (i > cfg_last_lane)) ? {X_W{1'b0}} : in_data[i*X_W +: X_W];
        end
    end
    wire [AW-1:0] wr_atom;
    generate
        if (INT16 == 1) begin : g_wr16
            reg [AW-1:0] wr_atom16;
            integer i16l;
            always @(*) begin
                wr_atom16 = {AW{1'b0}};
                for (i16l = 0; i16l < ATOM / 2; i16l = i16l + 1) begin
                    wr_atom16[i16l*17 +: 17] = (wr_s_last && (i16l > cfg_last_lane)) ? 17'd0
                                                                                      : in_data[i16l*17 +: 17];
                end
            end
            // FP16 uses the same 17-bit lanes (a constant 0 without the FP16 path)
            wire w16 = i16 || ((FP16 == 1) && f16);
            assign wr_atom = w16 ? wr_atom16 : wr_atom8;
        end else begin : g_wr8
            assign wr_atom = wr_atom8;
        end
    endgenerate

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
    wire [2+XS:0]  en;
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
    nvdla_pipe_ctrl #(.DEPTH(3 + XS)) u_ctrl (     // in_ready is en[0]
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

    // ---------------------------------------------------------------- INT16: squares and sums of 17-bit lanes
    wire [ATOM*SUM_W-1:0] sum_out;
    wire [AW-1:0]         x_out;
    generate
        if (INT16 == 1) begin : g_i16
            localparam H16   = ATOM / 2;           // int16 lanes per atom
            localparam X16   = 17;
            localparam SQ16  = 33;                 // (-2^16)^2 = 2^32
            localparam S16   = 36;                 // 9 * 2^32 < 2^36
            localparam NW16  = HALF * X16;
            localparam EXT16 = H16 + 2 * HALF;
            // neighbours: the top HALF int16 lanes of the atom before, the bottom HALF of the one after
            reg [NW16-1:0] rd_prev16, rd_next16;
            integer k16;
            always @(*) begin
                rd_prev16 = {NW16{1'b0}};
                rd_next16 = {NW16{1'b0}};
                for (k16 = 0; k16 < R; k16 = k16 + 1) begin
                    if (dn_addr == k16[RA_W:0]) rd_prev16 = ring[k16*AW + (H16 - HALF)*X16 +: NW16];
                    if (up_addr == k16[RA_W:0]) rd_next16 = ring[k16*AW +: NW16];
                end
            end
            reg [NW16-1:0] s1_prev16, s1_next16;
            always @(posedge clk) begin
                if (en[0]) begin
                    s1_prev16 <= em_s_first ? {NW16{1'b0}} : rd_prev16;
                    s1_next16 <= em_s_last  ? {NW16{1'b0}} : rd_next16;
                end
            end
            wire [EXT16*X16-1:0] ext16 = {s1_next16, s1_cur[H16*X16-1:0], s1_prev16};
            reg  [EXT16*SQ16-1:0] s2_sq16;
            genvar e16, l16;
            for (e16 = 0; e16 < EXT16; e16 = e16 + 1) begin : g_sq16
                wire signed [X16-1:0]   xe = ext16[e16*X16 +: X16];
                /* verilator lint_off UNUSEDSIGNAL */
                wire signed [2*X16-1:0] sq = xe * xe;     // the top bit is always 0
                /* verilator lint_on UNUSEDSIGNAL */
                always @(posedge clk) begin
                    if (en[1]) s2_sq16[e16*SQ16 +: SQ16] <= sq[SQ16-1:0];
                end
            end
            reg [H16*S16-1:0] s3_sum16;
            for (l16 = 0; l16 < H16; l16 = l16 + 1) begin : g_sum16
                reg [S16-1:0] acc;
                integer d16;
                always @(*) begin
                    acc = {{(S16-SQ16){1'b0}}, s2_sq16[(l16+HALF)*SQ16 +: SQ16]};
                    for (d16 = 1; d16 <= HALF; d16 = d16 + 1) begin
                        if (pair_on[d16]) begin
                            acc = acc + {{(S16-SQ16){1'b0}}, s2_sq16[(l16+HALF-d16)*SQ16 +: SQ16]}
                                      + {{(S16-SQ16){1'b0}}, s2_sq16[(l16+HALF+d16)*SQ16 +: SQ16]};
                        end
                    end
                end
                always @(posedge clk) begin
                    if (en[2]) s3_sum16[l16*S16 +: S16] <= acc;
                end
            end
            // i16 is stable for the layer: the registers of the other precision are simply not read; the
            // bits above the int16 lanes' sums are 0
            wire [ATOM*SUM_W-1:0] sum_int = i16 ? {{(ATOM*SUM_W-H16*S16){1'b0}}, s3_sum16} : s3_sum;
            if (FP16 == 1) begin : g_f16
                wire [H16*32-1:0] s3_sumf;
                nvdla_cdp_sqsum_fp #(.LANES(H16), .HALF(HALF)) u_fp (
                    .clk(clk), .en(en[2+XS:1]), .pair_on(pair_on[HALF:2]), .ext(ext16), .sum(s3_sumf)
                );
                // the integer sums and x wait XS stages (no reset: read only once enabled)
                localparam DW = ATOM * SUM_W + AW;
                reg  [XS*DW-1:0]     dly;
                /* verilator lint_off UNUSEDSIGNAL */   // the last stage's value is the output
                wire [(XS+1)*DW-1:0] dly_in = {dly, sum_int, s3_x};
                /* verilator lint_on UNUSEDSIGNAL */
                genvar dk;
                for (dk = 0; dk < XS; dk = dk + 1) begin : g_dly
                    always @(posedge clk) begin
                        if (en[3+dk]) dly[dk*DW +: DW] <= dly_in[dk*DW +: DW];
                    end
                end
                wire [ATOM*SUM_W-1:0] sum_dly = dly[(XS-1)*DW+AW +: ATOM*SUM_W];
                assign x_out   = dly[(XS-1)*DW +: AW];
                assign sum_out = f16 ? {{(ATOM*SUM_W-H16*32){1'b0}}, s3_sumf} : sum_dly;
            end else begin : g_int
                assign sum_out = sum_int;
                assign x_out   = s3_x;
            end
        end else begin : g_i8
            assign sum_out = s3_sum;
            assign x_out   = s3_x;
        end
    endgenerate

    assign out_x   = x_out;
    assign out_sum = sum_out;
endmodule
