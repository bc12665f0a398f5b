// PDP pooling arithmetic at FP16 (nvdla_pdp_core with FP16 = 1 and D_DATA_FORMAT.INPUT_DATA = FP16), bit for
// bit as models/pdp/fp16.py, over the ATOM/2 two-byte lanes of an atom (lane l in bits [16l+15:16l] of an
// atom, and in the low bits of 32-bit slot l of a line-buffer word, as INT16 keeps them):
//   H  the horizontal result of a window from the core's last 8 input atoms (win, newest in the low bits):
//      max/min folds the window's real columns oldest first as FP16 compares, pick(acc, new)
//      (rtl/fp/nvdla_fp_cmp); average widens each to FP17 and sums them in the same order as FP17 adds
//      (nvdla_fp_add), then adds PAD_VALUE_{run}X read as FP17 (its low 17 bits; +0 for run 0).
//   V  the window's rows are folded oldest first with the new row as the first operand, pick(new, acc) or
//      acc = new + acc, by nvdla_pdp_vacc (nvdla_pdp_vfold); here average adds PAD_VALUE_{run}X * kernel width
//      (an FP17 product) to the completed accumulator, acc + pad; max/min pass it through.
//   S  average: * RECIP_KERNEL_WIDTH, * RECIP_KERNEL_HEIGHT (FP17 register values, FP17 products), narrowed
//      to FP16 (nvdla_fp_narrow); max/min pass through. Three registered stages enabled by the core's
//      pipeline control (en[0..2] = the core's stages 2..4, as nvdla_pdp_scale).
// H and V are combinational: they sit where the core's INT datapaths sit (H between the window registers and
// the line buffer, V's pad term between the core's stage 0 and 1 registers).
`include "nvdla_pdp_fields.vh"

module nvdla_pdp_fp16 #(
    parameter ATOM = 8      // bytes per atom: ATOM/2 FP16 lanes
) (
    input  wire                  clk,
    /* verilator lint_off UNUSEDSIGNAL */  // the pad values, kernel width and reciprocals only
    input  wire [`PDP_CFG_W-1:0] cfg,      // the PDP register bundle (rtl/gen/nvdla_pdp_fields.vh)
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire                  m_ave,    // average pooling
    input  wire                  m_max,    // max pooling (else min)
    // H: the window waiting in the core
    input  wire [8*ATOM*8-1:0]   h_win,    // the last 8 input atoms, newest in the low bits
    input  wire [3:0]            h_nreal,  // the window's real columns: the h_nreal newest atoms
    input  wire [2:0]            h_prun,   // its run of padded columns (PAD_VALUE_{run}X; 0: none)
    output wire [ATOM*16-1:0]    h_val,    // per lane a 32-bit slot: FP17 sum or FP16 max/min, zero-extended
    // V: a completed output row's accumulator (its window's real rows folded)
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [ATOM*16-1:0]    v_acc,    // per lane a 32-bit slot: FP17 sum or FP16 max/min in the low bits
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [2:0]            v_prun,   // its run of padded rows
    output wire [ATOM*16-1:0]    v_val,    // per lane a 32-bit slot: FP17 sum or FP16 max/min
    // S: output stages
    input  wire [2:0]            en,
    input  wire [ATOM*16-1:0]    s_in,     // v_val one stage later (the core's stage 1 register)
    output reg  [ATOM*8-1:0]     out       // ATOM/2 FP16 elements
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (ATOM < 2 || (ATOM & (ATOM - 1)) != 0) begin
            $display("ERROR: nvdla_pdp_fp16 %m: ATOM a power of two >= 2 (two-byte lanes)");
            $finish;
        end
    end
    localparam HALF = ATOM / 2;
    localparam DW   = ATOM * 8;
    localparam NB   = 8;

    // ---- lane-independent terms: pad values as FP17, the kernel width as FP17
    wire [4:0]  kw = {1'b0, cfg[`PDP_KERNEL_WIDTH]} + 5'd1;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [18:0] pv1 = cfg[`PDP_PAD_VALUE_1X];
    wire [18:0] pv2 = cfg[`PDP_PAD_VALUE_2X];
    wire [18:0] pv3 = cfg[`PDP_PAD_VALUE_3X];
    wire [18:0] pv4 = cfg[`PDP_PAD_VALUE_4X];
    wire [18:0] pv5 = cfg[`PDP_PAD_VALUE_5X];
    wire [18:0] pv6 = cfg[`PDP_PAD_VALUE_6X];
    wire [18:0] pv7 = cfg[`PDP_PAD_VALUE_7X];
    /* verilator lint_on UNUSEDSIGNAL */
    // indexed by run length 0..7 (run 0: +0)
    wire [8*17-1:0] pads = {pv7[16:0], pv6[16:0], pv5[16:0], pv4[16:0], pv3[16:0], pv2[16:0], pv1[16:0], 17'd0};
    wire [16:0] h_pad = pads[h_prun*17 +: 17];

    // the kernel width 1..8 as FP17 (bias 31): exponent 31 + floor(log2 kw), the bits below the leading 1
    reg [16:0] kw17;
    integer kb;
    always @(*) begin
        kw17 = 17'd0;
        for (kb = 0; kb < 4; kb = kb + 1) begin
            if (kw[kb]) kw17 = {1'b0, 6'd31 + kb[5:0], ({6'd0, kw[3:0]} << (10 - kb)) & 10'h3ff};
        end
    end
    wire [16:0] v_pad;   // PAD_VALUE_{run}X * kernel width (run 0: +0 * kernel width = +0)
    nvdla_fp_mul #(.E(6), .M(10)) u_vpad (.a(pads[v_prun*17 +: 17]), .b(kw17), .y(v_pad));

    wire [16:0] recip_w = cfg[`PDP_RECIP_KERNEL_WIDTH];
    wire [16:0] recip_h = cfg[`PDP_RECIP_KERNEL_HEIGHT];

    genvar l, j;
    generate
        for (l = 0; l < HALF; l = l + 1) begin : g_lane
            // ---- H: s[j] folds columns j' >= j of the window (column j: j atoms before the newest)
            wire [17*(NB+1)-1:0] hs;       // FP17 sums
            wire [16*(NB+1)-1:0] hc;       // FP16 max/min
            assign hs[NB*17 +: 17] = 17'd0;
            assign hc[NB*16 +: 16] = 16'd0;
            for (j = 0; j < NB; j = j + 1) begin : g_h
                wire [15:0] x16 = h_win[j*DW + l*16 +: 16];
                wire [16:0] x17, sum;
                wire [15:0] pick;
                nvdla_fp_widen #(.EI(5), .MI(10), .EO(6), .MO(10), .DENORM(1)) u_w (.x(x16), .y(x17));
                nvdla_fp_add #(.E(6), .M(10)) u_add (.a(hs[(j+1)*17 +: 17]), .b(x17), .y(sum));
                nvdla_fp_cmp #(.E(5), .M(10)) u_cmp (.a(hc[(j+1)*16 +: 16]), .b(x16), .pick_max(m_max),
                                                     .y(pick));
                // the oldest real column starts the fold; newer ones fold in; older ones are not real
                wire first = {1'b0, h_nreal} == j + 1;
                wire later = {1'b0, h_nreal} > j + 1;
                assign hs[j*17 +: 17] = first ? x17 : later ? sum : hs[(j+1)*17 +: 17];
                assign hc[j*16 +: 16] = first ? x16 : later ? pick : hc[(j+1)*16 +: 16];
            end
            wire [16:0] h_sum;
            nvdla_fp_add #(.E(6), .M(10)) u_hpad (.a(hs[16:0]), .b(h_pad), .y(h_sum));
            assign h_val[l*32 +: 32] = m_ave ? {15'd0, h_sum} : {16'd0, hc[15:0]};

            // ---- V: the accumulator plus the padded rows' term (average)
            wire [16:0] v_sum;
            nvdla_fp_add #(.E(6), .M(10)) u_vpad (.a(v_acc[l*32 +: 17]), .b(v_pad), .y(v_sum));
            assign v_val[l*32 +: 32] = m_ave ? {15'd0, v_sum} : {16'd0, v_acc[l*32 +: 16]};

            // ---- S: * recip_w, * recip_h, narrow to FP16 (average); max/min pass through
            /* verilator lint_off UNUSEDSIGNAL */
            wire [31:0] sum_in = s_in[l*32 +: 32];
            /* verilator lint_on UNUSEDSIGNAL */
            wire [16:0] p1_n, p2_n;
            wire [15:0] o16;
            reg  [16:0] p1, p2;
            nvdla_fp_mul #(.E(6), .M(10)) u_mw (.a(sum_in[16:0]), .b(recip_w), .y(p1_n));
            nvdla_fp_mul #(.E(6), .M(10)) u_mh (.a(p1), .b(recip_h), .y(p2_n));
            nvdla_fp_narrow #(.EI(6), .MI(10), .EO(5), .MO(10), .DENORM(1)) u_n (.x(p2), .y(o16));
            always @(posedge clk) begin
                if (en[0]) p1 <= m_ave ? p1_n : sum_in[16:0];
                if (en[1]) p2 <= m_ave ? p2_n : p1;
                if (en[2]) out[l*16 +: 16] <= m_ave ? o16 : p2[15:0];
            end
        end
    endgenerate

endmodule
