// SDP's datapath core (nvdla_sdp_core) at the configuration's lanes (issue 29): LANES elements a cycle (the
// BS/BN throughput) against the DMA side's atom of ATOM elements a beat. LANES = ATOM: the core itself, as
// before. LANES < ATOM: each of the four input streams (the input with, CONV = 1, its 32-bit on-the-fly
// lanes; the BS, BN, EW operands) goes through its own gearbox (nvdla_gear_split) into LANES-element
// sub-beats, the core runs at ATOM = LANES (its LUT at LUT_LANES behind the LUT's own gearbox when fewer),
// and nvdla_gear_join rebuilds the output atoms. Every element is computed alone and the streams stay in
// the same order, so results and statistics are the core's at any LANES (its counters count every
// sub-beat's lanes; they are all elements, as LANES < ATOM needs INT16 = 0: INT16 processing's half atoms
// and the FP16 lanes are positional, so those configurations keep the core atom wide).
// Ports, stream contract and configuration as nvdla_sdp_core's (docs/CONTRACTS.md "SDP core"); an operand
// stream not enabled is never taken (its gearbox sees no valid and its ready stays low), as in the core.
`include "nvdla_sdp_fields.vh"
module nvdla_sdp_lanes #(
    parameter ATOM      = 8,
    parameter LANES     = ATOM,   // elements a cycle (configs/*.json sdp.bs_throughput); divides ATOM
    parameter LUT       = 1,
    parameter INT16     = 0,
    parameter FP16      = 0,
    parameter CONV      = 0,
    parameter LUT_LANES = LANES,  // the LUT's lanes (EW throughput); divides LANES
    parameter EW_B      = (INT16 == 1) ? 2 : 1   // bytes per lane on the data ports (derived; do not set)
) (
    input  wire                 clk,
    input  wire                 rst_n,
    input  wire                 start,
    output wire                 busy,
    output wire                 lut_busy,   // the LUT tables' clear sweep after reset (nvdla_sdp_core)
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [`SDP_CFG_W-1:0] cfg,
    input  wire                 in16,
    input  wire                 out16,
    input  wire                 half,
    input  wire                 fp16,
    input  wire                 out_int,
    input  wire                 out_fp,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire                 bs_op_en,
    input  wire                 bn_op_en,
    input  wire                 ew_op_en,
    input  wire                 in_valid,
    output wire                 in_ready,
    input  wire [ATOM*8*EW_B-1:0] in_data,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire                 in32,
    input  wire [ATOM*32-1:0]   in32_data,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire                 bs_op_valid,
    output wire                 bs_op_ready,
    input  wire [ATOM*32-1:0]   bs_op_data,
    input  wire                 bn_op_valid,
    output wire                 bn_op_ready,
    input  wire [ATOM*32-1:0]   bn_op_data,
    input  wire                 ew_op_valid,
    output wire                 ew_op_ready,
    input  wire [ATOM*32-1:0]   ew_op_data,
    output wire                 out_valid,
    input  wire                 out_ready,
    output wire [ATOM*8*EW_B-1:0] out_data,
    output wire [`SDP_STAT_W-1:0] stat
);
    localparam R = ATOM / LANES;
    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (LANES < 1 || ATOM % LANES != 0 || LUT_LANES < 1 || LANES % LUT_LANES != 0
            || (LANES < ATOM && INT16 != 0) || EW_B != ((INT16 == 1) ? 2 : 1)) begin
            $display("ERROR: nvdla_sdp_lanes %m: LANES divides ATOM, LUT_LANES divides LANES, LANES < ATOM ",
                     "only with INT16 = 0 (INT16/FP16 lanes are positional); EW_B not set");
            $finish;
        end
    end

    generate
        if (R == 1) begin : g_atom
            nvdla_sdp_core #(.ATOM(ATOM), .LUT(LUT), .INT16(INT16), .FP16(FP16), .CONV(CONV),
                             .LUT_LANES(LUT_LANES)) u_core (
                .clk(clk), .rst_n(rst_n), .start(start), .busy(busy), .lut_busy(lut_busy), .cfg(cfg),
                .in16(in16), .out16(out16), .half(half), .fp16(fp16), .out_int(out_int), .out_fp(out_fp),
                .bs_op_en(bs_op_en), .bn_op_en(bn_op_en), .ew_op_en(ew_op_en),
                .in_valid(in_valid), .in_ready(in_ready), .in_data(in_data), .in32(in32), .in32_data(in32_data),
                .bs_op_valid(bs_op_valid), .bs_op_ready(bs_op_ready), .bs_op_data(bs_op_data),
                .bn_op_valid(bn_op_valid), .bn_op_ready(bn_op_ready), .bn_op_data(bn_op_data),
                .ew_op_valid(ew_op_valid), .ew_op_ready(ew_op_ready), .ew_op_data(ew_op_data),
                .out_valid(out_valid), .out_ready(out_ready), .out_data(out_data), .stat(stat)
            );
        end else begin : g_gear
            localparam BW = LANES * 8;                    // a sub-beat of input / output bytes (EW_B = 1)
            localparam CW = (CONV == 1) ? LANES * 32 : 0; // and of on-the-fly 32-bit lanes
            localparam XW = BW + CW;
            localparam OW = LANES * 32;                   // a sub-beat of an operand
            // the input and its on-the-fly lanes as one stream: sub-beat s = {in32 part, byte part}
            wire [R*XW-1:0] x_all;
            genvar s;
            for (s = 0; s < R; s = s + 1) begin : g_x
                if (CONV == 1) begin : g_c
                    assign x_all[s*XW +: XW] = {in32_data[s*CW +: CW], in_data[s*BW +: BW]};
                end else begin : g_n
                    assign x_all[s*XW +: XW] = in_data[s*BW +: BW];
                end
            end

            wire          cx_valid, cx_ready, cbs_valid, cbs_ready, cbn_valid, cbn_ready, cew_valid, cew_ready;
            wire [XW-1:0] cx_data;
            wire [OW-1:0] cbs_data, cbn_data, cew_data;
            wire          bs_in_ready, bn_in_ready, ew_in_ready;
            wire          co_valid, co_ready;
            wire [BW-1:0] co_data;
            wire          core_busy;
            wire [3:0]    held;
            wire [$clog2(R)-1:0] slot;
            wire [LANES*32-1:0] c32;               // the core's on-the-fly lanes (CONV = 1)
            if (CONV == 1) begin : g_c32
                assign c32 = cx_data[XW-1:BW];
            end else begin : g_no_c32
                assign c32 = {LANES*32{1'b0}};
            end

            /* verilator lint_off PINCONNECTEMPTY */
            nvdla_gear_split #(.W(XW), .R(R)) u_x (
                .clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .in_data(x_all),
                .out_valid(cx_valid), .out_ready(cx_ready), .out_data(cx_data), .out_idx(), .out_last()
            );
            nvdla_gear_split #(.W(OW), .R(R)) u_bs (
                .clk(clk), .rst_n(rst_n), .in_valid(bs_op_valid & bs_op_en), .in_ready(bs_in_ready),
                .in_data(bs_op_data), .out_valid(cbs_valid), .out_ready(cbs_ready), .out_data(cbs_data),
                .out_idx(), .out_last()
            );
            nvdla_gear_split #(.W(OW), .R(R)) u_bn (
                .clk(clk), .rst_n(rst_n), .in_valid(bn_op_valid & bn_op_en), .in_ready(bn_in_ready),
                .in_data(bn_op_data), .out_valid(cbn_valid), .out_ready(cbn_ready), .out_data(cbn_data),
                .out_idx(), .out_last()
            );
            nvdla_gear_split #(.W(OW), .R(R)) u_ew (
                .clk(clk), .rst_n(rst_n), .in_valid(ew_op_valid & ew_op_en), .in_ready(ew_in_ready),
                .in_data(ew_op_data), .out_valid(cew_valid), .out_ready(cew_ready), .out_data(cew_data),
                .out_idx(), .out_last()
            );
            /* verilator lint_on PINCONNECTEMPTY */
            assign bs_op_ready = bs_in_ready & bs_op_en;
            assign bn_op_ready = bn_in_ready & bn_op_en;
            assign ew_op_ready = ew_in_ready & ew_op_en;
            assign held = {cx_valid, cbs_valid, cbn_valid, cew_valid};

            nvdla_sdp_core #(.ATOM(LANES), .LUT(LUT), .INT16(INT16), .FP16(FP16), .CONV(CONV),
                             .LUT_LANES(LUT_LANES)) u_core (
                .clk(clk), .rst_n(rst_n), .start(start), .busy(core_busy), .lut_busy(lut_busy), .cfg(cfg),
                .in16(in16), .out16(out16), .half(half), .fp16(fp16), .out_int(out_int), .out_fp(out_fp),
                .bs_op_en(bs_op_en), .bn_op_en(bn_op_en), .ew_op_en(ew_op_en),
                .in_valid(cx_valid), .in_ready(cx_ready), .in_data(cx_data[BW-1:0]), .in32(in32),
                .in32_data(c32),
                .bs_op_valid(cbs_valid), .bs_op_ready(cbs_ready), .bs_op_data(cbs_data),
                .bn_op_valid(cbn_valid), .bn_op_ready(cbn_ready), .bn_op_data(cbn_data),
                .ew_op_valid(cew_valid), .ew_op_ready(cew_ready), .ew_op_data(cew_data),
                .out_valid(co_valid), .out_ready(co_ready), .out_data(co_data), .stat(stat)
            );

            nvdla_gear_join #(.W(BW), .R(R)) u_out (
                .clk(clk), .rst_n(rst_n), .in_valid(co_valid), .in_ready(co_ready), .in_data(co_data),
                .out_valid(out_valid), .out_ready(out_ready), .out_data(out_data), .slot(slot)
            );
            // sub-beats in a gearbox, or part of an output atom collected, count as busy
            assign busy = core_busy | (|held) | out_valid | (slot != {$clog2(R){1'b0}});
        end
    endgenerate
endmodule
