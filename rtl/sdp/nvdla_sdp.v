// SDP hardware layer: read DMA (SDP_RDMA: input cube and BS/BN/EW operands, rtl/sdp/nvdla_sdp_rdma.v) ->
// datapath core (BS -> BN -> EW with the LUT -> output convertor, rtl/sdp/nvdla_sdp_core.v) -> write DMA
// (SDP destination), on one AXI4 master (reads from the RDMA, writes from the write DMA: the channels are
// independent, so no arbitration is needed inside the unit).
//
// Every stream is in cube order: surface, line, column, one atom per beat. Where the output goes:
//   - memory (OUTPUT_DST = MEM, EW not in EQL mode): written with the destination strides; a 1x1 cube is
//     written packed (surfaces back to back), as the model and NVIDIA's C model do;
//   - PDP (OUTPUT_DST = PDP): handed on the `fly_*` stream, which the PDP consumes in the same order;
//   - nowhere (EQL mode): the compare results are drained; status_unequal reports any difference.
// `done` pulses once every output atom has left the core and, when writing, every write has its AXI
// response, so an interrupt raised on `done` is never ahead of the memory.
//
// The geometry comes from SDP_RDMA's D_DATA_CUBE_* (the SDP copy must agree: the driver checks); one geometry
// for the read streams, the core and the write side means disagreeing registers can give wrong data but never
// a stalled pipeline. An operand stream is used when its RDMA is enabled and an active ALU or MUL of its
// block takes its operand from memory: the RDMA and the core see the same flag, so no register value leaves
// one waiting for the other. FLYING_MODE (input from the convolution core) has no source in this subsystem:
// the input is read from memory whatever it says, and the driver layer rejects such programs.
// The configuration must hold from start to done, as the register groups guarantee.
module nvdla_sdp #(
    parameter ATOM            = 8,     // int8 lanes per atom = bytes per 64-bit beat
    parameter CNT_W           = 32,
    parameter MAX_BURST       = 16,
    parameter MAX_OUTSTANDING = 8,
    parameter FIFO_DEPTH      = 32     // beats buffered per read stream
) (
    input  wire              clk,
    input  wire              rst_n,
    input  wire              op_en,
    output wire              done,
    output wire              busy,
    // cube (SDP_RDMA, value-minus-one encodings) and memory layout
    input  wire [12:0]       width_m1,
    input  wire [12:0]       height_m1,
    input  wire [12:0]       channel_m1,
    input  wire [31:0]       src_base,
    input  wire [31:0]       src_line_stride,
    input  wire [31:0]       src_surface_stride,
    input  wire [31:0]       dst_base,
    input  wire [31:0]       dst_line_stride,
    input  wire [31:0]       dst_surface_stride,
    input  wire              output_dst,        // D_FEATURE_MODE_CFG.OUTPUT_DST: 0 memory, 1 PDP
    // operand read DMAs (SDP_RDMA D_BRDMA_CFG / D_NRDMA_CFG / D_ERDMA_CFG and their addresses)
    input  wire              brdma_disable,
    input  wire [1:0]        brdma_data_use,
    input  wire              brdma_data_size,
    input  wire              brdma_data_mode,
    input  wire [31:0]       bs_base,
    input  wire [31:0]       bs_line_stride,
    input  wire [31:0]       bs_surface_stride,
    input  wire              nrdma_disable,
    input  wire [1:0]        nrdma_data_use,
    input  wire              nrdma_data_size,
    input  wire              nrdma_data_mode,
    input  wire [31:0]       bn_base,
    input  wire [31:0]       bn_line_stride,
    input  wire [31:0]       bn_surface_stride,
    input  wire              erdma_disable,
    input  wire [1:0]        erdma_data_use,
    input  wire              erdma_data_size,
    input  wire              erdma_data_mode,
    input  wire [31:0]       ew_base,
    input  wire [31:0]       ew_line_stride,
    input  wire [31:0]       ew_surface_stride,
    // D_DP_BS_* / D_DP_BN_* (raw fields)
    input  wire              bs_bypass,
    input  wire              bs_alu_bypass,
    input  wire [1:0]        bs_alu_algo,
    input  wire              bs_alu_src,
    input  wire [5:0]        bs_alu_shift,
    input  wire [15:0]       bs_alu_operand,
    input  wire              bs_mul_bypass,
    input  wire              bs_mul_prelu,
    input  wire              bs_mul_src,
    input  wire [7:0]        bs_mul_shift,
    input  wire [15:0]       bs_mul_operand,
    input  wire              bs_relu_bypass,
    input  wire              bn_bypass,
    input  wire              bn_alu_bypass,
    input  wire [1:0]        bn_alu_algo,
    input  wire              bn_alu_src,
    input  wire [5:0]        bn_alu_shift,
    input  wire [15:0]       bn_alu_operand,
    input  wire              bn_mul_bypass,
    input  wire              bn_mul_prelu,
    input  wire              bn_mul_src,
    input  wire [7:0]        bn_mul_shift,
    input  wire [15:0]       bn_mul_operand,
    input  wire              bn_relu_bypass,
    // D_DP_EW_*
    input  wire              ew_bypass,
    input  wire              ew_alu_bypass,
    input  wire [1:0]        ew_alu_algo,
    input  wire              ew_alu_src,
    input  wire              ew_alu_cvt_bypass,
    input  wire [31:0]       ew_alu_operand,
    input  wire [31:0]       ew_alu_cvt_offset,
    input  wire [15:0]       ew_alu_cvt_scale,
    input  wire [5:0]        ew_alu_cvt_truncate,
    input  wire              ew_mul_bypass,
    input  wire              ew_mul_prelu,
    input  wire              ew_mul_src,
    input  wire              ew_mul_cvt_bypass,
    input  wire [31:0]       ew_mul_operand,
    input  wire [31:0]       ew_mul_cvt_offset,
    input  wire [15:0]       ew_mul_cvt_scale,
    input  wire [5:0]        ew_mul_cvt_truncate,
    input  wire [9:0]        ew_truncate,
    input  wire              ew_lut_bypass,
    // D_CVT_*
    input  wire [31:0]       cvt_offset,
    input  wire [15:0]       cvt_scale,
    input  wire [5:0]        cvt_shift,
    // S_LUT_* (SDP: START/END 32 bits)
    input  wire              lut_le_function,
    input  wire              lut_uflow_priority,
    input  wire              lut_oflow_priority,
    input  wire              lut_hybrid_priority,
    input  wire [7:0]        lut_le_index_offset,
    input  wire [7:0]        lut_le_index_select,
    input  wire [7:0]        lut_lo_index_select,
    input  wire [31:0]       lut_le_start,
    input  wire [31:0]       lut_le_end,
    input  wire [31:0]       lut_lo_start,
    input  wire [31:0]       lut_lo_end,
    input  wire [15:0]       lut_le_slope_uflow_scale,
    input  wire [15:0]       lut_le_slope_oflow_scale,
    input  wire [4:0]        lut_le_slope_uflow_shift,
    input  wire [4:0]        lut_le_slope_oflow_shift,
    input  wire [15:0]       lut_lo_slope_uflow_scale,
    input  wire [15:0]       lut_lo_slope_oflow_scale,
    input  wire [4:0]        lut_lo_slope_uflow_shift,
    input  wire [4:0]        lut_lo_slope_oflow_shift,
    // LUT access port (S_LUT_ACCESS_CFG / S_LUT_ACCESS_DATA strobes, rtl/lut/nvdla_lut_ram.v semantics)
    input  wire              acc_cfg_we,
    input  wire [9:0]        acc_cfg_addr,
    input  wire              acc_cfg_table,
    input  wire              acc_cfg_write,
    output wire [9:0]        acc_cfg_addr_q,
    output wire              acc_table,
    output wire              acc_write,
    input  wire              acc_data_we,
    input  wire [15:0]       acc_data_wdata,
    input  wire              acc_data_re,
    output wire [15:0]       acc_data_rdata,
    // statistics and status of the last layer (hold from done to the next start)
    output wire [CNT_W-1:0]  cnt_le_hit,
    output wire [CNT_W-1:0]  cnt_lo_hit,
    output wire [CNT_W-1:0]  cnt_uflow,
    output wire [CNT_W-1:0]  cnt_oflow,
    output wire [CNT_W-1:0]  cnt_hybrid,
    output wire [CNT_W-1:0]  cnt_out_sat,
    output wire              status_unequal,
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
    output wire              m_axi_wvalid,
    input  wire              m_axi_wready,
    output wire [ATOM*8-1:0] m_axi_wdata,
    output wire [ATOM-1:0]   m_axi_wstrb,
    output wire              m_axi_wlast,
    input  wire              m_axi_bvalid,
    output wire              m_axi_bready,
    input  wire [1:0]        m_axi_bresp
);
    localparam DATA_W     = ATOM * 8;
    localparam LEN_W      = 16;
    localparam BYTE_SHIFT = $clog2(ATOM);
    localparam EQL        = 2'd3;

    // ---- which operand streams this layer uses (one flag for the RDMA and the core) --------------------
    function used(input bypass, input alu_bypass, input alu_src, input mul_bypass, input mul_src,
                  input disable_dma);
        used = ~disable_dma & ~bypass & ((~alu_bypass & alu_src) | (~mul_bypass & mul_src));
    endfunction
    wire bs_op_en = used(bs_bypass, bs_alu_bypass, bs_alu_src, bs_mul_bypass, bs_mul_src, brdma_disable);
    wire bn_op_en = used(bn_bypass, bn_alu_bypass, bn_alu_src, bn_mul_bypass, bn_mul_src, nrdma_disable);
    wire ew_op_en = used(ew_bypass, ew_alu_bypass, ew_alu_src, ew_mul_bypass, ew_mul_src, erdma_disable);

    wire eql      = ~ew_bypass & ~ew_alu_bypass & (ew_alu_algo == EQL);
    wire to_pdp   = output_dst & ~eql;        // EQL mode outputs nothing, whatever OUTPUT_DST says
    wire to_mem   = ~output_dst & ~eql;

    // ---- layer control (rtl/common/nvdla_layer_ctrl.v: start, running, sticky finished flag, done) --------
    wire running;
    wire out_finished;     // every output atom left the core
    wire start;
    reg  write_layer;      // this layer writes memory (latched at start)
    reg  [39:0] atoms_left;
    wire wr_idle, core_busy, rd_busy;
    // Once the write DMA has taken every output atom it has taken every command too (one command per line of
    // atoms), so its idle (every burst answered) ends a writing layer.
    wire finish = out_finished & ~rd_busy & ~core_busy & (~write_layer | wr_idle);

    wire [13:0] surfaces = {4'd0, channel_m1[12:BYTE_SHIFT]} + 14'd1;
    wire [39:0] total_atoms = ({27'd0, width_m1} + 40'd1) * ({27'd0, height_m1} + 40'd1) * {26'd0, surfaces};

    wire              core_valid, core_ready;
    wire [DATA_W-1:0] core_data;
    wire              core_fire = core_valid & core_ready;
    wire              last_atom = core_fire & (atoms_left == 40'd1);

    nvdla_layer_ctrl #(.N_FLAGS(1)) u_ctrl (
        .clk(clk), .rst_n(rst_n), .op_en(op_en),
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
    wire              bs_valid, bs_ready, bn_valid, bn_ready, ew_valid, ew_ready;
    wire [ATOM*32-1:0] bs_data, bn_data, ew_data;

    nvdla_sdp_rdma #(.ATOM(ATOM), .MAX_BURST(MAX_BURST), .MAX_OUTSTANDING(MAX_OUTSTANDING),
                     .FIFO_DEPTH(FIFO_DEPTH)) u_rdma (
        .clk(clk), .rst_n(rst_n), .start(start), .busy(rd_busy),
        .width_m1(width_m1), .height_m1(height_m1), .channel_m1(channel_m1),
        .src_base(src_base), .src_line_stride(src_line_stride), .src_surface_stride(src_surface_stride),
        .bs_en(bs_op_en), .bs_data_use(brdma_data_use), .bs_data_size(brdma_data_size),
        .bs_data_mode(brdma_data_mode), .bs_base(bs_base), .bs_line_stride(bs_line_stride),
        .bs_surface_stride(bs_surface_stride),
        .bn_en(bn_op_en), .bn_data_use(nrdma_data_use), .bn_data_size(nrdma_data_size),
        .bn_data_mode(nrdma_data_mode), .bn_base(bn_base), .bn_line_stride(bn_line_stride),
        .bn_surface_stride(bn_surface_stride),
        .ew_en(ew_op_en), .ew_data_use(erdma_data_use), .ew_data_size(erdma_data_size),
        .ew_data_mode(erdma_data_mode), .ew_base(ew_base), .ew_line_stride(ew_line_stride),
        .ew_surface_stride(ew_surface_stride),
        .m_axi_arvalid(m_axi_arvalid), .m_axi_arready(m_axi_arready), .m_axi_araddr(m_axi_araddr),
        .m_axi_arlen(m_axi_arlen), .m_axi_arsize(m_axi_arsize), .m_axi_arburst(m_axi_arburst),
        .m_axi_arid(m_axi_arid), .m_axi_rvalid(m_axi_rvalid), .m_axi_rready(m_axi_rready),
        .m_axi_rdata(m_axi_rdata), .m_axi_rresp(m_axi_rresp), .m_axi_rlast(m_axi_rlast),
        .in_valid(in_valid), .in_ready(in_ready), .in_data(in_data),
        .bs_op_valid(bs_valid), .bs_op_ready(bs_ready), .bs_op_data(bs_data),
        .bn_op_valid(bn_valid), .bn_op_ready(bn_ready), .bn_op_data(bn_data),
        .ew_op_valid(ew_valid), .ew_op_ready(ew_ready), .ew_op_data(ew_data)
    );

    // ---- datapath ---------------------------------------------------------------------------------------
    nvdla_sdp_core #(.ATOM(ATOM), .CNT_W(CNT_W)) u_core (
        .clk(clk), .rst_n(rst_n), .start(start), .busy(core_busy),
        .bs_bypass(bs_bypass), .bs_alu_bypass(bs_alu_bypass), .bs_alu_algo(bs_alu_algo),
        .bs_alu_src(bs_alu_src), .bs_alu_shift(bs_alu_shift), .bs_alu_operand(bs_alu_operand),
        .bs_mul_bypass(bs_mul_bypass), .bs_mul_prelu(bs_mul_prelu), .bs_mul_src(bs_mul_src),
        .bs_mul_shift(bs_mul_shift), .bs_mul_operand(bs_mul_operand), .bs_relu_bypass(bs_relu_bypass),
        .bn_bypass(bn_bypass), .bn_alu_bypass(bn_alu_bypass), .bn_alu_algo(bn_alu_algo),
        .bn_alu_src(bn_alu_src), .bn_alu_shift(bn_alu_shift), .bn_alu_operand(bn_alu_operand),
        .bn_mul_bypass(bn_mul_bypass), .bn_mul_prelu(bn_mul_prelu), .bn_mul_src(bn_mul_src),
        .bn_mul_shift(bn_mul_shift), .bn_mul_operand(bn_mul_operand), .bn_relu_bypass(bn_relu_bypass),
        .ew_bypass(ew_bypass), .ew_alu_bypass(ew_alu_bypass), .ew_alu_algo(ew_alu_algo),
        .ew_alu_src(ew_alu_src), .ew_alu_cvt_bypass(ew_alu_cvt_bypass), .ew_alu_operand(ew_alu_operand),
        .ew_alu_cvt_offset(ew_alu_cvt_offset), .ew_alu_cvt_scale(ew_alu_cvt_scale),
        .ew_alu_cvt_truncate(ew_alu_cvt_truncate),
        .ew_mul_bypass(ew_mul_bypass), .ew_mul_prelu(ew_mul_prelu), .ew_mul_src(ew_mul_src),
        .ew_mul_cvt_bypass(ew_mul_cvt_bypass), .ew_mul_operand(ew_mul_operand),
        .ew_mul_cvt_offset(ew_mul_cvt_offset), .ew_mul_cvt_scale(ew_mul_cvt_scale),
        .ew_mul_cvt_truncate(ew_mul_cvt_truncate), .ew_truncate(ew_truncate), .ew_lut_bypass(ew_lut_bypass),
        .cvt_offset(cvt_offset), .cvt_scale(cvt_scale), .cvt_shift(cvt_shift),
        .lut_le_function(lut_le_function), .lut_uflow_priority(lut_uflow_priority),
        .lut_oflow_priority(lut_oflow_priority), .lut_hybrid_priority(lut_hybrid_priority),
        .lut_le_index_offset(lut_le_index_offset), .lut_le_index_select(lut_le_index_select),
        .lut_lo_index_select(lut_lo_index_select),
        .lut_le_start(lut_le_start), .lut_le_end(lut_le_end), .lut_lo_start(lut_lo_start),
        .lut_lo_end(lut_lo_end),
        .lut_le_slope_uflow_scale(lut_le_slope_uflow_scale), .lut_le_slope_oflow_scale(lut_le_slope_oflow_scale),
        .lut_le_slope_uflow_shift(lut_le_slope_uflow_shift), .lut_le_slope_oflow_shift(lut_le_slope_oflow_shift),
        .lut_lo_slope_uflow_scale(lut_lo_slope_uflow_scale), .lut_lo_slope_oflow_scale(lut_lo_slope_oflow_scale),
        .lut_lo_slope_uflow_shift(lut_lo_slope_uflow_shift), .lut_lo_slope_oflow_shift(lut_lo_slope_oflow_shift),
        .acc_cfg_we(acc_cfg_we), .acc_cfg_addr(acc_cfg_addr), .acc_cfg_table(acc_cfg_table),
        .acc_cfg_write(acc_cfg_write), .acc_cfg_addr_q(acc_cfg_addr_q), .acc_table(acc_table),
        .acc_write(acc_write), .acc_data_we(acc_data_we), .acc_data_wdata(acc_data_wdata),
        .acc_data_re(acc_data_re), .acc_data_rdata(acc_data_rdata),
        .bs_op_en(bs_op_en), .bn_op_en(bn_op_en), .ew_op_en(ew_op_en),
        .in_valid(in_valid), .in_ready(in_ready), .in_data(in_data),
        .bs_op_valid(bs_valid), .bs_op_ready(bs_ready), .bs_op_data(bs_data),
        .bn_op_valid(bn_valid), .bn_op_ready(bn_ready), .bn_op_data(bn_data),
        .ew_op_valid(ew_valid), .ew_op_ready(ew_ready), .ew_op_data(ew_data),
        .out_valid(core_valid), .out_ready(core_ready), .out_data(core_data),
        .cnt_le_hit(cnt_le_hit), .cnt_lo_hit(cnt_lo_hit), .cnt_uflow(cnt_uflow), .cnt_oflow(cnt_oflow),
        .cnt_hybrid(cnt_hybrid), .cnt_out_sat(cnt_out_sat), .status_unequal(status_unequal)
    );

    // ---- output routing: memory, PDP, or drained (EQL). Selected by flags latched at start. --------------
    reg route_pdp;
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n)     route_pdp <= 1'b0;
        else if (start) route_pdp <= to_pdp;
    end
    wire wr_valid, wr_ready;
    assign wr_valid   = core_valid & write_layer;
    assign fly_valid  = core_valid & route_pdp;
    assign fly_data   = core_data;
    assign core_ready = write_layer ? wr_ready : (route_pdp ? fly_ready : 1'b1);

    // ---- write side: destination commands (cube order, one per line) + output atoms -> AXI writes --------
    wire             wr_cmd_valid, wr_cmd_ready;
    wire [31:0]      wr_cmd_addr;
    wire [LEN_W-1:0] wr_cmd_beats;
    wire             packed_cube = (width_m1 == 13'd0) & (height_m1 == 13'd0);
    wire             wr_start = start & to_mem;
    /* verilator lint_off UNUSEDSIGNAL */
    wire             wr_seq_busy;   // implied by the atom count (see finish)
    /* verilator lint_on UNUSEDSIGNAL */

    nvdla_cube_walker #(.ADDR_W(32), .LEN_W(LEN_W)) u_wr_walk (
        .clk(clk), .rst_n(rst_n), .start(wr_start),
        .base(dst_base),
        .line_stride(dst_line_stride),
        .surface_stride(dst_surface_stride),
        // a 1x1 cube is one line of all its surfaces, as the read DMA reads a 1x1 input
        .width(packed_cube ? {{(LEN_W-14){1'b0}}, surfaces}
                           : {{(LEN_W-13){1'b0}}, width_m1} + {{(LEN_W-1){1'b0}}, 1'b1}),
        .height(packed_cube ? 14'd1 : {1'b0, height_m1} + 14'd1),
        .surfaces(packed_cube ? 14'd1 : surfaces),
        .cmd_valid(wr_cmd_valid), .cmd_ready(wr_cmd_ready), .cmd_addr(wr_cmd_addr), .cmd_beats(wr_cmd_beats),
        .busy(wr_seq_busy)
    );

    nvdla_axi_wr #(.ADDR_W(32), .DATA_W(DATA_W), .LEN_W(LEN_W), .MAX_BURST(MAX_BURST),
                   .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_axi_wr (
        .clk(clk), .rst_n(rst_n),
        .cmd_valid(wr_cmd_valid), .cmd_ready(wr_cmd_ready), .cmd_addr(wr_cmd_addr), .cmd_beats(wr_cmd_beats),
        .in_valid(wr_valid), .in_ready(wr_ready), .in_data(core_data),
        .m_axi_awvalid(m_axi_awvalid), .m_axi_awready(m_axi_awready), .m_axi_awaddr(m_axi_awaddr),
        .m_axi_awlen(m_axi_awlen), .m_axi_awsize(m_axi_awsize), .m_axi_awburst(m_axi_awburst),
        .m_axi_awid(m_axi_awid), .m_axi_wvalid(m_axi_wvalid), .m_axi_wready(m_axi_wready),
        .m_axi_wdata(m_axi_wdata), .m_axi_wstrb(m_axi_wstrb), .m_axi_wlast(m_axi_wlast),
        .m_axi_bvalid(m_axi_bvalid), .m_axi_bready(m_axi_bready), .m_axi_bresp(m_axi_bresp),
        .idle(wr_idle)
    );
endmodule
