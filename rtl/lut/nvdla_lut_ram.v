// The two LUT tables (LE: LE_DEPTH x 16, LO: LO_DEPTH x 16) as memories that synthesis maps to block RAM
// (one copy per read port: ECP5 DP16KD, an ASIC's SRAM macros), behind the register block's LUT access
// port (rtl/gen/nvdla_<unit>_regs.v keeps the pointer in the unit's style and sends cfg LUT_ACCESS_*):
//   we      stores wdata at [table][addr];
//   rdata   the word at [table][addr] in the cycle the register block reads it: the read address is
//           registered from `next`, the pointer's next value, so the word is ready when the pointer is
//           (a write in the cycle before shows through).
// Lane reads (RD lanes, two ports each: entries a0 and a1 of the table `tab`): registered while rd_en,
// read from both tables and chosen after the RAM by the registered table bit. An address past the end of
// its table stores nothing and reads 0.
// Reset clears the tables, as NVIDIA's flop tables are (NV_NVDLA_SDP_CORE_Y_lut, NV_NVDLA_CDP_DP_lut: every
// entry resets to 0): a RAM has no reset, so from reset a sweep writes 0 to entry 0, 1, ... of both tables,
// one entry a cycle, max(LE_DEPTH, LO_DEPTH) cycles, holding the write port; `busy` is high from reset until
// the sweep's last write (a register, low from the cycle after it). Users wait for it: nvdla_lut holds its
// samples off (in_ready low), the top level holds the CSB off (csb_req_ready low), so no access and no lane
// read meets a half-cleared table; an access write while busy is lost (the sweep owns the write port).
module nvdla_lut_ram #(
    parameter LE_DEPTH = 65,
    parameter LO_DEPTH = 257,
    parameter ADDR_W   = 10,
    parameter RD       = 1,        // lanes reading (two ports each)
    parameter IDX_W    = 9         // lane address width
) (
    input  wire                 clk,
    input  wire                 rst_n,
    output wire                 busy,          // the clear sweep after reset runs (see above)
    input  wire                 we,
    input  wire                 table_sel,     // 0: LE, 1: LO
    input  wire [ADDR_W-1:0]    addr,
    input  wire [ADDR_W-1:0]    next,          // the pointer's value in the next cycle
    input  wire [15:0]          wdata,
    output wire [15:0]          rdata,
    // lane read ports
    input  wire                 rd_en,
    input  wire [RD-1:0]        rd_tab,        // per lane: 0 LE, 1 LO
    input  wire [RD*IDX_W-1:0]  rd_a0,
    input  wire [RD*IDX_W-1:0]  rd_a1,
    output wire [RD*16-1:0]     rd_y0,
    output wire [RD*16-1:0]     rd_y1
);
    localparam LE_AW = (LE_DEPTH > 1) ? $clog2(LE_DEPTH) : 1;
    localparam LO_AW = (LO_DEPTH > 1) ? $clog2(LO_DEPTH) : 1;
    localparam [ADDR_W-1:0] LE_LAST = LE_DEPTH - 1;
    localparam [ADDR_W-1:0] LO_LAST = LO_DEPTH - 1;
    localparam [IDX_W-1:0]  LE_LAST_I = LE_DEPTH - 1;
    localparam [IDX_W-1:0]  LO_LAST_I = LO_DEPTH - 1;

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (ADDR_W < 1 || LE_DEPTH < 1 || LO_DEPTH < 1 || LE_DEPTH > (1 << ADDR_W) || LO_DEPTH > (1 << ADDR_W)
            || RD < 1 || IDX_W < LE_AW || IDX_W < LO_AW || LE_AW > ADDR_W || LO_AW > ADDR_W) begin
            $display("ERROR: nvdla_lut_ram %m: ADDR_W >= 1, 1 <= LE_DEPTH, LO_DEPTH <= 2**ADDR_W ",
                     "(the pointer reaches every entry), RD >= 1, IDX_W reaches every entry");
            $finish;
        end
    end

    // block RAM even for the 65-entry LE table (Yosys would map that one to distributed RAM otherwise)
    (* ram_style = "block" *) reg [15:0] le_mem [0:LE_DEPTH-1];
    (* ram_style = "block" *) reg [15:0] lo_mem [0:LO_DEPTH-1];

    // the clear sweep from reset: entry clr_addr of both tables (of each while inside it) gets 0
    localparam [ADDR_W-1:0] CLR_LAST = (LE_DEPTH > LO_DEPTH) ? LE_LAST : LO_LAST;
    reg              clearing;
    reg [ADDR_W-1:0] clr_addr;
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            clearing <= 1'b1;
            clr_addr <= {ADDR_W{1'b0}};
        end else if (clearing) begin
            clearing <= (clr_addr != CLR_LAST);
            clr_addr <= clr_addr + 1'b1;
        end
    end
    assign busy = clearing;

    // one write port a table: the sweep's while clearing, else the access port's
    wire              le_we = clearing ? (clr_addr <= LE_LAST) : (we & ~table_sel & (addr <= LE_LAST));
    wire              lo_we = clearing ? (clr_addr <= LO_LAST) : (we & table_sel & (addr <= LO_LAST));
    localparam MW = (LE_AW > LO_AW) ? LE_AW : LO_AW;   // the larger table's address (range checked above)
    wire [MW-1:0]     w_addr = clearing ? clr_addr[MW-1:0] : addr[MW-1:0];
    wire [15:0]       w_data = clearing ? 16'd0 : wdata;
    always @(posedge clk) begin
        if (le_we) le_mem[w_addr[LE_AW-1:0]] <= w_data;
    end
    always @(posedge clk) begin
        if (lo_we) lo_mem[w_addr[LO_AW-1:0]] <= w_data;
    end

    // access read: the address registered from the pointer's next value (each register feeds its memory
    // only, so that synthesis takes it into the RAM's read port), the range checks registered beside it
    reg [LE_AW-1:0] le_ra;
    reg [LO_AW-1:0] lo_ra;
    reg             le_rok, lo_rok;
    always @(posedge clk) begin
        le_ra  <= next[LE_AW-1:0];
        lo_ra  <= next[LO_AW-1:0];
        le_rok <= next <= LE_LAST;
        lo_rok <= next <= LO_LAST;
    end
    wire [15:0] le_rd = le_mem[le_ra];
    wire [15:0] lo_rd = lo_mem[lo_ra];
    assign rdata = table_sel ? (lo_rok ? lo_rd : 16'd0) : (le_rok ? le_rd : 16'd0);

    // lane reads
    genvar l;
    generate
        for (l = 0; l < RD; l = l + 1) begin : g_rd
            wire [IDX_W-1:0] a0 = rd_a0[l*IDX_W +: IDX_W];
            wire [IDX_W-1:0] a1 = rd_a1[l*IDX_W +: IDX_W];
            reg  [15:0] le_q0, le_q1, lo_q0, lo_q1;
            reg         tab, ok0, ok1;
            always @(posedge clk) begin
                if (rd_en) begin
                    le_q0 <= le_mem[a0[LE_AW-1:0]];
                    le_q1 <= le_mem[a1[LE_AW-1:0]];
                    lo_q0 <= lo_mem[a0[LO_AW-1:0]];
                    lo_q1 <= lo_mem[a1[LO_AW-1:0]];
                    tab   <= rd_tab[l];
                    ok0   <= rd_tab[l] ? (a0 <= LO_LAST_I) : (a0 <= LE_LAST_I);
                    ok1   <= rd_tab[l] ? (a1 <= LO_LAST_I) : (a1 <= LE_LAST_I);
                end
            end
            assign rd_y0[l*16 +: 16] = ok0 ? (tab ? lo_q0 : le_q0) : 16'd0;
            assign rd_y1[l*16 +: 16] = ok1 ? (tab ? lo_q1 : le_q1) : 16'd0;
        end
    endgenerate
endmodule
