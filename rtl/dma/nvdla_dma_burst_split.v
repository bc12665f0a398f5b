// Splits a transfer command (byte address, number of bus beats) into AXI INCR bursts of at most MAX_BURST
// beats that never cross a 4 KiB boundary (an AXI rule). Addresses are aligned to the bus width.
module nvdla_dma_burst_split #(
    parameter ADDR_W    = 32,
    parameter BYTES     = 8,      // bus width in bytes
    parameter LEN_W     = 16,     // width of a command's beat count
    parameter MAX_BURST = 16
) (
    input  wire              clk,
    input  wire              rst_n,
    input  wire              cmd_valid,
    output wire              cmd_ready,
    input  wire [ADDR_W-1:0] cmd_addr,
    input  wire [LEN_W-1:0]  cmd_beats,
    output wire              burst_valid,
    input  wire              burst_ready,
    output wire [ADDR_W-1:0] burst_addr,
    output wire [8:0]        burst_beats  // 1..MAX_BURST (AXI len = burst_beats - 1)
);
    localparam BYTE_SHIFT = $clog2(BYTES);
    localparam PAGE_BEATS = 4096 / BYTES;

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (ADDR_W < 12 || BYTES < 1 || BYTES > 2048 || (1 << BYTE_SHIFT) != BYTES || LEN_W < 1 ||
            MAX_BURST < 1 || MAX_BURST > 256) begin
            $display("ERROR: nvdla_dma_burst_split %m: ADDR_W >= 12 (a 4 KiB page offset), BYTES a power of two ",
                     "<= 2048, LEN_W >= 1, 1 <= MAX_BURST <= 256 (an AXI INCR burst)");
            $finish;
        end
    end

    reg              active;
    reg [ADDR_W-1:0] addr;
    reg [LEN_W-1:0]  remaining;

    localparam CW = (LEN_W > 13) ? LEN_W : 13;  // wide enough for a count and for a page of beats

    // beats left before the next 4 KiB boundary
    wire [CW-1:0] to_page = PAGE_BEATS[CW-1:0] - {{(CW-12+BYTE_SHIFT){1'b0}}, addr[11:BYTE_SHIFT]};
    reg  [CW-1:0] beats;
    always @(*) begin
        beats = {{(CW-LEN_W){1'b0}}, remaining};
        if (beats > MAX_BURST[CW-1:0]) beats = MAX_BURST[CW-1:0];
        if (to_page < beats) beats = to_page;
    end

    assign cmd_ready   = ~active;
    assign burst_valid = active;
    assign burst_addr  = addr;
    assign burst_beats = beats[8:0];

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            active    <= 1'b0;
            addr      <= {ADDR_W{1'b0}};
            remaining <= {LEN_W{1'b0}};
        end else if (!active) begin
            if (cmd_valid && cmd_beats != {LEN_W{1'b0}}) begin
                active    <= 1'b1;
                addr      <= cmd_addr;
                remaining <= cmd_beats;
            end
        end else if (burst_ready) begin
            addr      <= addr + ({{(ADDR_W-9){1'b0}}, beats[8:0]} << BYTE_SHIFT);
            remaining <= remaining - beats[LEN_W-1:0];
            active    <= remaining != beats[LEN_W-1:0];
        end
    end
endmodule
