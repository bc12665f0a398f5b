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

    // the AW channel: bursts, their bound in flight (up to the B response; it also bounds the queue of W
    // lengths below), RAM type
    wire       aw_fire = m_axi_awvalid & m_axi_awready;
    wire [8:0] burst_beats;
    wire       pending, in_flight;
    nvdla_axi_addr #(.ADDR_W(ADDR_W), .DATA_W(DATA_W), .LEN_W(LEN_W), .MAX_BURST(MAX_BURST),
                     .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_addr (
        .clk(clk), .rst_n(rst_n),
        .cmd_valid(cmd_valid), .cmd_ready(cmd_ready), .cmd_addr(cmd_addr), .cmd_beats(cmd_beats),
        .cmd_ram_type(cmd_ram_type),
        .ax_valid(m_axi_awvalid), .ax_ready(m_axi_awready), .ax_addr(m_axi_awaddr), .ax_len(m_axi_awlen),
        .ax_size(m_axi_awsize), .ax_burst(m_axi_awburst), .ax_id(m_axi_awid), .ax_user(m_axi_awuser),
        .ax_beats(burst_beats), .done(m_axi_bvalid & m_axi_bready), .pending(pending),
        .in_flight(in_flight)
    );
    assign m_axi_bready = 1'b1;

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

    assign idle = cmd_ready & ~pending & ~in_flight & ~d_valid;
endmodule
