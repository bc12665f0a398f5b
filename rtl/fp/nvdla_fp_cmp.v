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

    localparam N = 1 + E + M;
    localparam [E-1:0] EMAX = {E{1'b1}};

    wire         sa = a[N-1];
    wire         sb = b[N-1];
    wire [E-1:0] ea = a[M +: E];
    wire [E-1:0] eb = b[M +: E];
    wire [M-1:0] ma = a[M-1:0];
    wire [M-1:0] mb = b[M-1:0];
    wire         nan_a = (ea == EMAX) && (ma != {M{1'b0}});
    wire         nan_b = (eb == EMAX) && (mb != {M{1'b0}});

    wire abs_a_greater = (ea > eb) || ((ea == eb) && (ma > mb));
    // a positive a beats any negative b and a smaller positive one; a negative a only a larger negative b
    // (equal magnitudes of one sign are the same pattern, whichever is picked)
    wire a_greater = !sa ? (sb || abs_a_greater) : (sb && !abs_a_greater);

    assign y = nan_a ? a : nan_b ? b : (a_greater == pick_max) ? a : b;

endmodule
