// PDP output scaling, the last three stages of the pooling core's pipeline (nvdla_pdp_core): per lane
// rnd(rnd(sum * recip_w >> 16) * recip_h >> 16) for average pooling, each rounded product kept at NVIDIA's
// fixed width (nvdla_pdp_round: 11 then 8 bits at INT8, 19 then 16 at INT16; models/pdp/model.py WIDTHS), or the
// max/min result as it is; one nvdla_pdp_scale_lane per lane. The sum word has the line buffer's layout:
// ATOM 16-bit sums (INT8, 14 bits used) or, with i16, ATOM/2 32-bit sums (INT16, 22 bits used). The first
// ATOM/2 lanes are built for INT16 when INT16 = 1; INT8 sums enter them sign-extended and their stages keep
// the INT8 widths then. The output atom holds ATOM int8 or ATOM/2 int16 elements.
// Stage enables come from the core's pipeline control (full backpressure there): en[0] takes `sum`
// (* recip_w), en[1] rounds and multiplies by recip_h, en[2] rounds into `out`.
// One module per lane: hierarchical synthesis (scripts/synth_hier.py) maps a lane once per kind, not ATOM
// multiplier pairs in one ABC run.
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
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [ATOM*16-1:0] sum_in,    // the bits above each sum's 14 (22) are its sign extension
    /* verilator lint_on UNUSEDSIGNAL */
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
            if (INT16 == 1 && l < HALF) begin : g_wide
                // the first ATOM/2 lanes carry an int16 lane's 32-bit sum at INT16
                wire [21:0] sum = i16 ? sum_in[l*32 +: 22] : {{8{sum_in[l*16 + 13]}}, sum_in[l*16 +: 14]};
                wire [15:0] res;
                nvdla_pdp_scale_lane #(.WIDE(1)) u_lane (
                    .clk(clk), .en(en[1:0]), .i16(i16), .m_ave(m_ave), .recip_w(recip_w), .recip_h(recip_h),
                    .sum(sum), .res(res)
                );
                assign lane_out[l*16 +: 16] = res;
            end else begin : g_narrow
                wire [7:0] res;
                nvdla_pdp_scale_lane #(.WIDE(0)) u_lane (
                    .clk(clk), .en(en[1:0]), .i16(i16), .m_ave(m_ave), .recip_w(recip_w), .recip_h(recip_h),
                    .sum(sum_in[l*16 +: 14]), .res(res)
                );
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
