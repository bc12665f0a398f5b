// Test harness (not product RTL): PDP's FP16 horizontal fold (nvdla_pdp_fp16's H pipeline, valid/ready) alone
// (tb/tests/test_pdp_fp16.py): a window of the last 8 input atoms, its real columns and its run of padded
// columns in; per lane the FP17 sum plus the pad term (average) or the FP16 max/min out, with the side bits
// passed along. The pad values are the seven PAD_VALUE_{n}X register fields, placed in the register bundle;
// V and S (driven by the core's stage enables) are held idle.
`include "nvdla_pdp_fields.vh"

module nvdla_pdp_fp16_tb #(
    parameter ATOM   = 8,
    parameter SIDE_W = 8
) (
    input  wire                clk,
    input  wire                rst_n,
    input  wire                m_ave,
    input  wire                m_max,
    input  wire [7*19-1:0]     pad_values,   // PAD_VALUE_1X .. _7X (19-bit fields), 1X in the low bits
    input  wire                in_valid,
    output wire                in_ready,
    // {side bits, its run of padded columns (3 bits), its real columns (4 bits), the 8 last atoms (newest in
    // the low bits)}
    input  wire [SIDE_W+7+8*ATOM*8-1:0] in_data,
    output wire                out_valid,
    input  wire                out_ready,
    output wire [ATOM*16-1:0]  out_data,     // per lane a 32-bit slot
    output wire [SIDE_W-1:0]   out_side
);
    localparam WIN_W = 8 * ATOM * 8;
    reg [`PDP_CFG_W-1:0] cfg;
    always @(*) begin
        cfg = {`PDP_CFG_W{1'b0}};
        cfg[`PDP_PAD_VALUE_1X] = pad_values[0*19 +: 19];
        cfg[`PDP_PAD_VALUE_2X] = pad_values[1*19 +: 19];
        cfg[`PDP_PAD_VALUE_3X] = pad_values[2*19 +: 19];
        cfg[`PDP_PAD_VALUE_4X] = pad_values[3*19 +: 19];
        cfg[`PDP_PAD_VALUE_5X] = pad_values[4*19 +: 19];
        cfg[`PDP_PAD_VALUE_6X] = pad_values[5*19 +: 19];
        cfg[`PDP_PAD_VALUE_7X] = pad_values[6*19 +: 19];
    end

    /* verilator lint_off PINCONNECTEMPTY */
    nvdla_pdp_fp16 #(.ATOM(ATOM), .SIDE_W(SIDE_W)) u_dut (
        .clk(clk), .rst_n(rst_n), .cfg(cfg), .m_ave(m_ave), .m_max(m_max),
        .h_in_valid(in_valid), .h_in_ready(in_ready), .h_win(in_data[0 +: WIN_W]),
        .h_nreal(in_data[WIN_W +: 4]), .h_prun(in_data[WIN_W+4 +: 3]), .h_side_in(in_data[WIN_W+7 +: SIDE_W]), .h_out_valid(out_valid), .h_out_ready(out_ready), .h_val(out_data),
        .h_side_out(out_side),
        .v_acc({(ATOM*16){1'b0}}), .v_prun(3'd0), .v_en(1'b0), .v_val(), .en(3'd0),
        .s_in({(ATOM*16){1'b0}}), .out()
    );
    /* verilator lint_on PINCONNECTEMPTY */
endmodule
