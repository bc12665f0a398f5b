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

    // a binary search, NW halving steps, over v padded below with ones to P bits (the first pad bit stops a
    // zero v at W): the same count as a W-bit priority encoder, in log depth, and a few instructions in a
    // simulator instead of W tests
    localparam P = 1 << NW;          // W + 1 <= P
    reg [P-1:0] x;
    integer     s, cnt;
    always @(*) begin
        x = {v, {(P-W){1'b1}}};
        cnt = 0;
        for (s = NW - 1; s >= 0; s = s - 1) begin
            if ((x >> (P - (1 << s))) == {P{1'b0}}) begin
                cnt = cnt + (1 << s);
                x = x << (1 << s);
            end
        end
        n = cnt[NW-1:0];
    end

endmodule
