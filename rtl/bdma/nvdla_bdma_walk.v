// BDMA line walker: the start address of every line of one operation's side (source or destination), in
// the hardware's order (surfaces outer, lines inner), one per accepted command. As NVIDIA's load and store
// sides do, a surface restarts from the previous surface's start plus the surface stride, so a zero stride
// revisits the same addresses. Addresses are 32-bit and wrap (the subsystem's AXI address; the driver keeps
// a copy below 4 GiB). `busy` is high from `start` until the last line's command is accepted.
module nvdla_bdma_walk (
    input  wire        clk,
    input  wire        rst_n,
    input  wire        start,        // load the operation (ignored while busy)
    input  wire [31:0] base,
    input  wire [31:0] line_stride,
    input  wire [31:0] surf_stride,
    input  wire [23:0] lines_m1,     // LINE_REPEAT.NUMBER: lines per surface - 1
    input  wire [23:0] surfs_m1,     // SURF_REPEAT.NUMBER: surfaces - 1
    output wire        cmd_valid,
    input  wire        cmd_ready,
    output wire [31:0] cmd_addr,
    output wire        busy
);
    reg        active;
    reg [31:0] line_addr, surf_addr, l_stride, s_stride;
    reg [23:0] line_cnt, surf_cnt, n_lines, n_surfs;

    wire fire      = active & cmd_ready;
    wire surf_last = (line_cnt == n_lines);
    wire cube_last = surf_last & (surf_cnt == n_surfs);

    assign cmd_valid = active;
    assign cmd_addr  = line_addr;
    assign busy      = active;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            active    <= 1'b0;
            line_addr <= 32'h0;
            surf_addr <= 32'h0;
            l_stride  <= 32'h0;
            s_stride  <= 32'h0;
            line_cnt  <= 24'h0;
            surf_cnt  <= 24'h0;
            n_lines   <= 24'h0;
            n_surfs   <= 24'h0;
        end else if (!active) begin
            if (start) begin
                active    <= 1'b1;
                line_addr <= base;
                surf_addr <= base;
                l_stride  <= line_stride;
                s_stride  <= surf_stride;
                line_cnt  <= 24'h0;
                surf_cnt  <= 24'h0;
                n_lines   <= lines_m1;
                n_surfs   <= surfs_m1;
            end
        end else if (fire) begin
            if (cube_last) begin
                active <= 1'b0;
            end else if (surf_last) begin
                line_cnt  <= 24'h0;
                surf_cnt  <= surf_cnt + 24'd1;
                line_addr <= surf_addr + s_stride;
                surf_addr <= surf_addr + s_stride;
            end else begin
                line_cnt  <= line_cnt + 24'd1;
                line_addr <= line_addr + l_stride;
            end
        end
    end
endmodule
