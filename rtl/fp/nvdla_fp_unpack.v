// Combinational: a float's sign, exponent and mantissa fields, and whether it is a NaN (exponent all ones,
// mantissa not zero), for any sign/E/M format. The float primitives (nvdla_fp_add_align, nvdla_fp_cmp,
// nvdla_fp_mul, nvdla_fp_widen, nvdla_fp_narrow) unpack their operands with it: one place for the layout and
// for the NaN test; what each does with an infinity or a zero stays with it.
module nvdla_fp_unpack #(
    parameter E = 5,    // exponent bits
    parameter M = 10    // mantissa bits
) (
    input  wire [E+M:0] x,
    output wire         s,
    output wire [E-1:0] e,
    output wire [M-1:0] m,
    output wire         nan
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (E < 2 || M < 1) begin
            $display("ERROR: nvdla_fp_unpack %m: E >= 2 exponent bits and M >= 1 mantissa bits");
            $finish;
        end
    end

    assign s   = x[E+M];
    assign e   = x[M +: E];
    assign m   = x[M-1:0];
    assign nan = (e == {E{1'b1}}) && (m != {M{1'b0}});

endmodule
