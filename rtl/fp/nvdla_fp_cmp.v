// Combinational: max(a, b) or min(a, b) of two floats, bit for bit as models/common/nvfloat.py maximum/minimum, for
// any sign/E/M format: ordered by sign, then exponent, then mantissa (so +0 beats -0, and an infinity pattern
// is just the largest exponent); a NaN operand wins (a's when both are NaN).
module nvdla_fp_cmp #(
    parameter E = 5,    // exponent bits
    parameter M = 10    // mantissa bits
) (
    input  wire [E+M:0] a,
    input  wire [E+M:0] b,
    input  wire         pick_max,   // 1: max(a, b); 0: min(a, b)
    output wire [E+M:0] y
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (E < 2 || M < 1) begin
            $display("ERROR: nvdla_fp_cmp %m: E >= 2 exponent bits and M >= 1 mantissa bits");
            $finish;
        end
    end

    wire         sa, sb, nan_a, nan_b;
    wire [E-1:0] ea, eb;
    wire [M-1:0] ma, mb;
    nvdla_fp_unpack #(.E(E), .M(M)) u_a (.x(a), .s(sa), .e(ea), .m(ma), .nan(nan_a));
    nvdla_fp_unpack #(.E(E), .M(M)) u_b (.x(b), .s(sb), .e(eb), .m(mb), .nan(nan_b));

    wire abs_a_greater = (ea > eb) || ((ea == eb) && (ma > mb));
    // a positive a beats any negative b and a smaller positive one; a negative a only a larger negative b
    // (equal magnitudes of one sign are the same pattern, whichever is picked)
    wire a_greater = !sa ? (sb || abs_a_greater) : (sb && !abs_a_greater);

    assign y = nan_a ? a : nan_b ? b : (a_greater == pick_max) ? a : b;

endmodule
