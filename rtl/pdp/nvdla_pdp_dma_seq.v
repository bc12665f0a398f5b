// Command sequence of one PDP DMA side over all split-width passes: for each pass, every line of every
// surface of that pass's column band (nvdla_pdp_split gives the band). WRITE_SIDE = 0 walks the input
// (PDP_RDMA source) with input widths; WRITE_SIDE = 1 walks the output (PDP destination).
`include "nvdla_pdp_fields.vh"
`include "nvdla_pdp_rdma_fields.vh"

module nvdla_pdp_dma_seq #(
    parameter WRITE_SIDE = 0,
    parameter ATOM_BYTES = 8,
    parameter LEN_W      = 16
) (
    input  wire             clk,
    input  wire             rst_n,
    input  wire             start,            // pulse; configuration holds until done
    input  wire             elem16,           // int16 elements: an atom carries ATOM_BYTES/2 channels
    // the register bundles (rtl/gen/nvdla_pdp*_fields.vh): the geometry always comes from PDP's, the
    // addresses from PDP_RDMA's (read side) or PDP's (write side)
    /* verilator lint_off UNUSEDSIGNAL */  // each block reads its own fields of the bundle
    input  wire [`PDP_CFG_W-1:0]      cfg,
    input  wire [`PDP_RDMA_CFG_W-1:0] rdma_cfg,
    /* verilator lint_on UNUSEDSIGNAL */
    output wire             cmd_valid,
    input  wire             cmd_ready,
    output wire [31:0]      cmd_addr,
    output wire [LEN_W-1:0] cmd_beats,
    output wire             done              // pulse after the last command was accepted
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (ATOM_BYTES < 1 || (ATOM_BYTES & (ATOM_BYTES - 1)) != 0 || LEN_W < 1 || (WRITE_SIDE != 0 && WRITE_SIDE != 1)) begin
            $display("ERROR: nvdla_pdp_dma_seq %m: ATOM_BYTES a power of two (BYTE_SHIFT), LEN_W >= 1, WRITE_SIDE 0 or 1");
            $finish;
        end
    end
    localparam BYTE_SHIFT = $clog2(ATOM_BYTES);

    // this side's cube: input lines from PDP_RDMA's source, output lines to PDP's destination
    wire [12:0] height_m1      = WRITE_SIDE ? cfg[`PDP_CUBE_OUT_HEIGHT] : cfg[`PDP_CUBE_IN_HEIGHT];
    wire [12:0] channel_m1     = cfg[`PDP_CUBE_IN_CHANNEL];
    wire [31:0] base           = WRITE_SIDE ? cfg[`PDP_DST_BASE_ADDR_LOW] : rdma_cfg[`PDP_RDMA_SRC_BASE_ADDR_LOW];
    wire [31:0] line_stride    = WRITE_SIDE ? cfg[`PDP_DST_LINE_STRIDE] : rdma_cfg[`PDP_RDMA_SRC_LINE_STRIDE];
    wire [31:0] surface_stride = WRITE_SIDE ? cfg[`PDP_DST_SURFACE_STRIDE]
                                            : rdma_cfg[`PDP_RDMA_SRC_SURFACE_STRIDE];

    reg  [7:0]  pass;
    reg         running;
    reg         walker_start;
    wire        walker_busy;

    wire signed [19:0] in_start;
    wire [19:0]        out_start;
    wire [13:0]        in_width, out_width;
    /* verilator lint_off UNUSEDSIGNAL */
    wire               first_pass;
    /* verilator lint_on UNUSEDSIGNAL */
    wire               last_pass;

    nvdla_pdp_split u_split (
        .pass(pass), .cfg(cfg),
        .in_start(in_start), .in_width(in_width), .out_start(out_start), .out_width(out_width),
        .first(first_pass), .last(last_pass)
    );

    // Band start in bytes; the input band of a later pass may start left of the previous one's end.
    wire [31:0] start_col = WRITE_SIDE ? {12'b0, out_start} : {{12{in_start[19]}}, in_start};
    wire [31:0] band_base = base + (start_col << BYTE_SHIFT);
    wire [13:0] band_width = WRITE_SIDE ? out_width : in_width;
    // lanes per atom: ATOM_BYTES int8 or ATOM_BYTES/2 int16 elements (a line is as many atoms either way)
    wire [13:0] surfaces = ({1'b0, channel_m1} >> (elem16 ? BYTE_SHIFT - 1 : BYTE_SHIFT)) + 14'd1;

    nvdla_cube_walker #(.ADDR_W(32), .LEN_W(LEN_W)) u_walker (
        .clk(clk), .rst_n(rst_n), .start(walker_start),
        .base(band_base), .line_stride(line_stride), .surface_stride(surface_stride),
        .width({{(LEN_W-14){1'b0}}, band_width}), .height({1'b0, height_m1} + 14'd1), .surfaces(surfaces),
        .cmd_valid(cmd_valid), .cmd_ready(cmd_ready), .cmd_addr(cmd_addr), .cmd_beats(cmd_beats),
        .busy(walker_busy)
    );

    reg done_q;
    assign done = done_q;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            pass         <= 8'd0;
            running      <= 1'b0;
            walker_start <= 1'b0;
            done_q       <= 1'b0;
        end else begin
            walker_start <= 1'b0;
            done_q       <= 1'b0;
            if (start) begin
                pass         <= 8'd0;
                running      <= 1'b1;
                walker_start <= 1'b1;
            end else if (running && !walker_start && !walker_busy) begin
                if (last_pass) begin
                    running <= 1'b0;
                    done_q  <= 1'b1;
                end else begin
                    pass         <= pass + 8'd1;
                    walker_start <= 1'b1;
                end
            end
        end
    end
endmodule
