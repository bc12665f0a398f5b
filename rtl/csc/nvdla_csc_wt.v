// CSC weight side: walks the layer's weight atoms in CSC's order (kernel groups of AK kernels; in a group,
// stripes of up to STRIPE output positions; in a stripe, channel blocks of AC channels, then kernel taps
// r*S + s) and loads each atom into CMAC's shadow weights one kernel a cycle, then hands the atom's
// descriptor to the data side (nvdla_csc_dat), which issues the stripe's operations against it.
//
// Weights sit in CBUF's weight banks as CDMA copied them (NVIDIA's direct-convolution image, models/conv/cdma.py
// weight_offsets): per group, per block, per tap, each kernel's channels of the block back to back, no
// padding. The group's bytes are read from CBUF entry by entry (a circular region of WEIGHT_BANK + 1 banks
// after the data banks) into a four-entry window (two reads in flight: one entry a cycle), and each kernel's `in_block` bytes are cut out at any byte
// offset. Kernels past K (the last group) and channels past C (the last block) load as zeros, so their
// products are 0. A group's weights are read again for each stripe, as NVIDIA's CSC does.
//
// Flow control with CDMA (wt_written: entries CDMA has completed; wt_released: entries given back): a group
// starts once its last entry is written, or CDMA has finished, or the region is full or CDMA waits for room
// (a group larger than the region: wrong data, but the layer completes); after its last stripe the group's
// whole entries are released so CDMA can refill them (partial-weight mode). Shadow hand-over: an atom's kernels are written only after
// CMAC has swapped the previous atom in (`swap_done`).
module nvdla_csc_wt #(
    parameter AC     = 8,
    parameter AK     = 8,
    parameter BANKS  = 32,
    parameter DEPTH  = 512,
    parameter STRIPE = 16,
    // derived (do not set; declared here because the ports use them)
    parameter A_W = $clog2(BANKS) + $clog2(DEPTH),
    parameter KW = $clog2(AK),
    parameter PW = $clog2(STRIPE)
) (
    input  wire              clk,
    input  wire              rst_n,
    input  wire              start,          // pulse; the configuration holds until done
    // configuration (value-minus-one encodings as the registers)
    input  wire [12:0]       channel_m1,     // C - 1
    input  wire [4:0]        kw_m1,          // S - 1
    input  wire [4:0]        kh_m1,          // R - 1
    input  wire [12:0]       kernels_m1,     // K - 1
    input  wire [12:0]       out_w_m1,
    input  wire [12:0]       out_h_m1,
    input  wire [4:0]        data_bank_m1,
    input  wire [4:0]        weight_bank_m1,
    // CDMA's weight progress and the release back to it
    input  wire [31:0]       wt_written,
    input  wire              wt_done,
    input  wire              wt_blocked,     // CDMA waits for a release (its region is full)
    output reg  [31:0]       wt_released,
    // CBUF weight read port
    output wire              cb_re,
    output wire [A_W-1:0]    cb_addr,
    input  wire [AC*8-1:0]   cb_data,
    // CMAC shadow weights
    output reg               mac_we,
    output reg  [KW-1:0]     mac_k,
    output reg  [AC*8-1:0]   mac_data,
    input  wire              swap_done,      // CMAC took the shadow (an operation with swap was multiplied)
    // atom descriptors to the data side
    output reg               desc_valid,
    input  wire              desc_take,
    output reg  [10:0]       desc_block,
    output reg  [4:0]        desc_r,
    output reg  [4:0]        desc_s,
    output reg               desc_first,     // the stripe's first atom
    output reg               desc_last,      // the stripe's last atom
    output reg               desc_new_group, // the first atom of a group's first stripe
    output reg  [PW:0]       desc_len,       // positions in the stripe, 1..STRIPE
    output wire              done            // every atom loaded and handed over
);
    localparam OW  = $clog2(AC);            // byte offset in an entry (entry = AC bytes)

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (AC < 2 || (AC & (AC - 1)) != 0 || AK < 2 || (AK & (AK - 1)) != 0 || STRIPE < 2
            || (STRIPE & (STRIPE - 1)) != 0 || BANKS < 2 || (BANKS & (BANKS - 1)) != 0 || DEPTH < 2
            || (DEPTH & (DEPTH - 1)) != 0) begin
            $display("ERROR: nvdla_csc_wt %m: AC, AK, STRIPE, BANKS, DEPTH powers of two >= 2");
            $finish;
        end
    end

    localparam S_IDLE = 4'd0, S_SETUP = 4'd1, S_GEND = 4'd2, S_GWAIT = 4'd3, S_RESTART = 4'd4, S_LOAD = 4'd5,
               S_HAND = 4'd6, S_NEXT = 4'd7, S_NORM = 4'd8, S_DONE = 4'd9;
    reg [3:0] state;
    reg [1:0] setup_step;

    // ---- layer constants (S_SETUP)
    reg [10:0] blocks_m1;            // channel blocks - 1
    reg [OW:0] c_last;               // channels of the last block
    reg [12:0] groups_m1;
    reg [KW:0] k_last;
    reg [10:0] taps;                 // R * S
    reg [23:0] rsc;                  // R * S * C: bytes of one kernel
    reg [25:0] npos;                 // output positions
    reg [A_W:0] wcap;                // weight region entries
    reg [A_W:0] wbase;               // its first entry

    /* verilator lint_off UNUSEDSIGNAL */  // C <= 8192 with AC >= 8: at most 1024 blocks
    wire [12:0] ch_blk = channel_m1 >> OW;
    /* verilator lint_on UNUSEDSIGNAL */

    // ---- walk
    reg [12:0] g;
    reg [25:0] sp;                   // stripe's first position
    reg [10:0] b;
    reg [4:0]  r, s;
    reg [KW:0] kk;
    reg [31:0] gstart, gend;         // the group's bytes in the weight image
    reg [A_W:0] gw;                  // the group's first entry, in the region
    reg [31:0] norm;                 // S_NORM: the next group's first entry before wrapping
    wire [KW:0] in_group = (g == groups_m1) ? k_last : AK[KW:0];
    wire [OW:0] in_block = (b == blocks_m1) ? c_last : AC[OW:0];
    wire [25:0] left     = npos - sp;
    wire [PW:0] len      = (left >= STRIPE[25:0]) ? STRIPE[PW:0] : left[PW:0];
    wire        last_tap = (r == kh_m1) && (s == kw_m1);
    wire        last_atom = last_tap && (b == blocks_m1);
    wire        last_stripe = left <= STRIPE[25:0];
    wire        last_group = g == groups_m1;
    reg         shadow_busy;         // the shadow holds an atom CMAC has not swapped in

    // ---- the window: four entries of the group's byte stream, w0 holding byte offset `o`; reads keep it full
    // at one entry a cycle (a read answers the cycle after it is issued)
    reg [AC*8-1:0] w0, w1, w2, w3;
    reg [2:0]      wn;               // entries in the window
    reg            rd_pend;          // a CBUF read answers this cycle
    reg [A_W:0]    rp;               // next entry to read, in the region
    reg [OW-1:0]   o;
    wire           restart = state == S_RESTART;
    assign cb_re   = (state == S_LOAD || state == S_HAND || state == S_NEXT) && (wn + {2'b0, rd_pend} < 3'd4);
    /* verilator lint_off UNUSEDSIGNAL */  // the region wraps inside CBUF (a bad bank split: wrong data only)
    wire [A_W:0]   cb_full = wbase + rp;
    /* verilator lint_on UNUSEDSIGNAL */
    assign cb_addr = cb_full[A_W-1:0];
    wire           need_bytes = (state == S_LOAD) && (kk < in_group) && !shadow_busy;
    wire           have = wn >= 3'd2;
    wire           chunk_go = need_bytes & have;
    /* verilator lint_off UNUSEDSIGNAL */  // a kernel's bytes are the low AC of the shifted pair
    wire [2*AC*8-1:0] pair = {w1, w0} >> (8 * o);
    /* verilator lint_on UNUSEDSIGNAL */
    reg  [AC*8-1:0] chunk;
    integer i;
    always @(*) begin
        chunk = pair[AC*8-1:0];
        for (i = 0; i < AC; i = i + 1)
            if (i >= in_block) chunk[i*8 +: 8] = 8'd0;
    end
    wire [OW+1:0] o_next = {2'b0, o} + {1'b0, in_block};
    wire          pop = chunk_go & (o_next >= AC[OW+1:0]);

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            wn <= 3'd0;
            rd_pend <= 1'b0;
            rp <= {(A_W+1){1'b0}};
            o <= {OW{1'b0}};
        end else if (restart) begin
            wn <= 3'd0;
            rd_pend <= 1'b0;
            rp <= gw;
            o <= gstart[OW-1:0];
        end else begin
            rd_pend <= cb_re;
            if (cb_re) rp <= (rp + 1'b1 >= wcap) ? {(A_W+1){1'b0}} : rp + 1'b1;
            if (chunk_go) o <= o_next[OW-1:0];
            wn <= wn + {2'b0, rd_pend} - {2'b0, pop};
        end
    end
    // entries arrive behind the ones held; a pop shifts them down first
    wire [2:0] slot = wn - {2'b0, pop};
    always @(posedge clk) begin
        if (pop) begin
            w0 <= w1;
            w1 <= w2;
            w2 <= w3;
        end
        if (rd_pend) begin
            case (slot)
                3'd0: w0 <= cb_data;
                3'd1: w1 <= cb_data;
                3'd2: w2 <= cb_data;
                default: w3 <= cb_data;
            endcase
        end
    end

    // ---- the walk
    wire [31:0] gend_e   = gend >> OW;
    wire [31:0] gstart_e = gstart >> OW;
    wire [31:0] in_use   = wt_written - wt_released;
    wire [31:0] need_e   = gend_e + {31'd0, gend[OW-1:0] != {OW{1'b0}}};
    // a group larger than the region (CDMA's or this copy's WEIGHT_BANK): go on with what is there
    wire        ready_w  = (wt_written >= need_e) || wt_done || wt_blocked
                           || (in_use >= {{(31-A_W){1'b0}}, wcap});

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            state <= S_IDLE;
            setup_step <= 2'd0;
            wt_released <= 32'd0;
            mac_we <= 1'b0;
            mac_k <= {KW{1'b0}};
            mac_data <= {AC*8{1'b0}};
            desc_valid <= 1'b0;
            shadow_busy <= 1'b0;
            blocks_m1 <= 11'd0; c_last <= {(OW+1){1'b0}}; groups_m1 <= 13'd0; k_last <= {(KW+1){1'b0}};
            taps <= 11'd0; rsc <= 24'd0; npos <= 26'd0; wcap <= {(A_W+1){1'b0}}; wbase <= {(A_W+1){1'b0}};
            g <= 13'd0; sp <= 26'd0; b <= 11'd0; r <= 5'd0; s <= 5'd0; kk <= {(KW+1){1'b0}};
            gstart <= 32'd0; gend <= 32'd0; gw <= {(A_W+1){1'b0}}; norm <= 32'd0;
            desc_block <= 11'd0; desc_r <= 5'd0; desc_s <= 5'd0; desc_first <= 1'b0; desc_last <= 1'b0;
            desc_new_group <= 1'b0; desc_len <= {(PW+1){1'b0}};
        end else begin
            mac_we <= 1'b0;
            if (desc_take) desc_valid <= 1'b0;
            if (swap_done) shadow_busy <= 1'b0;
            if (start) begin
                state <= S_SETUP;
                setup_step <= 2'd0;
                wt_released <= 32'd0;
                desc_valid <= 1'b0;
                shadow_busy <= 1'b0;
            end else begin
                case (state)
                    S_SETUP: begin
                        setup_step <= setup_step + 2'd1;
                        blocks_m1 <= ch_blk[10:0];
                        c_last    <= {1'b0, channel_m1[OW-1:0]} + 1'b1;
                        groups_m1 <= kernels_m1 >> KW;
                        k_last    <= {1'b0, kernels_m1[KW-1:0]} + 1'b1;
                        taps      <= ({6'd0, kh_m1} + 11'd1) * ({6'd0, kw_m1} + 11'd1);
                        rsc       <= {13'd0, taps} * ({11'd0, channel_m1} + 24'd1);
                        npos      <= ({13'd0, out_w_m1} + 26'd1) * ({13'd0, out_h_m1} + 26'd1);
                        wcap      <= ({{(A_W-4){1'b0}}, weight_bank_m1} + 1'b1) * DEPTH[A_W:0];
                        wbase     <= ({{(A_W-4){1'b0}}, data_bank_m1} + 1'b1) * DEPTH[A_W:0];
                        g <= 13'd0; sp <= 26'd0; b <= 11'd0; r <= 5'd0; s <= 5'd0;
                        gstart <= 32'd0; gw <= {(A_W+1){1'b0}};
                        if (setup_step == 2'd2) state <= S_GEND;
                    end
                    S_GEND: begin   // the group's end byte (in_group * R*S*C past its start)
                        gend  <= gstart + {{(31-KW){1'b0}}, in_group} * {8'd0, rsc};
                        state <= S_GWAIT;
                    end
                    S_GWAIT: if (ready_w) state <= S_RESTART;
                    S_RESTART: begin
                        kk <= {(KW+1){1'b0}};
                        state <= S_LOAD;
                    end
                    S_LOAD: begin
                        // kernels of the group from the window, the rest (past K) as zeros
                        if (!shadow_busy && (kk >= in_group || have)) begin
                            mac_we   <= 1'b1;
                            mac_k    <= kk[KW-1:0];
                            mac_data <= (kk < in_group) ? chunk : {AC*8{1'b0}};
                            kk <= kk + 1'b1;
                            if (kk == AK[KW:0] - 1'b1) state <= S_HAND;
                        end
                    end
                    S_HAND: if (!desc_valid || desc_take) begin
                        desc_valid <= 1'b1;
                        shadow_busy <= 1'b1;
                        desc_block <= b; desc_r <= r; desc_s <= s;
                        desc_first <= (b == 11'd0) && (r == 5'd0) && (s == 5'd0);
                        desc_last <= last_atom;
                        desc_new_group <= (b == 11'd0) && (r == 5'd0) && (s == 5'd0) && (sp == 26'd0);
                        desc_len <= len;
                        state <= S_NEXT;
                    end
                    S_NEXT: begin
                        kk <= {(KW+1){1'b0}};
                        if (!last_atom) begin
                            state <= S_LOAD;
                            if (s != kw_m1) s <= s + 5'd1;
                            else begin
                                s <= 5'd0;
                                if (r != kh_m1) r <= r + 5'd1;
                                else begin r <= 5'd0; b <= b + 11'd1; end
                            end
                        end else begin
                            b <= 11'd0; r <= 5'd0; s <= 5'd0;
                            if (!last_stripe) begin
                                sp <= sp + STRIPE[25:0];
                                state <= S_RESTART;
                            end else begin
                                // the group's entries wholly behind its end go back to CDMA
                                wt_released <= gend_e;
                                // after the last group everything goes back: CDMA then finishes whatever
                                // WEIGHT_BYTES says (more than CSC's kernels, a region too small for it)
                                if (last_group) begin
                                    wt_released <= 32'hffff_ffff;
                                    state <= S_DONE;
                                end
                                else begin
                                    norm <= {{(31-A_W){1'b0}}, gw} + (gend_e - gstart_e);
                                    state <= S_NORM;
                                end
                            end
                        end
                    end
                    S_NORM: begin   // the next group's first entry, wrapped into the region
                        if (norm >= {{(31-A_W){1'b0}}, wcap} && wcap != {(A_W+1){1'b0}})
                            norm <= norm - {{(31-A_W){1'b0}}, wcap};
                        else begin
                            gw <= norm[A_W:0];
                            gstart <= gend;
                            g <= g + 13'd1;
                            sp <= 26'd0;
                            state <= S_GEND;
                        end
                    end
                    default: ;
                endcase
            end
        end
    end
    assign done = (state == S_DONE) && !desc_valid;
endmodule
