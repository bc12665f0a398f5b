// Rubik's reorder buffer: two banks (one filled from memory while the other drains to memory) of 32 byte
// lanes x 64 columns. An atom stored by column puts its byte b in lane b (a feature atom: lane = channel
// byte); a plane stored by row puts its elements along one lane (INT8: plane j = lane j) or a lane pair
// (INT16/FP16: plane j = lanes 2j (low bytes) and 2j+1 (high bytes)). Split stores input atoms by column and
// reads plane lines by row; merge the reverse; contract stores and reads whole atoms by column (slots).
//   write: kind 0 column `col` <- data; kind 1 plane `plane`, segment `seg` (INT8: columns 32*seg..+31,
//          INT16: 16*seg..+15) <- data.
//   read (registered: rd_data the cycle after rd_en): kind 0 column `col`, lanes >= keep_bytes read 0
//          (merge: the channels past C); kind 1 plane `plane` segment `seg`, columns >= keep_cols read 0
//          (split: the bytes past the line's last element).
// Flops rather than RAM: a column access touches every lane, a row access one or two lanes' 32 columns.
module nvdla_rubik_buf (
    input  wire         clk,
    input  wire         rst_n,
    input  wire         byte_data,     // INT8 (1-byte elements), else 2-byte
    input  wire         wr_en,
    input  wire         wr_bank,
    input  wire         wr_kind,
    input  wire [5:0]   wr_col,
    input  wire [4:0]   wr_plane,
    input  wire [1:0]   wr_seg,
    input  wire [255:0] wr_data,
    input  wire         rd_en,
    input  wire         rd_bank,
    input  wire         rd_kind,
    input  wire [5:0]   rd_col,
    input  wire [4:0]   rd_plane,
    input  wire [1:0]   rd_seg,
    input  wire [6:0]   keep_bytes,
    input  wire [6:0]   keep_cols,
    output reg  [255:0] rd_data
);
    reg [7:0] mem [0:4095];  // bank*2048 + lane*64 + column

    // one loop variable per always block: a shared one would be driven by both (Yosys: conflicting drivers)
    integer wi;
    always @(posedge clk) begin
        if (wr_en) begin
            for (wi = 0; wi < 32; wi = wi + 1) begin
                if (!wr_kind)
                    mem[{wr_bank, wi[4:0], wr_col}] <= wr_data[8*wi +: 8];
                else if (byte_data)
                    mem[{wr_bank, wr_plane, wr_seg[0], wi[4:0]}] <= wr_data[8*wi +: 8];
                else  // element i/2 of the segment: low byte to lane 2j, high byte to lane 2j+1
                    mem[{wr_bank, wr_plane[3:0], wi[0], wr_seg, wi[4:1]}] <= wr_data[8*wi +: 8];
            end
        end
    end

    // the read: the flops' bytes registered on rd_en (in the clocked block, so that a simulator evaluates the
    // 32 byte selects only on a read, not every cycle; the same logic: a mux per lane into rd_data's flops)
    integer ri;
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            rd_data <= 256'h0;
        end else if (rd_en) begin
            for (ri = 0; ri < 32; ri = ri + 1) begin
                if (!rd_kind)
                    rd_data[8*ri +: 8] <= ({2'b00, ri[4:0]} < keep_bytes) ? mem[{rd_bank, ri[4:0], rd_col}]
                                                                          : 8'h00;
                else if (byte_data)  // column {seg[0], lane}
                    rd_data[8*ri +: 8] <= ({1'b0, rd_seg[0], ri[4:0]} < keep_cols)
                                          ? mem[{rd_bank, rd_plane, rd_seg[0], ri[4:0]}] : 8'h00;
                else                 // column {seg, lane / 2}
                    rd_data[8*ri +: 8] <= ({1'b0, rd_seg, ri[4:1]} < keep_cols)
                                          ? mem[{rd_bank, rd_plane[3:0], ri[0], rd_seg, ri[4:1]}] : 8'h00;
            end
        end
    end
endmodule
