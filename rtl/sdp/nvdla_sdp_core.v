// SDP datapath core, INT8: every lane computes models/sdp_datapath.py sdp_datapath for one element,
//   BS (nvdla_sdp_x) -> BN (nvdla_sdp_x) -> EW MUL, ALU (nvdla_sdp_y, operands from nvdla_sdp_ewcvt)
//   -> EW LUT (nvdla_lut, SDP flavour; skipped when bypassed) -> output convertor (nvdla_sdp_ocvt).
// Ports and stream contract: docs/CONTRACTS.md "SDP core". One atom (ATOM int8 lanes) per cycle sustained,
// valid/ready with full backpressure on all five streams.
//
// Every input stream enters through its own skid buffer, so each *_ready is a flop and nothing passes
// combinationally from an input to an output; out_valid/out_data are the output convertor's registers.
// The join takes one input atom together with one atom of each operand stream whose *_op_en is set;
// a stream that is not enabled is never waited for (its ready stays low) and its memory operands read 0.
//
// Pipeline (one stall pipeline, nvdla_pipe_ctrl, stages 1..9): BS 1-3, BN 4-6 with the EW operand
// convertors beside it, EW MUL/ALU 7-9. Then either the LUT (its own skid and five stages) or, when the
// LUT is bypassed, straight on; the choice is configuration, fixed while samples are in flight, so the
// two paths never hold atoms at the same time. Then the output convertor's three stages.
// Configuration must be stable while busy; the LUT tables must not be written then.
module nvdla_sdp_core #(
    parameter ATOM  = 8,
    parameter CNT_W = 32
) (
    input  wire                 clk,
    input  wire                 rst_n,
    input  wire                 start,
    output wire                 busy,
    // D_DP_BS_*
    input  wire                 bs_bypass,
    input  wire                 bs_alu_bypass,
    input  wire [1:0]           bs_alu_algo,
    input  wire                 bs_alu_src,
    input  wire [5:0]           bs_alu_shift,
    input  wire [15:0]          bs_alu_operand,
    input  wire                 bs_mul_bypass,
    input  wire                 bs_mul_prelu,
    input  wire                 bs_mul_src,
    input  wire [7:0]           bs_mul_shift,
    input  wire [15:0]          bs_mul_operand,
    input  wire                 bs_relu_bypass,
    // D_DP_BN_*
    input  wire                 bn_bypass,
    input  wire                 bn_alu_bypass,
    input  wire [1:0]           bn_alu_algo,
    input  wire                 bn_alu_src,
    input  wire [5:0]           bn_alu_shift,
    input  wire [15:0]          bn_alu_operand,
    input  wire                 bn_mul_bypass,
    input  wire                 bn_mul_prelu,
    input  wire                 bn_mul_src,
    input  wire [7:0]           bn_mul_shift,
    input  wire [15:0]          bn_mul_operand,
    input  wire                 bn_relu_bypass,
    // D_DP_EW_*
    input  wire                 ew_bypass,
    input  wire                 ew_alu_bypass,
    input  wire [1:0]           ew_alu_algo,
    input  wire                 ew_alu_src,
    input  wire                 ew_alu_cvt_bypass,
    input  wire [31:0]          ew_alu_operand,
    input  wire [31:0]          ew_alu_cvt_offset,
    input  wire [15:0]          ew_alu_cvt_scale,
    input  wire [5:0]           ew_alu_cvt_truncate,
    input  wire                 ew_mul_bypass,
    input  wire                 ew_mul_prelu,
    input  wire                 ew_mul_src,
    input  wire                 ew_mul_cvt_bypass,
    input  wire [31:0]          ew_mul_operand,
    input  wire [31:0]          ew_mul_cvt_offset,
    input  wire [15:0]          ew_mul_cvt_scale,
    input  wire [5:0]           ew_mul_cvt_truncate,
    input  wire [9:0]           ew_truncate,
    input  wire                 ew_lut_bypass,
    // D_CVT_*
    input  wire [31:0]          cvt_offset,
    input  wire [15:0]          cvt_scale,
    input  wire [5:0]           cvt_shift,
    // S_LUT_* (SDP: START/END 32 bits)
    input  wire                 lut_le_function,
    input  wire                 lut_uflow_priority,
    input  wire                 lut_oflow_priority,
    input  wire                 lut_hybrid_priority,
    input  wire [7:0]           lut_le_index_offset,
    input  wire [7:0]           lut_le_index_select,
    input  wire [7:0]           lut_lo_index_select,
    input  wire [31:0]          lut_le_start,
    input  wire [31:0]          lut_le_end,
    input  wire [31:0]          lut_lo_start,
    input  wire [31:0]          lut_lo_end,
    input  wire [15:0]          lut_le_slope_uflow_scale,
    input  wire [15:0]          lut_le_slope_oflow_scale,
    input  wire [4:0]           lut_le_slope_uflow_shift,
    input  wire [4:0]           lut_le_slope_oflow_shift,
    input  wire [15:0]          lut_lo_slope_uflow_scale,
    input  wire [15:0]          lut_lo_slope_oflow_scale,
    input  wire [4:0]           lut_lo_slope_uflow_shift,
    input  wire [4:0]           lut_lo_slope_oflow_shift,
    // LUT access port (nvdla_lut, SDP wrapping pointer)
    input  wire                 acc_cfg_we,
    input  wire [9:0]           acc_cfg_addr,
    input  wire                 acc_cfg_table,
    input  wire                 acc_cfg_write,
    output wire [9:0]           acc_cfg_addr_q,
    output wire                 acc_table,
    output wire                 acc_write,
    input  wire                 acc_data_we,
    input  wire [15:0]          acc_data_wdata,
    input  wire                 acc_data_re,
    output wire [15:0]          acc_data_rdata,
    // which operand streams carry data this layer
    input  wire                 bs_op_en,
    input  wire                 bn_op_en,
    input  wire                 ew_op_en,
    // streams
    input  wire                 in_valid,
    output wire                 in_ready,
    input  wire [ATOM*8-1:0]    in_data,
    input  wire                 bs_op_valid,
    output wire                 bs_op_ready,
    input  wire [ATOM*32-1:0]   bs_op_data,
    input  wire                 bn_op_valid,
    output wire                 bn_op_ready,
    input  wire [ATOM*32-1:0]   bn_op_data,
    input  wire                 ew_op_valid,
    output wire                 ew_op_ready,
    input  wire [ATOM*32-1:0]   ew_op_data,
    output wire                 out_valid,
    input  wire                 out_ready,
    output wire [ATOM*8-1:0]    out_data,
    // statistics since start
    output wire [CNT_W-1:0]     cnt_le_hit,
    output wire [CNT_W-1:0]     cnt_lo_hit,
    output wire [CNT_W-1:0]     cnt_uflow,
    output wire [CNT_W-1:0]     cnt_oflow,
    output wire [CNT_W-1:0]     cnt_hybrid,
    output wire [CNT_W-1:0]     cnt_out_sat,
    output reg                  status_unequal
);
    localparam DW    = ATOM * 32;            // 32-bit lanes of the flying data and of the operands
    localparam PRE_D = 9;                    // stall-pipeline stages before the LUT

    // ---------------------------------------------------------------- input skids
    wire          x_valid, bs_valid, bn_valid, ew_valid;
    wire          x_take, bs_take, bn_take, ew_take;
    wire [ATOM*8-1:0] x_data;
    wire [DW-1:0] bs_data, bn_data, ew_data;

    nvdla_skid #(.WIDTH(ATOM*8)) u_in_skid (
        .clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .in_data(in_data),
        .out_valid(x_valid), .out_ready(x_take), .out_data(x_data)
    );
    // a stream that is not enabled gets no valid in, so its skid never fills and never gives ready
    wire bs_in_ready, bn_in_ready, ew_in_ready;
    nvdla_skid #(.WIDTH(DW)) u_bs_skid (
        .clk(clk), .rst_n(rst_n), .in_valid(bs_op_valid & bs_op_en), .in_ready(bs_in_ready),
        .in_data(bs_op_data), .out_valid(bs_valid), .out_ready(bs_take), .out_data(bs_data)
    );
    nvdla_skid #(.WIDTH(DW)) u_bn_skid (
        .clk(clk), .rst_n(rst_n), .in_valid(bn_op_valid & bn_op_en), .in_ready(bn_in_ready),
        .in_data(bn_op_data), .out_valid(bn_valid), .out_ready(bn_take), .out_data(bn_data)
    );
    nvdla_skid #(.WIDTH(DW)) u_ew_skid (
        .clk(clk), .rst_n(rst_n), .in_valid(ew_op_valid & ew_op_en), .in_ready(ew_in_ready),
        .in_data(ew_op_data), .out_valid(ew_valid), .out_ready(ew_take), .out_data(ew_data)
    );
    assign bs_op_ready = bs_in_ready & bs_op_en;
    assign bn_op_ready = bn_in_ready & bn_op_en;
    assign ew_op_ready = ew_in_ready & ew_op_en;

    // ---------------------------------------------------------------- join and the pre-LUT pipeline
    wire bs_ok = bs_valid | ~bs_op_en;
    wire bn_ok = bn_valid | ~bn_op_en;
    wire ew_ok = ew_valid | ~ew_op_en;
    wire join_valid = x_valid & bs_ok & bn_ok & ew_ok;
    wire join_ready;
    wire [PRE_D-1:0] en;
    wire pre_valid, pre_ready;

    assign x_take  = join_ready & bs_ok & bn_ok & ew_ok;
    assign bs_take = join_ready & x_valid & bn_ok & ew_ok & bs_op_en;
    assign bn_take = join_ready & x_valid & bs_ok & ew_ok & bn_op_en;
    assign ew_take = join_ready & x_valid & bs_ok & bn_ok & ew_op_en;

    nvdla_pipe_ctrl #(.DEPTH(PRE_D)) u_ctrl (
        .clk(clk), .rst_n(rst_n),
        .in_valid(join_valid), .in_ready(join_ready), .stage_en(en),
        .out_valid(pre_valid), .out_ready(pre_ready)
    );

    // int8 input lanes sign-extended to the 32-bit flying width
    reg [DW-1:0] x32;
    integer i;
    always @(*) begin
        for (i = 0; i < ATOM; i = i + 1) x32[i*32 +: 32] = {{24{x_data[i*8 + 7]}}, x_data[i*8 +: 8]};
    end

    // the BN and EW operands travel beside BS (stages 1-3) until their blocks take them
    reg [DW-1:0] bn_d1, bn_d2, bn_d3, ew_d1, ew_d2, ew_d3;
    always @(posedge clk) begin
        if (en[0]) begin bn_d1 <= bn_data; ew_d1 <= ew_data; end
        if (en[1]) begin bn_d2 <= bn_d1;   ew_d2 <= ew_d1;   end
        if (en[2]) begin bn_d3 <= bn_d2;   ew_d3 <= ew_d2;   end
    end

    wire [DW-1:0] bs_out, bn_out, ew_alu_op, ew_mul_op, y_out;

    nvdla_sdp_x #(.LANES(ATOM)) u_bs (
        .clk(clk), .en(en[2:0]),
        .cfg_bypass(bs_bypass), .cfg_alu_bypass(bs_alu_bypass), .cfg_alu_algo(bs_alu_algo),
        .cfg_alu_src(bs_alu_src), .cfg_alu_shift(bs_alu_shift), .cfg_alu_operand(bs_alu_operand),
        .cfg_mul_bypass(bs_mul_bypass), .cfg_mul_prelu(bs_mul_prelu), .cfg_mul_src(bs_mul_src),
        .cfg_mul_shift(bs_mul_shift[5:0]), .cfg_mul_operand(bs_mul_operand), .cfg_relu_bypass(bs_relu_bypass),
        .op_en(bs_op_en), .in_x(x32), .in_op(bs_data), .out_x(bs_out)
    );

    nvdla_sdp_x #(.LANES(ATOM)) u_bn (
        .clk(clk), .en(en[5:3]),
        .cfg_bypass(bn_bypass), .cfg_alu_bypass(bn_alu_bypass), .cfg_alu_algo(bn_alu_algo),
        .cfg_alu_src(bn_alu_src), .cfg_alu_shift(bn_alu_shift), .cfg_alu_operand(bn_alu_operand),
        .cfg_mul_bypass(bn_mul_bypass), .cfg_mul_prelu(bn_mul_prelu), .cfg_mul_src(bn_mul_src),
        .cfg_mul_shift(bn_mul_shift[5:0]), .cfg_mul_operand(bn_mul_operand), .cfg_relu_bypass(bn_relu_bypass),
        .op_en(bn_op_en), .in_x(bs_out), .in_op(bn_d3), .out_x(bn_out)
    );

    nvdla_sdp_ewcvt #(.LANES(ATOM)) u_ewcvt (
        .clk(clk), .en(en[5:3]),
        .cfg_alu_src(ew_alu_src), .cfg_alu_cvt_bypass(ew_alu_cvt_bypass), .cfg_alu_operand(ew_alu_operand),
        .cfg_alu_cvt_offset(ew_alu_cvt_offset), .cfg_alu_cvt_scale(ew_alu_cvt_scale),
        .cfg_alu_cvt_truncate(ew_alu_cvt_truncate),
        .cfg_mul_src(ew_mul_src), .cfg_mul_cvt_bypass(ew_mul_cvt_bypass), .cfg_mul_operand(ew_mul_operand),
        .cfg_mul_cvt_offset(ew_mul_cvt_offset), .cfg_mul_cvt_scale(ew_mul_cvt_scale),
        .cfg_mul_cvt_truncate(ew_mul_cvt_truncate),
        .op_en(ew_op_en), .in_op(ew_d3), .out_alu_op(ew_alu_op), .out_mul_op(ew_mul_op)
    );

    nvdla_sdp_y #(.LANES(ATOM)) u_ew (
        .clk(clk), .en(en[8:6]),
        .cfg_bypass(ew_bypass), .cfg_alu_bypass(ew_alu_bypass), .cfg_alu_algo(ew_alu_algo),
        .cfg_mul_bypass(ew_mul_bypass), .cfg_mul_prelu(ew_mul_prelu), .cfg_truncate(ew_truncate),
        .in_x(bn_out), .in_alu_op(ew_alu_op), .in_mul_op(ew_mul_op), .out_x(y_out)
    );

    // ---------------------------------------------------------------- LUT, or around it
    wire lut_on = ~ew_bypass & ~ew_lut_bypass;
    wire eql    = ~ew_bypass & ~ew_alu_bypass & (ew_alu_algo == 2'd3);

    wire          lut_in_ready, lut_valid, ocvt_ready;
    wire [DW-1:0] lut_data;

    assign pre_ready = lut_on ? lut_in_ready : ocvt_ready;

    /* verilator lint_off PINCONNECTEMPTY */
    nvdla_lut #(.LANES(ATOM), .IN_W(32), .CFG_W(32), .SDP(1), .CNT_W(CNT_W)) u_lut (
        .clk(clk), .rst_n(rst_n),
        .cfg_le_function(lut_le_function), .cfg_uflow_priority(lut_uflow_priority),
        .cfg_oflow_priority(lut_oflow_priority), .cfg_hybrid_priority(lut_hybrid_priority),
        .cfg_le_index_offset(lut_le_index_offset), .cfg_le_index_select(lut_le_index_select),
        .cfg_lo_index_select(lut_lo_index_select),
        .cfg_le_start(lut_le_start), .cfg_le_end(lut_le_end),
        .cfg_lo_start(lut_lo_start), .cfg_lo_end(lut_lo_end),
        .cfg_le_slope_uflow_scale(lut_le_slope_uflow_scale),
        .cfg_le_slope_oflow_scale(lut_le_slope_oflow_scale),
        .cfg_le_slope_uflow_shift(lut_le_slope_uflow_shift),
        .cfg_le_slope_oflow_shift(lut_le_slope_oflow_shift),
        .cfg_lo_slope_uflow_scale(lut_lo_slope_uflow_scale),
        .cfg_lo_slope_oflow_scale(lut_lo_slope_oflow_scale),
        .cfg_lo_slope_uflow_shift(lut_lo_slope_uflow_shift),
        .cfg_lo_slope_oflow_shift(lut_lo_slope_oflow_shift),
        .acc_cfg_we(acc_cfg_we), .acc_cfg_addr(acc_cfg_addr), .acc_cfg_table(acc_cfg_table),
        .acc_cfg_write(acc_cfg_write), .acc_cfg_addr_q(acc_cfg_addr_q), .acc_table(acc_table),
        .acc_write(acc_write), .acc_data_we(acc_data_we), .acc_data_wdata(acc_data_wdata),
        .acc_data_re(acc_data_re), .acc_data_rdata(acc_data_rdata),
        .in_valid(pre_valid & lut_on), .in_ready(lut_in_ready), .in_data(y_out),
        .out_valid(lut_valid), .out_ready(ocvt_ready & lut_on), .out_data(lut_data), .out_dbg(),
        // samples that skip the LUT are not looked up, so they are not counted (the model's empty stats)
        .cnt_clr(start), .cnt_en(lut_on),
        .cnt_le_hit(cnt_le_hit), .cnt_lo_hit(cnt_lo_hit), .cnt_uflow(cnt_uflow), .cnt_oflow(cnt_oflow),
        .cnt_hybrid(cnt_hybrid)
    );
    /* verilator lint_on PINCONNECTEMPTY */

    // ---------------------------------------------------------------- output convertor
    wire [ATOM-1:0] out_sat, out_neq;

    nvdla_sdp_ocvt #(.LANES(ATOM)) u_ocvt (
        .clk(clk), .rst_n(rst_n),
        .cfg_offset(cvt_offset), .cfg_scale(cvt_scale), .cfg_shift(cvt_shift), .cfg_eql(eql),
        .in_valid(lut_on ? lut_valid : pre_valid), .in_ready(ocvt_ready),
        .in_data(lut_on ? lut_data : y_out),
        .out_valid(out_valid), .out_ready(out_ready), .out_data(out_data), .out_sat(out_sat),
        .out_neq(out_neq)
    );

    wire out_fire = out_valid & out_ready;

    nvdla_sat_counter #(.LANES(ATOM), .CNT_W(CNT_W)) u_sat_cnt (
        .clk(clk), .rst_n(rst_n), .clr(start), .inc_valid(out_fire), .inc_mask(out_sat), .count(cnt_out_sat)
    );

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) status_unequal <= 1'b0;
        else if (start) status_unequal <= 1'b0;
        else if (out_fire & (|out_neq)) status_unequal <= 1'b1;
    end

    // ---------------------------------------------------------------- busy
    // atoms between the input skid and the output, plus operand atoms waiting in their skids
    localparam INF_W = 6;                    // holds the most in flight: 2 + 9 + 7 (LUT) + 3 < 64
    reg  [INF_W-1:0] inflight;
    wire in_fire = in_valid & in_ready;
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) inflight <= {INF_W{1'b0}};
        else if (in_fire & ~out_fire) inflight <= inflight + 1'b1;
        else if (~in_fire & out_fire) inflight <= inflight - 1'b1;
    end
    assign busy = (inflight != {INF_W{1'b0}}) | bs_valid | bn_valid | ew_valid;

    // MUL_SHIFT_VALUE is 8 bits in the register map; the data path uses 6 (models/sdp_datapath.py)
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_cfg = ^{bs_mul_shift[7:6], bn_mul_shift[7:6]};
    /* verilator lint_on UNUSEDSIGNAL */
endmodule
