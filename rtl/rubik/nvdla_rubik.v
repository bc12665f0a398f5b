// Rubik (nv_full): contract, split and merge (models/rubik/model.py is the model, docs/rubik.md the description),
// behind the generated register block rtl/gen/nvdla_rubik_regs.v (two register groups, OP_EN, the GLB done).
//
// A layer is a sequence of jobs, each a chunk of at most N columns of one line (nvdla_rubik_walk.v): the
// read side fetches a job's atoms into one bank of the reorder buffer (nvdla_rubik_buf.v) while the write
// side drains the other bank's previous job, so reads and writes overlap. Per job:
//   contract  reads sx commands (the sx stride cubes, n atoms each, CONTRACT_STRIDE_0 apart) into slots
//             dx*n + i, writes one line segment of n*sx atoms reading slot dx*n + i for column i*sx + dx;
//             N = floor(64/sx) columns;
//   split     reads n <= 64 atoms by column, writes one command per plane of ceil(n*bpe/32) atoms by row;
//   merge     reads one command per plane by row, writes n <= 64 atoms by column.
// Surfaces are counted from DATAOUT_CHANNEL on both sides and a surface's planes from DATAIN_CHANNEL, so any
// register values run to an end (the driver refuses the programs whose two counts differ: RB6).
// Interface: one AXI4 master like BDMA's, a*user = the request's RAM type (DATAIN_/DATAOUT_RAM_TYPE: 1 MC,
// 0 CV), routed by the memory interfaces (rtl/dma/nvdla_axi_memif.v). 32-bit addresses (ADDR_HIGH unused:
// the driver keeps the cubes below 4 GiB). D_PERF_READ/WRITE_STALL: cycles a read (AR) / write (AW or W)
// request waits for its ready while PERF_EN, cleared at each layer's start, held by the register group at
// done (NVIDIA counts its request-valid cycles instead: timing, not modelled).
`include "nvdla_rubik_fields.vh"

module nvdla_rubik #(
    parameter ATOM            = 32,
    parameter MAX_BURST       = 16,
    parameter MAX_OUTSTANDING = 8
) (
    input  wire                     clk,
    input  wire                     rst_n,
    input  wire                     op_en,
    input  wire [`RUBIK_CFG_W-1:0]  cfg,
    output wire [`RUBIK_STAT_W-1:0] stat,
    output wire                     done,
    output wire                     busy,
    output wire                  m_axi_arvalid,
    input  wire                  m_axi_arready,
    output wire [31:0]           m_axi_araddr,
    output wire [7:0]            m_axi_arlen,
    output wire [2:0]            m_axi_arsize,
    output wire [1:0]            m_axi_arburst,
    output wire [3:0]            m_axi_arid,
    output wire                  m_axi_aruser,
    input  wire                  m_axi_rvalid,
    output wire                  m_axi_rready,
    input  wire [ATOM*8-1:0]     m_axi_rdata,
    input  wire [1:0]            m_axi_rresp,
    input  wire                  m_axi_rlast,
    output wire                  m_axi_awvalid,
    input  wire                  m_axi_awready,
    output wire [31:0]           m_axi_awaddr,
    output wire [7:0]            m_axi_awlen,
    output wire [2:0]            m_axi_awsize,
    output wire [1:0]            m_axi_awburst,
    output wire [3:0]            m_axi_awid,
    output wire                  m_axi_awuser,
    output wire                  m_axi_wvalid,
    input  wire                  m_axi_wready,
    output wire [ATOM*8-1:0]     m_axi_wdata,
    output wire [ATOM-1:0]       m_axi_wstrb,
    output wire                  m_axi_wlast,
    input  wire                  m_axi_bvalid,
    output wire                  m_axi_bready,
    input  wire [1:0]            m_axi_bresp
);
    localparam DATA_W = ATOM * 8;
    localparam DESC_W = 13 + 7 + 6 + 6 + 6 + 1;  // beats, n, index, count, planes, job_last
    localparam OUT_DEPTH = 4;

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (ATOM != 32 || MAX_OUTSTANDING < 2 || (1 << $clog2(MAX_OUTSTANDING)) != MAX_OUTSTANDING) begin
            $display("ERROR: nvdla_rubik %m: ATOM 32 (Rubik moves 32-byte atoms, as NVIDIA's nv_full); ",
                     "MAX_OUTSTANDING a power of two >= 2");
            $finish;
        end
    end

    // ---- configuration (the consumer group's fields, stable while the layer runs) ----------------------
    wire [1:0]  mode      = cfg[`RUBIK_RUBIK_MODE];
    wire        m_contract = (mode == 2'd0);
    wire        m_merge    = (mode == 2'd2);
    wire        m_split    = ~m_contract & ~m_merge;   // RUBIK_MODE 3 runs as split (NVIDIA: neither)
    wire        byte_data  = (cfg[`RUBIK_IN_PRECISION] == 2'd0);
    wire [13:0] width      = {1'b0, cfg[`RUBIK_DATAIN_WIDTH]} + 14'd1;
    wire [13:0] in_ch      = {1'b0, cfg[`RUBIK_DATAIN_CHANNEL]} + 14'd1;
    wire [13:0] out_ch_m1  = {1'b0, cfg[`RUBIK_DATAOUT_CHANNEL]};
    wire [31:0] src        = {cfg[`RUBIK_DAIN_ADDR_LOW], 5'b0};
    wire [31:0] dst        = {cfg[`RUBIK_DAOUT_ADDR_LOW], 5'b0};
    wire [31:0] s_line     = {cfg[`RUBIK_DAIN_LINE_STRIDE], 5'b0};
    wire [31:0] s_surf     = {cfg[`RUBIK_DAIN_SURF_STRIDE], 5'b0};
    wire [31:0] s_planar   = {cfg[`RUBIK_DAIN_PLANAR_STRIDE], 5'b0};
    wire [31:0] d_line     = {cfg[`RUBIK_DAOUT_LINE_STRIDE], 5'b0};
    wire [31:0] d_surf     = {cfg[`RUBIK_DAOUT_SURF_STRIDE], 5'b0};
    wire [31:0] d_planar   = {cfg[`RUBIK_DAOUT_PLANAR_STRIDE], 5'b0};
    wire [31:0] cs0        = {cfg[`RUBIK_CONTRACT_STRIDE_0], 5'b0};
    wire [5:0]  sx         = {1'b0, cfg[`RUBIK_DECONV_X_STRIDE]} + 6'd1;
    wire [5:0]  sy         = {1'b0, cfg[`RUBIK_DECONV_Y_STRIDE]} + 6'd1;

    // contract: N = floor(64 / sx) columns a job, so that a job's n*sx atoms fit a 64-atom bank
    function [6:0] chunk_of(input [5:0] s);
        begin
            case (s)
                6'd1: chunk_of = 7'd64;  6'd2: chunk_of = 7'd32;  6'd3: chunk_of = 7'd21;  6'd4: chunk_of = 7'd16;
                6'd5: chunk_of = 7'd12;  6'd6: chunk_of = 7'd10;  6'd7: chunk_of = 7'd9;   6'd8: chunk_of = 7'd8;
                6'd9: chunk_of = 7'd7;   6'd10: chunk_of = 7'd6;  6'd11: chunk_of = 7'd5;  6'd12: chunk_of = 7'd5;
                6'd13, 6'd14, 6'd15, 6'd16: chunk_of = 7'd4;
                6'd17, 6'd18, 6'd19, 6'd20, 6'd21: chunk_of = 7'd3;
                default: chunk_of = 7'd2;   // 22..32
            endcase
        end
    endfunction

    // ---- layer control and the per-layer steps (registered at start; the walkers start a cycle later) --
    wire start, running, finish;
    wire [0:0] finished_unused;
    nvdla_layer_ctrl #(.N_FLAGS(1)) u_ctrl (
        .clk(clk), .rst_n(rst_n), .op_en(op_en), .set(1'b0), .finish(finish),
        .start(start), .running(running), .finished(finished_unused), .done(done)
    );
    reg        go;
    reg [31:0] cubey, planes_in, planes_out, line_sy;
    reg [9:0]  surfs_m1;
    reg [6:0]  chunk;
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            go         <= 1'b0;
            cubey      <= 32'h0;
            planes_in  <= 32'h0;
            planes_out <= 32'h0;
            line_sy    <= 32'h0;
            surfs_m1   <= 10'h0;
            chunk      <= 7'd64;
        end else begin
            go <= start;
            if (start) begin
                cubey      <= cs0 * {26'd0, sx};
                line_sy    <= d_line * {26'd0, sy};
                planes_in  <= byte_data ? (s_planar << 5) : (s_planar << 4);
                planes_out <= byte_data ? (d_planar << 5) : (d_planar << 4);
                surfs_m1   <= byte_data ? {2'b00, out_ch_m1[12:5]} : out_ch_m1[13:4];
                chunk      <= m_contract ? chunk_of(sx) : 7'd64;
            end
        end
    end
    wire [31:0] bpe_step = byte_data ? 32'd1 : 32'd2;

    // ---- read side: walker -> AXI read + fill descriptors ----------------------------------------------
    wire        rw_valid, rw_ready, rw_job_last, rw_last_unused, rw_busy;
    wire [31:0] rw_addr;
    wire [12:0] rw_beats;
    wire [6:0]  rw_n;
    wire [5:0]  rw_index, rw_count, rw_planes;
    nvdla_rubik_walk u_rd_walk (
        .clk(clk), .rst_n(rst_n), .start(go), .base(src),
        .a_step(m_merge ? planes_in : s_surf), .b_step(s_line), .c_step(m_contract ? cubey : 32'h0),
        .d_step(m_merge ? bpe_step : 32'd32), .cmd_step(m_contract ? cs0 : s_planar),
        .surfs_m1(surfs_m1), .height_m1(cfg[`RUBIK_DATAIN_HEIGHT]),
        .dy_m1(m_contract ? cfg[`RUBIK_DECONV_Y_STRIDE] : 5'd0), .width(width), .chunk(chunk),
        .channels(in_ch), .byte_data(byte_data), .cnt_fixed_en(~m_merge), .cnt_fixed(m_contract ? sx : 6'd1),
        .beats_mode(m_merge ? 2'd2 : 2'd0), .beats_mul(6'd1),
        .cmd_valid(rw_valid), .cmd_ready(rw_ready), .cmd_addr(rw_addr), .cmd_beats(rw_beats), .cmd_n(rw_n),
        .cmd_index(rw_index), .cmd_count(rw_count), .cmd_planes(rw_planes), .cmd_job_last(rw_job_last),
        .cmd_last(rw_last_unused), .busy(rw_busy)
    );
    wire rd_cmd_ready, fd_in_ready;
    assign rw_ready = rd_cmd_ready & fd_in_ready;
    wire              fd_valid, fd_pop;
    wire [DESC_W-1:0] fd;
    nvdla_fifo #(.WIDTH(DESC_W), .DEPTH(2 * MAX_OUTSTANDING)) u_fill_desc (
        .clk(clk), .rst_n(rst_n),
        .in_valid(rw_valid & rd_cmd_ready), .in_ready(fd_in_ready),
        .in_data({rw_beats, rw_n, rw_index, rw_count, rw_planes, rw_job_last}),
        .out_valid(fd_valid), .out_ready(fd_pop), .out_data(fd)
    );
    wire              rd_valid, rd_busy;
    wire              rd_ready;
    wire [DATA_W-1:0] rd_data;
    nvdla_axi_rd #(.ADDR_W(32), .DATA_W(DATA_W), .LEN_W(13), .MAX_BURST(MAX_BURST),
                   .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_axi_rd (
        .clk(clk), .rst_n(rst_n),
        .cmd_valid(rw_valid & fd_in_ready), .cmd_ready(rd_cmd_ready), .cmd_addr(rw_addr), .cmd_beats(rw_beats),
        .cmd_ram_type(cfg[`RUBIK_DATAIN_RAM_TYPE]), .m_axi_aruser(m_axi_aruser),
        .m_axi_arvalid(m_axi_arvalid), .m_axi_arready(m_axi_arready), .m_axi_araddr(m_axi_araddr),
        .m_axi_arlen(m_axi_arlen), .m_axi_arsize(m_axi_arsize), .m_axi_arburst(m_axi_arburst),
        .m_axi_arid(m_axi_arid), .m_axi_rvalid(m_axi_rvalid), .m_axi_rready(m_axi_rready),
        .m_axi_rdata(m_axi_rdata), .m_axi_rresp(m_axi_rresp), .m_axi_rlast(m_axi_rlast),
        .out_valid(rd_valid), .out_ready(rd_ready), .out_data(rd_data), .busy(rd_busy)
    );

    // ---- fill: read beats into the fill bank -----------------------------------------------------------
    reg  [1:0]  full;
    reg         fill_bank, drain_bank;
    reg  [12:0] f_beat;
    reg  [5:0]  f_slot;
    wire [12:0] fd_beats = fd[DESC_W-1 -: 13];
    wire [5:0]  fd_index = fd[18:13];
    wire        fd_job_last = fd[0];
    wire        f_take = fd_valid & rd_valid & ~full[fill_bank];
    wire        f_cmd_end = f_take & (f_beat == fd_beats - 13'd1);
    wire        f_job_end = f_cmd_end & fd_job_last;
    assign rd_ready = fd_valid & ~full[fill_bank];
    assign fd_pop   = f_cmd_end;
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            f_beat    <= 13'h0;
            f_slot    <= 6'h0;
            fill_bank <= 1'b0;
        end else if (start) begin
            f_beat    <= 13'h0;
            f_slot    <= 6'h0;
            fill_bank <= 1'b0;
        end else if (f_take) begin
            f_beat <= f_cmd_end ? 13'h0 : f_beat + 13'd1;
            f_slot <= f_job_end ? 6'h0 : f_slot + 6'd1;
            if (f_job_end) fill_bank <= ~fill_bank;
        end
    end

    // ---- write side: walker -> AXI write + drain descriptors -------------------------------------------
    wire        ww_valid, ww_ready, ww_job_last, ww_last_unused, ww_busy;
    wire [31:0] ww_addr;
    wire [12:0] ww_beats;
    wire [6:0]  ww_n;
    wire [5:0]  ww_index, ww_count, ww_planes;
    nvdla_rubik_walk u_wr_walk (
        .clk(clk), .rst_n(rst_n), .start(go), .base(dst),
        .a_step(m_split ? planes_out : d_surf), .b_step(m_contract ? line_sy : d_line),
        .c_step(m_contract ? d_line : 32'h0), .d_step(m_split ? bpe_step : {21'd0, sx, 5'd0}),
        .cmd_step(m_split ? d_planar : 32'h0),
        .surfs_m1(surfs_m1), .height_m1(cfg[`RUBIK_DATAIN_HEIGHT]),
        .dy_m1(m_contract ? cfg[`RUBIK_DECONV_Y_STRIDE] : 5'd0), .width(width), .chunk(chunk),
        .channels(in_ch), .byte_data(byte_data), .cnt_fixed_en(~m_split), .cnt_fixed(6'd1),
        .beats_mode(m_contract ? 2'd1 : m_split ? 2'd2 : 2'd0), .beats_mul(sx),
        .cmd_valid(ww_valid), .cmd_ready(ww_ready), .cmd_addr(ww_addr), .cmd_beats(ww_beats), .cmd_n(ww_n),
        .cmd_index(ww_index), .cmd_count(ww_count), .cmd_planes(ww_planes), .cmd_job_last(ww_job_last),
        .cmd_last(ww_last_unused), .busy(ww_busy)
    );
    wire wr_cmd_ready, dd_in_ready;
    assign ww_ready = wr_cmd_ready & dd_in_ready;
    wire              dd_valid, dd_pop;
    wire [DESC_W-1:0] dd;
    nvdla_fifo #(.WIDTH(DESC_W), .DEPTH(2 * MAX_OUTSTANDING)) u_drain_desc (
        .clk(clk), .rst_n(rst_n),
        .in_valid(ww_valid & wr_cmd_ready), .in_ready(dd_in_ready),
        .in_data({ww_beats, ww_n, ww_index, ww_count, ww_planes, ww_job_last}),
        .out_valid(dd_valid), .out_ready(dd_pop), .out_data(dd)
    );

    // ---- drain: buffer reads (registered) into a small output FIFO, with credit ------------------------
    wire [12:0] dd_beats  = dd[DESC_W-1 -: 13];
    wire [6:0]  dd_n      = dd[DESC_W-14 -: 7];
    wire [5:0]  dd_index  = dd[18:13];
    wire [5:0]  dd_planes = dd[6:1];
    wire        dd_job_last = dd[0];
    reg  [12:0] d_beat;
    reg  [6:0]  d_col;       // contract: column i of the job; merge: column (= beat)
    reg  [5:0]  d_dx, d_slot;
    reg  [2:0]  occ;          // buffer reads issued and not yet taken by the AXI write
    wire        o_valid, o_ready_unused;
    wire [DATA_W-1:0] o_data;
    wire        w_in_ready;
    wire        o_pop = o_valid & w_in_ready;
    wire        d_issue = dd_valid & full[drain_bank] & (occ < OUT_DEPTH[2:0]);
    wire        d_cmd_end = d_issue & (d_beat == dd_beats - 13'd1);
    wire        d_job_end = d_cmd_end & dd_job_last;
    assign dd_pop = d_cmd_end;
    wire        c_row_end = (d_dx == sx - 6'd1);
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            d_beat     <= 13'h0;
            d_col      <= 7'h0;
            d_dx       <= 6'h0;
            d_slot     <= 6'h0;
            drain_bank <= 1'b0;
            occ        <= 3'h0;
        end else if (start) begin
            d_beat     <= 13'h0;
            d_col      <= 7'h0;
            d_dx       <= 6'h0;
            d_slot     <= 6'h0;
            drain_bank <= 1'b0;
            occ        <= 3'h0;
        end else begin
            occ <= occ + {2'b00, d_issue} - {2'b00, o_pop};
            if (d_issue) begin
                d_beat <= d_cmd_end ? 13'h0 : d_beat + 13'd1;
                if (d_job_end) begin
                    d_col      <= 7'h0;
                    d_dx       <= 6'h0;
                    d_slot     <= 6'h0;
                    drain_bank <= ~drain_bank;
                end else if (m_contract) begin
                    // slot dx*n + i for output column i*sx + dx
                    if (c_row_end) begin
                        d_dx   <= 6'h0;
                        d_col  <= d_col + 7'd1;
                        d_slot <= d_col[5:0] + 6'd1;
                    end else begin
                        d_dx   <= d_dx + 6'd1;
                        d_slot <= d_slot + dd_n[5:0];
                    end
                end else begin
                    d_col <= d_col + 7'd1;
                end
            end
        end
    end

    // the banks: full from a job's last read beat to its last buffer read
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            full <= 2'b00;
        end else if (start) begin
            full <= 2'b00;
        end else begin
            if (f_job_end)                              full[fill_bank]  <= 1'b1;
            if (d_job_end && !(f_job_end && fill_bank == drain_bank)) full[drain_bank] <= 1'b0;
        end
    end

    // buffer ports: fill writes, drain reads
    wire [4:0] f_plane = fd_index[4:0];
    wire [4:0] d_plane = dd_index[4:0];
    nvdla_rubik_buf u_buf (
        .clk(clk), .rst_n(rst_n), .byte_data(byte_data),
        .wr_en(f_take), .wr_bank(fill_bank), .wr_kind(m_merge),
        .wr_col(f_slot), .wr_plane(f_plane), .wr_seg(f_beat[1:0]), .wr_data(rd_data),
        .rd_en(d_issue), .rd_bank(drain_bank), .rd_kind(m_split),
        .rd_col(m_contract ? d_slot : d_col[5:0]), .rd_plane(d_plane), .rd_seg(d_beat[1:0]),
        .keep_bytes(m_merge ? (byte_data ? {1'b0, dd_planes} : {dd_planes, 1'b0}) : 7'd32),
        .keep_cols(dd_n), .rd_data(o_data)
    );
    reg o_loaded;
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) o_loaded <= 1'b0;
        else        o_loaded <= d_issue;
    end
    // the read data lands the cycle after the issue: a FIFO holds it until the AXI write takes it
    wire              q_valid;
    wire [DATA_W-1:0] q_data;
    nvdla_fifo #(.WIDTH(DATA_W), .DEPTH(OUT_DEPTH)) u_out (
        .clk(clk), .rst_n(rst_n),
        .in_valid(o_loaded), .in_ready(o_ready_unused), .in_data(o_data),
        .out_valid(q_valid), .out_ready(w_in_ready), .out_data(q_data)
    );
    assign o_valid = q_valid;

    wire wr_idle;
    nvdla_axi_wr #(.ADDR_W(32), .DATA_W(DATA_W), .LEN_W(13), .MAX_BURST(MAX_BURST),
                   .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_axi_wr (
        .clk(clk), .rst_n(rst_n),
        .cmd_valid(ww_valid & dd_in_ready), .cmd_ready(wr_cmd_ready), .cmd_addr(ww_addr), .cmd_beats(ww_beats),
        .cmd_ram_type(cfg[`RUBIK_DATAOUT_RAM_TYPE]), .m_axi_awuser(m_axi_awuser),
        .in_valid(q_valid), .in_ready(w_in_ready), .in_data(q_data),
        .m_axi_awvalid(m_axi_awvalid), .m_axi_awready(m_axi_awready), .m_axi_awaddr(m_axi_awaddr),
        .m_axi_awlen(m_axi_awlen), .m_axi_awsize(m_axi_awsize), .m_axi_awburst(m_axi_awburst),
        .m_axi_awid(m_axi_awid), .m_axi_wvalid(m_axi_wvalid), .m_axi_wready(m_axi_wready),
        .m_axi_wdata(m_axi_wdata), .m_axi_wstrb(m_axi_wstrb), .m_axi_wlast(m_axi_wlast),
        .m_axi_bvalid(m_axi_bvalid), .m_axi_bready(m_axi_bready), .m_axi_bresp(m_axi_bresp),
        .idle(wr_idle)
    );

    assign finish = ~go & ~rw_busy & ~ww_busy & ~fd_valid & ~dd_valid & ~rd_busy & ~rd_valid & wr_idle
                    & (occ == 3'h0) & ~q_valid & (full == 2'b00);
    assign busy = running;

    // ---- stall counters (D_PERF_ENABLE.PERF_EN of the running layer) ------------------------------------
    wire [31:0] rd_stall, wr_stall;
    nvdla_perf_counter #(.CLEAR(2)) u_rd_stall (
        .clk(clk), .rst_n(rst_n), .start(start), .en(cfg[`RUBIK_PERF_EN] & running),
        .inc(m_axi_arvalid & ~m_axi_arready), .count(rd_stall)
    );
    nvdla_perf_counter #(.CLEAR(2)) u_wr_stall (
        .clk(clk), .rst_n(rst_n), .start(start), .en(cfg[`RUBIK_PERF_EN] & running),
        .inc((m_axi_awvalid & ~m_axi_awready) | (m_axi_wvalid & ~m_axi_wready)), .count(wr_stall)
    );
    assign stat[`RUBIK_RD_STALL_CNT] = rd_stall;
    assign stat[`RUBIK_WR_STALL_CNT] = wr_stall;

    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_ok = &{1'b0, cfg[`RUBIK_DAIN_ADDR_HIGH], cfg[`RUBIK_DAOUT_ADDR_HIGH], cfg[`RUBIK_CONTRACT_STRIDE_1],
                       cfg[`RUBIK_IN_PRECISION], out_ch_m1[3:0], finished_unused, o_ready_unused, rw_last_unused,
                       ww_last_unused, rw_count, ww_count, rw_planes, rw_n, ww_index, fd[DESC_W-14 -: 7],
                       fd[12:1], dd[12:7], d_col[6], fd_index[5], dd_index[5]};
    /* verilator lint_on UNUSEDSIGNAL */
endmodule
