// One step of PDP's vertical pooling: folds an input row's horizontal result into the accumulator of an output
// row (nvdla_pdp_vacc, one per line-buffer bank), as models/pdp/model.py and models/pdp/fp16.py do. Both words have
// the line buffer's layout: ATOM 16-bit slots (INT8), or ATOM/2 32-bit slots (INT16 sums; FP16 in the low
// bits, FP17 sums or FP16 max/min).
//   INT8/INT16 average: new + acc, wrapping at the slot width (the sums' 14 or 22 bits are cut later, and
//   wrapping sums do not depend on the order); max/min: the larger/smaller as signed integers.
//   FP16: the new row is the first operand, as the model folds the rows oldest first: new + acc as an FP17
//   add (nvdla_fp_add), pick(new, acc) as an FP16 compare (nvdla_fp_cmp; a NaN operand wins, new's first).
// Combinational: nvdla_pdp_vacc places it between its bank read register and the bank write / output.
module nvdla_pdp_vfold #(
    parameter ATOM  = 8,
    parameter INT16 = 0,    // 1: build the INT16 lanes
    parameter FP16  = 0     // 1: build the FP16 lanes
) (
    input  wire               m_ave,   // average pooling: add
    input  wire               m_max,   // max pooling (else min)
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire               i16,     // INT16 layer (a constant 0 with INT16 = 0: unread then)
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire               f16,     // FP16 layer (a constant 0 with FP16 = 0)
    input  wire [ATOM*16-1:0] new_v,   // the current input row's horizontal result
    input  wire [ATOM*16-1:0] acc,     // the output row's accumulator (its earlier real rows)
    output wire [ATOM*16-1:0] y        // the accumulator with the new row folded in
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (ATOM < 1 || (INT16 != 0 && INT16 != 1) || (FP16 != 0 && FP16 != 1)
            || ((INT16 == 1 || FP16 == 1) && ATOM < 2)) begin
            $display("ERROR: nvdla_pdp_vfold %m: ATOM >= 1, INT16 and FP16 0 or 1 and with either ATOM >= 2");
            $finish;
        end
    end
    localparam SW   = ATOM * 16;
    localparam HALF = (ATOM > 1) ? ATOM / 2 : 1;

    reg [SW-1:0] y8;
    reg signed [15:0] a8, n8;
    integer l8;
    always @(*) begin
        for (l8 = 0; l8 < ATOM; l8 = l8 + 1) begin
            n8 = new_v[l8*16 +: 16];
            a8 = acc[l8*16 +: 16];
            if (m_ave)                   y8[l8*16 +: 16] = n8 + a8;
            else if (m_max ? n8 > a8 : n8 < a8) y8[l8*16 +: 16] = n8;
            else                         y8[l8*16 +: 16] = a8;
        end
    end

    wire [SW-1:0] y_i, y_f;
    assign y = f16 ? y_f : y_i;

    genvar l;
    generate
        if (INT16 == 1) begin : g_i16
            reg [SW-1:0] y16;
            reg signed [31:0] a16, n16;
            integer l16;
            always @(*) begin
                for (l16 = 0; l16 < HALF; l16 = l16 + 1) begin
                    n16 = new_v[l16*32 +: 32];
                    a16 = acc[l16*32 +: 32];
                    if (m_ave)                             y16[l16*32 +: 32] = n16 + a16;
                    else if (m_max ? n16 > a16 : n16 < a16) y16[l16*32 +: 32] = n16;
                    else                                   y16[l16*32 +: 32] = a16;
                end
            end
            assign y_i = i16 ? y16 : y8;
        end else begin : g_no_i16
            assign y_i = y8;
        end

        if (FP16 == 1) begin : g_f16
            for (l = 0; l < HALF; l = l + 1) begin : g_lane
                wire [16:0] sum;
                wire [15:0] pick;
                nvdla_fp_add #(.E(6), .M(10)) u_add (.a(new_v[l*32 +: 17]), .b(acc[l*32 +: 17]), .y(sum));
                nvdla_fp_cmp #(.E(5), .M(10)) u_cmp (.a(new_v[l*32 +: 16]), .b(acc[l*32 +: 16]),
                                                     .pick_max(m_max), .y(pick));
                assign y_f[l*32 +: 32] = m_ave ? {15'd0, sum} : {16'd0, pick};
            end
        end else begin : g_no_f16
            assign y_f = {SW{1'b0}};
        end
    endgenerate
endmodule
