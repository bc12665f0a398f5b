// NVDLA GLB: hardware version, interrupt mask/set/status and the interrupt output (regmap README,
// "GLB interrupts"; register decode generated in rtl/gen/nvdla_glb_regs.v).
//
// Bit map (mask, set and status alike): SDP group 0/1 = 0/1, CDP = 2/3, PDP = 4/5, BDMA = 6/7, RUBIK = 8/9,
// CDMA_DAT = 16/17, CDMA_WT = 18/19, CACC = 20/21. A unit's done pulse for group g, or software writing 1 to
// S_INTR_SET, sets the status bit (whatever the mask); writing 1 to S_INTR_STATUS clears it, and a set in
// the same cycle wins. A mask bit of 1 masks the bit: intr = |(status & ~mask), registered (a level).
// Status bits of units the design lacks (STATUS_IMPL = 0; nv_small has no BDMA and no RUBIK) read 0.
module nvdla_glb #(
    parameter [21:0] STATUS_IMPL = 22'h3f_003f
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
    output reg         intr
);
    wire [21:0] mask;
    wire [21:0] set_sw;   // S_INTR_SET write pulses
    wire [21:0] status;
    wire [21:0] set_hw = {16'h0, pdp_done_intr, cdp_done_intr, sdp_done_intr};
    wire [21:0] set_all = (set_hw | set_sw) & STATUS_IMPL;

    // bits 10-15 have no field in any of the three registers
    assign mask[15:10]   = 6'h0;
    assign set_sw[15:10] = 6'h0;
    assign status[15:10] = 6'h0;

    nvdla_glb_regs u_regs (
        .clk(clk), .rst_n(rst_n),
        .reg_sel(reg_sel), .reg_offset(reg_offset), .reg_wdata(reg_wdata), .reg_write(reg_write),
        .reg_rdata(reg_rdata),
        .s_intr_mask_sdp_done_mask0(mask[0]),          .s_intr_mask_sdp_done_mask1(mask[1]),
        .s_intr_mask_cdp_done_mask0(mask[2]),          .s_intr_mask_cdp_done_mask1(mask[3]),
        .s_intr_mask_pdp_done_mask0(mask[4]),          .s_intr_mask_pdp_done_mask1(mask[5]),
        .s_intr_mask_bdma_done_mask0(mask[6]),         .s_intr_mask_bdma_done_mask1(mask[7]),
        .s_intr_mask_rubik_done_mask0(mask[8]),        .s_intr_mask_rubik_done_mask1(mask[9]),
        .s_intr_mask_cdma_dat_done_mask0(mask[16]),    .s_intr_mask_cdma_dat_done_mask1(mask[17]),
        .s_intr_mask_cdma_wt_done_mask0(mask[18]),     .s_intr_mask_cdma_wt_done_mask1(mask[19]),
        .s_intr_mask_cacc_done_mask0(mask[20]),        .s_intr_mask_cacc_done_mask1(mask[21]),
        .s_intr_set_sdp_done_set0(set_sw[0]),          .s_intr_set_sdp_done_set1(set_sw[1]),
        .s_intr_set_cdp_done_set0(set_sw[2]),          .s_intr_set_cdp_done_set1(set_sw[3]),
        .s_intr_set_pdp_done_set0(set_sw[4]),          .s_intr_set_pdp_done_set1(set_sw[5]),
        .s_intr_set_bdma_done_set0(set_sw[6]),         .s_intr_set_bdma_done_set1(set_sw[7]),
        .s_intr_set_rubik_done_set0(set_sw[8]),        .s_intr_set_rubik_done_set1(set_sw[9]),
        .s_intr_set_cdma_dat_done_set0(set_sw[16]),    .s_intr_set_cdma_dat_done_set1(set_sw[17]),
        .s_intr_set_cdma_wt_done_set0(set_sw[18]),     .s_intr_set_cdma_wt_done_set1(set_sw[19]),
        .s_intr_set_cacc_done_set0(set_sw[20]),        .s_intr_set_cacc_done_set1(set_sw[21]),
        .s_intr_status_sdp_done_status0(status[0]),    .s_intr_status_sdp_done_status1(status[1]),
        .s_intr_status_cdp_done_status0(status[2]),    .s_intr_status_cdp_done_status1(status[3]),
        .s_intr_status_pdp_done_status0(status[4]),    .s_intr_status_pdp_done_status1(status[5]),
        .s_intr_status_bdma_done_status0(status[6]),   .s_intr_status_bdma_done_status1(status[7]),
        .s_intr_status_rubik_done_status0(status[8]),  .s_intr_status_rubik_done_status1(status[9]),
        .s_intr_status_cdma_dat_done_status0(status[16]), .s_intr_status_cdma_dat_done_status1(status[17]),
        .s_intr_status_cdma_wt_done_status0(status[18]),  .s_intr_status_cdma_wt_done_status1(status[19]),
        .s_intr_status_cacc_done_status0(status[20]),  .s_intr_status_cacc_done_status1(status[21]),
        .s_intr_status_sdp_done_status0_set(set_all[0]),   .s_intr_status_sdp_done_status1_set(set_all[1]),
        .s_intr_status_cdp_done_status0_set(set_all[2]),   .s_intr_status_cdp_done_status1_set(set_all[3]),
        .s_intr_status_pdp_done_status0_set(set_all[4]),   .s_intr_status_pdp_done_status1_set(set_all[5]),
        .s_intr_status_bdma_done_status0_set(set_all[6]),  .s_intr_status_bdma_done_status1_set(set_all[7]),
        .s_intr_status_rubik_done_status0_set(set_all[8]), .s_intr_status_rubik_done_status1_set(set_all[9]),
        .s_intr_status_cdma_dat_done_status0_set(set_all[16]),
        .s_intr_status_cdma_dat_done_status1_set(set_all[17]),
        .s_intr_status_cdma_wt_done_status0_set(set_all[18]),
        .s_intr_status_cdma_wt_done_status1_set(set_all[19]),
        .s_intr_status_cacc_done_status0_set(set_all[20]), .s_intr_status_cacc_done_status1_set(set_all[21])
    );

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            intr <= 1'b0;
        end else begin
            intr <= |(status & ~mask);
        end
    end

    // set_all[15:10] is constant 0: only the bits that exist reach the status flops
    wire unused_ok = &{1'b0, set_all[15:10]};
endmodule
