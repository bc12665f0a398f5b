// PDP pooling arithmetic at FP16 (nvdla_pdp_core with FP16 = 1 and D_DATA_FORMAT.INPUT_DATA = FP16), bit for
// bit as models/pdp/fp16.py, over the ATOM/2 two-byte lanes of an atom (lane l in bits [16l+15:16l] of an
// atom, and in the low bits of 32-bit slot l of a line-buffer word, as INT16 keeps them):
//   H  the horizontal result of a window from the core's last 8 input atoms (win, newest in the low bits):
//      max/min folds the window's real columns oldest first as FP16 compares, pick(acc, new)
//      (rtl/fp/nvdla_fp_cmp); average widens each to FP17 and sums them in the same order as FP17 adds
//      (nvdla_fp_add), then adds PAD_VALUE_{run}X read as FP17 (its low 17 bits; +0 for run 0).
//      A pipeline of HS = 10 stages with valid/ready (nvdla_pipe_ctrl, full backpressure) between the core's
//      waiting window and V: stage c (0..7) takes column 7-c, finishing the previous column's add
//      (nvdla_fp_add_norm) and beginning this one's (nvdla_fp_add_align), and folding its max/min; stage 8
//      finishes column 0 and begins the pad add; stage 9 finishes it (the output register). Each stage
//      carries the columns still to come and h_side (the core's bits for V: its integer result, the column).
//   V  the window's rows are folded oldest first with the new row as the first operand, pick(new, acc) or
//      acc = new + acc, by nvdla_pdp_vacc (nvdla_pdp_vfold); here average adds PAD_VALUE_{run}X * kernel width
//      (an FP17 product, formed in the core's stage 0 beside the accumulator's register) to the completed
//      accumulator, acc + pad; max/min pass it through.
//   S  average: * RECIP_KERNEL_WIDTH, * RECIP_KERNEL_HEIGHT (FP17 register values, FP17 products), narrowed
//      to FP16 (nvdla_fp_narrow); max/min pass through. Three registered stages enabled by the core's
//      pipeline control (en[0..2] = the core's stages 2..4, as nvdla_pdp_scale).
// V is combinational: it sits where the core's INT datapath sits (the pad term between the core's stage 0 and
// 1 registers).
`include "nvdla_pdp_fields.vh"

module nvdla_pdp_fp16 #(
    parameter ATOM   = 8,   // bytes per atom: ATOM/2 FP16 lanes
    parameter SIDE_W = 1    // bits carried alongside H (h_side)
) (
    input  wire                  clk,
    input  wire                  rst_n,
    /* verilator lint_off UNUSEDSIGNAL */  // the pad values, kernel width and reciprocals only
    input  wire [`PDP_CFG_W-1:0] cfg,      // the PDP register bundle (rtl/gen/nvdla_pdp_fields.vh)
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire                  m_ave,    // average pooling
    input  wire                  m_max,    // max pooling (else min)
    // H: the window waiting in the core (taken when h_in_valid and h_in_ready), its result HS stages later
    input  wire                  h_in_valid,
    output wire                  h_in_ready,
    input  wire [8*ATOM*8-1:0]   h_win,    // the last 8 input atoms, newest in the low bits
    input  wire [3:0]            h_nreal,  // the window's real columns: the h_nreal newest atoms
    input  wire [2:0]            h_prun,   // its run of padded columns (PAD_VALUE_{run}X; 0: none)
    input  wire [SIDE_W-1:0]     h_side_in,
    output wire                  h_out_valid,
    input  wire                  h_out_ready,
    output wire [ATOM*16-1:0]    h_val,    // per lane a 32-bit slot: FP17 sum or FP16 max/min, zero-extended
    output wire [SIDE_W-1:0]     h_side_out,
    // V: a completed output row's accumulator (its window's real rows folded)
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [ATOM*16-1:0]    v_acc,    // per lane a 32-bit slot: FP17 sum or FP16 max/min in the low bits
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [2:0]            v_prun,   // its run of padded rows, one stage before v_acc (the core's
                                           // stage 0 input; v_en loads it with the accumulator)
    input  wire                  v_en,     // the core's stage 0 enable
    output wire [ATOM*16-1:0]    v_val,    // per lane a 32-bit slot: FP17 sum or FP16 max/min
    // S: output stages
    input  wire [2:0]            en,
    input  wire [ATOM*16-1:0]    s_in,     // v_val one stage later (the core's stage 1 register)
    output reg  [ATOM*8-1:0]     out       // ATOM/2 FP16 elements
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (ATOM < 2 || (ATOM & (ATOM - 1)) != 0 || SIDE_W < 1) begin
            $display("ERROR: nvdla_pdp_fp16 %m: ATOM a power of two >= 2 (two-byte lanes), SIDE_W >= 1");
            $finish;
        end
    end
    localparam HALF = ATOM / 2;
    localparam DW   = ATOM * 8;
    localparam NB   = 8;
    localparam HS   = NB + 2;                 // H's stages
    localparam MID  = 2 * 6 + 3 * 10 + 7;     // nvdla_fp_add_align's output at FP17
    localparam CTLW = SIDE_W + 7;             // {side, nreal, prun}

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

    // the kernel width 1..8 as FP17 (bias 31): exponent 31 + floor(log2 kw), the bits below the leading 1
    reg [16:0] kw17;
    integer kb;
    always @(*) begin
        kw17 = 17'd0;
        for (kb = 0; kb < 4; kb = kb + 1) begin
            if (kw[kb]) kw17 = {1'b0, 6'd31 + kb[5:0], ({6'd0, kw[3:0]} << (10 - kb)) & 10'h3ff};
        end
    end
    // PAD_VALUE_{run}X * kernel width (run 0: +0 * kernel width = +0), registered with the accumulator
    wire [16:0] v_pad_n;
    reg  [16:0] v_pad;
    nvdla_fp_mul #(.E(6), .M(10)) u_vpad (.a(pads[v_prun*17 +: 17]), .b(kw17), .y(v_pad_n));
    always @(posedge clk) begin
        if (v_en) v_pad <= v_pad_n;
    end

    wire [16:0] recip_w = cfg[`PDP_RECIP_KERNEL_WIDTH];
    wire [16:0] recip_h = cfg[`PDP_RECIP_KERNEL_HEIGHT];

    // ---- H pipeline control; per stage the control bundle and the window's columns still to come (stage c
    // keeps columns 7-c .. 0, at offset WOFF(c) of hwin)
    wire [HS-1:0] hen;
    nvdla_pipe_ctrl #(.DEPTH(HS)) u_hctrl (
        .clk(clk), .rst_n(rst_n), .in_valid(h_in_valid), .in_ready(h_in_ready), .stage_en(hen),
        .out_valid(h_out_valid), .out_ready(h_out_ready)
    );
    /* verilator lint_off UNUSEDSIGNAL */   // the last stage's prun and nreal; column 7-c's top stage
    reg  [HS*CTLW-1:0]       hctl;
    reg  [36*DW-1:0]         hwin;          // 8 + 7 + ... + 1 columns
    wire [(HS+1)*CTLW-1:0]   hctl_in = {hctl, h_side_in, h_nreal, h_prun};
    /* verilator lint_on UNUSEDSIGNAL */
    genvar c;
    generate
        for (c = 0; c < HS; c = c + 1) begin : g_hst
            always @(posedge clk) begin
                if (hen[c]) hctl[c*CTLW +: CTLW] <= hctl_in[c*CTLW +: CTLW];
            end
            if (c < NB) begin : g_win
                localparam integer OFF  = (8 * c - c * (c - 1) / 2) * DW;        // this stage's columns
                if (c == 0) begin : g_first
                    always @(posedge clk) begin
                        if (hen[0]) hwin[0 +: NB*DW] <= h_win;
                    end
                end else begin : g_next
                    localparam integer POFF = (8 * (c - 1) - (c - 1) * (c - 2) / 2) * DW;
                    always @(posedge clk) begin
                        if (hen[c]) hwin[OFF +: (NB-c)*DW] <= hwin[POFF +: (NB-c)*DW];
                    end
                end
            end
        end
    endgenerate
    assign h_side_out = hctl[(HS-1)*CTLW + 7 +: SIDE_W];

    genvar l;
    generate
        for (l = 0; l < HALF; l = l + 1) begin : g_lane
            // ---- H: stage c = 7-j folds column j (j atoms before the newest) into the sum and the max/min
            /* verilator lint_off UNUSEDSIGNAL */   // stage 8 keeps no sum of its own
            reg  [17*NB-1:0]     hacc;      // stage c: the sum before column 7-c
            /* verilator lint_on UNUSEDSIGNAL */
            reg  [MID*(NB+1)-1:0] hmid;     // stage c: the add begun (stage 8: the pad add)
            reg  [16*(NB+1)-1:0] hcmp;      // stage c: the max/min after column 7-c (stage 8: passed on)
            reg  [31:0]          hout;      // stage 9: the lane's result
            for (c = 0; c <= NB; c = c + 1) begin : g_h
                // the sum after the previous stage's column jp = 8-c (+0 before the first column)
                wire [16:0] acc_in;
                wire [15:0] cmp_in;
                wire [3:0]  nreal;          // this stage's input
                if (c == 0) begin : g_start
                    assign nreal  = h_nreal;
                    assign acc_in = 17'd0;
                    assign cmp_in = 16'd0;
                end else begin : g_fin
                    localparam integer JP   = NB - c;
                    localparam integer POFF = (8 * (c - 1) - (c - 1) * (c - 2) / 2) * DW;
                    wire [16:0] xp17, sum;
                    assign nreal = hctl[(c-1)*CTLW + 3 +: 4];
                    nvdla_fp_widen #(.EI(5), .MI(10), .EO(6), .MO(10), .DENORM(1)) u_wp (
                        .x(hwin[POFF + JP*DW + l*16 +: 16]), .y(xp17));
                    nvdla_fp_add_norm #(.E(6), .M(10)) u_norm (.mid(hmid[(c-1)*MID +: MID]), .y(sum));
                    // the oldest real column starts the fold; newer ones fold in; older ones are not real
                    localparam integer JP1I = JP + 1;
                    localparam [4:0] JP1 = JP1I[4:0];
                    wire first = {1'b0, nreal} == JP1;
                    wire later = {1'b0, nreal} > JP1;
                    assign acc_in = first ? xp17 : later ? sum : hacc[(c-1)*17 +: 17];
                    assign cmp_in = hcmp[(c-1)*16 +: 16];
                end
                if (c < NB) begin : g_col
                    localparam integer J = NB - 1 - c;
                    wire [15:0] x16;
                    if (c == 0) begin : g_x0
                        assign x16 = h_win[J*DW + l*16 +: 16];
                    end else begin : g_xc
                        localparam integer POFF = (8 * (c - 1) - (c - 1) * (c - 2) / 2) * DW;
                        assign x16 = hwin[POFF + J*DW + l*16 +: 16];
                    end
                    wire [16:0] x17;
                    wire [15:0] pick;
                    wire [MID-1:0] mid;
                    nvdla_fp_widen #(.EI(5), .MI(10), .EO(6), .MO(10), .DENORM(1)) u_w (.x(x16), .y(x17));
                    nvdla_fp_add_align #(.E(6), .M(10)) u_add (.a(acc_in), .b(x17), .mid(mid));
                    nvdla_fp_cmp #(.E(5), .M(10)) u_cmp (.a(cmp_in), .b(x16), .pick_max(m_max), .y(pick));
                    localparam integer J1I = J + 1;
                    localparam [4:0] J1 = J1I[4:0];
                    wire first = {1'b0, nreal} == J1;
                    wire later = {1'b0, nreal} > J1;
                    always @(posedge clk) begin
                        if (hen[c]) begin
                            hacc[c*17 +: 17]  <= acc_in;
                            hmid[c*MID +: MID] <= mid;
                            hcmp[c*16 +: 16]  <= first ? x16 : later ? pick : cmp_in;
                        end
                    end
                end else begin : g_pad
                    // stage 8: the pad add begun; the max/min passed on
                    wire [MID-1:0] mid;
                    wire [16:0] pad = pads[hctl[(NB-1)*CTLW +: 3]*17 +: 17];
                    nvdla_fp_add_align #(.E(6), .M(10)) u_add (.a(acc_in), .b(pad), .mid(mid));
                    always @(posedge clk) begin
                        if (hen[c]) begin
                            hmid[c*MID +: MID] <= mid;
                            hcmp[c*16 +: 16]  <= cmp_in;
                        end
                    end
                end
            end
            // stage 9: the pad add finished (average) or the max/min
            wire [16:0] h_sum;
            nvdla_fp_add_norm #(.E(6), .M(10)) u_hpad (.mid(hmid[NB*MID +: MID]), .y(h_sum));
            always @(posedge clk) begin
                if (hen[HS-1]) hout <= m_ave ? {15'd0, h_sum} : {16'd0, hcmp[NB*16 +: 16]};
            end
            assign h_val[l*32 +: 32] = hout;

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
