// PDP's vertical pooling stage and line buffer (nvdla_pdp_core's V), organised as NVIDIA's
// (NV_NVDLA_PDP_CORE_cal2d): the line buffer holds one accumulator per output column for each output row in
// flight, never the input rows themselves.
//
// Line buffer: NB = 8 banks (nvdla_pdp_lbuf: simple dual port, registered read, an inferred RAM) of
// BANK_COLS = MAX_W / 8 words of ATOM*16 bits: MAX_W words in all (NVIDIA's size when MAX_W = 128: 16 words a
// bank). A layer has G = 1, 2, 4 or 8 groups of 8/G banks (NVIDIA's 8 / bank_merge_num), for 1, 2, 3-4 or 5-8
// output rows in flight (ceil(K/S) of the kernel height and vertical stride, 1 when S >= K): output row r uses
// group (slot) r mod G, and column c of slot s lives in bank s*(8/G) + c / BANK_COLS at address
// c mod BANK_COLS. So a band holds MAX_W / G columns (models/configs.py pdp_band_width), and an input column
// touches at most G accumulators, each in its own bank: one read and one write a bank a cycle.
// A wider band (illegal: the driver refuses it) wraps inside its slot's banks, and its writes past the slot
// are dropped: wrong numbers, never a hang, and the same count of results.
//
// Per horizontal result (input row y, output column c) and output row r whose window holds y: the first real
// row of r writes the result (no read), later rows read, fold (nvdla_pdp_vfold: acc = fold(new, acc)) and
// write back, and the last real row of r emits fold(new, acc) (or the result alone when it is r's only real
// row) instead of writing. After a surface's last input row the rows reaching into the bottom padding are
// read out (the flush pass), one column a cycle. A row with no real input row at all (illegal geometry) emits
// 0, the model's value before the pad term. The pad term (PAD_VALUE_{run}X * kernel width) and the widths'
// wrapping are the core's next stage: o_prun tells the run.
//
// Pipeline: one stage (A) between the horizontal result and o_*: the banks are read when a result enters A
// (and the RAM's read register is A's operand), the fold is combinational in A, and the write back happens
// when the result leaves A. A result that would read the accumulator the one leaving A writes in that cycle
// (a band one column wide: the next row's column comes right after) waits one cycle. Backpressure: a result
// leaves A when it emits nothing or o_ready; h_ready comes from internal state only.
`include "nvdla_pdp_fields.vh"

module nvdla_pdp_vacc #(
    parameter ATOM  = 8,    // int8 lanes per atom
    parameter MAX_W = 64,   // line-buffer words (8 banks of MAX_W/8): the band width with one row in flight
    parameter INT16 = 0,    // 1: the INT16 folds (nvdla_pdp_vfold)
    parameter FP16  = 0     // 1: the FP16 folds
) (
    input  wire                  clk,
    input  wire                  rst_n,
    input  wire                  go,          // start a layer (the core is idle); cfg holds until it ends
    /* verilator lint_off UNUSEDSIGNAL */  // the vertical geometry fields only
    input  wire [`PDP_CFG_W-1:0] cfg,         // the PDP register bundle (rtl/gen/nvdla_pdp_fields.vh)
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire                  m_ave,       // average pooling
    input  wire                  m_max,       // max pooling (else min)
    input  wire                  i16,         // INT16 layer (a constant 0 without the INT16 path)
    input  wire                  f16,         // FP16 layer (a constant 0 without the FP16 path)
    // horizontal results, one per output column in the core's order (band, surface, input line, column)
    input  wire                  h_valid,
    output wire                  h_ready,     // from internal state only
    input  wire [ATOM*16-1:0]    h_val,       // the line-buffer word layout: ATOM 16-bit / ATOM/2 32-bit slots
    input  wire [13:0]           h_o,         // its output column in the band
    input  wire                  h_last_col,  // the band's last output column of the input line
    input  wire                  h_last_row,  // the line is the surface's last input line
    input  wire                  h_final,     // the surface is the layer's last (of its last band)
    // completed output rows' accumulators, in output order (band, surface, output line, column)
    output wire                  o_valid,
    input  wire                  o_ready,
    output wire [ATOM*16-1:0]    o_acc,       // the window's real rows folded (line-buffer word layout)
    output wire [2:0]            o_prun,      // its run of padded rows (PAD_VALUE_{run}X; 0: none)
    output wire                  busy,        // rows still to finish, or a result in stage A
    output wire                  fin          // one-cycle pulse: the layer's last result left stage A
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (ATOM < 1 || MAX_W < 8 || MAX_W % 8 != 0 || MAX_W >= 16384) begin
            $display("ERROR: nvdla_pdp_vacc %m: ATOM >= 1, MAX_W a multiple of 8 (8 banks), 8..16376");
            $finish;
        end
    end
    localparam SW        = ATOM * 16;
    localparam NB        = 8;
    localparam BANK_COLS = MAX_W / NB;
    localparam AW        = (BANK_COLS > 1) ? $clog2(BANK_COLS) : 1;
    localparam CW        = 22;                  // signed geometry arithmetic (row positions)
    localparam integer LAST_I = BANK_COLS - 1;
    localparam [AW-1:0] LAST_ADDR = LAST_I[AW-1:0];

    localparam signed [CW-1:0] S0 = 0;
    localparam signed [CW-1:0] S1 = 1;
    localparam signed [CW-1:0] S7 = 7;

    // ---------------------------------------------------------------- configuration, derived
    wire [4:0]  kh    = {1'b0, cfg[`PDP_KERNEL_HEIGHT]} + 5'd1;
    wire [4:0]  sh    = {1'b0, cfg[`PDP_KERNEL_STRIDE_HEIGHT]} + 5'd1;
    wire [13:0] in_h  = {1'b0, cfg[`PDP_CUBE_IN_HEIGHT]} + 14'd1;
    wire [13:0] out_h = {1'b0, cfg[`PDP_CUBE_OUT_HEIGHT]} + 14'd1;
    wire signed [CW-1:0] s_kh  = {{(CW-5){1'b0}}, kh};
    wire signed [CW-1:0] s_sh  = {{(CW-5){1'b0}}, sh};
    wire signed [CW-1:0] s_pt  = {{(CW-3){1'b0}}, cfg[`PDP_PAD_TOP]};
    wire signed [CW-1:0] s_inh = {{(CW-14){1'b0}}, in_h};

    // groups: ceil(K/S) <= 1, 2, 4 exactly when K <= S, 2S, 4S (no divider); more than 8 rows (K > 8,
    // illegal) share slots: wrong numbers only
    wire [6:0] kh7  = {2'd0, kh};
    wire [1:0] gsh  = ({2'd0, sh} >= kh7) ? 2'd0 : ({1'b0, sh, 1'b0} >= kh7) ? 2'd1
                    : ({sh, 2'b0} >= kh7) ? 2'd2 : 2'd3;            // log2 G
    wire [1:0] jsh  = 2'd3 - gsh;                                   // log2 banks per slot
    wire [2:0] gmsk = 3'b111 >> jsh;                                // G - 1
    wire [2:0] jmsk = 3'b111 >> gsh;                                // banks per slot - 1
    wire [3:0] npg  = 4'd8 >> gsh;                                  // banks per slot

    // ---------------------------------------------------------------- row control (the core's order)
    reg         v_run;
    reg         v_flush;        // reading out rows that end in the bottom padding
    reg         v_fin_pend;     // the surface being flushed is the layer's last
    reg  [13:0] v_y, v_r, v_fo, v_flast;
    reg  signed [CW-1:0] v_rstart;          // v_r * stride_h
    reg  [AW-1:0] c_addr;                   // the next result's column: mod BANK_COLS ...
    reg  [3:0]    c_bank;                   // ... and / BANK_COLS, saturating at 8 (past every slot)

    wire signed [CW-1:0] s_y   = {{(CW-14){1'b0}}, v_y};
    wire signed [CW-1:0] v_rs  = v_rstart - s_pt;          // output row v_r spans input rows [v_rs, v_re]
    wire signed [CW-1:0] v_re  = v_rs + s_kh - S1;
    wire v_rows_left = v_r != out_h;
    wire v_row_emit  = v_rows_left && (v_re <= s_y);     // this input row completes output row v_r
    wire signed [CW-1:0] v_before  = (v_rs < S0) ? -v_rs : S0;
    wire signed [CW-1:0] v_after_r = v_re - (s_inh - S1);
    wire signed [CW-1:0] v_after   = (v_after_r < S0) ? S0 : v_after_r;
    wire signed [CW-1:0] v_run_r   = v_before + v_after;
    wire [2:0] v_prun  = (v_run_r > S7) ? 3'd7 : v_run_r[2:0];   // PAD_VALUE_7X stands for longer runs
    wire v_has_old = (v_re >= S0) && (v_rs < s_inh);     // v_r's window has real rows

    // candidate k: output row v_r + k (k < G); whether its window holds row y, and y is its first real row
    reg [NB-1:0] cand_in, cand_first;
    reg signed [CW-1:0] k_start;
    reg [14:0] k_row;
    integer k;
    always @(*) begin
        k_start = v_rs;
        for (k = 0; k < NB; k = k + 1) begin
            k_row         = {1'b0, v_r} + k[14:0];
            cand_in[k]    = (k_start <= s_y) && (s_y <= k_start + s_kh - S1) && (k_row < {1'b0, out_h})
                            && (k[2:0] <= gmsk);
            cand_first[k] = (k_start == s_y) || (v_y == 14'd0);
            k_start       = k_start + s_sh;
        end
    end

    // per bank: its slot, its output row (candidate), whether the next result reads and writes it
    wire [2:0] c_j  = c_bank[2:0] & jmsk;           // the column's bank within a slot (wraps when too wide)
    wire       c_ok = c_bank < npg;                 // the column fits its slot: writes allowed
    wire [2:0] ld_b0 = ((v_r[2:0] & gmsk) << jsh) | c_j;   // the bank of output row v_r at this column
    reg  [NB-1:0] ld_rmask, ld_wmask, ld_first;
    reg  [2:0]    bk;
    integer b;
    always @(*) begin
        for (b = 0; b < NB; b = b + 1) begin
            bk = ((b[2:0] >> jsh) - v_r[2:0]) & gmsk;
            if (v_flush) begin
                ld_rmask[b] = (b[2:0] == ld_b0) && v_has_old;
                ld_wmask[b] = 1'b0;
            end else begin
                ld_rmask[b] = ((b[2:0] & jmsk) == c_j)
                              && (cand_in[bk] ? !cand_first[bk] : (bk == 3'd0 && v_row_emit && v_has_old));
                ld_wmask[b] = ((b[2:0] & jmsk) == c_j) && c_ok && cand_in[bk] && !(bk == 3'd0 && v_row_emit);
            end
            ld_first[b] = cand_first[bk];
        end
    end
    // the emitted value: 0 fold(new, acc), 1 the new row alone (row v_r's only real row so far),
    // 2 the accumulator alone (flush), 3 zero (no real row)
    wire [1:0] ld_mode = (!v_flush && cand_in[0]) ? (cand_first[0] ? 2'd1 : 2'd0) : (v_has_old ? 2'd2 : 2'd3);

    // ---------------------------------------------------------------- stage A
    reg           a_valid, a_emit, a_fin;
    reg [SW-1:0]  a_new;
    reg [AW-1:0]  a_addr;
    reg [NB-1:0]  a_wmask, a_first;
    reg [2:0]     a_b0, a_prun;
    reg [1:0]     a_mode;

    wire a_leave = a_valid && (!a_emit || o_ready);
    wire a_free  = !a_valid || a_leave;
    // the result in A writes what the next one reads: wait until it is written
    wire hazard  = a_valid && (|(a_wmask & ld_rmask)) && (a_addr == c_addr);
    assign h_ready = !v_flush && a_free && !hazard;
    wire v_take    = h_valid && h_ready;
    wire v_fissue  = v_flush && a_free && !hazard;
    wire ld        = v_take || v_fissue;
    wire v_flast_col = v_fo == v_flast;
    wire [13:0] v_r_n = v_r + 14'd1;
    wire rows_after  = v_row_emit ? (v_r_n != out_h) : v_rows_left;   // rows left after this input row
    wire ld_last_col = v_flush ? v_flast_col : h_last_col;
    wire ld_fin = (v_take && h_last_col && h_last_row && !rows_after && h_final)
               || (v_fissue && v_flast_col && v_r_n == out_h && v_fin_pend);

    assign busy   = v_run || a_valid;
    assign fin    = a_leave && a_fin;
    assign o_valid = a_valid && a_emit;
    assign o_prun  = a_prun;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            a_valid <= 1'b0;
            a_emit  <= 1'b0;
            a_fin   <= 1'b0;
        end else begin
            if (a_leave) a_valid <= 1'b0;
            if (ld) begin
                a_valid <= 1'b1;
                a_emit  <= v_flush || v_row_emit;
                a_fin   <= ld_fin;
            end
        end
    end

    // data only (used under a_valid)
    always @(posedge clk) begin
        if (ld) begin
            a_new   <= h_val;
            a_addr  <= c_addr;
            a_wmask <= ld_wmask;
            a_first <= ld_first;
            a_b0    <= ld_b0;
            a_prun  <= v_prun;
            a_mode  <= ld_mode;
        end
    end

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            v_run      <= 1'b0;
            v_flush    <= 1'b0;
            v_fin_pend <= 1'b0;
            v_y        <= 14'd0;
            v_r        <= 14'd0;
            v_fo       <= 14'd0;
            v_flast    <= 14'd0;
            v_rstart   <= S0;
            c_addr     <= {AW{1'b0}};
            c_bank     <= 4'd0;
        end else if (go) begin
            v_run    <= 1'b1;
            v_flush  <= 1'b0;
            v_y      <= 14'd0;
            v_r      <= 14'd0;
            v_rstart <= S0;
            c_addr   <= {AW{1'b0}};
            c_bank   <= 4'd0;
        end else begin
            if (ld) begin
                if (ld_last_col) begin
                    c_addr <= {AW{1'b0}};
                    c_bank <= 4'd0;
                end else if (c_addr == LAST_ADDR) begin
                    c_addr <= {AW{1'b0}};
                    if (c_bank != 4'd8) c_bank <= c_bank + 4'd1;
                end else begin
                    c_addr <= c_addr + {{(AW-1){1'b0}}, 1'b1};
                end
            end
            if (v_take && h_last_col) begin
                if (!h_last_row) begin
                    v_y <= v_y + 14'd1;
                    if (v_row_emit) begin
                        v_r      <= v_r_n;
                        v_rstart <= v_rstart + s_sh;
                    end
                end else if (rows_after) begin
                    // rows left that end in the bottom padding: read them out of the line buffer
                    v_flush    <= 1'b1;
                    v_fo       <= 14'd0;
                    v_flast    <= h_o;
                    v_fin_pend <= h_final;
                    if (v_row_emit) begin
                        v_r      <= v_r_n;
                        v_rstart <= v_rstart + s_sh;
                    end
                end else begin
                    v_y      <= 14'd0;
                    v_r      <= 14'd0;
                    v_rstart <= S0;
                    if (h_final) v_run <= 1'b0;
                end
            end
            if (v_fissue) begin
                if (!v_flast_col) begin
                    v_fo <= v_fo + 14'd1;
                end else if (v_r_n != out_h) begin
                    v_fo     <= 14'd0;
                    v_r      <= v_r_n;
                    v_rstart <= v_rstart + s_sh;
                end else begin
                    v_flush  <= 1'b0;
                    v_y      <= 14'd0;
                    v_r      <= 14'd0;
                    v_rstart <= S0;
                    if (v_fin_pend) v_run <= 1'b0;
                end
            end
        end
    end

    // ---------------------------------------------------------------- the banks and their folds
    wire [NB*SW-1:0] q, fold;
    genvar g;
    generate
        for (g = 0; g < NB; g = g + 1) begin : g_bank
            nvdla_pdp_lbuf #(.DEPTH(BANK_COLS), .WIDTH(SW), .AW(AW)) u_bank (
                .clk(clk),
                .we(a_leave && a_wmask[g]), .waddr(a_addr),
                .wdata(a_first[g] ? a_new : fold[g*SW +: SW]),
                .re(ld && ld_rmask[g]), .raddr(c_addr), .rdata(q[g*SW +: SW])
            );
            nvdla_pdp_vfold #(.ATOM(ATOM), .INT16(INT16), .FP16(FP16)) u_fold (
                .m_ave(m_ave), .m_max(m_max), .i16(i16), .f16(f16),
                .new_v(a_new), .acc(q[g*SW +: SW]), .y(fold[g*SW +: SW])
            );
        end
    endgenerate

    assign o_acc = (a_mode == 2'd0) ? fold[a_b0*SW +: SW]
                 : (a_mode == 2'd1) ? a_new
                 : (a_mode == 2'd2) ? q[a_b0*SW +: SW] : {SW{1'b0}};
endmodule
