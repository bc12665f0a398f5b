// AXI4 read DMA: turns transfer commands into INCR bursts with up to MAX_OUTSTANDING bursts in flight
// (hides memory latency) and returns the read data in command order as a stream of bus beats.
// Single AXI ID, so the memory returns bursts in order. Each burst carries the RAM type of its command on
// m_axi_aruser (NVDLA's *_RAM_TYPE: 1 MC = the primary memory, 0 CV = the CV SRAM) for the memory router
// (rtl/dma/nvdla_axi_route.v); a command's bursts all carry the same type.
module nvdla_axi_rd #(
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
    // AXI4 read address / data channels
    output wire              m_axi_arvalid,
    input  wire              m_axi_arready,
    output wire [ADDR_W-1:0] m_axi_araddr,
    output wire [7:0]        m_axi_arlen,
    output wire [2:0]        m_axi_arsize,
    output wire [1:0]        m_axi_arburst,
    output wire [3:0]        m_axi_arid,
    output wire              m_axi_aruser,   // the burst's RAM type, for the memory router
    input  wire              m_axi_rvalid,
    output wire              m_axi_rready,
    input  wire [DATA_W-1:0] m_axi_rdata,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [1:0]        m_axi_rresp,  // ignored, as NVIDIA's MCIF does: an error beat's data is used
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire              m_axi_rlast,
    // data out, in command order
    output wire              out_valid,
    input  wire              out_ready,
    output wire [DATA_W-1:0] out_data,
    output wire              busy
);
    // the AR channel: bursts, their bound in flight (up to the last R beat), RAM type (nvdla_axi_addr checks
    // the parameters)
    wire       skid_ready, in_flight;
    /* verilator lint_off UNUSEDSIGNAL */  // the read data needs no burst lengths: the beats carry RLAST
    wire [8:0] beats_unused;
    wire       pending_unused;
    /* verilator lint_on UNUSEDSIGNAL */
    nvdla_axi_addr #(.ADDR_W(ADDR_W), .DATA_W(DATA_W), .LEN_W(LEN_W), .MAX_BURST(MAX_BURST),
                     .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_addr (
        .clk(clk), .rst_n(rst_n),
        .cmd_valid(cmd_valid), .cmd_ready(cmd_ready), .cmd_addr(cmd_addr), .cmd_beats(cmd_beats),
        .cmd_ram_type(cmd_ram_type),
        .ax_valid(m_axi_arvalid), .ax_ready(m_axi_arready), .ax_addr(m_axi_araddr), .ax_len(m_axi_arlen),
        .ax_size(m_axi_arsize), .ax_burst(m_axi_arburst), .ax_id(m_axi_arid), .ax_user(m_axi_aruser),
        .ax_beats(beats_unused), .done(m_axi_rvalid & m_axi_rready & m_axi_rlast), .pending(pending_unused),
        .in_flight(in_flight)
    );
    assign m_axi_rready = skid_ready;

    nvdla_skid #(.WIDTH(DATA_W)) u_out_skid (
        .clk(clk), .rst_n(rst_n),
        .in_valid(m_axi_rvalid), .in_ready(skid_ready), .in_data(m_axi_rdata),
        .out_valid(out_valid), .out_ready(out_ready), .out_data(out_data)
    );

    assign busy = ~cmd_ready | in_flight | out_valid;
endmodule
