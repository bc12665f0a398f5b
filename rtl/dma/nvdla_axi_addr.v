// The address side of the AXI DMA engines (nvdla_axi_rd's AR, nvdla_axi_wr's AW): transfer commands split
// into INCR bursts (nvdla_dma_burst_split), each shown only while fewer than MAX_OUTSTANDING bursts are in
// flight (counted from its acceptance to `done`: the last R beat, or the B response), with len, size, burst
// and ID of a single-ID master and the command's RAM type on a*user (NVDLA's *_RAM_TYPE: 1 MC = the primary
// memory, 0 CV = the CV SRAM) for the memory router (rtl/dma/nvdla_axi_route.v).
module nvdla_axi_addr #(
    parameter ADDR_W          = 32,
    parameter DATA_W          = 64,
    parameter LEN_W           = 16,
    parameter MAX_BURST       = 16,
    parameter MAX_OUTSTANDING = 8
) (
    input  wire              clk,
    input  wire              rst_n,
    input  wire              cmd_valid,
    output wire              cmd_ready,
    input  wire [ADDR_W-1:0] cmd_addr,
    input  wire [LEN_W-1:0]  cmd_beats,
    input  wire              cmd_ram_type,   // the command's memory (NVDLA RAM_TYPE: 1 MC, 0 CV)
    output wire              ax_valid,
    input  wire              ax_ready,
    output wire [ADDR_W-1:0] ax_addr,
    output wire [7:0]        ax_len,
    output wire [2:0]        ax_size,
    output wire [1:0]        ax_burst,
    output wire [3:0]        ax_id,
    output wire              ax_user,        // the burst's RAM type
    output wire [8:0]        ax_beats,       // the shown burst's beats, 1..MAX_BURST (= ax_len + 1)
    input  wire              done,           // a burst in flight has finished
    output wire              pending,        // a burst of the command is still to be shown
    output wire              in_flight       // bursts accepted and not yet done
);
    localparam BYTES = DATA_W / 8;
    localparam CNT_W = $clog2(MAX_OUTSTANDING + 1);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0; the splitter checks the
    // rest)
    initial begin
        if ((DATA_W != 32 && DATA_W != 64 && DATA_W != 128 && DATA_W != 256) || MAX_OUTSTANDING < 1) begin
            $display("ERROR: nvdla_axi_addr %m: DATA_W one of 32, 64, 128, 256 (the AXI sizes encoded), ",
                     "MAX_OUTSTANDING >= 1");
            $finish;
        end
    end

    wire              burst_valid;
    wire              burst_ready;
    wire [ADDR_W-1:0] burst_addr;
    wire [8:0]        burst_beats;

    nvdla_dma_burst_split #(.ADDR_W(ADDR_W), .BYTES(BYTES), .LEN_W(LEN_W), .MAX_BURST(MAX_BURST)) u_split (
        .clk(clk), .rst_n(rst_n),
        .cmd_valid(cmd_valid), .cmd_ready(cmd_ready), .cmd_addr(cmd_addr), .cmd_beats(cmd_beats),
        .burst_valid(burst_valid), .burst_ready(burst_ready), .burst_addr(burst_addr),
        .burst_beats(burst_beats)
    );

    reg  [CNT_W-1:0] outstanding;
    wire             room = outstanding < MAX_OUTSTANDING[CNT_W-1:0];
    wire             ax_fire = ax_valid & ax_ready;

    assign ax_valid    = burst_valid & room;
    assign burst_ready = ax_ready & room;
    assign ax_addr     = burst_addr;
    assign ax_beats    = burst_beats;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [8:0] axi_len = burst_beats - 9'd1;  // 0..255: bit 8 is always 0 (at most 256 beats a burst)
    /* verilator lint_on UNUSEDSIGNAL */
    assign ax_len   = axi_len[7:0];
    assign ax_size  = BYTES == 8 ? 3'd3 : (BYTES == 16 ? 3'd4 : (BYTES == 32 ? 3'd5 : 3'd2));
    assign ax_burst = 2'b01;  // INCR
    assign ax_id    = 4'd0;

    // The splitter takes a command only while it has no burst left of the one before (cmd_ready = idle), so
    // the type latched with a command holds for all of its bursts.
    reg ram_type_q;
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) ram_type_q <= 1'b1;
        else if (cmd_valid && cmd_ready) ram_type_q <= cmd_ram_type;
    end
    assign ax_user = ram_type_q;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) outstanding <= {CNT_W{1'b0}};
        else outstanding <= outstanding + {{(CNT_W-1){1'b0}}, ax_fire} - {{(CNT_W-1){1'b0}}, done};
    end

    assign pending   = burst_valid;
    assign in_flight = outstanding != {CNT_W{1'b0}};
endmodule
