// The LUT's interpolation at FP16, bit for bit as models/lut/fp16.py _output (NVIDIA's nv_full LUT on its HLS
// float units, here rtl/fp/): FP16 entries y0 = T[i], y1 = T[i+1] and slopes widened to FP17, the result FP17.
//   hit, SDP (SDP = 1):  a0 * y0 + a1 * y1 with a1 = fp17(frac / 2^35), a0 = fp17(1 - frac / 2^35) (1.0 when
//                        frac is 0), two FP17 products and one FP17 add (sdp_y_inp);
//   hit, CDP (SDP = 0):  fp17(fp32(y1) - fp32(y0)) * fp17(frac / 2^16) + y0 (the difference an FP32
//                        subtraction, the product and the sum FP17; NV_NVDLA_CDP_DP_INTP_unit);
//   flow (both):         fp17(x - P) * fp17(SCALE) added to y0 (SDP: y0 first; CDP: y0 second), P the anchor
//                        the lane chose (START, END, or an exponential LE table's START + 2^offset), y0 the
//                        first or last entry; SLOPE_*_SHIFT is not used at FP16.
// A fraction becomes FP17 as FpFractionToFloat does (nvfloat.fraction_to_fp17): 11 significant bits rounded
// to nearest even, 0 below 2^-30. Output: FP17 (Y_W = 17) or, SDP, widened to FP32 (Y_W = 32) as SDP's Y
// block does (nvfloat.fp17_to_fp32, exponent 0 read with an implied 1).
// A two-stage segment of the lane's stall pipeline: en[0] loads S3 (the operands: x - P, slope, fractions),
// en[1] loads S4 (the products); y (S4 -> S5) is combinational: the lane registers it in S5. y0/y1 are the
// lane's S3 registers of the table entries, read here between S3 and S4.
module nvdla_lut_fpinterp #(
    parameter SDP    = 1,                          // 1: SDP's interpolation, 0: CDP's
    parameter FRAC_W = (SDP != 0) ? 35 : 16,       // fraction bits
    parameter Y_W    = (SDP != 0) ? 32 : 17        // y: FP32 (SDP) or FP17 (CDP) bits
) (
    input  wire              clk,
    input  wire [1:0]        en,       // S3, S4 loads
    // S2 registers of the lane
    input  wire [31:0]       x,        // the sample, FP32 bits
    input  wire [31:0]       anchor,   // P, FP32 bits (flow only)
    input  wire              flow,     // the chosen table under- or overflows
    input  wire [FRAC_W-1:0] frac,     // the chosen table's fraction (hit only)
    input  wire [15:0]       scale,    // the flow's SLOPE_*_SCALE, FP16 bits
    // S3 registers of the lane: the entries
    input  wire [15:0]       y0,
    input  wire [15:0]       y1,
    output wire [Y_W-1:0]    y         // combinational, S4 -> S5
);
    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if ((SDP != 0 && SDP != 1) || FRAC_W < 12 || FRAC_W > 63 || Y_W != ((SDP != 0) ? 32 : 17)) begin
            $display("ERROR: nvdla_lut_fpinterp %m: SDP 0 or 1, 12 <= FRAC_W <= 63, Y_W 32 (SDP) or 17 (CDP)");
            $finish;
        end
    end
    localparam [16:0] FP17_ONE = 17'h07C00;

    // frac / 2^FRAC_W as FP17 (FpFractionToFloat<FRAC_W, 6, 10>)
    function [16:0] frac17(input [FRAC_W-1:0] v);
        reg [7:0]        zeros;      // leading zeros (FRAC_W for 0)
        reg              found;
        reg [FRAC_W-1:0] below;      // the bits below the leading one, top-aligned
        /* verilator lint_off UNUSEDSIGNAL */
        reg [11:0]       total;      // 1.mant rounded, with its carry (bit 10 the leading one)
        reg [7:0]        expo;       // 30 - zeros + carry: its low 6 bits
        /* verilator lint_on UNUSEDSIGNAL */
        reg              rnd, zero;
        integer i;
        begin
            zeros = FRAC_W[7:0];
            found = 1'b0;
            for (i = FRAC_W - 1; i >= 0; i = i - 1) begin
                if (!found && v[i]) begin
                    zeros = FRAC_W[7:0] - 8'd1 - i[7:0];
                    found = 1'b1;
                end
            end
            below = (v << zeros) << 1;
            // round to nearest even: guard below[FRAC_W-11], sticky the bits under it
            rnd   = below[FRAC_W-11] && ((|(below << 11)) || below[FRAC_W-10]);
            total = {2'b01, below[FRAC_W-1 -: 10]} + {11'd0, rnd};
            expo  = 8'd30 - zeros + {7'd0, total[11]};
            // 0, and what lies below 2^-30 without rounding up to it, is +0 (a carry needs 12 bits: zeros < 30)
            zero  = !found || (!total[11] && (zeros >= 8'd30));
            frac17 = zero ? 17'd0 : {1'b0, expo[5:0], total[11] ? 10'd0 : total[9:0]};
        end
    endfunction

    // ---------------------------------------------------------------- S2 -> S3: operands
    wire [31:0] d;
    wire [16:0] d17, slope17;
    nvdla_fp_add #(.E(8), .M(23)) u_sub (.a(x), .b({~anchor[31], anchor[30:0]}), .y(d));
    nvdla_fp_narrow #(.EI(8), .MI(23), .EO(6), .MO(10), .DENORM(0)) u_d17 (.x(d), .y(d17));
    nvdla_fp_widen #(.EI(5), .MI(10), .EO(6), .MO(10), .DENORM(1)) u_slope (.x(scale), .y(slope17));

    reg        s3_flow;
    reg [16:0] s3_a, s3_slope, s3_f1, s3_f0;
    always @(posedge clk) begin
        if (en[0]) begin
            s3_flow  <= flow;
            s3_a     <= d17;
            s3_slope <= slope17;
            s3_f1    <= frac17(frac);
            // SDP's weight of y0: 1 - frac (1.0 when frac is 0, where 2^FRAC_W - 0 wraps to 0)
            s3_f0    <= (frac == {FRAC_W{1'b0}}) ? FP17_ONE : frac17({FRAC_W{1'b0}} - frac);
        end
    end

    // ---------------------------------------------------------------- S3 -> S4: products
    wire [16:0] y0_17, y1_17, p1, p0;
    wire [16:0] ma, mb;
    nvdla_fp_widen #(.EI(5), .MI(10), .EO(6), .MO(10), .DENORM(1)) u_y0 (.x(y0), .y(y0_17));
    nvdla_fp_widen #(.EI(5), .MI(10), .EO(6), .MO(10), .DENORM(1)) u_y1 (.x(y1), .y(y1_17));
    generate
        if (SDP != 0) begin : g_sdp
            // hit: a1 * y1 and a0 * y0; flow: (x - P) * slope, y0 as it is
            assign ma = s3_flow ? s3_a : s3_f1;
            assign mb = s3_flow ? s3_slope : y1_17;
            nvdla_fp_mul #(.E(6), .M(10)) u_m0 (.a(s3_f0), .b(y0_17), .y(p0));
            /* verilator lint_off UNUSEDSIGNAL */
            wire [15:0] unused_y1 = y1;
            /* verilator lint_on UNUSEDSIGNAL */
        end else begin : g_cdp
            // hit: fp17(fp32(y1) - fp32(y0)) * frac; flow: (x - P) * slope
            wire [31:0] y0_32, y1_32, dy;
            wire [16:0] dy17;
            nvdla_fp_widen #(.EI(5), .MI(10), .EO(8), .MO(23), .DENORM(1)) u_w0 (.x(y0), .y(y0_32));
            nvdla_fp_widen #(.EI(5), .MI(10), .EO(8), .MO(23), .DENORM(1)) u_w1 (.x(y1), .y(y1_32));
            nvdla_fp_add #(.E(8), .M(23)) u_dy (.a(y1_32), .b({~y0_32[31], y0_32[30:0]}), .y(dy));
            nvdla_fp_narrow #(.EI(8), .MI(23), .EO(6), .MO(10), .DENORM(0)) u_dy17 (.x(dy), .y(dy17));
            assign ma = s3_flow ? s3_a : dy17;
            assign mb = s3_flow ? s3_slope : s3_f1;
            assign p0 = y0_17;
            /* verilator lint_off UNUSEDSIGNAL */
            wire [16:0] unused_f0 = s3_f0;
            wire [16:0] unused_y1_17 = y1_17;
            /* verilator lint_on UNUSEDSIGNAL */
        end
    endgenerate
    nvdla_fp_mul #(.E(6), .M(10)) u_m1 (.a(ma), .b(mb), .y(p1));

    reg [16:0] s4_p0, s4_p1;
    always @(posedge clk) begin
        if (en[1]) begin
            s4_p0 <= (SDP != 0 && s3_flow) ? y0_17 : p0;
            s4_p1 <= p1;
        end
    end

    // ---------------------------------------------------------------- S4 -> S5: the sum
    wire [16:0] sum;
    generate
        if (SDP != 0) begin : g_sdp_out
            // hit: a0 y0 + a1 y1; flow: y0 + (x - P) slope
            nvdla_fp_add #(.E(6), .M(10)) u_add (.a(s4_p0), .b(s4_p1), .y(sum));
            nvdla_fp_widen #(.EI(6), .MI(10), .EO(8), .MO(23), .DENORM(0)) u_y32 (.x(sum), .y(y));
        end else begin : g_cdp_out
            // inner + y0 (inner the interpolation or the slope term)
            nvdla_fp_add #(.E(6), .M(10)) u_add (.a(s4_p1), .b(s4_p0), .y(sum));
            assign y = sum;
        end
    endgenerate
endmodule
