// Combinational: y = saturate(round_half_away_from_zero(x / 2**shift)) to OUT_W signed bits.
// A leaf function block meant to sit between pipeline registers of its parent, hence no flops.
// Computed on x's two's complement, without forming |x|: with t = floor(x / 2**shift) (an arithmetic shift,
// x sign-extended) and the fraction's bits below it, round half away from zero is t + inc, where
// inc = (the fraction's top bit) & (x >= 0 | any lower fraction bit) (x < 0: a half rounds down, to t, which
// is away from zero there). The saturation is decided on t and inc in parallel with the increment
// (r = t + inc > MAX: t > MAX, or t = MAX and inc; r < MIN: t < MIN - 1, or t = MIN - 1 and no inc), so the
// deepest path is one shift and one increment or compare, not negate, add, shift, compare, negate.
module nvdla_round_sat #(
    parameter IN_W    = 48,
    parameter SHIFT_W = 6,
    parameter OUT_W   = 8
) (
    input  wire signed [IN_W-1:0]    x,
    input  wire        [SHIFT_W-1:0] shift,
    output wire signed [OUT_W-1:0]   y,
    output wire                      sat
);
    localparam TW = IN_W + 1;   // x with one fraction bit below it; t sign-extended to the same width

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (IN_W < 1 || SHIFT_W < 1 || OUT_W < 2 || OUT_W > IN_W + 1) begin
            $display("ERROR: nvdla_round_sat %m: IN_W >= 1, SHIFT_W >= 1, 2 <= OUT_W <= IN_W + 1 ",
                     "(y is cut from the IN_W + 1-bit result)");
            $finish;
        end
    end

    // the result's range, TW bits signed
    localparam signed [TW:0] ONE    = 1;
    localparam signed [TW:0] MAX_V  = (ONE <<< (OUT_W - 1)) - ONE;
    localparam signed [TW:0] MIN_V1 = -(ONE <<< (OUT_W - 1)) - ONE;   // MIN - 1

    wire               neg = x[IN_W-1];
    wire signed [TW-1:0] xf = {x, 1'b0};
    // {t, the fraction's top bit}: xf shifted right by shift (all sign bits at or past TW)
    wire signed [TW-1:0] tr = xf >>> shift;
    wire               rbit = tr[0];
    // the fraction's bits below its top bit: xf's bits below position shift (xf[0] is 0)
    wire [TW-1:0] below = ({TW{1'b1}} << shift);
    wire          sticky = |(xf & ~below);
    wire          inc    = rbit & (~neg | sticky);
    wire signed [TW:0] t = {tr[TW-1], tr[TW-1], tr[TW-1:1]};   // floor(x / 2**shift), TW+1 bits

    wire sat_hi = ~neg & ((t > MAX_V) | ((t == MAX_V) & inc));
    wire sat_lo = neg & ((t < MIN_V1) | ((t == MIN_V1) & ~inc));
    wire [OUT_W-1:0] r = t[OUT_W-1:0] + {{(OUT_W-1){1'b0}}, inc};

    assign sat = sat_hi | sat_lo;
    assign y   = sat_hi ? {1'b0, {(OUT_W-1){1'b1}}} : sat_lo ? {1'b1, {(OUT_W-1){1'b0}}} : r;
endmodule
