// Post-processing subsystem top level: NVDLA host CSB port, two AXI4 masters (ATOM*8-bit data, 32-bit
// addresses): m_axi to the primary memory (NVDLA's MCIF) and, with SEC_MEM = 1, c_axi to the CV SRAM
// (CVIF), the GLB interrupt. Wiring only: the CSB slave, one generated register block per unit (configuration
// and statistics bundles, rtl/gen/nvdla_<unit>_fields.vh), the units SDP, PDP and CDP (each with its RDMA),
// the memory interfaces (rtl/dma/nvdla_axi_memif.v: each DMA request goes to the memory its *_RAM_TYPE
// register names, CV to c_axi and MC to m_axi, everything to m_axi when SEC_MEM = 0; one arbiter per memory,
// the port index in the AXI ID: PDP 0, CDP 1, SDP 2, BDMA 3, RUBIK 3 + BDMA, then CDMA's feature and weight
// reads), BDMA when BDMA = 1 (nv_full), Rubik when RUBIK = 1 (nv_full; rtl/rubik), the convolution pipeline
// when CONV = 1 (CDMA, CSC, CMAC_A, CMAC_B, CACC register blocks and rtl/conv/nvdla_conv.v, its output on
// the fly into SDP) and GLB.
// Addresses outside the units' windows answer as NVDLA's unmapped ones (reads 0, writes dropped, non-posted
// writes acknowledged); LUT accesses are the register blocks' own (LUT_ACCESS_* bundle slices).
//
// The PDP datapath takes its geometry from the PDP registers and only the source addresses from PDP_RDMA:
// NVDLA requires both copies to agree (the driver layer checks), and one geometry for both DMA sides and the
// core means that registers which disagree can give wrong data but never a stalled pipeline. CDP likewise:
// the cube comes from CDP_RDMA (the CDP registers have none), the destination and datapath from CDP.
`include "nvdla_pdp_fields.vh"
`include "nvdla_pdp_rdma_fields.vh"
`include "nvdla_cdp_fields.vh"
`include "nvdla_cdp_rdma_fields.vh"
`include "nvdla_sdp_fields.vh"
`include "nvdla_sdp_rdma_fields.vh"
`include "nvdla_bdma_fields.vh"
`include "nvdla_cdma_fields.vh"
`include "nvdla_csc_fields.vh"
`include "nvdla_cmac_a_fields.vh"
`include "nvdla_cmac_b_fields.vh"
`include "nvdla_cacc_fields.vh"
`include "nvdla_rubik_fields.vh"
module nvdla_pp_top #(
    parameter ATOM            = 8,    // memory atom in bytes = AXI data bytes (int8 lanes per beat)
    parameter CSB_MAP         = 0,    // CSB address map: 0 NVIDIA's master branch (nv_small..nv_large), 1 nv_full
    parameter PDP_MAX_W       = 64,   // PDP line-buffer words (8 banks): band columns with one row in flight
    parameter MAX_BURST       = 16,
    // bursts a DMA keeps in flight per direction (8 left short lines waiting a round trip at 32 cycles)
    parameter MAX_OUTSTANDING = 16,   // bursts in flight per DMA direction: 16 covers a 32-cycle memory
    parameter SEC_MEM         = 0,    // 1: the CV SRAM interface c_axi exists; 0: c_axi idle, all on m_axi
    parameter BDMA            = 0,    // 1: BDMA (nv_full's bridge DMA) on the CSB and the memories; needs SEC_MEM
    parameter RUBIK           = 0,    // 1: Rubik (contract/split/merge) on the CSB and the memories; needs BDMA
    parameter SDP_EW          = 1,    // 0: SDP without its EW (Y) block (bypassed whatever the registers say)
    parameter SDP_LUT         = 1,    // 0: SDP without its LUT
    parameter INT16           = 0,    // 1: the configuration's precisions include INT16 (PDP, SDP, CDP compute it)
    parameter CDP_LUT_PAIRED  = 0,    // CDP's INT8 LUT index as nvdlav1's (paired channels) or, 0, nv_small's
    parameter FP16            = 0,    // 1: the configuration's precisions include FP16 (PDP, SDP, CDP compute it)
    parameter CONV            = 0,    // 1: the convolution pipeline (CDMA, CBUF, CSC, CMAC, CACC) feeding SDP
    parameter ATOMIC_C        = 8,    // its geometry (configs/*.json "conv"): channels per MAC operation,
    parameter ATOMIC_K        = 8,    // kernels per operation (= ATOM: one SDP atom a CACC beat),
    parameter CBUF_BANKS      = 32,   // CBUF banks,
    parameter CBUF_DEPTH      = 512,  // entries per bank,
    parameter CBUF_ENTRY      = 8,    // bytes per entry
    parameter SDP_LANES       = ATOM, // lanes of SDP's core (configs/*.json sdp.bs_throughput),
    parameter SDP_LUT_LANES   = ATOM, // of SDP's LUT (sdp.ew_throughput) and
    parameter CDP_LUT_LANES   = ATOM  // CDP's (cdp_throughput): fewer than ATOM puts a gearbox before them
) (
    input  wire        clk,
    input  wire        rst_n,
    // CSB host side (NVDLA csb2nvdla / nvdla2csb)
    input  wire        csb_req_valid,
    output wire        csb_req_ready,
    input  wire [15:0] csb_req_addr,
    input  wire [31:0] csb_req_wdat,
    input  wire        csb_req_write,
    input  wire        csb_req_nposted,
    output wire        csb_resp_valid,
    output wire [31:0] csb_resp_data,
    output wire        csb_wr_complete,
    // AXI4 master
    output wire        m_axi_arvalid,
    input  wire        m_axi_arready,
    output wire [31:0] m_axi_araddr,
    output wire [7:0]  m_axi_arlen,
    output wire [2:0]  m_axi_arsize,
    output wire [1:0]  m_axi_arburst,
    output wire [3:0]  m_axi_arid,
    input  wire        m_axi_rvalid,
    output wire        m_axi_rready,
    input  wire [ATOM*8-1:0] m_axi_rdata,
    input  wire [1:0]  m_axi_rresp,
    input  wire        m_axi_rlast,
    input  wire [3:0]  m_axi_rid,
    output wire        m_axi_awvalid,
    input  wire        m_axi_awready,
    output wire [31:0] m_axi_awaddr,
    output wire [7:0]  m_axi_awlen,
    output wire [2:0]  m_axi_awsize,
    output wire [1:0]  m_axi_awburst,
    output wire [3:0]  m_axi_awid,
    output wire        m_axi_wvalid,
    input  wire        m_axi_wready,
    output wire [ATOM*8-1:0] m_axi_wdata,
    output wire [ATOM-1:0] m_axi_wstrb,
    output wire        m_axi_wlast,
    input  wire        m_axi_bvalid,
    output wire        m_axi_bready,
    input  wire [1:0]  m_axi_bresp,
    input  wire [3:0]  m_axi_bid,
    output wire        intr,
    // AXI4 master to the second memory (the CV SRAM, requests with RAM_TYPE = CV); tied idle if SEC_MEM = 0
    output wire        c_axi_arvalid,
    input  wire        c_axi_arready,
    output wire [31:0] c_axi_araddr,
    output wire [7:0]  c_axi_arlen,
    output wire [2:0]  c_axi_arsize,
    output wire [1:0]  c_axi_arburst,
    output wire [3:0]  c_axi_arid,
    input  wire        c_axi_rvalid,
    output wire        c_axi_rready,
    input  wire [ATOM*8-1:0] c_axi_rdata,
    input  wire [1:0]  c_axi_rresp,
    input  wire        c_axi_rlast,
    input  wire [3:0]  c_axi_rid,
    output wire        c_axi_awvalid,
    input  wire        c_axi_awready,
    output wire [31:0] c_axi_awaddr,
    output wire [7:0]  c_axi_awlen,
    output wire [2:0]  c_axi_awsize,
    output wire [1:0]  c_axi_awburst,
    output wire [3:0]  c_axi_awid,
    output wire        c_axi_wvalid,
    input  wire        c_axi_wready,
    output wire [ATOM*8-1:0] c_axi_wdata,
    output wire [ATOM-1:0] c_axi_wstrb,
    output wire        c_axi_wlast,
    input  wire        c_axi_bvalid,
    output wire        c_axi_bready,
    input  wire [1:0]  c_axi_bresp,
    input  wire [3:0]  c_axi_bid
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (PDP_MAX_W < 8 || PDP_MAX_W % 8 != 0 || MAX_BURST < 1 || MAX_OUTSTANDING < 1 || CSB_MAP < 0 || CSB_MAP > 1
            || (SEC_MEM != 0 && SEC_MEM != 1) || (BDMA != 0 && BDMA != 1) || (BDMA == 1 && SEC_MEM == 0)
            || (RUBIK != 0 && RUBIK != 1) || (RUBIK == 1 && BDMA == 0)
            || (INT16 != 0 && INT16 != 1) || (CDP_LUT_PAIRED != 0 && CDP_LUT_PAIRED != 1)
            || (FP16 != 0 && FP16 != 1) || (CONV != 0 && CONV != 1) || (CONV == 1 && ATOMIC_K != ATOM)) begin
            $display("ERROR: nvdla_pp_top %m: PDP_MAX_W a multiple of 8 (PDP's 8 line-buffer banks), ",
                     "MAX_BURST, MAX_OUTSTANDING >= 1, CSB_MAP 0 or 1, ",
                     "SEC_MEM 0 or 1, BDMA 0 or 1 and only with SEC_MEM, RUBIK 0 or 1 and only with BDMA (its ",
                     "CSB window follows BDMA's), INT16, CDP_LUT_PAIRED and FP16 0 or 1, ",
                     "CONV 0 or 1 and with it ATOMIC_K = ATOM (a CACC beat is one SDP atom) ",
                     "(the units check the rest)");
            $finish;
        end
    end
    /* verilator lint_off UNUSEDPARAM */
    `include "nvdla_csb_map.vh"   // CSB windows and GLB interrupt bits, generated from the register description
    /* verilator lint_on UNUSEDPARAM */
    `include "nvdla_axi_macros.vh"
    localparam AXI_AW = 32, AXI_DW = ATOM * 8, AXI_IW = 4;

    // unit order on the CSB slave: GLB, PDP_RDMA, PDP, CDP_RDMA, CDP, SDP_RDMA, SDP, then BDMA and RUBIK if
    // present, then CDMA, CSC, CMAC_A, CMAC_B, CACC if CONV
    localparam NUNITS = 7 + BDMA + RUBIK + 5 * CONV;
    localparam U_GLB = 0, U_PDP_RDMA = 1, U_PDP = 2, U_CDP_RDMA = 3, U_CDP = 4, U_SDP_RDMA = 5, U_SDP = 6;
    localparam U_BDMA = 7, U_RUBIK = 7 + BDMA;
    localparam U_CDMA = 7 + BDMA + RUBIK, U_CSC = 8 + BDMA + RUBIK, U_CMAC_A = 9 + BDMA + RUBIK,
               U_CMAC_B = 10 + BDMA + RUBIK, U_CACC = 11 + BDMA + RUBIK;
    // memory-interface ports (= AXI IDs on both memories)
    localparam NMASTERS = 3 + BDMA + RUBIK + 2 * CONV;
    localparam M_PDP = 0, M_CDP = 1, M_SDP = 2, M_BDMA = 3, M_RUBIK = 3 + BDMA;
    localparam M_CDMA_DAT = 3 + BDMA + RUBIK, M_CDMA_WT = 4 + BDMA + RUBIK;

    wire [NUNITS-1:0]    reg_sel;
    wire [9:0]           reg_offset;
    wire [31:0]          reg_wdata;
    wire                 reg_write;
    wire [NUNITS*32-1:0] reg_rdata;

    localparam [9*6-1:0] WINDOWS_PP = CSB_MAP == CSB_MAP_NV_FULL
        ? {CSB_WIN_NV_FULL_RUBIK, CSB_WIN_NV_FULL_BDMA, CSB_WIN_NV_FULL_SDP, CSB_WIN_NV_FULL_SDP_RDMA, CSB_WIN_NV_FULL_CDP,
           CSB_WIN_NV_FULL_CDP_RDMA, CSB_WIN_NV_FULL_PDP, CSB_WIN_NV_FULL_PDP_RDMA, CSB_WIN_NV_FULL_GLB}
        : {CSB_WIN_NV_SMALL_RUBIK, CSB_WIN_NV_SMALL_BDMA, CSB_WIN_NV_SMALL_SDP, CSB_WIN_NV_SMALL_SDP_RDMA, CSB_WIN_NV_SMALL_CDP,
           CSB_WIN_NV_SMALL_CDP_RDMA, CSB_WIN_NV_SMALL_PDP, CSB_WIN_NV_SMALL_PDP_RDMA, CSB_WIN_NV_SMALL_GLB};
    localparam [5*6-1:0] WINDOWS_CONV = CSB_MAP == CSB_MAP_NV_FULL
        ? {CSB_WIN_NV_FULL_CACC, CSB_WIN_NV_FULL_CMAC_B, CSB_WIN_NV_FULL_CMAC_A, CSB_WIN_NV_FULL_CSC,
           CSB_WIN_NV_FULL_CDMA}
        : {CSB_WIN_NV_SMALL_CACC, CSB_WIN_NV_SMALL_CMAC_B, CSB_WIN_NV_SMALL_CMAC_A, CSB_WIN_NV_SMALL_CSC,
           CSB_WIN_NV_SMALL_CDMA};
    // BDMA's and RUBIK's windows only when they exist, the convolution units' only with CONV
    localparam [(12+BDMA+RUBIK)*6-1:0] WINDOWS_ALL = {WINDOWS_CONV, WINDOWS_PP[(7+BDMA+RUBIK)*6-1:0]};
    localparam [NUNITS*6-1:0] WINDOWS = WINDOWS_ALL[NUNITS*6-1:0];
    // the LUT tables' clear sweep after reset (nvdla_lut_ram, about 257 cycles): the CSB waits for it
    wire sdp_lut_busy, cdp_lut_busy;
    nvdla_csb_slave #(.NUNITS(NUNITS), .UNIT_IDS(WINDOWS)) u_csb (
        .clk(clk), .rst_n(rst_n), .hold(sdp_lut_busy | cdp_lut_busy),
        .csb_req_valid(csb_req_valid), .csb_req_ready(csb_req_ready), .csb_req_addr(csb_req_addr),
        .csb_req_wdat(csb_req_wdat), .csb_req_write(csb_req_write), .csb_req_nposted(csb_req_nposted),
        .csb_resp_valid(csb_resp_valid), .csb_resp_data(csb_resp_data), .csb_wr_complete(csb_wr_complete),
        .reg_sel(reg_sel), .reg_offset(reg_offset), .reg_wdata(reg_wdata), .reg_write(reg_write),
        .reg_rdata(reg_rdata)
    );

    `NVDLA_AXI_ARB_WIRES(NMASTERS)

    // ---- PDP: registers (both groups of PDP and PDP_RDMA), datapath -------------------------------------
    wire pdp_op_en, pdp_consumer, pdp_rdma_op_en, pdp_rdma_consumer_unused, pdp_done, pdp_busy_unused;
    wire [`PDP_CFG_W-1:0]       pdp_cfg;
    wire [`PDP_STAT_W-1:0]      pdp_stat;
    wire [`PDP_RDMA_CFG_W-1:0]  pdp_rdma_cfg;
    wire [`PDP_RDMA_STAT_W-1:0] pdp_rdma_stat;
    nvdla_pdp_regs u_pdp_regs (
        .clk(clk), .rst_n(rst_n), .reg_sel(reg_sel[U_PDP]), .reg_offset(reg_offset), .reg_wdata(reg_wdata),
        .reg_write(reg_write), .reg_rdata(reg_rdata[U_PDP*32 +: 32]), .dp_done(pdp_done), .op_en(pdp_op_en),
        .consumer(pdp_consumer), .cfg(pdp_cfg), .stat(pdp_stat)
    );
    nvdla_pdp_rdma_regs u_pdp_rdma_regs (
        .clk(clk), .rst_n(rst_n), .reg_sel(reg_sel[U_PDP_RDMA]), .reg_offset(reg_offset), .reg_wdata(reg_wdata),
        .reg_write(reg_write), .reg_rdata(reg_rdata[U_PDP_RDMA*32 +: 32]), .dp_done(pdp_done & pdp_rdma_op_en),
        .op_en(pdp_rdma_op_en), .consumer(pdp_rdma_consumer_unused), .cfg(pdp_rdma_cfg), .stat(pdp_rdma_stat)
    );

    // CACC -> SDP on the fly (CONV = 1, SDP FLYING_MODE = ON): 32-bit lanes, the output cube's order
    wire               cc_valid, cc_ready, conv_done;
    wire [ATOM*32-1:0] cc_data;

    // SDP -> PDP on the fly (SDP OUTPUT_DST = PDP, PDP FLYING_MODE = ON): SDP's output atoms in cube order
    wire        sdp_fly_valid, sdp_fly_ready;
    wire [ATOM*8-1:0] sdp_fly_data;

    nvdla_pdp #(.ATOM(ATOM), .MAX_W(PDP_MAX_W), .MAX_BURST(MAX_BURST), .MAX_OUTSTANDING(MAX_OUTSTANDING),
                .INT16(INT16), .FP16(FP16)) u_pdp (
        .clk(clk), .rst_n(rst_n), .op_en(pdp_op_en), .rdma_op_en(pdp_rdma_op_en),
        .fly_valid(sdp_fly_valid), .fly_ready(sdp_fly_ready), .fly_data(sdp_fly_data),
        .done(pdp_done), .busy(pdp_busy_unused),
        .cfg(pdp_cfg), .rdma_cfg(pdp_rdma_cfg), .stat(pdp_stat), .rdma_stat(pdp_rdma_stat),
        `NVDLA_AXI_UNIT_TO_ARB(M_PDP)
    );

    // ---- CDP: registers (both groups of CDP and CDP_RDMA), datapath -------------------------------------
    wire cdp_op_en, cdp_consumer, cdp_rdma_op_en, cdp_rdma_consumer_unused, cdp_done, cdp_busy_unused;
    wire [`CDP_CFG_W-1:0]       cdp_cfg;
    wire [`CDP_STAT_W-1:0]      cdp_stat;
    wire [`CDP_RDMA_CFG_W-1:0]  cdp_rdma_cfg;
    wire [`CDP_RDMA_STAT_W-1:0] cdp_rdma_stat;
    nvdla_cdp_regs u_cdp_regs (
        .clk(clk), .rst_n(rst_n), .reg_sel(reg_sel[U_CDP]), .reg_offset(reg_offset), .reg_wdata(reg_wdata),
        .reg_write(reg_write), .reg_rdata(reg_rdata[U_CDP*32 +: 32]), .dp_done(cdp_done), .op_en(cdp_op_en),
        .consumer(cdp_consumer), .cfg(cdp_cfg), .stat(cdp_stat)
    );
    nvdla_cdp_rdma_regs u_cdp_rdma_regs (
        .clk(clk), .rst_n(rst_n), .reg_sel(reg_sel[U_CDP_RDMA]), .reg_offset(reg_offset), .reg_wdata(reg_wdata),
        .reg_write(reg_write), .reg_rdata(reg_rdata[U_CDP_RDMA*32 +: 32]), .dp_done(cdp_done & cdp_rdma_op_en),
        .op_en(cdp_rdma_op_en), .consumer(cdp_rdma_consumer_unused), .cfg(cdp_rdma_cfg), .stat(cdp_rdma_stat)
    );

    nvdla_cdp #(.ATOM(ATOM), .CHUNK(8), .MAX_BURST(MAX_BURST), .MAX_OUTSTANDING(MAX_OUTSTANDING),
                .LUT_PAIRED(CDP_LUT_PAIRED), .INT16(INT16), .FP16(FP16), .LUT_LANES(CDP_LUT_LANES)) u_cdp (
        .clk(clk), .rst_n(rst_n), .op_en(cdp_op_en & cdp_rdma_op_en), .done(cdp_done), .busy(cdp_busy_unused),
        .lut_busy(cdp_lut_busy),
        .cfg(cdp_cfg), .rdma_cfg(cdp_rdma_cfg), .stat(cdp_stat), .rdma_stat(cdp_rdma_stat),
        `NVDLA_AXI_UNIT_TO_ARB(M_CDP)
    );

    // ---- SDP: registers (both groups of SDP and SDP_RDMA), datapath -------------------------------------
    // SDP_RDMA's OP_EN takes part only when the layer reads something (always here: the input comes from
    // memory); its group latches on the same done.
    wire sdp_op_en, sdp_consumer, sdp_rdma_op_en, sdp_rdma_consumer_unused, sdp_done, sdp_busy_unused;
    wire [`SDP_CFG_W-1:0]       sdp_cfg;
    wire [`SDP_STAT_W-1:0]      sdp_stat;
    wire [`SDP_RDMA_CFG_W-1:0]  sdp_rdma_cfg;
    wire [`SDP_RDMA_STAT_W-1:0] sdp_rdma_stat;
    nvdla_sdp_regs u_sdp_regs (
        .clk(clk), .rst_n(rst_n), .reg_sel(reg_sel[U_SDP]), .reg_offset(reg_offset), .reg_wdata(reg_wdata),
        .reg_write(reg_write), .reg_rdata(reg_rdata[U_SDP*32 +: 32]), .dp_done(sdp_done), .op_en(sdp_op_en),
        .consumer(sdp_consumer), .cfg(sdp_cfg), .stat(sdp_stat)
    );
    nvdla_sdp_rdma_regs u_sdp_rdma_regs (
        .clk(clk), .rst_n(rst_n), .reg_sel(reg_sel[U_SDP_RDMA]), .reg_offset(reg_offset), .reg_wdata(reg_wdata),
        .reg_write(reg_write), .reg_rdata(reg_rdata[U_SDP_RDMA*32 +: 32]), .dp_done(sdp_done & sdp_rdma_op_en),
        .op_en(sdp_rdma_op_en), .consumer(sdp_rdma_consumer_unused), .cfg(sdp_rdma_cfg), .stat(sdp_rdma_stat)
    );

    // SDP reserves FIFO room for a burst's every beat before issuing it (nvdla_sdp_rdma_arb), so a stream's
    // FIFO bounds its bursts in flight: 2 bursts (32 beats) ran a 32-cycle memory at 1.6x the read bound
    // (reservation to credit back = latency + a burst); 4 bursts cover it (scripts/bench_sdp.py --latency 32)
    localparam SDP_FIFO_DEPTH = 4 * (1 << $clog2(MAX_BURST));
    nvdla_sdp #(.ATOM(ATOM), .MAX_BURST(MAX_BURST), .MAX_OUTSTANDING(MAX_OUTSTANDING), .EW(SDP_EW),
                .LUT(SDP_LUT), .FIFO_DEPTH(SDP_FIFO_DEPTH), .INT16(INT16), .FP16(FP16), .CONV(CONV),
                .LANES(SDP_LANES), .LUT_LANES(SDP_LUT_LANES)) u_sdp (
        .clk(clk), .rst_n(rst_n), .op_en(sdp_op_en), .rdma_op_en(sdp_rdma_op_en), .done(sdp_done),
        .busy(sdp_busy_unused), .lut_busy(sdp_lut_busy), .cc_valid(cc_valid), .cc_ready(cc_ready), .cc_data(cc_data), .cc_done(conv_done),
        .cfg(sdp_cfg), .rdma_cfg(sdp_rdma_cfg), .stat(sdp_stat), .rdma_stat(sdp_rdma_stat),
        .fly_valid(sdp_fly_valid), .fly_ready(sdp_fly_ready), .fly_data(sdp_fly_data),
        `NVDLA_AXI_UNIT_TO_ARB(M_SDP)
    );

    // ---- the convolution pipeline (CONV = 1): its five register blocks and nvdla_conv on two read ports ------
    wire [1:0] cdma_dat_intr, cdma_wt_intr, cacc_intr;
    generate
        if (CONV == 1) begin : g_conv
            wire cdma_op_en, csc_op_en, cmac_a_op_en, cmac_b_op_en, cacc_op_en;
            wire cdma_consumer, cacc_consumer, csc_consumer_unused, cmac_a_consumer_unused, cmac_b_consumer_unused;
            wire dat_done, wt_done, busy_unused, out_end_unused;
            wire [`CDMA_CFG_W-1:0]   cdma_cfg;
            wire [`CDMA_STAT_W-1:0]  cdma_stat;
            wire [`CSC_CFG_W-1:0]    csc_cfg;
            wire [`CACC_CFG_W-1:0]   cacc_cfg;
            wire [`CACC_STAT_W-1:0]  cacc_stat;
            /* verilator lint_off UNUSEDSIGNAL */  // CMAC's fields (mode, precision): INT8 direct only
            wire [`CMAC_A_CFG_W-1:0] cmac_a_cfg;
            wire [`CMAC_B_CFG_W-1:0] cmac_b_cfg;
            /* verilator lint_on UNUSEDSIGNAL */
            nvdla_cdma_regs u_cdma_regs (
                .clk(clk), .rst_n(rst_n), .reg_sel(reg_sel[U_CDMA]), .reg_offset(reg_offset), .reg_wdata(reg_wdata),
                .reg_write(reg_write), .reg_rdata(reg_rdata[U_CDMA*32 +: 32]), .dp_done(conv_done),
                .op_en(cdma_op_en), .consumer(cdma_consumer), .cfg(cdma_cfg), .stat(cdma_stat)
            );
            nvdla_csc_regs u_csc_regs (
                .clk(clk), .rst_n(rst_n), .reg_sel(reg_sel[U_CSC]), .reg_offset(reg_offset), .reg_wdata(reg_wdata),
                .reg_write(reg_write), .reg_rdata(reg_rdata[U_CSC*32 +: 32]), .dp_done(conv_done),
                .op_en(csc_op_en), .consumer(csc_consumer_unused), .cfg(csc_cfg)
            );
            nvdla_cmac_a_regs u_cmac_a_regs (
                .clk(clk), .rst_n(rst_n), .reg_sel(reg_sel[U_CMAC_A]), .reg_offset(reg_offset),
                .reg_wdata(reg_wdata), .reg_write(reg_write), .reg_rdata(reg_rdata[U_CMAC_A*32 +: 32]),
                .dp_done(conv_done), .op_en(cmac_a_op_en), .consumer(cmac_a_consumer_unused), .cfg(cmac_a_cfg)
            );
            nvdla_cmac_b_regs u_cmac_b_regs (
                .clk(clk), .rst_n(rst_n), .reg_sel(reg_sel[U_CMAC_B]), .reg_offset(reg_offset),
                .reg_wdata(reg_wdata), .reg_write(reg_write), .reg_rdata(reg_rdata[U_CMAC_B*32 +: 32]),
                .dp_done(conv_done), .op_en(cmac_b_op_en), .consumer(cmac_b_consumer_unused), .cfg(cmac_b_cfg)
            );
            nvdla_cacc_regs u_cacc_regs (
                .clk(clk), .rst_n(rst_n), .reg_sel(reg_sel[U_CACC]), .reg_offset(reg_offset), .reg_wdata(reg_wdata),
                .reg_write(reg_write), .reg_rdata(reg_rdata[U_CACC*32 +: 32]), .dp_done(conv_done),
                .op_en(cacc_op_en), .consumer(cacc_consumer), .cfg(cacc_cfg), .stat(cacc_stat)
            );
            nvdla_conv #(.ATOM(ATOM), .AC(ATOMIC_C), .AK(ATOMIC_K), .BANKS(CBUF_BANKS), .DEPTH(CBUF_DEPTH),
                         .EB(CBUF_ENTRY), .MAX_BURST(MAX_BURST), .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_conv (
                .clk(clk), .rst_n(rst_n), .cdma_op_en(cdma_op_en), .csc_op_en(csc_op_en),
                .cmac_a_op_en(cmac_a_op_en), .cmac_b_op_en(cmac_b_op_en), .cacc_op_en(cacc_op_en),
                .cdma_cfg(cdma_cfg), .csc_cfg(csc_cfg), .cacc_cfg(cacc_cfg), .cdma_stat(cdma_stat),
                .cacc_stat(cacc_stat), .done(conv_done), .dat_done(dat_done), .wt_done(wt_done),
                .busy(busy_unused), .out_valid(cc_valid), .out_ready(cc_ready), .out_data(cc_data),
                .out_end(out_end_unused),
                `NVDLA_AXI_RD_TO_ARB(M_CDMA_DAT), `NVDLA_AXI_WRD_TO_ARB(M_CDMA_WT)
            );
            `NVDLA_AXI_ARB_NO_WRITE(M_CDMA_DAT)
            `NVDLA_AXI_ARB_NO_WRITE(M_CDMA_WT)
            assign cdma_dat_intr = {dat_done & cdma_consumer, dat_done & ~cdma_consumer};
            assign cdma_wt_intr  = {wt_done & cdma_consumer, wt_done & ~cdma_consumer};
            assign cacc_intr     = {conv_done & cacc_consumer, conv_done & ~cacc_consumer};
            /* verilator lint_off UNUSEDSIGNAL */
            wire unused_conv = &{1'b0, busy_unused, out_end_unused, csc_consumer_unused, cmac_a_consumer_unused,
                                 cmac_b_consumer_unused, arb_awready[M_CDMA_DAT], arb_awready[M_CDMA_WT],
                                 arb_wready[M_CDMA_DAT], arb_wready[M_CDMA_WT], arb_bvalid[M_CDMA_DAT],
                                 arb_bvalid[M_CDMA_WT], arb_bresp[M_CDMA_DAT*2 +: 2], arb_bresp[M_CDMA_WT*2 +: 2]};
            /* verilator lint_on UNUSEDSIGNAL */
        end else begin : g_no_conv
            assign conv_done = 1'b0;
            assign cc_valid  = 1'b0;
            assign cc_data   = {ATOM*32{1'b0}};
            assign cdma_dat_intr = 2'b00;
            assign cdma_wt_intr  = 2'b00;
            assign cacc_intr     = 2'b00;
        end
    endgenerate

    // ---- AXI: a router per unit (RAM type -> memory, in order), an arbiter per memory -------------------
    nvdla_axi_memif #(.N(NMASTERS), .SEC_MEM(SEC_MEM), .ADDR_W(AXI_AW), .DATA_W(AXI_DW), .ID_W(AXI_IW),
                      .ID_BIT(0), .W_DEPTH(2 * MAX_BURST), .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_memif (
        .clk(clk), .rst_n(rst_n), `NVDLA_AXI_MEMIF_SLAVES, `NVDLA_AXI_MEMIF_MASTERS
    );

    // ---- BDMA (configurations with it): registers, unit on the last memory-interface port ----------------
    wire [1:0] bdma_done;
    generate
        if (BDMA == 1) begin : g_bdma
            wire                    busy_unused;
            wire [`BDMA_CFG_W-1:0]  cfg;
            wire [`BDMA_STAT_W-1:0] stat;
            nvdla_bdma_regs u_bdma_regs (
                .clk(clk), .rst_n(rst_n), .reg_sel(reg_sel[U_BDMA]), .reg_offset(reg_offset),
                .reg_wdata(reg_wdata), .reg_write(reg_write), .reg_rdata(reg_rdata[U_BDMA*32 +: 32]),
                .cfg(cfg), .stat(stat)
            );
            nvdla_bdma #(.ATOM(ATOM), .MAX_BURST(MAX_BURST), .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_bdma (
                .clk(clk), .rst_n(rst_n), .cfg(cfg), .stat(stat), .done_intr(bdma_done), .busy(busy_unused),
                `NVDLA_AXI_UNIT_TO_ARB(M_BDMA)
            );
        end else begin : g_no_bdma
            assign bdma_done = 2'b00;
        end
    endgenerate

    // ---- Rubik (configurations with it): registers (two groups), unit on the last memory-interface port --
    wire [1:0] rubik_done;
    generate
        if (RUBIK == 1) begin : g_rubik
            wire                     op_en, consumer, done, busy_unused;
            wire [`RUBIK_CFG_W-1:0]  cfg;
            wire [`RUBIK_STAT_W-1:0] stat;
            nvdla_rubik_regs u_rubik_regs (
                .clk(clk), .rst_n(rst_n), .reg_sel(reg_sel[U_RUBIK]), .reg_offset(reg_offset),
                .reg_wdata(reg_wdata), .reg_write(reg_write), .reg_rdata(reg_rdata[U_RUBIK*32 +: 32]),
                .dp_done(done), .op_en(op_en), .consumer(consumer), .cfg(cfg), .stat(stat)
            );
            nvdla_rubik #(.ATOM(ATOM), .MAX_BURST(MAX_BURST), .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_rubik (
                .clk(clk), .rst_n(rst_n), .op_en(op_en), .cfg(cfg), .stat(stat), .done(done), .busy(busy_unused),
                `NVDLA_AXI_UNIT_TO_ARB(M_RUBIK)
            );
            assign rubik_done = {done & consumer, done & ~consumer};
        end else begin : g_no_rubik
            assign rubik_done = 2'b00;
        end
    endgenerate

    // ---- GLB: interrupt status per unit and group --------------------------------------------------------
    nvdla_glb #(.STATUS_IMPL(32'h003f_003f | (BDMA == 1 ? (32'h3 << GLB_INTR_BDMA_DONE0) : 32'h0)
                             | (CONV == 1 ? (32'h3 << GLB_INTR_CDMA_DAT_DONE0) | (32'h3 << GLB_INTR_CDMA_WT_DONE0)
                                            | (32'h3 << GLB_INTR_CACC_DONE0) : 32'h0)
                             | (RUBIK == 1 ? (32'h3 << GLB_INTR_RUBIK_DONE0) : 32'h0))) u_glb (
        .clk(clk), .rst_n(rst_n),
        .reg_sel(reg_sel[U_GLB]), .reg_offset(reg_offset), .reg_wdata(reg_wdata), .reg_write(reg_write),
        .reg_rdata(reg_rdata[U_GLB*32 +: 32]),
        .sdp_done_intr({sdp_done & sdp_consumer, sdp_done & ~sdp_consumer}),
        .cdp_done_intr({cdp_done & cdp_consumer, cdp_done & ~cdp_consumer}),
        .pdp_done_intr({pdp_done & pdp_consumer, pdp_done & ~pdp_consumer}),
        .bdma_done_intr(bdma_done),
        .cdma_dat_done_intr(cdma_dat_intr), .cdma_wt_done_intr(cdma_wt_intr), .cacc_done_intr(cacc_intr),
        .rubik_done_intr(rubik_done),
        .intr(intr)
    );

    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_ok = &{1'b0, pdp_busy_unused, cdp_busy_unused, sdp_busy_unused,
                       pdp_rdma_consumer_unused, cdp_rdma_consumer_unused, sdp_rdma_consumer_unused,
                       cc_ready};
    /* verilator lint_on UNUSEDSIGNAL */
endmodule
