// CDMA feature-data DMA (direct convolution, feature input): reads the input cube (D_DATAIN_SIZE_*, the
// source address and strides, all taken down to whole memory atoms; a 1x1 cube with SURF_PACKED is read
// packed, its surfaces back to back, as NVIDIA's CDMA does), converts each byte (nvdla_cdma_cvt) and writes
// CBUF's data banks: input line h's slice at entry h * pitch (pitch = ceil(C / AC) * W entries), channel
// block cb's W entries at cb * W in it, one memory atom per write into part (surface mod EB/ATOM) of the
// entry; addresses wrap at the CBUF size. The cube is read slice by slice (line h of every surface before
// line h + 1, as NVIDIA's CDMA_dc) and `slices` counts the slices wholly in CBUF, so that CSC starts as soon
// as the lines its next operations read are there (NVIDIA's CDMA-to-CSC data update). The read data are
// always taken (CBUF writes never wait), so the DMA never holds the memory's read channel. `done` rises
// once every beat is written and holds until the next start.
module nvdla_cdma_dat #(
    parameter ATOM            = 8,
    parameter AC              = 8,
    parameter EPR             = 1,      // entries of AC bytes in one CBUF entry (D_ENTRY_PER_SLICE's unit)
    parameter BANKS           = 32,
    parameter DEPTH           = 512,
    parameter MAX_BURST       = 16,
    parameter MAX_OUTSTANDING = 8
) (
    input  wire              clk,
    input  wire              rst_n,
    input  wire              start,
    input  wire [12:0]       width_m1,
    input  wire [12:0]       height_m1,
    input  wire [12:0]       channel_m1,
    input  wire [31:0]       base,
    input  wire [31:0]       line_stride,
    input  wire [31:0]       surf_stride,
    input  wire [13:0]       entries_m1,     // D_ENTRY_PER_SLICE.ENTRIES
    input  wire              surf_packed,
    input  wire              ram_type,
    input  wire              cvt_en,
    input  wire [15:0]       cvt_offset,
    input  wire [15:0]       cvt_scale,
    input  wire [5:0]        cvt_truncate,
    // CBUF data write port
    output reg  [PARTS-1:0]  cb_we,
    output reg  [A_W-1:0]    cb_addr,
    output reg  [AC*8-1:0]   cb_data,
    output reg               done,
    output reg  [13:0]       slices,         // input lines (all their channels) written to CBUF
    output wire              ar_stall,       // a burst waits on AR (D_PERF_DAT_READ_STALL)
    // AXI4 read master
    output wire              m_axi_arvalid,
    input  wire              m_axi_arready,
    output wire [31:0]       m_axi_araddr,
    output wire [7:0]        m_axi_arlen,
    output wire [2:0]        m_axi_arsize,
    output wire [1:0]        m_axi_arburst,
    output wire [3:0]        m_axi_arid,
    output wire              m_axi_aruser,
    input  wire              m_axi_rvalid,
    output wire              m_axi_rready,
    input  wire [ATOM*8-1:0] m_axi_rdata,
    input  wire [1:0]        m_axi_rresp,
    input  wire              m_axi_rlast
);
    localparam PARTS = AC / ATOM;
    localparam RB    = $clog2(PARTS);
    localparam A_W   = $clog2(BANKS) + $clog2(DEPTH);
    localparam SB    = $clog2(ATOM);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (ATOM < 4 || (ATOM & (ATOM - 1)) != 0 || AC < ATOM || (AC & (AC - 1)) != 0 || BANKS < 2
            || (BANKS & (BANKS - 1)) != 0 || DEPTH < 2 || (DEPTH & (DEPTH - 1)) != 0 || EPR < 1
            || (EPR & (EPR - 1)) != 0) begin
            $display("ERROR: nvdla_cdma_dat %m: ATOM a power of two >= 4, AC a power of two >= ATOM, BANKS, ",
                     "DEPTH powers of two >= 2, EPR a power of two >= 1");
            $finish;
        end
    end

    wire [13:0] surfaces = {1'b0, channel_m1 >> SB} + 14'd1;
    wire [13:0] width    = {1'b0, width_m1} + 14'd1;
    wire [13:0] height   = {1'b0, height_m1} + 14'd1;
    wire        pk   = surf_packed & (width_m1 == 13'd0) & (height_m1 == 13'd0);
    wire [31:0] amask    = ~(32'd0 + ATOM - 1);

    // ---- requests: one per line (a packed 1x1 cube: one line of all its surfaces)
    wire        cmd_valid, cmd_ready;
    wire [31:0] cmd_addr;
    wire [15:0] cmd_beats;
    /* verilator lint_off UNUSEDSIGNAL */
    wire        walk_busy, rd_busy;
    /* verilator lint_on UNUSEDSIGNAL */
    nvdla_cube_walker #(.ADDR_W(32), .LEN_W(16), .LINE_MAJOR(1)) u_walk (
        .clk(clk), .rst_n(rst_n), .start(start), .base(base & amask), .line_stride(line_stride & amask),
        .surface_stride(surf_stride & amask),
        .width(pk ? {2'b0, surfaces} : {2'b0, width}), .height(pk ? 14'd1 : height),
        .surfaces(pk ? 14'd1 : surfaces),
        .cmd_valid(cmd_valid), .cmd_ready(cmd_ready), .cmd_addr(cmd_addr), .cmd_beats(cmd_beats), .busy(walk_busy)
    );
    wire              rd_valid;
    wire [ATOM*8-1:0] rd_data;
    nvdla_axi_rd #(.ADDR_W(32), .DATA_W(ATOM*8), .LEN_W(16), .MAX_BURST(MAX_BURST),
                   .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_rd (
        .clk(clk), .rst_n(rst_n), .cmd_valid(cmd_valid), .cmd_ready(cmd_ready), .cmd_addr(cmd_addr),
        .cmd_beats(cmd_beats), .cmd_ram_type(ram_type),
        .m_axi_arvalid(m_axi_arvalid), .m_axi_arready(m_axi_arready), .m_axi_araddr(m_axi_araddr),
        .m_axi_arlen(m_axi_arlen), .m_axi_arsize(m_axi_arsize), .m_axi_arburst(m_axi_arburst),
        .m_axi_arid(m_axi_arid), .m_axi_aruser(m_axi_aruser), .m_axi_rvalid(m_axi_rvalid),
        .m_axi_rready(m_axi_rready), .m_axi_rdata(m_axi_rdata), .m_axi_rresp(m_axi_rresp),
        .m_axi_rlast(m_axi_rlast), .out_valid(rd_valid), .out_ready(1'b1), .out_data(rd_data), .busy(rd_busy)
    );
    assign ar_stall = m_axi_arvalid & ~m_axi_arready;

    // ---- where each beat goes: counters in the walker's order (line, surface, column)
    reg  [A_W-1:0] pitch;
    reg  [39:0]    total, got;
    reg  [13:0]    w, h, sf;
    reg  [A_W-1:0] line_base, blk_base;
    // the packed last block: its first surface, log2 of its atoms a pixel (r') and of its pixels an entry
    reg  [13:0]    rem_sf;
    reg  [7:0]     lg_r;
    wire [7:0]     lg_share = RB[7:0] - lg_r;
    /* verilator lint_off UNUSEDSIGNAL */  // addresses wrap at the CBUF size: the low A_W bits
    wire [19:0]    w20 = {6'd0, w}, width20 = {6'd0, width};
    wire [19:0]    pitch20 = ({6'd0, entries_m1} + 20'd1) << $clog2(EPR);
    wire [19:0]    w_rem = w20 >> lg_share;
    /* verilator lint_on UNUSEDSIGNAL */
    wire [13:0]    rest = surfaces & (PARTS[13:0] - 14'd1);   // atoms of the last block (0: none short)
    wire           in_rem = !pk && rest != 14'd0 && sf >= rem_sf;
    wire           last_w = pk ? (w == surfaces - 14'd1) : (w == width - 14'd1);
    wire           last_sf = pk | (sf == surfaces - 14'd1);
    wire           last_h = pk | (h == height - 14'd1);
    wire [7:0]     sf_part = (pk ? w[7:0] : sf[7:0]) & (PARTS[7:0] - 8'd1);   // the atom in its block
    wire [7:0]     share_m1 = (8'd1 << lg_share) - 8'd1;
    wire [7:0]     part = in_rem ? (((w[7:0] & share_m1) << lg_r) | sf_part) : sf_part;
    wire [13:0]    rest_m1 = rest - 14'd1;
    integer        k;
    reg            eol;     // the beat written now completes a slice
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            pitch <= {A_W{1'b0}};
            total <= 40'd0;
            rem_sf <= 14'd0; lg_r <= 8'd0;
        end else begin
            pitch <= pitch20[A_W-1:0];
            total <= {26'd0, width} * {26'd0, height} * {26'd0, surfaces};
            rem_sf <= surfaces - rest;
            lg_r <= 8'd0;
            for (k = 0; k < RB; k = k + 1)
                if (rest_m1[k]) lg_r <= k[7:0] + 8'd1;   // the bits of r - 1
        end
    end
    /* verilator lint_off UNUSEDSIGNAL */
    wire [19:0]    w_blk = w20 >> RB;
    /* verilator lint_on UNUSEDSIGNAL */
    wire [A_W-1:0] entry = pk ? w_blk[A_W-1:0]
                              : line_base + blk_base + (in_rem ? w_rem[A_W-1:0] : w20[A_W-1:0]);
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            w <= 14'd0; h <= 14'd0; sf <= 14'd0; line_base <= {A_W{1'b0}}; blk_base <= {A_W{1'b0}};
            got <= 40'd0;
            done <= 1'b0;
            cb_we <= {PARTS{1'b0}};
            eol <= 1'b0;
            slices <= 14'd0;
        end else begin
            cb_we <= {PARTS{1'b0}};
            eol <= 1'b0;
            if (start) begin
                w <= 14'd0; h <= 14'd0; sf <= 14'd0; line_base <= {A_W{1'b0}}; blk_base <= {A_W{1'b0}};
                got <= 40'd0;
                done <= 1'b0;
                slices <= 14'd0;
            end else begin
                if (rd_valid) begin
                    cb_we <= {{(PARTS-1){1'b0}}, 1'b1} << part;
                    if (!last_w) w <= w + 14'd1;
                    else begin
                        w <= 14'd0;
                        if (!last_sf) begin
                            sf <= sf + 14'd1;
                            if (sf_part == PARTS[7:0] - 8'd1) blk_base <= blk_base + width20[A_W-1:0];
                        end else begin
                            sf <= 14'd0;
                            blk_base <= {A_W{1'b0}};
                            eol <= 1'b1;
                            if (!last_h) begin
                                h <= h + 14'd1;
                                line_base <= line_base + pitch;
                            end else begin
                                h <= 14'd0;
                                line_base <= {A_W{1'b0}};
                            end
                        end
                    end
                end
                // counted as written one cycle after the write is issued (the bank has it then)
                got <= got + {39'd0, cb_we != {PARTS{1'b0}}};
                slices <= slices + {13'd0, eol};
                if (got == total && cb_we == {PARTS{1'b0}} && !rd_valid) done <= 1'b1;
            end
        end
    end
    // the converted atom, every part of the entry carrying it (the part enable picks)
    wire [ATOM*8-1:0] cvt;
    genvar i;
    generate
        for (i = 0; i < ATOM; i = i + 1) begin : g_cvt
            nvdla_cdma_cvt u_cvt (
                .en(cvt_en), .offset(cvt_offset), .scale(cvt_scale), .truncate(cvt_truncate),
                .x(rd_data[i*8 +: 8]), .y(cvt[i*8 +: 8])
            );
        end
    endgenerate
    always @(posedge clk) begin
        if (rd_valid) begin
            cb_addr <= entry;
            cb_data <= {PARTS{cvt}};
        end
    end
endmodule
