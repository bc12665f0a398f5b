// Index generation of one LUT table (combinational leaf between its parent's pipeline registers).
// Input is diff = x - START as a signed number. Underflow when diff <= 0. Otherwise:
//   linear mode:      index = diff >> sel (sel < 0: diff << -sel), fraction = the bits shifted out
//   exponential mode: L = position of diff's leading one, index = L - offset, fraction = the bits below
//                     the leading one; underflow when index < 0
// and overflow when index >= DEPTH-1. The fraction is FRAC_W bits, aligned so that its MSB weighs one
// half: frac = ((diff mod 2^s) << FRAC_W) >> s (s = sel or L), truncated; 0 when sel < 0.
// KEEP_W > 0: linear mode forms the index and fraction from the low KEEP_W bits of a positive diff only (a
// CDP lane of NVIDIA's nvdlav1 that pairs INT8 channels, models/lut/model.py PAIRED_LOW); the underflow test and
// exponential mode still see all of diff; keep_all overrides KEEP_W at run time (a CDP INT16 layer).
module nvdla_lut_index #(
    parameter D_W    = 33,   // width of diff (signed)
    parameter FRAC_W = 16,
    parameter IDX_W  = 9,
    parameter DEPTH  = 65,
    parameter EXP    = 1,    // 1: the table can run in exponential mode (LE); 0: linear only (LO)
    parameter KEEP_W = 0     // 0: all of diff; else the bits linear mode keeps (< D_W - 1)
) (
    input  wire signed [D_W-1:0]    diff,
    input  wire                     keep_all,   // all of diff whatever KEEP_W says (unused when KEEP_W = 0)
    input  wire                     exp_mode,   // ignored when EXP == 0
    input  wire        [7:0]        sel,        // INDEX_SELECT, signed
    input  wire        [7:0]        offset,     // LE_INDEX_OFFSET, signed (exponential mode only)
    output reg                      uflow,
    output reg                      oflow,
    output reg         [IDX_W-1:0]  index,
    output reg         [FRAC_W-1:0] frac
);
    localparam MAG_W  = D_W - 1;           // diff is known positive where its magnitude is used
    // the fraction is the low FRAC_W bits of {mag, FRAC_W zeros} >> s_amt, computed on MF_W bits (at most
    // 38, one machine word, where the MAG_W + FRAC_W-bit form is 67 bits in SDP): mag >> (s_amt - FRAC_W)
    // when s_amt >= FRAC_W, else mag << (FRAC_W - s_amt), whose bits past FRAC_W are dropped either way
    localparam MF_W   = (MAG_W > FRAC_W) ? MAG_W : FRAC_W;
    localparam L_W    = $clog2(MAG_W + 1);
    localparam LAST   = DEPTH - 1;         // index at or past the last entry overflows
    // a left shift by this much or more overflows any positive diff: 2^IDX_W > LAST
    localparam LSH_LIM = IDX_W;

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (IDX_W < 1 || IDX_W > 10 || D_W < IDX_W + 1 || D_W > 256 || DEPTH < 1 || DEPTH > (1 << IDX_W) ||
            FRAC_W < 1 || FRAC_W > 255 || KEEP_W < 0 || KEEP_W >= D_W - 1) begin
            $display("ERROR: nvdla_lut_index %m: 1 <= IDX_W <= 10 (the 10-bit exponent index), IDX_W + 1 <= D_W <= 256 ",
                     "(8-bit shift amounts), 1 <= DEPTH <= 2**IDX_W, 1 <= FRAC_W <= 255, 0 <= KEEP_W < D_W - 1");
            $finish;
        end
    end

    wire             pos = ~diff[D_W-1] & (|diff[D_W-2:0]);
    wire [MAG_W-1:0] mag = diff[MAG_W-1:0];
    // what linear mode reads: all of mag, or its low KEEP_W bits
    wire [MAG_W-1:0] mag_l;
    generate
        if (KEEP_W == 0) begin : g_all
            assign mag_l = mag;
            wire unused_keep_all = keep_all;
        end else begin : g_keep
            assign mag_l = keep_all ? mag : {{(MAG_W-KEEP_W){1'b0}}, mag[KEEP_W-1:0]};
        end
    endgenerate

    reg  [L_W-1:0]     lead;        // position of the leading one of mag
    reg  [L_W-1:0]     lead_try;
    // mag zero-extended to 2^L_W bits: the leading one found by a binary search, bit by bit from the top
    // (a compare per bit of mag was one of the costlier parts of the LUTs under Verilator)
    localparam P_W = 1 << L_W;
    wire [P_W-1:0]     mag_p = {{(P_W-MAG_W){1'b0}}, mag};
    reg  signed [9:0]  exp_index;   // lead - offset: -127..(MAG_W-1)+128
    reg  [7:0]         s_amt;       // right-shift amount of the fraction (sel or lead)
    /* verilator lint_off UNUSEDSIGNAL */
    wire [MF_W+MAG_W-1:0] mag_z = {{MF_W{1'b0}}, mag};
    wire [MF_W+MAG_W-1:0] mag_lz = {{MF_W{1'b0}}, mag_l};
    reg  [MF_W-1:0]    wide_sh;     // only its low FRAC_W bits are the fraction
    /* verilator lint_on UNUSEDSIGNAL */
    wire [MF_W-1:0]    mag_x = mag_z[MF_W-1:0];   // mag on MF_W bits
    wire [MF_W-1:0]    mag_lx = mag_lz[MF_W-1:0];
    reg  [MAG_W-1:0]   q;           // diff >> sel
    reg  [7:0]         lsh;         // -sel when sel < 0
    reg  [2*IDX_W-1:0] lq;          // diff << -sel, on the few bits that matter
    integer b;

    always @(*) begin
        lead = {L_W{1'b0}};
        for (b = L_W - 1; b >= 0; b = b - 1) begin
            lead_try    = lead;
            lead_try[b] = 1'b1;
            if (|(mag_p >> lead_try)) lead = lead_try;
        end
        exp_index = $signed({{(10-L_W){1'b0}}, lead}) - $signed({{2{offset[7]}}, offset});
        q = mag_l >> sel;
        lsh = ~sel + 8'd1;
        lq = {{IDX_W{1'b0}}, mag_l[IDX_W-1:0]} << lsh;
        // the fraction's right shift: by lead (of all of mag) in exponential mode, by sel in linear mode
        if ((EXP != 0) && exp_mode) begin
            s_amt   = {{(8-L_W){1'b0}}, lead};
            wide_sh = (s_amt >= FRAC_W[7:0]) ? (mag_x >> (s_amt - FRAC_W[7:0]))
                                             : (mag_x << (FRAC_W[7:0] - s_amt));
        end else begin
            s_amt   = sel;
            wide_sh = (s_amt >= FRAC_W[7:0]) ? (mag_lx >> (s_amt - FRAC_W[7:0]))
                                             : (mag_lx << (FRAC_W[7:0] - s_amt));
        end

        uflow = 1'b0;
        oflow = 1'b0;
        index = {IDX_W{1'b0}};
        frac  = {FRAC_W{1'b0}};
        if (!pos) begin
            uflow = 1'b1;
        end else if ((EXP != 0) && exp_mode) begin
            if (exp_index < 0) begin
                uflow = 1'b1;
            end else if (exp_index >= LAST) begin
                oflow = 1'b1;
            end else begin
                index = exp_index[IDX_W-1:0];
                frac  = wide_sh[FRAC_W-1:0];
            end
        end else if (!sel[7]) begin
            if ((|(q >> IDX_W)) || (q[IDX_W-1:0] >= LAST[IDX_W-1:0])) begin
                oflow = 1'b1;
            end else begin
                index = q[IDX_W-1:0];
                frac  = wide_sh[FRAC_W-1:0];
            end
        end else begin
            // negative select: index = diff << -sel, no fraction
            if ((lsh >= LSH_LIM) || (|(mag_l >> IDX_W)) || (lq >= LAST)) begin
                oflow = 1'b1;
            end else begin
                index = lq[IDX_W-1:0];
            end
        end
    end
endmodule
