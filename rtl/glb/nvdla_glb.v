// NVDLA GLB: hardware version, interrupt mask/set/status and the interrupt output (regmap README,
// "GLB interrupts"; register decode generated in rtl/gen/nvdla_glb_regs.v, the interrupt bit of each unit
// and group from the description: GLB_INTR_* in rtl/gen/nvdla_csb_map.vh).
//
// A unit's done pulse for group g, or software writing 1 to S_INTR_SET, sets the status bit (whatever the
// mask); writing 1 to S_INTR_STATUS clears it, and a set in the same cycle wins. A mask bit of 1 masks the
// bit: intr = |(status & ~mask), registered (a level); a unit's done pulse raises it in the same cycle as
// it sets the status bit (not one cycle after: the pulse is a register output, so this adds one OR level). Status bits of units the design lacks
// (STATUS_IMPL = 0; nv_small has no BDMA and no RUBIK, only nv_full has them) read 0.
// parameter check: none needed (any 32-bit STATUS_IMPL is a valid set of implemented status bits)
module nvdla_glb #(
    parameter [31:0] STATUS_IMPL = 32'h003f_003f
) (
    input  wire        clk,
    input  wire        rst_n,
    // CSB unit side (rtl/csb/nvdla_csb_slave.v)
    input  wire        reg_sel,
    input  wire [9:0]  reg_offset,
    input  wire [31:0] reg_wdata,
    input  wire        reg_write,
    output wire [31:0] reg_rdata,
    // layer-done interrupt pulses, bit = the register group that finished
    input  wire [1:0]  sdp_done_intr,
    input  wire [1:0]  cdp_done_intr,
    input  wire [1:0]  pdp_done_intr,
    input  wire [1:0]  bdma_done_intr,  // tie 0 without BDMA (and leave its bits out of STATUS_IMPL)
    input  wire [1:0]  cdma_dat_done_intr,  // the convolution pipeline's (tie 0 without it, as BDMA)
    input  wire [1:0]  cdma_wt_done_intr,
    input  wire [1:0]  cacc_done_intr,
    input  wire [1:0]  rubik_done_intr, // tie 0 without Rubik (likewise)
    output reg         intr
);
    /* verilator lint_off UNUSEDPARAM */
    `include "nvdla_csb_map.vh"
    /* verilator lint_on UNUSEDPARAM */

    wire [31:0] mask, set_sw, status;
    reg  [31:0] set_hw;
    always @(*) begin
        set_hw = 32'h0;
        set_hw[GLB_INTR_SDP_DONE0] = sdp_done_intr[0];
        set_hw[GLB_INTR_SDP_DONE1] = sdp_done_intr[1];
        set_hw[GLB_INTR_CDP_DONE0] = cdp_done_intr[0];
        set_hw[GLB_INTR_CDP_DONE1] = cdp_done_intr[1];
        set_hw[GLB_INTR_PDP_DONE0] = pdp_done_intr[0];
        set_hw[GLB_INTR_PDP_DONE1] = pdp_done_intr[1];
        set_hw[GLB_INTR_BDMA_DONE0] = bdma_done_intr[0];
        set_hw[GLB_INTR_BDMA_DONE1] = bdma_done_intr[1];
        set_hw[GLB_INTR_CDMA_DAT_DONE0] = cdma_dat_done_intr[0];
        set_hw[GLB_INTR_CDMA_DAT_DONE1] = cdma_dat_done_intr[1];
        set_hw[GLB_INTR_CDMA_WT_DONE0] = cdma_wt_done_intr[0];
        set_hw[GLB_INTR_CDMA_WT_DONE1] = cdma_wt_done_intr[1];
        set_hw[GLB_INTR_CACC_DONE0] = cacc_done_intr[0];
        set_hw[GLB_INTR_CACC_DONE1] = cacc_done_intr[1];
        set_hw[GLB_INTR_RUBIK_DONE0] = rubik_done_intr[0];
        set_hw[GLB_INTR_RUBIK_DONE1] = rubik_done_intr[1];
    end

    nvdla_glb_regs u_regs (
        .clk(clk), .rst_n(rst_n),
        .reg_sel(reg_sel), .reg_offset(reg_offset), .reg_wdata(reg_wdata), .reg_write(reg_write),
        .reg_rdata(reg_rdata),
        .s_intr_mask(mask), .s_intr_set(set_sw), .s_intr_status(status),
        .s_intr_status_set((set_hw | set_sw) & STATUS_IMPL)
    );

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            intr <= 1'b0;
        end else begin
            intr <= |((status | (set_hw & STATUS_IMPL)) & ~mask);
        end
    end
endmodule
