// PDP pooling datapath (average / max / min over kernels up to 8x8), one whole atom per cycle: ATOM int8
// lanes, or with INT16 (D_DATA_FORMAT.INPUT_DATA = INT16 on a build with INT16 = 1) ATOM/2 int16 lanes, each
// lane its own channel. Arithmetic and geometry follow models/pdp/model.py exactly.
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
//   V  vertical (nvdla_pdp_vacc): the line buffer holds one accumulator per output column for each output row
//      in flight, as NVIDIA's: 8 banks of MAX_W/8 words, one group of 8/G banks per row in flight (G = 1, 2,
//      4, 8 for ceil(K/S) = 1, 2, 3-4, 5-8), so a band holds MAX_W/G columns. Each horizontal result is folded
//      into the accumulators of the output rows whose window holds its input row (the first real row writes,
//      later ones read, fold and write back); the last real row of output row r emits the window's result,
//      to which the next stage adds PAD_VALUE_{run}X * kernel_width for padded rows. Output rows whose window
//      reaches into the bottom padding complete after the last input row: a flush pass reads them out.
//   S  average scaling: rnd(rnd(sum * recip_w >> 16) * recip_h >> 16) (nvdla_pdp_scale), each stage at its
//      fixed width. Max/min results pass through.
// Average pooling keeps NVIDIA's widths whatever the register values (nvdlav1/nv_small
// NV_NVDLA_PDP_CORE_cal1d.v, cal2d.v; models/pdp/model.py WIDTHS): PAD_VALUE_{n}X is the 19-bit field read as
// signed; a row's sum plus its pad term wraps at 11 bits (INT8) or 22 (INT16), the window's sum plus the
// padded rows' PAD_VALUE_{n}X * kernel_width at 14 (INT8) or 22 (INT16) bits; the two reciprocal stages keep
// 11 then 8 (INT8) or 19 then 16 (INT16) bits. The line buffer word is ATOM*16 bits: ATOM 16-bit slots at
// INT8, ATOM/2 32-bit slots at INT16 (each holding its sum, wrapping), so a band holds as many columns at
// both precisions (as NVDLA's). With INT16 = 0 no wide logic is built and an INT16 register value runs as
// INT8 (the model and driver refuse it there). FP16 (FP16 = 1, fp16): the same two-byte lanes and geometry,
// H, V and S computed by nvdla_pdp_fp16 (models/pdp/fp16.py); with FP16 = 0 none of it is built.
//
// Handshakes: valid/ready on both streams with full backpressure. in_ready comes from internal state only
// and the output leaves through a skid buffer, so no combinational path crosses the block.
// `start` is taken when the core is idle (busy low); the configuration must hold until `done`, a one-cycle
// pulse once the last output atom was accepted and every input atom of the layer taken (whichever is later).
`include "nvdla_pdp_fields.vh"

module nvdla_pdp_core #(
    parameter ATOM  = 8,    // int8 lanes per atom (nv_small: 8)
    parameter MAX_W = 64,   // line-buffer words (8 banks): output columns of a band with one row in flight
    parameter INT16 = 0,    // 1: the INT16 path (the configuration's precisions include INT16)
    parameter FP16  = 0     // 1: the FP16 path (the configuration's precisions include FP16)
) (
    input  wire              clk,
    input  wire              rst_n,
    input  wire              start,
    input  wire              elem16,   // two-byte elements: int16 (INT16 = 1 builds) or fp16 (with fp16)
    input  wire              fp16,     // the layer's elements are FP16 (FP16 = 1 builds only; else ignored)
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
        if (ATOM < 1 || (ATOM & (ATOM - 1)) != 0 || MAX_W < 8 || MAX_W % 8 != 0 || MAX_W >= 16384
            || (INT16 != 0 && INT16 != 1) || (FP16 != 0 && FP16 != 1) || ((INT16 == 1 || FP16 == 1) && ATOM < 2)) begin
            $display("ERROR: nvdla_pdp_core %m: ATOM a power of two (ATOM_SH), MAX_W a multiple of 8 (8 line-buffer ",
                     "banks) below 16384 (14-bit columns), INT16 and FP16 0 or 1 and with either ATOM >= 2");
            $finish;
        end
    end
    localparam DW      = ATOM * 8;               // one atom of int8
    localparam SW      = ATOM * 16;              // one atom of 16-bit sums
    localparam CW      = 22;                     // signed geometry arithmetic (column/row positions)
    localparam ATOM_SH = $clog2(ATOM);
    localparam HALF    = (ATOM > 1) ? ATOM / 2 : 1;   // int16 lanes per atom
    localparam NB      = 8;                      // input atoms H keeps = largest kernel width

    localparam signed [CW-1:0] S0 = 0;
    localparam signed [CW-1:0] S1 = 1;
    localparam signed [CW-1:0] S7 = 7;
    localparam signed [CW-1:0] S8 = 8;

    // ---------------------------------------------------------------- configuration, derived
    wire [4:0]  kw = {1'b0, cfg[`PDP_KERNEL_WIDTH]} + 5'd1;
    wire [4:0]  sw = {1'b0, cfg[`PDP_KERNEL_STRIDE_WIDTH]} + 5'd1;
    wire [13:0] in_h     = {1'b0, cfg[`PDP_CUBE_IN_HEIGHT]} + 14'd1;
    // constant 0 without the INT16 (FP16) path, so none of its logic is built
    wire        f16      = (FP16 == 1) && fp16;
    wire        i16      = (INT16 == 1) && elem16 && !f16;
    // two-byte lanes: half as many channels per surface
    wire [13:0] surfaces = ({1'b0, cfg[`PDP_CUBE_IN_CHANNEL]} >> (i16 || f16 ? ATOM_SH - 1 : ATOM_SH)) + 14'd1;

    wire signed [CW-1:0] s_kw  = {{(CW-5){1'b0}}, kw};
    wire signed [CW-1:0] s_sw  = {{(CW-5){1'b0}}, sw};

    // PAD_VALUE_{n}X as the sums add it: the 19-bit field read as signed. The INT8 sums wrap at 11 and 14
    // bits, so the low 16 bits of the field (and of its product with the kernel width) are all they need.
    /* verilator lint_off UNUSEDSIGNAL */
    wire [18:0] pad_value_1x = cfg[`PDP_PAD_VALUE_1X];
    wire [18:0] pad_value_2x = cfg[`PDP_PAD_VALUE_2X];
    wire [18:0] pad_value_3x = cfg[`PDP_PAD_VALUE_3X];
    wire [18:0] pad_value_4x = cfg[`PDP_PAD_VALUE_4X];
    wire [18:0] pad_value_5x = cfg[`PDP_PAD_VALUE_5X];
    wire [18:0] pad_value_6x = cfg[`PDP_PAD_VALUE_6X];
    wire [18:0] pad_value_7x = cfg[`PDP_PAD_VALUE_7X];
    /* verilator lint_on UNUSEDSIGNAL */
    wire [15:0] pv1 = pad_value_1x[15:0];
    wire [15:0] pv2 = pad_value_2x[15:0];
    wire [15:0] pv3 = pad_value_3x[15:0];
    wire [15:0] pv4 = pad_value_4x[15:0];
    wire [15:0] pv5 = pad_value_5x[15:0];
    wire [15:0] pv6 = pad_value_6x[15:0];
    wire [15:0] pv7 = pad_value_7x[15:0];
    // indexed by run length 0..7 (run 0: no padding, adds 0)
    wire [8*16-1:0] col_pad = {pv7, pv6, pv5, pv4, pv3, pv2, pv1, 16'd0};
    // a padded row adds its pad value once per kernel column
    wire [15:0] kw16 = {11'd0, kw};
    wire [8*16-1:0] row_pad = {pv7 * kw16, pv6 * kw16, pv5 * kw16, pv4 * kw16,
                               pv3 * kw16, pv2 * kw16, pv1 * kw16, 16'd0};
    // INT16: the same as 32-bit sum terms (the 22-bit sums need the whole field, sign-extended). Read by the
    // INT16 path only (unread, and not built, with INT16 = 0).
    /* verilator lint_off UNUSEDSIGNAL */
    wire [31:0] pw1 = {{13{pad_value_1x[18]}}, pad_value_1x};
    wire [31:0] pw2 = {{13{pad_value_2x[18]}}, pad_value_2x};
    wire [31:0] pw3 = {{13{pad_value_3x[18]}}, pad_value_3x};
    wire [31:0] pw4 = {{13{pad_value_4x[18]}}, pad_value_4x};
    wire [31:0] pw5 = {{13{pad_value_5x[18]}}, pad_value_5x};
    wire [31:0] pw6 = {{13{pad_value_6x[18]}}, pad_value_6x};
    wire [31:0] pw7 = {{13{pad_value_7x[18]}}, pad_value_7x};
    wire [8*32-1:0] col_pad32 = {pw7, pw6, pw5, pw4, pw3, pw2, pw1, 32'd0};
    wire [31:0] kw32 = {27'd0, kw};
    wire [8*32-1:0] row_pad32 = {pw7 * kw32, pw6 * kw32, pw5 * kw32, pw4 * kw32,
                                 pw3 * kw32, pw2 * kw32, pw1 * kw32, 32'd0};
    /* verilator lint_on UNUSEDSIGNAL */

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
    wire       v_busy;         // V still has rows to finish (nvdla_pdp_vacc)
    reg        v_fin;          // V finished the last surface; waiting for the pipeline to drain
    reg [3:0]  pend;           // results inside the output pipeline and skid buffer
    reg        hq_valid;
    wire       v_ready, v_take;
    wire       go = start && !busy;

    assign busy = h_run || v_busy || v_fin || hq_valid || (pend != 4'd0);

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
    reg [SW-1:0] hval8;
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
            // the row sum wraps at 11 bits (max/min results are int8 and unchanged)
            hval8[hl*16 +: 16] = {{5{h_acc[10]}}, h_acc[10:0]};
        end
    end

    // the same over ATOM/2 int16 lanes into 32-bit sums (INT16 builds only); FP16: nvdla_pdp_fp16
    wire [SW-1:0] hval_i;
    generate
        if (INT16 == 1) begin : g_h16
            reg [SW-1:0] hval16;
            reg signed [31:0] h_acc16, h_v16;
            integer hl16, hj16;
            always @(*) begin
                for (hl16 = 0; hl16 < HALF; hl16 = hl16 + 1) begin
                    h_acc16 = m_ave ? col_pad32[hq_prun*32 +: 32] : (m_max ? 32'sh80000000 : 32'sh7fffffff);
                    for (hj16 = 0; hj16 < NB; hj16 = hj16 + 1) begin
                        h_v16 = {{16{win[hj16*DW + hl16*16 + 15]}}, win[hj16*DW + hl16*16 +: 16]};
                        if (hj16 < hq_nreal) begin
                            if (m_ave)                          h_acc16 = h_acc16 + h_v16;
                            else if (m_max && h_v16 > h_acc16)  h_acc16 = h_v16;
                            else if (!m_max && h_v16 < h_acc16) h_acc16 = h_v16;
                        end
                    end
                    hval16[hl16*32 +: 32] = {{10{h_acc16[21]}}, h_acc16[21:0]};   // 22-bit row sum
                end
            end
            assign hval_i = i16 ? hval16 : hval8;
        end else begin : g_h8
            assign hval_i = hval8;
        end
    endgenerate

    // ---------------------------------------------------------------- H -> V (FP16 builds: H's pipeline)
    // FP16 = 1: the window waits in nvdla_pdp_fp16's H pipeline (10 stages, valid/ready), which carries the
    // integer result and the column alongside; FP16 = 0: straight to V, as before
    wire          hq_ready, hp_valid, hp_last_col, hp_last_row, hp_final;
    wire [SW-1:0] hp_val;
    wire [13:0]   hp_o;

    // ---------------------------------------------------------------- V: accumulators of the rows in flight
    wire        p_in_ready, p_in_valid, v_done;
    wire [SW-1:0] v_acc;
    wire [2:0]  v_prun;

    nvdla_pdp_vacc #(.ATOM(ATOM), .MAX_W(MAX_W), .INT16(INT16), .FP16(FP16)) u_vacc (
        .clk(clk), .rst_n(rst_n), .go(go), .cfg(cfg), .m_ave(m_ave), .m_max(m_max), .i16(i16), .f16(f16),
        .h_valid(hp_valid), .h_ready(v_ready), .h_val(hp_val), .h_o(hp_o), .h_last_col(hp_last_col),
        .h_last_row(hp_last_row), .h_final(hp_final),
        .o_valid(p_in_valid), .o_ready(p_in_ready), .o_acc(v_acc), .o_prun(v_prun),
        .busy(v_busy), .fin(v_done)
    );
    assign v_take = hq_valid && hq_ready;
    wire   p_fire = p_in_valid && p_in_ready;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            v_fin <= 1'b0;
            done  <= 1'b0;
        end else if (go) begin
            v_fin <= 1'b0;
            done  <= 1'b0;
        end else begin
            done <= 1'b0;
            if (v_done) v_fin <= 1'b1;
            // H must have taken every input atom too: columns (or lines) that no output window uses can
            // still be arriving after the last output, and they belong to this layer, not the next.
            if (v_fin && pend == 4'd0 && !h_run) begin
                v_fin <= 1'b0;
                done  <= 1'b1;
            end
        end
    end

    // ---------------------------------------------------------------- output pipeline
    // stage 0: a completed row's accumulator, 1: plus the padded rows' term, at the window sum's width,
    // 2: * recip_w, 3: round, * recip_h, 4: round (or the max/min result)
    wire [4:0] en;
    wire       p_out_valid, p_out_ready;

    nvdla_pipe_ctrl #(.DEPTH(5)) u_ctrl (
        .clk(clk), .rst_n(rst_n),
        .in_valid(p_in_valid), .in_ready(p_in_ready), .stage_en(en),
        .out_valid(p_out_valid), .out_ready(p_out_ready)
    );

    reg [SW-1:0] v1_acc;
    reg [2:0]    v1_prun;
    always @(posedge clk) begin
        if (en[0]) begin
            v1_acc  <= v_acc;
            v1_prun <= v_prun;
        end
    end

    // average: the window's sum plus PAD_VALUE_{run}X * kernel width wraps at 14 bits (max/min: int8 values,
    // unchanged); the sums of wrapping adds do not depend on the order the rows came in
    reg [SW-1:0] vsum8;
    reg [15:0]   v_pad8;
    integer vl;
    always @(*) begin
        v_pad8 = m_ave ? row_pad[v1_prun*16 +: 16] : 16'd0;
        for (vl = 0; vl < ATOM; vl = vl + 1) begin
            vsum8[vl*16 +: 16] = v1_acc[vl*16 +: 16] + v_pad8;
            vsum8[vl*16 + 14 +: 2] = {2{vsum8[vl*16 + 13]}};
        end
    end

    wire [SW-1:0] vsum_i, vsum_f, vsum = f16 ? vsum_f : vsum_i;
    generate
        if (INT16 == 1) begin : g_v16
            reg [SW-1:0] vsum16;
            reg [31:0]   v_pad16;
            integer vl16;
            always @(*) begin
                v_pad16 = m_ave ? row_pad32[v1_prun*32 +: 32] : 32'd0;
                for (vl16 = 0; vl16 < HALF; vl16 = vl16 + 1) begin
                    vsum16[vl16*32 +: 32] = v1_acc[vl16*32 +: 32] + v_pad16;
                    vsum16[vl16*32 + 22 +: 10] = {10{vsum16[vl16*32 + 21]}};   // and at 22 bits
                end
            end
            assign vsum_i = i16 ? vsum16 : vsum8;
        end else begin : g_v8
            assign vsum_i = vsum8;
        end
    endgenerate
    reg [SW-1:0] v2_sum;        // the line-buffer word layout: ATOM 16-bit or ATOM/2 32-bit sums
    always @(posedge clk) begin
        if (en[1]) v2_sum <= vsum;
    end

    // stages 2-4: average scaling and the output element per lane (nvdla_pdp_scale)
    wire [DW-1:0] s3_o;
    nvdla_pdp_scale #(.ATOM(ATOM), .INT16(INT16)) u_scale (
        .clk(clk), .en(en[4:2]), .i16(i16), .m_ave(m_ave),
        .recip_w(cfg[`PDP_RECIP_KERNEL_WIDTH]), .recip_h(cfg[`PDP_RECIP_KERNEL_HEIGHT]),
        .sum_in(v2_sum), .out(s3_o)
    );

    // FP16: H, V and S in nvdla_pdp_fp16 (the same places in the pipeline)
    wire [DW-1:0] s3_f;
    generate
        if (FP16 == 1) begin : g_fp16
            wire [SW-1:0] hval_f, hp_vali;
            nvdla_pdp_fp16 #(.ATOM(ATOM), .SIDE_W(SW + 17)) u_fp16 (
                .clk(clk), .rst_n(rst_n), .cfg(cfg), .m_ave(m_ave), .m_max(m_max),
                .h_in_valid(hq_valid), .h_in_ready(hq_ready), .h_win(win), .h_nreal(hq_nreal),
                .h_prun(hq_prun), .h_side_in({hval_i, hq_o, hq_last_col, hq_last_row, hq_final}),
                .h_out_valid(hp_valid), .h_out_ready(v_ready), .h_val(hval_f),
                .h_side_out({hp_vali, hp_o, hp_last_col, hp_last_row, hp_final}),
                .v_acc(v1_acc), .v_prun(v_prun), .v_en(en[0]), .v_val(vsum_f), .en(en[4:2]), .s_in(v2_sum),
                .out(s3_f)
            );
            assign hp_val = f16 ? hval_f : hp_vali;
        end else begin : g_no_fp16
            assign {vsum_f, s3_f} = {(SW + DW){1'b0}};
            assign {hp_valid, hq_ready, hp_val, hp_o, hp_last_col, hp_last_row, hp_final}
                = {hq_valid, v_ready, hval_i, hq_o, hq_last_col, hq_last_row, hq_final};
        end
    endgenerate

    nvdla_skid #(.WIDTH(DW)) u_out (
        .clk(clk), .rst_n(rst_n),
        .in_valid(p_out_valid), .in_ready(p_out_ready), .in_data(f16 ? s3_f : s3_o),
        .out_valid(out_valid), .out_ready(out_ready), .out_data(out_data)
    );

    wire out_fire = out_valid && out_ready;
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) pend <= 4'd0;
        else        pend <= pend + {3'd0, p_fire} - {3'd0, out_fire};
    end
endmodule
