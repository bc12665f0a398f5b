// One NVDLA DMA stall counter (a D_PERF_*_STALL statistic; definitions and sources: docs/perf_counters.md).
// Counts the cycles `inc` is high while `en` (its D_PERF_ENABLE field of the running layer) is set, and
// wraps at 32 bits, as NVIDIA's 32-bit stall counters do. CLEAR says when a layer's start restarts it from 0,
// following NVIDIA's RTL for each counter:
//   0  never: PDP, PDP_RDMA, CDP and CDP_RDMA (NVIDIA's clear only acts in a cycle that also counts a stall,
//      which the clear condition, an accepted request, excludes: the count runs on from reset);
//   1  when the layer starts with `en` set: SDP's B/N/E RDMA and WDMA (a disabled counter keeps its value);
//   2  at every start: SDP's MRDMA (its enable is sampled at the start, so a disabled one reads 0).
// `start` and `inc` never come in the same cycle (no request is out when a layer starts); start wins.
module nvdla_perf_counter #(
    parameter CLEAR = 1
) (
    input  wire        clk,
    input  wire        rst_n,
    input  wire        start,
    input  wire        en,
    input  wire        inc,
    output reg  [31:0] count
);
    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (CLEAR < 0 || CLEAR > 2) begin
            $display("ERROR: nvdla_perf_counter %m: CLEAR 0 (never), 1 (when enabled) or 2 (always)");
            $finish;
        end
    end

    wire clear = start & ((CLEAR == 2) | ((CLEAR == 1) & en));

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n)          count <= 32'd0;
        else if (clear)      count <= 32'd0;
        else if (en & inc)   count <= count + 32'd1;
    end
endmodule
