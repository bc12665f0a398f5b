// Combinational: a + b in NVIDIA's (non-IEEE) float arithmetic, bit for bit as models/common/nvfloat.py add, for any
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
// Combinational on purpose: the users fold several of these in a chain between their own pipeline registers
// (nvdla_pdp_fp16_lane), and the register placement belongs to their pipeline control (valid/ready there).
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

    localparam N  = 1 + E + M;
    localparam G  = M + 2;              // guard room below the larger operand's significand
    localparam W  = 2 * M + 3;          // the adder's window
    localparam LW = $clog2(W + 1);      // a shift count 0..W
    localparam XW = (E > LW ? E : LW) + 2;
    localparam [E-1:0] EMAX = {E{1'b1}};

    // leading zeros of v in W bits (W for 0)
    function [LW-1:0] lzc;
        input [W-1:0] v;
        integer i;
        reg found;
        begin
            lzc = W[LW-1:0];
            found = 1'b0;
            for (i = W - 1; i >= 0; i = i - 1) begin
                if (!found && v[i]) begin
                    lzc = W[LW-1:0] - 1'b1 - i[LW-1:0];
                    found = 1'b1;
                end
            end
        end
    endfunction

    wire         sa = a[N-1];
    wire         sb = b[N-1];
    wire [E-1:0] ea = a[M +: E];
    wire [E-1:0] eb = b[M +: E];
    wire [M-1:0] ma = a[M-1:0];
    wire [M-1:0] mb = b[M-1:0];
    wire         nan_a = (ea == EMAX) && (ma != {M{1'b0}});
    wire         nan_b = (eb == EMAX) && (mb != {M{1'b0}});
    wire [M:0]   pa = {(ea != {E{1'b0}}) || (ma != {M{1'b0}}), ma};
    wire [M:0]   pb = {(eb != {E{1'b0}}) || (mb != {M{1'b0}}), mb};

    // order by magnitude: the larger keeps its place in the window, the smaller shifts right
    wire         a_big   = (ea > eb) || ((ea == eb) && (ma >= mb));
    wire [E-1:0] e_big   = a_big ? ea : eb;
    wire [E-1:0] d       = a_big ? ea - eb : eb - ea;
    wire         sign    = a_big ? sa : sb;
    wire [W-1:0] w_big   = {(a_big ? pa : pb), {G{1'b0}}};
    wire [W-1:0] w_small = {(a_big ? pb : pa), {G{1'b0}}} >> d;   // d >= W: nothing left

    wire [W:0]   total = (sa == sb) ? {1'b0, w_big} + {1'b0, w_small} : {1'b0, w_big} - {1'b0, w_small};
    wire         cout  = total[W];                                  // one bit right, exponent + 1
    wire [LW-1:0] lead = lzc(total[W-1:0]);
    wire [XW-1:0] x_big  = {{(XW-E){1'b0}}, e_big};
    wire [XW-1:0] x_lead = {{(XW-LW){1'b0}}, lead};
    // below the normals (or exactly 0): flush
    wire         flush = !cout && ((x_big <= x_lead) || (total == {(W+1){1'b0}}));
    wire [W-1:0] norm  = cout ? total[W:1] : (flush ? {W{1'b0}} : total[W-1:0] << lead);
    wire [XW-1:0] ex1  = cout ? x_big + 1'b1 : (flush ? {XW{1'b0}} : x_big - x_lead);

    // one round to nearest even: keep M+1 bits, guard, sticky
    wire [M:0]   kept   = norm[W-1:G];
    wire         guard  = norm[G-1];
    wire         sticky = |norm[G-2:0];
    wire         rnd    = guard && (sticky || kept[0]);
    wire         over   = rnd && (&kept);                          // 1.11..1 rounds up to 2.0
    wire [XW-1:0] top1  = {{(XW-E){1'b0}}, EMAX} - 1'b1;
    wire         inf    = (cout && (x_big >= top1)) || (over && (ex1 >= top1));
    /* verilator lint_off UNUSEDSIGNAL */
    wire [XW-1:0] ex2   = ex1 + {{(XW-1){1'b0}}, over};
    wire [M+1:0] mant   = {1'b0, kept} + {{(M+1){1'b0}}, rnd};
    /* verilator lint_on UNUSEDSIGNAL */

    assign y = nan_a ? a : nan_b ? b
             : inf ? {sign, EMAX - 1'b1, {M{1'b1}}}
             : {sign, ex2[E-1:0], mant[M-1:0]};

endmodule
