// Command sequence of one CDP DMA side (CDP_RDMA source or CDP destination) in the CDP stream order
// (docs/CONTRACTS.md "CDP core"): for each line h, for each width chunk k (columns [k*CHUNK,
// min((k+1)*CHUNK, W))), for each surface s, one command of that chunk's atoms:
//     address = base + h * line_stride + k * CHUNK * ATOM_BYTES + s * surface_stride
//     beats   = min(CHUNK, W - k * CHUNK)
// Walking the surfaces innermost puts every channel of a pixel into the datapath within CHUNK * surfaces
// atoms, so the LRN window across atom boundaries needs only one chunk of buffering.
// The addresses are accumulated (no multipliers): line, chunk and command address registers.
`include "nvdla_dma_surf.vh"
module nvdla_cdp_dma_seq #(
    parameter ATOM_BYTES = 8,
    parameter CHUNK      = 8,     // pixels per width chunk
    parameter LEN_W      = 16
) (
    input  wire             clk,
    input  wire             rst_n,
    input  wire             start,            // pulse; the configuration holds until done
    input  wire             elem16,           // int16 elements: an atom carries ATOM_BYTES/2 channels
    input  wire [12:0]      width_m1,         // cube dims, value-minus-one register encodings
    input  wire [12:0]      height_m1,
    input  wire [12:0]      channel_m1,
    // this side in memory: the DMA_SURF sub-bundle (rtl/gen/nvdla_dma_surf.vh) of CDP_RDMA's source or
    // CDP's destination, assembled by `CDP_RDMA_DMA_SURF(rdma_cfg) / `CDP_DMA_SURF(cfg)
    input  wire [`DMA_SURF_W-1:0] surf,
    // commands to the AXI read or write engine (nvdla_axi_rd / nvdla_axi_wr)
    output wire             cmd_valid,
    input  wire             cmd_ready,
    output wire [31:0]      cmd_addr,
    output wire [LEN_W-1:0] cmd_beats,
    output reg              done              // pulse after the last command was accepted
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (ATOM_BYTES < 1 || (ATOM_BYTES & (ATOM_BYTES - 1)) != 0 || CHUNK < 1 || CHUNK >= (1 << 14) || LEN_W < 1) begin
            $display("ERROR: nvdla_cdp_dma_seq %m: ATOM_BYTES a power of two (BYTE_SHIFT), 1 <= CHUNK < 2**14 (CHUNK_COLS), LEN_W >= 1");
            $finish;
        end
    end
    localparam BYTE_SHIFT = $clog2(ATOM_BYTES);
    localparam [31:0] CHUNK_BYTES = CHUNK * ATOM_BYTES;
    localparam [13:0] CHUNK_COLS  = CHUNK;

    wire [31:0] base           = surf[`DMA_SURF_BASE];
    wire [31:0] line_stride    = surf[`DMA_SURF_LINE_STRIDE];
    wire [31:0] surface_stride = surf[`DMA_SURF_SURFACE_STRIDE];

    reg         active;
    reg  [12:0] line;          // h
    reg  [12:0] surface;       // s
    reg  [13:0] cols_left;     // W - k * CHUNK: columns from this chunk to the end of the line
    reg  [31:0] line_addr;     // base + h * line_stride
    reg  [31:0] chunk_addr;    // line_addr + k * CHUNK_BYTES
    reg  [31:0] addr;          // chunk_addr + s * surface_stride

    // lanes per atom: ATOM_BYTES int8 or ATOM_BYTES/2 int16 elements (a line is as many atoms either way)
    wire [12:0] last_surface = channel_m1 >> (elem16 ? BYTE_SHIFT - 1 : BYTE_SHIFT);
    wire        at_last_surface = surface == last_surface;
    wire        at_last_chunk   = cols_left <= CHUNK_COLS;
    wire        at_last_line    = line == height_m1;
    wire        fire            = cmd_valid & cmd_ready;
    wire [13:0] beats14         = at_last_chunk ? cols_left : CHUNK_COLS;

    assign cmd_valid = active;
    assign cmd_addr  = addr;
    assign cmd_beats = {{(LEN_W-14){1'b0}}, beats14};

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            active     <= 1'b0;
            done       <= 1'b0;
            line       <= 13'd0;
            surface    <= 13'd0;
            cols_left  <= 14'd0;
            line_addr  <= 32'd0;
            chunk_addr <= 32'd0;
            addr       <= 32'd0;
        end else begin
            done <= 1'b0;
            if (start) begin
                active     <= 1'b1;
                line       <= 13'd0;
                surface    <= 13'd0;
                cols_left  <= {1'b0, width_m1} + 14'd1;
                line_addr  <= base;
                chunk_addr <= base;
                addr       <= base;
            end else if (fire) begin
                if (!at_last_surface) begin
                    surface <= surface + 13'd1;
                    addr    <= addr + surface_stride;
                end else if (!at_last_chunk) begin
                    surface    <= 13'd0;
                    cols_left  <= cols_left - CHUNK_COLS;
                    chunk_addr <= chunk_addr + CHUNK_BYTES;
                    addr       <= chunk_addr + CHUNK_BYTES;
                end else if (!at_last_line) begin
                    surface    <= 13'd0;
                    line       <= line + 13'd1;
                    cols_left  <= {1'b0, width_m1} + 14'd1;
                    line_addr  <= line_addr + line_stride;
                    chunk_addr <= line_addr + line_stride;
                    addr       <= line_addr + line_stride;
                end else begin
                    active <= 1'b0;
                    done   <= 1'b1;
                end
            end
        end
    end
endmodule
