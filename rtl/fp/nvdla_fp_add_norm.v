// Combinational second half of nvdla_fp_add (NVIDIA's float add, models/nvfloat.py add): from
// nvdla_fp_add_align's `mid` (see there), the sum normalised, rounded once to nearest even and saturated:
//   - a result below the smallest normal (and an exact cancellation) is zero with the larger operand's sign;
//   - overflow saturates to the largest finite value (exponent all ones minus one, mantissa all ones);
//   - a NaN operand (pass) comes back as it is.
module nvdla_fp_add_norm #(
    parameter E = 5,    // exponent bits
    parameter M = 10    // mantissa bits
) (
    input  wire [2*E+3*M+6:0] mid,   // nvdla_fp_add_align's output
    output wire [E+M:0]       y      // a + b
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (E < 2 || E > 11 || M < 1 || M > 52) begin
            $display("ERROR: nvdla_fp_add_norm %m: E 2..11 exponent bits and M 1..52 mantissa bits");
            $finish;
        end
    end

    localparam N  = 1 + E + M;
    localparam G  = M + 2;              // guard room below the larger operand's significand
    localparam W  = 2 * M + 3;          // the adder's window
    localparam LW = $clog2(W + 1);      // a shift count 0..W
    localparam XW = (E > LW ? E : LW) + 2;
    localparam [E-1:0] EMAX = {E{1'b1}};

    wire         pass  = mid[W+E+N+2];
    wire [N-1:0] pval  = mid[W+E+2 +: N];
    wire         sign  = mid[W+E+1];
    wire [E-1:0] e_big = mid[W+1 +: E];
    wire [W:0]   total = mid[W:0];

    wire         cout  = total[W];                                  // one bit right, exponent + 1
    wire [LW-1:0] lead;                                             // leading zeros below the carry
    nvdla_lzc #(.W(W)) u_lzc (.v(total[W-1:0]), .n(lead));
    wire [XW-1:0] x_big  = {{(XW-E){1'b0}}, e_big};
    wire [XW-1:0] x_lead = {{(XW-LW){1'b0}}, lead};
    // below the normals (or exactly 0): flush to a zero with the sign (decided beside the normalisation,
    // applied at the output: the unflushed figures below are not used then)
    wire         flush = !cout && ((x_big <= x_lead) || (total == {(W+1){1'b0}}));
    wire [W-1:0] norm  = cout ? total[W:1] : total[W-1:0] << lead;
    wire [XW-1:0] ex1  = cout ? x_big + 1'b1 : x_big - x_lead;

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

    assign y = pass ? pval
             : flush ? {sign, {(E+M){1'b0}}}
             : inf ? {sign, EMAX - 1'b1, {M{1'b1}}}
             : {sign, ex2[E-1:0], mant[M-1:0]};

endmodule
