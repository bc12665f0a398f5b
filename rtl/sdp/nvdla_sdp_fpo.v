// Combinational: one lane of the SDP output at FP16 processing, as models/sdp/fp16.py sdp_fp16's end:
//   FP32 -> FP16 (nvdla_fp_narrow: round to nearest even, saturate to +-65504, subnormals kept, below them
//   0; a NaN keeps the low 10 bits of its payload), then, with out_int, FP16 -> INT16 (fp16_to_int16: the
//   11-bit significand with its implied 1 even on exponent 0, rounded half away from zero, saturated to
//   INT16; a NaN is -32768). The output convertor's registers are not used.
// i17 -> hi: the INT processing's FP16 output (models/common/nvfloat.py int_to_fp16 of the output convertor's 17-bit
// result): the integer is exact as FP32, and nvdla_fp_narrow's one round to nearest even and saturation
// (magnitudes from 65520 up give +-65504) are int_to_fp16's.
// Flags (FP16 output only, 0 with out_int): nan, the FP16 result is a NaN (D_STATUS_NAN_OUTPUT_NUM); sat,
// its magnitude is 65504 (D_PERF_OUT_SATURATION).
// Combinational on purpose: nvdla_sdp_ocvt registers it in its own stall pipeline.
module nvdla_sdp_fpo (
    input  wire [31:0] x,        // FP32 bits
    input  wire        out_int,  // OUT_PRECISION INT16
    output wire [15:0] y,        // FP16 bits, or the INT16 value
    output wire        nan,
    output wire        sat,
    input  wire [16:0] i17,      // signed
    output wire [15:0] hi
);

    // a signed 17-bit integer as FP32 (exact)
    function [31:0] int_to_fp32(input [16:0] v);
        reg [16:0] m;
        /* verilator lint_off UNUSEDSIGNAL */
        reg [23:0] n;                            // the leading one (bit 23) is implied
        /* verilator lint_on UNUSEDSIGNAL */
        integer i, lead;
        begin
            m = v[16] ? 17'd0 - v : v;           // -65536 gives 65536 (bit 16)
            lead = -1;
            for (i = 0; i < 17; i = i + 1) if (m[i]) lead = i;
            n = {7'd0, m} << (23 - lead);        // the leading one at bit 23
            int_to_fp32 = (lead < 0) ? 32'd0 : {v[16], 8'd127 + lead[7:0], n[22:0]};
        end
    endfunction
    nvdla_fp_narrow #(.EI(8), .MI(23), .EO(5), .MO(10), .DENORM(1)) u_int (.x(int_to_fp32(i17)), .y(hi));

    wire [15:0] h;
    nvdla_fp_narrow #(.EI(8), .MI(23), .EO(5), .MO(10), .DENORM(1)) u_narrow (.x(x), .y(h));

    wire        hs     = h[15];
    wire [4:0]  he     = h[14:10];
    wire        h_nan  = (he == 5'h1F) && (h[9:0] != 10'd0);
    wire [10:0] full   = {1'b1, h[9:0]};
    // exponent 25 and up: a left shift by e - 25 (0..6); below: a right shift by 25 - e (1..25), rounded
    // half away from zero on the magnitude
    /* verilator lint_off UNUSEDSIGNAL */
    wire [4:0]  lsh    = he - 5'd25;            // 0..6 where used
    /* verilator lint_on UNUSEDSIGNAL */
    wire [4:0]  rsh    = 5'd25 - he;
    wire [17:0] big    = {7'd0, full} << lsh[2:0];
    wire [36:0] addend = {26'd0, full} + ({37'd1} << (rsh - 5'd1));
    /* verilator lint_off UNUSEDSIGNAL */
    wire [36:0] rmag  = addend >> rsh;
    /* verilator lint_on UNUSEDSIGNAL */
    wire [17:0] mag    = (he >= 5'd25) ? big : rmag[17:0];
    wire [15:0] i16    = h_nan ? 16'h8000
                       : (mag > 18'h07FFF) ? (hs ? 16'h8000 : 16'h7FFF)
                       : (hs ? 16'd0 - mag[15:0] : mag[15:0]);

    assign y   = out_int ? i16 : h;
    assign nan = ~out_int & h_nan;
    assign sat = ~out_int & (h[14:0] == 15'h7BFF);
endmodule
