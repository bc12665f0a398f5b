// CDMA's input convertor on one INT8 lane of feature data (D_CVT_CFG, models/conv/cdma.py convert_input):
// y = sat_int8(round((x - CVT_OFFSET) * CVT_SCALE >> CVT_TRUNCATE)), offset and scale 16-bit signed, rounding
// half away from zero; a shift of 34 or more gives 0 (NVIDIA's 34-bit shifter). With `en` low y = x.
// Combinational: a leaf between its parent's pipeline registers.
module nvdla_cdma_cvt (
    input  wire        en,
    input  wire [15:0] offset,
    input  wire [15:0] scale,
    input  wire [5:0]  truncate,
    input  wire [7:0]  x,
    output wire [7:0]  y
);
    wire signed [17:0] diff = $signed({{10{x[7]}}, x}) - $signed({{2{offset[15]}}, offset});
    wire signed [33:0] prod = diff * $signed(scale);
    wire [7:0]         rounded;
    /* verilator lint_off UNUSEDSIGNAL */
    wire               sat_unused;
    /* verilator lint_on UNUSEDSIGNAL */
    nvdla_round_sat #(.IN_W(34), .SHIFT_W(6), .OUT_W(8)) u_rs (
        .x(prod), .shift(truncate), .y(rounded), .sat(sat_unused)
    );
    assign y = !en ? x : (truncate >= 6'd34 ? 8'd0 : rounded);
endmodule
