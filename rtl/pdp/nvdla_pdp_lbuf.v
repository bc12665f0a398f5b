// One bank of the PDP pooling line buffer: a simple dual-port RAM with one write port and one registered
// read port. The read register keeps its value while `re` is low, so a stalled pipeline stage that owns the
// read data keeps its operands without a copy. Reading and writing one address in the same cycle returns
// the old content (the pooling core never needs the new one: it takes the current row from its input).
module nvdla_pdp_lbuf #(
    parameter DEPTH = 64,
    parameter WIDTH = 128,
    parameter AW    = 6
) (
    input  wire             clk,
    input  wire             we,
    input  wire [AW-1:0]    waddr,     // < DEPTH (the core guards it)
    input  wire [WIDTH-1:0] wdata,
    input  wire             re,
    input  wire [AW-1:0]    raddr,     // < DEPTH (the core guards it)
    output reg  [WIDTH-1:0] rdata
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (DEPTH < 1 || WIDTH < 1 || AW < 1 || DEPTH > (1 << AW)) begin
            $display("ERROR: nvdla_pdp_lbuf %m: DEPTH, WIDTH >= 1 and DEPTH <= 2**AW (the address reaches every word)");
            $finish;
        end
    end
    reg [WIDTH-1:0] mem [0:DEPTH-1];

    // No reset: a location is only read after the row that owns it was written.
    always @(posedge clk) begin
        if (we) mem[waddr] <= wdata;
        if (re) rdata <= mem[raddr];
    end
endmodule
