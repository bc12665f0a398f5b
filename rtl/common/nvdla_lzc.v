// Combinational leading-zero count: n = how many zeros stand above the highest 1 of v (W when v is 0).
// The float normalisations share it: nvdla_fp_add_norm (the sum's window), nvdla_fp_widen (a subnormal's
// mantissa).
module nvdla_lzc #(
    parameter W = 8     // input bits
) (
    input  wire [W-1:0]            v,
    output reg  [$clog2(W+1)-1:0]  n
);
    localparam NW = $clog2(W + 1);   // a count 0..W

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (W < 1) begin
            $display("ERROR: nvdla_lzc %m: W >= 1");
            $finish;
        end
    end

    integer i;
    reg     found;
    always @(*) begin
        n = W[NW-1:0];
        found = 1'b0;
        for (i = W - 1; i >= 0; i = i - 1) begin
            if (!found && v[i]) begin
                n = W[NW-1:0] - 1'b1 - i[NW-1:0];
                found = 1'b1;
            end
        end
    end

endmodule
