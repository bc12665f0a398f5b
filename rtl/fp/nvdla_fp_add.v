// Combinational: a + b in NVIDIA's (non-IEEE) float arithmetic, bit for bit as models/nvfloat.py add, for any
// sign/E/M format (FP16 5/10, FP17 6/10, FP32 8/23). Subtraction is this adder with b's sign bit flipped.
//   - an operand is {sign, E-bit exponent, M-bit mantissa}; a non-zero one has an implied 1 even on exponent 0
//     (a subnormal is read as 1.mant x 2^(1-bias-1)); only a true zero has none;
//   - the smaller-magnitude operand is aligned by a plain right shift inside a (2M+3)-bit window: bits shifted
//     past it are lost (no sticky bit); then one round to nearest even on the normalised sum;
//   - a result below the smallest normal (and an exact cancellation) is zero with the sign of the larger
//     operand (a's when the magnitudes are equal: (-x) + x = -0);
//   - overflow saturates to the largest finite value (exponent all ones minus one, mantissa all ones); an
//     infinity operand is a number with the top exponent;
//   - a NaN operand comes back as it is (a's when both are NaN).
// Combinational: nvdla_fp_add_align (order, align, add) then nvdla_fp_add_norm (normalise, round, saturate).
// A user with a deep path registers between the two halves (their `mid`) under its own pipeline control.
module nvdla_fp_add #(
    parameter E = 5,    // exponent bits
    parameter M = 10    // mantissa bits
) (
    input  wire [E+M:0] a,
    input  wire [E+M:0] b,
    output wire [E+M:0] y    // a + b
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (E < 2 || E > 11 || M < 1 || M > 52) begin
            $display("ERROR: nvdla_fp_add %m: E 2..11 exponent bits and M 1..52 mantissa bits");
            $finish;
        end
    end

    localparam MID = 2 * E + 3 * M + 7;   // nvdla_fp_add_align's output

    wire [MID-1:0] mid;
    nvdla_fp_add_align #(.E(E), .M(M)) u_align (.a(a), .b(b), .mid(mid));
    nvdla_fp_add_norm  #(.E(E), .M(M)) u_norm  (.mid(mid), .y(y));

endmodule
