// AXI4 read DMA: turns transfer commands into INCR bursts with up to MAX_OUTSTANDING bursts in flight
// (hides memory latency) and returns the read data in command order as a stream of bus beats.
// Single AXI ID, so the memory returns bursts in order. Each burst carries the RAM type of its command on
// m_axi_aruser (NVDLA's *_RAM_TYPE: 1 MC = the primary memory, 0 CV = the CV SRAM) for the memory router
// (rtl/dma/nvdla_axi_route.v); a command's bursts all carry the same type.
// BURSTS = 1: every command is one burst already (1..MAX_BURST beats, inside a 4 KiB page: SDP's arbiter
// issues bursts), so it goes to AR directly, without the splitter's register stage (one cycle less from a
// command to its AR, and one burst a cycle).
module nvdla_axi_rd #(
    parameter ADDR_W          = 32,
    parameter DATA_W          = 64,
    parameter LEN_W           = 16,
    parameter MAX_BURST       = 16,
    parameter MAX_OUTSTANDING = 8,
    parameter BURSTS          = 0
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
    localparam BYTES = DATA_W / 8;
    localparam CNT_W = $clog2(MAX_OUTSTANDING + 1);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if ((DATA_W != 32 && DATA_W != 64 && DATA_W != 128 && DATA_W != 256) || MAX_OUTSTANDING < 1 ||
            (BURSTS != 0 && BURSTS != 1) || (BURSTS == 1 && (LEN_W < 9 || MAX_BURST > 256))) begin
            $display("ERROR: nvdla_axi_rd %m: DATA_W one of 32, 64, 128, 256 (the AXI sizes encoded), ",
                     "MAX_OUTSTANDING >= 1, BURSTS 0 or 1 (with 1: LEN_W >= 9, MAX_BURST <= 256)");
            $finish;
        end
    end

    wire              burst_valid;
    wire              burst_ready;
    wire              pending;
    wire [ADDR_W-1:0] burst_addr;
    wire [8:0]        burst_beats;

    generate
        if (BURSTS == 0) begin : g_split
            nvdla_dma_burst_split #(.ADDR_W(ADDR_W), .BYTES(BYTES), .LEN_W(LEN_W), .MAX_BURST(MAX_BURST))
                u_split (
                .clk(clk), .rst_n(rst_n),
                .cmd_valid(cmd_valid), .cmd_ready(cmd_ready), .cmd_addr(cmd_addr), .cmd_beats(cmd_beats),
                .burst_valid(burst_valid), .burst_ready(burst_ready), .burst_addr(burst_addr),
                .burst_beats(burst_beats)
            );
            // The splitter takes a command only while it has no burst left of the one before (cmd_ready =
            // idle), so the type latched with a command holds for all of its bursts.
            reg ram_type_q;
            always @(posedge clk or negedge rst_n) begin
                if (!rst_n) ram_type_q <= 1'b1;
                else if (cmd_valid && cmd_ready) ram_type_q <= cmd_ram_type;
            end
            assign m_axi_aruser = ram_type_q;
            assign pending      = ~cmd_ready;   // a burst of the last command still to issue
        end else begin : g_bursts
            assign burst_valid  = cmd_valid;
            assign cmd_ready    = burst_ready;
            assign burst_addr   = cmd_addr;
            assign burst_beats  = cmd_beats[8:0];
            assign m_axi_aruser = cmd_ram_type;
            assign pending      = cmd_valid;
            /* verilator lint_off UNUSEDSIGNAL */
            wire unused_beats = |cmd_beats;   // the high bits of a burst's count are 0
            /* verilator lint_on UNUSEDSIGNAL */
        end
    endgenerate

    reg  [CNT_W-1:0] outstanding;
    wire             room = outstanding < MAX_OUTSTANDING[CNT_W-1:0];
    wire             ar_fire = m_axi_arvalid & m_axi_arready;
    wire             skid_ready;
    wire             last_fire = m_axi_rvalid & m_axi_rready & m_axi_rlast;

    assign m_axi_arvalid = burst_valid & room;
    assign burst_ready   = m_axi_arready & room;
    assign m_axi_araddr  = burst_addr;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [8:0] axi_len = burst_beats - 9'd1;  // 0..255: bit 8 is always 0 (at most 256 beats a burst)
    /* verilator lint_on UNUSEDSIGNAL */
    assign m_axi_arlen   = axi_len[7:0];
    assign m_axi_arsize  = BYTES == 8 ? 3'd3 : (BYTES == 16 ? 3'd4 : (BYTES == 32 ? 3'd5 : 3'd2));
    assign m_axi_arburst = 2'b01;  // INCR
    assign m_axi_arid    = 4'd0;
    assign m_axi_rready  = skid_ready;


    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) outstanding <= {CNT_W{1'b0}};
        else outstanding <= outstanding + {{(CNT_W-1){1'b0}}, ar_fire} - {{(CNT_W-1){1'b0}}, last_fire};
    end

    nvdla_skid #(.WIDTH(DATA_W)) u_out_skid (
        .clk(clk), .rst_n(rst_n),
        .in_valid(m_axi_rvalid), .in_ready(skid_ready), .in_data(m_axi_rdata),
        .out_valid(out_valid), .out_ready(out_ready), .out_data(out_data)
    );

    assign busy = pending | (outstanding != {CNT_W{1'b0}}) | out_valid;
endmodule
