// One lane of PDP's output scaling (nvdla_pdp_scale): rnd(rnd(sum * recip_w >> 16) * recip_h >> 16) for
// average pooling, or the max/min result as it is, over two pipeline stages (en[0] takes `sum` and
// multiplies by recip_w, en[1] rounds and multiplies by recip_h; `res` is combinational from the second
// stage's registers: the parent registers it). WIDE = 0: an INT8 lane (14-bit sum, 11-bit then 8-bit
// results); WIDE = 1: an INT16 lane (22-bit sum, 19 then 16 bits) that computes an INT8 layer's widths with
// !i16 (its sum then the 14-bit one sign-extended).
//
// The multipliers are as wide as NVIDIA's (NV_NVDLA_PDP_CORE_cal2d.v: the 14 or 22-bit signed sum x the
// 17-bit unsigned reciprocal, then the 11 or 19-bit result x 17 bits), and only the product bits the rounding
// reads are built: the 16 fraction bits and the kept integer bits. The product's sign is the operand's (the
// reciprocal is unsigned); a product of 0 with a negative operand (reciprocal 0) rounds to 0 on either
// branch of nvdla_pdp_round, so the sign may be taken from the operand. Why (scripts/synth_hier.py): Yosys's
// ABC script spent 73 CPU-s on one full 16 x 17-bit signed product (this stage's former width) and 1.3 s on
// a full 14 x 17-bit one, and the former nvdla_pdp_scale held ATOM lanes in one ABC run.
module nvdla_pdp_scale_lane #(
    parameter WIDE = 0                      // 1: an INT16 lane (also computing INT8 layers)
) (
    input  wire          clk,
    input  wire [1:0]    en,        // stage enables (the core's pipeline control)
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire          i16,       // INT16 layer (read by a wide lane only)
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire          m_ave,     // average pooling: scale; else pass the max/min through
    input  wire [16:0]   recip_w,   // D_RECIP_KERNEL_WIDTH
    input  wire [16:0]   recip_h,   // D_RECIP_KERNEL_HEIGHT
    input  wire [(WIDE ? 22 : 14)-1:0] sum,  // the window's sum, signed (a wide lane's INT8 sum extended)
    output wire [(WIDE ? 16 : 8)-1:0]  res   // the stored element (max/min: the sum's low bits as they are)
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (WIDE != 0 && WIDE != 1) begin
            $display("ERROR: nvdla_pdp_scale_lane %m: WIDE 0 or 1");
            $finish;
        end
    end
    localparam SW   = WIDE ? 22 : 14;   // sum width (NVIDIA's wrap)
    localparam TW   = WIDE ? 16 : 8;    // stored element width = the second stage's
    localparam R1_W = TW + 3;           // the first stage's result (INT8 11, INT16 19 bits)
    localparam Q1_W = R1_W + 16;        // product bits read by the first rounding
    localparam Q2_W = TW + 16;          // and by the second

    reg  [Q1_W-1:0] s1_p;               // low bits of sum * recip_w
    reg  [Q2_W-1:0] s2_p;               // low bits of r1 * recip_h
    reg             s1_neg, s2_neg;     // the products' signs
    reg  [TW-1:0]   s1_t, s2_t;         // the max/min element
    wire signed [R1_W-1:0] r1;
    wire signed [TW-1:0]   r2;
    // a wide lane of an INT8 layer keeps the INT8 widths (lo)
    nvdla_pdp_round #(.IN_W(Q1_W + 1), .OUT_W(R1_W), .LO_W(11)) u_r1 (.x({s1_neg, s1_p}), .lo(!i16), .y(r1));
    nvdla_pdp_round #(.IN_W(Q2_W + 1), .OUT_W(TW), .LO_W(8)) u_r2 (.x({s2_neg, s2_p}), .lo(!i16), .y(r2));
    // the low Q bits of the signed x unsigned products (Verilog extends both signed operands to Q bits)
    wire [Q1_W-1:0] p1 = $signed(sum) * $signed({1'b0, recip_w});
    wire [Q2_W-1:0] p2 = r1 * $signed({1'b0, recip_h});
    always @(posedge clk) begin
        if (en[0]) begin
            s1_p   <= p1;
            s1_neg <= sum[SW-1];
            s1_t   <= sum[TW-1:0];
        end
        if (en[1]) begin
            s2_p   <= p2;
            s2_neg <= r1[R1_W-1];
            s2_t   <= s1_t;
        end
    end
    assign res = m_ave ? r2 : s2_t;

endmodule
