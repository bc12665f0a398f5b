// One sample lane of the two-level hybrid LUT (nvdla_lut): the table lookup and interpolation of one sample
// per beat, S1 x - bounds -> S2 index and table choice -> S3 table read -> S4 multiply -> S5 round, add,
// saturate (the S3 table read in nvdla_lut_ram, which holds the tables). A module of its own so that synthesis builds a lane once for every LANES (hierarchical synthesis
// of a 32-lane LUT would otherwise elaborate 32 copies of its multiplier in one module).
// NARROW / LE_KEEP / LO_KEEP: how this lane forms x - START for its index (nvdla_lut START_MODE; NVIDIA's
// NV_NVDLA_CDP_DP_LUT_CTRL_unit.v, docs/lut.md "START width"): START[21:0] as a signed 22-bit number, or the
// whole START with only the low LE_KEEP / LO_KEEP bits of a positive difference kept for a linear index; the
// under/overflow slopes measure from the whole START/END either way. `full` (a CDP INT16 layer) overrides
// them at run time: the whole START and all of the difference, as NARROW = LE_KEEP = LO_KEEP = 0.
// FP = 1 builds the FP16 path beside the integer one (nvdla_lut FP16; models/lut/fp16.py), taken while `fp16`
// is high: x[31:0] and START/END[31:0] are FP32 bits, S1 forms x - START in FP32 (nvdla_fp_add), S2 indexes
// with nvdla_lut_fpindex and chooses the table with the integer path's logic (same priorities, counter
// classes, debug word), S3 reads the FP16 entries with it, and nvdla_lut_fpinterp interpolates in S3-S5; the
// result is FP32 bits (SDP) or FP17 bits (CDP) in y. FP = 0 builds none of it (fp16 and fp_exp_start unused).
// Stage enables come from nvdla_lut's pipeline control; the inputs are the skid buffer's register, the
// RAM's read registers and the stable configuration, and every output is a register (no combinational path across).
`include "nvdla_lut_cfg.vh"
module nvdla_lut_lane #(
    parameter IN_W     = 32,                       // sample width
    parameter CFG_W    = 32,                       // START/END width (32 SDP, 38 CDP)
    parameter SDP      = 1,                        // 1: SDP's pipeline and statistics, 0: CDP's
    parameter LE_DEPTH = 65,                       // LE table entries
    parameter LO_DEPTH = 257,                      // LO table entries
    parameter OUT_W    = (SDP != 0) ? 32 : 16,     // output width
    parameter NARROW   = 0,                        // 1: the index reads START[21:0] (a CDP INT8 lane)
    parameter LE_KEEP  = 0,                        // bits of x - START the linear LE index keeps (0: all)
    parameter LO_KEEP  = 0,                        // the same for LO
    parameter FP       = 0,                        // 1: the FP16 path too (needs IN_W, CFG_W >= 32)
    parameter Y_W      = OUT_W                     // y's width: OUT_W, or with FP the float result's if wider
) (
    input  wire                         clk,
    input  wire                         rst_n,
    input  wire [4:0]                   en,        // stage enables S1..S5
    input  wire                         full,      // the whole START and difference whatever NARROW/KEEP say
    input  wire                         fp16,      // the FP16 path's result (FP = 1 only)
    input  wire [31:0]                  fp_exp_start, // FP32 START + 2^offset: an exponential LE underflow's anchor
    input  wire [`LUT_CFG_W(CFG_W)-1:0] lut_cfg,   // the LUT_CFG sub-bundle (rtl/gen/nvdla_lut_cfg.vh)
    // table read (nvdla_lut_ram's lane port): entries rd_a0 and rd_a1 of table rd_tab (S2 registers), read
    // with en[2] and back as q0, q1 (the RAM's registers: S3)
    output wire                         rd_tab,
    output wire [8:0]                   rd_a0,
    output wire [8:0]                   rd_a1,
    input  wire [15:0]                  q0,
    input  wire [15:0]                  q1,
    input  wire [IN_W-1:0]              x,         // the sample, taken with en[0]
    output wire [Y_W-1:0]               y,         // the result (S5 register): an integer sign-extended, or float bits
    output wire [11:0]                  dbg,       // {table (1: LO), uflow, oflow, index[8:0]}
    output wire [4:0]                   cls_q      // {hybrid, oflow, uflow, lo_hit, le_hit} counter classes
);
    localparam FRAC_W = (SDP != 0) ? 35 : 16;
    localparam IDX_W  = 9;
    localparam D_W    = ((IN_W > CFG_W) ? IN_W : CFG_W) + 1;   // x - start
    localparam A_W    = D_W + 1;                               // x - start - 2^offset
    // The multiplier operands pair up as a * scale (A_W x 16 bits, signed) or dy * fraction (17 x FRAC_W+1
    // bits), so the product always fits PROD_W bits (53 in SDP, 56 in CDP): no wider, so that a simulator
    // needs no multi-word arithmetic for it or for the rounding after it (nvdla_lut_interp).
    localparam PROD_W = (A_W + 16 > FRAC_W + 18) ? A_W + 16 : FRAC_W + 18;
    localparam MA_W   = (A_W > 17) ? A_W : 17;                   // x - bound, or y1 - y0
    localparam MB_W   = (FRAC_W + 1 > 16) ? FRAC_W + 1 : 16;     // scale, or the unsigned fraction
    localparam [IDX_W-1:0] LE_LAST = LE_DEPTH - 1;
    localparam [IDX_W-1:0] LO_LAST = LO_DEPTH - 1;

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (IN_W < 1 || CFG_W < 1 || LE_DEPTH < 2 || LO_DEPTH < 2 || LE_DEPTH > 512 || LO_DEPTH > 512
            || (NARROW != 0 && NARROW != 1) || (NARROW == 1 && CFG_W < 23) || (FP != 0 && FP != 1)
            || Y_W < OUT_W || (FP == 1 && (IN_W < 32 || CFG_W < 32 || Y_W != ((SDP != 0) ? 32 : 17)))) begin
            $display("ERROR: nvdla_lut_lane %m: IN_W, CFG_W >= 1, 2 <= LE_DEPTH, LO_DEPTH <= 512, NARROW 0 or 1 ",
                     "and 1 only with START of more than 22 bits, FP 0 or 1, Y_W >= OUT_W, and with FP IN_W and ",
                     "CFG_W >= 32 and Y_W 32 (SDP) or 17 (CDP)");
            $finish;
        end
    end

    // ---------------------------------------------------------------- configuration
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

    wire [D_W-1:0] le_start = sext_cfg(cfg_le_start);
    wire [D_W-1:0] le_end   = sext_cfg(cfg_le_end);
    wire [D_W-1:0] lo_start = sext_cfg(cfg_lo_start);
    wire [D_W-1:0] lo_end   = sext_cfg(cfg_lo_end);

    wire [D_W-1:0] xs = {{(D_W-IN_W){x[IN_W-1]}}, x};

    // the differences the index logic reads: to START[21:0] in a narrow lane, else the whole ones below
    wire [D_W-1:0] ix_dles, ix_dlos;


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

    generate
        if (NARROW != 0) begin : g_narrow
            localparam NS_W = 22;    // the narrow START: bits [21:0]
            wire [D_W-1:0] le_start_n = {{(D_W-NS_W){cfg_le_start[NS_W-1]}}, cfg_le_start[NS_W-1:0]};
            wire [D_W-1:0] lo_start_n = {{(D_W-NS_W){cfg_lo_start[NS_W-1]}}, cfg_lo_start[NS_W-1:0]};
            reg  [D_W-1:0] s1_nles, s1_nlos;
            always @(posedge clk) begin
                if (en[0]) begin
                    s1_nles <= xs - le_start_n;
                    s1_nlos <= xs - lo_start_n;
                end
            end
            assign ix_dles = full ? s1_dles : s1_nles;
            assign ix_dlos = full ? s1_dlos : s1_nlos;
        end else begin : g_whole
            assign ix_dles = s1_dles;
            assign ix_dlos = s1_dlos;
        end
    endgenerate

    // S1 -> S2: index in both tables, table choice, extrapolation operand
    wire             i_le_uf, i_le_of, i_lo_uf, i_lo_of;
    wire [IDX_W-1:0] i_le_idx, i_lo_idx;
    wire [FRAC_W-1:0] i_le_frac, i_lo_frac;

    nvdla_lut_index #(.D_W(D_W), .FRAC_W(FRAC_W), .IDX_W(IDX_W), .DEPTH(LE_DEPTH), .EXP(1),
                      .KEEP_W(LE_KEEP)) u_le (
        .diff(ix_dles), .keep_all(full), .exp_mode(exp_mode), .sel(cfg_le_index_select), .offset(cfg_le_index_offset),
        .uflow(i_le_uf), .oflow(i_le_of), .index(i_le_idx), .frac(i_le_frac)
    );
    nvdla_lut_index #(.D_W(D_W), .FRAC_W(FRAC_W), .IDX_W(IDX_W), .DEPTH(LO_DEPTH), .EXP(0),
                      .KEEP_W(LO_KEEP)) u_lo (
        .diff(ix_dlos), .keep_all(full), .exp_mode(1'b0), .sel(cfg_lo_index_select), .offset(8'd0),
        .uflow(i_lo_uf), .oflow(i_lo_of), .index(i_lo_idx), .frac(i_lo_frac)
    );

    // the FP16 path's index (FP = 1), or the integer one's
    wire             le_uf, le_of, lo_uf, lo_of;
    wire [IDX_W-1:0] le_idx, lo_idx;
    wire [FRAC_W-1:0] le_frac, lo_frac;
    wire [31:0]      fp_anchor;      // the float flow's P (FP = 1)
    wire [31:0]      s2_fx, s2_fanchor;
    wire [Y_W-1:0]   y_fp;           // the float result (S4 -> S5)
    wire             fpm;            // the FP16 path is on

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


    // S2 -> S3: read entries index and index+1 (a flow reads only index) in the RAM (nvdla_lut_ram), whose
    // output registers are this stage's s3_y0, s3_y1
    wire [IDX_W-1:0] idx1 = s2_flow ? s2_idx : s2_idx + 1'b1;
    assign rd_tab = s2_tab;
    assign rd_a0  = s2_idx;
    assign rd_a1  = idx1;
    wire [15:0] s3_y0 = q0;
    wire [15:0] s3_y1 = q1;

    reg              s3_flow;
    reg [11:0]       s3_dbg;
    reg [FRAC_W-1:0] s3_frac;
    reg [A_W-1:0]    s3_a;
    reg [15:0]       s3_scale;
    reg [4:0]        s3_shift;
    reg [4:0]        s3_cls;
    always @(posedge clk) begin
        if (en[2]) begin
            s3_flow  <= s2_flow;
            s3_dbg   <= s2_dbg;
            s3_frac  <= s2_frac;
            s3_a     <= s2_a;
            s3_scale <= s2_scale;
            s3_shift <= s2_shift;
            s3_cls   <= s2_cls;
        end
    end

    // ---------------------------------------------------------------- the FP16 path (FP = 1)
    generate
        if (FP == 1) begin : g_fp
            wire [31:0] fx = x[31:0];
            wire [31:0] f_le_start = cfg_le_start[31:0];
            wire [31:0] f_lo_start = cfg_lo_start[31:0];
            wire [31:0] d_le, d_lo;
            // S1: x - START in FP32, both tables
            nvdla_fp_add #(.E(8), .M(23)) u_dle (.a(fx), .b({~f_le_start[31], f_le_start[30:0]}), .y(d_le));
            nvdla_fp_add #(.E(8), .M(23)) u_dlo (.a(fx), .b({~f_lo_start[31], f_lo_start[30:0]}), .y(d_lo));
            reg [31:0] s1_fx, s1_fdle, s1_fdlo, s2_x, s2_p;
            always @(posedge clk) begin
                if (en[0]) begin
                    s1_fx   <= fx;
                    s1_fdle <= d_le;
                    s1_fdlo <= d_lo;
                end
                if (en[1]) begin
                    s2_x <= s1_fx;
                    s2_p <= fp_anchor;
                end
            end
            // S1 -> S2: the indices
            wire             f_le_uf, f_le_of, f_lo_uf, f_lo_of;
            wire [IDX_W-1:0] f_le_idx, f_lo_idx;
            wire [FRAC_W-1:0] f_le_frac, f_lo_frac;
            nvdla_lut_fpindex #(.FRAC_W(FRAC_W), .IDX_W(IDX_W), .DEPTH(LE_DEPTH), .EXP(1)) u_fle (
                .d(s1_fdle), .exp_mode(exp_mode), .sel(cfg_le_index_select), .offset(cfg_le_index_offset),
                .uflow(f_le_uf), .oflow(f_le_of), .index(f_le_idx), .frac(f_le_frac)
            );
            nvdla_lut_fpindex #(.FRAC_W(FRAC_W), .IDX_W(IDX_W), .DEPTH(LO_DEPTH), .EXP(0)) u_flo (
                .d(s1_fdlo), .exp_mode(1'b0), .sel(cfg_lo_index_select), .offset(8'd0),
                .uflow(f_lo_uf), .oflow(f_lo_of), .index(f_lo_idx), .frac(f_lo_frac)
            );
            assign fpm = fp16;
            assign {le_uf, le_of, lo_uf, lo_of} = fp16 ? {f_le_uf, f_le_of, f_lo_uf, f_lo_of}
                                                       : {i_le_uf, i_le_of, i_lo_uf, i_lo_of};
            assign le_idx  = fp16 ? f_le_idx : i_le_idx;
            assign lo_idx  = fp16 ? f_lo_idx : i_lo_idx;
            assign le_frac = fp16 ? f_le_frac : i_le_frac;
            assign lo_frac = fp16 ? f_lo_frac : i_lo_frac;
            // the flow's anchor: END on overflow, START on underflow (an exponential LE: START + 2^offset)
            assign fp_anchor = tab ? (lo_uf ? f_lo_start : cfg_lo_end[31:0])
                                   : (le_uf ? (exp_mode ? fp_exp_start : f_le_start) : cfg_le_end[31:0]);
            assign s2_fx = s2_x;
            assign s2_fanchor = s2_p;
            // S2 -> S5: the interpolation
            nvdla_lut_fpinterp #(.SDP(SDP), .FRAC_W(FRAC_W), .Y_W(Y_W)) u_finterp (
                .clk(clk), .en(en[3:2]), .x(s2_fx), .anchor(s2_fanchor), .flow(s2_flow), .frac(s2_frac),
                .scale(s2_scale), .y0(s3_y0), .y1(s3_y1), .y(y_fp)
            );
        end else begin : g_int
            assign fpm = 1'b0;
            assign {le_uf, le_of, lo_uf, lo_of} = {i_le_uf, i_le_of, i_lo_uf, i_lo_of};
            assign le_idx  = i_le_idx;
            assign lo_idx  = i_lo_idx;
            assign le_frac = i_le_frac;
            assign lo_frac = i_lo_frac;
            assign fp_anchor = 32'd0;
            assign s2_fx = 32'd0;
            assign s2_fanchor = 32'd0;
            assign y_fp = {Y_W{1'b0}};
            /* verilator lint_off UNUSEDSIGNAL */
            wire [32:0] unused_fp = {fp16, fp_exp_start};
            wire [95:0] unused_f = {fp_anchor, s2_fx, s2_fanchor};
            /* verilator lint_on UNUSEDSIGNAL */
        end
    endgenerate

    // S3 -> S4: one multiplier per lane: (x - bound) * scale, or (y1 - y0) * fraction
    wire [16:0] dy = {s3_y1[15], s3_y1} - {s3_y0[15], s3_y0};
    // operands at their own widths (the product is taken at PROD_W, each operand sign-extended to it), so
    // synthesis builds an MA_W x MB_W multiplier rather than a PROD_W x PROD_W one
    wire signed [MA_W-1:0] ma = s3_flow ? $signed({{(MA_W-A_W){s3_a[A_W-1]}}, s3_a})
                                        : $signed({{(MA_W-17){dy[16]}}, dy});
    wire signed [MB_W-1:0] mb = s3_flow ? $signed({{(MB_W-16){s3_scale[15]}}, s3_scale})
                                        : $signed({{(MB_W-FRAC_W){1'b0}}, s3_frac});

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
    wire [OUT_W-1:0] y_interp;
    nvdla_lut_interp #(.PROD_W(PROD_W), .FRAC_W(FRAC_W), .OUT_W(OUT_W), .SDP(SDP)) u_interp (
        .prod(s4_prod), .y0(s4_y0), .flow(s4_flow), .shift(s4_shift), .y(y_interp)
    );

    reg [Y_W-1:0]   s5_y;
    reg [11:0]      s5_dbg;
    always @(posedge clk) begin
        if (en[4]) begin
            s5_y   <= fpm ? y_fp : {{(Y_W-OUT_W){y_interp[OUT_W-1]}}, y_interp};
            s5_dbg <= s4_dbg;
        end
    end
    reg [4:0] s5_c;
    always @(posedge clk or negedge rst_n) begin
        // counter classes feed the counters on every handshake: keep them defined from reset
        if (!rst_n) s5_c <= 5'd0;
        else if (en[4]) s5_c <= s4_cls;
    end
    assign cls_q = s5_c;
    assign y    = s5_y;
    assign dbg  = s5_dbg;
endmodule
