// Walks a feature cube in NVDLA's memory layout (surface, line, then the atoms of a line) and emits one
// transfer command per line: address = base + surface * surface_stride + line * line_stride, with
// `width` bus beats (nv_small: one 8-byte atom per 64-bit beat). Lines are never merged, as in NVDLA.
// LINE_MAJOR = 1 walks line by line instead, every surface of a line before the next line (CDMA's feature
// read: a whole slice of the input, all its channels, arrives before the next, as NVIDIA's CDMA_dc reads).
module nvdla_cube_walker #(
    parameter ADDR_W     = 32,
    parameter LEN_W      = 16,
    parameter LINE_MAJOR = 0     // 1: every surface of a line before the next line
) (
    input  wire              clk,
    input  wire              rst_n,
    input  wire              start,          // pulse; the geometry inputs must hold until done
    input  wire [ADDR_W-1:0] base,
    input  wire [31:0]       line_stride,
    input  wire [31:0]       surface_stride,
    input  wire [LEN_W-1:0]  width,          // beats per line
    input  wire [13:0]       height,         // lines per surface
    input  wire [13:0]       surfaces,
    output wire              cmd_valid,
    input  wire              cmd_ready,
    output wire [ADDR_W-1:0] cmd_addr,
    output wire [LEN_W-1:0]  cmd_beats,
    output wire              busy
);
    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (ADDR_W < 1 || ADDR_W > 32 || LEN_W < 1 || LINE_MAJOR < 0 || LINE_MAJOR > 1) begin
            $display("ERROR: nvdla_cube_walker %m: 1 <= ADDR_W <= 32 (the strides are 32 bits), LEN_W >= 1, ",
                     "LINE_MAJOR 0 or 1");
            $finish;
        end
    end

    // the inner walk (lines of a surface, or surfaces of a line) and the outer one
    wire [31:0] in_stride  = (LINE_MAJOR != 0) ? surface_stride : line_stride;
    wire [31:0] out_stride = (LINE_MAJOR != 0) ? line_stride : surface_stride;
    wire [13:0] in_count   = (LINE_MAJOR != 0) ? surfaces : height;
    wire [13:0] out_count  = (LINE_MAJOR != 0) ? height : surfaces;

    reg              active;
    reg [13:0]       inner, outer;
    reg [ADDR_W-1:0] line_addr, outer_addr;

    wire last_inner = inner == in_count - 14'd1;
    wire last_outer = outer == out_count - 14'd1;
    wire fire       = cmd_valid & cmd_ready;

    assign cmd_valid = active;
    assign cmd_addr  = line_addr;
    assign cmd_beats = width;
    assign busy      = active;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            active     <= 1'b0;
            inner      <= 14'd0;
            outer      <= 14'd0;
            line_addr  <= {ADDR_W{1'b0}};
            outer_addr <= {ADDR_W{1'b0}};
        end else if (start) begin
            // an empty cube (a zero count) issues nothing
            active     <= height != 14'd0 && surfaces != 14'd0 && width != {LEN_W{1'b0}};
            inner      <= 14'd0;
            outer      <= 14'd0;
            line_addr  <= base;
            outer_addr <= base;
        end else if (fire) begin
            if (!last_inner) begin
                inner     <= inner + 14'd1;
                line_addr <= line_addr + in_stride[ADDR_W-1:0];
            end else if (!last_outer) begin
                inner      <= 14'd0;
                outer      <= outer + 14'd1;
                line_addr  <= outer_addr + out_stride[ADDR_W-1:0];
                outer_addr <= outer_addr + out_stride[ADDR_W-1:0];
            end else begin
                active <= 1'b0;
            end
        end
    end
endmodule
