// SDP operand unpacker (BRDMA/NRDMA/ERDMA side): bus beats -> operand atoms, as models/sdp/model.py _to_cube.
// One element takes bpe = (2 if DATA_USE is both else 1) * (2 if DATA_SIZE else 1) bytes, so one atom
// (ATOM elements) is bpe beats. Value k of element i starts at byte i*bpe + k*bpe/ways (ALU first, then
// MUL), little endian, sign-extended to 16 bits; a component not read is 0. Per kernel, the memory holds one
// atom per surface and each is repeated for the H*W atoms of its surface (read once, sent H*W times).
// Output lane i: [32i+15:32i] ALU value, [32i+31:32i+16] MUL value.
// INT16 processing (`half`, INT16 builds): an atom holds ATOM/2 elements, so it is bpe/2 beats, laid out as
// the first half of the INT8 atom of the same bpe (models/sdp/model.py _read_operands with cfg.lanes = ATOM/2);
// lanes ATOM/2 and up carry nothing. One-byte operands at INT16 are half a beat an atom: a beat holds two
// atoms, its low half first, then its high half unless the low one ends its line (per element: an odd
// width) or its block (per kernel, or any 1x1 cube, read packed: the last of an odd count of surfaces);
// the read side reads ceil(atoms / 2) beats a line (nvdla_sdp_rdma).
module nvdla_sdp_opnd #(
    parameter ATOM  = 8,
    parameter INT16 = 0      // 1: `half` selects INT16 processing's layout; 0: the input is ignored
) (
    input  wire              clk,
    input  wire              rst_n,
    input  wire              start,       // pulse: a new layer (the unit is idle then)
    input  wire [1:0]        data_use,    // 0 MUL, 1 ALU, 2 both (3 reads as MUL, as the model does)
    input  wire              data_size,   // 0: one byte, 1: two bytes per value
    input  wire              data_mode,   // 0: per kernel, 1: per element
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire              half,        // INT16 processing: ATOM/2 elements per atom (INT16 = 1 only)
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [12:0]       width_m1,
    input  wire [12:0]       height_m1,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [12:0]       surf_m1,     // processing surfaces - 1 (INT16 one-byte operands only)
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire              in_valid,
    output wire              in_ready,
    input  wire [ATOM*8-1:0] in_data,
    output wire              out_valid,
    input  wire              out_ready,
    output wire [ATOM*32-1:0] out_data,
    output wire              busy
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (ATOM < 1) begin
            $display("ERROR: nvdla_sdp_opnd %m: ATOM >= 1");
            $finish;
        end
    end
    localparam B = ATOM * 8;  // bits per beat

    wire       both   = data_use == 2'd2;
    wire       h16    = (INT16 == 1) & half;
    // beats of an atom - 1: 0, 1 or 3 (INT8 processing); 0 or 1 (INT16: half of them, at least one)
    wire [1:0] bpe_m1 = h16 ? {1'b0, both & data_size} : {both & data_size, both | data_size};

    reg  [1:0]        cnt;         // beats of the current atom already held in acc
    reg  [3*B-1:0]    acc;         // shift register, newest beat on top
    reg               ov;
    reg  [ATOM*32-1:0] od;
    reg  [12:0]       rep_w, rep_h;

    wire [4*B-1:0] beats = {in_data, acc};  // the atom's beats sit in the top bpe beats
    // INT16 one-byte operands (hb): `pos` is the atom's column (per element) or surface (per kernel, 1x1)
    wire       hb     = h16 & ~both & ~data_size;
    wire       kern   = ~data_mode | (width_m1 == 13'd0 & height_m1 == 13'd0);
    wire [12:0] pos_last = kern ? surf_m1 : width_m1;
    reg        sub;            // the held beat's high half is out
    reg [12:0] pos;
    wire       more   = hb & ~sub & (pos != pos_last);      // the held beat's high half is an atom too
    // the held beat (acc's top beat since its take) with its high half where the one-byte decode reads
    wire [4*B-1:0] high  = {{(B/2){1'b0}}, acc[2*B + B/2 +: B/2], {(3*B){1'b0}}};
    wire last_rep = data_mode | (rep_w == width_m1 & rep_h == height_m1);
    wire fire     = ov & out_ready;
    wire up       = fire & last_rep & more;                 // on to the held beat's high half
    // INT16: the atom's beats moved to where the INT8 atom of the same bpe starts (one beat lower for two
    // bytes per element, two for four; one-byte: the low half of the beat just taken, or the held beat's
    // high half), so the decode below serves both
    wire [4*B-1:0] full  = ~h16 ? beats : (both & data_size) ? beats >> (2*B) : (both | data_size) ? beats >> B
                         : up ? high : beats;
    wire load_ok  = ~ov | (out_ready & last_rep & ~more);
    wire last_beat = cnt == bpe_m1;
    assign in_ready = ~last_beat | load_ok;
    wire take = in_valid & in_ready;
    wire load = take & last_beat;

    // ---- decode the atom in `full` ----------------------------------------------------------------------
    reg [ATOM*32-1:0] dec;
    reg [15:0]        v, alu, mul;
    integer i;
    always @(*) begin
        for (i = 0; i < ATOM; i = i + 1) begin
            // one value per element: one byte (bpe 1, top beat) or two bytes (bpe 2, top two beats)
            if (data_size) v = full[2*B + 16*i +: 16];
            else           v = {{8{full[3*B + 8*i + 7]}}, full[3*B + 8*i +: 8]};
            if (both & data_size) begin
                alu = full[32*i +: 16];
                mul = full[32*i + 16 +: 16];
            end else if (both) begin
                alu = {{8{full[2*B + 16*i + 7]}}, full[2*B + 16*i +: 8]};
                mul = {{8{full[2*B + 16*i + 15]}}, full[2*B + 16*i + 8 +: 8]};
            end else if (data_use == 2'd1) begin
                alu = v;
                mul = 16'd0;
            end else begin
                alu = 16'd0;
                mul = v;
            end
            dec[32*i +: 32] = {mul, alu};
        end
    end

    assign out_valid = ov;
    assign out_data  = od;
    assign busy      = ov | (cnt != 2'd0);

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            cnt   <= 2'd0;
            ov    <= 1'b0;
            rep_w <= 13'd0;
            rep_h <= 13'd0;
            sub   <= 1'b0;
            pos   <= 13'd0;
        end else if (start) begin
            cnt   <= 2'd0;
            ov    <= 1'b0;
            rep_w <= 13'd0;
            rep_h <= 13'd0;
            sub   <= 1'b0;
            pos   <= 13'd0;
        end else begin
            if (fire & last_rep) begin
                pos <= (pos == pos_last) ? 13'd0 : pos + 13'd1;
                sub <= more;
            end
            if (take) cnt <= last_beat ? 2'd0 : cnt + 2'd1;
            if (fire) begin
                if (last_rep) begin
                    rep_w <= 13'd0;
                    rep_h <= 13'd0;
                end else if (rep_w == width_m1) begin
                    rep_w <= 13'd0;
                    rep_h <= rep_h + 13'd1;
                end else begin
                    rep_w <= rep_w + 13'd1;
                end
            end
            if (load) ov <= 1'b1;
            else if (fire & last_rep & ~more) ov <= 1'b0;
        end
    end

    // Data registers need no reset: acc is read only with cnt beats in it, od only while ov is set.
    always @(posedge clk) begin
        if (take) acc <= beats[4*B-1:B];
        if (load | up) od <= dec;
    end
endmodule
