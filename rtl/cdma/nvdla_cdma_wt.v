// CDMA weight DMA: copies WEIGHT_BYTES (rounded up to memory atoms) from WEIGHT_ADDR (taken down to an
// atom) into CBUF's weight banks as they are, one memory atom per write, entry after entry through a
// circular region of WEIGHT_BANK + 1 banks after the DATA_BANK + 1 data banks. A read command (MAX_BURST
// beats) is issued only when every entry it fills is free (`released` is what CSC gave back; the region
// holds `released + capacity` entries at most), so read data are always taken and the DMA never holds the
// memory's read channel whatever CSC does. `written` counts the whole entries written; `done` rises once
// every beat is written and holds until the next start.
module nvdla_cdma_wt #(
    parameter ATOM            = 8,
    parameter AC              = 8,
    parameter BANKS           = 32,
    parameter DEPTH           = 512,
    parameter MAX_BURST       = 16,
    parameter MAX_OUTSTANDING = 8
) (
    input  wire              clk,
    input  wire              rst_n,
    input  wire              start,
    input  wire [31:0]       addr,
    input  wire [31:0]       bytes,
    input  wire              ram_type,
    input  wire [4:0]        data_bank_m1,
    input  wire [4:0]        weight_bank_m1,
    input  wire [31:0]       released,
    output reg  [PARTS-1:0]  cb_we,
    output reg  [A_W-1:0]    cb_addr,
    output reg  [AC*8-1:0]   cb_data,
    output wire [31:0]       written,
    output reg               done,
    output wire              blocked,        // bytes left but no free entry for them: waiting on a release
    output wire              ar_stall,
    output wire              m_axi_arvalid,
    input  wire              m_axi_arready,
    output wire [31:0]       m_axi_araddr,
    output wire [7:0]        m_axi_arlen,
    output wire [2:0]        m_axi_arsize,
    output wire [1:0]        m_axi_arburst,
    output wire [3:0]        m_axi_arid,
    output wire              m_axi_aruser,
    input  wire              m_axi_rvalid,
    output wire              m_axi_rready,
    input  wire [ATOM*8-1:0] m_axi_rdata,
    input  wire [1:0]        m_axi_rresp,
    input  wire              m_axi_rlast
);
    localparam PARTS = AC / ATOM;
    localparam RB    = $clog2(PARTS);
    localparam A_W   = $clog2(BANKS) + $clog2(DEPTH);
    localparam SB    = $clog2(ATOM);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (ATOM < 4 || (ATOM & (ATOM - 1)) != 0 || AC < ATOM || (AC & (AC - 1)) != 0 || BANKS < 2
            || (BANKS & (BANKS - 1)) != 0 || DEPTH < 2 || (DEPTH & (DEPTH - 1)) != 0 || MAX_BURST < 1) begin
            $display("ERROR: nvdla_cdma_wt %m: ATOM a power of two >= 4, AC a power of two >= ATOM, BANKS and ",
                     "DEPTH powers of two >= 2, MAX_BURST >= 1");
            $finish;
        end
    end

    reg  [32:0]  total;          // beats
    reg  [A_W:0] wcap, wbase;
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            total <= 33'd0;
            wcap  <= {(A_W+1){1'b0}};
            wbase <= {(A_W+1){1'b0}};
        end else begin
            total <= ({1'b0, bytes} + ATOM - 1) >> SB;
            wcap  <= ({{(A_W-4){1'b0}}, weight_bank_m1} + 1'b1) * DEPTH[A_W:0];
            wbase <= ({{(A_W-4){1'b0}}, data_bank_m1} + 1'b1) * DEPTH[A_W:0];
        end
    end

    // ---- requests, MAX_BURST beats at most, each only when its entries are free
    reg  [32:0] issued;          // beats requested
    reg         active;
    reg  [2:0]  settle;          // start: the layer constants above settle first
    wire [32:0] left = total - issued;
    wire [32:0] n    = (left > MAX_BURST) ? MAX_BURST : left;
    wire [33:0] need = ({1'b0, issued} + {1'b0, n} + {2'b0, PARTS[31:0]} - 34'd1) >> RB;     // entries up to the command's end
    wire [33:0] room = {2'b0, released} + {{(33-A_W){1'b0}}, wcap};
    wire        cmd_valid = active && (settle == 3'd0) && (left != 33'd0) && (need <= room);
    wire        cmd_ready;
    assign blocked = active && (settle == 3'd0) && (left != 33'd0) && (need > room);
    wire [31:0] amask = ~(32'd0 + ATOM - 1);
    /* verilator lint_off UNUSEDSIGNAL */
    wire [32:0] byte_off = issued << SB;
    wire        rd_busy;
    /* verilator lint_on UNUSEDSIGNAL */
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            issued <= 33'd0;
            active <= 1'b0;
            settle <= 3'd0;
        end else if (start) begin
            issued <= 33'd0;
            active <= 1'b1;
            settle <= 3'd3;
        end else begin
            if (settle != 3'd0) settle <= settle - 3'd1;
            if (cmd_valid & cmd_ready) issued <= issued + n;
            if (settle == 3'd0 && left == 33'd0) active <= 1'b0;
        end
    end
    wire              rd_valid;
    wire [ATOM*8-1:0] rd_data;
    nvdla_axi_rd #(.ADDR_W(32), .DATA_W(ATOM*8), .LEN_W(16), .MAX_BURST(MAX_BURST),
                   .MAX_OUTSTANDING(MAX_OUTSTANDING)) u_rd (
        .clk(clk), .rst_n(rst_n), .cmd_valid(cmd_valid), .cmd_ready(cmd_ready),
        .cmd_addr((addr & amask) + byte_off[31:0]), .cmd_beats(n[15:0]), .cmd_ram_type(ram_type),
        .m_axi_arvalid(m_axi_arvalid), .m_axi_arready(m_axi_arready), .m_axi_araddr(m_axi_araddr),
        .m_axi_arlen(m_axi_arlen), .m_axi_arsize(m_axi_arsize), .m_axi_arburst(m_axi_arburst),
        .m_axi_arid(m_axi_arid), .m_axi_aruser(m_axi_aruser), .m_axi_rvalid(m_axi_rvalid),
        .m_axi_rready(m_axi_rready), .m_axi_rdata(m_axi_rdata), .m_axi_rresp(m_axi_rresp),
        .m_axi_rlast(m_axi_rlast), .out_valid(rd_valid), .out_ready(1'b1), .out_data(rd_data), .busy(rd_busy)
    );
    assign ar_stall = m_axi_arvalid & ~m_axi_arready;

    // ---- beats into the region: part by part, entry by entry, wrapping at its end
    reg  [32:0]  got;            // beats written
    reg  [7:0]   part;
    reg  [A_W:0] idx;            // entry in the region
    /* verilator lint_off UNUSEDSIGNAL */  // the region wraps inside CBUF (a bad bank split: wrong data only)
    wire [A_W:0] full_addr = wbase + idx;
    /* verilator lint_on UNUSEDSIGNAL */
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            got <= 33'd0;
            part <= 8'd0;
            idx <= {(A_W+1){1'b0}};
            done <= 1'b0;
            cb_we <= {PARTS{1'b0}};
        end else if (start) begin
            got <= 33'd0;
            part <= 8'd0;
            idx <= {(A_W+1){1'b0}};
            done <= 1'b0;
            cb_we <= {PARTS{1'b0}};
        end else begin
            cb_we <= {PARTS{1'b0}};
            if (rd_valid) begin
                cb_we <= {{(PARTS-1){1'b0}}, 1'b1} << part;
                if (part == PARTS[7:0] - 8'd1) begin
                    part <= 8'd0;
                    idx <= (idx + 1'b1 >= wcap) ? {(A_W+1){1'b0}} : idx + 1'b1;
                end else begin
                    part <= part + 8'd1;
                end
            end
            got <= got + {32'd0, cb_we != {PARTS{1'b0}}};
            if (settle == 3'd0 && !active && got == total && cb_we == {PARTS{1'b0}} && !rd_valid) done <= 1'b1;
        end
    end
    /* verilator lint_off UNUSEDSIGNAL */
    wire [32:0] written_e = got >> RB;
    /* verilator lint_on UNUSEDSIGNAL */
    assign written = written_e[31:0];
    always @(posedge clk) begin
        if (rd_valid) begin
            cb_addr <= full_addr[A_W-1:0];
            cb_data <= {PARTS{rd_data}};
        end
    end
endmodule
