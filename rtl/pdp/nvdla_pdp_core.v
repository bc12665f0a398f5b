// PDP pooling datapath (average / max / min over kernels up to 8x8), one whole atom (ATOM int8 lanes, each
// lane its own channel) per cycle. Arithmetic and geometry follow models/pdp.py exactly.
//
// Input: atoms in the read DMA's order (nvdla_pdp_dma_seq): per split band, per surface, per input line,
// per column of the band. Output: atoms in the write DMA's order: per band, per surface, per output line,
// per output column of the band. Band geometry comes from nvdla_pdp_split, so the core takes exactly the
// atoms the read DMA fetches (none at all for a band whose input width is 0; input columns and lines no
// output window needs are taken and dropped) and emits exactly the atoms the write DMA stores, whatever the
// register values: illegal configurations give wrong numbers, never a hang and never a leftover atom.
//
// Structure:
//   H  horizontal: a register of the last 8 input atoms of the line; when an input column ends a kernel
//      window (or, past the end of the line, for windows reaching into the right padding) it reduces the
//      window's real columns (sum plus PAD_VALUE_{run}X, or max/min) into one 16-bit-per-lane result.
//   V  vertical: each horizontal result is stored in the line buffer, bank (input row mod 8), at its output
//      column. When an input row is the last real row of output row r, the core reads the same column of the
//      other banks (the earlier rows of r's window) and reduces them with the current result (plus
//      PAD_VALUE_{run}X * kernel_width for padded rows). Output rows whose window reaches into the bottom
//      padding complete after the last input row and are read out of the line buffer in a flush pass.
//   S  average scaling: rnd(rnd(sum * recip_w >> 16) * recip_h >> 16), rounding half away from zero,
//      stored as int8 (wrapping). Max/min results pass through.
// Sums wrap at 16 bits per lane, as NVDLA's line buffer (and the model) do.
//
// Handshakes: valid/ready on both streams with full backpressure. in_ready comes from internal state only
// and the output leaves through a skid buffer, so no combinational path crosses the block.
// `start` is taken when the core is idle (busy low); the configuration must hold until `done`, a one-cycle
// pulse once the last output atom was accepted and every input atom of the layer taken (whichever is later).
`include "nvdla_pdp_fields.vh"

module nvdla_pdp_core #(
    parameter ATOM  = 8,    // int8 lanes per atom (nv_small: 8)
    parameter MAX_W = 64    // output columns of one band the line buffer holds (the model allows 448)
) (
    input  wire              clk,
    input  wire              rst_n,
    input  wire              start,
    output wire              busy,
    output reg               done,
    // configuration: the PDP register bundle (rtl/gen/nvdla_pdp_fields.vh), register encodings (sizes,
    // kernel and partial widths are "value minus one"). Right and bottom padding are implied by the sizes
    // (windows past the last column/row), as in the model.
    /* verilator lint_off UNUSEDSIGNAL */  // each block reads its own fields of the bundle
    input  wire [`PDP_CFG_W-1:0] cfg,
    /* verilator lint_on UNUSEDSIGNAL */
    // input atoms (lane i in bits [8i+7:8i])
    input  wire              in_valid,
    output wire              in_ready,
    input  wire [ATOM*8-1:0] in_data,
    // output atoms
    output wire              out_valid,
    input  wire              out_ready,
    output wire [ATOM*8-1:0] out_data
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (ATOM < 1 || (ATOM & (ATOM - 1)) != 0 || MAX_W < 1 || MAX_W >= 16384) begin
            $display("ERROR: nvdla_pdp_core %m: ATOM a power of two (ATOM_SH), MAX_W 1..16383 (14-bit columns)");
            $finish;
        end
    end
    localparam DW      = ATOM * 8;               // one atom of int8
    localparam SW      = ATOM * 16;              // one atom of 16-bit sums
    localparam AW      = (MAX_W > 1) ? $clog2(MAX_W) : 1;
    localparam CW      = 22;                     // signed geometry arithmetic (column/row positions)
    localparam ATOM_SH = $clog2(ATOM);
    localparam NB      = 8;                      // line-buffer banks = largest kernel height
    localparam P1_W    = 34;                     // int16 * 17-bit recip
    localparam R1_W    = 18;                     // |rnd(p1 >> 16)| <= 2^16
    localparam P2_W    = 36;                     // int18 * 17-bit recip
    localparam R2_W    = 20;                     // |rnd(p2 >> 16)| <= 2^17

    localparam signed [CW-1:0] S0 = 0;
    localparam signed [CW-1:0] S1 = 1;
    localparam signed [CW-1:0] S7 = 7;
    localparam signed [CW-1:0] S8 = 8;
    localparam [13:0]          MAX_W14 = MAX_W[13:0];  // MAX_W < 2^14: checked above

    // ---------------------------------------------------------------- configuration, derived
    wire [4:0]  kw = {1'b0, cfg[`PDP_KERNEL_WIDTH]} + 5'd1;
    wire [4:0]  kh = {1'b0, cfg[`PDP_KERNEL_HEIGHT]} + 5'd1;
    wire [4:0]  sw = {1'b0, cfg[`PDP_KERNEL_STRIDE_WIDTH]} + 5'd1;
    wire [4:0]  sh = {1'b0, cfg[`PDP_KERNEL_STRIDE_HEIGHT]} + 5'd1;
    wire [13:0] in_h     = {1'b0, cfg[`PDP_CUBE_IN_HEIGHT]} + 14'd1;
    wire [13:0] out_h    = {1'b0, cfg[`PDP_CUBE_OUT_HEIGHT]} + 14'd1;
    wire [13:0] surfaces = ({1'b0, cfg[`PDP_CUBE_IN_CHANNEL]} >> ATOM_SH) + 14'd1;

    wire signed [CW-1:0] s_kw  = {{(CW-5){1'b0}}, kw};
    wire signed [CW-1:0] s_kh  = {{(CW-5){1'b0}}, kh};
    wire signed [CW-1:0] s_sw  = {{(CW-5){1'b0}}, sw};
    wire signed [CW-1:0] s_sh  = {{(CW-5){1'b0}}, sh};
    wire signed [CW-1:0] s_pt  = {{(CW-3){1'b0}}, cfg[`PDP_PAD_TOP]};
    wire signed [CW-1:0] s_inh = {{(CW-14){1'b0}}, in_h};

    // PAD_VALUE_{n}X as the int16 the sums add: the field is sign-extended from its INT8 sign bit
    // (n * int8 needs 8, 9, 10, 10, 11, 11, 11 bits); bits above the sign bit are kept when it is clear
    // (bits 18:16 cannot reach the 16-bit sums).
    /* verilator lint_off UNUSEDSIGNAL */
    wire [18:0] pad_value_1x = cfg[`PDP_PAD_VALUE_1X];
    wire [18:0] pad_value_2x = cfg[`PDP_PAD_VALUE_2X];
    wire [18:0] pad_value_3x = cfg[`PDP_PAD_VALUE_3X];
    wire [18:0] pad_value_4x = cfg[`PDP_PAD_VALUE_4X];
    wire [18:0] pad_value_5x = cfg[`PDP_PAD_VALUE_5X];
    wire [18:0] pad_value_6x = cfg[`PDP_PAD_VALUE_6X];
    wire [18:0] pad_value_7x = cfg[`PDP_PAD_VALUE_7X];
    /* verilator lint_on UNUSEDSIGNAL */
    wire [15:0] pv1 = pad_value_1x[7]  ? {8'hff, pad_value_1x[7:0]}  : pad_value_1x[15:0];
    wire [15:0] pv2 = pad_value_2x[8]  ? {7'h7f, pad_value_2x[8:0]}  : pad_value_2x[15:0];
    wire [15:0] pv3 = pad_value_3x[9]  ? {6'h3f, pad_value_3x[9:0]}  : pad_value_3x[15:0];
    wire [15:0] pv4 = pad_value_4x[9]  ? {6'h3f, pad_value_4x[9:0]}  : pad_value_4x[15:0];
    wire [15:0] pv5 = pad_value_5x[10] ? {5'h1f, pad_value_5x[10:0]} : pad_value_5x[15:0];
    wire [15:0] pv6 = pad_value_6x[10] ? {5'h1f, pad_value_6x[10:0]} : pad_value_6x[15:0];
    wire [15:0] pv7 = pad_value_7x[10] ? {5'h1f, pad_value_7x[10:0]} : pad_value_7x[15:0];
    // indexed by run length 0..7 (run 0: no padding, adds 0)
    wire [8*16-1:0] col_pad = {pv7, pv6, pv5, pv4, pv3, pv2, pv1, 16'd0};
    // a padded row adds its pad value once per kernel column; the product is kept in 16 bits
    wire [15:0] kw16 = {11'd0, kw};
    wire [8*16-1:0] row_pad = {pv7 * kw16, pv6 * kw16, pv5 * kw16, pv4 * kw16,
                               pv3 * kw16, pv2 * kw16, pv1 * kw16, 16'd0};

    function [3:0] clamp8;   // max(0, min(8, v))
        input signed [CW-1:0] v;
        begin
            if (v < S0)      clamp8 = 4'd0;
            else if (v > S8) clamp8 = 4'd8;
            else             clamp8 = v[3:0];
        end
    endfunction

    function [2:0] clamp7;   // min(7, v) of a non-negative v: PAD_VALUE_7X stands for longer runs
        input signed [CW-1:0] v;
        begin
            clamp7 = (v > S7) ? 3'd7 : v[2:0];
        end
    endfunction

    // ---------------------------------------------------------------- control shared by both halves
    reg        h_run;          // H still has input lines to walk
    reg        v_run;          // V still has rows to finish
    reg        v_fin;          // V finished the last surface; waiting for the pipeline to drain
    reg [3:0]  pend;           // results inside the output pipeline and skid buffer
    reg        hq_valid;
    wire       v_take;
    wire       go = start && !busy;

    assign busy = h_run || v_run || v_fin || hq_valid || (pend != 4'd0);

    // ---------------------------------------------------------------- H: band / surface / line walk
    reg  [7:0]  pass;
    reg  [13:0] h_surf, h_y, h_x, h_o;
    reg  signed [CW-1:0] h_ostart;            // h_o * stride_w
    reg  [NB*DW-1:0] win;                     // last 8 input atoms of the line, newest in the low bits

    /* verilator lint_off UNUSEDSIGNAL */
    wire signed [19:0] band_in_start;
    wire [19:0]        band_out_start;
    /* verilator lint_on UNUSEDSIGNAL */
    wire [13:0] band_in_w, band_out_w;
    wire        band_first, band_last;

    nvdla_pdp_split u_split (
        .pass(pass), .cfg(cfg),
        .in_start(band_in_start), .in_width(band_in_w), .out_start(band_out_start), .out_width(band_out_w),
        .first(band_first), .last(band_last)
    );

    wire signed [CW-1:0] s_pl   = {{(CW-3){1'b0}}, band_first ? cfg[`PDP_PAD_LEFT] : 3'd0};
    wire signed [CW-1:0] s_inw  = {{(CW-14){1'b0}}, band_in_w};
    wire signed [CW-1:0] s_x    = {{(CW-14){1'b0}}, h_x};

    wire h_need_in  = h_x != band_in_w;       // input columns left in this line
    wire h_win_left = h_o != band_out_w;      // windows left in this line
    // window h_o spans input columns [h_start, h_end] of the band (negative: left padding)
    wire signed [CW-1:0] h_start = h_ostart - s_pl;
    wire signed [CW-1:0] h_end   = h_start + s_kw - S1;
    // A window is due when the column just arriving is its last one; past the end of the line every
    // remaining window is due (they reach into the right padding). `<=` rather than `==` keeps illegal
    // geometries moving: one window per cycle, never stuck.
    wire h_due   = h_win_left && (!h_need_in || (h_end <= s_x));
    wire h_free  = !hq_valid || v_take;
    wire h_go    = h_run && h_free && (!h_need_in || in_valid);
    wire h_emit  = h_go && h_due;
    assign in_ready = h_run && h_free && h_need_in;

    // real columns of the due window: [max(h_start, 0), newest column]; pad runs on each side
    wire signed [CW-1:0] h_newest  = h_need_in ? s_x : s_inw - S1;
    wire signed [CW-1:0] h_first   = (h_start < S0) ? S0 : h_start;
    wire signed [CW-1:0] h_before  = (h_start < S0) ? -h_start : S0;
    wire signed [CW-1:0] h_after_r = h_end - (s_inw - S1);
    wire signed [CW-1:0] h_after   = (h_after_r < S0) ? S0 : h_after_r;
    // a window padded on both sides adds the combined run once (model: _pad_terms)
    wire [3:0] h_nreal = clamp8(h_newest - h_first + S1);
    wire [2:0] h_prun  = clamp7(h_before + h_after);

    wire [13:0] h_x_n  = h_x + {13'd0, h_need_in};
    wire [13:0] h_o_n  = h_o + {13'd0, h_due};
    wire        h_eol  = (h_x_n == band_in_w) && (h_o_n == band_out_w);
    wire        h_eos  = h_y + 14'd1 == in_h;
    wire        h_lsurf = h_surf + 14'd1 == surfaces;

    // the horizontal result waiting for V: window registers + control; its value is computed below
    reg [3:0]  hq_nreal;
    reg [2:0]  hq_prun;
    reg [13:0] hq_o;
    reg        hq_last_col, hq_last_row, hq_final;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            h_run       <= 1'b0;
            pass        <= 8'd0;
            h_surf      <= 14'd0;
            h_y         <= 14'd0;
            h_x         <= 14'd0;
            h_o         <= 14'd0;
            h_ostart    <= S0;
            hq_valid    <= 1'b0;
            hq_nreal    <= 4'd0;
            hq_prun     <= 3'd0;
            hq_o        <= 14'd0;
            hq_last_col <= 1'b0;
            hq_last_row <= 1'b0;
            hq_final    <= 1'b0;
        end else if (go) begin
            h_run    <= 1'b1;
            pass     <= 8'd0;
            h_surf   <= 14'd0;
            h_y      <= 14'd0;
            h_x      <= 14'd0;
            h_o      <= 14'd0;
            h_ostart <= S0;
        end else begin
            if (v_take) hq_valid <= 1'b0;
            if (h_emit) begin
                hq_valid    <= 1'b1;
                hq_nreal    <= h_nreal;
                hq_prun     <= h_prun;
                hq_o        <= h_o;
                hq_last_col <= h_o_n == band_out_w;
                hq_last_row <= h_eos;
                hq_final    <= band_last && h_lsurf;
            end
            if (h_go) begin
                if (h_eol) begin
                    h_x      <= 14'd0;
                    h_o      <= 14'd0;
                    h_ostart <= S0;
                    if (!h_eos) begin
                        h_y <= h_y + 14'd1;
                    end else begin
                        h_y <= 14'd0;
                        if (!h_lsurf) begin
                            h_surf <= h_surf + 14'd1;
                        end else begin
                            h_surf <= 14'd0;
                            if (band_last) h_run <= 1'b0;
                            else           pass  <= pass + 8'd1;
                        end
                    end
                end else begin
                    h_x <= h_x_n;
                    h_o <= h_o_n;
                    if (h_due) h_ostart <= h_ostart + s_sw;
                end
            end
        end
    end

    // Data only: read under the nreal mask, which never reaches columns of an earlier line in legal use.
    always @(posedge clk) begin
        if (h_go && h_need_in) win <= {win[(NB-1)*DW-1:0], in_data};
    end

    wire [1:0] method = cfg[`PDP_POOLING_METHOD];   // 0 average, 1 max, 2 min (3 acts as min)
    wire       m_ave  = method == 2'd0;
    wire       m_max  = method == 2'd1;

    // horizontal reduction of the waiting window (stable while hq_valid: win only moves when H goes,
    // and H only goes when this result is taken in the same cycle)
    reg [SW-1:0] hval;
    reg signed [15:0] h_acc, h_v;
    integer hl, hj;
    always @(*) begin
        for (hl = 0; hl < ATOM; hl = hl + 1) begin
            h_acc = m_ave ? col_pad[hq_prun*16 +: 16] : (m_max ? 16'sh8000 : 16'sh7fff);
            for (hj = 0; hj < NB; hj = hj + 1) begin
                h_v = {{8{win[hj*DW + hl*8 + 7]}}, win[hj*DW + hl*8 +: 8]};
                if (hj < hq_nreal) begin
                    if (m_ave)                h_acc = h_acc + h_v;
                    else if (m_max && h_v > h_acc) h_acc = h_v;
                    else if (!m_max && h_v < h_acc) h_acc = h_v;
                end
            end
            hval[hl*16 +: 16] = h_acc;
        end
    end

    // ---------------------------------------------------------------- V: rows through the line buffer
    reg         v_flush;        // reading out rows that end in the bottom padding
    reg         v_fin_pend;     // the surface being flushed is the last one
    reg  [13:0] v_y, v_r, v_fo, v_flast;
    reg  signed [CW-1:0] v_rstart;          // v_r * stride_h

    wire signed [CW-1:0] s_y   = {{(CW-14){1'b0}}, v_y};
    wire signed [CW-1:0] v_rs  = v_rstart - s_pt;          // output row v_r spans input rows [v_rs, v_re]
    wire signed [CW-1:0] v_re  = v_rs + s_kh - S1;
    wire v_rows_left = v_r != out_h;
    wire v_row_emit  = v_rows_left && (v_re <= s_y);     // this input row completes output row v_r
    wire signed [CW-1:0] v_first   = (v_rs < S0) ? S0 : v_rs;
    wire signed [CW-1:0] v_before  = (v_rs < S0) ? -v_rs : S0;
    wire signed [CW-1:0] v_after_r = v_re - (s_inh - S1);
    wire signed [CW-1:0] v_after   = (v_after_r < S0) ? S0 : v_after_r;
    wire [3:0] v_nrows = clamp8(s_y - v_first + S1);
    wire [2:0] v_prun  = clamp7(v_before + v_after);

    wire       p_in_ready;
    wire       p_in_valid = v_flush || (hq_valid && v_row_emit);
    wire       p_fire     = p_in_valid && p_in_ready;
    assign     v_take     = hq_valid && !v_flush && (!v_row_emit || p_in_ready);
    wire       v_fissue   = v_flush && p_in_ready;
    wire       v_flast_col = v_fo == v_flast;
    wire [13:0] v_r_n     = v_r + 14'd1;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            v_run      <= 1'b0;
            v_fin      <= 1'b0;
            v_flush    <= 1'b0;
            v_fin_pend <= 1'b0;
            v_y        <= 14'd0;
            v_r        <= 14'd0;
            v_fo       <= 14'd0;
            v_flast    <= 14'd0;
            v_rstart   <= S0;
            done       <= 1'b0;
        end else if (go) begin
            v_run    <= 1'b1;
            v_fin    <= 1'b0;
            v_flush  <= 1'b0;
            v_y      <= 14'd0;
            v_r      <= 14'd0;
            v_rstart <= S0;
            done     <= 1'b0;
        end else begin
            done <= 1'b0;
            // H must have taken every input atom too: columns (or lines) that no output window uses can
            // still be arriving after the last output, and they belong to this layer, not the next.
            if (v_fin && pend == 4'd0 && !h_run) begin
                v_fin <= 1'b0;
                done  <= 1'b1;
            end
            if (v_take && hq_last_col) begin
                if (!hq_last_row) begin
                    v_y <= v_y + 14'd1;
                    if (v_row_emit) begin
                        v_r      <= v_r_n;
                        v_rstart <= v_rstart + s_sh;
                    end
                end else if (v_row_emit ? (v_r_n != out_h) : v_rows_left) begin
                    // rows left that end in the bottom padding: read them out of the line buffer
                    v_flush    <= 1'b1;
                    v_fo       <= 14'd0;
                    v_flast    <= hq_o;
                    v_fin_pend <= hq_final;
                    if (v_row_emit) begin
                        v_r      <= v_r_n;
                        v_rstart <= v_rstart + s_sh;
                    end
                end else begin
                    v_y      <= 14'd0;
                    v_r      <= 14'd0;
                    v_rstart <= S0;
                    if (hq_final) begin
                        v_run <= 1'b0;
                        v_fin <= 1'b1;
                    end
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
                    if (v_fin_pend) begin
                        v_run <= 1'b0;
                        v_fin <= 1'b1;
                    end
                end
            end
        end
    end

    // line buffer: write the current row's result, read the rest of the window at the same column
    wire [13:0]   col      = v_flush ? v_fo : hq_o;
    wire          col_ok   = col < MAX_W14;
    wire [AW-1:0] col_addr = col_ok ? col[AW-1:0] : {AW{1'b0}};
    wire [NB*SW-1:0] lb_q;

    genvar b;
    generate
        for (b = 0; b < NB; b = b + 1) begin : g_bank
            nvdla_pdp_lbuf #(.DEPTH(MAX_W), .WIDTH(SW), .AW(AW)) u_bank (
                .clk(clk),
                .we(v_take && col_ok && v_y[2:0] == b), .waddr(col_addr), .wdata(hval),
                .re(p_fire), .raddr(col_addr), .rdata(lb_q[b*SW +: SW])
            );
        end
    endgenerate

    // ---------------------------------------------------------------- output pipeline
    // stage 0: vertical operands (line-buffer read data + current row), 1: vertical result,
    // 2: * recip_w, 3: round, * recip_h, 4: round (or the max/min result)
    wire [4:0] en;
    wire       p_out_valid, p_out_ready;

    nvdla_pipe_ctrl #(.DEPTH(5)) u_ctrl (
        .clk(clk), .rst_n(rst_n),
        .in_valid(p_in_valid), .in_ready(p_in_ready), .stage_en(en),
        .out_valid(p_out_valid), .out_ready(p_out_ready)
    );

    reg [SW-1:0] v1_h;
    reg          v1_use_h;      // window row 0 is the current row (not yet readable from its bank)
    reg [3:0]    v1_nrows;
    reg [2:0]    v1_base;       // bank of the newest row of the window
    reg [2:0]    v1_prun;
    always @(posedge clk) begin
        if (en[0]) begin
            v1_h     <= hval;
            v1_use_h <= !v_flush;
            v1_nrows <= v_nrows;
            v1_base  <= v_y[2:0];
            v1_prun  <= v_prun;
        end
    end

    reg [SW-1:0] vsum;
    reg signed [15:0] v_acc, v_v;
    reg [2:0]         v_bank;
    integer vl, vj;
    always @(*) begin
        for (vl = 0; vl < ATOM; vl = vl + 1) begin
            v_acc = m_ave ? row_pad[v1_prun*16 +: 16] : (m_max ? 16'sh8000 : 16'sh7fff);
            for (vj = 0; vj < NB; vj = vj + 1) begin
                v_bank = v1_base - vj[2:0];
                v_v = (vj == 0 && v1_use_h) ? v1_h[vl*16 +: 16] : lb_q[v_bank*SW + vl*16 +: 16];
                if (vj < v1_nrows) begin
                    if (m_ave)                v_acc = v_acc + v_v;
                    else if (m_max && v_v > v_acc) v_acc = v_v;
                    else if (!m_max && v_v < v_acc) v_acc = v_v;
                end
            end
            vsum[vl*16 +: 16] = v_acc;
        end
    end

    reg [SW-1:0]        v2_sum;
    reg [ATOM*P1_W-1:0] s1_p;
    reg [ATOM*8-1:0]    s1_t, s2_t;
    reg [ATOM*P2_W-1:0] s2_p;
    reg [ATOM*8-1:0]    s3_o;

    genvar l;
    generate
        for (l = 0; l < ATOM; l = l + 1) begin : g_lane
            wire signed [R1_W-1:0] r1;
            /* verilator lint_off UNUSEDSIGNAL */
            wire signed [R2_W-1:0] r2;             // only its low 8 bits are stored
            wire                   sat1, sat2;     // never set: the widths hold every result
            /* verilator lint_on UNUSEDSIGNAL */
            nvdla_round_sat #(.IN_W(P1_W), .SHIFT_W(5), .OUT_W(R1_W)) u_r1 (
                .x(s1_p[l*P1_W +: P1_W]), .shift(5'd16), .y(r1), .sat(sat1)
            );
            nvdla_round_sat #(.IN_W(P2_W), .SHIFT_W(5), .OUT_W(R2_W)) u_r2 (
                .x(s2_p[l*P2_W +: P2_W]), .shift(5'd16), .y(r2), .sat(sat2)
            );
            always @(posedge clk) begin
                if (en[1]) v2_sum[l*16 +: 16] <= vsum[l*16 +: 16];
                if (en[2]) begin
                    s1_p[l*P1_W +: P1_W] <= $signed(v2_sum[l*16 +: 16]) * $signed({1'b0, cfg[`PDP_RECIP_KERNEL_WIDTH]});
                    s1_t[l*8 +: 8]       <= v2_sum[l*16 +: 8];
                end
                if (en[3]) begin
                    s2_p[l*P2_W +: P2_W] <= r1 * $signed({1'b0, cfg[`PDP_RECIP_KERNEL_HEIGHT]});
                    s2_t[l*8 +: 8]       <= s1_t[l*8 +: 8];
                end
                // the output atom is int8: the average is stored by truncation to 8 bits
                if (en[4]) s3_o[l*8 +: 8] <= m_ave ? r2[7:0] : s2_t[l*8 +: 8];
            end
        end
    endgenerate

    nvdla_skid #(.WIDTH(DW)) u_out (
        .clk(clk), .rst_n(rst_n),
        .in_valid(p_out_valid), .in_ready(p_out_ready), .in_data(s3_o),
        .out_valid(out_valid), .out_ready(out_ready), .out_data(out_data)
    );

    wire out_fire = out_valid && out_ready;
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) pend <= 4'd0;
        else        pend <= pend + {3'd0, p_fire} - {3'd0, out_fire};
    end
endmodule
