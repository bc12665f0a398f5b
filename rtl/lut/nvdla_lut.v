// NVDLA's two-level hybrid LUT (seed 000 "LUT programming"; cmod lookup_lut_int8 for CDP, SDP_CORE_Y
// idx/inp for SDP): LANES samples per beat, one beat per cycle, valid/ready with full backpressure.
//
// Each sample x is looked up in both tables (nvdla_lut_index): LE (linear or exponential) and LO (linear).
// Table choice: both underflow -> UFLOW_PRIORITY; both overflow -> OFLOW_PRIORITY; exactly one hits ->
// that one; anything else (both hit, or one under- and one overflow) -> HYBRID_PRIORITY (0 LE, 1 LO).
// A hit interpolates between entries index and index+1; an under/overflow extrapolates from entry 0 /
// the last entry with the table's slope (nvdla_lut_interp). SDP = 1 selects SDP's pipeline (32-bit
// output, 35-bit fraction, the hit rounded as a whole, bias 2^offset only for offset > 0) and its
// statistics; SDP = 0 CDP's (16-bit output, 16-bit fraction, bias 2^offset for offset >= 0).
//
// Statistics (saturating CNT_W counters of the samples that leave the unit, cleared by cnt_clr,
// counting only while cnt_en):
//   CDP: uflow = both tables under; oflow = both over; le_hit / lo_hit = only that table hits;
//        hybrid = the rest (both hit, or one under and one over).
//   SDP: uflow / oflow = the chosen table under / over; le_hit / lo_hit = that table hits (whatever the
//        other does); hybrid = the chosen table hits.
//
// START_MODE (CDP at INT8; models/lut/model.py lut_lanes, docs/lut.md "START width"): how a lane forms x - START
// for its index, as NVIDIA's NV_NVDLA_CDP_DP_LUT_CTRL_unit.v does. 0: the whole START (SDP); 1: START[21:0]
// as a signed 22-bit number on every lane (nv_small and the master branch's designs); 2: nvdlav1's INT8
// pairs: even lanes the whole START with the low 23 (LE, linear) / 22 (LO) bits of the difference kept for
// the index, odd lanes START[21:0]. The under/overflow slopes measure from the whole START/END either way.
// int16 (CDP at INT16, NVIDIA's nv_full; models/cdp/model.py): every lane forms x - START from the whole registers
// and keeps all of the difference whatever START_MODE says, and the upper LANES/2 lanes, which a 16-bit
// layer leaves unused, count as hybrid only, one per sample whatever they hold (NVIDIA's interpolator sees
// them "both hit"). SDP ties it 0.
//
// FP16 = 1 (NVIDIA's nv_full; models/lut/fp16.py) builds the FP16 path in the lower LANES/2 lanes (an FP16
// atom's elements, as at INT16), taken while the `fp16` input is high: the sample's low 32 bits and START/END's
// are FP32 bits, the entries and slopes FP16 bits, the index and fraction come exactly from x - START in FP32
// (nvdla_lut_fpindex), the interpolation is FP17 (nvdla_lut_fpinterp), the slope shifts are not used; the
// table choice and the counters are the integer LUT's. The output is FP32 bits in SDP (its Y block widens
// the FP17 result), FP17 bits in the low 17 of Y_W in CDP (then Y_W = 17, integer results sign-extended to
// it); the upper LANES/2 lanes give 0 then. FP16 = 0 builds none of it and `fp16` is not read.
//
// Pipeline: input skid -> S1 x - start/end -> S2 index and table choice -> S3 table read
//           -> S4 multiply -> S5 round, add, saturate (output register).
// DP_LANES < LANES (the configuration's throughput, issue 29): a gearbox (nvdla_gear_split after the skid,
// nvdla_gear_join after S5) runs each beat through DP_LANES lanes in LANES / DP_LANES sub-beats, sample
// s * DP_LANES + k of a beat in lane k of sub-beat s; a beat then takes that many cycles, its results are the
// same. A lane keeps its parity (START_MODE 2 needs an even DP_LANES then); with FP16 every lane builds the
// float path (a lane sees both halves of a beat), and the statistics place each sub-beat's lanes in the beat.
// Tables (nvdla_lut_ram): block-RAM memories, one copy per read port (two per lane and the access port's),
// cleared by a sweep from reset (NVIDIA's flop tables reset to 0): `busy` is high while it runs
// (max(LE_DEPTH, LO_DEPTH) cycles after reset); samples wait (in_ready low) and the access port must not be
// used then (the top level holds the CSB off while any unit's LUT is busy).
// Configuration inputs must be stable while samples are in flight; tables must not be written then.
`include "nvdla_lut_cfg.vh"
module nvdla_lut #(
    parameter LANES    = 1,        // samples a beat on the ports (the memory atom's elements)
    parameter DP_LANES = LANES,    // lanes of the datapath (the configuration's throughput): LANES / DP_LANES
                                   // sub-beats a beat through a gearbox, or with DP_LANES = LANES none
    parameter IN_W     = 32,
    parameter CFG_W    = 32,       // START/END width: 32 in SDP, 38 ({HIGH[5:0], LOW}) in CDP
    parameter SDP      = 1,
    parameter LE_DEPTH = 65,
    parameter LO_DEPTH = 257,
    parameter CNT_W    = 32,
    parameter START_MODE = 0,      // 0 whole START, 1 narrow (START[21:0]), 2 nvdlav1's INT8 pairs
    parameter OUT_W    = (SDP != 0) ? 32 : 16,
    parameter FP16     = 0,        // 1: the FP16 path (needs IN_W, CFG_W >= 32 and an even LANES)
    parameter Y_W      = (FP16 != 0 && SDP == 0 && OUT_W < 17) ? 17 : OUT_W,  // output lane (derived; do not set)
    parameter R        = (DP_LANES > 0) ? LANES / DP_LANES : 1            // sub-beats a beat (derived; do not set)
) (
    input  wire                     clk,
    input  wire                     rst_n,
    input  wire                     int16,      // CDP INT16 layer (see above); stable like the configuration
    input  wire                     fp16,       // an FP16 layer (FP16 = 1 only); stable like the configuration
    // S_LUT_CFG / S_LUT_INFO / S_LUT_*_START/END / S_LUT_*_SLOPE_*: the LUT_CFG sub-bundle of the unit's
    // cfg (rtl/gen/nvdla_lut_cfg.vh; a unit assembles it with `<UNIT>_LUT_CFG(cfg)), START/END CFG_W wide
    input  wire [`LUT_CFG_W(CFG_W)-1:0] lut_cfg,
    // table access port (the register block's LUT_ACCESS_* bundle slices, nvdla_lut_ram): the pointer
    // and its style (CDP saturating, SDP wrapping) live in the register block
    input  wire                     acc_we,
    input  wire                     acc_table,
    input  wire [9:0]               acc_addr,
    input  wire [9:0]               acc_next,   // the pointer's next value (the RAM's read address register)
    input  wire [15:0]              acc_wdata,
    output wire [15:0]              acc_rdata,
    output wire                     busy,       // the tables' clear sweep after reset runs: no access then
    // sample stream
    input  wire                     in_valid,
    output wire                     in_ready,
    input  wire [LANES*IN_W-1:0]    in_data,
    output wire                     out_valid,
    input  wire                     out_ready,
    output wire [LANES*Y_W-1:0]     out_data,
    // per lane {table (1: LO), uflow, oflow, index[8:0]} of the chosen table, for debug
    output wire [LANES*12-1:0]      out_dbg,
    // statistics
    input  wire                     cnt_clr,
    input  wire                     cnt_en,
    input  wire                     cnt_half,   // only the lower LANES/2 lanes count (SDP at INT16)
    output wire [CNT_W-1:0]         cnt_le_hit,
    output wire [CNT_W-1:0]         cnt_lo_hit,
    output wire [CNT_W-1:0]         cnt_uflow,
    output wire [CNT_W-1:0]         cnt_oflow,
    output wire [CNT_W-1:0]         cnt_hybrid
);
    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (LANES < 1 || IN_W < 1 || CFG_W < 1 || START_MODE < 0 || START_MODE > 2
            || (START_MODE != 0 && CFG_W < 23) || (FP16 != 0 && FP16 != 1)
            || (FP16 == 1 && (IN_W < 32 || CFG_W < 32 || LANES < 2 || LANES % 2 != 0 || (SDP != 0 && OUT_W != 32)))
            || Y_W != ((FP16 != 0 && SDP == 0 && OUT_W < 17) ? 17 : OUT_W)
            || DP_LANES < 1 || LANES % DP_LANES != 0 || R != LANES / DP_LANES
            || (START_MODE == 2 && R > 1 && DP_LANES % 2 != 0)) begin
            $display("ERROR: nvdla_lut %m: LANES, IN_W, CFG_W >= 1; START_MODE 0..2, and 1, 2 only with START ",
                     "of more than 22 bits (CDP); FP16 0 or 1, and 1 only with IN_W, CFG_W >= 32, an even LANES ",
                     "and in SDP OUT_W 32; Y_W, R not set; DP_LANES divides LANES, and is even with START_MODE 2 ",
                     "(a lane keeps its parity)");
            $finish;
        end
    end

    // ---------------------------------------------------------------- tables and access port
    localparam DW = DP_LANES * IN_W;            // a sub-beat of samples
    localparam OW = DP_LANES * (Y_W + 12);      // a sub-beat of results and debug words
    localparam SW = (R > 1) ? $clog2(R) : 1;    // sub-beat index
    wire [4:0]            en;
    wire [DP_LANES-1:0]   rd_tab;
    wire [DP_LANES*9-1:0] rd_a0, rd_a1;
    wire [DP_LANES*16-1:0] rd_y0, rd_y1;

    nvdla_lut_ram #(.LE_DEPTH(LE_DEPTH), .LO_DEPTH(LO_DEPTH), .ADDR_W(10), .RD(DP_LANES), .IDX_W(9)) u_ram (
        .clk(clk), .rst_n(rst_n), .busy(busy), .we(acc_we), .table_sel(acc_table), .addr(acc_addr), .next(acc_next),
        .wdata(acc_wdata), .rdata(acc_rdata),
        .rd_en(en[2]), .rd_tab(rd_tab), .rd_a0(rd_a0), .rd_a1(rd_a1), .rd_y0(rd_y0), .rd_y1(rd_y1)
    );

    // ---------------------------------------------------------------- stream control
    // input skid -> (R > 1: gearbox split into DP_LANES-sample sub-beats) -> the five-stage lane pipeline
    // -> (R > 1: gearbox join back into beats) -> out
    wire                  s0_valid;
    wire                  s0_ready;
    wire [LANES*IN_W-1:0] s0_data;
    wire                  p_valid, p_ready;   // the pipeline's input (a sub-beat)
    wire [DW-1:0]         p_data;
    wire                  q_valid, q_ready;   // its output
    wire [OW-1:0]         q_data;             // {debug words, results} of a sub-beat
    wire [SW-1:0]         q_slot;             // which sub-beat of its beat leaves the pipeline
    wire [LANES*(Y_W+12)-1:0] o_data;         // a beat of {debug words, results} (the join's order)

    // no sample enters while the tables are being cleared (busy is a register: no path from in_valid)
    wire skid_ready;
    assign in_ready = skid_ready & ~busy;
    nvdla_skid #(.WIDTH(LANES*IN_W)) u_in_skid (
        .clk(clk), .rst_n(rst_n),
        .in_valid(in_valid & ~busy), .in_ready(skid_ready), .in_data(in_data),
        .out_valid(s0_valid), .out_ready(s0_ready), .out_data(s0_data)
    );

    nvdla_pipe_ctrl #(.DEPTH(5)) u_ctrl (
        .clk(clk), .rst_n(rst_n),
        .in_valid(p_valid), .in_ready(p_ready), .stage_en(en),
        .out_valid(q_valid), .out_ready(q_ready)
    );

    generate
        if (R > 1) begin : g_gear
            /* verilator lint_off PINCONNECTEMPTY */
            nvdla_gear_split #(.W(DW), .R(R)) u_split (
                .clk(clk), .rst_n(rst_n),
                .in_valid(s0_valid), .in_ready(s0_ready), .in_data(s0_data),
                .out_valid(p_valid), .out_ready(p_ready), .out_data(p_data), .out_idx(), .out_last()
            );
            /* verilator lint_on PINCONNECTEMPTY */
            nvdla_gear_join #(.W(OW), .R(R)) u_join (
                .clk(clk), .rst_n(rst_n),
                .in_valid(q_valid), .in_ready(q_ready), .in_data(q_data),
                .out_valid(out_valid), .out_ready(out_ready), .out_data(o_data), .slot(q_slot)
            );
        end else begin : g_direct
            assign p_valid  = s0_valid;
            assign s0_ready = p_ready;
            assign p_data   = s0_data;
            assign out_valid = q_valid;
            assign q_ready  = out_ready;
            assign o_data   = q_data;
            assign q_slot   = 1'b0;
        end
    endgenerate

    // ---------------------------------------------------------------- FP16: the exponential LE's anchor
    // START + 2^LE_INDEX_OFFSET in FP32 (models/lut/fp16.py _exp_start), from the configuration only, so once
    // for all lanes: the power of two's exponent field is offset + 127 (8 bits, wrapping); SDP adds it to
    // START, CDP adds START to it and reads offsets -128 and -127 as 0.
    wire [31:0] fp_exp_start;
    generate
        if (FP16 == 1) begin : g_fp_exp
            wire [7:0]  off = lut_cfg[`LUT_CFG_LE_INDEX_OFFSET];
            /* verilator lint_off UNUSEDSIGNAL */
            wire [CFG_W-1:0] le_start = lut_cfg[`LUT_CFG_LE_START(CFG_W)];   // FP32 bits in [31:0]
            /* verilator lint_on UNUSEDSIGNAL */
            wire [31:0] st  = le_start[31:0];
            wire [31:0] two = (SDP == 0 && (off == 8'h80 || off == 8'h81)) ? 32'd0 : {1'b0, off + 8'd127, 23'd0};
            if (SDP != 0) begin : g_sdp
                nvdla_fp_add #(.E(8), .M(23)) u_add (.a(st), .b(two), .y(fp_exp_start));
            end else begin : g_cdp
                nvdla_fp_add #(.E(8), .M(23)) u_add (.a(two), .b(st), .y(fp_exp_start));
            end
        end else begin : g_no_fp
            assign fp_exp_start = 32'd0;
        end
    endgenerate

    // ---------------------------------------------------------------- per-lane datapath
    wire [DP_LANES*5-1:0] s5_cls;   // {hybrid, oflow, uflow, lo_hit, le_hit} counter classes per lane

    genvar l;
    generate
        for (l = 0; l < DP_LANES; l = l + 1) begin : g_lane
            // this lane's index logic (START_MODE): narrow START, or the whole START with kept differences
            // (a lane keeps its parity through the gearbox: DP_LANES is even then)
            localparam NARROW = (START_MODE == 1) || (START_MODE == 2 && (l % 2) == 1);
            localparam PAIRED = (START_MODE == 2 && (l % 2) == 0);
            // FP16: the float path in the lower half of the beat's samples only: the lower half of the lanes
            // without a gearbox, every lane with one (a lane sees both halves; the upper's results read 0)
            localparam FPL = (FP16 == 1) && (R > 1 || l < LANES / 2);
            wire [Y_W-1:0] y_l;
            nvdla_lut_lane #(.IN_W(IN_W), .CFG_W(CFG_W), .SDP(SDP), .LE_DEPTH(LE_DEPTH), .LO_DEPTH(LO_DEPTH),
                             .OUT_W(OUT_W), .NARROW(NARROW ? 1 : 0), .LE_KEEP(PAIRED ? 23 : 0),
                             .LO_KEEP(PAIRED ? 22 : 0), .FP(FPL ? 1 : 0), .Y_W(Y_W)) u_lane (
                .clk(clk), .rst_n(rst_n), .en(en), .full(int16), .fp16(fp16), .fp_exp_start(fp_exp_start),
                .lut_cfg(lut_cfg),
                .rd_tab(rd_tab[l]), .rd_a0(rd_a0[l*9 +: 9]), .rd_a1(rd_a1[l*9 +: 9]),
                .q0(rd_y0[l*16 +: 16]), .q1(rd_y1[l*16 +: 16]),
                .x(p_data[l*IN_W +: IN_W]), .y(y_l), .dbg(q_data[DP_LANES*Y_W + l*12 +: 12]),
                .cls_q(s5_cls[l*5 +: 5])
            );
            assign q_data[l*Y_W +: Y_W] = y_l;
        end
    endgenerate

    // a beat's results and debug words in lane order (the join keeps sub-beats as {debug, results}); with
    // FP16 the upper half of the beat reads 0 in an FP16 layer
    genvar b;
    generate
        for (b = 0; b < LANES; b = b + 1) begin : g_out
            localparam SB = b / DP_LANES;        // sub-beat
            localparam LN = b % DP_LANES;        // lane
            wire [Y_W-1:0] y_b = o_data[SB*OW + LN*Y_W +: Y_W];
            if (FP16 == 1 && b >= LANES / 2) begin : g_upper
                assign out_data[b*Y_W +: Y_W] = fp16 ? {Y_W{1'b0}} : y_b;
            end else begin : g_low
                assign out_data[b*Y_W +: Y_W] = y_b;
            end
            assign out_dbg[b*12 +: 12] = o_data[SB*OW + DP_LANES*Y_W + LN*12 +: 12];
        end
    endgenerate

    // ---------------------------------------------------------------- statistics
    // counted per sub-beat as it leaves the lane pipeline (the sample at lane k is the beat's q_slot *
    // DP_LANES + k)
    wire count = q_valid & q_ready & cnt_en;
    // the upper half of the beat (LANES/2 and above), and which lanes hold it in this sub-beat
    wire [LANES-1:0]    up_beat = {LANES{1'b1}} << (LANES / 2);
    /* verilator lint_off WIDTHTRUNC */
    wire [DP_LANES-1:0] up = up_beat >> (q_slot * DP_LANES);
    /* verilator lint_on WIDTHTRUNC */
    // the lanes that count: all, or with cnt_half the lower half of the beat (an INT16 atom's elements)
    wire [DP_LANES-1:0] cnt_lanes = cnt_half ? ~up : {DP_LANES{1'b1}};
    reg [DP_LANES-1:0] m_le, m_lo, m_uf, m_of, m_hy;
    integer k;
    always @(*) begin
        for (k = 0; k < DP_LANES; k = k + 1) begin
            // at INT16 the upper half of the beat counts as hybrid only
            if (int16 && up[k]) begin
                {m_hy[k], m_of[k], m_uf[k], m_lo[k], m_le[k]} = 5'b10000;
            end else begin
                m_le[k] = s5_cls[k*5 + 0];
                m_lo[k] = s5_cls[k*5 + 1];
                m_uf[k] = s5_cls[k*5 + 2];
                m_of[k] = s5_cls[k*5 + 3];
                m_hy[k] = s5_cls[k*5 + 4];
            end
        end
    end

    nvdla_sat_counter #(.LANES(DP_LANES), .CNT_W(CNT_W)) u_cnt_le (
        .clk(clk), .rst_n(rst_n), .clr(cnt_clr), .inc_valid(count), .inc_mask(m_le & cnt_lanes), .count(cnt_le_hit));
    nvdla_sat_counter #(.LANES(DP_LANES), .CNT_W(CNT_W)) u_cnt_lo (
        .clk(clk), .rst_n(rst_n), .clr(cnt_clr), .inc_valid(count), .inc_mask(m_lo & cnt_lanes), .count(cnt_lo_hit));
    nvdla_sat_counter #(.LANES(DP_LANES), .CNT_W(CNT_W)) u_cnt_uf (
        .clk(clk), .rst_n(rst_n), .clr(cnt_clr), .inc_valid(count), .inc_mask(m_uf & cnt_lanes), .count(cnt_uflow));
    nvdla_sat_counter #(.LANES(DP_LANES), .CNT_W(CNT_W)) u_cnt_of (
        .clk(clk), .rst_n(rst_n), .clr(cnt_clr), .inc_valid(count), .inc_mask(m_of & cnt_lanes), .count(cnt_oflow));
    nvdla_sat_counter #(.LANES(DP_LANES), .CNT_W(CNT_W)) u_cnt_hy (
        .clk(clk), .rst_n(rst_n), .clr(cnt_clr), .inc_valid(count), .inc_mask(m_hy & cnt_lanes), .count(cnt_hybrid));
endmodule
