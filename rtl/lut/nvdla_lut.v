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
// START_MODE (CDP at INT8; models/lut.py lut_lanes, docs/lut.md "START width"): how a lane forms x - START
// for its index, as NVIDIA's NV_NVDLA_CDP_DP_LUT_CTRL_unit.v does. 0: the whole START (SDP); 1: START[21:0]
// as a signed 22-bit number on every lane (nv_small and the master branch's designs); 2: nvdlav1's INT8
// pairs: even lanes the whole START with the low 23 (LE, linear) / 22 (LO) bits of the difference kept for
// the index, odd lanes START[21:0]. The under/overflow slopes measure from the whole START/END either way.
//
// Pipeline: input skid -> S1 x - start/end -> S2 index and table choice -> S3 table read
//           -> S4 multiply -> S5 round, add, saturate (output register).
// Configuration inputs must be stable while samples are in flight; tables must not be written then.
`include "nvdla_lut_cfg.vh"
module nvdla_lut #(
    parameter LANES    = 1,
    parameter IN_W     = 32,
    parameter CFG_W    = 32,       // START/END width: 32 in SDP, 38 ({HIGH[5:0], LOW}) in CDP
    parameter SDP      = 1,
    parameter LE_DEPTH = 65,
    parameter LO_DEPTH = 257,
    parameter CNT_W    = 32,
    parameter START_MODE = 0,      // 0 whole START, 1 narrow (START[21:0]), 2 nvdlav1's INT8 pairs
    parameter OUT_W    = (SDP != 0) ? 32 : 16
) (
    input  wire                     clk,
    input  wire                     rst_n,
    // S_LUT_CFG / S_LUT_INFO / S_LUT_*_START/END / S_LUT_*_SLOPE_*: the LUT_CFG sub-bundle of the unit's
    // cfg (rtl/gen/nvdla_lut_cfg.vh; a unit assembles it with `<UNIT>_LUT_CFG(cfg)), START/END CFG_W wide
    input  wire [`LUT_CFG_W(CFG_W)-1:0] lut_cfg,
    // table access port (the register block's LUT_ACCESS_* bundle slices, nvdla_lut_ram): the pointer
    // and its style (CDP saturating, SDP wrapping) live in the register block
    input  wire                     acc_we,
    input  wire                     acc_table,
    input  wire [9:0]               acc_addr,
    input  wire [15:0]              acc_wdata,
    output wire [15:0]              acc_rdata,
    // sample stream
    input  wire                     in_valid,
    output wire                     in_ready,
    input  wire [LANES*IN_W-1:0]    in_data,
    output wire                     out_valid,
    input  wire                     out_ready,
    output wire [LANES*OUT_W-1:0]   out_data,
    // per lane {table (1: LO), uflow, oflow, index[8:0]} of the chosen table, for debug
    output wire [LANES*12-1:0]      out_dbg,
    // statistics
    input  wire                     cnt_clr,
    input  wire                     cnt_en,
    output wire [CNT_W-1:0]         cnt_le_hit,
    output wire [CNT_W-1:0]         cnt_lo_hit,
    output wire [CNT_W-1:0]         cnt_uflow,
    output wire [CNT_W-1:0]         cnt_oflow,
    output wire [CNT_W-1:0]         cnt_hybrid
);
    localparam FRAC_W = (SDP != 0) ? 35 : 16;
    localparam IDX_W  = 9;
    localparam D_W    = ((IN_W > CFG_W) ? IN_W : CFG_W) + 1;   // x - start
    localparam A_W    = D_W + 1;                               // x - start - 2^offset
    // The multiplier operands pair up as a * scale (A_W x 16 bits, signed) or dy * fraction (17 x FRAC_W+1
    // bits), so the product always fits PROD_W bits (53 in SDP, 56 in CDP): no wider, so that a simulator
    // needs no multi-word arithmetic for it or for the rounding after it (nvdla_lut_interp).
    localparam PROD_W = (A_W + 16 > FRAC_W + 18) ? A_W + 16 : FRAC_W + 18;
    localparam [IDX_W-1:0] LE_LAST = LE_DEPTH - 1;
    localparam [IDX_W-1:0] LO_LAST = LO_DEPTH - 1;

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (LANES < 1 || IN_W < 1 || CFG_W < 1 || START_MODE < 0 || START_MODE > 2
            || (START_MODE != 0 && (CFG_W < 23 || IN_W > 22))) begin
            $display("ERROR: nvdla_lut %m: LANES, IN_W, CFG_W >= 1; START_MODE 0..2, and 1, 2 only with START ",
                     "of more than 22 bits and inputs of at most 22 (CDP at INT8)");
            $finish;
        end
    end

    // ---------------------------------------------------------------- tables and access port
    wire [LE_DEPTH*16-1:0] le_q;
    wire [LO_DEPTH*16-1:0] lo_q;

    nvdla_lut_ram #(.LE_DEPTH(LE_DEPTH), .LO_DEPTH(LO_DEPTH), .ADDR_W(10)) u_ram (
        .clk(clk), .rst_n(rst_n), .we(acc_we), .table_sel(acc_table), .addr(acc_addr), .wdata(acc_wdata),
        .rdata(acc_rdata), .le_q(le_q), .lo_q(lo_q)
    );

    // ---------------------------------------------------------------- stream control
    wire                  s0_valid;
    wire                  s0_ready;
    wire [LANES*IN_W-1:0] s0_data;
    wire [4:0]            en;

    nvdla_skid #(.WIDTH(LANES*IN_W)) u_in_skid (
        .clk(clk), .rst_n(rst_n),
        .in_valid(in_valid), .in_ready(in_ready), .in_data(in_data),
        .out_valid(s0_valid), .out_ready(s0_ready), .out_data(s0_data)
    );

    nvdla_pipe_ctrl #(.DEPTH(5)) u_ctrl (
        .clk(clk), .rst_n(rst_n),
        .in_valid(s0_valid), .in_ready(s0_ready), .stage_en(en),
        .out_valid(out_valid), .out_ready(out_ready)
    );

    // ---------------------------------------------------------------- configuration, decoded once
    wire             cfg_le_function          = lut_cfg[`LUT_CFG_LE_FUNCTION];      // 0: exponent, 1: linear
    wire             cfg_uflow_priority       = lut_cfg[`LUT_CFG_UFLOW_PRIORITY];   // 0: LE, 1: LO
    wire             cfg_oflow_priority       = lut_cfg[`LUT_CFG_OFLOW_PRIORITY];
    wire             cfg_hybrid_priority      = lut_cfg[`LUT_CFG_HYBRID_PRIORITY];
    wire [7:0]       cfg_le_index_offset      = lut_cfg[`LUT_CFG_LE_INDEX_OFFSET];
    wire [7:0]       cfg_le_index_select      = lut_cfg[`LUT_CFG_LE_INDEX_SELECT];
    wire [7:0]       cfg_lo_index_select      = lut_cfg[`LUT_CFG_LO_INDEX_SELECT];
    wire [CFG_W-1:0] cfg_le_start             = lut_cfg[`LUT_CFG_LE_START(CFG_W)];
    wire [CFG_W-1:0] cfg_le_end               = lut_cfg[`LUT_CFG_LE_END(CFG_W)];
    wire [CFG_W-1:0] cfg_lo_start             = lut_cfg[`LUT_CFG_LO_START(CFG_W)];
    wire [CFG_W-1:0] cfg_lo_end               = lut_cfg[`LUT_CFG_LO_END(CFG_W)];
    wire [15:0]      cfg_le_slope_uflow_scale = lut_cfg[`LUT_CFG_LE_SLOPE_UFLOW_SCALE];
    wire [15:0]      cfg_le_slope_oflow_scale = lut_cfg[`LUT_CFG_LE_SLOPE_OFLOW_SCALE];
    wire [4:0]       cfg_le_slope_uflow_shift = lut_cfg[`LUT_CFG_LE_SLOPE_UFLOW_SHIFT];
    wire [4:0]       cfg_le_slope_oflow_shift = lut_cfg[`LUT_CFG_LE_SLOPE_OFLOW_SHIFT];
    wire [15:0]      cfg_lo_slope_uflow_scale = lut_cfg[`LUT_CFG_LO_SLOPE_UFLOW_SCALE];
    wire [15:0]      cfg_lo_slope_oflow_scale = lut_cfg[`LUT_CFG_LO_SLOPE_OFLOW_SCALE];
    wire [4:0]       cfg_lo_slope_uflow_shift = lut_cfg[`LUT_CFG_LO_SLOPE_UFLOW_SHIFT];
    wire [4:0]       cfg_lo_slope_oflow_shift = lut_cfg[`LUT_CFG_LO_SLOPE_OFLOW_SHIFT];

    wire exp_mode = ~cfg_le_function;
    // Exponential-mode underflow extrapolates from START + 2^offset: CDP for offset >= 0, SDP for > 0.
    wire bias_on = exp_mode & ((SDP != 0) ? (~cfg_le_index_offset[7] & (|cfg_le_index_offset[6:0]))
                                          : ~cfg_le_index_offset[7]);
    wire [A_W-1:0] bias = bias_on ? ({{(A_W-1){1'b0}}, 1'b1} << cfg_le_index_offset[6:0]) : {A_W{1'b0}};

    function automatic [D_W-1:0] sext_cfg(input [CFG_W-1:0] v);
        sext_cfg = {{(D_W-CFG_W){v[CFG_W-1]}}, v};
    endfunction

    localparam NS_W = 22;    // the narrow START: bits [21:0]
    function automatic [D_W-1:0] sext_narrow(input [CFG_W-1:0] v);
        sext_narrow = {{(D_W-NS_W){v[NS_W-1]}}, v[NS_W-1:0]};
    endfunction

    wire [D_W-1:0] le_start = sext_cfg(cfg_le_start);
    /* verilator lint_off UNUSEDSIGNAL */   // read by narrow lanes only (none with START_MODE = 0)
    wire [D_W-1:0] le_start_n = sext_narrow(cfg_le_start);
    wire [D_W-1:0] lo_start_n = sext_narrow(cfg_lo_start);
    /* verilator lint_on UNUSEDSIGNAL */
    wire [D_W-1:0] le_end   = sext_cfg(cfg_le_end);
    wire [D_W-1:0] lo_start = sext_cfg(cfg_lo_start);
    wire [D_W-1:0] lo_end   = sext_cfg(cfg_lo_end);

    // ---------------------------------------------------------------- per-lane datapath
    wire [LANES*5-1:0] s5_cls;   // {hybrid, oflow, uflow, lo_hit, le_hit} counter classes per lane

    genvar l;
    generate
        for (l = 0; l < LANES; l = l + 1) begin : g_lane
            wire [IN_W-1:0] x = s0_data[l*IN_W +: IN_W];
            wire [D_W-1:0]  xs = {{(D_W-IN_W){x[IN_W-1]}}, x};
            // this lane's index logic (START_MODE): narrow START, or the whole START with a kept difference
            localparam NARROW = (START_MODE == 1) || (START_MODE == 2 && (l % 2) == 1);
            localparam LE_KEEP = (START_MODE == 2 && (l % 2) == 0) ? 23 : 0;
            localparam LO_KEEP = (START_MODE == 2 && (l % 2) == 0) ? 22 : 0;

            // S1: differences to the four table bounds
            reg [D_W-1:0] s1_dles, s1_dlee, s1_dlos, s1_dloe;
            always @(posedge clk) begin
                if (en[0]) begin
                    s1_dles <= xs - le_start;
                    s1_dlee <= xs - le_end;
                    s1_dlos <= xs - lo_start;
                    s1_dloe <= xs - lo_end;
                end
            end

            // the differences the index logic reads (the slopes below measure from the whole registers)
            wire [D_W-1:0] ix_dles, ix_dlos;
            if (NARROW) begin : g_narrow
                reg [D_W-1:0] s1_nles, s1_nlos;
                always @(posedge clk) begin
                    if (en[0]) begin
                        s1_nles <= xs - le_start_n;
                        s1_nlos <= xs - lo_start_n;
                    end
                end
                assign ix_dles = s1_nles;
                assign ix_dlos = s1_nlos;
            end else begin : g_whole
                assign ix_dles = s1_dles;
                assign ix_dlos = s1_dlos;
            end

            // S1 -> S2: index in both tables, table choice, extrapolation operand
            wire             le_uf, le_of, lo_uf, lo_of;
            wire [IDX_W-1:0] le_idx, lo_idx;
            wire [FRAC_W-1:0] le_frac, lo_frac;

            nvdla_lut_index #(.D_W(D_W), .FRAC_W(FRAC_W), .IDX_W(IDX_W), .DEPTH(LE_DEPTH), .EXP(1),
                              .KEEP_W(LE_KEEP)) u_le (
                .diff(ix_dles), .exp_mode(exp_mode), .sel(cfg_le_index_select), .offset(cfg_le_index_offset),
                .uflow(le_uf), .oflow(le_of), .index(le_idx), .frac(le_frac)
            );
            nvdla_lut_index #(.D_W(D_W), .FRAC_W(FRAC_W), .IDX_W(IDX_W), .DEPTH(LO_DEPTH), .EXP(0),
                              .KEEP_W(LO_KEEP)) u_lo (
                .diff(ix_dlos), .exp_mode(1'b0), .sel(cfg_lo_index_select), .offset(8'd0),
                .uflow(lo_uf), .oflow(lo_of), .index(lo_idx), .frac(lo_frac)
            );

            wire le_hit = ~le_uf & ~le_of;
            wire lo_hit = ~lo_uf & ~lo_of;
            wire tab = (le_uf & lo_uf) ? cfg_uflow_priority
                     : (le_of & lo_of) ? cfg_oflow_priority
                     : (le_hit ^ lo_hit) ? lo_hit
                     : cfg_hybrid_priority;
            wire sel_uf = tab ? lo_uf : le_uf;
            wire sel_of = tab ? lo_of : le_of;
            wire [IDX_W-1:0] idx = sel_uf ? {IDX_W{1'b0}}
                                 : sel_of ? (tab ? LO_LAST : LE_LAST)
                                 : (tab ? lo_idx : le_idx);
            wire [A_W-1:0] le_a_uf = {s1_dles[D_W-1], s1_dles} - bias;
            wire [A_W-1:0] a = tab ? (lo_uf ? {s1_dlos[D_W-1], s1_dlos} : {s1_dloe[D_W-1], s1_dloe})
                                   : (le_uf ? le_a_uf : {s1_dlee[D_W-1], s1_dlee});
            wire [15:0] scale = tab ? (lo_uf ? cfg_lo_slope_uflow_scale : cfg_lo_slope_oflow_scale)
                                    : (le_uf ? cfg_le_slope_uflow_scale : cfg_le_slope_oflow_scale);
            wire [4:0]  shift = tab ? (lo_uf ? cfg_lo_slope_uflow_shift : cfg_lo_slope_oflow_shift)
                                    : (le_uf ? cfg_le_slope_uflow_shift : cfg_le_slope_oflow_shift);
            wire [4:0]  cls = (SDP != 0)
                ? {~(sel_uf | sel_of), sel_of, sel_uf, lo_hit, le_hit}
                : {~((le_uf & lo_uf) | (le_of & lo_of) | (le_hit ^ lo_hit)),
                   le_of & lo_of, le_uf & lo_uf, lo_hit & ~le_hit, le_hit & ~lo_hit};

            reg              s2_tab, s2_flow;
            reg [11:0]       s2_dbg;
            reg [IDX_W-1:0]  s2_idx;
            reg [FRAC_W-1:0] s2_frac;
            reg [A_W-1:0]    s2_a;
            reg [15:0]       s2_scale;
            reg [4:0]        s2_shift;
            reg [4:0]        s2_cls;
            always @(posedge clk) begin
                if (en[1]) begin
                    s2_tab   <= tab;
                    s2_flow  <= sel_uf | sel_of;
                    s2_dbg   <= {tab, sel_uf, sel_of, idx};
                    s2_idx   <= idx;
                    s2_frac  <= tab ? lo_frac : le_frac;
                    s2_a     <= a;
                    s2_scale <= scale;
                    s2_shift <= shift;
                    s2_cls   <= cls;
                end
            end

            // S2 -> S3: read entries index and index+1 (a flow reads only index)
            wire [IDX_W-1:0] idx1 = s2_flow ? s2_idx : s2_idx + 1'b1;
            wire [15:0] y0 = s2_tab ? lo_q[16*s2_idx +: 16] : le_q[16*s2_idx +: 16];
            wire [15:0] y1 = s2_tab ? lo_q[16*idx1 +: 16] : le_q[16*idx1 +: 16];

            reg              s3_flow;
            reg [11:0]       s3_dbg;
            reg [15:0]       s3_y0, s3_y1;
            reg [FRAC_W-1:0] s3_frac;
            reg [A_W-1:0]    s3_a;
            reg [15:0]       s3_scale;
            reg [4:0]        s3_shift;
            reg [4:0]        s3_cls;
            always @(posedge clk) begin
                if (en[2]) begin
                    s3_flow  <= s2_flow;
                    s3_dbg   <= s2_dbg;
                    s3_y0    <= y0;
                    s3_y1    <= y1;
                    s3_frac  <= s2_frac;
                    s3_a     <= s2_a;
                    s3_scale <= s2_scale;
                    s3_shift <= s2_shift;
                    s3_cls   <= s2_cls;
                end
            end

            // S3 -> S4: one multiplier per lane: (x - bound) * scale, or (y1 - y0) * fraction
            wire [16:0] dy = {s3_y1[15], s3_y1} - {s3_y0[15], s3_y0};
            wire signed [PROD_W-1:0] ma = s3_flow ? $signed({{(PROD_W-A_W){s3_a[A_W-1]}}, s3_a})
                                                  : $signed({{(PROD_W-17){dy[16]}}, dy});
            wire signed [PROD_W-1:0] mb = s3_flow ? $signed({{(PROD_W-16){s3_scale[15]}}, s3_scale})
                                                  : $signed({{(PROD_W-FRAC_W){1'b0}}, s3_frac});

            reg              s4_flow;
            reg [11:0]       s4_dbg;
            reg [PROD_W-1:0] s4_prod;
            reg [15:0]       s4_y0;
            reg [4:0]        s4_shift;
            reg [4:0]        s4_cls;
            always @(posedge clk) begin
                if (en[3]) begin
                    s4_flow  <= s3_flow;
                    s4_dbg   <= s3_dbg;
                    s4_prod  <= ma * mb;
                    s4_y0    <= s3_y0;
                    s4_shift <= s3_shift;
                    s4_cls   <= s3_cls;
                end
            end

            // S4 -> S5: round, add, saturate
            wire [OUT_W-1:0] y;
            nvdla_lut_interp #(.PROD_W(PROD_W), .FRAC_W(FRAC_W), .OUT_W(OUT_W), .SDP(SDP)) u_interp (
                .prod(s4_prod), .y0(s4_y0), .flow(s4_flow), .shift(s4_shift), .y(y)
            );

            reg [OUT_W-1:0] s5_y;
            reg [11:0]      s5_dbg;
            always @(posedge clk) begin
                if (en[4]) begin
                    s5_y   <= y;
                    s5_dbg <= s4_dbg;
                end
            end
            reg [4:0] s5_c;
            always @(posedge clk or negedge rst_n) begin
                // counter classes feed the counters on every handshake: keep them defined from reset
                if (!rst_n) s5_c <= 5'd0;
                else if (en[4]) s5_c <= s4_cls;
            end
            assign s5_cls[l*5 +: 5] = s5_c;

            assign out_data[l*OUT_W +: OUT_W] = s5_y;
            assign out_dbg[l*12 +: 12]        = s5_dbg;
        end
    endgenerate

    // ---------------------------------------------------------------- statistics
    wire count = out_valid & out_ready & cnt_en;
    reg [LANES-1:0] m_le, m_lo, m_uf, m_of, m_hy;
    integer k;
    always @(*) begin
        for (k = 0; k < LANES; k = k + 1) begin
            m_le[k] = s5_cls[k*5 + 0];
            m_lo[k] = s5_cls[k*5 + 1];
            m_uf[k] = s5_cls[k*5 + 2];
            m_of[k] = s5_cls[k*5 + 3];
            m_hy[k] = s5_cls[k*5 + 4];
        end
    end

    nvdla_sat_counter #(.LANES(LANES), .CNT_W(CNT_W)) u_cnt_le (
        .clk(clk), .rst_n(rst_n), .clr(cnt_clr), .inc_valid(count), .inc_mask(m_le), .count(cnt_le_hit));
    nvdla_sat_counter #(.LANES(LANES), .CNT_W(CNT_W)) u_cnt_lo (
        .clk(clk), .rst_n(rst_n), .clr(cnt_clr), .inc_valid(count), .inc_mask(m_lo), .count(cnt_lo_hit));
    nvdla_sat_counter #(.LANES(LANES), .CNT_W(CNT_W)) u_cnt_uf (
        .clk(clk), .rst_n(rst_n), .clr(cnt_clr), .inc_valid(count), .inc_mask(m_uf), .count(cnt_uflow));
    nvdla_sat_counter #(.LANES(LANES), .CNT_W(CNT_W)) u_cnt_of (
        .clk(clk), .rst_n(rst_n), .clr(cnt_clr), .inc_valid(count), .inc_mask(m_of), .count(cnt_oflow));
    nvdla_sat_counter #(.LANES(LANES), .CNT_W(CNT_W)) u_cnt_hy (
        .clk(clk), .rst_n(rst_n), .clr(cnt_clr), .inc_valid(count), .inc_mask(m_hy), .count(cnt_hybrid));
endmodule
