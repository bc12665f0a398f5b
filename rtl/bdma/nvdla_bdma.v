// BDMA, nv_full's bridge DMA: copies cubes of 32-byte-unit lines between the external memory (MC) and the
// CV SRAM, behind the generated register block rtl/gen/nvdla_bdma_regs.v (models/bdma/model.py is the model).
//
// Interface: one AXI4 master like every unit's, each request carrying its RAM type on a*user (1 MC, the
// external memory; 0 CVSRAM, the CV SRAM): reads the type CFG_CMD.SRC_RAM_TYPE names, writes DST_RAM_TYPE's.
// The subsystem's memory interfaces (rtl/dma/nvdla_axi_memif.v) route them, as they route SDP, PDP and CDP
// (NVIDIA gives BDMA two clients, bdma2mcif and bdma2cvif, for the same effect). 32-bit addresses
// (CFG_*_ADDR_HIGH is kept by the register block but not used: the driver keeps copies below 4 GiB).
//
// Protocol (NVIDIA's NV_NVDLA_BDMA_csb.v): a CFG_OP write with EN=1 pushes the CFG_ fields into a command
// queue of QUEUE_DEPTH (20) operations; STATUS.FREE_SLOT shows the room, a push into a full queue is dropped.
// A CFG_LAUNCH0/1 write with GRPn_LAUNCH=1 closes group n: the operations pushed since the previous launch.
// Up to LAUNCH_DEPTH launched groups wait in order (a launch beyond that is dropped, as NVIDIA drops it when
// both groups are busy, with its operations joining the next launch). Each group's operations run in queue
// order and `done_intr[n]` pulses when its last write has its AXI response; STATUS.GRPn_BUSY is high from the
// launch to that done. A group of no operation stays busy and never finishes (NVIDIA's zero count).
//
// Operations run one after the other: the next one starts when every write of the previous one has its
// response. (NVIDIA lets the next operation's reads overtake the previous one's writes; waiting makes a
// group that copies A->B then B->C exact, and lets the RAM types switch on idle engines.) Within an
// operation, reads run ahead of writes through the read engine's outstanding bursts; every line is one read
// command and one write command of (SIZE+1)*32/ATOM beats, the read data stream feeds the write stream.
//
// Stall counts (STALL_COUNT_EN): cycles a read (AR) or a write (AW or W) request waits for its ready, in one
// live count each, loaded into the finishing group's STATUS_GRPn_READ/WRITE_STALL at its done and cleared at
// its launch (NVIDIA counts per request packet; these are per AXI channel).
`include "nvdla_bdma_fields.vh"

module nvdla_bdma #(
    parameter ATOM            = 32,  // memory atom = AXI data bytes: 8, 16 or 32
    parameter MAX_BURST       = 16,
    parameter MAX_OUTSTANDING = 8,
    parameter QUEUE_DEPTH     = 20,  // NVIDIA's 20 command slots
    parameter LAUNCH_DEPTH    = 2    // launched groups waiting or running (NVIDIA: one of each group)
) (
    input  wire                  clk,
    input  wire                  rst_n,
    input  wire [`BDMA_CFG_W-1:0]  cfg,
    output wire [`BDMA_STAT_W-1:0] stat,
    output reg  [1:0]            done_intr,  // GLB BDMA_DONE0/1: one-cycle pulse per finished group
    output wire                  busy,
    // AXI4 master; a*user = the request's RAM type (1 MC, 0 CV SRAM)
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
    localparam DATA_W  = ATOM * 8;
    localparam LEN_W   = 16;                        // beats per line: up to 8192*32/8 = 32768
    localparam BEAT_SH = (ATOM == 8) ? 2 : ((ATOM == 16) ? 1 : 0);  // 32-byte units -> beats
    localparam CNT_W   = $clog2(QUEUE_DEPTH + 1);
    localparam Q_W     = 27 * 6 + 13 + 24 + 24 + 2;  // addresses, strides, size, repeats, RAM types
    localparam Q_STORE = 1 << $clog2(QUEUE_DEPTH < 2 ? 2 : QUEUE_DEPTH);  // nvdla_fifo needs a power of two
    localparam L_STORE = 1 << $clog2(LAUNCH_DEPTH < 2 ? 2 : LAUNCH_DEPTH);
    localparam LC_W    = $clog2(LAUNCH_DEPTH + 1) + 1;
    localparam RAM_MC  = 1'b1;  // CFG_CMD.*_RAM_TYPE and a*user: 1 MC, 0 CV SRAM

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if ((ATOM != 8 && ATOM != 16 && ATOM != 32) || QUEUE_DEPTH < 1 || QUEUE_DEPTH > 255 ||
            LAUNCH_DEPTH < 1 || MAX_OUTSTANDING < 2 || (1 << $clog2(MAX_OUTSTANDING)) != MAX_OUTSTANDING) begin
            $display("ERROR: nvdla_bdma %m: ATOM one of 8, 16, 32; QUEUE_DEPTH 1..255 (STATUS.FREE_SLOT is ",
                     "8 bits); LAUNCH_DEPTH >= 1; MAX_OUTSTANDING a power of two >= 2 (nvdla_axi_wr)");
            $finish;
        end
    end

    // ---- software side: pushes and launches, one cycle after the register write (as NVIDIA) ------------
    reg  push_t, launch0_t, launch1_t;
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            push_t    <= 1'b0;
            launch0_t <= 1'b0;
            launch1_t <= 1'b0;
        end else begin
            push_t    <= cfg[`BDMA_EN_TRIGGER];
            launch0_t <= cfg[`BDMA_GRP0_LAUNCH_TRIGGER];
            launch1_t <= cfg[`BDMA_GRP1_LAUNCH_TRIGGER];
        end
    end
    wire push_req   = push_t & cfg[`BDMA_EN];
    wire launch_req = (launch0_t & cfg[`BDMA_GRP0_LAUNCH]) | (launch1_t & cfg[`BDMA_GRP1_LAUNCH]);
    wire launch_grp = launch1_t;  // the two launch registers are never written in the same cycle

    // ---- command queue ---------------------------------------------------------------------------------
    reg  [CNT_W-1:0] queued;   // operations in the queue (not yet started)
    reg  [CNT_W-1:0] gathered; // operations pushed since the last accepted launch
    wire             q_in_ready, q_valid, q_pop;
    wire [Q_W-1:0]   q_data;
    wire             push = push_req & (queued < QUEUE_DEPTH[CNT_W-1:0]) & q_in_ready;
    wire [Q_W-1:0]   q_in = {cfg[`BDMA_SRC_RAM_TYPE], cfg[`BDMA_DST_RAM_TYPE],
                             cfg[`BDMA_CFG_SURF_REPEAT_NUMBER], cfg[`BDMA_CFG_LINE_REPEAT_NUMBER],
                             cfg[`BDMA_SIZE],
                             cfg[`BDMA_CFG_DST_SURF_STRIDE], cfg[`BDMA_CFG_SRC_SURF_STRIDE],
                             cfg[`BDMA_CFG_DST_LINE_STRIDE], cfg[`BDMA_CFG_SRC_LINE_STRIDE],
                             cfg[`BDMA_CFG_DST_ADDR_LOW_V32], cfg[`BDMA_CFG_SRC_ADDR_LOW_V32]};

    nvdla_fifo #(.WIDTH(Q_W), .DEPTH(Q_STORE)) u_queue (
        .clk(clk), .rst_n(rst_n),
        .in_valid(push), .in_ready(q_in_ready), .in_data(q_in),
        .out_valid(q_valid), .out_ready(q_pop), .out_data(q_data)
    );

    // launched groups: {group, operation count}
    wire             l_in_ready, l_valid, l_pop;
    wire [CNT_W:0]   l_data;
    reg  [LC_W-1:0]  l_count;  // limits the waiting launches to LAUNCH_DEPTH when L_STORE is larger
    wire             launch_ok = launch_req & l_in_ready & (l_count < LAUNCH_DEPTH[LC_W-1:0]);
    nvdla_fifo #(.WIDTH(CNT_W + 1), .DEPTH(L_STORE)) u_launches (
        .clk(clk), .rst_n(rst_n),
        .in_valid(launch_ok), .in_ready(l_in_ready), .in_data({launch_grp, gathered}),
        .out_valid(l_valid), .out_ready(l_pop), .out_data(l_data)
    );
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) l_count <= {LC_W{1'b0}};
        else        l_count <= l_count + {{(LC_W - 1){1'b0}}, launch_ok} - {{(LC_W - 1){1'b0}}, l_pop};
    end

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            queued   <= {CNT_W{1'b0}};
            gathered <= {CNT_W{1'b0}};
        end else begin
            queued <= queued + {{(CNT_W - 1){1'b0}}, push} - {{(CNT_W - 1){1'b0}}, q_pop};
            if (launch_ok) gathered <= {{(CNT_W - 1){1'b0}}, push};  // a push now joins the next group
            else if (push) gathered <= gathered + {{(CNT_W - 1){1'b0}}, 1'b1};
        end
    end

    // ---- executor: one group at a time, one operation at a time ----------------------------------------
    localparam S_IDLE = 2'd0, S_LOAD = 2'd1, S_RUN = 2'd2;
    reg  [1:0]       state;
    reg  [CNT_W-1:0] remaining;
    reg              grp, src_ram, dst_ram;
    wire             rd_walk_busy, wr_walk_busy, rd_busy, wr_idle;
    wire             op_end = (state == S_RUN) & ~rd_walk_busy & ~wr_walk_busy & ~rd_busy & wr_idle;

    assign l_pop = (state == S_IDLE) & l_valid;
    assign q_pop = (state == S_LOAD) & q_valid;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            state     <= S_IDLE;
            remaining <= {CNT_W{1'b0}};
            grp       <= 1'b0;
            src_ram   <= RAM_MC;
            dst_ram   <= RAM_MC;
            done_intr <= 2'b00;
        end else begin
            done_intr <= 2'b00;
            case (state)
                S_IDLE: if (l_valid) begin
                    grp       <= l_data[CNT_W];
                    remaining <= l_data[CNT_W-1:0];
                    // a group of no operation is taken and never finishes (NVIDIA: its busy stays set)
                    if (l_data[CNT_W-1:0] != {CNT_W{1'b0}}) state <= S_LOAD;
                end
                S_LOAD: if (q_valid) begin
                    src_ram <= q_data[Q_W-1];
                    dst_ram <= q_data[Q_W-2];
                    state   <= S_RUN;
                end
                S_RUN: if (op_end) begin
                    remaining <= remaining - {{(CNT_W - 1){1'b0}}, 1'b1};
                    if (remaining == {{(CNT_W - 1){1'b0}}, 1'b1}) begin
                        done_intr[grp] <= 1'b1;
                        state          <= S_IDLE;
                    end else begin
                        state <= S_LOAD;
                    end
                end
                default: state <= S_IDLE;
            endcase
        end
    end

    // ---- the operation's two walkers (source reads, destination writes) -------------------------------
    wire [26:0] q_src   = q_data[26:0];
    wire [26:0] q_dst   = q_data[53:27];
    wire [26:0] q_sline = q_data[80:54];
    wire [26:0] q_dline = q_data[107:81];
    wire [26:0] q_ssurf = q_data[134:108];
    wire [26:0] q_dsurf = q_data[161:135];
    wire [12:0] q_size  = q_data[174:162];
    wire [23:0] q_lines = q_data[198:175];
    wire [23:0] q_surfs = q_data[222:199];

    reg  [LEN_W-1:0] line_beats;  // of the running operation
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n)     line_beats <= {LEN_W{1'b0}};
        else if (q_pop) line_beats <= ({3'b000, q_size} + 16'd1) << BEAT_SH;
    end

    wire        rd_cmd_valid, rd_cmd_ready, wr_cmd_valid, wr_cmd_ready;
    wire [31:0] rd_cmd_addr, wr_cmd_addr;
    nvdla_bdma_walk u_rd_walk (
        .clk(clk), .rst_n(rst_n), .start(q_pop),
        .base({q_src, 5'b0}), .line_stride({q_sline, 5'b0}), .surf_stride({q_ssurf, 5'b0}),
        .lines_m1(q_lines), .surfs_m1(q_surfs),
        .cmd_valid(rd_cmd_valid), .cmd_ready(rd_cmd_ready), .cmd_addr(rd_cmd_addr), .busy(rd_walk_busy)
    );
    nvdla_bdma_walk u_wr_walk (
        .clk(clk), .rst_n(rst_n), .start(q_pop),
        .base({q_dst, 5'b0}), .line_stride({q_dline, 5'b0}), .surf_stride({q_dsurf, 5'b0}),
        .lines_m1(q_lines), .surfs_m1(q_surfs),
        .cmd_valid(wr_cmd_valid), .cmd_ready(wr_cmd_ready), .cmd_addr(wr_cmd_addr), .busy(wr_walk_busy)
    );

    // ---- DMA engines on the unit's master; a*user is the operation's RAM type (set between operations) --------------------------
    wire              d_valid, d_ready;
    wire [DATA_W-1:0] d_data;

    nvdla_axi_rd #(.ADDR_W(32), .DATA_W(DATA_W), .LEN_W(LEN_W), .MAX_BURST(MAX_BURST),
                   .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_axi_rd (
        .clk(clk), .rst_n(rst_n),
        .cmd_valid(rd_cmd_valid), .cmd_ready(rd_cmd_ready), .cmd_addr(rd_cmd_addr), .cmd_beats(line_beats),
        .cmd_ram_type(src_ram), .m_axi_aruser(m_axi_aruser), .m_axi_arvalid(m_axi_arvalid), .m_axi_arready(m_axi_arready), .m_axi_araddr(m_axi_araddr),
        .m_axi_arlen(m_axi_arlen), .m_axi_arsize(m_axi_arsize), .m_axi_arburst(m_axi_arburst),
        .m_axi_arid(m_axi_arid), .m_axi_rvalid(m_axi_rvalid), .m_axi_rready(m_axi_rready),
        .m_axi_rdata(m_axi_rdata), .m_axi_rresp(m_axi_rresp), .m_axi_rlast(m_axi_rlast),
        .out_valid(d_valid), .out_ready(d_ready), .out_data(d_data), .busy(rd_busy)
    );

    nvdla_axi_wr #(.ADDR_W(32), .DATA_W(DATA_W), .LEN_W(LEN_W), .MAX_BURST(MAX_BURST),
                   .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_axi_wr (
        .clk(clk), .rst_n(rst_n),
        .cmd_valid(wr_cmd_valid), .cmd_ready(wr_cmd_ready), .cmd_addr(wr_cmd_addr), .cmd_beats(line_beats),
        .cmd_ram_type(dst_ram), .m_axi_awuser(m_axi_awuser), .in_valid(d_valid), .in_ready(d_ready), .in_data(d_data),
        .m_axi_awvalid(m_axi_awvalid), .m_axi_awready(m_axi_awready), .m_axi_awaddr(m_axi_awaddr),
        .m_axi_awlen(m_axi_awlen), .m_axi_awsize(m_axi_awsize), .m_axi_awburst(m_axi_awburst),
        .m_axi_awid(m_axi_awid), .m_axi_wvalid(m_axi_wvalid), .m_axi_wready(m_axi_wready),
        .m_axi_wdata(m_axi_wdata), .m_axi_wstrb(m_axi_wstrb), .m_axi_wlast(m_axi_wlast),
        .m_axi_bvalid(m_axi_bvalid), .m_axi_bready(m_axi_bready), .m_axi_bresp(m_axi_bresp),
        .idle(wr_idle)
    );

    // ---- status and stall counts -------------------------------------------------------------------------
    reg  [1:0]  grp_busy;
    reg  [31:0] rd_stall, wr_stall, st_rd0, st_wr0, st_rd1, st_wr1;
    wire        count_en = cfg[`BDMA_STALL_COUNT_EN];
    wire        finish0  = done_intr[0], finish1 = done_intr[1];
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            grp_busy <= 2'b00;
            rd_stall <= 32'h0;
            wr_stall <= 32'h0;
            st_rd0   <= 32'h0;
            st_wr0   <= 32'h0;
            st_rd1   <= 32'h0;
            st_wr1   <= 32'h0;
        end else begin
            // a launch sets its group's busy (and wins over a done the same cycle), a done clears it
            if (launch_ok & ~launch_grp)     grp_busy[0] <= 1'b1;
            else if (finish0)                grp_busy[0] <= 1'b0;
            if (launch_ok & launch_grp)      grp_busy[1] <= 1'b1;
            else if (finish1)                grp_busy[1] <= 1'b0;
            if (finish0 | finish1) begin
                rd_stall <= 32'h0;
                wr_stall <= 32'h0;
            end else if (count_en) begin
                rd_stall <= rd_stall + {31'h0, m_axi_arvalid & ~m_axi_arready};
                wr_stall <= wr_stall + {31'h0, (m_axi_awvalid & ~m_axi_awready) | (m_axi_wvalid & ~m_axi_wready)};
            end
            if (launch_ok & ~launch_grp) begin
                st_rd0 <= 32'h0;
                st_wr0 <= 32'h0;
            end else if (finish0) begin
                st_rd0 <= rd_stall;
                st_wr0 <= wr_stall;
            end
            if (launch_ok & launch_grp) begin
                st_rd1 <= 32'h0;
                st_wr1 <= 32'h0;
            end else if (finish1) begin
                st_rd1 <= rd_stall;
                st_wr1 <= wr_stall;
            end
        end
    end

    wire [31:0] free_slot = QUEUE_DEPTH - {{(32 - CNT_W){1'b0}}, queued};  // 0..255: bits [31:8] are 0
    wire       idle      = (queued == {CNT_W{1'b0}}) & (state == S_IDLE) & ~l_valid;
    assign busy = ~idle;
    assign stat[`BDMA_FREE_SLOT]                    = free_slot[7:0];
    assign stat[`BDMA_IDLE]                         = idle;
    assign stat[`BDMA_GRP0_BUSY]                    = grp_busy[0];
    assign stat[`BDMA_GRP1_BUSY]                    = grp_busy[1];
    assign stat[`BDMA_STATUS_GRP0_READ_STALL_COUNT]  = st_rd0;
    assign stat[`BDMA_STATUS_GRP0_WRITE_STALL_COUNT] = st_wr0;
    assign stat[`BDMA_STATUS_GRP1_READ_STALL_COUNT]  = st_rd1;
    assign stat[`BDMA_STATUS_GRP1_WRITE_STALL_COUNT] = st_wr1;

    // fields the datapath does not use: the 64-bit address halves (32-bit AXI here) and the stored values
    // of the trigger fields other than through their pulses
    wire unused_ok = &{1'b0, cfg[`BDMA_CFG_SRC_ADDR_HIGH_V8], cfg[`BDMA_CFG_DST_ADDR_HIGH_V8],
                       free_slot[31:8]};
endmodule
