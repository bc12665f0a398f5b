// AXI4 write DMA: turns transfer commands into INCR bursts (up to MAX_OUTSTANDING awaiting their write
// response), sends the data stream on W in command order, and reports idle only when every burst's write
// response has come back, so a done interrupt raised on idle follows the last write landing in memory.
// Each burst carries the RAM type of its command on m_axi_awuser (NVDLA's *_RAM_TYPE: 1 MC = the primary
// memory, 0 CV = the CV SRAM) for the memory router (rtl/dma/nvdla_axi_route.v).
module nvdla_axi_wr #(
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
    input  wire              in_valid,
    output wire              in_ready,
    input  wire [DATA_W-1:0] in_data,
    // AXI4 write address / data / response channels
    output wire              m_axi_awvalid,
    input  wire              m_axi_awready,
    output wire [ADDR_W-1:0] m_axi_awaddr,
    output wire [7:0]        m_axi_awlen,
    output wire [2:0]        m_axi_awsize,
    output wire [1:0]        m_axi_awburst,
    output wire [3:0]        m_axi_awid,
    output wire              m_axi_awuser,   // the burst's RAM type, for the memory router
    output wire              m_axi_wvalid,
    input  wire              m_axi_wready,
    output wire [DATA_W-1:0] m_axi_wdata,
    output wire [DATA_W/8-1:0] m_axi_wstrb,
    output wire              m_axi_wlast,
    input  wire              m_axi_bvalid,
    output wire              m_axi_bready,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [1:0]        m_axi_bresp,  // ignored, as NVIDIA's MCIF does: an error response ends a burst
    /* verilator lint_on UNUSEDSIGNAL */
    output wire              idle
);
    localparam BYTES = DATA_W / 8;
    localparam CNT_W = $clog2(MAX_OUTSTANDING + 1);
    localparam PTR_W = $clog2(MAX_OUTSTANDING);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if ((DATA_W != 32 && DATA_W != 64 && DATA_W != 128 && DATA_W != 256) ||
            MAX_OUTSTANDING < 2 || (1 << PTR_W) != MAX_OUTSTANDING) begin
            $display("ERROR: nvdla_axi_wr %m: DATA_W one of 32, 64, 128, 256 (the AXI sizes encoded), ",
                     "MAX_OUTSTANDING a power of two >= 2 (the burst length queue's pointers wrap at it)");
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

    // Bursts awaiting a write response; also bounds the queue of W lengths below.
    reg  [CNT_W-1:0] outstanding;
    wire             room = outstanding < MAX_OUTSTANDING[CNT_W-1:0];
    wire             aw_fire = m_axi_awvalid & m_axi_awready;
    wire             b_fire = m_axi_bvalid & m_axi_bready;

    assign m_axi_awvalid = burst_valid & room;
    assign burst_ready   = m_axi_awready & room;
    assign m_axi_awaddr  = burst_addr;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [8:0] axi_len = burst_beats - 9'd1;  // 0..255: bit 8 is always 0 (at most 256 beats a burst)
    /* verilator lint_on UNUSEDSIGNAL */
    assign m_axi_awlen   = axi_len[7:0];
    assign m_axi_awsize  = BYTES == 8 ? 3'd3 : (BYTES == 16 ? 3'd4 : (BYTES == 32 ? 3'd5 : 3'd2));
    assign m_axi_awburst = 2'b01;  // INCR
    assign m_axi_awid    = 4'd0;
    assign m_axi_bready  = 1'b1;

    // The splitter takes a command only while it has no burst left of the one before (cmd_ready = idle), so
    // the type latched with a command holds for all of its bursts.
    reg ram_type_q;
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) ram_type_q <= 1'b1;
        else if (cmd_valid && cmd_ready) ram_type_q <= cmd_ram_type;
    end
    assign m_axi_awuser = ram_type_q;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) outstanding <= {CNT_W{1'b0}};
        else outstanding <= outstanding + {{(CNT_W-1){1'b0}}, aw_fire} - {{(CNT_W-1){1'b0}}, b_fire};
    end

    // Queue of burst lengths: the W channel sends bursts in AW order.
    reg [8:0]       len_q [0:MAX_OUTSTANDING-1];
    reg [PTR_W:0]   wr_ptr, rd_ptr;
    wire            len_avail = wr_ptr != rd_ptr;
    reg [8:0]       beat_in_burst;

    always @(posedge clk) begin
        if (aw_fire) len_q[wr_ptr[PTR_W-1:0]] <= burst_beats;
    end

    // W data comes from a skid buffer so in_ready does not depend on wready combinationally.
    wire              d_valid;
    wire              d_ready;
    wire [DATA_W-1:0] d_data;
    nvdla_skid #(.WIDTH(DATA_W)) u_in_skid (
        .clk(clk), .rst_n(rst_n),
        .in_valid(in_valid), .in_ready(in_ready), .in_data(in_data),
        .out_valid(d_valid), .out_ready(d_ready), .out_data(d_data)
    );

    wire w_last = beat_in_burst == len_q[rd_ptr[PTR_W-1:0]] - 9'd1;
    wire w_fire = m_axi_wvalid & m_axi_wready;

    assign m_axi_wvalid = d_valid & len_avail;
    assign d_ready      = m_axi_wready & len_avail;
    assign m_axi_wdata  = d_data;
    assign m_axi_wstrb  = {BYTES{1'b1}};
    assign m_axi_wlast  = w_last;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            wr_ptr        <= {(PTR_W+1){1'b0}};
            rd_ptr        <= {(PTR_W+1){1'b0}};
            beat_in_burst <= 9'd0;
        end else begin
            if (aw_fire) wr_ptr <= wr_ptr + 1'b1;
            if (w_fire) begin
                if (w_last) begin
                    rd_ptr        <= rd_ptr + 1'b1;
                    beat_in_burst <= 9'd0;
                end else begin
                    beat_in_burst <= beat_in_burst + 9'd1;
                end
            end
        end
    end

    // idle already in the cycle the last write response is taken (bready is always 1): the unit's done
    // follows one cycle later, not two
    wire last_b = b_fire & (outstanding == {{(CNT_W-1){1'b0}}, 1'b1});
    assign idle = cmd_ready & ~burst_valid & ((outstanding == {CNT_W{1'b0}}) | last_b) & ~d_valid;
endmodule
