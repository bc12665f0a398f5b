// Post-processing subsystem top level: NVDLA host CSB port, one AXI4 master (64-bit data, 32-bit addresses),
// the GLB interrupt. Units: PDP (with PDP_RDMA). The SDP and CDP windows answer as unmapped addresses
// (reads 0, writes dropped, non-posted writes acknowledged) until those units are added.
//
// The PDP datapath takes its geometry from the PDP registers and only the source addresses from PDP_RDMA:
// NVDLA requires both copies to agree (the driver layer checks), and one geometry for both DMA sides and the
// core means that registers which disagree can give wrong data but never a stalled pipeline.
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
    // unit order on the CSB slave: GLB, PDP_RDMA, PDP
    localparam NUNITS = 3;
    localparam U_GLB = 0, U_PDP_RDMA = 1, U_PDP = 2;

    wire [NUNITS-1:0]    reg_sel;
    wire [9:0]           reg_offset;
    wire [31:0]          reg_wdata;
    wire                 reg_write;
    wire [NUNITS*32-1:0] reg_rdata;

    nvdla_csb_slave #(.NUNITS(NUNITS), .UNIT_IDS({6'h0b, 6'h0a, 6'h01})) u_csb (
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

    // ---- PDP datapath ---------------------------------------------------------------------------------
    // On-the-fly layers need no RDMA; memory-input layers wait for the RDMA's group to be enabled too.
    wire pdp_flying = ~pdp_d_operation_mode_cfg_flying_mode;   // FLYING_MODE: 0 = on the fly, 1 = off
    wire pdp_busy_unused;

    nvdla_pdp #(.ATOM(8), .MAX_W(PDP_MAX_W), .MAX_BURST(MAX_BURST), .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_pdp (
        .clk(clk), .rst_n(rst_n),
        .op_en(pdp_op_en & (pdp_flying | rdma_op_en)), .flying(pdp_flying),
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
        .m_axi_arvalid(m_axi_arvalid), .m_axi_arready(m_axi_arready), .m_axi_araddr(m_axi_araddr),
        .m_axi_arlen(m_axi_arlen), .m_axi_arsize(m_axi_arsize), .m_axi_arburst(m_axi_arburst),
        .m_axi_arid(m_axi_arid), .m_axi_rvalid(m_axi_rvalid), .m_axi_rready(m_axi_rready),
        .m_axi_rdata(m_axi_rdata), .m_axi_rresp(m_axi_rresp), .m_axi_rlast(m_axi_rlast),
        .m_axi_awvalid(m_axi_awvalid), .m_axi_awready(m_axi_awready), .m_axi_awaddr(m_axi_awaddr),
        .m_axi_awlen(m_axi_awlen), .m_axi_awsize(m_axi_awsize), .m_axi_awburst(m_axi_awburst),
        .m_axi_awid(m_axi_awid), .m_axi_wvalid(m_axi_wvalid), .m_axi_wready(m_axi_wready),
        .m_axi_wdata(m_axi_wdata), .m_axi_wstrb(m_axi_wstrb), .m_axi_wlast(m_axi_wlast),
        .m_axi_bvalid(m_axi_bvalid), .m_axi_bready(m_axi_bready), .m_axi_bresp(m_axi_bresp)
    );

    // ---- GLB: interrupt status per unit and group --------------------------------------------------------
    nvdla_glb u_glb (
        .clk(clk), .rst_n(rst_n),
        .reg_sel(reg_sel[U_GLB]), .reg_offset(reg_offset), .reg_wdata(reg_wdata), .reg_write(reg_write),
        .reg_rdata(reg_rdata[U_GLB*32 +: 32]),
        .sdp_done_intr(2'b00), .cdp_done_intr(2'b00),
        .pdp_done_intr({pdp_done & pdp_consumer, pdp_done & ~pdp_consumer}),
        .intr(intr)
    );

    // One transaction ID is used, responses come back in order: the IDs need no checking.
    /* verilator lint_off UNUSEDSIGNAL */
    wire [7:0] unused_ids = {m_axi_rid, m_axi_bid};
    /* verilator lint_on UNUSEDSIGNAL */
endmodule
