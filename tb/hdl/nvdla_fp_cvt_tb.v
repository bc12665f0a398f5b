// Test harness (not product RTL): LANES copies of the float width conversions between a narrow format
// (EN/MN) and a wide one (EW/MW) (rtl/fp/nvdla_fp_widen.v, nvdla_fp_narrow.v) on packed vectors
// (tb/test_fp.py). DENORM as both modules take it (1: FP16 on the narrow side; 0: FP17 <-> FP32).
module nvdla_fp_cvt_tb #(
    parameter EN     = 5,
    parameter MN     = 10,
    parameter EW     = 6,
    parameter MW     = 10,
    parameter DENORM = 1,
    parameter LANES  = 16
) (
    input  wire [LANES*(1+EN+MN)-1:0] narrow_in,
    output wire [LANES*(1+EW+MW)-1:0] widened,     // narrow_in converted to the wide format
    input  wire [LANES*(1+EW+MW)-1:0] wide_in,
    output wire [LANES*(1+EN+MN)-1:0] narrowed     // wide_in converted to the narrow format
);
    localparam NN = 1 + EN + MN;
    localparam NW = 1 + EW + MW;

    genvar i;
    generate
        for (i = 0; i < LANES; i = i + 1) begin : g_lane
            nvdla_fp_widen #(.EI(EN), .MI(MN), .EO(EW), .MO(MW), .DENORM(DENORM)) u_widen (
                .x(narrow_in[i*NN +: NN]), .y(widened[i*NW +: NW]));
            nvdla_fp_narrow #(.EI(EW), .MI(MW), .EO(EN), .MO(MN), .DENORM(DENORM)) u_narrow (
                .x(wide_in[i*NW +: NW]), .y(narrowed[i*NN +: NN]));
        end
    endgenerate
endmodule
