// Combinational: y = saturate(round_half_away_from_zero(x / 2**shift)) to OUT_W signed bits.
// A leaf function block meant to sit between pipeline registers of its parent, hence no flops.
module nvdla_round_sat #(
    parameter IN_W    = 48,
    parameter SHIFT_W = 6,
    parameter OUT_W   = 8
) (
    input  wire signed [IN_W-1:0]    x,
    input  wire        [SHIFT_W-1:0] shift,
    output reg  signed [OUT_W-1:0]   y,
    output reg                       sat
);
    localparam MAG_W = IN_W + 1;  // |x| of the most negative value plus the rounding carry

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (IN_W < 1 || SHIFT_W < 1 || OUT_W < 1 || OUT_W > IN_W + 1) begin
            $display("ERROR: nvdla_round_sat %m: IN_W >= 1, SHIFT_W >= 1, 1 <= OUT_W <= IN_W + 1 ",
                     "(y is cut from the IN_W + 1-bit magnitude)");
            $finish;
        end
    end

    reg [MAG_W-1:0] mag;
    reg [MAG_W-1:0] half;
    reg [MAG_W-1:0] rounded;
    reg             neg;

    always @(*) begin
        neg  = x[IN_W-1];
        mag  = neg ? ({1'b0, ~x} + 1'b1) : {1'b0, x};
        half = (shift == {SHIFT_W{1'b0}}) ? {MAG_W{1'b0}} : ({{(MAG_W-1){1'b0}}, 1'b1} << (shift - 1'b1));
        // shifts at or past MAG_W give 0, as the arithmetic does
        rounded = (mag + half) >> shift;
        if (!neg && (rounded > {{(MAG_W-OUT_W+1){1'b0}}, {(OUT_W-1){1'b1}}})) begin
            y   = {1'b0, {(OUT_W-1){1'b1}}};
            sat = 1'b1;
        end else if (neg && (rounded > {{(MAG_W-OUT_W){1'b0}}, 1'b1, {(OUT_W-1){1'b0}}})) begin
            y   = {1'b1, {(OUT_W-1){1'b0}}};
            sat = 1'b1;
        end else begin
            y   = neg ? (~rounded[OUT_W-1:0] + 1'b1) : rounded[OUT_W-1:0];
            sat = 1'b0;
        end
    end
endmodule
