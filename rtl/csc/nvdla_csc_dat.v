// CSC data side: for each weight atom handed over by nvdla_csc_wt (channel block b, tap r, s, stripe of
// `len` output positions) issues one CMAC operation per position: the input entry the tap reads for that
// output position, output (x, y) reading input (x*SX + s*DX - PL, y*SY + r*DY - PT), or, outside the
// input cube, CSC's pad value (D_ZERO_PADDING_VALUE's low byte, as it is) in every lane. The first
// operation of an atom carries CMAC's `swap`; the sideband tells CACC the stripe position and whether the
// atom is the stripe's first or last. Positions run in raster order, a stripe continuing where the
// previous one ended and each kernel group starting again at (0, 0).
//
// Feature data in CBUF (written by nvdla_cdma_dat, NVIDIA's layout): slice (input line) h at entry
// h * pitch, pitch = CSC's D_ENTRY_PER_SLICE (ENTRIES + 1 CBUF entries of EPR entries of AC bytes here); in a
// slice, a whole block b's W entries at b * W; the last block, when short (r < AC / ATOM memory atoms, r'
// = r rounded up to 1, 2, 4..), packs AC / (ATOM * r') pixels an entry: pixel w at b * W + w / share, its
// atoms from atom (w mod share) * r' of the entry, moved down to lane 0 here (the lanes above it carry
// other pixels' channels, which meet zero weights: nvdla_csc_wt loads channels past C as zeros); all
// modulo the CBUF size. An operation waits until the input line it reads is in CBUF: line iy = y*SY +
// r*DY - PT needs `slices` > iy (CDMA's count of whole slices written; a line above the cube is padding and
// waits for nothing) or `dat_ready` (CDMA has loaded the whole input: a line below the cube, or a CSC
// height beyond CDMA's). iy is kept in a register, moved by SY at each new output row and set when an
// atom is taken (its tap r and start row), so the wait costs one compare.
//
// Pipeline (nvdla_pipe_ctrl, full backpressure): 0 the operation; 1 input coordinates; 2 padding test
// and entry address; 3 the CBUF read (its registered output is this stage's data).
module nvdla_csc_dat #(
    parameter AC     = 8,
    parameter ATOM   = 8,     // memory atom bytes (CDMA's write unit; the packing of a short last block)
    parameter EPR    = 1,     // entries of AC bytes in one CBUF entry (D_ENTRY_PER_SLICE's unit)
    parameter BANKS  = 32,
    parameter DEPTH  = 512,
    parameter STRIPE = 16,
    // derived (do not set; declared here because the ports use them)
    parameter A_W = $clog2(BANKS) + $clog2(DEPTH),
    parameter PW = $clog2(STRIPE)
) (
    input  wire              clk,
    input  wire              rst_n,
    input  wire              start,
    input  wire [12:0]       width_m1,
    input  wire [12:0]       height_m1,
    input  wire [12:0]       channel_m1,
    input  wire [13:0]       entries_m1,     // D_ENTRY_PER_SLICE.ENTRIES
    input  wire [12:0]       out_w_m1,
    input  wire [2:0]        sx_m1,
    input  wire [2:0]        sy_m1,
    input  wire [4:0]        dx_m1,
    input  wire [4:0]        dy_m1,
    input  wire [4:0]        pad_left,
    input  wire [4:0]        pad_top,
    input  wire [7:0]        pad_value,
    input  wire              dat_ready,
    input  wire [13:0]       slices,      // input lines CDMA has written whole (nvdla_cdma_dat)
    // atom descriptors
    input  wire              desc_valid,
    output wire              desc_take,
    input  wire [10:0]       desc_block,
    input  wire [4:0]        desc_r,
    input  wire [4:0]        desc_s,
    input  wire              desc_first,
    input  wire              desc_last,
    input  wire              desc_new_group,
    input  wire [PW:0]       desc_len,
    // CBUF data read port
    output wire              cb_re,
    output wire [A_W-1:0]    cb_addr,
    input  wire [AC*8-1:0]   cb_data,
    // CMAC operations
    output wire              op_valid,
    input  wire              op_ready,
    output wire [AC*8-1:0]   op_data,
    output wire              op_swap,
    output wire [PW+1:0]     op_side,     // {position, first, last} for CACC
    output wire              busy
);
    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (AC < 2 || (AC & (AC - 1)) != 0 || STRIPE < 2 || (STRIPE & (STRIPE - 1)) != 0 || BANKS < 2
            || (BANKS & (BANKS - 1)) != 0 || DEPTH < 2 || (DEPTH & (DEPTH - 1)) != 0 || ATOM < 1 || AC < ATOM
            || (ATOM & (ATOM - 1)) != 0 || EPR < 1 || (EPR & (EPR - 1)) != 0) begin
            $display("ERROR: nvdla_csc_dat %m: AC, STRIPE, BANKS, DEPTH powers of two >= 2, ATOM and EPR ",
                     "powers of two, ATOM <= AC");
            $finish;
        end
    end

    // pitch = ENTRY_PER_SLICE, in entries of AC bytes (addresses wrap at the CBUF size); the short last block
    localparam PARTS = AC / ATOM;
    localparam RB    = $clog2(PARTS);
    localparam SB    = $clog2(ATOM);
    reg  [A_W-1:0] pitch;
    reg  [12:0]    rem_b;     // the last block's index when it is short, else past every block
    reg  [7:0]     lg_r;      // log2 of its atoms a pixel (r')
    wire [7:0]     lg_share = RB[7:0] - lg_r;
    wire [12:0]    width  = width_m1 + 13'd1;
    wire [13:0]    surfaces = {1'b0, channel_m1 >> SB} + 14'd1;
    wire [13:0]    rest = surfaces & (PARTS[13:0] - 14'd1);
    /* verilator lint_off UNUSEDSIGNAL */  // addresses wrap at the CBUF size: the low A_W bits
    wire [19:0]    width20 = {7'd0, width};
    wire [19:0]    pitch20 = ({6'd0, entries_m1} + 20'd1) << $clog2(EPR);
    wire [13:0]    rem_b14 = (rest == 14'd0) ? 14'h3fff : surfaces >> RB;
    /* verilator lint_on UNUSEDSIGNAL */
    wire [13:0]    rest_m1 = rest - 14'd1;
    integer        k;
    always @(posedge clk) begin
        pitch <= pitch20[A_W-1:0];
        rem_b <= rem_b14[12:0];
        lg_r <= 8'd0;
        for (k = 0; k < RB; k = k + 1)
            if (rest_m1[k]) lg_r <= k[7:0] + 8'd1;   // the bits of r - 1
    end

    // ---- the current atom and position
    reg           have;
    reg [10:0]    cb;
    reg [4:0]     cr, cs;
    reg           cfirst, clast;
    reg [PW:0]    clen, p;
    reg [12:0]    x, y, xs, ys;
    // the input line of the current operation, y*SY + r*DY - PT (signed), and y*SY, ys*SY beside y, ys
    reg  signed [19:0] iy;
    reg  [19:0]   ysy, ys_sy;
    wire          rows_in = dat_ready | (iy < $signed({6'd0, slices}));
    wire          gen_valid = have & rows_in;
    wire          gen_ready;
    wire          fire = gen_valid & gen_ready;
    wire          end_atom = fire && (p + 1'b1 == clen);
    wire [12:0]   nx = (x == out_w_m1) ? 13'd0 : x + 13'd1;
    wire [12:0]   ny = (x == out_w_m1) ? y + 13'd1 : y;
    // where the next atom starts: this stripe's start again, the next stripe's (after its last atom), or
    // (0, 0) for a new group
    wire [12:0]   sx_next = clast ? nx : xs;
    wire [12:0]   sy_next = clast ? ny : ys;
    wire          can_take = ~have | end_atom;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [19:0]   sy20 = {17'd0, sy_m1} + 20'd1;
    /* verilator lint_on UNUSEDSIGNAL */
    wire [19:0]   ny_sy = (x == out_w_m1) ? ysy + sy20 : ysy;
    wire [19:0]   sy_next_sy = clast ? ny_sy : ys_sy;
    wire [19:0]   take_sy = desc_new_group ? 20'd0 : (end_atom ? sy_next_sy : ys_sy);
    wire [19:0]   take_rdy = {15'd0, desc_r} * ({15'd0, dy_m1} + 20'd1);
    assign desc_take = desc_valid & can_take;
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            have <= 1'b0;
            cb <= 11'd0; cr <= 5'd0; cs <= 5'd0; cfirst <= 1'b0; clast <= 1'b0; clen <= {(PW+1){1'b0}};
            p <= {(PW+1){1'b0}}; x <= 13'd0; y <= 13'd0; xs <= 13'd0; ys <= 13'd0;
            iy <= 20'sd0; ysy <= 20'd0; ys_sy <= 20'd0;
        end else if (start) begin
            have <= 1'b0;
            xs <= 13'd0; ys <= 13'd0;
            ys_sy <= 20'd0;
        end else begin
            if (fire) begin
                p <= p + 1'b1;
                x <= nx;
                y <= ny;
                ysy <= ny_sy;
                if (x == out_w_m1) iy <= iy + $signed(sy20);
            end
            if (end_atom) begin
                have <= 1'b0;
                xs <= sx_next;
                ys <= sy_next;
                ys_sy <= sy_next_sy;
            end
            if (desc_take) begin
                have <= 1'b1;
                cb <= desc_block; cr <= desc_r; cs <= desc_s;
                cfirst <= desc_first; clast <= desc_last; clen <= desc_len;
                p <= {(PW+1){1'b0}};
                ysy <= take_sy;
                iy <= $signed(take_sy + take_rdy - {15'd0, pad_top});
                if (desc_new_group) begin
                    x <= 13'd0; y <= 13'd0; xs <= 13'd0; ys <= 13'd0;
                    ys_sy <= 20'd0;
                end else if (end_atom) begin
                    x <= sx_next; y <= sy_next;
                end else begin
                    x <= xs; y <= ys;
                end
            end
        end
    end

    // ---- pipeline
    wire [3:0] en;
    wire       pipe_valid;
    nvdla_pipe_ctrl #(.DEPTH(4)) u_ctrl (
        .clk(clk), .rst_n(rst_n), .in_valid(gen_valid), .in_ready(gen_ready), .stage_en(en),
        .out_valid(pipe_valid), .out_ready(op_ready)
    );
    assign op_valid = pipe_valid;

    // stage 0: the operation
    reg [12:0] s0_x, s0_y;
    reg [4:0]  s0_r, s0_s;
    reg [10:0] s0_b;
    reg [PW-1:0] s0_pos;
    reg        s0_first, s0_last, s0_swap;
    always @(posedge clk) if (en[0]) begin
        s0_x <= x; s0_y <= y; s0_r <= cr; s0_s <= cs; s0_b <= cb; s0_pos <= p[PW-1:0];
        s0_first <= cfirst; s0_last <= clast; s0_swap <= (p == {(PW+1){1'b0}});
    end
    // stage 1: input coordinates (signed: left/top padding makes them negative)
    reg signed [19:0] s1_ix, s1_iy;
    reg [10:0] s1_b;
    reg [PW-1:0] s1_pos;
    reg        s1_first, s1_last, s1_swap;
    always @(posedge clk) if (en[1]) begin
        s1_ix <= $signed({7'd0, s0_x} * {17'd0, sx_m1} + {7'd0, s0_x}
                         + {15'd0, s0_s} * ({15'd0, dx_m1} + 20'd1) - {15'd0, pad_left});
        s1_iy <= $signed({7'd0, s0_y} * {17'd0, sy_m1} + {7'd0, s0_y}
                         + {15'd0, s0_r} * ({15'd0, dy_m1} + 20'd1) - {15'd0, pad_top});
        s1_b <= s0_b; s1_pos <= s0_pos; s1_first <= s0_first; s1_last <= s0_last; s1_swap <= s0_swap;
    end
    /* verilator lint_off UNUSEDSIGNAL */
    wire [19:0] b20 = {9'd0, s1_b};
    /* verilator lint_on UNUSEDSIGNAL */
    // stage 2: pad test and the entry (h * pitch + b * W + w, or in a short last block + w / share; modulo
    // the CBUF size) and the atom the pixel starts at in it
    wire           s1_rem = s1_b == rem_b[10:0] && rem_b[12:11] == 2'd0;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [19:0]    ix_rem = s1_ix[19:0] >> lg_share;
    /* verilator lint_on UNUSEDSIGNAL */
    wire [7:0]     share_m1 = (8'd1 << lg_share) - 8'd1;
    reg            s2_pad;
    reg [7:0]      s2_atom;
    reg [A_W-1:0]  s2_addr;
    reg [PW-1:0]   s2_pos;
    reg            s2_first, s2_last, s2_swap;
    always @(posedge clk) if (en[2]) begin
        s2_pad <= s1_ix < 0 || s1_iy < 0 || s1_ix > $signed({7'd0, width_m1}) || s1_iy > $signed({7'd0, height_m1});
        s2_addr <= s1_iy[A_W-1:0] * pitch + b20[A_W-1:0] * width20[A_W-1:0]
                   + (s1_rem ? ix_rem[A_W-1:0] : s1_ix[A_W-1:0]);
        s2_atom <= s1_rem ? ((s1_ix[7:0] & share_m1) << lg_r) : 8'd0;
        s2_pos <= s1_pos; s2_first <= s1_first; s2_last <= s1_last; s2_swap <= s1_swap;
    end
    // stage 3: the CBUF read (the bank's output register holds while the stage holds). A padded tap reads
    // nothing: its address can be anywhere in CBUF, and a read of a weight bank would take that bank's read
    // port from the weight side in the same cycle.
    assign cb_re   = en[3] & ~s2_pad;
    assign cb_addr = s2_addr;
    reg            s3_pad;
    reg [7:0]      s3_atom;
    reg [PW-1:0]   s3_pos;
    reg            s3_first, s3_last, s3_swap;
    always @(posedge clk) if (en[3]) begin
        s3_pad <= s2_pad; s3_atom <= s2_atom; s3_pos <= s2_pos; s3_first <= s2_first; s3_last <= s2_last; s3_swap <= s2_swap;
    end
    // the pixel's atoms moved down to lane 0 (a packed short block; lanes above: other pixels, zero weights)
    /* verilator lint_off UNUSEDSIGNAL */
    wire [7:0]       shift_atoms = s3_atom & (PARTS[7:0] - 8'd1);
    /* verilator lint_on UNUSEDSIGNAL */
    wire [AC*8-1:0]  aligned = cb_data >> {shift_atoms[RB > 0 ? RB - 1 : 0:0], {(SB + 3){1'b0}}};
    assign op_data = s3_pad ? {AC{pad_value}} : (PARTS > 1 ? aligned : cb_data);
    assign op_swap = s3_swap;
    assign op_side = {s3_pos, s3_first, s3_last};
    // operations in the pipeline
    reg [2:0] inflight;
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) inflight <= 3'd0;
        else inflight <= inflight + {2'd0, fire} - {2'd0, op_valid & op_ready};
    end
    assign busy = have | (inflight != 3'd0);
endmodule
