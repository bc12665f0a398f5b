// Combinational first half of nvdla_fp_add (NVIDIA's float add, models/nvfloat.py add): the operands ordered
// by magnitude, the smaller aligned by a plain right shift inside the (2M+3)-bit window (no sticky bit), and
// the signed-magnitude sum of the two significands. nvdla_fp_add_norm finishes it (normalise, round,
// saturate); nvdla_fp_add is the two back to back. A pipelined user registers `mid` between them.
// mid = {pass, pass_value[N-1:0], sign, e_big[E-1:0], total[W:0]}, N = 1+E+M, W = 2M+3:
//   pass: an operand is a NaN and comes back as it is (pass_value: a's when both are);
//   sign, e_big: the larger operand's sign and exponent; total: the window's sum (bit W: the carry out).
module nvdla_fp_add_align #(
    parameter E = 5,    // exponent bits
    parameter M = 10    // mantissa bits
) (
    input  wire [E+M:0]           a,
    input  wire [E+M:0]           b,
    output wire [2*E+3*M+6:0]     mid    // 2E+3M+7 bits, see above
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (E < 2 || E > 11 || M < 1 || M > 52) begin
            $display("ERROR: nvdla_fp_add_align %m: E 2..11 exponent bits and M 1..52 mantissa bits");
            $finish;
        end
    end

    localparam G  = M + 2;              // guard room below the larger operand's significand
    localparam W  = 2 * M + 3;          // the adder's window

    wire         sa, sb, nan_a, nan_b;
    wire [E-1:0] ea, eb;
    wire [M-1:0] ma, mb;
    nvdla_fp_unpack #(.E(E), .M(M)) u_a (.x(a), .s(sa), .e(ea), .m(ma), .nan(nan_a));
    nvdla_fp_unpack #(.E(E), .M(M)) u_b (.x(b), .s(sb), .e(eb), .m(mb), .nan(nan_b));
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

    assign mid = {nan_a || nan_b, nan_a ? a : b, sign, e_big, total};

endmodule
