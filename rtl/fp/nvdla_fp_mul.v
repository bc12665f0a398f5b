// Combinational: a * b in NVIDIA's (non-IEEE) float arithmetic, bit for bit as models/common/nvfloat.py mul, for any
// sign/E/M format (FP16 5/10, FP17 6/10, FP32 8/23):
//   - a non-zero operand has an implied 1 even on exponent 0; a true zero (exponent and mantissa 0) makes 0;
//   - the exact (2M+2)-bit product of the significands, normalised, one round to nearest even;
//   - a biased exponent sum below the bias, or a result exponent of 0, flushes to zero (sign kept); a
//     rounding up from exponent 0 reaches the smallest normal;
//   - overflow (an infinity operand counts as a number with the top exponent) saturates to the largest finite
//     value; a NaN operand comes back as it is (a's when both are NaN).
// Combinational on purpose: the users place it between their own pipeline registers (nvdla_pdp_fp16_lane).
module nvdla_fp_mul #(
    parameter E = 5,    // exponent bits
    parameter M = 10    // mantissa bits
) (
    input  wire [E+M:0] a,
    input  wire [E+M:0] b,
    output wire [E+M:0] y    // a * b
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (E < 2 || E > 11 || M < 1 || M > 52) begin
            $display("ERROR: nvdla_fp_mul %m: E 2..11 exponent bits and M 1..52 mantissa bits");
            $finish;
        end
    end

    localparam P = 2 * M + 2;                              // product bits
    localparam [E-1:0] EMAX = {E{1'b1}};
    localparam [E:0]   BIAS = {2'b00, {(E-1){1'b1}}};      // 2^(E-1) - 1
    localparam [E:0]   EMAX1 = {1'b0, EMAX};

    wire         sa, sb, nan_a, nan_b;
    wire [E-1:0] ea, eb;
    wire [M-1:0] ma, mb;
    nvdla_fp_unpack #(.E(E), .M(M)) u_a (.x(a), .s(sa), .e(ea), .m(ma), .nan(nan_a));
    nvdla_fp_unpack #(.E(E), .M(M)) u_b (.x(b), .s(sb), .e(eb), .m(mb), .nan(nan_b));
    wire         za = (ea == {E{1'b0}}) && (ma == {M{1'b0}});
    wire         zb = (eb == {E{1'b0}}) && (mb == {M{1'b0}});

    wire [P-1:0] prod = {{(M+1){1'b0}}, !za, ma} * {{(M+1){1'b0}}, !zb, mb};
    wire         sign = sa ^ sb;
    wire [E:0]   esum = {1'b0, ea} + {1'b0, eb};
    wire         zero0 = za || zb || (esum < BIAS);
    wire         inf0  = !zero0 && ({1'b0, esum} >= {1'b0, EMAX1} + {1'b0, BIAS});
    wire [E:0]   ex0   = esum - BIAS;                      // read only when not zero0
    wire         top   = prod[P-1];                        // product in [2, 4): one bit right
    wire         inf1  = inf0 || (!zero0 && top && (ex0 >= EMAX1 - 1'b1));
    wire [E:0]   ex1   = ex0 + {{E{1'b0}}, top};
    wire [P-2:0] frac  = top ? prod[P-2:0] : {prod[P-3:0], 1'b0};   // below the leading 1

    // one round to nearest even: keep the leading 1 and M bits, guard, sticky
    wire [M:0]   kept   = {1'b1, frac[P-2:M+1]};
    wire         guard  = frac[M];
    wire         sticky = |frac[M-1:0];
    wire         rnd    = guard && (sticky || kept[0]);
    wire         over   = rnd && (&kept);
    /* verilator lint_off UNUSEDSIGNAL */
    wire [E:0]   ex2w   = ex1 + {{E{1'b0}}, over};
    wire [M+1:0] mant   = {1'b0, kept} + {{(M+1){1'b0}}, rnd};
    /* verilator lint_on UNUSEDSIGNAL */
    wire [E-1:0] ex2    = ex2w[E-1:0];                     // the exponent field wraps (the model's & emax)
    wire         inf    = inf1 || (!zero0 && over && (ex2 == EMAX));
    wire         zero   = zero0 || (!inf && (ex2 == {E{1'b0}}));

    assign y = nan_a ? a : nan_b ? b
             : inf ? {sign, EMAX - 1'b1, {M{1'b1}}}
             : zero ? {sign, {(E+M){1'b0}}}
             : {sign, ex2, mant[M-1:0]};

endmodule
