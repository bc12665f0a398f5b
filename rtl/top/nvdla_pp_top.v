// Post-processing subsystem top level: NVDLA host CSB port, one AXI4 master (64-bit data, 32-bit addresses),
// the GLB interrupt. Units: SDP (with SDP_RDMA), PDP (with PDP_RDMA) and CDP (with CDP_RDMA), sharing the AXI
// master through two cascaded rtl/dma/nvdla_axi_arb.v: PDP and CDP on the inner one (ID bit 0), that one and
// SDP on the outer one (ID bit 1), so the AXI IDs are PDP 0, CDP 1, SDP 2. Addresses outside the units'
// windows answer as NVDLA's unmapped ones (reads 0, writes dropped, non-posted writes acknowledged).
//
// The PDP datapath takes its geometry from the PDP registers and only the source addresses from PDP_RDMA:
// NVDLA requires both copies to agree (the driver layer checks), and one geometry for both DMA sides and the
// core means that registers which disagree can give wrong data but never a stalled pipeline. CDP likewise:
// the cube comes from CDP_RDMA (the CDP registers have none), the destination and datapath from CDP.
module nvdla_pp_top #(
    parameter PDP_MAX_W       = 64,   // output columns of one PDP band held by the line buffer
    parameter MAX_BURST       = 16,
    parameter MAX_OUTSTANDING = 8
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
    input  wire [63:0] m_axi_rdata,
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
    output wire [63:0] m_axi_wdata,
    output wire [7:0]  m_axi_wstrb,
    output wire        m_axi_wlast,
    input  wire        m_axi_bvalid,
    output wire        m_axi_bready,
    input  wire [1:0]  m_axi_bresp,
    input  wire [3:0]  m_axi_bid,
    output wire        intr
);
    // CSB windows and LUT access registers, generated from the register description (make regs)
    /* verilator lint_off UNUSEDPARAM */
    `include "nvdla_csb_map.vh"
    /* verilator lint_on UNUSEDPARAM */

    // unit order on the CSB slave: GLB, PDP_RDMA, PDP, CDP_RDMA, CDP, SDP_RDMA, SDP
    localparam NUNITS = 7;
    localparam U_GLB = 0, U_PDP_RDMA = 1, U_PDP = 2, U_CDP_RDMA = 3, U_CDP = 4, U_SDP_RDMA = 5, U_SDP = 6;

    wire [NUNITS-1:0]    reg_sel;
    wire [9:0]           reg_offset;
    wire [31:0]          reg_wdata;
    wire                 reg_write;
    wire [NUNITS*32-1:0] reg_rdata;

    nvdla_csb_slave #(.NUNITS(NUNITS), .UNIT_IDS({CSB_WIN_SDP, CSB_WIN_SDP_RDMA, CSB_WIN_CDP, CSB_WIN_CDP_RDMA,
                                                  CSB_WIN_PDP, CSB_WIN_PDP_RDMA, CSB_WIN_GLB})) u_csb (
        .clk(clk), .rst_n(rst_n),
        .csb_req_valid(csb_req_valid), .csb_req_ready(csb_req_ready), .csb_req_addr(csb_req_addr),
        .csb_req_wdat(csb_req_wdat), .csb_req_write(csb_req_write), .csb_req_nposted(csb_req_nposted),
        .csb_resp_valid(csb_resp_valid), .csb_resp_data(csb_resp_data), .csb_wr_complete(csb_wr_complete),
        .reg_sel(reg_sel), .reg_offset(reg_offset), .reg_wdata(reg_wdata), .reg_write(reg_write),
        .reg_rdata(reg_rdata)
    );

    // ---- PDP registers (both groups), consumer-group fields out ------------------------------------------
    // Register fields this top does not use (CYA, perf enables, high address words, RAM types, ...) are left
    // unread on purpose: they exist so that software sees NVDLA's register file.
    /* verilator lint_off UNUSEDSIGNAL */
    wire [12:0]   pdp_d_data_cube_in_width_cube_in_width;
    wire [12:0]   pdp_d_data_cube_in_height_cube_in_height;
    wire [12:0]   pdp_d_data_cube_in_channel_cube_in_channel;
    wire [12:0]   pdp_d_data_cube_out_width_cube_out_width;
    wire [12:0]   pdp_d_data_cube_out_height_cube_out_height;
    wire [12:0]   pdp_d_data_cube_out_channel_cube_out_channel;
    wire [1:0]    pdp_d_operation_mode_cfg_pooling_method;
    wire          pdp_d_operation_mode_cfg_flying_mode;
    wire [7:0]    pdp_d_operation_mode_cfg_split_num;
    wire          pdp_d_nan_flush_to_zero_nan_to_zero;
    wire [9:0]    pdp_d_partial_width_in_partial_width_in_first;
    wire [9:0]    pdp_d_partial_width_in_partial_width_in_last;
    wire [9:0]    pdp_d_partial_width_in_partial_width_in_mid;
    wire [9:0]    pdp_d_partial_width_out_partial_width_out_first;
    wire [9:0]    pdp_d_partial_width_out_partial_width_out_last;
    wire [9:0]    pdp_d_partial_width_out_partial_width_out_mid;
    wire [3:0]    pdp_d_pooling_kernel_cfg_kernel_width;
    wire [3:0]    pdp_d_pooling_kernel_cfg_kernel_height;
    wire [3:0]    pdp_d_pooling_kernel_cfg_kernel_stride_width;
    wire [3:0]    pdp_d_pooling_kernel_cfg_kernel_stride_height;
    wire [16:0]   pdp_d_recip_kernel_width_recip_kernel_width;
    wire [16:0]   pdp_d_recip_kernel_height_recip_kernel_height;
    wire [2:0]    pdp_d_pooling_padding_cfg_pad_left;
    wire [2:0]    pdp_d_pooling_padding_cfg_pad_top;
    wire [2:0]    pdp_d_pooling_padding_cfg_pad_right;
    wire [2:0]    pdp_d_pooling_padding_cfg_pad_bottom;
    wire [18:0]   pdp_d_pooling_padding_value_1_cfg_pad_value_1x;
    wire [18:0]   pdp_d_pooling_padding_value_2_cfg_pad_value_2x;
    wire [18:0]   pdp_d_pooling_padding_value_3_cfg_pad_value_3x;
    wire [18:0]   pdp_d_pooling_padding_value_4_cfg_pad_value_4x;
    wire [18:0]   pdp_d_pooling_padding_value_5_cfg_pad_value_5x;
    wire [18:0]   pdp_d_pooling_padding_value_6_cfg_pad_value_6x;
    wire [18:0]   pdp_d_pooling_padding_value_7_cfg_pad_value_7x;
    wire [31:0]   pdp_d_src_base_addr_low_src_base_addr_low;
    wire [31:0]   pdp_d_src_base_addr_high_src_base_addr_high;
    wire [31:0]   pdp_d_src_line_stride_src_line_stride;
    wire [31:0]   pdp_d_src_surface_stride_src_surface_stride;
    wire [31:0]   pdp_d_dst_base_addr_low_dst_base_addr_low;
    wire [31:0]   pdp_d_dst_base_addr_high_dst_base_addr_high;
    wire [31:0]   pdp_d_dst_line_stride_dst_line_stride;
    wire [31:0]   pdp_d_dst_surface_stride_dst_surface_stride;
    wire          pdp_d_dst_ram_cfg_dst_ram_type;
    wire [1:0]    pdp_d_data_format_input_data;
    wire          pdp_d_perf_enable_dma_en;
    wire [31:0]   pdp_d_cya_cya;
    wire [12:0]   rdma_d_data_cube_in_width_cube_in_width;
    wire [12:0]   rdma_d_data_cube_in_height_cube_in_height;
    wire [12:0]   rdma_d_data_cube_in_channel_cube_in_channel;
    wire          rdma_d_flying_mode_flying_mode;
    wire [31:0]   rdma_d_src_base_addr_low_src_base_addr_low;
    wire [31:0]   rdma_d_src_base_addr_high_src_base_addr_high;
    wire [31:0]   rdma_d_src_line_stride_src_line_stride;
    wire [31:0]   rdma_d_src_surface_stride_src_surface_stride;
    wire          rdma_d_src_ram_cfg_src_ram_type;
    wire [1:0]    rdma_d_data_format_input_data;
    wire [7:0]    rdma_d_operation_mode_cfg_split_num;
    wire [3:0]    rdma_d_pooling_kernel_cfg_kernel_width;
    wire [3:0]    rdma_d_pooling_kernel_cfg_kernel_stride_width;
    wire [3:0]    rdma_d_pooling_padding_cfg_pad_width;
    wire [9:0]    rdma_d_partial_width_in_partial_width_in_first;
    wire [9:0]    rdma_d_partial_width_in_partial_width_in_last;
    wire [9:0]    rdma_d_partial_width_in_partial_width_in_mid;
    wire          rdma_d_perf_enable_dma_en;
    wire [31:0]   rdma_d_cya_cya;
    /* verilator lint_on UNUSEDSIGNAL */
    wire pdp_op_en, pdp_consumer, rdma_op_en, rdma_consumer_unused, pdp_done;

    nvdla_pdp_regs u_pdp_regs (
        .clk(clk), .rst_n(rst_n),
        .reg_sel(reg_sel[U_PDP]), .reg_offset(reg_offset), .reg_wdata(reg_wdata), .reg_write(reg_write),
        .reg_rdata(reg_rdata[U_PDP*32 +: 32]),
        .dp_done(pdp_done), .op_en(pdp_op_en), .consumer(pdp_consumer),
        .d_data_cube_in_width_cube_in_width(pdp_d_data_cube_in_width_cube_in_width),
        .d_data_cube_in_height_cube_in_height(pdp_d_data_cube_in_height_cube_in_height),
        .d_data_cube_in_channel_cube_in_channel(pdp_d_data_cube_in_channel_cube_in_channel),
        .d_data_cube_out_width_cube_out_width(pdp_d_data_cube_out_width_cube_out_width),
        .d_data_cube_out_height_cube_out_height(pdp_d_data_cube_out_height_cube_out_height),
        .d_data_cube_out_channel_cube_out_channel(pdp_d_data_cube_out_channel_cube_out_channel),
        .d_operation_mode_cfg_pooling_method(pdp_d_operation_mode_cfg_pooling_method),
        .d_operation_mode_cfg_flying_mode(pdp_d_operation_mode_cfg_flying_mode),
        .d_operation_mode_cfg_split_num(pdp_d_operation_mode_cfg_split_num),
        .d_nan_flush_to_zero_nan_to_zero(pdp_d_nan_flush_to_zero_nan_to_zero),
        .d_partial_width_in_partial_width_in_first(pdp_d_partial_width_in_partial_width_in_first),
        .d_partial_width_in_partial_width_in_last(pdp_d_partial_width_in_partial_width_in_last),
        .d_partial_width_in_partial_width_in_mid(pdp_d_partial_width_in_partial_width_in_mid),
        .d_partial_width_out_partial_width_out_first(pdp_d_partial_width_out_partial_width_out_first),
        .d_partial_width_out_partial_width_out_last(pdp_d_partial_width_out_partial_width_out_last),
        .d_partial_width_out_partial_width_out_mid(pdp_d_partial_width_out_partial_width_out_mid),
        .d_pooling_kernel_cfg_kernel_width(pdp_d_pooling_kernel_cfg_kernel_width),
        .d_pooling_kernel_cfg_kernel_height(pdp_d_pooling_kernel_cfg_kernel_height),
        .d_pooling_kernel_cfg_kernel_stride_width(pdp_d_pooling_kernel_cfg_kernel_stride_width),
        .d_pooling_kernel_cfg_kernel_stride_height(pdp_d_pooling_kernel_cfg_kernel_stride_height),
        .d_recip_kernel_width_recip_kernel_width(pdp_d_recip_kernel_width_recip_kernel_width),
        .d_recip_kernel_height_recip_kernel_height(pdp_d_recip_kernel_height_recip_kernel_height),
        .d_pooling_padding_cfg_pad_left(pdp_d_pooling_padding_cfg_pad_left),
        .d_pooling_padding_cfg_pad_top(pdp_d_pooling_padding_cfg_pad_top),
        .d_pooling_padding_cfg_pad_right(pdp_d_pooling_padding_cfg_pad_right),
        .d_pooling_padding_cfg_pad_bottom(pdp_d_pooling_padding_cfg_pad_bottom),
        .d_pooling_padding_value_1_cfg_pad_value_1x(pdp_d_pooling_padding_value_1_cfg_pad_value_1x),
        .d_pooling_padding_value_2_cfg_pad_value_2x(pdp_d_pooling_padding_value_2_cfg_pad_value_2x),
        .d_pooling_padding_value_3_cfg_pad_value_3x(pdp_d_pooling_padding_value_3_cfg_pad_value_3x),
        .d_pooling_padding_value_4_cfg_pad_value_4x(pdp_d_pooling_padding_value_4_cfg_pad_value_4x),
        .d_pooling_padding_value_5_cfg_pad_value_5x(pdp_d_pooling_padding_value_5_cfg_pad_value_5x),
        .d_pooling_padding_value_6_cfg_pad_value_6x(pdp_d_pooling_padding_value_6_cfg_pad_value_6x),
        .d_pooling_padding_value_7_cfg_pad_value_7x(pdp_d_pooling_padding_value_7_cfg_pad_value_7x),
        .d_src_base_addr_low_src_base_addr_low(pdp_d_src_base_addr_low_src_base_addr_low),
        .d_src_base_addr_high_src_base_addr_high(pdp_d_src_base_addr_high_src_base_addr_high),
        .d_src_line_stride_src_line_stride(pdp_d_src_line_stride_src_line_stride),
        .d_src_surface_stride_src_surface_stride(pdp_d_src_surface_stride_src_surface_stride),
        .d_dst_base_addr_low_dst_base_addr_low(pdp_d_dst_base_addr_low_dst_base_addr_low),
        .d_dst_base_addr_high_dst_base_addr_high(pdp_d_dst_base_addr_high_dst_base_addr_high),
        .d_dst_line_stride_dst_line_stride(pdp_d_dst_line_stride_dst_line_stride),
        .d_dst_surface_stride_dst_surface_stride(pdp_d_dst_surface_stride_dst_surface_stride),
        .d_dst_ram_cfg_dst_ram_type(pdp_d_dst_ram_cfg_dst_ram_type),
        .d_data_format_input_data(pdp_d_data_format_input_data),
        .d_perf_enable_dma_en(pdp_d_perf_enable_dma_en),
        .d_cya_cya(pdp_d_cya_cya),
        .d_inf_input_num_inf_input_num(32'd0),        // INT8 only: no NaN/Inf
        .d_nan_input_num_nan_input_num(32'd0),
        .d_nan_output_num_nan_output_num(32'd0),
        .d_perf_write_stall_perf_write_stall(32'd0)
    );

    nvdla_pdp_rdma_regs u_pdp_rdma_regs (
        .clk(clk), .rst_n(rst_n),
        .reg_sel(reg_sel[U_PDP_RDMA]), .reg_offset(reg_offset), .reg_wdata(reg_wdata), .reg_write(reg_write),
        .reg_rdata(reg_rdata[U_PDP_RDMA*32 +: 32]),
        .dp_done(pdp_done & rdma_op_en), .op_en(rdma_op_en), .consumer(rdma_consumer_unused),
        .d_data_cube_in_width_cube_in_width(rdma_d_data_cube_in_width_cube_in_width),
        .d_data_cube_in_height_cube_in_height(rdma_d_data_cube_in_height_cube_in_height),
        .d_data_cube_in_channel_cube_in_channel(rdma_d_data_cube_in_channel_cube_in_channel),
        .d_flying_mode_flying_mode(rdma_d_flying_mode_flying_mode),
        .d_src_base_addr_low_src_base_addr_low(rdma_d_src_base_addr_low_src_base_addr_low),
        .d_src_base_addr_high_src_base_addr_high(rdma_d_src_base_addr_high_src_base_addr_high),
        .d_src_line_stride_src_line_stride(rdma_d_src_line_stride_src_line_stride),
        .d_src_surface_stride_src_surface_stride(rdma_d_src_surface_stride_src_surface_stride),
        .d_src_ram_cfg_src_ram_type(rdma_d_src_ram_cfg_src_ram_type),
        .d_data_format_input_data(rdma_d_data_format_input_data),
        .d_operation_mode_cfg_split_num(rdma_d_operation_mode_cfg_split_num),
        .d_pooling_kernel_cfg_kernel_width(rdma_d_pooling_kernel_cfg_kernel_width),
        .d_pooling_kernel_cfg_kernel_stride_width(rdma_d_pooling_kernel_cfg_kernel_stride_width),
        .d_pooling_padding_cfg_pad_width(rdma_d_pooling_padding_cfg_pad_width),
        .d_partial_width_in_partial_width_in_first(rdma_d_partial_width_in_partial_width_in_first),
        .d_partial_width_in_partial_width_in_last(rdma_d_partial_width_in_partial_width_in_last),
        .d_partial_width_in_partial_width_in_mid(rdma_d_partial_width_in_partial_width_in_mid),
        .d_perf_enable_dma_en(rdma_d_perf_enable_dma_en),
        .d_cya_cya(rdma_d_cya_cya),
        .d_perf_read_stall_perf_read_stall(32'd0)
    );

    // PDP's AXI master, to port 0 of the arbiter
    wire pdp_axi_arvalid;
    wire pdp_axi_arready;
    wire [31:0] pdp_axi_araddr;
    wire [7:0] pdp_axi_arlen;
    wire [2:0] pdp_axi_arsize;
    wire [1:0] pdp_axi_arburst;
    wire [3:0] pdp_axi_arid;
    wire pdp_axi_rvalid;
    wire pdp_axi_rready;
    wire [63:0] pdp_axi_rdata;
    wire [1:0] pdp_axi_rresp;
    wire pdp_axi_rlast;
    wire pdp_axi_awvalid;
    wire pdp_axi_awready;
    wire [31:0] pdp_axi_awaddr;
    wire [7:0] pdp_axi_awlen;
    wire [2:0] pdp_axi_awsize;
    wire [1:0] pdp_axi_awburst;
    wire [3:0] pdp_axi_awid;
    wire pdp_axi_wvalid;
    wire pdp_axi_wready;
    wire [63:0] pdp_axi_wdata;
    wire [7:0] pdp_axi_wstrb;
    wire pdp_axi_wlast;
    wire pdp_axi_bvalid;
    wire pdp_axi_bready;
    wire [1:0] pdp_axi_bresp;

    // ---- PDP datapath ---------------------------------------------------------------------------------
    // On-the-fly layers need no RDMA; memory-input layers wait for the RDMA's group to be enabled too.
    wire pdp_flying = ~pdp_d_operation_mode_cfg_flying_mode;   // FLYING_MODE: 0 = on the fly, 1 = off
    // SDP -> PDP on the fly (SDP OUTPUT_DST = PDP, PDP FLYING_MODE = ON): SDP's output atoms in cube order
    wire        sdp_fly_valid, sdp_fly_ready;
    wire [63:0] sdp_fly_data;
    wire pdp_busy_unused;

    nvdla_pdp #(.ATOM(8), .MAX_W(PDP_MAX_W), .MAX_BURST(MAX_BURST), .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_pdp (
        .clk(clk), .rst_n(rst_n),
        .op_en(pdp_op_en & (pdp_flying | rdma_op_en)), .flying(pdp_flying),
        .fly_valid(sdp_fly_valid), .fly_ready(sdp_fly_ready), .fly_data(sdp_fly_data),
        .done(pdp_done), .busy(pdp_busy_unused),
        .pooling_method(pdp_d_operation_mode_cfg_pooling_method),
        .split_num(pdp_d_operation_mode_cfg_split_num),
        .cube_in_width_m1(pdp_d_data_cube_in_width_cube_in_width),
        .cube_in_height_m1(pdp_d_data_cube_in_height_cube_in_height),
        .cube_in_channel_m1(pdp_d_data_cube_in_channel_cube_in_channel),
        .cube_out_width_m1(pdp_d_data_cube_out_width_cube_out_width),
        .cube_out_height_m1(pdp_d_data_cube_out_height_cube_out_height),
        .in_first_m1(pdp_d_partial_width_in_partial_width_in_first),
        .in_mid_m1(pdp_d_partial_width_in_partial_width_in_mid),
        .in_last_m1(pdp_d_partial_width_in_partial_width_in_last),
        .out_first_m1(pdp_d_partial_width_out_partial_width_out_first),
        .out_mid_m1(pdp_d_partial_width_out_partial_width_out_mid),
        .out_last_m1(pdp_d_partial_width_out_partial_width_out_last),
        .kernel_w_m1(pdp_d_pooling_kernel_cfg_kernel_width),
        .kernel_h_m1(pdp_d_pooling_kernel_cfg_kernel_height),
        .stride_w_m1(pdp_d_pooling_kernel_cfg_kernel_stride_width),
        .stride_h_m1(pdp_d_pooling_kernel_cfg_kernel_stride_height),
        .pad_left(pdp_d_pooling_padding_cfg_pad_left),
        .pad_top(pdp_d_pooling_padding_cfg_pad_top),
        .pad_value_1x(pdp_d_pooling_padding_value_1_cfg_pad_value_1x),
        .pad_value_2x(pdp_d_pooling_padding_value_2_cfg_pad_value_2x),
        .pad_value_3x(pdp_d_pooling_padding_value_3_cfg_pad_value_3x),
        .pad_value_4x(pdp_d_pooling_padding_value_4_cfg_pad_value_4x),
        .pad_value_5x(pdp_d_pooling_padding_value_5_cfg_pad_value_5x),
        .pad_value_6x(pdp_d_pooling_padding_value_6_cfg_pad_value_6x),
        .pad_value_7x(pdp_d_pooling_padding_value_7_cfg_pad_value_7x),
        .recip_width(pdp_d_recip_kernel_width_recip_kernel_width),
        .recip_height(pdp_d_recip_kernel_height_recip_kernel_height),
        .dst_base(pdp_d_dst_base_addr_low_dst_base_addr_low),
        .dst_line_stride(pdp_d_dst_line_stride_dst_line_stride),
        .dst_surface_stride(pdp_d_dst_surface_stride_dst_surface_stride),
        .src_base(rdma_d_src_base_addr_low_src_base_addr_low),
        .src_line_stride(rdma_d_src_line_stride_src_line_stride),
        .src_surface_stride(rdma_d_src_surface_stride_src_surface_stride),
        .m_axi_arvalid(pdp_axi_arvalid), .m_axi_arready(pdp_axi_arready), .m_axi_araddr(pdp_axi_araddr),
        .m_axi_arlen(pdp_axi_arlen), .m_axi_arsize(pdp_axi_arsize), .m_axi_arburst(pdp_axi_arburst),
        .m_axi_arid(pdp_axi_arid), .m_axi_rvalid(pdp_axi_rvalid), .m_axi_rready(pdp_axi_rready),
        .m_axi_rdata(pdp_axi_rdata), .m_axi_rresp(pdp_axi_rresp), .m_axi_rlast(pdp_axi_rlast),
        .m_axi_awvalid(pdp_axi_awvalid), .m_axi_awready(pdp_axi_awready), .m_axi_awaddr(pdp_axi_awaddr),
        .m_axi_awlen(pdp_axi_awlen), .m_axi_awsize(pdp_axi_awsize), .m_axi_awburst(pdp_axi_awburst),
        .m_axi_awid(pdp_axi_awid), .m_axi_wvalid(pdp_axi_wvalid), .m_axi_wready(pdp_axi_wready),
        .m_axi_wdata(pdp_axi_wdata), .m_axi_wstrb(pdp_axi_wstrb), .m_axi_wlast(pdp_axi_wlast),
        .m_axi_bvalid(pdp_axi_bvalid), .m_axi_bready(pdp_axi_bready), .m_axi_bresp(pdp_axi_bresp)
    );


    // ---- CDP registers (both groups), consumer-group fields out ------------------------------------------
    /* verilator lint_off UNUSEDSIGNAL */
    wire cdp_s_lut_access_cfg_lut_table_id;
    wire cdp_s_lut_access_cfg_lut_access_type;
    wire cdp_s_lut_cfg_lut_le_function;
    wire cdp_s_lut_cfg_lut_uflow_priority;
    wire cdp_s_lut_cfg_lut_oflow_priority;
    wire cdp_s_lut_cfg_lut_hybrid_priority;
    wire [7:0] cdp_s_lut_info_lut_le_index_offset;
    wire [7:0] cdp_s_lut_info_lut_le_index_select;
    wire [7:0] cdp_s_lut_info_lut_lo_index_select;
    wire [31:0] cdp_s_lut_le_start_low_lut_le_start_low;
    wire [5:0] cdp_s_lut_le_start_high_lut_le_start_high;
    wire [31:0] cdp_s_lut_le_end_low_lut_le_end_low;
    wire [5:0] cdp_s_lut_le_end_high_lut_le_end_high;
    wire [31:0] cdp_s_lut_lo_start_low_lut_lo_start_low;
    wire [5:0] cdp_s_lut_lo_start_high_lut_lo_start_high;
    wire [31:0] cdp_s_lut_lo_end_low_lut_lo_end_low;
    wire [5:0] cdp_s_lut_lo_end_high_lut_lo_end_high;
    wire [15:0] cdp_s_lut_le_slope_scale_lut_le_slope_uflow_scale;
    wire [15:0] cdp_s_lut_le_slope_scale_lut_le_slope_oflow_scale;
    wire [4:0] cdp_s_lut_le_slope_shift_lut_le_slope_uflow_shift;
    wire [4:0] cdp_s_lut_le_slope_shift_lut_le_slope_oflow_shift;
    wire [15:0] cdp_s_lut_lo_slope_scale_lut_lo_slope_uflow_scale;
    wire [15:0] cdp_s_lut_lo_slope_scale_lut_lo_slope_oflow_scale;
    wire [4:0] cdp_s_lut_lo_slope_shift_lut_lo_slope_uflow_shift;
    wire [4:0] cdp_s_lut_lo_slope_shift_lut_lo_slope_oflow_shift;
    wire cdp_d_func_bypass_sqsum_bypass;
    wire cdp_d_func_bypass_mul_bypass;
    wire [31:0] cdp_d_dst_base_addr_low_dst_base_addr_low;
    wire [31:0] cdp_d_dst_base_addr_high_dst_base_addr_high;
    wire [31:0] cdp_d_dst_line_stride_dst_line_stride;
    wire [31:0] cdp_d_dst_surface_stride_dst_surface_stride;
    wire cdp_d_dst_dma_cfg_dst_ram_type;
    wire [1:0] cdp_d_data_format_input_data_type;
    wire cdp_d_nan_flush_to_zero_nan_to_zero;
    wire [1:0] cdp_d_lrn_cfg_normalz_len;
    wire [15:0] cdp_d_datin_offset_datin_offset;
    wire [15:0] cdp_d_datin_scale_datin_scale;
    wire [4:0] cdp_d_datin_shifter_datin_shifter;
    wire [31:0] cdp_d_datout_offset_datout_offset;
    wire [15:0] cdp_d_datout_scale_datout_scale;
    wire [5:0] cdp_d_datout_shifter_datout_shifter;
    wire cdp_d_perf_enable_dma_en;
    wire cdp_d_perf_enable_lut_en;
    wire [31:0] cdp_d_cya_cya;
    wire [12:0] crdma_d_data_cube_width_width;
    wire [12:0] crdma_d_data_cube_height_height;
    wire [12:0] crdma_d_data_cube_channel_channel;
    wire [31:0] crdma_d_src_base_addr_low_src_base_addr_low;
    wire [31:0] crdma_d_src_base_addr_high_src_base_addr_high;
    wire [31:0] crdma_d_src_line_stride_src_line_stride;
    wire [31:0] crdma_d_src_surface_stride_src_surface_stride;
    wire crdma_d_src_dma_cfg_src_ram_type;
    wire [1:0] crdma_d_data_format_input_data;
    wire crdma_d_perf_enable_dma_en;
    wire [31:0] crdma_d_cya_cya;
    // the register block's LUT strobes: the core takes its accesses from the CSB request (see below)
    wire [9:0]  cdp_lut_access_addr;
    wire        cdp_lut_access_wr, cdp_lut_access_rd;
    wire [15:0] cdp_lut_access_wdata;
    /* verilator lint_on UNUSEDSIGNAL */
    wire [15:0] cdp_lut_access_rdata;
    wire        cdp_op_en, cdp_consumer, crdma_op_en, crdma_consumer_unused, cdp_done;
    wire [31:0] cdp_cnt_le_hit, cdp_cnt_lo_hit, cdp_cnt_uflow, cdp_cnt_oflow, cdp_cnt_hybrid, cdp_cnt_out_sat;

    nvdla_cdp_regs u_cdp_regs (
        .clk(clk), .rst_n(rst_n),
        .reg_sel(reg_sel[U_CDP]), .reg_offset(reg_offset), .reg_wdata(reg_wdata), .reg_write(reg_write),
        .reg_rdata(reg_rdata[U_CDP*32 +: 32]),
        .dp_done(cdp_done), .op_en(cdp_op_en), .consumer(cdp_consumer),
        .lut_access_addr(cdp_lut_access_addr),
        .lut_access_wr(cdp_lut_access_wr),
        .lut_access_wdata(cdp_lut_access_wdata),
        .lut_access_rd(cdp_lut_access_rd),
        .lut_access_rdata(cdp_lut_access_rdata),
        .s_lut_access_cfg_lut_table_id(cdp_s_lut_access_cfg_lut_table_id),
        .s_lut_access_cfg_lut_access_type(cdp_s_lut_access_cfg_lut_access_type),
        .s_lut_cfg_lut_le_function(cdp_s_lut_cfg_lut_le_function),
        .s_lut_cfg_lut_uflow_priority(cdp_s_lut_cfg_lut_uflow_priority),
        .s_lut_cfg_lut_oflow_priority(cdp_s_lut_cfg_lut_oflow_priority),
        .s_lut_cfg_lut_hybrid_priority(cdp_s_lut_cfg_lut_hybrid_priority),
        .s_lut_info_lut_le_index_offset(cdp_s_lut_info_lut_le_index_offset),
        .s_lut_info_lut_le_index_select(cdp_s_lut_info_lut_le_index_select),
        .s_lut_info_lut_lo_index_select(cdp_s_lut_info_lut_lo_index_select),
        .s_lut_le_start_low_lut_le_start_low(cdp_s_lut_le_start_low_lut_le_start_low),
        .s_lut_le_start_high_lut_le_start_high(cdp_s_lut_le_start_high_lut_le_start_high),
        .s_lut_le_end_low_lut_le_end_low(cdp_s_lut_le_end_low_lut_le_end_low),
        .s_lut_le_end_high_lut_le_end_high(cdp_s_lut_le_end_high_lut_le_end_high),
        .s_lut_lo_start_low_lut_lo_start_low(cdp_s_lut_lo_start_low_lut_lo_start_low),
        .s_lut_lo_start_high_lut_lo_start_high(cdp_s_lut_lo_start_high_lut_lo_start_high),
        .s_lut_lo_end_low_lut_lo_end_low(cdp_s_lut_lo_end_low_lut_lo_end_low),
        .s_lut_lo_end_high_lut_lo_end_high(cdp_s_lut_lo_end_high_lut_lo_end_high),
        .s_lut_le_slope_scale_lut_le_slope_uflow_scale(cdp_s_lut_le_slope_scale_lut_le_slope_uflow_scale),
        .s_lut_le_slope_scale_lut_le_slope_oflow_scale(cdp_s_lut_le_slope_scale_lut_le_slope_oflow_scale),
        .s_lut_le_slope_shift_lut_le_slope_uflow_shift(cdp_s_lut_le_slope_shift_lut_le_slope_uflow_shift),
        .s_lut_le_slope_shift_lut_le_slope_oflow_shift(cdp_s_lut_le_slope_shift_lut_le_slope_oflow_shift),
        .s_lut_lo_slope_scale_lut_lo_slope_uflow_scale(cdp_s_lut_lo_slope_scale_lut_lo_slope_uflow_scale),
        .s_lut_lo_slope_scale_lut_lo_slope_oflow_scale(cdp_s_lut_lo_slope_scale_lut_lo_slope_oflow_scale),
        .s_lut_lo_slope_shift_lut_lo_slope_uflow_shift(cdp_s_lut_lo_slope_shift_lut_lo_slope_uflow_shift),
        .s_lut_lo_slope_shift_lut_lo_slope_oflow_shift(cdp_s_lut_lo_slope_shift_lut_lo_slope_oflow_shift),
        .d_func_bypass_sqsum_bypass(cdp_d_func_bypass_sqsum_bypass),
        .d_func_bypass_mul_bypass(cdp_d_func_bypass_mul_bypass),
        .d_dst_base_addr_low_dst_base_addr_low(cdp_d_dst_base_addr_low_dst_base_addr_low),
        .d_dst_base_addr_high_dst_base_addr_high(cdp_d_dst_base_addr_high_dst_base_addr_high),
        .d_dst_line_stride_dst_line_stride(cdp_d_dst_line_stride_dst_line_stride),
        .d_dst_surface_stride_dst_surface_stride(cdp_d_dst_surface_stride_dst_surface_stride),
        .d_dst_dma_cfg_dst_ram_type(cdp_d_dst_dma_cfg_dst_ram_type),
        .d_data_format_input_data_type(cdp_d_data_format_input_data_type),
        .d_nan_flush_to_zero_nan_to_zero(cdp_d_nan_flush_to_zero_nan_to_zero),
        .d_lrn_cfg_normalz_len(cdp_d_lrn_cfg_normalz_len),
        .d_datin_offset_datin_offset(cdp_d_datin_offset_datin_offset),
        .d_datin_scale_datin_scale(cdp_d_datin_scale_datin_scale),
        .d_datin_shifter_datin_shifter(cdp_d_datin_shifter_datin_shifter),
        .d_datout_offset_datout_offset(cdp_d_datout_offset_datout_offset),
        .d_datout_scale_datout_scale(cdp_d_datout_scale_datout_scale),
        .d_datout_shifter_datout_shifter(cdp_d_datout_shifter_datout_shifter),
        .d_perf_enable_dma_en(cdp_d_perf_enable_dma_en),
        .d_perf_enable_lut_en(cdp_d_perf_enable_lut_en),
        .d_cya_cya(cdp_d_cya_cya),
        .d_nan_input_num_nan_input_num(32'd0),
        .d_inf_input_num_inf_input_num(32'd0),
        .d_nan_output_num_nan_output_num(32'd0),
        .d_out_saturation_out_saturation(cdp_cnt_out_sat),
        .d_perf_write_stall_perf_write_stall(32'd0),
        .d_perf_lut_uflow_perf_lut_uflow(cdp_cnt_uflow),
        .d_perf_lut_oflow_perf_lut_oflow(cdp_cnt_oflow),
        .d_perf_lut_hybrid_perf_lut_hybrid(cdp_cnt_hybrid),
        .d_perf_lut_le_hit_perf_lut_le_hit(cdp_cnt_le_hit),
        .d_perf_lut_lo_hit_perf_lut_lo_hit(cdp_cnt_lo_hit)
    );

    nvdla_cdp_rdma_regs u_cdp_rdma_regs (
        .clk(clk), .rst_n(rst_n),
        .reg_sel(reg_sel[U_CDP_RDMA]), .reg_offset(reg_offset), .reg_wdata(reg_wdata), .reg_write(reg_write),
        .reg_rdata(reg_rdata[U_CDP_RDMA*32 +: 32]),
        .dp_done(cdp_done & crdma_op_en), .op_en(crdma_op_en), .consumer(crdma_consumer_unused),
        .d_data_cube_width_width(crdma_d_data_cube_width_width),
        .d_data_cube_height_height(crdma_d_data_cube_height_height),
        .d_data_cube_channel_channel(crdma_d_data_cube_channel_channel),
        .d_src_base_addr_low_src_base_addr_low(crdma_d_src_base_addr_low_src_base_addr_low),
        .d_src_base_addr_high_src_base_addr_high(crdma_d_src_base_addr_high_src_base_addr_high),
        .d_src_line_stride_src_line_stride(crdma_d_src_line_stride_src_line_stride),
        .d_src_surface_stride_src_surface_stride(crdma_d_src_surface_stride_src_surface_stride),
        .d_src_dma_cfg_src_ram_type(crdma_d_src_dma_cfg_src_ram_type),
        .d_data_format_input_data(crdma_d_data_format_input_data),
        .d_perf_enable_dma_en(crdma_d_perf_enable_dma_en),
        .d_cya_cya(crdma_d_cya_cya),
        .d_perf_read_stall_perf_read_stall(32'd0)
    );

    // ---- CDP datapath ---------------------------------------------------------------------------------
    // The LUT RAM in the core keeps the access pointer itself (rtl/lut/nvdla_lut_ram.v) and answers a DATA
    // read one cycle after its strobe, while the register block reads LUT data in its access cycle. So the
    // LUT accesses are decoded from the CSB request itself, one cycle ahead of the register access
    // (nvdla_csb_slave: request in cycle 0, register access in cycle 1, every request accepted): the read
    // word is ready when the register block returns it. Requests reach the LUT one per cycle in CSB order,
    // the same sequence the register block's own copy of the pointer (S_LUT_ACCESS_CFG read-back) sees.
    wire       cdp_lut_req    = csb_req_valid & (csb_req_addr[15:10] == CSB_WIN_CDP);
    wire       cdp_acc_cfg_we = cdp_lut_req & csb_req_write & (csb_req_addr[9:0] == CDP_LUT_ACCESS_CFG);
    wire       cdp_acc_data   = cdp_lut_req & (csb_req_addr[9:0] == CDP_LUT_ACCESS_DATA);
    /* verilator lint_off UNUSEDSIGNAL */
    wire [9:0] cdp_acc_cfg_addr_q;
    wire       cdp_acc_table, cdp_acc_write, cdp_busy_unused;
    /* verilator lint_on UNUSEDSIGNAL */
    wire cdp_axi_arvalid;
    wire cdp_axi_arready;
    wire [31:0] cdp_axi_araddr;
    wire [7:0] cdp_axi_arlen;
    wire [2:0] cdp_axi_arsize;
    wire [1:0] cdp_axi_arburst;
    wire [3:0] cdp_axi_arid;
    wire cdp_axi_rvalid;
    wire cdp_axi_rready;
    wire [63:0] cdp_axi_rdata;
    wire [1:0] cdp_axi_rresp;
    wire cdp_axi_rlast;
    wire cdp_axi_awvalid;
    wire cdp_axi_awready;
    wire [31:0] cdp_axi_awaddr;
    wire [7:0] cdp_axi_awlen;
    wire [2:0] cdp_axi_awsize;
    wire [1:0] cdp_axi_awburst;
    wire [3:0] cdp_axi_awid;
    wire cdp_axi_wvalid;
    wire cdp_axi_wready;
    wire [63:0] cdp_axi_wdata;
    wire [7:0] cdp_axi_wstrb;
    wire cdp_axi_wlast;
    wire cdp_axi_bvalid;
    wire cdp_axi_bready;
    wire [1:0] cdp_axi_bresp;

    nvdla_cdp #(.ATOM(8), .CHUNK(8), .CNT_W(32), .MAX_BURST(MAX_BURST), .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_cdp (
        .clk(clk), .rst_n(rst_n),
        .op_en(cdp_op_en & crdma_op_en), .done(cdp_done), .busy(cdp_busy_unused),
        .width_m1(crdma_d_data_cube_width_width),
        .height_m1(crdma_d_data_cube_height_height),
        .channel_m1(crdma_d_data_cube_channel_channel),
        .src_base(crdma_d_src_base_addr_low_src_base_addr_low),
        .src_line_stride(crdma_d_src_line_stride_src_line_stride),
        .src_surface_stride(crdma_d_src_surface_stride_src_surface_stride),
        .dst_base(cdp_d_dst_base_addr_low_dst_base_addr_low),
        .dst_line_stride(cdp_d_dst_line_stride_dst_line_stride),
        .dst_surface_stride(cdp_d_dst_surface_stride_dst_surface_stride),
        .normalz_len(cdp_d_lrn_cfg_normalz_len),
        .sqsum_bypass(cdp_d_func_bypass_sqsum_bypass),
        .mul_bypass(cdp_d_func_bypass_mul_bypass),
        .datin_offset(cdp_d_datin_offset_datin_offset),
        .datin_scale(cdp_d_datin_scale_datin_scale),
        .datin_shifter(cdp_d_datin_shifter_datin_shifter),
        .datout_offset(cdp_d_datout_offset_datout_offset),
        .datout_scale(cdp_d_datout_scale_datout_scale),
        .datout_shifter(cdp_d_datout_shifter_datout_shifter),
        .lut_le_function(cdp_s_lut_cfg_lut_le_function),
        .lut_uflow_priority(cdp_s_lut_cfg_lut_uflow_priority),
        .lut_oflow_priority(cdp_s_lut_cfg_lut_oflow_priority),
        .lut_hybrid_priority(cdp_s_lut_cfg_lut_hybrid_priority),
        .lut_le_index_offset(cdp_s_lut_info_lut_le_index_offset),
        .lut_le_index_select(cdp_s_lut_info_lut_le_index_select),
        .lut_lo_index_select(cdp_s_lut_info_lut_lo_index_select),
        .lut_le_start({cdp_s_lut_le_start_high_lut_le_start_high, cdp_s_lut_le_start_low_lut_le_start_low}),
        .lut_le_end({cdp_s_lut_le_end_high_lut_le_end_high, cdp_s_lut_le_end_low_lut_le_end_low}),
        .lut_lo_start({cdp_s_lut_lo_start_high_lut_lo_start_high, cdp_s_lut_lo_start_low_lut_lo_start_low}),
        .lut_lo_end({cdp_s_lut_lo_end_high_lut_lo_end_high, cdp_s_lut_lo_end_low_lut_lo_end_low}),
        .lut_le_slope_uflow_scale(cdp_s_lut_le_slope_scale_lut_le_slope_uflow_scale),
        .lut_le_slope_oflow_scale(cdp_s_lut_le_slope_scale_lut_le_slope_oflow_scale),
        .lut_le_slope_uflow_shift(cdp_s_lut_le_slope_shift_lut_le_slope_uflow_shift),
        .lut_le_slope_oflow_shift(cdp_s_lut_le_slope_shift_lut_le_slope_oflow_shift),
        .lut_lo_slope_uflow_scale(cdp_s_lut_lo_slope_scale_lut_lo_slope_uflow_scale),
        .lut_lo_slope_oflow_scale(cdp_s_lut_lo_slope_scale_lut_lo_slope_oflow_scale),
        .lut_lo_slope_uflow_shift(cdp_s_lut_lo_slope_shift_lut_lo_slope_uflow_shift),
        .lut_lo_slope_oflow_shift(cdp_s_lut_lo_slope_shift_lut_lo_slope_oflow_shift),
        .acc_cfg_we(cdp_acc_cfg_we), .acc_cfg_addr(csb_req_wdat[CDP_LUT_ADDR_MSB:CDP_LUT_ADDR_LSB]),
        .acc_cfg_table(csb_req_wdat[CDP_LUT_TABLE_ID_MSB:CDP_LUT_TABLE_ID_LSB]),
        .acc_cfg_write(csb_req_wdat[CDP_LUT_ACCESS_TYPE_MSB:CDP_LUT_ACCESS_TYPE_LSB]),
        .acc_cfg_addr_q(cdp_acc_cfg_addr_q), .acc_table(cdp_acc_table),
        .acc_write(cdp_acc_write), .acc_data_we(cdp_acc_data & csb_req_write),
        .acc_data_wdata(csb_req_wdat[CDP_LUT_DATA_MSB:CDP_LUT_DATA_LSB]),
        .acc_data_re(cdp_acc_data & ~csb_req_write),
        .acc_data_rdata(cdp_lut_access_rdata),
        .cnt_le_hit(cdp_cnt_le_hit), .cnt_lo_hit(cdp_cnt_lo_hit), .cnt_uflow(cdp_cnt_uflow),
        .cnt_oflow(cdp_cnt_oflow), .cnt_hybrid(cdp_cnt_hybrid), .cnt_out_sat(cdp_cnt_out_sat),
        .m_axi_arid(cdp_axi_arid), .m_axi_awid(cdp_axi_awid),
        .m_axi_arvalid(cdp_axi_arvalid),
        .m_axi_arready(cdp_axi_arready),
        .m_axi_araddr(cdp_axi_araddr),
        .m_axi_arlen(cdp_axi_arlen),
        .m_axi_arsize(cdp_axi_arsize),
        .m_axi_arburst(cdp_axi_arburst),
        .m_axi_rvalid(cdp_axi_rvalid),
        .m_axi_rready(cdp_axi_rready),
        .m_axi_rdata(cdp_axi_rdata),
        .m_axi_rresp(cdp_axi_rresp),
        .m_axi_rlast(cdp_axi_rlast),
        .m_axi_awvalid(cdp_axi_awvalid),
        .m_axi_awready(cdp_axi_awready),
        .m_axi_awaddr(cdp_axi_awaddr),
        .m_axi_awlen(cdp_axi_awlen),
        .m_axi_awsize(cdp_axi_awsize),
        .m_axi_awburst(cdp_axi_awburst),
        .m_axi_wvalid(cdp_axi_wvalid),
        .m_axi_wready(cdp_axi_wready),
        .m_axi_wdata(cdp_axi_wdata),
        .m_axi_wstrb(cdp_axi_wstrb),
        .m_axi_wlast(cdp_axi_wlast),
        .m_axi_bvalid(cdp_axi_bvalid),
        .m_axi_bready(cdp_axi_bready),
        .m_axi_bresp(cdp_axi_bresp)
    );


    // ---- SDP registers (both groups) and SDP_RDMA registers ---------------------------------------------
    /* verilator lint_off UNUSEDSIGNAL */
    wire [9:0] sdp_lut_access_addr;
    wire sdp_lut_access_wr;
    wire [15:0] sdp_lut_access_wdata;
    wire sdp_lut_access_rd;
    wire sdp_s_lut_access_cfg_lut_table_id;
    wire sdp_s_lut_access_cfg_lut_access_type;
    wire sdp_s_lut_cfg_lut_le_function;
    wire sdp_s_lut_cfg_lut_uflow_priority;
    wire sdp_s_lut_cfg_lut_oflow_priority;
    wire sdp_s_lut_cfg_lut_hybrid_priority;
    wire [7:0] sdp_s_lut_info_lut_le_index_offset;
    wire [7:0] sdp_s_lut_info_lut_le_index_select;
    wire [7:0] sdp_s_lut_info_lut_lo_index_select;
    wire [31:0] sdp_s_lut_le_start_lut_le_start;
    wire [31:0] sdp_s_lut_le_end_lut_le_end;
    wire [31:0] sdp_s_lut_lo_start_lut_lo_start;
    wire [31:0] sdp_s_lut_lo_end_lut_lo_end;
    wire [15:0] sdp_s_lut_le_slope_scale_lut_le_slope_uflow_scale;
    wire [15:0] sdp_s_lut_le_slope_scale_lut_le_slope_oflow_scale;
    wire [4:0] sdp_s_lut_le_slope_shift_lut_le_slope_uflow_shift;
    wire [4:0] sdp_s_lut_le_slope_shift_lut_le_slope_oflow_shift;
    wire [15:0] sdp_s_lut_lo_slope_scale_lut_lo_slope_uflow_scale;
    wire [15:0] sdp_s_lut_lo_slope_scale_lut_lo_slope_oflow_scale;
    wire [4:0] sdp_s_lut_lo_slope_shift_lut_lo_slope_uflow_shift;
    wire [4:0] sdp_s_lut_lo_slope_shift_lut_lo_slope_oflow_shift;
    wire [12:0] sdp_d_data_cube_width_width;
    wire [12:0] sdp_d_data_cube_height_height;
    wire [12:0] sdp_d_data_cube_channel_channel;
    wire [31:0] sdp_d_dst_base_addr_low_dst_base_addr_low;
    wire [31:0] sdp_d_dst_base_addr_high_dst_base_addr_high;
    wire [31:0] sdp_d_dst_line_stride_dst_line_stride;
    wire [31:0] sdp_d_dst_surface_stride_dst_surface_stride;
    wire sdp_d_dp_bs_cfg_bs_bypass;
    wire sdp_d_dp_bs_cfg_bs_alu_bypass;
    wire [1:0] sdp_d_dp_bs_cfg_bs_alu_algo;
    wire sdp_d_dp_bs_cfg_bs_mul_bypass;
    wire sdp_d_dp_bs_cfg_bs_mul_prelu;
    wire sdp_d_dp_bs_cfg_bs_relu_bypass;
    wire sdp_d_dp_bs_alu_cfg_bs_alu_src;
    wire [5:0] sdp_d_dp_bs_alu_cfg_bs_alu_shift_value;
    wire [15:0] sdp_d_dp_bs_alu_src_value_bs_alu_operand;
    wire sdp_d_dp_bs_mul_cfg_bs_mul_src;
    wire [7:0] sdp_d_dp_bs_mul_cfg_bs_mul_shift_value;
    wire [15:0] sdp_d_dp_bs_mul_src_value_bs_mul_operand;
    wire sdp_d_dp_bn_cfg_bn_bypass;
    wire sdp_d_dp_bn_cfg_bn_alu_bypass;
    wire [1:0] sdp_d_dp_bn_cfg_bn_alu_algo;
    wire sdp_d_dp_bn_cfg_bn_mul_bypass;
    wire sdp_d_dp_bn_cfg_bn_mul_prelu;
    wire sdp_d_dp_bn_cfg_bn_relu_bypass;
    wire sdp_d_dp_bn_alu_cfg_bn_alu_src;
    wire [5:0] sdp_d_dp_bn_alu_cfg_bn_alu_shift_value;
    wire [15:0] sdp_d_dp_bn_alu_src_value_bn_alu_operand;
    wire sdp_d_dp_bn_mul_cfg_bn_mul_src;
    wire [7:0] sdp_d_dp_bn_mul_cfg_bn_mul_shift_value;
    wire [15:0] sdp_d_dp_bn_mul_src_value_bn_mul_operand;
    wire sdp_d_dp_ew_cfg_ew_bypass;
    wire sdp_d_dp_ew_cfg_ew_alu_bypass;
    wire [1:0] sdp_d_dp_ew_cfg_ew_alu_algo;
    wire sdp_d_dp_ew_cfg_ew_mul_bypass;
    wire sdp_d_dp_ew_cfg_ew_mul_prelu;
    wire sdp_d_dp_ew_cfg_ew_lut_bypass;
    wire sdp_d_dp_ew_alu_cfg_ew_alu_src;
    wire sdp_d_dp_ew_alu_cfg_ew_alu_cvt_bypass;
    wire [31:0] sdp_d_dp_ew_alu_src_value_ew_alu_operand;
    wire [31:0] sdp_d_dp_ew_alu_cvt_offset_value_ew_alu_cvt_offset;
    wire [15:0] sdp_d_dp_ew_alu_cvt_scale_value_ew_alu_cvt_scale;
    wire [5:0] sdp_d_dp_ew_alu_cvt_truncate_value_ew_alu_cvt_truncate;
    wire sdp_d_dp_ew_mul_cfg_ew_mul_src;
    wire sdp_d_dp_ew_mul_cfg_ew_mul_cvt_bypass;
    wire [31:0] sdp_d_dp_ew_mul_src_value_ew_mul_operand;
    wire [31:0] sdp_d_dp_ew_mul_cvt_offset_value_ew_mul_cvt_offset;
    wire [15:0] sdp_d_dp_ew_mul_cvt_scale_value_ew_mul_cvt_scale;
    wire [5:0] sdp_d_dp_ew_mul_cvt_truncate_value_ew_mul_cvt_truncate;
    wire [9:0] sdp_d_dp_ew_truncate_value_ew_truncate;
    wire sdp_d_feature_mode_cfg_flying_mode;
    wire sdp_d_feature_mode_cfg_output_dst;
    wire sdp_d_feature_mode_cfg_winograd;
    wire sdp_d_feature_mode_cfg_nan_to_zero;
    wire [4:0] sdp_d_feature_mode_cfg_batch_number;
    wire sdp_d_dst_dma_cfg_dst_ram_type;
    wire [31:0] sdp_d_dst_batch_stride_dst_batch_stride;
    wire [1:0] sdp_d_data_format_proc_precision;
    wire [1:0] sdp_d_data_format_out_precision;
    wire [31:0] sdp_d_cvt_offset_cvt_offset;
    wire [15:0] sdp_d_cvt_scale_cvt_scale;
    wire [5:0] sdp_d_cvt_shift_cvt_shift;
    wire sdp_d_perf_enable_perf_dma_en;
    wire sdp_d_perf_enable_perf_lut_en;
    wire sdp_d_perf_enable_perf_sat_en;
    wire sdp_d_perf_enable_perf_nan_inf_count_en;
    wire [12:0] srdma_d_data_cube_width_width;
    wire [12:0] srdma_d_data_cube_height_height;
    wire [12:0] srdma_d_data_cube_channel_channel;
    wire [31:0] srdma_d_src_base_addr_low_src_base_addr_low;
    wire [31:0] srdma_d_src_base_addr_high_src_base_addr_high;
    wire [31:0] srdma_d_src_line_stride_src_line_stride;
    wire [31:0] srdma_d_src_surface_stride_src_surface_stride;
    wire srdma_d_brdma_cfg_brdma_disable;
    wire [1:0] srdma_d_brdma_cfg_brdma_data_use;
    wire srdma_d_brdma_cfg_brdma_data_size;
    wire srdma_d_brdma_cfg_brdma_data_mode;
    wire srdma_d_brdma_cfg_brdma_ram_type;
    wire [31:0] srdma_d_bs_base_addr_low_bs_base_addr_low;
    wire [31:0] srdma_d_bs_base_addr_high_bs_base_addr_high;
    wire [31:0] srdma_d_bs_line_stride_bs_line_stride;
    wire [31:0] srdma_d_bs_surface_stride_bs_surface_stride;
    wire [31:0] srdma_d_bs_batch_stride_bs_batch_stride;
    wire srdma_d_nrdma_cfg_nrdma_disable;
    wire [1:0] srdma_d_nrdma_cfg_nrdma_data_use;
    wire srdma_d_nrdma_cfg_nrdma_data_size;
    wire srdma_d_nrdma_cfg_nrdma_data_mode;
    wire srdma_d_nrdma_cfg_nrdma_ram_type;
    wire [31:0] srdma_d_bn_base_addr_low_bn_base_addr_low;
    wire [31:0] srdma_d_bn_base_addr_high_bn_base_addr_high;
    wire [31:0] srdma_d_bn_line_stride_bn_line_stride;
    wire [31:0] srdma_d_bn_surface_stride_bn_surface_stride;
    wire [31:0] srdma_d_bn_batch_stride_bn_batch_stride;
    wire srdma_d_erdma_cfg_erdma_disable;
    wire [1:0] srdma_d_erdma_cfg_erdma_data_use;
    wire srdma_d_erdma_cfg_erdma_data_size;
    wire srdma_d_erdma_cfg_erdma_data_mode;
    wire srdma_d_erdma_cfg_erdma_ram_type;
    wire [31:0] srdma_d_ew_base_addr_low_ew_base_addr_low;
    wire [31:0] srdma_d_ew_base_addr_high_ew_base_addr_high;
    wire [31:0] srdma_d_ew_line_stride_ew_line_stride;
    wire [31:0] srdma_d_ew_surface_stride_ew_surface_stride;
    wire [31:0] srdma_d_ew_batch_stride_ew_batch_stride;
    wire srdma_d_feature_mode_cfg_flying_mode;
    wire srdma_d_feature_mode_cfg_winograd;
    wire [1:0] srdma_d_feature_mode_cfg_in_precision;
    wire [1:0] srdma_d_feature_mode_cfg_proc_precision;
    wire [1:0] srdma_d_feature_mode_cfg_out_precision;
    wire [4:0] srdma_d_feature_mode_cfg_batch_number;
    wire srdma_d_src_dma_cfg_src_ram_type;
    wire srdma_d_perf_enable_perf_dma_en;
    wire srdma_d_perf_enable_perf_nan_inf_count_en;
    // the register block's LUT strobes: the datapath takes its accesses from the CSB request (see CDP)
    /* verilator lint_on UNUSEDSIGNAL */
    wire [15:0] sdp_lut_access_rdata;
    wire        sdp_op_en, sdp_consumer, srdma_op_en, srdma_consumer_unused, sdp_done;
    wire        sdp_status_unequal;
    wire [31:0] sdp_cnt_le_hit, sdp_cnt_lo_hit, sdp_cnt_uflow, sdp_cnt_oflow, sdp_cnt_hybrid, sdp_cnt_out_sat;

    nvdla_sdp_regs u_sdp_regs (
        .clk(clk), .rst_n(rst_n),
        .reg_sel(reg_sel[U_SDP]), .reg_offset(reg_offset), .reg_wdata(reg_wdata), .reg_write(reg_write),
        .reg_rdata(reg_rdata[U_SDP*32 +: 32]),
        .dp_done(sdp_done), .op_en(sdp_op_en), .consumer(sdp_consumer),
        .lut_access_addr(sdp_lut_access_addr),
        .lut_access_wr(sdp_lut_access_wr),
        .lut_access_wdata(sdp_lut_access_wdata),
        .lut_access_rd(sdp_lut_access_rd),
        .lut_access_rdata(sdp_lut_access_rdata),
        .s_lut_access_cfg_lut_table_id(sdp_s_lut_access_cfg_lut_table_id),
        .s_lut_access_cfg_lut_access_type(sdp_s_lut_access_cfg_lut_access_type),
        .s_lut_cfg_lut_le_function(sdp_s_lut_cfg_lut_le_function),
        .s_lut_cfg_lut_uflow_priority(sdp_s_lut_cfg_lut_uflow_priority),
        .s_lut_cfg_lut_oflow_priority(sdp_s_lut_cfg_lut_oflow_priority),
        .s_lut_cfg_lut_hybrid_priority(sdp_s_lut_cfg_lut_hybrid_priority),
        .s_lut_info_lut_le_index_offset(sdp_s_lut_info_lut_le_index_offset),
        .s_lut_info_lut_le_index_select(sdp_s_lut_info_lut_le_index_select),
        .s_lut_info_lut_lo_index_select(sdp_s_lut_info_lut_lo_index_select),
        .s_lut_le_start_lut_le_start(sdp_s_lut_le_start_lut_le_start),
        .s_lut_le_end_lut_le_end(sdp_s_lut_le_end_lut_le_end),
        .s_lut_lo_start_lut_lo_start(sdp_s_lut_lo_start_lut_lo_start),
        .s_lut_lo_end_lut_lo_end(sdp_s_lut_lo_end_lut_lo_end),
        .s_lut_le_slope_scale_lut_le_slope_uflow_scale(sdp_s_lut_le_slope_scale_lut_le_slope_uflow_scale),
        .s_lut_le_slope_scale_lut_le_slope_oflow_scale(sdp_s_lut_le_slope_scale_lut_le_slope_oflow_scale),
        .s_lut_le_slope_shift_lut_le_slope_uflow_shift(sdp_s_lut_le_slope_shift_lut_le_slope_uflow_shift),
        .s_lut_le_slope_shift_lut_le_slope_oflow_shift(sdp_s_lut_le_slope_shift_lut_le_slope_oflow_shift),
        .s_lut_lo_slope_scale_lut_lo_slope_uflow_scale(sdp_s_lut_lo_slope_scale_lut_lo_slope_uflow_scale),
        .s_lut_lo_slope_scale_lut_lo_slope_oflow_scale(sdp_s_lut_lo_slope_scale_lut_lo_slope_oflow_scale),
        .s_lut_lo_slope_shift_lut_lo_slope_uflow_shift(sdp_s_lut_lo_slope_shift_lut_lo_slope_uflow_shift),
        .s_lut_lo_slope_shift_lut_lo_slope_oflow_shift(sdp_s_lut_lo_slope_shift_lut_lo_slope_oflow_shift),
        .d_data_cube_width_width(sdp_d_data_cube_width_width),
        .d_data_cube_height_height(sdp_d_data_cube_height_height),
        .d_data_cube_channel_channel(sdp_d_data_cube_channel_channel),
        .d_dst_base_addr_low_dst_base_addr_low(sdp_d_dst_base_addr_low_dst_base_addr_low),
        .d_dst_base_addr_high_dst_base_addr_high(sdp_d_dst_base_addr_high_dst_base_addr_high),
        .d_dst_line_stride_dst_line_stride(sdp_d_dst_line_stride_dst_line_stride),
        .d_dst_surface_stride_dst_surface_stride(sdp_d_dst_surface_stride_dst_surface_stride),
        .d_dp_bs_cfg_bs_bypass(sdp_d_dp_bs_cfg_bs_bypass),
        .d_dp_bs_cfg_bs_alu_bypass(sdp_d_dp_bs_cfg_bs_alu_bypass),
        .d_dp_bs_cfg_bs_alu_algo(sdp_d_dp_bs_cfg_bs_alu_algo),
        .d_dp_bs_cfg_bs_mul_bypass(sdp_d_dp_bs_cfg_bs_mul_bypass),
        .d_dp_bs_cfg_bs_mul_prelu(sdp_d_dp_bs_cfg_bs_mul_prelu),
        .d_dp_bs_cfg_bs_relu_bypass(sdp_d_dp_bs_cfg_bs_relu_bypass),
        .d_dp_bs_alu_cfg_bs_alu_src(sdp_d_dp_bs_alu_cfg_bs_alu_src),
        .d_dp_bs_alu_cfg_bs_alu_shift_value(sdp_d_dp_bs_alu_cfg_bs_alu_shift_value),
        .d_dp_bs_alu_src_value_bs_alu_operand(sdp_d_dp_bs_alu_src_value_bs_alu_operand),
        .d_dp_bs_mul_cfg_bs_mul_src(sdp_d_dp_bs_mul_cfg_bs_mul_src),
        .d_dp_bs_mul_cfg_bs_mul_shift_value(sdp_d_dp_bs_mul_cfg_bs_mul_shift_value),
        .d_dp_bs_mul_src_value_bs_mul_operand(sdp_d_dp_bs_mul_src_value_bs_mul_operand),
        .d_dp_bn_cfg_bn_bypass(sdp_d_dp_bn_cfg_bn_bypass),
        .d_dp_bn_cfg_bn_alu_bypass(sdp_d_dp_bn_cfg_bn_alu_bypass),
        .d_dp_bn_cfg_bn_alu_algo(sdp_d_dp_bn_cfg_bn_alu_algo),
        .d_dp_bn_cfg_bn_mul_bypass(sdp_d_dp_bn_cfg_bn_mul_bypass),
        .d_dp_bn_cfg_bn_mul_prelu(sdp_d_dp_bn_cfg_bn_mul_prelu),
        .d_dp_bn_cfg_bn_relu_bypass(sdp_d_dp_bn_cfg_bn_relu_bypass),
        .d_dp_bn_alu_cfg_bn_alu_src(sdp_d_dp_bn_alu_cfg_bn_alu_src),
        .d_dp_bn_alu_cfg_bn_alu_shift_value(sdp_d_dp_bn_alu_cfg_bn_alu_shift_value),
        .d_dp_bn_alu_src_value_bn_alu_operand(sdp_d_dp_bn_alu_src_value_bn_alu_operand),
        .d_dp_bn_mul_cfg_bn_mul_src(sdp_d_dp_bn_mul_cfg_bn_mul_src),
        .d_dp_bn_mul_cfg_bn_mul_shift_value(sdp_d_dp_bn_mul_cfg_bn_mul_shift_value),
        .d_dp_bn_mul_src_value_bn_mul_operand(sdp_d_dp_bn_mul_src_value_bn_mul_operand),
        .d_dp_ew_cfg_ew_bypass(sdp_d_dp_ew_cfg_ew_bypass),
        .d_dp_ew_cfg_ew_alu_bypass(sdp_d_dp_ew_cfg_ew_alu_bypass),
        .d_dp_ew_cfg_ew_alu_algo(sdp_d_dp_ew_cfg_ew_alu_algo),
        .d_dp_ew_cfg_ew_mul_bypass(sdp_d_dp_ew_cfg_ew_mul_bypass),
        .d_dp_ew_cfg_ew_mul_prelu(sdp_d_dp_ew_cfg_ew_mul_prelu),
        .d_dp_ew_cfg_ew_lut_bypass(sdp_d_dp_ew_cfg_ew_lut_bypass),
        .d_dp_ew_alu_cfg_ew_alu_src(sdp_d_dp_ew_alu_cfg_ew_alu_src),
        .d_dp_ew_alu_cfg_ew_alu_cvt_bypass(sdp_d_dp_ew_alu_cfg_ew_alu_cvt_bypass),
        .d_dp_ew_alu_src_value_ew_alu_operand(sdp_d_dp_ew_alu_src_value_ew_alu_operand),
        .d_dp_ew_alu_cvt_offset_value_ew_alu_cvt_offset(sdp_d_dp_ew_alu_cvt_offset_value_ew_alu_cvt_offset),
        .d_dp_ew_alu_cvt_scale_value_ew_alu_cvt_scale(sdp_d_dp_ew_alu_cvt_scale_value_ew_alu_cvt_scale),
        .d_dp_ew_alu_cvt_truncate_value_ew_alu_cvt_truncate(sdp_d_dp_ew_alu_cvt_truncate_value_ew_alu_cvt_truncate),
        .d_dp_ew_mul_cfg_ew_mul_src(sdp_d_dp_ew_mul_cfg_ew_mul_src),
        .d_dp_ew_mul_cfg_ew_mul_cvt_bypass(sdp_d_dp_ew_mul_cfg_ew_mul_cvt_bypass),
        .d_dp_ew_mul_src_value_ew_mul_operand(sdp_d_dp_ew_mul_src_value_ew_mul_operand),
        .d_dp_ew_mul_cvt_offset_value_ew_mul_cvt_offset(sdp_d_dp_ew_mul_cvt_offset_value_ew_mul_cvt_offset),
        .d_dp_ew_mul_cvt_scale_value_ew_mul_cvt_scale(sdp_d_dp_ew_mul_cvt_scale_value_ew_mul_cvt_scale),
        .d_dp_ew_mul_cvt_truncate_value_ew_mul_cvt_truncate(sdp_d_dp_ew_mul_cvt_truncate_value_ew_mul_cvt_truncate),
        .d_dp_ew_truncate_value_ew_truncate(sdp_d_dp_ew_truncate_value_ew_truncate),
        .d_feature_mode_cfg_flying_mode(sdp_d_feature_mode_cfg_flying_mode),
        .d_feature_mode_cfg_output_dst(sdp_d_feature_mode_cfg_output_dst),
        .d_feature_mode_cfg_winograd(sdp_d_feature_mode_cfg_winograd),
        .d_feature_mode_cfg_nan_to_zero(sdp_d_feature_mode_cfg_nan_to_zero),
        .d_feature_mode_cfg_batch_number(sdp_d_feature_mode_cfg_batch_number),
        .d_dst_dma_cfg_dst_ram_type(sdp_d_dst_dma_cfg_dst_ram_type),
        .d_dst_batch_stride_dst_batch_stride(sdp_d_dst_batch_stride_dst_batch_stride),
        .d_data_format_proc_precision(sdp_d_data_format_proc_precision),
        .d_data_format_out_precision(sdp_d_data_format_out_precision),
        .d_cvt_offset_cvt_offset(sdp_d_cvt_offset_cvt_offset),
        .d_cvt_scale_cvt_scale(sdp_d_cvt_scale_cvt_scale),
        .d_cvt_shift_cvt_shift(sdp_d_cvt_shift_cvt_shift),
        .d_perf_enable_perf_dma_en(sdp_d_perf_enable_perf_dma_en),
        .d_perf_enable_perf_lut_en(sdp_d_perf_enable_perf_lut_en),
        .d_perf_enable_perf_sat_en(sdp_d_perf_enable_perf_sat_en),
        .d_perf_enable_perf_nan_inf_count_en(sdp_d_perf_enable_perf_nan_inf_count_en),
        .d_status_status_unequal(sdp_status_unequal),
        .d_status_nan_input_num_status_nan_input_num(32'd0),
        .d_status_inf_input_num_status_inf_input_num(32'd0),
        .d_status_nan_output_num_status_nan_output_num(32'd0),
        .d_perf_wdma_write_stall_wdma_stall(32'd0),
        .d_perf_lut_uflow_lut_uflow(sdp_cnt_uflow),
        .d_perf_lut_oflow_lut_oflow(sdp_cnt_oflow),
        .d_perf_out_saturation_out_saturation(sdp_cnt_out_sat),
        .d_perf_lut_hybrid_lut_hybrid(sdp_cnt_hybrid),
        .d_perf_lut_le_hit_lut_le_hit(sdp_cnt_le_hit),
        .d_perf_lut_lo_hit_lut_lo_hit(sdp_cnt_lo_hit)
    );

    // SDP_RDMA's OP_EN takes part only when the layer reads something (always here: the input comes from
    // memory); its group latches on the same done.
    nvdla_sdp_rdma_regs u_sdp_rdma_regs (
        .clk(clk), .rst_n(rst_n),
        .reg_sel(reg_sel[U_SDP_RDMA]), .reg_offset(reg_offset), .reg_wdata(reg_wdata), .reg_write(reg_write),
        .reg_rdata(reg_rdata[U_SDP_RDMA*32 +: 32]),
        .dp_done(sdp_done & srdma_op_en), .op_en(srdma_op_en), .consumer(srdma_consumer_unused),
        .d_data_cube_width_width(srdma_d_data_cube_width_width),
        .d_data_cube_height_height(srdma_d_data_cube_height_height),
        .d_data_cube_channel_channel(srdma_d_data_cube_channel_channel),
        .d_src_base_addr_low_src_base_addr_low(srdma_d_src_base_addr_low_src_base_addr_low),
        .d_src_base_addr_high_src_base_addr_high(srdma_d_src_base_addr_high_src_base_addr_high),
        .d_src_line_stride_src_line_stride(srdma_d_src_line_stride_src_line_stride),
        .d_src_surface_stride_src_surface_stride(srdma_d_src_surface_stride_src_surface_stride),
        .d_brdma_cfg_brdma_disable(srdma_d_brdma_cfg_brdma_disable),
        .d_brdma_cfg_brdma_data_use(srdma_d_brdma_cfg_brdma_data_use),
        .d_brdma_cfg_brdma_data_size(srdma_d_brdma_cfg_brdma_data_size),
        .d_brdma_cfg_brdma_data_mode(srdma_d_brdma_cfg_brdma_data_mode),
        .d_brdma_cfg_brdma_ram_type(srdma_d_brdma_cfg_brdma_ram_type),
        .d_bs_base_addr_low_bs_base_addr_low(srdma_d_bs_base_addr_low_bs_base_addr_low),
        .d_bs_base_addr_high_bs_base_addr_high(srdma_d_bs_base_addr_high_bs_base_addr_high),
        .d_bs_line_stride_bs_line_stride(srdma_d_bs_line_stride_bs_line_stride),
        .d_bs_surface_stride_bs_surface_stride(srdma_d_bs_surface_stride_bs_surface_stride),
        .d_bs_batch_stride_bs_batch_stride(srdma_d_bs_batch_stride_bs_batch_stride),
        .d_nrdma_cfg_nrdma_disable(srdma_d_nrdma_cfg_nrdma_disable),
        .d_nrdma_cfg_nrdma_data_use(srdma_d_nrdma_cfg_nrdma_data_use),
        .d_nrdma_cfg_nrdma_data_size(srdma_d_nrdma_cfg_nrdma_data_size),
        .d_nrdma_cfg_nrdma_data_mode(srdma_d_nrdma_cfg_nrdma_data_mode),
        .d_nrdma_cfg_nrdma_ram_type(srdma_d_nrdma_cfg_nrdma_ram_type),
        .d_bn_base_addr_low_bn_base_addr_low(srdma_d_bn_base_addr_low_bn_base_addr_low),
        .d_bn_base_addr_high_bn_base_addr_high(srdma_d_bn_base_addr_high_bn_base_addr_high),
        .d_bn_line_stride_bn_line_stride(srdma_d_bn_line_stride_bn_line_stride),
        .d_bn_surface_stride_bn_surface_stride(srdma_d_bn_surface_stride_bn_surface_stride),
        .d_bn_batch_stride_bn_batch_stride(srdma_d_bn_batch_stride_bn_batch_stride),
        .d_erdma_cfg_erdma_disable(srdma_d_erdma_cfg_erdma_disable),
        .d_erdma_cfg_erdma_data_use(srdma_d_erdma_cfg_erdma_data_use),
        .d_erdma_cfg_erdma_data_size(srdma_d_erdma_cfg_erdma_data_size),
        .d_erdma_cfg_erdma_data_mode(srdma_d_erdma_cfg_erdma_data_mode),
        .d_erdma_cfg_erdma_ram_type(srdma_d_erdma_cfg_erdma_ram_type),
        .d_ew_base_addr_low_ew_base_addr_low(srdma_d_ew_base_addr_low_ew_base_addr_low),
        .d_ew_base_addr_high_ew_base_addr_high(srdma_d_ew_base_addr_high_ew_base_addr_high),
        .d_ew_line_stride_ew_line_stride(srdma_d_ew_line_stride_ew_line_stride),
        .d_ew_surface_stride_ew_surface_stride(srdma_d_ew_surface_stride_ew_surface_stride),
        .d_ew_batch_stride_ew_batch_stride(srdma_d_ew_batch_stride_ew_batch_stride),
        .d_feature_mode_cfg_flying_mode(srdma_d_feature_mode_cfg_flying_mode),
        .d_feature_mode_cfg_winograd(srdma_d_feature_mode_cfg_winograd),
        .d_feature_mode_cfg_in_precision(srdma_d_feature_mode_cfg_in_precision),
        .d_feature_mode_cfg_proc_precision(srdma_d_feature_mode_cfg_proc_precision),
        .d_feature_mode_cfg_out_precision(srdma_d_feature_mode_cfg_out_precision),
        .d_feature_mode_cfg_batch_number(srdma_d_feature_mode_cfg_batch_number),
        .d_src_dma_cfg_src_ram_type(srdma_d_src_dma_cfg_src_ram_type),
        .d_perf_enable_perf_dma_en(srdma_d_perf_enable_perf_dma_en),
        .d_perf_enable_perf_nan_inf_count_en(srdma_d_perf_enable_perf_nan_inf_count_en),
        .d_status_nan_input_num_status_nan_input_num(32'd0),
        .d_status_inf_input_num_status_inf_input_num(32'd0),
        .d_perf_mrdma_read_stall_mrdma_stall(32'd0),
        .d_perf_brdma_read_stall_brdma_stall(32'd0),
        .d_perf_nrdma_read_stall_nrdma_stall(32'd0),
        .d_perf_erdma_read_stall_erdma_stall(32'd0)
    );

    // ---- SDP datapath ---------------------------------------------------------------------------------
    // LUT accesses decoded from the CSB request one cycle ahead of the register block, as for CDP.
    wire       sdp_lut_req    = csb_req_valid & (csb_req_addr[15:10] == CSB_WIN_SDP);
    wire       sdp_acc_cfg_we = sdp_lut_req & csb_req_write & (csb_req_addr[9:0] == SDP_LUT_ACCESS_CFG);
    wire       sdp_acc_data   = sdp_lut_req & (csb_req_addr[9:0] == SDP_LUT_ACCESS_DATA);
    /* verilator lint_off UNUSEDSIGNAL */
    wire [9:0] sdp_acc_cfg_addr_q;
    wire       sdp_acc_table, sdp_acc_write, sdp_busy_unused;
    /* verilator lint_on UNUSEDSIGNAL */
    wire sdp_axi_arvalid;
    wire sdp_axi_arready;
    wire [31:0] sdp_axi_araddr;
    wire [7:0] sdp_axi_arlen;
    wire [2:0] sdp_axi_arsize;
    wire [1:0] sdp_axi_arburst;
    wire [3:0] sdp_axi_arid;
    wire sdp_axi_rvalid;
    wire sdp_axi_rready;
    wire [63:0] sdp_axi_rdata;
    wire [1:0] sdp_axi_rresp;
    wire sdp_axi_rlast;
    wire sdp_axi_awvalid;
    wire sdp_axi_awready;
    wire [31:0] sdp_axi_awaddr;
    wire [7:0] sdp_axi_awlen;
    wire [2:0] sdp_axi_awsize;
    wire [1:0] sdp_axi_awburst;
    wire [3:0] sdp_axi_awid;
    wire sdp_axi_wvalid;
    wire sdp_axi_wready;
    wire [63:0] sdp_axi_wdata;
    wire [7:0] sdp_axi_wstrb;
    wire sdp_axi_wlast;
    wire sdp_axi_bvalid;
    wire sdp_axi_bready;
    wire [1:0] sdp_axi_bresp;

    nvdla_sdp #(.ATOM(8), .CNT_W(32), .MAX_BURST(MAX_BURST), .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_sdp (
        .clk(clk), .rst_n(rst_n),
        .op_en(sdp_op_en & srdma_op_en), .done(sdp_done), .busy(sdp_busy_unused),
        .width_m1(srdma_d_data_cube_width_width),
        .height_m1(srdma_d_data_cube_height_height),
        .channel_m1(srdma_d_data_cube_channel_channel),
        .src_base(srdma_d_src_base_addr_low_src_base_addr_low),
        .src_line_stride(srdma_d_src_line_stride_src_line_stride),
        .src_surface_stride(srdma_d_src_surface_stride_src_surface_stride),
        .dst_base(sdp_d_dst_base_addr_low_dst_base_addr_low),
        .dst_line_stride(sdp_d_dst_line_stride_dst_line_stride),
        .dst_surface_stride(sdp_d_dst_surface_stride_dst_surface_stride),
        .output_dst(sdp_d_feature_mode_cfg_output_dst),
        .brdma_disable(srdma_d_brdma_cfg_brdma_disable), .brdma_data_use(srdma_d_brdma_cfg_brdma_data_use),
        .brdma_data_size(srdma_d_brdma_cfg_brdma_data_size), .brdma_data_mode(srdma_d_brdma_cfg_brdma_data_mode),
        .bs_base(srdma_d_bs_base_addr_low_bs_base_addr_low), .bs_line_stride(srdma_d_bs_line_stride_bs_line_stride),
        .bs_surface_stride(srdma_d_bs_surface_stride_bs_surface_stride),
        .nrdma_disable(srdma_d_nrdma_cfg_nrdma_disable), .nrdma_data_use(srdma_d_nrdma_cfg_nrdma_data_use),
        .nrdma_data_size(srdma_d_nrdma_cfg_nrdma_data_size), .nrdma_data_mode(srdma_d_nrdma_cfg_nrdma_data_mode),
        .bn_base(srdma_d_bn_base_addr_low_bn_base_addr_low), .bn_line_stride(srdma_d_bn_line_stride_bn_line_stride),
        .bn_surface_stride(srdma_d_bn_surface_stride_bn_surface_stride),
        .erdma_disable(srdma_d_erdma_cfg_erdma_disable), .erdma_data_use(srdma_d_erdma_cfg_erdma_data_use),
        .erdma_data_size(srdma_d_erdma_cfg_erdma_data_size), .erdma_data_mode(srdma_d_erdma_cfg_erdma_data_mode),
        .ew_base(srdma_d_ew_base_addr_low_ew_base_addr_low), .ew_line_stride(srdma_d_ew_line_stride_ew_line_stride),
        .ew_surface_stride(srdma_d_ew_surface_stride_ew_surface_stride),
        .bs_bypass(sdp_d_dp_bs_cfg_bs_bypass), .bs_alu_bypass(sdp_d_dp_bs_cfg_bs_alu_bypass),
        .bs_alu_algo(sdp_d_dp_bs_cfg_bs_alu_algo), .bs_alu_src(sdp_d_dp_bs_alu_cfg_bs_alu_src),
        .bs_alu_shift(sdp_d_dp_bs_alu_cfg_bs_alu_shift_value), .bs_alu_operand(sdp_d_dp_bs_alu_src_value_bs_alu_operand),
        .bs_mul_bypass(sdp_d_dp_bs_cfg_bs_mul_bypass), .bs_mul_prelu(sdp_d_dp_bs_cfg_bs_mul_prelu),
        .bs_mul_src(sdp_d_dp_bs_mul_cfg_bs_mul_src), .bs_mul_shift(sdp_d_dp_bs_mul_cfg_bs_mul_shift_value),
        .bs_mul_operand(sdp_d_dp_bs_mul_src_value_bs_mul_operand), .bs_relu_bypass(sdp_d_dp_bs_cfg_bs_relu_bypass),
        .bn_bypass(sdp_d_dp_bn_cfg_bn_bypass), .bn_alu_bypass(sdp_d_dp_bn_cfg_bn_alu_bypass),
        .bn_alu_algo(sdp_d_dp_bn_cfg_bn_alu_algo), .bn_alu_src(sdp_d_dp_bn_alu_cfg_bn_alu_src),
        .bn_alu_shift(sdp_d_dp_bn_alu_cfg_bn_alu_shift_value), .bn_alu_operand(sdp_d_dp_bn_alu_src_value_bn_alu_operand),
        .bn_mul_bypass(sdp_d_dp_bn_cfg_bn_mul_bypass), .bn_mul_prelu(sdp_d_dp_bn_cfg_bn_mul_prelu),
        .bn_mul_src(sdp_d_dp_bn_mul_cfg_bn_mul_src), .bn_mul_shift(sdp_d_dp_bn_mul_cfg_bn_mul_shift_value),
        .bn_mul_operand(sdp_d_dp_bn_mul_src_value_bn_mul_operand), .bn_relu_bypass(sdp_d_dp_bn_cfg_bn_relu_bypass),
        .ew_bypass(sdp_d_dp_ew_cfg_ew_bypass), .ew_alu_bypass(sdp_d_dp_ew_cfg_ew_alu_bypass),
        .ew_alu_algo(sdp_d_dp_ew_cfg_ew_alu_algo),
        .ew_alu_src(sdp_d_dp_ew_alu_cfg_ew_alu_src), .ew_alu_cvt_bypass(sdp_d_dp_ew_alu_cfg_ew_alu_cvt_bypass),
        .ew_alu_operand(sdp_d_dp_ew_alu_src_value_ew_alu_operand),
        .ew_alu_cvt_offset(sdp_d_dp_ew_alu_cvt_offset_value_ew_alu_cvt_offset),
        .ew_alu_cvt_scale(sdp_d_dp_ew_alu_cvt_scale_value_ew_alu_cvt_scale),
        .ew_alu_cvt_truncate(sdp_d_dp_ew_alu_cvt_truncate_value_ew_alu_cvt_truncate),
        .ew_mul_bypass(sdp_d_dp_ew_cfg_ew_mul_bypass), .ew_mul_prelu(sdp_d_dp_ew_cfg_ew_mul_prelu),
        .ew_mul_src(sdp_d_dp_ew_mul_cfg_ew_mul_src), .ew_mul_cvt_bypass(sdp_d_dp_ew_mul_cfg_ew_mul_cvt_bypass),
        .ew_mul_operand(sdp_d_dp_ew_mul_src_value_ew_mul_operand),
        .ew_mul_cvt_offset(sdp_d_dp_ew_mul_cvt_offset_value_ew_mul_cvt_offset),
        .ew_mul_cvt_scale(sdp_d_dp_ew_mul_cvt_scale_value_ew_mul_cvt_scale),
        .ew_mul_cvt_truncate(sdp_d_dp_ew_mul_cvt_truncate_value_ew_mul_cvt_truncate),
        .ew_truncate(sdp_d_dp_ew_truncate_value_ew_truncate), .ew_lut_bypass(sdp_d_dp_ew_cfg_ew_lut_bypass),
        .cvt_offset(sdp_d_cvt_offset_cvt_offset), .cvt_scale(sdp_d_cvt_scale_cvt_scale),
        .cvt_shift(sdp_d_cvt_shift_cvt_shift),
        .lut_le_function(sdp_s_lut_cfg_lut_le_function),
        .lut_uflow_priority(sdp_s_lut_cfg_lut_uflow_priority),
        .lut_oflow_priority(sdp_s_lut_cfg_lut_oflow_priority),
        .lut_hybrid_priority(sdp_s_lut_cfg_lut_hybrid_priority),
        .lut_le_index_offset(sdp_s_lut_info_lut_le_index_offset),
        .lut_le_index_select(sdp_s_lut_info_lut_le_index_select),
        .lut_lo_index_select(sdp_s_lut_info_lut_lo_index_select),
        .lut_le_start(sdp_s_lut_le_start_lut_le_start), .lut_le_end(sdp_s_lut_le_end_lut_le_end),
        .lut_lo_start(sdp_s_lut_lo_start_lut_lo_start), .lut_lo_end(sdp_s_lut_lo_end_lut_lo_end),
        .lut_le_slope_uflow_scale(sdp_s_lut_le_slope_scale_lut_le_slope_uflow_scale),
        .lut_le_slope_oflow_scale(sdp_s_lut_le_slope_scale_lut_le_slope_oflow_scale),
        .lut_le_slope_uflow_shift(sdp_s_lut_le_slope_shift_lut_le_slope_uflow_shift),
        .lut_le_slope_oflow_shift(sdp_s_lut_le_slope_shift_lut_le_slope_oflow_shift),
        .lut_lo_slope_uflow_scale(sdp_s_lut_lo_slope_scale_lut_lo_slope_uflow_scale),
        .lut_lo_slope_oflow_scale(sdp_s_lut_lo_slope_scale_lut_lo_slope_oflow_scale),
        .lut_lo_slope_uflow_shift(sdp_s_lut_lo_slope_shift_lut_lo_slope_uflow_shift),
        .lut_lo_slope_oflow_shift(sdp_s_lut_lo_slope_shift_lut_lo_slope_oflow_shift),
        .acc_cfg_we(sdp_acc_cfg_we), .acc_cfg_addr(csb_req_wdat[SDP_LUT_ADDR_MSB:SDP_LUT_ADDR_LSB]),
        .acc_cfg_table(csb_req_wdat[SDP_LUT_TABLE_ID_MSB:SDP_LUT_TABLE_ID_LSB]),
        .acc_cfg_write(csb_req_wdat[SDP_LUT_ACCESS_TYPE_MSB:SDP_LUT_ACCESS_TYPE_LSB]),
        .acc_cfg_addr_q(sdp_acc_cfg_addr_q), .acc_table(sdp_acc_table),
        .acc_write(sdp_acc_write), .acc_data_we(sdp_acc_data & csb_req_write),
        .acc_data_wdata(csb_req_wdat[SDP_LUT_DATA_MSB:SDP_LUT_DATA_LSB]),
        .acc_data_re(sdp_acc_data & ~csb_req_write),
        .acc_data_rdata(sdp_lut_access_rdata),
        .cnt_le_hit(sdp_cnt_le_hit), .cnt_lo_hit(sdp_cnt_lo_hit), .cnt_uflow(sdp_cnt_uflow),
        .cnt_oflow(sdp_cnt_oflow), .cnt_hybrid(sdp_cnt_hybrid), .cnt_out_sat(sdp_cnt_out_sat),
        .status_unequal(sdp_status_unequal),
        .fly_valid(sdp_fly_valid), .fly_ready(sdp_fly_ready), .fly_data(sdp_fly_data),
        .m_axi_arvalid(sdp_axi_arvalid),
        .m_axi_arready(sdp_axi_arready),
        .m_axi_araddr(sdp_axi_araddr),
        .m_axi_arlen(sdp_axi_arlen),
        .m_axi_arsize(sdp_axi_arsize),
        .m_axi_arburst(sdp_axi_arburst),
        .m_axi_arid(sdp_axi_arid),
        .m_axi_rvalid(sdp_axi_rvalid),
        .m_axi_rready(sdp_axi_rready),
        .m_axi_rdata(sdp_axi_rdata),
        .m_axi_rresp(sdp_axi_rresp),
        .m_axi_rlast(sdp_axi_rlast),
        .m_axi_awvalid(sdp_axi_awvalid),
        .m_axi_awready(sdp_axi_awready),
        .m_axi_awaddr(sdp_axi_awaddr),
        .m_axi_awlen(sdp_axi_awlen),
        .m_axi_awsize(sdp_axi_awsize),
        .m_axi_awburst(sdp_axi_awburst),
        .m_axi_awid(sdp_axi_awid),
        .m_axi_wvalid(sdp_axi_wvalid),
        .m_axi_wready(sdp_axi_wready),
        .m_axi_wdata(sdp_axi_wdata),
        .m_axi_wstrb(sdp_axi_wstrb),
        .m_axi_wlast(sdp_axi_wlast),
        .m_axi_bvalid(sdp_axi_bvalid),
        .m_axi_bready(sdp_axi_bready),
        .m_axi_bresp(sdp_axi_bresp)
    );

    // ---- AXI: PDP and CDP share the inner arbiter, which shares the master with SDP -----------------------
    wire pc_axi_arvalid, pc_axi_arready, pc_axi_rvalid, pc_axi_rready, pc_axi_rlast;
    wire pc_axi_awvalid, pc_axi_awready, pc_axi_wvalid, pc_axi_wready, pc_axi_wlast;
    wire pc_axi_bvalid, pc_axi_bready;
    wire [31:0] pc_axi_araddr, pc_axi_awaddr;
    wire [7:0]  pc_axi_arlen, pc_axi_awlen, pc_axi_wstrb;
    wire [2:0]  pc_axi_arsize, pc_axi_awsize;
    wire [1:0]  pc_axi_arburst, pc_axi_awburst, pc_axi_rresp, pc_axi_bresp;
    wire [3:0]  pc_axi_arid, pc_axi_awid, pc_axi_rid, pc_axi_bid;
    wire [63:0] pc_axi_rdata, pc_axi_wdata;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [3:0]  leaf_rid_pdp, leaf_bid_pdp, leaf_rid_cdp, leaf_bid_cdp, leaf_rid_sdp, leaf_bid_sdp;
    /* verilator lint_on UNUSEDSIGNAL */

    nvdla_axi_arb #(.ADDR_W(32), .DATA_W(64), .ID_W(4), .ID_BIT(0), .W_DEPTH(2 * MAX_BURST)) u_axi_arb_pc (
        .clk(clk), .rst_n(rst_n),
        .s0_arvalid(pdp_axi_arvalid),
        .s0_arready(pdp_axi_arready),
        .s0_araddr(pdp_axi_araddr),
        .s0_arlen(pdp_axi_arlen),
        .s0_arsize(pdp_axi_arsize),
        .s0_arburst(pdp_axi_arburst), .s0_arid(4'd0), .s0_rid(leaf_rid_pdp),
        .s0_rvalid(pdp_axi_rvalid),
        .s0_rready(pdp_axi_rready),
        .s0_rdata(pdp_axi_rdata),
        .s0_rresp(pdp_axi_rresp),
        .s0_rlast(pdp_axi_rlast),
        .s0_awvalid(pdp_axi_awvalid),
        .s0_awready(pdp_axi_awready),
        .s0_awaddr(pdp_axi_awaddr),
        .s0_awlen(pdp_axi_awlen),
        .s0_awsize(pdp_axi_awsize),
        .s0_awburst(pdp_axi_awburst), .s0_awid(4'd0), .s0_bid(leaf_bid_pdp),
        .s0_wvalid(pdp_axi_wvalid),
        .s0_wready(pdp_axi_wready),
        .s0_wdata(pdp_axi_wdata),
        .s0_wstrb(pdp_axi_wstrb),
        .s0_wlast(pdp_axi_wlast),
        .s0_bvalid(pdp_axi_bvalid),
        .s0_bready(pdp_axi_bready),
        .s0_bresp(pdp_axi_bresp),
        .s1_arvalid(cdp_axi_arvalid),
        .s1_arready(cdp_axi_arready),
        .s1_araddr(cdp_axi_araddr),
        .s1_arlen(cdp_axi_arlen),
        .s1_arsize(cdp_axi_arsize),
        .s1_arburst(cdp_axi_arburst), .s1_arid(4'd0), .s1_rid(leaf_rid_cdp),
        .s1_rvalid(cdp_axi_rvalid),
        .s1_rready(cdp_axi_rready),
        .s1_rdata(cdp_axi_rdata),
        .s1_rresp(cdp_axi_rresp),
        .s1_rlast(cdp_axi_rlast),
        .s1_awvalid(cdp_axi_awvalid),
        .s1_awready(cdp_axi_awready),
        .s1_awaddr(cdp_axi_awaddr),
        .s1_awlen(cdp_axi_awlen),
        .s1_awsize(cdp_axi_awsize),
        .s1_awburst(cdp_axi_awburst), .s1_awid(4'd0), .s1_bid(leaf_bid_cdp),
        .s1_wvalid(cdp_axi_wvalid),
        .s1_wready(cdp_axi_wready),
        .s1_wdata(cdp_axi_wdata),
        .s1_wstrb(cdp_axi_wstrb),
        .s1_wlast(cdp_axi_wlast),
        .s1_bvalid(cdp_axi_bvalid),
        .s1_bready(cdp_axi_bready),
        .s1_bresp(cdp_axi_bresp),
        .m_arvalid(pc_axi_arvalid),
        .m_arready(pc_axi_arready),
        .m_araddr(pc_axi_araddr),
        .m_arlen(pc_axi_arlen),
        .m_arsize(pc_axi_arsize),
        .m_arburst(pc_axi_arburst),
        .m_arid(pc_axi_arid),
        .m_rvalid(pc_axi_rvalid),
        .m_rready(pc_axi_rready),
        .m_rdata(pc_axi_rdata),
        .m_rresp(pc_axi_rresp),
        .m_rlast(pc_axi_rlast),
        .m_awvalid(pc_axi_awvalid),
        .m_awready(pc_axi_awready),
        .m_awaddr(pc_axi_awaddr),
        .m_awlen(pc_axi_awlen),
        .m_awsize(pc_axi_awsize),
        .m_awburst(pc_axi_awburst),
        .m_awid(pc_axi_awid),
        .m_wvalid(pc_axi_wvalid),
        .m_wready(pc_axi_wready),
        .m_wdata(pc_axi_wdata),
        .m_wstrb(pc_axi_wstrb),
        .m_wlast(pc_axi_wlast),
        .m_bvalid(pc_axi_bvalid),
        .m_bready(pc_axi_bready),
        .m_bresp(pc_axi_bresp),
        .m_rid(pc_axi_rid),
        .m_bid(pc_axi_bid)
    );

    nvdla_axi_arb #(.ADDR_W(32), .DATA_W(64), .ID_W(4), .ID_BIT(1), .W_DEPTH(2 * MAX_BURST)) u_axi_arb (
        .clk(clk), .rst_n(rst_n),
        .s0_arvalid(pc_axi_arvalid), .s0_arready(pc_axi_arready), .s0_araddr(pc_axi_araddr), .s0_arlen(pc_axi_arlen), .s0_arsize(pc_axi_arsize), .s0_arburst(pc_axi_arburst), .s0_arid(pc_axi_arid),
        .s0_rvalid(pc_axi_rvalid), .s0_rready(pc_axi_rready), .s0_rdata(pc_axi_rdata), .s0_rresp(pc_axi_rresp), .s0_rlast(pc_axi_rlast), .s0_rid(pc_axi_rid),
        .s0_awvalid(pc_axi_awvalid), .s0_awready(pc_axi_awready), .s0_awaddr(pc_axi_awaddr), .s0_awlen(pc_axi_awlen), .s0_awsize(pc_axi_awsize), .s0_awburst(pc_axi_awburst), .s0_awid(pc_axi_awid),
        .s0_wvalid(pc_axi_wvalid), .s0_wready(pc_axi_wready), .s0_wdata(pc_axi_wdata), .s0_wstrb(pc_axi_wstrb), .s0_wlast(pc_axi_wlast), .s0_bvalid(pc_axi_bvalid), .s0_bready(pc_axi_bready), .s0_bresp(pc_axi_bresp), .s0_bid(pc_axi_bid),
        .s1_arvalid(sdp_axi_arvalid), .s1_arready(sdp_axi_arready), .s1_araddr(sdp_axi_araddr), .s1_arlen(sdp_axi_arlen), .s1_arsize(sdp_axi_arsize), .s1_arburst(sdp_axi_arburst), .s1_arid(sdp_axi_arid),
        .s1_rvalid(sdp_axi_rvalid), .s1_rready(sdp_axi_rready), .s1_rdata(sdp_axi_rdata), .s1_rresp(sdp_axi_rresp), .s1_rlast(sdp_axi_rlast), .s1_rid(leaf_rid_sdp),
        .s1_awvalid(sdp_axi_awvalid), .s1_awready(sdp_axi_awready), .s1_awaddr(sdp_axi_awaddr), .s1_awlen(sdp_axi_awlen), .s1_awsize(sdp_axi_awsize), .s1_awburst(sdp_axi_awburst), .s1_awid(sdp_axi_awid),
        .s1_wvalid(sdp_axi_wvalid), .s1_wready(sdp_axi_wready), .s1_wdata(sdp_axi_wdata), .s1_wstrb(sdp_axi_wstrb), .s1_wlast(sdp_axi_wlast), .s1_bvalid(sdp_axi_bvalid), .s1_bready(sdp_axi_bready), .s1_bresp(sdp_axi_bresp), .s1_bid(leaf_bid_sdp),
        .m_arvalid(m_axi_arvalid),
        .m_arready(m_axi_arready),
        .m_araddr(m_axi_araddr),
        .m_arlen(m_axi_arlen),
        .m_arsize(m_axi_arsize),
        .m_arburst(m_axi_arburst),
        .m_arid(m_axi_arid),
        .m_rvalid(m_axi_rvalid),
        .m_rready(m_axi_rready),
        .m_rdata(m_axi_rdata),
        .m_rresp(m_axi_rresp),
        .m_rlast(m_axi_rlast),
        .m_awvalid(m_axi_awvalid),
        .m_awready(m_axi_awready),
        .m_awaddr(m_axi_awaddr),
        .m_awlen(m_axi_awlen),
        .m_awsize(m_axi_awsize),
        .m_awburst(m_axi_awburst),
        .m_awid(m_axi_awid),
        .m_wvalid(m_axi_wvalid),
        .m_wready(m_axi_wready),
        .m_wdata(m_axi_wdata),
        .m_wstrb(m_axi_wstrb),
        .m_wlast(m_axi_wlast),
        .m_bvalid(m_axi_bvalid),
        .m_bready(m_axi_bready),
        .m_bresp(m_axi_bresp),
        .m_rid(m_axi_rid),
        .m_bid(m_axi_bid)
    );

    // ---- GLB: interrupt status per unit and group --------------------------------------------------------
    nvdla_glb u_glb (
        .clk(clk), .rst_n(rst_n),
        .reg_sel(reg_sel[U_GLB]), .reg_offset(reg_offset), .reg_wdata(reg_wdata), .reg_write(reg_write),
        .reg_rdata(reg_rdata[U_GLB*32 +: 32]),
        .sdp_done_intr({sdp_done & sdp_consumer, sdp_done & ~sdp_consumer}),
        .cdp_done_intr({cdp_done & cdp_consumer, cdp_done & ~cdp_consumer}),
        .pdp_done_intr({pdp_done & pdp_consumer, pdp_done & ~pdp_consumer}),
        .intr(intr)
    );

    // Each DMA uses one ID; the arbiter sets the IDs on the shared port (the master index) itself.
    /* verilator lint_off UNUSEDSIGNAL */
    wire [15:0] unused_ids = {pdp_axi_arid, pdp_axi_awid, cdp_axi_arid, cdp_axi_awid};
    /* verilator lint_on UNUSEDSIGNAL */
endmodule
