// SDP's walk of a cube whose 16-bit surfaces pair up under one INT8 processing atom (INT16 builds only):
// the 16to8 input (SDP_RDMA IN_PRECISION INT16, PROC_PRECISION INT8: ATOM/2 two-byte lanes per memory atom,
// ATOM lanes per processing atom) and the INT8 -> INT16 output (ATOM lanes processed, ATOM/2 per memory
// atom). Processing atom (s, h, w) is the memory atoms of surfaces 2s and 2s + 1 at (h, w); the second is
// not there when the cube's 16-bit surface count is odd and s is the last processing surface (`odd`).
// One single-beat command per memory atom, in processing order (s, h, w, then the pair):
//     address = base + (2s + k) * surface_stride + h * line_stride + w * ATOM_BYTES
// (models/sdp/model.py read_inputs / run_sdp with cfg.src_lanes / cfg.out_lanes). A 1x1 cube is packed: the
// caller uses nvdla_cube_walker for it (its atoms are back to back in the same order).
module nvdla_sdp_pair_walk #(
    parameter ATOM_BYTES = 8,
    parameter LEN_W      = 16
) (
    input  wire             clk,
    input  wire             rst_n,
    input  wire             start,            // pulse; the geometry inputs must hold until done
    input  wire [31:0]      base,
    input  wire [31:0]      line_stride,
    input  wire [31:0]      surface_stride,   // of the 16-bit memory surfaces
    input  wire [13:0]      width,            // atoms per line
    input  wire [13:0]      height,
    input  wire [13:0]      surfaces,         // processing (INT8) surfaces
    input  wire             odd,              // the last processing surface has one memory surface
    output wire             cmd_valid,
    input  wire             cmd_ready,
    output wire [31:0]      cmd_addr,
    output wire [LEN_W-1:0] cmd_beats,
    output wire             busy
);
    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (ATOM_BYTES < 2 || LEN_W < 1) begin
            $display("ERROR: nvdla_sdp_pair_walk %m: ATOM_BYTES >= 2 (two-byte lanes), LEN_W >= 1");
            $finish;
        end
    end

    reg        active, k;
    reg [13:0] col, line, surface;
    reg [31:0] col_addr, line_addr, surface_addr;   // (2s, h, w), (2s, h, 0), (2s, 0, 0)

    wire last_col     = col == width - 14'd1;
    wire last_line    = line == height - 14'd1;
    wire last_surface = surface == surfaces - 14'd1;
    wire last_k       = k | (odd & last_surface);
    wire fire         = cmd_valid & cmd_ready;
    wire [31:0] next_surface = surface_addr + {surface_stride[30:0], 1'b0};

    assign cmd_valid = active;
    assign cmd_addr  = k ? col_addr + surface_stride : col_addr;
    assign cmd_beats = {{(LEN_W-1){1'b0}}, 1'b1};
    assign busy      = active;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            active       <= 1'b0;
            k            <= 1'b0;
            col          <= 14'd0;
            line         <= 14'd0;
            surface      <= 14'd0;
            col_addr     <= 32'd0;
            line_addr    <= 32'd0;
            surface_addr <= 32'd0;
        end else if (start) begin
            active       <= width != 14'd0 && height != 14'd0 && surfaces != 14'd0;
            k            <= 1'b0;
            col          <= 14'd0;
            line         <= 14'd0;
            surface      <= 14'd0;
            col_addr     <= base;
            line_addr    <= base;
            surface_addr <= base;
        end else if (fire) begin
            if (!last_k) begin
                k <= 1'b1;
            end else begin
                k <= 1'b0;
                if (!last_col) begin
                    col      <= col + 14'd1;
                    col_addr <= col_addr + ATOM_BYTES;
                end else if (!last_line) begin
                    col       <= 14'd0;
                    line      <= line + 14'd1;
                    col_addr  <= line_addr + line_stride;
                    line_addr <= line_addr + line_stride;
                end else if (!last_surface) begin
                    col          <= 14'd0;
                    line         <= 14'd0;
                    surface      <= surface + 14'd1;
                    col_addr     <= next_surface;
                    line_addr    <= next_surface;
                    surface_addr <= next_surface;
                end else begin
                    active <= 1'b0;
                end
            end
        end
    end
endmodule
