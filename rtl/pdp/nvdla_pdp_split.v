// Geometry of one pass of PDP's split-width mode (seed 001 "Offline - split width"; NVDLA's RDMA
// sequence): SPLIT_NUM = 0 means one pass over the whole cube; SPLIT_NUM = n > 0 means n + 1 passes.
// Pass 0 reads PARTIAL_WIDTH_IN_FIRST columns from column 0; pass p > 0 starts
// (kernel_w - stride_w) columns n_before the end of the previous pass, so windows that straddle two passes see
// all their inputs, and reads MID (or LAST for the final pass) plus that overlap. Output passes tile the
// output width with no overlap. Register fields are "value minus one" encoded, as NVDLA stores them.
// Combinational: each user (read DMA, write DMA, pooling core) asks for the pass it is working on.
`include "nvdla_pdp_fields.vh"

module nvdla_pdp_split (
    input  wire [7:0]         pass,
    // the PDP register bundle (rtl/gen/nvdla_pdp_fields.vh): SPLIT_NUM, cube and partial widths, kernel
    /* verilator lint_off UNUSEDSIGNAL */  // each block reads its own fields of the bundle
    input  wire [`PDP_CFG_W-1:0] cfg,
    /* verilator lint_on UNUSEDSIGNAL */
    output reg  signed [19:0] in_start,    // first input column of the pass (atoms from the base address)
    output reg  [13:0]        in_width,    // input columns the pass reads
    output reg  [19:0]        out_start,   // first output column of the pass
    output reg  [13:0]        out_width,   // output columns the pass writes
    output wire               first,       // the pass gets the left padding
    output wire               last         // the pass gets the right padding
);
    wire [7:0]  split_num         = cfg[`PDP_SPLIT_NUM];
    wire [12:0] cube_in_width_m1  = cfg[`PDP_CUBE_IN_WIDTH];
    wire [12:0] cube_out_width_m1 = cfg[`PDP_CUBE_OUT_WIDTH];
    wire [9:0]  in_first_m1       = cfg[`PDP_PARTIAL_WIDTH_IN_FIRST];
    wire [9:0]  in_mid_m1         = cfg[`PDP_PARTIAL_WIDTH_IN_MID];
    wire [9:0]  in_last_m1        = cfg[`PDP_PARTIAL_WIDTH_IN_LAST];
    wire [9:0]  out_first_m1      = cfg[`PDP_PARTIAL_WIDTH_OUT_FIRST];
    wire [9:0]  out_mid_m1        = cfg[`PDP_PARTIAL_WIDTH_OUT_MID];
    wire [9:0]  out_last_m1       = cfg[`PDP_PARTIAL_WIDTH_OUT_LAST];
    wire [3:0]  kernel_w_m1       = cfg[`PDP_KERNEL_WIDTH];
    wire [3:0]  stride_w_m1       = cfg[`PDP_KERNEL_STRIDE_WIDTH];

    wire        split   = split_num != 8'd0;
    wire [7:0]  n_before  = pass - 8'd1;     // mid passes n_before this one (valid for pass > 0)
    wire signed [5:0] overlap = $signed({2'b00, kernel_w_m1}) - $signed({2'b00, stride_w_m1});

    assign first = pass == 8'd0;
    assign last  = !split || pass == split_num;

    always @(*) begin
        if (!split) begin
            in_start  = 20'sd0;
            in_width  = {1'b0, cube_in_width_m1} + 14'd1;
            out_start = 20'd0;
            out_width = {1'b0, cube_out_width_m1} + 14'd1;
        end else if (first) begin
            in_start  = 20'sd0;
            in_width  = {4'b0, in_first_m1} + 14'd1;
            out_start = 20'd0;
            out_width = {4'b0, out_first_m1} + 14'd1;
        end else begin
            in_start  = $signed({10'b0, in_first_m1} + 20'd1 + n_before * ({10'b0, in_mid_m1} + 20'd1))
                        - {{14{overlap[5]}}, overlap};
            in_width  = (last ? {4'b0, in_last_m1} : {4'b0, in_mid_m1}) + 14'd1 + {{8{overlap[5]}}, overlap};
            out_start = {10'b0, out_first_m1} + 20'd1 + n_before * ({10'b0, out_mid_m1} + 20'd1);
            out_width = (last ? {4'b0, out_last_m1} : {4'b0, out_mid_m1}) + 14'd1;
        end
    end
endmodule
