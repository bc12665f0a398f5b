// One NVDLA DMA read-latency counter (CDMA's D_PERF_DAT_READ_LATENCY, D_PERF_WT_READ_LATENCY; definitions:
// docs/perf_counters.md), as NVIDIA's CDMA counts it (NV_NVDLA_CDMA_dc.v / _wt.v, `ltc_1` and `ltc_2`):
// a count of the read requests outstanding (one more a cycle after a request is accepted, one fewer a cycle
// after its last response beat is taken; it stops moving at 511, as NVIDIA's 9-bit count does) and the
// latency itself, one more every cycle in which that count is not 0, saturating at 2^32 - 1. Both move only
// while `en` (the layer's D_PERF_ENABLE.DMA_EN) and restart at every layer's start (NVIDIA clears them at
// the layer switch). With one request at a time it counts each request's cycles from its acceptance to its
// last beat; requests that overlap count their cycles once.
module nvdla_perf_latency (
    input  wire        clk,
    input  wire        rst_n,
    input  wire        start,
    input  wire        en,
    input  wire        req,       // a read request accepted (AR handshake)
    input  wire        rsp,       // a request's last response beat taken (R handshake with RLAST)
    output reg  [31:0] count
);
    reg       req_q, rsp_q;
    reg [8:0] outs;
    wire      full = outs == 9'd511;
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            req_q <= 1'b0; rsp_q <= 1'b0; outs <= 9'd0; count <= 32'd0;
        end else begin
            req_q <= req & en;
            rsp_q <= rsp & en;
            if (start) begin
                outs <= 9'd0;
                count <= 32'd0;
            end else if (en) begin
                if (!full && req_q && !rsp_q) outs <= outs + 9'd1;
                else if (!full && rsp_q && !req_q && outs != 9'd0) outs <= outs - 9'd1;
                if (outs != 9'd0 && count != 32'hFFFF_FFFF) count <= count + 32'd1;
            end
        end
    end
endmodule
