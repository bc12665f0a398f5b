// Combinational: one reciprocal stage of PDP average pooling, y = x / 2^16 rounded into a fixed width the
// way NVIDIA's hardware keeps it (nvdlav1 and nv_small NV_NVDLA_PDP_CORE_cal2d.v; models/pdp/model.py
// scale_round): a negative x rounds half away from zero and keeps its low W bits; a non-negative x keeps only
// W-1 bits of its integer part before the rounding bit is added, so its result can carry into the sign bit.
// W is OUT_W, or LO_W with `lo` (a lane that also computes the narrower precision); y is signed, the LO_W
// result sign-extended. A leaf function block meant to sit between pipeline registers of its parent.
module nvdla_pdp_round #(
    parameter IN_W  = 34,   // x: a signed product with 16 fraction bits
    parameter OUT_W = 11,
    parameter LO_W  = 11    // <= OUT_W; equal when the lane has one precision
) (
    input  wire signed [IN_W-1:0]  x,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire                    lo,     // unread when LO_W == OUT_W
    /* verilator lint_on UNUSEDSIGNAL */
    output wire signed [OUT_W-1:0] y
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (OUT_W < 2 || LO_W < 2 || LO_W > OUT_W || IN_W < OUT_W + 16) begin
            $display("ERROR: nvdla_pdp_round %m: 2 <= LO_W <= OUT_W and IN_W >= OUT_W + 16 ",
                     "(the integer part holds OUT_W bits)");
            $finish;
        end
    end

    wire        neg  = x[IN_W-1];
    wire [15:0] frac = x[15:0];
    wire        up   = frac > 16'h8000;    // more than a half: a negative value rounds up (towards zero)
    /* verilator lint_off UNUSEDSIGNAL */
    wire [IN_W-17:0] fl = x[IN_W-1:16];    // the integer part (floor); only its low OUT_W bits are kept
    /* verilator lint_on UNUSEDSIGNAL */

    wire [OUT_W-1:0] hi_neg = fl[OUT_W-1:0] + {{(OUT_W-1){1'b0}}, up};
    wire [OUT_W-1:0] hi_pos = {1'b0, fl[OUT_W-2:0]} + {{(OUT_W-1){1'b0}}, frac[15]};

    generate
        if (LO_W == OUT_W) begin : g_one
            assign y = neg ? hi_neg : hi_pos;
        end else begin : g_two
            wire [LO_W-1:0] lo_neg = fl[LO_W-1:0] + {{(LO_W-1){1'b0}}, up};
            wire [LO_W-1:0] lo_pos = {1'b0, fl[LO_W-2:0]} + {{(LO_W-1){1'b0}}, frac[15]};
            wire [LO_W-1:0] lo_y   = neg ? lo_neg : lo_pos;
            assign y = lo ? {{(OUT_W-LO_W){lo_y[LO_W-1]}}, lo_y} : (neg ? hi_neg : hi_pos);
        end
    endgenerate
endmodule
