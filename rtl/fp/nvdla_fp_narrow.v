// Combinational: a float converted to a format with fewer exponent bits and at most as many mantissa bits,
// bit for bit as models/common/nvfloat.py fp17_to_fp16 (EI/MI 6/10 -> 5/10), fp32_to_fp16 (8/23 -> 5/10) and
// fp32_to_fp17 (8/23 -> 6/10, DENORM = 0):
//   - the normal range rounds the mantissa to nearest even (a carry may step the exponent up);
//   - too large (an infinity too) saturates to the output's largest finite value;
//   - DENORM = 1: the output's subnormal range rounds to nearest even over everything shifted out (and may
//     round up to the smallest normal); DENORM = 0: it is 0 unless that rounding carries it up to the
//     smallest normal; below that range, 0; the sign is kept either way;
//   - an input exponent of 0 is read with an implied 1 (it is far below the output's range, so 0);
//   - a NaN keeps its sign and the low MO bits of its mantissa (a payload only in higher bits comes out as
//     the pattern of an infinity: NVIDIA's rule, kept).
module nvdla_fp_narrow #(
    parameter EI = 6,       // input exponent / mantissa bits
    parameter MI = 10,
    parameter EO = 5,       // output exponent / mantissa bits
    parameter MO = 10,
    parameter DENORM = 1    // 1: the output has subnormals; 0: only a rounding up to the smallest normal
) (
    input  wire [EI+MI:0] x,
    output wire [EO+MO:0] y
);

    localparam DROP = MI - MO;                         // mantissa bits rounded off in the normal range
    localparam XW   = EI + 2;                          // exponent arithmetic
    localparam [XW-1:0] DELTA = {3'b000, {(EI-1){1'b1}}} - {{(XW-EO+1){1'b0}}, {(EO-1){1'b1}}};
    localparam integer  DELTA_I = (1 << (EI - 1)) - (1 << (EO - 1));   // the same, for the check

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (EO < 2 || MO < 1 || EI <= EO || EI > 11 || MI < MO || (DENORM != 0 && DENORM != 1)
            || DELTA_I <= MO) begin
            $display("ERROR: nvdla_fp_narrow %m: EO >= 2, MO >= 1, EO < EI <= 11, MI >= MO, DENORM 0 or 1 ",
                     "and the bias difference above MO (the subnormal range lies inside the input's normals)");
            $finish;
        end
    end

    localparam [EO-1:0] EMAXO = {EO{1'b1}};
    localparam SW = $clog2(MI + 2);                    // a shift 0..MI+1

    wire          s, nan;
    wire [EI-1:0] e;
    wire [MI-1:0] m;
    nvdla_fp_unpack #(.E(EI), .M(MI)) u_x (.x(x), .s(s), .e(e), .m(m), .nan(nan));
    wire [MI:0]   full = {1'b1, m};
    wire [XW-1:0] xe   = {2'b00, e};
    wire [EO+MO:0] largest = {s, EMAXO - 1'b1, {MO{1'b1}}};

    // normal range: one round to nearest even of the MI+1-bit significand to MO+1 bits
    wire [MO+1:0] norm;
    generate
        if (DROP > 0) begin : g_round
            wire [MO:0] kept   = full[MI:DROP];
            wire        guard  = full[DROP-1];
            wire        sticky = |(full & ~({(MI+1){1'b1}} << (DROP - 1)));
            wire        rnd    = guard && (sticky || kept[0]);
            assign norm = {1'b0, kept} + {{(MO+1){1'b0}}, rnd};
        end else begin : g_exact
            assign norm = {1'b0, full};
        end
    endgenerate
    /* verilator lint_off UNUSEDSIGNAL */
    wire          n_hidden = norm[MO];
    wire [XW-1:0] n_expo = xe - DELTA + {{(XW-1){1'b0}}, norm[MO+1]};
    /* verilator lint_on UNUSEDSIGNAL */
    wire [MO-1:0] n_mant = norm[MO-1:0];     // a carry leaves 10..0: mantissa 0, exponent + 1
    wire [EO+MO:0] n_out = (n_expo >= {{(XW-EO){1'b0}}, EMAXO}) ? largest : {s, n_expo[EO-1:0], n_mant};

    // subnormal range (DELTA - MO <= e <= DELTA): shift right by DELTA - e + 1 + DROP, round to nearest even
    // over every bit shifted out
    /* verilator lint_off UNUSEDSIGNAL */
    wire [XW-1:0] sh_w  = DELTA + 1'b1 + DROP[XW-1:0] - xe;   // DROP+1 .. MI+1 in that range
    /* verilator lint_on UNUSEDSIGNAL */
    wire [SW-1:0] sh    = sh_w[SW-1:0];
    wire [MI:0]   sk    = full >> sh;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [MI:0]   gbits = full >> (sh - 1'b1);                // the guard bit in bit 0
    /* verilator lint_on UNUSEDSIGNAL */
    wire          s_sticky = |(full & ~({(MI+1){1'b1}} << (sh - 1'b1)));
    wire          s_rnd = gbits[0] && (s_sticky || sk[0]);
    /* verilator lint_off UNUSEDSIGNAL */
    wire [MI:0]   sub   = sk + {{MI{1'b0}}, s_rnd};           // < 2^(MO+1) in that range
    /* verilator lint_on UNUSEDSIGNAL */
    wire [EO+MO:0] s_out = (DENORM == 1) ? {s, {(EO-1){1'b0}}, sub[MO], sub[MO-1:0]}
                         : {s, {(EO-1){1'b0}}, sub[MO], {MO{1'b0}}};

    assign y = nan ? {s, EMAXO, m[MO-1:0]}
             : (xe >= {{(XW-EO){1'b0}}, EMAXO} + DELTA) ? largest
             : (xe + MO[XW-1:0] < DELTA) ? {s, {(EO+MO){1'b0}}}
             : (xe <= DELTA) ? s_out
             : n_out;

endmodule
