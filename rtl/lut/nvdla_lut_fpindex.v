// Index generation of one LUT table at FP16 (combinational leaf between its parent's pipeline registers), bit
// for bit as models/lut/fp16.py _linear / _exponent (NVIDIA's nv_full LUT: START/END FP32, the index formed
// from d = x - START, an FP32 difference of NVIDIA's float adder, nvdla_fp_add).
//   underflow: d NaN, +0, or its sign bit set (-0 and every negative);
//   linear:    index = floor(d / 2^sel), the FRAC_W fraction bits below it, both exact (d = 1.mant x 2^(e-127):
//              d / 2^sel = mant24 >> (150 - e + sel)); a right shift <= 0 leaves an index >= 2^23;
//   exponential (EXP = 1, exp_mode): index = (e - 127) - offset, < 0 underflows; the fraction is d's mantissa
//              (its top FRAC_W bits, or all 23 followed by zeros);
//   overflow:  index >= DEPTH - 1.
// index and frac are 0 unless the table hits. An exponent of 255 with mantissa 0 (the pattern of an infinity)
// is read as a number, as the model does.
module nvdla_lut_fpindex #(
    parameter FRAC_W = 16,   // fraction bits: 16 CDP, 35 SDP
    parameter IDX_W  = 9,    // index bits
    parameter DEPTH  = 65,   // the table's entries (65 LE, 257 LO)
    parameter EXP    = 1     // 1: the table can run in exponential mode (LE); 0: linear only (LO)
) (
    input  wire [31:0]       d,          // x - START, FP32 bits
    input  wire              exp_mode,   // ignored when EXP == 0
    input  wire [7:0]        sel,        // INDEX_SELECT, signed
    input  wire [7:0]        offset,     // LE_INDEX_OFFSET, signed (exponential mode only)
    output reg               uflow,      // the table underflows
    output reg               oflow,      // the table overflows
    output reg  [IDX_W-1:0]  index,      // the entry below x (hit only, else 0)
    output reg  [FRAC_W-1:0] frac        // x's place between it and the next, MSB one half (hit only)
);
    localparam LAST = DEPTH - 1;          // an index at or past the last entry overflows
    localparam SH_W = 24 + FRAC_W;        // {mant24, FRAC_W zeros}: the fraction is what a right shift leaves

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (FRAC_W < 1 || FRAC_W > 39 || IDX_W < 1 || IDX_W > 10 || DEPTH < 2 || DEPTH > (1 << IDX_W)) begin
            $display("ERROR: nvdla_lut_fpindex %m: 1 <= FRAC_W <= 39 (the shifted significand in 63 bits), ",
                     "1 <= IDX_W <= 10, 2 <= DEPTH <= 2**IDX_W");
            $finish;
        end
    end

    wire [7:0]  e    = d[30:23];
    wire [22:0] m    = d[22:0];
    wire        nan  = (e == 8'hFF) && (m != 23'd0);
    wire        under = nan || (d == 32'd0) || d[31];
    wire [23:0] mant = {1'b1, m};

    // linear: the right shift 150 - e + sel (-233 .. 277), as an 11-bit signed number
    wire signed [10:0] right = 11'sd150 - $signed({3'b000, e}) + $signed({{3{sel[7]}}, sel});
    // shifts of 63 and more leave nothing of SH_W (<= 63) bits
    wire        [5:0]  rsh   = (right > 11'sd63) ? 6'd63 : right[5:0];
    /* verilator lint_off UNUSEDSIGNAL */
    wire [SH_W-1:0] shifted = {mant, {FRAC_W{1'b0}}} >> rsh;   // index bits above, fraction bits below
    /* verilator lint_on UNUSEDSIGNAL */
    wire [23:0] l_index = shifted[SH_W-1:FRAC_W];
    wire [FRAC_W-1:0] l_frac = shifted[FRAC_W-1:0];

    // exponential: (e - 127) - offset, -382 .. 382
    wire signed [10:0] x_index = $signed({3'b000, e}) - 11'sd127 - $signed({{3{offset[7]}}, offset});
    wire [FRAC_W-1:0] x_frac;
    generate
        if (FRAC_W <= 23) begin : g_top
            assign x_frac = m[22 -: FRAC_W];
        end else begin : g_pad
            assign x_frac = {m, {(FRAC_W-23){1'b0}}};
        end
    endgenerate

    always @(*) begin
        uflow = 1'b0;
        oflow = 1'b0;
        index = {IDX_W{1'b0}};
        frac  = {FRAC_W{1'b0}};
        if (under) begin
            uflow = 1'b1;
        end else if ((EXP != 0) && exp_mode) begin
            if (x_index < 0) begin
                uflow = 1'b1;
            end else if (x_index >= LAST) begin
                oflow = 1'b1;
            end else begin
                index = x_index[IDX_W-1:0];
                frac  = x_frac;
            end
        end else if ((right <= 0) || (l_index >= LAST)) begin
            oflow = 1'b1;
        end else begin
            index = l_index[IDX_W-1:0];
            frac  = l_frac;
        end
    end
endmodule
