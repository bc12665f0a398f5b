// Last arithmetic step of a LUT lookup (combinational leaf between its parent's pipeline registers).
//   flow (under/overflow): prod = (x - START/END [- bias]) * SLOPE_SCALE;
//                          c = sat32(round(prod >> shift)) with a signed 5-bit shift (< 0: left shift);
//                          y = sat_OUT(y0 + c)
//   hit, CDP (SDP == 0):   prod = (y1 - y0) * frac;  y = sat_OUT(y0 + round(prod >> FRAC_W))
//   hit, SDP (SDP == 1):   prod = (y1 - y0) * frac;  y = sat_OUT(round(((y0 << FRAC_W) + prod) >> FRAC_W))
//                          (= y0 * (2^FRAC_W - frac) + y1 * frac, rounded as a whole)
// Every round is half away from zero. Saturating c to 32 bits first is what SDP does
// (IntSignedShiftRight to 32 bits); for CDP's 16-bit output it changes nothing, as any |c| >= 2^31
// saturates y the same way.
module nvdla_lut_interp #(
    parameter PROD_W = 56,
    parameter FRAC_W = 16,
    parameter OUT_W  = 16,
    parameter SDP    = 0
) (
    input  wire signed [PROD_W-1:0] prod,
    input  wire signed [15:0]       y0,
    input  wire                     flow,
    input  wire        [4:0]        shift,     // SLOPE_*_SHIFT, signed (flow only)
    output reg  signed [OUT_W-1:0]  y
);
    // prod plus y0 << FRAC_W, with a carry
    localparam V_W = ((PROD_W > 16 + FRAC_W) ? PROD_W : 16 + FRAC_W) + 1;
    // The left shift (1..16 where it is used) runs on prod clamped to P_W signed bits: a |prod| >= 2^(P_W-1)
    // shifted by 1 or more is past the 32-bit range either way, so it saturates c as its clamped value does;
    // P_W + 16 = 64 bits keep the shift in one machine word. Needs PROD_W >= P_W (53 in SDP, 56 in CDP).
    localparam P_W = 48;
    localparam L_W = P_W + 16;                 // clamped prod << 16, the largest left shift
    localparam C_W = 32;
    localparam S_W = C_W + 2;                  // y0 + c

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (PROD_W < P_W || OUT_W < 1 || OUT_W > S_W || FRAC_W < 0 || FRAC_W > 63) begin
            $display("ERROR: nvdla_lut_interp %m: PROD_W >= 48 (the clamped left shift), 1 <= OUT_W <= 34 (y0 + c), ",
                     "0 <= FRAC_W <= 63 (a 6-bit shift)");
            $finish;
        end
    end

    wire               whole = (SDP != 0) && !flow;
    wire signed [V_W-1:0] v = $signed({{(V_W-PROD_W){prod[PROD_W-1]}}, prod})
                            + (whole ? ($signed({{(V_W-16){y0[15]}}, y0}) <<< FRAC_W) : {V_W{1'b0}});
    wire        [5:0]  rshift = flow ? (shift[4] ? 6'd0 : {1'b0, shift}) : FRAC_W[5:0];
    wire signed [C_W-1:0] c_right;
    /* verilator lint_off UNUSEDSIGNAL */
    wire               c_right_sat;
    /* verilator lint_on UNUSEDSIGNAL */

    nvdla_round_sat #(.IN_W(V_W), .SHIFT_W(6), .OUT_W(C_W)) u_round (
        .x(v), .shift(rshift), .y(c_right), .sat(c_right_sat)
    );

    wire               p_big = (prod[PROD_W-1:P_W-1] != {(PROD_W-P_W+1){prod[PROD_W-1]}});
    wire signed [P_W-1:0] p_cl = p_big ? {prod[PROD_W-1], {(P_W-1){~prod[PROD_W-1]}}} : prod[P_W-1:0];
    reg signed [L_W-1:0] left;
    reg signed [C_W-1:0] c;
    reg signed [S_W-1:0] sum;
    reg        [4:0]     lsh;

    always @(*) begin
        lsh  = ~shift + 5'd1;
        left = $signed({{(L_W-P_W){p_cl[P_W-1]}}, p_cl}) <<< lsh;
        if (flow && shift[4]) begin
            // negative shift: exact left shift, then saturate to 32 bits
            if (left > $signed({{(L_W-C_W+1){1'b0}}, {(C_W-1){1'b1}}}))
                c = {1'b0, {(C_W-1){1'b1}}};
            else if (left < $signed({{(L_W-C_W+1){1'b1}}, {(C_W-1){1'b0}}}))
                c = {1'b1, {(C_W-1){1'b0}}};
            else
                c = left[C_W-1:0];
        end else begin
            c = c_right;
        end
        sum = whole ? {{(S_W-C_W){c[C_W-1]}}, c}
                    : ($signed({{(S_W-16){y0[15]}}, y0}) + $signed({{(S_W-C_W){c[C_W-1]}}, c}));
        if (sum > $signed({{(S_W-OUT_W+1){1'b0}}, {(OUT_W-1){1'b1}}}))
            y = {1'b0, {(OUT_W-1){1'b1}}};
        else if (sum < $signed({{(S_W-OUT_W+1){1'b1}}, {(OUT_W-1){1'b0}}}))
            y = {1'b1, {(OUT_W-1){1'b0}}};
        else
            y = sum[OUT_W-1:0];
    end
endmodule
