// SDP hardware layer: read DMA (SDP_RDMA: input cube and BS/BN/EW operands, rtl/sdp/nvdla_sdp_rdma.v) ->
// datapath core (BS -> BN -> EW with the LUT -> output convertor, rtl/sdp/nvdla_sdp_core.v) -> write DMA
// (SDP destination), on one AXI4 master (reads from the RDMA, writes from the write DMA: the channels are
// independent, so no arbitration is needed inside the unit).
//
// Every stream is in cube order: surface, line, column, one atom per beat. Where the output goes:
//   - memory (OUTPUT_DST = MEM, EW not in EQL mode): written with the destination strides; a 1x1 cube is
//     written packed (surfaces back to back), as the model and NVIDIA's C model do;
//   - PDP (OUTPUT_DST = PDP): handed on the `fly_*` stream, which the PDP consumes in the same order;
//   - nowhere (EQL mode): the compare results are drained; D_STATUS.STATUS_UNEQUAL reports any difference.
// `done` pulses once every output atom has left the core and, when writing, every write has its AXI
// response, so an interrupt raised on `done` is never ahead of the memory.
//
// The geometry comes from SDP_RDMA's D_DATA_CUBE_* (the SDP copy must agree: the driver checks); one geometry
// for the read streams, the core and the write side means disagreeing registers can give wrong data but never
// a stalled pipeline. An operand stream is used when its RDMA is enabled and an active ALU or MUL of its
// block takes its operand from memory: the RDMA and the core see the same flag, so no register value leaves
// one waiting for the other. FLYING_MODE ON (CONV = 1, the configuration has the convolution pipeline): the
// input comes on the fly from CACC (`cc_*`, 32-bit lanes, cube order) instead of memory, the geometry from
// SDP's own D_DATA_CUBE_* (SDP_RDMA's are not written then), and the layer needs SDP_RDMA's OP_EN only if
// an operand stream is used. SDP takes exactly its cube's atoms: CACC beats beyond them are drained until
// the matching convolution layer is done (`cc_done`), and if that layer ends with fewer, SDP goes on with
// zero atoms; either way both layers complete. With CONV = 0 the input is read from memory whatever
// FLYING_MODE says, and the driver layer rejects such programs.
// The configuration must hold from start to done, as the register groups guarantee.
//
// INT16 (parameter INT16 = 1, the configuration has INT16; models/sdp/model.py): SDP's D_DATA_FORMAT and SDP_RDMA's
// IN_PRECISION select, for the read side, the core and the write side alike,
//   - PROC_PRECISION INT16: ATOM/2 two-byte elements per atom in and out (half the lanes compute), two-byte
//     operands at half the beats per atom; the output is INT16 (OUT_PRECISION INT8 with it, which NVIDIA's
//     RTL never completes and the driver refuses, writes INT16 too);
//   - PROC_PRECISION INT8 with SDP_RDMA IN_PRECISION INT16 (the 16to8 mode): two 16-bit memory surfaces
//     joined per processing atom (nvdla_sdp_pair_walk, nvdla_sdp_join16), INT8 processing and output;
//   - PROC_PRECISION INT8 with OUT_PRECISION INT16: each processing atom written as two 16-bit memory atoms
//     (nvdla_sdp_split16, nvdla_sdp_pair_walk on the write side).
//   - PROC_PRECISION INT16 with OUT_PRECISION FP16 (FP16 = 1): INT16 processing, its 17-bit results as FP16.
// With INT16 = 0 every layer is INT8 and none of this is built: never a hang either way.
// LANES (issue 29: the configuration's BS/BN throughput, INT8-only configurations): the core computes LANES
// elements a cycle behind gearboxes (rtl/sdp/nvdla_sdp_lanes.v), the DMA side still an atom a beat.
// FP16 (parameter FP16 = 1, needs INT16 = 1; models/sdp/fp16.py): PROC_PRECISION FP16 has INT16
// processing's geometry (ATOM/2 two-byte elements and operands) and the core's FP16 path, output FP16 or
// (OUT_PRECISION INT16) INT16; SDP_RDMA's D_STATUS_NAN_INPUT_NUM / INF_INPUT_NUM count the NaN / infinite
// FP16 lanes of every input atom read (channel padding included) while its PERF_NAN_INF_COUNT_EN is set
// (an FP16 layer with it clear, or another layer, keeps them). The EW LUT computes FP16 too (nvdla_lut's
// FP16 path). With FP16 = 0, PROC_PRECISION FP16 computes INT8.
`include "nvdla_sdp_fields.vh"
`include "nvdla_sdp_rdma_fields.vh"
module nvdla_sdp #(
    parameter ATOM            = 8,     // int8 lanes per atom = bytes per 64-bit beat
    parameter MAX_BURST       = 16,
    parameter MAX_OUTSTANDING = 8,
    parameter FIFO_DEPTH      = 32,    // beats buffered per read stream
    parameter EW              = 1,     // 0: no EW (Y) block: bypassed whatever EW_BYPASS says, ERDMA unused
    parameter LUT             = 1,     // 0: no LUT: bypassed whatever EW_LUT_BYPASS says, no table RAM
    parameter INT16           = 0,     // 1: INT16 layers (see above); 0: their registers run as INT8
    parameter FP16            = 0,     // 1: FP16 layers (see above; needs INT16 = 1)
    parameter CONV            = 0,     // 1: FLYING_MODE takes the input from CACC (see above)
    parameter LANES           = ATOM,  // the core's lanes (BS/BN throughput; gearboxes to the atom when fewer)
    parameter LUT_LANES       = LANES  // the LUT's lanes (EW throughput; a gearbox to the core's when fewer)
) (
    input  wire              clk,
    input  wire              rst_n,
    input  wire              op_en,
    input  wire              rdma_op_en,   // SDP_RDMA's OP_EN
    // on-the-fly input from CACC (CONV = 1), and CACC's layer-done pulse
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire              cc_valid,
    output wire              cc_ready,
    input  wire [ATOM*32-1:0] cc_data,
    input  wire              cc_done,
    /* verilator lint_on UNUSEDSIGNAL */
    output wire              done,
    output wire              busy,
    output wire              lut_busy,  // the LUT tables' clear sweep after reset: hold LUT accesses off
    // register bundles (rtl/gen/nvdla_sdp_fields.vh, nvdla_sdp_rdma_fields.vh): SDP's datapath, LUT and
    // destination; SDP_RDMA's cube (value-minus-one encodings), source and operand DMAs
    /* verilator lint_off UNUSEDSIGNAL */  // each block reads its own fields of the bundle
    input  wire [`SDP_CFG_W-1:0]      cfg,
    input  wire [`SDP_RDMA_CFG_W-1:0] rdma_cfg,
    /* verilator lint_on UNUSEDSIGNAL */
    // statistics and status of the last layer (hold from done to the next start)
    output wire [`SDP_STAT_W-1:0]      stat,
    output wire [`SDP_RDMA_STAT_W-1:0] rdma_stat,
    // output on the fly to PDP (OUTPUT_DST = PDP), cube order
    output wire              fly_valid,
    input  wire              fly_ready,
    output wire [ATOM*8-1:0] fly_data,
    // AXI4 master, 64-bit data, 32-bit addresses
    output wire              m_axi_arvalid,
    input  wire              m_axi_arready,
    output wire [31:0]       m_axi_araddr,
    output wire [7:0]        m_axi_arlen,
    output wire [2:0]        m_axi_arsize,
    output wire [1:0]        m_axi_arburst,
    output wire [3:0]        m_axi_arid,
    output wire              m_axi_aruser,   // the burst's RAM type (NVDLA RAM_TYPE: 1 MC, 0 CV), for the router
    input  wire              m_axi_rvalid,
    output wire              m_axi_rready,
    input  wire [ATOM*8-1:0] m_axi_rdata,
    input  wire [1:0]        m_axi_rresp,
    input  wire              m_axi_rlast,
    output wire              m_axi_awvalid,
    input  wire              m_axi_awready,
    output wire [31:0]       m_axi_awaddr,
    output wire [7:0]        m_axi_awlen,
    output wire [2:0]        m_axi_awsize,
    output wire [1:0]        m_axi_awburst,
    output wire [3:0]        m_axi_awid,
    output wire              m_axi_awuser,   // the burst's RAM type (NVDLA RAM_TYPE: 1 MC, 0 CV), for the router
    output wire              m_axi_wvalid,
    input  wire              m_axi_wready,
    output wire [ATOM*8-1:0] m_axi_wdata,
    output wire [ATOM-1:0]   m_axi_wstrb,
    output wire              m_axi_wlast,
    input  wire              m_axi_bvalid,
    output wire              m_axi_bready,
    input  wire [1:0]        m_axi_bresp
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (ATOM < 1 || (ATOM & (ATOM - 1)) != 0 || FIFO_DEPTH < MAX_BURST || (FIFO_DEPTH & (FIFO_DEPTH - 1)) != 0
            || (EW != 0 && EW != 1) || (LUT != 0 && LUT != 1) || (INT16 != 0 && INT16 != 1)
            || (INT16 == 1 && ATOM < 2) || (FP16 != 0 && FP16 != 1) || (FP16 == 1 && INT16 != 1)
            || (CONV != 0 && CONV != 1)) begin
            $display("ERROR: nvdla_sdp %m: ATOM a power of two (BYTE_SHIFT), FIFO_DEPTH a power of two >= MAX_BURST (a burst reserves all its beats), EW and LUT 0 or 1, INT16 0 or 1 and with INT16 ATOM >= 2, FP16 0 or 1 and only with INT16, CONV 0 or 1");
            $finish;
        end
    end

    // The configuration's SDP (NVIDIA's SDP_EW_ENABLE / SDP_LUT_ENABLE): a block it lacks is bypassed whatever
    // the registers say, as NVIDIA's core ties cfg_ew_en low then. Constant bits: synthesis removes the
    // block's logic, and the operand stream and EQL mode (an EW ALU mode) can never be selected.
    reg [`SDP_CFG_W-1:0] sdp_cfg;
    always @(*) begin
        sdp_cfg = cfg;
        if (EW == 0)  sdp_cfg[`SDP_EW_BYPASS]     = 1'b1;
        if (LUT == 0) sdp_cfg[`SDP_EW_LUT_BYPASS] = 1'b1;
    end
    localparam DATA_W     = ATOM * 8;
    localparam LEN_W      = 16;
    localparam BYTE_SHIFT = $clog2(ATOM);
    localparam SH16       = (BYTE_SHIFT > 0) ? BYTE_SHIFT - 1 : 0;   // surfaces of ATOM/2 two-byte lanes
    localparam CW         = (INT16 == 1) ? 2 * DATA_W : DATA_W;      // the core's data ports

    // ---- precision modes (one set of flags for the read side, the core and the write side) --------------
    wire fp16   = (FP16 == 1) && sdp_cfg[`SDP_PROC_PRECISION] == 2'd2;
    wire proc16 = (INT16 == 1) && (sdp_cfg[`SDP_PROC_PRECISION] == 2'd1 || fp16);   // two-byte elements
    wire out_fp = (FP16 == 1) && !fp16 && sdp_cfg[`SDP_OUT_PRECISION] == 2'd2;      // INT16 -> FP16
    wire out_int = sdp_cfg[`SDP_OUT_PRECISION] == 2'd1;                              // FP16 -> INT16
    wire out16  = (INT16 == 1) && (proc16 || sdp_cfg[`SDP_OUT_PRECISION] == 2'd1);
    wire pair   = (INT16 == 1) && !proc16 && rdma_cfg[`SDP_RDMA_IN_PRECISION] == 2'd1;   // 16to8
    wire split  = out16 & ~proc16;                                                        // INT8 -> INT16
    localparam EQL        = 2'd3;

    // ---- which operand streams this layer uses (one flag for the RDMA and the core) --------------------
    function used(input bypass, input alu_bypass, input alu_src, input mul_bypass, input mul_src,
                  input disable_dma);
        used = ~disable_dma & ~bypass & ((~alu_bypass & alu_src) | (~mul_bypass & mul_src));
    endfunction
    wire bs_op_en = used(sdp_cfg[`SDP_BS_BYPASS], sdp_cfg[`SDP_BS_ALU_BYPASS], sdp_cfg[`SDP_BS_ALU_SRC],
                         sdp_cfg[`SDP_BS_MUL_BYPASS], sdp_cfg[`SDP_BS_MUL_SRC], rdma_cfg[`SDP_RDMA_BRDMA_DISABLE]);
    wire bn_op_en = used(sdp_cfg[`SDP_BN_BYPASS], sdp_cfg[`SDP_BN_ALU_BYPASS], sdp_cfg[`SDP_BN_ALU_SRC],
                         sdp_cfg[`SDP_BN_MUL_BYPASS], sdp_cfg[`SDP_BN_MUL_SRC], rdma_cfg[`SDP_RDMA_NRDMA_DISABLE]);
    wire ew_op_en = used(sdp_cfg[`SDP_EW_BYPASS], sdp_cfg[`SDP_EW_ALU_BYPASS], sdp_cfg[`SDP_EW_ALU_SRC],
                         sdp_cfg[`SDP_EW_MUL_BYPASS], sdp_cfg[`SDP_EW_MUL_SRC], rdma_cfg[`SDP_RDMA_ERDMA_DISABLE]);

    wire eql        = ~sdp_cfg[`SDP_EW_BYPASS] & ~sdp_cfg[`SDP_EW_ALU_BYPASS] & (sdp_cfg[`SDP_EW_ALU_ALGO] == EQL);
    wire output_dst = sdp_cfg[`SDP_OUTPUT_DST];   // 0 memory, 1 PDP
    wire to_pdp     = output_dst & ~eql;      // EQL mode outputs nothing, whatever OUTPUT_DST says
    wire to_mem     = ~output_dst & ~eql;

    // input on the fly from CACC (CONV = 1 and FLYING_MODE ON)
    wire fly_in = (CONV == 1) & sdp_cfg[`SDP_FLYING_MODE];
    // one geometry for the read streams, the core and the write side: SDP_RDMA's, or on the fly SDP's own
    wire [12:0] width_m1   = fly_in ? sdp_cfg[`SDP_WIDTH] : rdma_cfg[`SDP_RDMA_WIDTH];
    wire [12:0] height_m1  = fly_in ? sdp_cfg[`SDP_HEIGHT] : rdma_cfg[`SDP_RDMA_HEIGHT];
    /* verilator lint_off UNUSEDSIGNAL */  // the channel bits inside an atom do not count
    wire [12:0] channel_m1 = fly_in ? sdp_cfg[`SDP_CHANNEL] : rdma_cfg[`SDP_RDMA_CHANNEL];
    /* verilator lint_on UNUSEDSIGNAL */

    // ---- layer control (rtl/common/nvdla_layer_ctrl.v: start, running, sticky finished flag, done) --------
    wire running;
    wire out_finished;     // every output atom left the core
    wire start;
    reg  write_layer;      // this layer writes memory (latched at start)
    reg  [39:0] atoms_left;
    wire wr_idle, core_busy, rd_busy;
    // Once the write DMA has taken every output atom it has taken every command too (one command per line of
    // atoms), so its idle (every burst answered) ends a writing layer.
    wire fly_layer, cc_mine_done;
    wire finish = out_finished & ~rd_busy & ~core_busy & (~write_layer | wr_idle) & (~fly_layer | cc_mine_done);

    // processing surfaces (INT16: ATOM/2 channels each) and the 16-bit memory surfaces of a 16to8 input or
    // an INT8 -> INT16 output; the shifts keep the width for every ATOM
    wire [12:0] channel_surface = proc16 ? channel_m1 >> SH16 : channel_m1 >> BYTE_SHIFT;
    wire [12:0] surf16_m1 = channel_m1 >> SH16;
    wire [13:0] surfaces = {1'b0, channel_surface} + 14'd1;
    wire [13:0] out_surfaces = split ? {1'b0, surf16_m1} + 14'd1 : surfaces;
    /* verilator lint_off UNUSEDSIGNAL */  // INT16 = 1 only
    wire        odd16 = ~surf16_m1[0];   // an odd count of 16-bit surfaces: the last pair has one
    /* verilator lint_on UNUSEDSIGNAL */
    wire [26:0] plane = ({13'd0, width_m1} + 27'd1) * ({13'd0, height_m1} + 27'd1);
    wire [39:0] total_atoms = {13'd0, plane} * {26'd0, surfaces};

    wire              core_valid, core_ready;
    wire [CW-1:0]     core_data;
    wire              core_fire = core_valid & core_ready;
    wire              last_atom = core_fire & (atoms_left == 40'd1);

    // SDP_RDMA takes part when it reads something: always from memory, on the fly only for operands
    wire layer_en = op_en & (rdma_op_en | (fly_in & ~bs_op_en & ~bn_op_en & ~ew_op_en));
    nvdla_layer_ctrl #(.N_FLAGS(1)) u_ctrl (
        .clk(clk), .rst_n(rst_n), .op_en(layer_en),
        .set(last_atom), .finish(finish),
        .start(start), .running(running), .finished(out_finished), .done(done)
    );

    // output atoms still to leave the core, and whether this layer writes memory, latched at start
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            write_layer <= 1'b0;
            atoms_left  <= 40'd0;
        end else if (start) begin
            write_layer <= to_mem;
            atoms_left  <= total_atoms;
        end else if (core_fire) begin
            atoms_left  <= atoms_left - 40'd1;
        end
    end
    assign busy = running | core_busy | rd_busy;

    // ---- read side --------------------------------------------------------------------------------------
    wire              in_valid, in_ready;
    wire [DATA_W-1:0] in_data;
    wire              cin_valid, cin_ready;    // the core's input (16to8: two memory atoms joined)
    wire [ATOM*32-1:0] cc_word;                // on the fly: CACC's beat (zeros when padding a short layer)
    wire [CW-1:0]     cin_data;
    wire              bs_valid, bs_ready, bn_valid, bn_ready, ew_valid, ew_ready;
    wire [ATOM*32-1:0] bs_data, bn_data, ew_data;
    wire [3:0]         ar_stall;    // per read stream: its burst waits on AR (statistics below)
    /* verilator lint_off UNUSEDSIGNAL */  // the core's write stall slice (0) is replaced (statistics below)
    wire [`SDP_STAT_W-1:0] core_stat;
    /* verilator lint_on UNUSEDSIGNAL */

    nvdla_sdp_rdma #(.ATOM(ATOM), .MAX_BURST(MAX_BURST), .MAX_OUTSTANDING(MAX_OUTSTANDING),
                     .FIFO_DEPTH(FIFO_DEPTH), .INT16(INT16)) u_rdma (
        .clk(clk), .rst_n(rst_n), .start(start), .busy(rd_busy),
        .rdma_cfg(rdma_cfg), .bs_en(bs_op_en), .bn_en(bn_op_en), .ew_en(ew_op_en), .mr_en(~fly_in),
        .half(proc16), .pair(pair),
        .m_axi_arvalid(m_axi_arvalid), .m_axi_arready(m_axi_arready), .m_axi_araddr(m_axi_araddr),
        .m_axi_arlen(m_axi_arlen), .m_axi_arsize(m_axi_arsize), .m_axi_arburst(m_axi_arburst),
        .m_axi_arid(m_axi_arid), .m_axi_aruser(m_axi_aruser), .m_axi_rvalid(m_axi_rvalid),
        .m_axi_rready(m_axi_rready), .m_axi_rdata(m_axi_rdata), .m_axi_rresp(m_axi_rresp),
        .m_axi_rlast(m_axi_rlast), .in_valid(in_valid), .in_ready(in_ready), .in_data(in_data),
        .bs_op_valid(bs_valid), .bs_op_ready(bs_ready), .bs_op_data(bs_data),
        .bn_op_valid(bn_valid), .bn_op_ready(bn_ready), .bn_op_data(bn_data),
        .ew_op_valid(ew_valid), .ew_op_ready(ew_ready), .ew_op_data(ew_data), .ar_stall(ar_stall)
    );

    generate
        if (INT16 == 1) begin : g_join
            nvdla_sdp_join16 #(.B(DATA_W)) u_join (
                .clk(clk), .rst_n(rst_n), .start(start), .pair(pair), .odd(odd16), .atoms(total_atoms),
                .plane(plane), .in_valid(in_valid), .in_ready(in_ready), .in_data(in_data),
                .out_valid(cin_valid), .out_ready(cin_ready), .out_data(cin_data)
            );
        end else begin : g_no_join
            assign cin_valid = in_valid;
            assign in_ready  = cin_ready;
            assign cin_data  = in_data;
        end
    endgenerate

    // ---- datapath ---------------------------------------------------------------------------------------
    // ---- on-the-fly input (CONV = 1): exactly the cube's atoms from CACC; beats beyond them drained until the
    // matching convolution layer is done (layers are paired in order: the k-th flying layer takes the k-th
    // convolution layer's output), zero atoms if that layer ended with fewer
    wire        core_in_valid, core_in_ready;
    wire [CW-1:0] core_in_data;
    wire        core_in32;
    generate
        if (CONV == 1) begin : g_fly_in
            reg        fly_q;
            reg [39:0] in_left;          // atoms SDP still takes
            reg [7:0]  conv_cnt, fly_cnt; // convolution layers done, flying layers started
            /* verilator lint_off UNUSEDSIGNAL */  // its sign: the convolution layer is behind
            wire [7:0] ahead = conv_cnt - fly_cnt;
            /* verilator lint_on UNUSEDSIGNAL */
            assign cc_mine_done = ~ahead[7];
            wire need = running & fly_q & (in_left != 40'd0);
            wire fill = need & ~cc_valid & cc_mine_done;    // the convolution layer ended short
            wire take = core_in_valid & core_in_ready & fly_q;
            always @(posedge clk or negedge rst_n) begin
                if (!rst_n) begin
                    fly_q <= 1'b0; in_left <= 40'd0; conv_cnt <= 8'd0; fly_cnt <= 8'd0;
                end else begin
                    if (cc_done) conv_cnt <= conv_cnt + 8'd1;
                    if (start) begin
                        fly_q <= fly_in;
                        in_left <= total_atoms;
                        if (fly_in) fly_cnt <= fly_cnt + 8'd1;
                    end else if (take) begin
                        in_left <= in_left - 40'd1;
                    end
                end
            end
            assign fly_layer     = fly_q;
            assign core_in_valid = fly_q ? (need & (cc_valid | fill)) : cin_valid;
            assign cin_ready     = ~fly_q & core_in_ready;
            assign cc_ready      = need ? core_in_ready : (running & fly_q & ~cc_mine_done);
            assign core_in_data  = cin_data;
            assign core_in32     = fly_q;
            assign cc_word       = cc_valid ? cc_data : {ATOM*32{1'b0}};
        end else begin : g_no_fly_in
            assign fly_layer     = 1'b0;
            assign cc_mine_done  = 1'b1;
            assign core_in_valid = cin_valid;
            assign cin_ready     = core_in_ready;
            assign core_in_data  = cin_data;
            assign core_in32     = 1'b0;
            assign cc_ready      = 1'b0;
            assign cc_word       = {ATOM*32{1'b0}};
        end
    endgenerate

    nvdla_sdp_lanes #(.ATOM(ATOM), .LANES(LANES), .LUT(LUT), .INT16(INT16), .FP16(FP16), .CONV(CONV),
                      .LUT_LANES(LUT_LANES)) u_core (
        .clk(clk), .rst_n(rst_n), .start(start), .busy(core_busy), .lut_busy(lut_busy), .cfg(sdp_cfg),
        .in16(proc16 | pair), .out16(out16), .half(proc16), .fp16(fp16), .out_int(out_int), .out_fp(out_fp),
        .bs_op_en(bs_op_en), .bn_op_en(bn_op_en), .ew_op_en(ew_op_en),
        .in_valid(core_in_valid), .in_ready(core_in_ready), .in_data(core_in_data), .in32(core_in32),
        .in32_data(cc_word),
        .bs_op_valid(bs_valid), .bs_op_ready(bs_ready), .bs_op_data(bs_data),
        .bn_op_valid(bn_valid), .bn_op_ready(bn_ready), .bn_op_data(bn_data),
        .ew_op_valid(ew_valid), .ew_op_ready(ew_ready), .ew_op_data(ew_data),
        .out_valid(core_valid), .out_ready(core_ready), .out_data(core_data), .stat(core_stat)
    );

    // ---- statistics -------------------------------------------------------------------------------------
    // DMA stall counts (docs/perf_counters.md), each as NVIDIA's RTL counts it: a read stall is a cycle the AR
    // channel shows a burst of that stream and the memory side has not taken it, a write stall one in which
    // the AW request or a W beat waits for its ready. MRDMA (PERF_DMA_EN of SDP_RDMA) restarts at every
    // layer; the operand DMAs (the same enable, while their *_DISABLE is 0: NVIDIA's op_en of that DMA) and
    // WDMA (SDP's PERF_DMA_EN) restart only when enabled, so a disabled one keeps the count it had.
    wire        rd_perf = rdma_cfg[`SDP_RDMA_PERF_DMA_EN];
    wire [3:0]  rd_en = {rd_perf & ~rdma_cfg[`SDP_RDMA_ERDMA_DISABLE], rd_perf & ~rdma_cfg[`SDP_RDMA_NRDMA_DISABLE],
                         rd_perf & ~rdma_cfg[`SDP_RDMA_BRDMA_DISABLE], rd_perf};
    wire [4*32-1:0] rd_stall_count;
    wire [31:0]     wr_stall_count;
    genvar k;
    generate
        for (k = 0; k < 4; k = k + 1) begin : g_rd_stall
            nvdla_perf_counter #(.CLEAR(k == 0 ? 2 : 1)) u_cnt (
                .clk(clk), .rst_n(rst_n), .start(start), .en(rd_en[k]), .inc(ar_stall[k]),
                .count(rd_stall_count[32*k +: 32])
            );
        end
    endgenerate
    nvdla_perf_counter #(.CLEAR(1)) u_wr_stall (
        .clk(clk), .rst_n(rst_n), .start(start), .en(sdp_cfg[`SDP_PERF_DMA_EN]),
        .inc((m_axi_awvalid & ~m_axi_awready) | (m_axi_wvalid & ~m_axi_wready)), .count(wr_stall_count)
    );

    // SDP_RDMA's NaN / infinity input counts (FP16 = 1: FP16 layers, see above; INT data have neither)
    generate
        if (FP16 == 1) begin : g_nan_inf
            wire             nan_inf_en = fp16 & rdma_cfg[`SDP_RDMA_PERF_NAN_INF_COUNT_EN];
            reg [ATOM/2-1:0] in_nan, in_inf;
            integer h;
            always @(*) begin
                for (h = 0; h < ATOM / 2; h = h + 1) begin
                    in_nan[h] = (in_data[h*16 + 10 +: 5] == 5'h1F) && (in_data[h*16 +: 10] != 10'd0);
                    in_inf[h] = (in_data[h*16 + 10 +: 5] == 5'h1F) && (in_data[h*16 +: 10] == 10'd0);
                end
            end
            nvdla_sat_counter #(.LANES(ATOM/2), .CNT_W(32)) u_nan_in (
                .clk(clk), .rst_n(rst_n), .clr(start & nan_inf_en), .inc_valid(in_valid & in_ready & nan_inf_en),
                .inc_mask(in_nan), .count(rdma_stat[`SDP_RDMA_STATUS_NAN_INPUT_NUM])
            );
            nvdla_sat_counter #(.LANES(ATOM/2), .CNT_W(32)) u_inf_in (
                .clk(clk), .rst_n(rst_n), .clr(start & nan_inf_en), .inc_valid(in_valid & in_ready & nan_inf_en),
                .inc_mask(in_inf), .count(rdma_stat[`SDP_RDMA_STATUS_INF_INPUT_NUM])
            );
        end else begin : g_no_nan_inf
            assign rdma_stat[`SDP_RDMA_STATUS_NAN_INPUT_NUM] = 32'd0;
            assign rdma_stat[`SDP_RDMA_STATUS_INF_INPUT_NUM] = 32'd0;
        end
    endgenerate
    assign rdma_stat[`SDP_RDMA_MRDMA_STALL]          = rd_stall_count[31:0];
    assign rdma_stat[`SDP_RDMA_BRDMA_STALL]          = rd_stall_count[63:32];
    assign rdma_stat[`SDP_RDMA_NRDMA_STALL]          = rd_stall_count[95:64];
    assign rdma_stat[`SDP_RDMA_ERDMA_STALL]          = rd_stall_count[127:96];
    // SDP's: the core's, with the write stall count in the (unused) slice the core leaves 0
    reg  [`SDP_STAT_W-1:0] stat_r;
    always @(*) begin
        stat_r = core_stat;
        stat_r[`SDP_WDMA_STALL] = wr_stall_count;
    end
    assign stat = stat_r;

    // ---- output routing: memory, PDP, or drained (EQL). Selected by flags latched at start. --------------
    reg route_pdp;
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n)     route_pdp <= 1'b0;
        else if (start) route_pdp <= to_pdp;
    end
    // INT16 = 1: the core's 16-bit lanes become memory atoms: int8 results packed a byte a lane, INT16
    // processing's low ATOM/2 lanes as one atom, INT8 -> INT16's ATOM lanes as two (nvdla_sdp_split16)
    wire              beat_valid, beat_ready;
    wire [DATA_W-1:0] beat_data;
    generate
        if (INT16 == 1) begin : g_split
            reg [CW-1:0] packed8;
            integer b;
            always @(*) begin
                packed8 = core_data;
                for (b = 0; b < ATOM; b = b + 1) packed8[8*b +: 8] = core_data[16*b +: 8];
            end
            nvdla_sdp_split16 #(.B(DATA_W)) u_split (
                .clk(clk), .rst_n(rst_n), .start(start), .split(split), .odd(odd16), .atoms(total_atoms),
                .plane(plane), .in_valid(core_valid), .in_ready(core_ready),
                .in_data(out16 ? core_data : packed8),
                .out_valid(beat_valid), .out_ready(beat_ready), .out_data(beat_data)
            );
        end else begin : g_no_split
            assign beat_valid = core_valid;
            assign core_ready = beat_ready;
            assign beat_data  = core_data;
        end
    endgenerate
    wire wr_valid, wr_ready;
    assign wr_valid   = beat_valid & write_layer;
    assign fly_valid  = beat_valid & route_pdp;
    assign fly_data   = beat_data;
    assign beat_ready = write_layer ? wr_ready : (route_pdp ? fly_ready : 1'b1);

    // ---- write side: destination commands (cube order, one per line) + output atoms -> AXI writes --------
    wire             wr_cmd_valid, wr_cmd_ready;
    wire [31:0]      wr_cmd_addr;
    wire [LEN_W-1:0] wr_cmd_beats;
    wire             packed_cube = (width_m1 == 13'd0) & (height_m1 == 13'd0);
    wire             wr_start = start & to_mem;
    /* verilator lint_off UNUSEDSIGNAL */
    wire             wr_seq_busy, pw_busy;   // implied by the atom count (see finish)
    /* verilator lint_on UNUSEDSIGNAL */
    // INT8 -> INT16 (not packed): one command per memory atom, in the core's order (nvdla_sdp_pair_walk)
    wire             pw_on = split & ~packed_cube;
    wire             wk_valid, pw_valid;
    wire [31:0]      wk_addr, pw_addr;
    wire [LEN_W-1:0] wk_beats, pw_beats;
    assign wr_cmd_valid = pw_on ? pw_valid : wk_valid;
    assign wr_cmd_addr  = pw_on ? pw_addr : wk_addr;
    assign wr_cmd_beats = pw_on ? pw_beats : wk_beats;
    generate
        if (INT16 == 1) begin : g_pair_walk
            nvdla_sdp_pair_walk #(.ATOM_BYTES(ATOM), .LEN_W(LEN_W)) u_pair_walk (
                .clk(clk), .rst_n(rst_n), .start(wr_start & pw_on),
                .base(sdp_cfg[`SDP_DST_BASE_ADDR_LOW]), .line_stride(sdp_cfg[`SDP_DST_LINE_STRIDE]),
                .surface_stride(sdp_cfg[`SDP_DST_SURFACE_STRIDE]),
                .width({1'b0, width_m1} + 14'd1), .height({1'b0, height_m1} + 14'd1), .surfaces(surfaces),
                .odd(odd16), .cmd_valid(pw_valid), .cmd_ready(wr_cmd_ready & pw_on), .cmd_addr(pw_addr),
                .cmd_beats(pw_beats), .busy(pw_busy)
            );
        end else begin : g_no_pair_walk
            assign pw_valid = 1'b0;
            assign pw_addr  = 32'd0;
            assign pw_beats = {LEN_W{1'b0}};
            assign pw_busy  = 1'b0;
        end
    endgenerate

    nvdla_cube_walker #(.ADDR_W(32), .LEN_W(LEN_W)) u_wr_walk (
        .clk(clk), .rst_n(rst_n), .start(wr_start & ~pw_on),
        .base(sdp_cfg[`SDP_DST_BASE_ADDR_LOW]),
        .line_stride(sdp_cfg[`SDP_DST_LINE_STRIDE]),
        .surface_stride(sdp_cfg[`SDP_DST_SURFACE_STRIDE]),
        // a 1x1 cube is one line of all its surfaces, as the read DMA reads a 1x1 input
        .width(packed_cube ? {{(LEN_W-14){1'b0}}, out_surfaces}
                           : {{(LEN_W-13){1'b0}}, width_m1} + {{(LEN_W-1){1'b0}}, 1'b1}),
        .height(packed_cube ? 14'd1 : {1'b0, height_m1} + 14'd1),
        .surfaces(packed_cube ? 14'd1 : out_surfaces),
        .cmd_valid(wk_valid), .cmd_ready(wr_cmd_ready & ~pw_on), .cmd_addr(wk_addr), .cmd_beats(wk_beats),
        .busy(wr_seq_busy)
    );

    nvdla_axi_wr #(.ADDR_W(32), .DATA_W(DATA_W), .LEN_W(LEN_W), .MAX_BURST(MAX_BURST),
                   .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_axi_wr (
        .clk(clk), .rst_n(rst_n),
        .cmd_valid(wr_cmd_valid), .cmd_ready(wr_cmd_ready), .cmd_addr(wr_cmd_addr), .cmd_beats(wr_cmd_beats),
        .cmd_ram_type(sdp_cfg[`SDP_DST_RAM_TYPE]), .m_axi_awuser(m_axi_awuser),
        .in_valid(wr_valid), .in_ready(wr_ready), .in_data(beat_data),
        .m_axi_awvalid(m_axi_awvalid), .m_axi_awready(m_axi_awready), .m_axi_awaddr(m_axi_awaddr),
        .m_axi_awlen(m_axi_awlen), .m_axi_awsize(m_axi_awsize), .m_axi_awburst(m_axi_awburst),
        .m_axi_awid(m_axi_awid), .m_axi_wvalid(m_axi_wvalid), .m_axi_wready(m_axi_wready),
        .m_axi_wdata(m_axi_wdata), .m_axi_wstrb(m_axi_wstrb), .m_axi_wlast(m_axi_wlast),
        .m_axi_bvalid(m_axi_bvalid), .m_axi_bready(m_axi_bready), .m_axi_bresp(m_axi_bresp),
        .idle(wr_idle)
    );
endmodule
