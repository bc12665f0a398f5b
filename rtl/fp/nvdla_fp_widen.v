// Combinational: a float converted to a format with at least as many exponent and mantissa bits, bit for bit
// as models/common/nvfloat.py fp16_to_fp17 (EI/MI 5/10 -> 6/10), fp16_to_fp32 (5/10 -> 8/23) and fp17_to_fp32
// (6/10 -> 8/23, DENORM = 0):
//   - every finite value converts exactly (the mantissa gains MO-MI zero bits below);
//   - DENORM = 1: an input subnormal (exponent 0) is normalised; DENORM = 0: exponent 0 with a non-zero
//     mantissa is read with an implied 1, like any other exponent (NVIDIA's "without denormals" widening);
//   - an infinity becomes the output's largest finite value; a NaN keeps its sign and its MI-bit payload in
//     the LOW mantissa bits (not shifted: the narrowing gives it back).
module nvdla_fp_widen #(
    parameter EI = 5,       // input exponent / mantissa bits
    parameter MI = 10,
    parameter EO = 6,       // output exponent / mantissa bits
    parameter MO = 10,
    parameter DENORM = 1    // 1: normalise input subnormals; 0: exponent 0 has an implied 1 too
) (
    input  wire [EI+MI:0] x,
    output wire [EO+MO:0] y
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (EI < 2 || MI < 1 || EO <= EI || MO < MI || EO > 11 || (DENORM != 0 && DENORM != 1)) begin
            $display("ERROR: nvdla_fp_widen %m: EI >= 2, MI >= 1, EI < EO <= 11, MO >= MI, DENORM 0 or 1");
            $finish;
        end
    end

    localparam LW = $clog2(MI + 1);
    localparam [EI-1:0] EMAXI = {EI{1'b1}};
    localparam [EO-1:0] EMAXO = {EO{1'b1}};
    // the bias difference 2^(EO-1) - 2^(EI-1)
    localparam [EO-1:0] DELTA = {1'b0, {(EO-1){1'b1}}} - {{(EO-EI+1){1'b0}}, {(EI-1){1'b1}}};

    wire          s, nan;
    wire [EI-1:0] e;
    wire [MI-1:0] m;
    nvdla_fp_unpack #(.E(EI), .M(MI)) u_x (.x(x), .s(s), .e(e), .m(m), .nan(nan));
    wire          inf  = (e == EMAXI) && (m == {MI{1'b0}});
    wire          zero = (e == {EI{1'b0}}) && (m == {MI{1'b0}});
    wire          sub  = (DENORM == 1) && (e == {EI{1'b0}}) && !zero;

    wire [LW-1:0] lead;                                  // leading zeros of m (MI for 0)
    nvdla_lzc #(.W(MI)) u_lzc (.v(m), .n(lead));
    /* verilator lint_off UNUSEDSIGNAL */
    wire [MI:0]   m_sh  = {m, 1'b0} << lead;             // the leading 1 shifted out of the top
    /* verilator lint_on UNUSEDSIGNAL */
    wire [MI-1:0] m_sub = m_sh[MI-1:0];
    wire [EO-1:0] e_out = sub ? DELTA - {{(EO-LW){1'b0}}, lead}
                        : zero ? {EO{1'b0}}
                        : {{(EO-EI){1'b0}}, e} + DELTA;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [MO+MI-1:0] m_top = {(sub ? m_sub : m), {MO{1'b0}}};   // the mantissa in the top MI of MO bits
    wire [MO+MI-1:0] m_low = {{MO{1'b0}}, m};                    // a NaN's payload in the low bits
    /* verilator lint_on UNUSEDSIGNAL */
    wire [MO-1:0] m_out = m_top[MO+MI-1:MI];

    assign y = nan ? {s, EMAXO, m_low[MO-1:0]}
             : inf ? {s, EMAXO - 1'b1, {MO{1'b1}}}
             : {s, e_out, m_out};

endmodule
