// Test harness (not product RTL): LANES independent copies of the float primitives of one format (rtl/fp/)
// on packed operand vectors, so a bench scores many operand pairs per simulation step (tb/test_fp.py).
// Lane i holds bits [i*N, (i+1)*N) of every vector, N = 1 + E + M.
module nvdla_fp_ops_tb #(
    parameter E     = 5,
    parameter M     = 10,
    parameter LANES = 16
) (
    input  wire [LANES*(1+E+M)-1:0] a,
    input  wire [LANES*(1+E+M)-1:0] b,
    output wire [LANES*(1+E+M)-1:0] sum,    // a + b
    output wire [LANES*(1+E+M)-1:0] diff,   // a - b (the adder with b's sign flipped)
    output wire [LANES*(1+E+M)-1:0] prod,   // a * b
    output wire [LANES*(1+E+M)-1:0] max,    // max(a, b)
    output wire [LANES*(1+E+M)-1:0] min     // min(a, b)
);
    localparam N = 1 + E + M;

    genvar i;
    generate
        for (i = 0; i < LANES; i = i + 1) begin : g_lane
            wire [N-1:0] la = a[i*N +: N];
            wire [N-1:0] lb = b[i*N +: N];
            nvdla_fp_add #(.E(E), .M(M)) u_add (.a(la), .b(lb), .y(sum[i*N +: N]));
            nvdla_fp_add #(.E(E), .M(M)) u_sub (.a(la), .b({~lb[N-1], lb[N-2:0]}), .y(diff[i*N +: N]));
            nvdla_fp_mul #(.E(E), .M(M)) u_mul (.a(la), .b(lb), .y(prod[i*N +: N]));
            nvdla_fp_cmp #(.E(E), .M(M)) u_max (.a(la), .b(lb), .pick_max(1'b1), .y(max[i*N +: N]));
            nvdla_fp_cmp #(.E(E), .M(M)) u_min (.a(la), .b(lb), .pick_max(1'b0), .y(min[i*N +: N]));
        end
    endgenerate
endmodule
