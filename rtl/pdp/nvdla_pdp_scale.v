// PDP output scaling, the last three stages of the pooling core's pipeline (nvdla_pdp_core): per lane
// rnd(rnd(sum * recip_w >> 16) * recip_h >> 16) for average pooling, each rounded product kept at NVIDIA's
// fixed width (nvdla_pdp_round: 11 then 8 bits at INT8, 19 then 16 at INT16; models/pdp.py WIDTHS), or the
// max/min result as it is. The sum word has the line buffer's layout: ATOM 16-bit sums (INT8, 14 bits used)
// or, with i16, ATOM/2 32-bit sums (INT16, 22 bits used). The first ATOM/2 lanes are built 32 bits wide when
// INT16 = 1; INT8 sums enter them sign-extended and their stages keep the INT8 widths then. The output atom
// holds ATOM int8 or ATOM/2 int16 elements.
// Stage enables come from the core's pipeline control (full backpressure there): en[0] takes `sum`
// (* recip_w), en[1] rounds and multiplies by recip_h, en[2] rounds into `out`.
module nvdla_pdp_scale #(
    parameter ATOM  = 8,
    parameter INT16 = 0
) (
    input  wire               clk,
    input  wire [2:0]         en,
    input  wire               i16,       // INT16 layer (a constant 0 with INT16 = 0)
    input  wire               m_ave,     // average pooling: scale; else pass the max/min through
    input  wire [16:0]        recip_w,   // D_RECIP_KERNEL_WIDTH
    input  wire [16:0]        recip_h,   // D_RECIP_KERNEL_HEIGHT
    input  wire [ATOM*16-1:0] sum_in,
    output reg  [ATOM*8-1:0]  out
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (ATOM < 1 || (INT16 != 0 && INT16 != 1) || (INT16 == 1 && ATOM < 2)) begin
            $display("ERROR: nvdla_pdp_scale %m: ATOM >= 1, INT16 0 or 1 and with INT16 ATOM >= 2");
            $finish;
        end
    end
    localparam DW   = ATOM * 8;
    localparam HALF = (ATOM > 1) ? ATOM / 2 : 1;   // int16 lanes per atom

    // per lane the stored element: low 8 bits (INT8) or 16 bits (wide lanes at INT16); narrow lanes' upper
    // half is 0 and unread
    /* verilator lint_off UNUSEDSIGNAL */
    wire [ATOM*16-1:0] lane_out;
    /* verilator lint_on UNUSEDSIGNAL */

    genvar l;
    generate
        for (l = 0; l < ATOM; l = l + 1) begin : g_lane
            // the first ATOM/2 lanes carry an int16 lane's 32-bit sum at INT16
            localparam WIDE = (INT16 == 1) && (l < HALF);
            localparam LW   = WIDE ? 32 : 16;          // sum width
            localparam TW   = WIDE ? 16 : 8;           // stored element width = the second stage's
            localparam P1_W = LW + 18;                 // sum * 17-bit recip
            localparam R1_W = TW + 3;                  // the first stage's result (INT8 11, INT16 19 bits)
            localparam P2_W = R1_W + 18;               // r1 * 17-bit recip
            wire signed [LW-1:0] sum;
            if (WIDE) begin : g_wide
                assign sum = i16 ? sum_in[l*32 +: 32] : {{16{sum_in[l*16 + 15]}}, sum_in[l*16 +: 16]};
            end else begin : g_narrow
                assign sum = sum_in[l*16 +: 16];
            end
            reg  [P1_W-1:0] s1_p;
            reg  [P2_W-1:0] s2_p;
            reg  [TW-1:0]   s1_t, s2_t;
            wire signed [R1_W-1:0] r1;
            wire signed [TW-1:0]   r2;
            // a wide lane of an INT8 layer keeps the INT8 widths (lo)
            nvdla_pdp_round #(.IN_W(P1_W), .OUT_W(R1_W), .LO_W(11)) u_r1 (.x(s1_p), .lo(!i16), .y(r1));
            nvdla_pdp_round #(.IN_W(P2_W), .OUT_W(TW), .LO_W(8)) u_r2 (.x(s2_p), .lo(!i16), .y(r2));
            always @(posedge clk) begin
                if (en[0]) begin
                    s1_p <= sum * $signed({1'b0, recip_w});
                    s1_t <= sum[TW-1:0];
                end
                if (en[1]) begin
                    s2_p <= r1 * $signed({1'b0, recip_h});
                    s2_t <= s1_t;
                end
            end
            wire [TW-1:0] res = m_ave ? r2 : s2_t;
            if (WIDE) begin : g_out_wide
                assign lane_out[l*16 +: 16] = res;
            end else begin : g_out_narrow
                assign lane_out[l*16 +: 16] = {8'd0, res};
            end
        end
    endgenerate

    // the output atom: ATOM int8 lanes, or ATOM/2 int16 lanes (the wide lanes' 16 bits, in order)
    reg [DW-1:0] pack8;
    integer ol;
    always @(*) begin
        for (ol = 0; ol < ATOM; ol = ol + 1) pack8[ol*8 +: 8] = lane_out[ol*16 +: 8];
    end
    always @(posedge clk) begin
        if (en[2]) out <= i16 ? lane_out[DW-1:0] : pack8;
    end

endmodule
