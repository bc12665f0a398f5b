// One CBUF bank: a simple dual-port RAM of DEPTH entries of PARTS parts (PART_W bits each), one write port
// with a write enable per part (CDMA writes an entry a memory atom at a time) and one read port with a
// registered output that holds while `re` is low (the reader's pipeline stalls). No reset on the array, so
// synthesis infers RAM.
module nvdla_cbuf_bank #(
    parameter DEPTH  = 512,
    parameter PARTS  = 1,
    parameter PART_W = 64
) (
    input  wire                    clk,
    input  wire [PARTS-1:0]        we,
    input  wire [AW-1:0]           waddr,
    input  wire [PARTS*PART_W-1:0] wdata,
    input  wire                    re,
    input  wire [AW-1:0]           raddr,
    output reg  [PARTS*PART_W-1:0] rdata
);
    localparam AW = $clog2(DEPTH);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (DEPTH < 2 || (DEPTH & (DEPTH - 1)) != 0 || PARTS < 1 || PART_W < 1) begin
            $display("ERROR: nvdla_cbuf_bank %m: DEPTH a power of two >= 2, PARTS >= 1, PART_W >= 1");
            $finish;
        end
    end

    reg [PARTS*PART_W-1:0] mem [0:DEPTH-1];
    integer p;
    always @(posedge clk) begin
        for (p = 0; p < PARTS; p = p + 1)
            if (we[p]) mem[waddr][p*PART_W +: PART_W] <= wdata[p*PART_W +: PART_W];
        if (re) rdata <= mem[raddr];
    end
endmodule
