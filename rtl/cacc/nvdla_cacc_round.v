// CACC's output stage for one lane (NVIDIA's NV_NVDLA_CACC_CALC_int8 final step, models/conv/conv.py cacc_output):
// the 34-bit accumulator shifted right by CLIP_TRUNCATE, rounded half away from zero as NVIDIA's RTL does
// it (the guide bit, and for a negative sum the 15 sticky bits below it: a negative exact half rounds away
// from zero because the arithmetic shift already floors it), saturated to INT32 with a saturation flag.
// Combinational: a leaf between its parent's pipeline registers.
module nvdla_cacc_round (
    input  wire signed [33:0] acc,
    input  wire [4:0]         truncate,
    output reg  [31:0]        y,
    output reg                sat
);
    // the sticky bits: truncate-2 down to max(truncate-16, 0)
    wire [4:0]  low        = (truncate > 5'd16) ? truncate - 5'd16 : 5'd0;
    wire [4:0]  tm1        = truncate - 5'd1;
    wire [33:0] below_g    = (34'd1 << tm1) - 34'd1;
    wire [33:0] below_low  = (34'd1 << low) - 34'd1;
    wire        nz         = truncate != 5'd0;
    wire        guide      = nz & acc[{1'b0, tm1}];
    wire [33:0] sticky_m   = nz ? (below_g & ~below_low) : 34'd0;
    wire        point5     = guide & (~acc[33] | (|(acc & sticky_m)));
    wire signed [33:0] shifted = acc >>> truncate;
    wire signed [34:0] value   = {shifted[33], shifted} + {34'd0, point5};
    always @(*) begin
        sat = (value > 35'sd2147483647) || (value < -35'sd2147483648);
        y   = sat ? (value[34] ? 32'h8000_0000 : 32'h7fff_ffff) : value[31:0];
    end
endmodule
