// SDP datapath core, INT8: every lane computes models/sdp/datapath.py sdp_datapath for one element,
//   BS (nvdla_sdp_x) -> BN (nvdla_sdp_x) -> EW MUL, ALU (nvdla_sdp_y, operands from nvdla_sdp_ewcvt)
//   -> EW LUT (nvdla_lut, SDP flavour; skipped when bypassed) -> output convertor (nvdla_sdp_ocvt).
// Ports and stream contract: docs/CONTRACTS.md "SDP core". One atom (ATOM int8 lanes) per cycle sustained,
// valid/ready with full backpressure on all five streams. The configuration comes in as the SDP register
// bundle `cfg` and the counts leave as its `stat` bundle, sliced here with the generated names.
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
//
// INT16 (parameter INT16 = 1; models/sdp/model.py): the data ports carry ATOM 16-bit lanes. `in16`: the input
// lanes are two-byte values (INT16 processing: the low ATOM/2 lanes hold the atom's elements, the rest 0;
// the 16to8 mode: all ATOM lanes, two memory atoms joined by nvdla_sdp_join16), sign-extended into the same
// 32-bit datapath; `out16`: the output convertor's 17-bit result saturates to int16 instead of int8 (the
// low byte of each lane is the int8 result otherwise); `half`: INT16 processing, ATOM/2 elements per atom,
// so only the low ATOM/2 lanes count in the saturation, LUT and EQL statistics. With INT16 = 0 the data
// ports are ATOM bytes wide, those inputs are ignored and none of this is built.
//
// FP16 (parameter FP16 = 1, needs INT16 = 1; models/sdp/fp16.py): `fp16` (with in16 and half, as INT16
// processing) reads the low ATOM/2 lanes as FP16, widens them to FP32 (NaN -> +0 with NAN_TO_ZERO) and runs
// them through nvdla_sdp_fpx (BS, BN) and nvdla_sdp_fpy (EW MUL, ALU) in the same stages 1..9 instead of
// the INT blocks; the output convertor narrows to FP16 (or, `out_int`, INT16: nvdla_sdp_fpo) and the NaN
// outputs are counted in D_STATUS_NAN_OUTPUT_NUM. `out_fp` (INT16 processing): the output
// convertor's 17-bit results become FP16. The EW LUT runs at FP16 too (nvdla_lut FP16 = 1, models/lut/fp16.py:
// FP32 in, FP17 interpolation widened to FP32 out, on the low ATOM/2 lanes). With FP16 = 0 none of it is
// built.
`include "nvdla_sdp_fields.vh"
module nvdla_sdp_core #(
    parameter ATOM  = 8,
    parameter LUT   = 1,    // 0: no LUT (the caller then keeps EW_LUT_BYPASS set); LUT accesses read 0
    parameter INT16 = 0,    // 1: 16-bit lanes on the data ports and the in16/out16/half modes
    parameter FP16  = 0,    // 1: the fp16/out_int modes (needs INT16 = 1)
    parameter CONV  = 0,    // 1: `in32` selects the 32-bit input in32_data (CACC's, on the fly)
    parameter LUT_LANES = ATOM,   // the LUT's lanes (the configuration's EW throughput; a gearbox between
                                  // them and the atom when fewer: nvdla_lut DP_LANES)
    parameter EW_B  = (INT16 == 1) ? 2 : 1   // bytes per lane on the data ports (derived; do not set)
) (
    input  wire                 clk,
    input  wire                 rst_n,
    input  wire                 start,
    output wire                 busy,
    output wire                 lut_busy,   // the LUT tables' clear sweep after reset (nvdla_lut busy)
    // SDP configuration bundle (rtl/gen/nvdla_sdp_fields.vh): D_DP_BS/BN/EW_*, D_CVT_*, S_LUT_*
    /* verilator lint_off UNUSEDSIGNAL */  // each block reads its own fields of the bundle
    input  wire [`SDP_CFG_W-1:0] cfg,
    /* verilator lint_on UNUSEDSIGNAL */
    // precision modes (INT16 = 1 only; see above), stable like the configuration
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire                 in16,
    input  wire                 out16,
    input  wire                 half,
    input  wire                 fp16,       // FP16 processing (FP16 = 1 only)
    input  wire                 out_int,    // with fp16: INT16 output, else FP16
    input  wire                 out_fp,     // without fp16: FP16 output of INT16 processing
    /* verilator lint_on UNUSEDSIGNAL */
    // which operand streams carry data this layer
    input  wire                 bs_op_en,
    input  wire                 bn_op_en,
    input  wire                 ew_op_en,
    // streams
    input  wire                 in_valid,
    output wire                 in_ready,
    input  wire [ATOM*8*EW_B-1:0] in_data,
    /* verilator lint_off UNUSEDSIGNAL */  // CONV = 1 only
    input  wire                 in32,
    input  wire [ATOM*32-1:0]   in32_data,
    /* verilator lint_on UNUSEDSIGNAL */
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
    output wire [ATOM*8*EW_B-1:0] out_data,
    // SDP statistics bundle: counts and EQL status since start (held from done to the next start)
    output wire [`SDP_STAT_W-1:0] stat
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (ATOM < 1 || (LUT != 0 && LUT != 1) || (INT16 != 0 && INT16 != 1) || (INT16 == 1 && ATOM < 2)
            || EW_B != ((INT16 == 1) ? 2 : 1) || (FP16 != 0 && FP16 != 1) || (FP16 == 1 && INT16 != 1)
            || (CONV != 0 && CONV != 1)) begin
            $display("ERROR: nvdla_sdp_core %m: ATOM >= 1, LUT 0 or 1, INT16 0 or 1 and with INT16 ATOM >= 2, ",
                     "EW_B not set, FP16 0 or 1 and only with INT16, CONV 0 or 1");
            $finish;
        end
    end
    localparam CNT_W = 32;                   // the statistics registers' width (regmap)
    localparam DW    = ATOM * 32;            // 32-bit lanes of the flying data and of the operands
    localparam PRE_D = 9;                    // stall-pipeline stages before the LUT

    // ---------------------------------------------------------------- input skids
    wire          x_valid, bs_valid, bn_valid, ew_valid;
    wire          x_take, bs_take, bn_take, ew_take;
    localparam SKW = (CONV == 1) ? ATOM * 32 : ATOM * 8 * EW_B;   // the input skid's width
    wire [SKW-1:0] x_data;
    wire [DW-1:0] bs_data, bn_data, ew_data;

    // int8 (or, INT16 = 1 with in16, int16) input lanes sign-extended to the 32-bit flying width: after the
    // skid, or (CONV = 1: the skid also carries CACC's 32-bit lanes) before it
    wire w16 = (INT16 == 1) & in16;
    // (with EW_B = 1 wide16 is 0 and its branch dead: it selects lane j's 8 bits, so that every index stays
    // inside d at any ATOM, down to the one-lane core behind nvdla_sdp_lanes)
    function [ATOM*32-1:0] widen(input [ATOM*8*EW_B-1:0] d, input wide16);
        integer j;
        for (j = 0; j < ATOM; j = j + 1)
            widen[j*32 +: 32] = wide16 ? {{(32-8*EW_B){d[j*8*EW_B + 8*EW_B - 1]}}, d[j*8*EW_B +: 8*EW_B]}
                                       : {{24{d[j*8 + 7]}}, d[j*8 +: 8]};
    endfunction
    wire [SKW-1:0] skid_in;
    wire [DW-1:0]  x32;
    generate
        if (CONV == 1) begin : g_in32
            assign skid_in = in32 ? in32_data : widen(in_data, w16);
            assign x32     = x_data;
        end else begin : g_in8
            assign skid_in = in_data;
            assign x32     = widen(x_data, w16);
        end
    endgenerate
    nvdla_skid #(.WIDTH(SKW)) u_in_skid (
        .clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .in_data(skid_in),
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

    // the lanes that count in the statistics: all, or (INT16 processing) the low ATOM/2
    wire [ATOM-1:0] lanes_on = ((INT16 == 1) & half) ? {ATOM{1'b1}} >> (ATOM - ATOM / 2) : {ATOM{1'b1}};

    // the BN and EW operands travel beside BS (stages 1-3) until their blocks take them
    reg [DW-1:0] bn_d1, bn_d2, bn_d3, ew_d1, ew_d2, ew_d3;
    always @(posedge clk) begin
        if (en[0]) begin bn_d1 <= bn_data; ew_d1 <= ew_data; end
        if (en[1]) begin bn_d2 <= bn_d1;   ew_d2 <= ew_d1;   end
        if (en[2]) begin bn_d3 <= bn_d2;   ew_d3 <= ew_d2;   end
    end

    wire [DW-1:0] bs_out, bn_out, ew_alu_op, ew_mul_op, y_out;

    // MUL_SHIFT_VALUE is 8 bits in the register map; the data path uses 6 (models/sdp/datapath.py)

    nvdla_sdp_x #(.LANES(ATOM)) u_bs (
        .clk(clk), .en(en[2:0]),
        .x_cfg(`SDP_X_CFG_BS(cfg)),
        .op_en(bs_op_en), .in_x(x32), .in_op(bs_data), .out_x(bs_out)
    );

    nvdla_sdp_x #(.LANES(ATOM)) u_bn (
        .clk(clk), .en(en[5:3]),
        .x_cfg(`SDP_X_CFG_BN(cfg)),
        .op_en(bn_op_en), .in_x(bs_out), .in_op(bn_d3), .out_x(bn_out)
    );

    nvdla_sdp_ewcvt #(.LANES(ATOM)) u_ewcvt (
        .clk(clk), .en(en[5:3]),
        .cfg_alu_src(cfg[`SDP_EW_ALU_SRC]), .cfg_alu_cvt_bypass(cfg[`SDP_EW_ALU_CVT_BYPASS]),
        .cfg_alu_operand(cfg[`SDP_EW_ALU_OPERAND]), .cfg_alu_cvt_offset(cfg[`SDP_EW_ALU_CVT_OFFSET]),
        .cfg_alu_cvt_scale(cfg[`SDP_EW_ALU_CVT_SCALE]), .cfg_alu_cvt_truncate(cfg[`SDP_EW_ALU_CVT_TRUNCATE]),
        .cfg_mul_src(cfg[`SDP_EW_MUL_SRC]), .cfg_mul_cvt_bypass(cfg[`SDP_EW_MUL_CVT_BYPASS]),
        .cfg_mul_operand(cfg[`SDP_EW_MUL_OPERAND]), .cfg_mul_cvt_offset(cfg[`SDP_EW_MUL_CVT_OFFSET]),
        .cfg_mul_cvt_scale(cfg[`SDP_EW_MUL_CVT_SCALE]), .cfg_mul_cvt_truncate(cfg[`SDP_EW_MUL_CVT_TRUNCATE]),
        .op_en(ew_op_en), .in_op(ew_d3), .out_alu_op(ew_alu_op), .out_mul_op(ew_mul_op)
    );

    nvdla_sdp_y #(.LANES(ATOM)) u_ew (
        .clk(clk), .en(en[8:6]),
        .cfg_bypass(cfg[`SDP_EW_BYPASS]), .cfg_alu_bypass(cfg[`SDP_EW_ALU_BYPASS]),
        .cfg_alu_algo(cfg[`SDP_EW_ALU_ALGO]), .cfg_mul_bypass(cfg[`SDP_EW_MUL_BYPASS]),
        .cfg_mul_prelu(cfg[`SDP_EW_MUL_PRELU]), .cfg_truncate(cfg[`SDP_EW_TRUNCATE]),
        .in_x(bn_out), .in_alu_op(ew_alu_op), .in_mul_op(ew_mul_op), .out_x(y_out)
    );

    // ---------------------------------------------------------------- FP16 processing (FP16 = 1)
    wire          f_on = (FP16 == 1) & fp16;
    wire [DW-1:0] fp_out;      // the FP16 path's stage-9 result (FP32 bits, or EQL's 0/1)
    wire [DW-1:0] y_sel = f_on ? fp_out : y_out;
    generate
        if (FP16 == 1) begin : g_fp
            // FP16 processing has INT16 processing's geometry: only the low ATOM/2 lanes carry elements, so
            // only they are built (the others give 0)
            localparam    FL  = ATOM / 2;
            localparam    FW  = FL * 32;
            wire          n2z = cfg[`SDP_NAN_TO_ZERO];
            reg  [FW-1:0] xf, ew_d4, ew_d5, ew_d6;
            wire [FW-1:0] xw, fbs_out, fbn_out, f_out;
            integer f;
            // the input lanes widened to FP32 (exact; an infinity becomes FP32's largest finite value), a
            // NaN then flushed to +0 with NAN_TO_ZERO (only NaNs: the flush looks at the FP32 value)
            genvar g;
            for (g = 0; g < FL; g = g + 1) begin : g_in
                // the FP16 lane: 16 bits a lane, or (CONV = 1: the skid carries 32-bit lanes, the memory
                // input's 16-bit lanes sign-extended into them) the low half of lane g
                nvdla_fp_widen #(.EI(5), .MI(10), .EO(8), .MO(23), .DENORM(1)) u_w (
                    .x(CONV == 1 ? x_data[g*32 +: 16] : x_data[g*16*(EW_B-1) +: 16]), .y(xw[g*32 +: 32])
                );
            end
            always @(*) begin
                for (f = 0; f < FL; f = f + 1)
                    xf[f*32 +: 32] = (n2z && xw[f*32 + 23 +: 8] == 8'hFF && xw[f*32 +: 23] != 23'd0)
                                   ? 32'd0 : xw[f*32 +: 32];
            end
            // the EW operands travel on beside BN (stages 4-6) until the EW block takes them
            always @(posedge clk) begin
                if (en[3]) ew_d4 <= ew_d3[FW-1:0];
                if (en[4]) ew_d5 <= ew_d4;
                if (en[5]) ew_d6 <= ew_d5;
            end
            nvdla_sdp_fpx #(.LANES(FL)) u_fbs (
                .clk(clk), .en(en[2:0]), .x_cfg(`SDP_X_CFG_BS(cfg)), .nan_to_zero(n2z),
                .op_en(bs_op_en), .in_x(xf), .in_op(bs_data[FW-1:0]), .out_x(fbs_out)
            );
            nvdla_sdp_fpx #(.LANES(FL)) u_fbn (
                .clk(clk), .en(en[5:3]), .x_cfg(`SDP_X_CFG_BN(cfg)), .nan_to_zero(n2z),
                .op_en(bn_op_en), .in_x(fbs_out), .in_op(bn_d3[FW-1:0]), .out_x(fbn_out)
            );
            nvdla_sdp_fpy #(.LANES(FL)) u_few (
                .clk(clk), .en(en[8:6]),
                .cfg_bypass(cfg[`SDP_EW_BYPASS]), .cfg_alu_bypass(cfg[`SDP_EW_ALU_BYPASS]),
                .cfg_alu_algo(cfg[`SDP_EW_ALU_ALGO]), .cfg_alu_src(cfg[`SDP_EW_ALU_SRC]),
                .cfg_alu_operand(cfg[`SDP_EW_ALU_OPERAND]), .cfg_mul_bypass(cfg[`SDP_EW_MUL_BYPASS]),
                .cfg_mul_prelu(cfg[`SDP_EW_MUL_PRELU]), .cfg_mul_src(cfg[`SDP_EW_MUL_SRC]),
                .cfg_mul_operand(cfg[`SDP_EW_MUL_OPERAND]), .nan_to_zero(n2z),
                .op_en(ew_op_en), .in_x(fbn_out), .in_op(ew_d6), .out_x(f_out)
            );
            assign fp_out = {{(DW-FW){1'b0}}, f_out};
        end else begin : g_no_fp
            assign fp_out = {DW{1'b0}};
        end
    endgenerate

    // ---------------------------------------------------------------- LUT, or around it
    wire ew_bypass = cfg[`SDP_EW_BYPASS];
    wire lut_on    = ~ew_bypass & ~cfg[`SDP_EW_LUT_BYPASS];
    wire eql       = ~ew_bypass & ~cfg[`SDP_EW_ALU_BYPASS] & (cfg[`SDP_EW_ALU_ALGO] == 2'd3);

    wire          lut_in_ready, lut_valid, ocvt_ready;
    wire [DW-1:0] lut_data;

    assign pre_ready = lut_on ? lut_in_ready : ocvt_ready;

    wire [CNT_W-1:0] cnt_le_hit, cnt_lo_hit, cnt_uflow, cnt_oflow, cnt_hybrid, cnt_out_sat;
    // D_PERF_ENABLE's saturation (and, below, LUT) enable (docs/perf_counters.md): an enabled layer clears
    // and counts, a disabled one leaves the count of the last enabled layer (NVIDIA's counters clear at the
    // layer start and count only while enabled)
    wire perf_sat = cfg[`SDP_PERF_SAT_EN];

    generate
        if (LUT == 1) begin : g_lut
            /* verilator lint_off PINCONNECTEMPTY */
            nvdla_lut #(.LANES(ATOM), .DP_LANES(LUT_LANES), .IN_W(32), .CFG_W(`SDP_LUT_CFG_BOUND_W), .SDP(1), .CNT_W(CNT_W),
                        .FP16(FP16)) u_lut (
                .clk(clk), .rst_n(rst_n),
                .lut_cfg(`SDP_LUT_CFG(cfg)),
                .int16(1'b0),   // CDP's INT16 lane rules (SDP's LUT works alike at every precision)
                .fp16(f_on),    // FP16 processing: FP32 samples in the low ATOM/2 lanes, FP32 results
                .acc_we(cfg[`SDP_LUT_ACCESS_WE]), .acc_table(cfg[`SDP_LUT_TABLE_ID]),
                .acc_addr(cfg[`SDP_LUT_ACCESS_ADDR]), .acc_next(cfg[`SDP_LUT_ACCESS_NEXT]),
                .acc_wdata(cfg[`SDP_LUT_ACCESS_WDATA]), .acc_rdata(stat[`SDP_LUT_ACCESS_RDATA]), .busy(lut_busy),
                .in_valid(pre_valid & lut_on), .in_ready(lut_in_ready), .in_data(y_sel),
                .out_valid(lut_valid), .out_ready(ocvt_ready & lut_on), .out_data(lut_data), .out_dbg(),
                // samples that skip the LUT are not looked up, so they are not counted (the model's empty stats);
                // PERF_LUT_EN gates the counters as in NVIDIA's RTL: a disabled layer neither clears nor counts
                .cnt_clr(start & cfg[`SDP_PERF_LUT_EN]), .cnt_en(lut_on & cfg[`SDP_PERF_LUT_EN]),
                .cnt_half((INT16 == 1) & half),
                .cnt_le_hit(cnt_le_hit), .cnt_lo_hit(cnt_lo_hit), .cnt_uflow(cnt_uflow), .cnt_oflow(cnt_oflow),
                .cnt_hybrid(cnt_hybrid)
            );
            /* verilator lint_on PINCONNECTEMPTY */
        end else begin : g_no_lut
            // the access registers stay (their pointer too, in the register block); no RAM behind them
            assign stat[`SDP_LUT_ACCESS_RDATA] = 16'd0;
            assign lut_busy     = 1'b0;
            assign lut_in_ready = 1'b0;
            assign lut_valid    = 1'b0;
            assign lut_data     = {DW{1'b0}};
            assign cnt_le_hit   = {CNT_W{1'b0}};
            assign cnt_lo_hit   = {CNT_W{1'b0}};
            assign cnt_uflow    = {CNT_W{1'b0}};
            assign cnt_oflow    = {CNT_W{1'b0}};
            assign cnt_hybrid   = {CNT_W{1'b0}};
        end
    endgenerate

    // ---------------------------------------------------------------- output convertor, statistics
    wire [ATOM-1:0] out_sat, out_neq, out_nan;

    nvdla_sdp_ocvt #(.LANES(ATOM), .INT16(INT16), .FP16(FP16)) u_ocvt (
        .clk(clk), .rst_n(rst_n), .out16(out16), .fp16(fp16), .out_int(out_int), .out_fp(out_fp),
        .cfg_offset(cfg[`SDP_CVT_OFFSET]), .cfg_scale(cfg[`SDP_CVT_SCALE]), .cfg_shift(cfg[`SDP_CVT_SHIFT]),
        .cfg_eql(eql),
        .in_valid(lut_on ? lut_valid : pre_valid), .in_ready(ocvt_ready),
        .in_data(lut_on ? lut_data : y_sel),
        .out_valid(out_valid), .out_ready(out_ready), .out_data(out_data), .out_sat(out_sat),
        .out_neq(out_neq), .out_nan(out_nan)
    );

    wire out_fire = out_valid & out_ready;

    nvdla_sat_counter #(.LANES(ATOM), .CNT_W(CNT_W)) u_sat_cnt (
        .clk(clk), .rst_n(rst_n), .clr(start & perf_sat), .inc_valid(out_fire & perf_sat), .inc_mask(out_sat & lanes_on),
        .count(cnt_out_sat)
    );

    // D_STATUS_NAN_OUTPUT_NUM: FP16 NaN outputs of an FP16 layer (models/sdp/fp16.py; other layers keep it)
    wire [CNT_W-1:0] cnt_nan_out;
    nvdla_sat_counter #(.LANES(ATOM), .CNT_W(CNT_W)) u_nan_cnt (
        .clk(clk), .rst_n(rst_n), .clr(start & f_on), .inc_valid(out_fire & f_on), .inc_mask(out_nan & lanes_on),
        .count(cnt_nan_out)
    );

    reg status_unequal;
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) status_unequal <= 1'b0;
        else if (start) status_unequal <= 1'b0;
        else if (out_fire & (|(out_neq & lanes_on))) status_unequal <= 1'b1;
    end

    assign stat[`SDP_STATUS_UNEQUAL]         = status_unequal;
    assign stat[`SDP_LUT_LE_HIT]             = cnt_le_hit;
    assign stat[`SDP_LUT_LO_HIT]             = cnt_lo_hit;
    assign stat[`SDP_LUT_UFLOW]              = cnt_uflow;
    assign stat[`SDP_LUT_OFLOW]              = cnt_oflow;
    assign stat[`SDP_LUT_HYBRID]             = cnt_hybrid;
    assign stat[`SDP_OUT_SATURATION]         = cnt_out_sat;
    // NaN / Inf inputs are SDP_RDMA's counts (nv_full ties SDP's to 0); the write stall count is the write
    // DMA's (nvdla_sdp replaces this 0)
    assign stat[`SDP_STATUS_NAN_INPUT_NUM]   = 32'd0;
    assign stat[`SDP_STATUS_INF_INPUT_NUM]   = 32'd0;
    assign stat[`SDP_STATUS_NAN_OUTPUT_NUM]  = cnt_nan_out;
    assign stat[`SDP_WDMA_STALL]             = 32'd0;

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
endmodule
