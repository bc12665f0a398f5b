// SDP read DMA: MRDMA (the input cube) and BRDMA/NRDMA/ERDMA (the BS/BN/EW operands) on one AXI4 read
// master, laid out exactly as models/sdp/model.py reads memory (_read_feature/_to_cube/_read_operands).
// Per stream: nvdla_cube_walker (one command per line) -> nvdla_dma_burst_split (bursts) -> the arbiter
// (round robin, a burst only with FIFO space reserved for all its beats) -> nvdla_axi_rd (single ID, in
// order) -> the stream's FIFO -> for an operand, nvdla_sdp_opnd (beats -> atoms, per-kernel repetition).
// Every stream carries W*H*S atoms in cube order (surface, line, column); see docs/CONTRACTS.md.
// The configuration is the SDP_RDMA register bundle `rdma_cfg`, sliced here with the generated names.
// INT16 builds: with `half` (INT16 processing) a surface is ATOM/2 channels and an operand atom half the
// beats (nvdla_sdp_opnd); with `pair` (the 16to8 mode) the input's surfaces are ATOM/2 channels and two of
// them make one processing surface: nvdla_sdp_pair_walk reads them atom by atom in processing order
// (a 1x1 cube: packed, the plain walk), nvdla_sdp_join16 joins them after the FIFO.
`include "nvdla_sdp_rdma_fields.vh"
module nvdla_sdp_rdma #(
    parameter ATOM            = 8,
    parameter MAX_BURST       = 16,
    parameter MAX_OUTSTANDING = 8,
    parameter FIFO_DEPTH      = 32,  // beats per stream, a power of two >= MAX_BURST
    parameter INT16           = 0    // 1: `half` and `pair` select the INT16 layouts; 0: they are ignored
) (
    input  wire               clk,
    input  wire               rst_n,
    input  wire               start,
    output wire               busy,
    // SDP_RDMA configuration bundle (rtl/gen/nvdla_sdp_rdma_fields.vh): cube, source and operand DMAs
    /* verilator lint_off UNUSEDSIGNAL */  // each block reads its own fields of the bundle
    input  wire [`SDP_RDMA_CFG_W-1:0] rdma_cfg,
    /* verilator lint_on UNUSEDSIGNAL */
    // which operand streams this layer reads (an enabled DMA whose block takes an operand from memory)
    input  wire               bs_en,
    input  wire               bn_en,
    input  wire               ew_en,
    input  wire               mr_en,      // the input cube is read (0: SDP takes it on the fly from CACC)
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire               half,       // INT16 processing (INT16 = 1 only)
    input  wire               pair,       // 16to8: INT16 input, INT8 processing (INT16 = 1 only)
    /* verilator lint_on UNUSEDSIGNAL */
    output wire               m_axi_arvalid,
    input  wire               m_axi_arready,
    output wire [31:0]        m_axi_araddr,
    output wire [7:0]         m_axi_arlen,
    output wire [2:0]         m_axi_arsize,
    output wire [1:0]         m_axi_arburst,
    output wire [3:0]         m_axi_arid,
    output wire               m_axi_aruser,  // the burst's RAM type (NVDLA RAM_TYPE: 1 MC, 0 CV), for the router
    input  wire               m_axi_rvalid,
    output wire               m_axi_rready,
    input  wire [ATOM*8-1:0]  m_axi_rdata,
    input  wire [1:0]         m_axi_rresp,
    input  wire               m_axi_rlast,
    output wire               in_valid,
    input  wire               in_ready,
    output wire [ATOM*8-1:0]  in_data,
    output wire               bs_op_valid,
    input  wire               bs_op_ready,
    output wire [ATOM*32-1:0] bs_op_data,
    output wire               bn_op_valid,
    input  wire               bn_op_ready,
    output wire [ATOM*32-1:0] bn_op_data,
    output wire               ew_op_valid,
    input  wire               ew_op_ready,
    output wire [ATOM*32-1:0] ew_op_data,
    // read stalls per stream (0 input, 1 BS, 2 BN, 3 EW): the AR channel shows a burst of that stream and the
    // memory side has not accepted it (the D_PERF_*RDMA_READ_STALL counts, docs/perf_counters.md)
    output wire [3:0]         ar_stall
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (ATOM < 1 || (ATOM & (ATOM - 1)) != 0 || MAX_OUTSTANDING < 1 || FIFO_DEPTH < MAX_BURST || (FIFO_DEPTH & (FIFO_DEPTH - 1)) != 0
            || (INT16 != 0 && INT16 != 1) || (INT16 == 1 && ATOM < 2)) begin
            $display("ERROR: nvdla_sdp_rdma %m: ATOM a power of two (ATOM_SH), MAX_OUTSTANDING >= 1, FIFO_DEPTH a power of two >= MAX_BURST, INT16 0 or 1 and with INT16 ATOM >= 2");
            $finish;
        end
    end
    localparam N       = 4;              // streams: 0 input, 1 BS, 2 BN, 3 EW
    localparam B       = ATOM * 8;       // bits per beat (one atom of int8)
    localparam ATOM_SH = $clog2(ATOM);
    localparam SH16    = (ATOM_SH > 0) ? ATOM_SH - 1 : 0;   // surfaces of ATOM/2 channels (INT16)
    wire       h16     = (INT16 == 1) & half;
    wire       p16     = (INT16 == 1) & pair & ~half;

    // ---- geometry ---------------------------------------------------------------------------------------
    wire [12:0] width_m1   = rdma_cfg[`SDP_RDMA_WIDTH];
    wire [12:0] height_m1  = rdma_cfg[`SDP_RDMA_HEIGHT];
    wire [12:0] channel_m1 = rdma_cfg[`SDP_RDMA_CHANNEL];
    // processing surfaces (the operands') and the input's: the channel bits inside an atom do not count
    wire [12:0] surf_m1  = h16 ? channel_m1 >> SH16 : channel_m1 >> ATOM_SH;
    wire [12:0] src_m1   = (h16 | p16) ? channel_m1 >> SH16 : channel_m1 >> ATOM_SH;
    wire [13:0] surfaces = {1'b0, surf_m1} + 14'd1;
    wire [13:0] src_surf = {1'b0, src_m1} + 14'd1;
    wire [13:0] width    = {1'b0, width_m1} + 14'd1;
    wire [13:0] height   = {1'b0, height_m1} + 14'd1;

    // operand configuration, operand k (BS, BN, EW) at index k-1
    wire [3*2-1:0] use_v  = {rdma_cfg[`SDP_RDMA_ERDMA_DATA_USE], rdma_cfg[`SDP_RDMA_NRDMA_DATA_USE],
                             rdma_cfg[`SDP_RDMA_BRDMA_DATA_USE]};
    wire [2:0]     size_v = {rdma_cfg[`SDP_RDMA_ERDMA_DATA_SIZE], rdma_cfg[`SDP_RDMA_NRDMA_DATA_SIZE],
                             rdma_cfg[`SDP_RDMA_BRDMA_DATA_SIZE]};
    wire [2:0]     mode_v = {rdma_cfg[`SDP_RDMA_ERDMA_DATA_MODE], rdma_cfg[`SDP_RDMA_NRDMA_DATA_MODE],
                             rdma_cfg[`SDP_RDMA_BRDMA_DATA_MODE]};
    wire [N-1:0]   en_v   = {ew_en, bn_en, bs_en, mr_en};
    // each stream's memory; the router (rtl/dma/nvdla_axi_route.v) keeps the shared in-order ID in order
    wire [N-1:0]   ram_v  = {rdma_cfg[`SDP_RDMA_ERDMA_RAM_TYPE], rdma_cfg[`SDP_RDMA_NRDMA_RAM_TYPE],
                             rdma_cfg[`SDP_RDMA_BRDMA_RAM_TYPE], rdma_cfg[`SDP_RDMA_SRC_RAM_TYPE]};

    // per-stream walk: base, strides, beats per line, lines, surfaces
    wire [N*32-1:0] w_base, w_line, w_surf;
    wire [N*16-1:0] w_beats;
    wire [N*14-1:0] w_height, w_surfaces;

    // Input: a 1x1 cube is read packed (all surfaces back to back from the base) whatever its strides say.
    wire in_packed = width_m1 == 13'd0 && height_m1 == 13'd0;
    assign w_base[31:0]     = rdma_cfg[`SDP_RDMA_SRC_BASE_ADDR_LOW];
    assign w_line[31:0]     = rdma_cfg[`SDP_RDMA_SRC_LINE_STRIDE];
    assign w_surf[31:0]     = rdma_cfg[`SDP_RDMA_SRC_SURFACE_STRIDE];
    assign w_beats[15:0]    = in_packed ? {2'b0, src_surf} : {2'b0, width};
    assign w_height[13:0]   = in_packed ? 14'd1 : height;
    assign w_surfaces[13:0] = in_packed ? 14'd1 : src_surf;
    assign w_base[32 +: 96] = {rdma_cfg[`SDP_RDMA_EW_BASE_ADDR_LOW], rdma_cfg[`SDP_RDMA_BN_BASE_ADDR_LOW],
                               rdma_cfg[`SDP_RDMA_BS_BASE_ADDR_LOW]};
    assign w_line[32 +: 96] = {rdma_cfg[`SDP_RDMA_EW_LINE_STRIDE], rdma_cfg[`SDP_RDMA_BN_LINE_STRIDE],
                               rdma_cfg[`SDP_RDMA_BS_LINE_STRIDE]};
    assign w_surf[32 +: 96] = {rdma_cfg[`SDP_RDMA_EW_SURFACE_STRIDE], rdma_cfg[`SDP_RDMA_BN_SURFACE_STRIDE],
                               rdma_cfg[`SDP_RDMA_BS_SURFACE_STRIDE]};

    genvar g;
    generate
        for (g = 1; g < N; g = g + 1) begin : g_geom
            // log2(bytes per element): +1 for both components, +1 for two-byte values
            wire [1:0] sh8     = {1'b0, use_v[2*(g-1) +: 2] == 2'd2} + {1'b0, size_v[g-1]};
            // INT16 processing: half the bytes per atom (one-byte values: two atoms a beat, nvdla_sdp_opnd)
            wire [1:0] sh      = (h16 && sh8 != 2'd0) ? sh8 - 2'd1 : sh8;
            wire       halves  = h16 && sh8 == 2'd0;
            // per element: a cube of bpe-byte elements; per kernel, and per element of a 1x1 cube (packed as
            // the input is: nvdlav1's operand RDMAs end a 1x1 cube at its first request, cfg_mode_1x1_pack),
            // one block of S atoms from the base
            wire       per_elt = mode_v[g-1] & ~in_packed;
            wire [13:0] atoms  = per_elt ? width : surfaces;
            assign w_beats[16*g +: 16]    = halves ? {3'b0, atoms[13:1] + {12'd0, atoms[0]}} : {2'b0, atoms} << sh;
            assign w_height[14*g +: 14]   = per_elt ? height : 14'd1;
            assign w_surfaces[14*g +: 14] = per_elt ? surfaces : 14'd1;
        end
    endgenerate

    // ---- walkers and burst splitters --------------------------------------------------------------------
    wire [N-1:0]    walk_busy, cmd_valid, cmd_ready, req_valid, req_ready;
    wire [N*32-1:0] cmd_addr, req_addr;
    wire [N*16-1:0] cmd_beats;
    wire [N-1:0]    wk_valid, wk_ready;      // the plain walkers (stream 0: unless the pair walk runs)
    wire [N*32-1:0] wk_addr;
    wire [N*16-1:0] wk_beats;
    wire            pw_on = p16 & ~in_packed;   // the input walks in pairs of 16-bit surfaces
    wire            pw_valid, pw_busy;
    wire [31:0]     pw_addr;
    wire [15:0]     pw_beats;
    wire [N*9-1:0]  req_beats;

    generate
        for (g = 0; g < N; g = g + 1) begin : g_walk
            wire plain_busy;
            nvdla_cube_walker #(.ADDR_W(32), .LEN_W(16)) u_walk (
                .clk(clk), .rst_n(rst_n), .start(start & en_v[g] & ~(g == 0 && pw_on)),
                .base(w_base[32*g +: 32]), .line_stride(w_line[32*g +: 32]),
                .surface_stride(w_surf[32*g +: 32]), .width(w_beats[16*g +: 16]),
                .height(w_height[14*g +: 14]), .surfaces(w_surfaces[14*g +: 14]),
                .cmd_valid(wk_valid[g]), .cmd_ready(wk_ready[g]), .cmd_addr(wk_addr[32*g +: 32]),
                .cmd_beats(wk_beats[16*g +: 16]), .busy(plain_busy)
            );
            if (g == 0) begin : g_in_cmd
                // the input's commands: the pair walk's in the 16to8 mode, else the plain walker's
                assign cmd_valid[0]   = pw_on ? pw_valid : wk_valid[0];
                assign cmd_addr[31:0] = pw_on ? pw_addr : wk_addr[31:0];
                assign cmd_beats[15:0] = pw_on ? pw_beats : wk_beats[15:0];
                assign wk_ready[0]    = cmd_ready[0] & ~pw_on;
                assign walk_busy[0]   = plain_busy | pw_busy;
            end else begin : g_op_cmd
                assign cmd_valid[g]        = wk_valid[g];
                assign cmd_addr[32*g +: 32] = wk_addr[32*g +: 32];
                assign cmd_beats[16*g +: 16] = wk_beats[16*g +: 16];
                assign wk_ready[g]         = cmd_ready[g];
                assign walk_busy[g]        = plain_busy;
            end
            nvdla_dma_burst_split #(.ADDR_W(32), .BYTES(ATOM), .LEN_W(16), .MAX_BURST(MAX_BURST)) u_split (
                .clk(clk), .rst_n(rst_n),
                .cmd_valid(cmd_valid[g]), .cmd_ready(cmd_ready[g]), .cmd_addr(cmd_addr[32*g +: 32]),
                .cmd_beats(cmd_beats[16*g +: 16]),
                .burst_valid(req_valid[g]), .burst_ready(req_ready[g]), .burst_addr(req_addr[32*g +: 32]),
                .burst_beats(req_beats[9*g +: 9])
            );
        end
    endgenerate

    generate
        if (INT16 == 1) begin : g_pair_walk
            nvdla_sdp_pair_walk #(.ATOM_BYTES(ATOM), .LEN_W(16)) u_pair_walk (
                .clk(clk), .rst_n(rst_n), .start(start & pw_on & mr_en),
                .base(w_base[31:0]), .line_stride(w_line[31:0]), .surface_stride(w_surf[31:0]),
                .width(width), .height(height), .surfaces(surfaces), .odd(~src_m1[0]),
                .cmd_valid(pw_valid), .cmd_ready(cmd_ready[0] & pw_on), .cmd_addr(pw_addr),
                .cmd_beats(pw_beats), .busy(pw_busy)
            );
        end else begin : g_no_pair_walk
            assign pw_valid = 1'b0;
            assign pw_addr  = 32'd0;
            assign pw_beats = 16'd0;
            assign pw_busy  = 1'b0;
        end
    endgenerate

    // ---- arbiter, AXI read engine, steering -------------------------------------------------------------
    wire         rd_valid, rd_ready, rd_busy, arb_busy;
    wire [B-1:0] rd_data;
    wire [31:0]  bus_addr;
    wire [8:0]   bus_beats;
    wire         bus_valid, bus_ready, bus_ram_type;
    wire [N-1:0] fifo_push, fifo_in_ready, fifo_valid, fifo_take;

    nvdla_sdp_rdma_arb #(.N(N), .ADDR_W(32), .FIFO_DEPTH(FIFO_DEPTH), .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_arb (
        .clk(clk), .rst_n(rst_n),
        .req_valid(req_valid), .req_ready(req_ready), .req_addr(req_addr), .req_beats(req_beats),
        .req_ram_type(ram_v), .fifo_pop(fifo_take),
        .cmd_valid(bus_valid), .cmd_ready(bus_ready), .cmd_addr(bus_addr), .cmd_beats(bus_beats),
        .cmd_ram_type(bus_ram_type),
        .beat_valid(rd_valid), .beat_ready(rd_ready), .fifo_push(fifo_push), .fifo_ready(fifo_in_ready),
        .busy(arb_busy)
    );

    // Each command is one burst already (<= MAX_BURST beats, inside a 4 KiB page): the engine's own
    // splitter passes it through unchanged.
    nvdla_axi_rd #(.ADDR_W(32), .DATA_W(B), .LEN_W(16), .MAX_BURST(MAX_BURST),
                   .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_rd (
        .clk(clk), .rst_n(rst_n),
        .cmd_valid(bus_valid), .cmd_ready(bus_ready), .cmd_addr(bus_addr), .cmd_beats({7'd0, bus_beats}),
        .cmd_ram_type(bus_ram_type), .m_axi_aruser(m_axi_aruser), .m_axi_arvalid(m_axi_arvalid), .m_axi_arready(m_axi_arready), .m_axi_araddr(m_axi_araddr),
        .m_axi_arlen(m_axi_arlen), .m_axi_arsize(m_axi_arsize), .m_axi_arburst(m_axi_arburst),
        .m_axi_arid(m_axi_arid), .m_axi_rvalid(m_axi_rvalid), .m_axi_rready(m_axi_rready),
        .m_axi_rdata(m_axi_rdata), .m_axi_rresp(m_axi_rresp), .m_axi_rlast(m_axi_rlast),
        .out_valid(rd_valid), .out_ready(rd_ready), .out_data(rd_data), .busy(rd_busy)
    );

    // ---- stream FIFOs and operand unpackers -------------------------------------------------------------
    wire [N*B-1:0] fifo_data;
    wire [N-1:0]   fifo_ready;   // the consumer side of each FIFO

    generate
        for (g = 0; g < N; g = g + 1) begin : g_fifo
            nvdla_fifo #(.WIDTH(B), .DEPTH(FIFO_DEPTH)) u_fifo (
                .clk(clk), .rst_n(rst_n),
                .in_valid(fifo_push[g]), .in_ready(fifo_in_ready[g]), .in_data(rd_data),
                .out_valid(fifo_valid[g]), .out_ready(fifo_ready[g]), .out_data(fifo_data[B*g +: B])
            );
            assign fifo_take[g] = fifo_valid[g] & fifo_ready[g];
        end
    endgenerate

    assign in_valid      = fifo_valid[0];
    assign in_data       = fifo_data[B-1:0];
    assign fifo_ready[0] = in_ready;

    wire [2:0]           op_valid;
    wire [2:0]           op_ready = {ew_op_ready, bn_op_ready, bs_op_ready};
    wire [3*ATOM*32-1:0] op_data;
    wire [2:0]           opnd_busy;
    assign {ew_op_valid, bn_op_valid, bs_op_valid} = op_valid;
    assign {ew_op_data, bn_op_data, bs_op_data}    = op_data;

    generate
        for (g = 1; g < N; g = g + 1) begin : g_opnd
            nvdla_sdp_opnd #(.ATOM(ATOM), .INT16(INT16)) u_opnd (
                .clk(clk), .rst_n(rst_n), .start(start),
                .data_use(use_v[2*(g-1) +: 2]), .data_size(size_v[g-1]), .data_mode(mode_v[g-1]), .half(h16),
                .width_m1(width_m1), .height_m1(height_m1), .surf_m1(surf_m1),
                .in_valid(fifo_valid[g]), .in_ready(fifo_ready[g]), .in_data(fifo_data[B*g +: B]),
                .out_valid(op_valid[g-1]), .out_ready(op_ready[g-1]),
                .out_data(op_data[ATOM*32*(g-1) +: ATOM*32]), .busy(opnd_busy[g-1])
            );
        end
    endgenerate

    // ---- read stalls -------------------------------------------------------------------------------------
    // The engine's splitter takes a command only once the one before has gone out on AR, and every command
    // here is one burst: the burst on AR is always the one issued last, so its stream is that issue's.
    reg [N-1:0] ar_stream;
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n)                  ar_stream <= {N{1'b0}};
        else if (|(req_valid & req_ready)) ar_stream <= req_valid & req_ready;
    end
    assign ar_stall = (m_axi_arvalid & ~m_axi_arready) ? ar_stream : {N{1'b0}};

    assign busy = |walk_busy | ~&cmd_ready | rd_busy | arb_busy | |fifo_valid | |opnd_busy;
endmodule
