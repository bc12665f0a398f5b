// The two LUT tables (LE: LE_DEPTH x 16, LO: LO_DEPTH x 16) in flops, behind the register block's LUT access
// port (rtl/gen/nvdla_<unit>_regs.v keeps the pointer in the unit's style and sends cfg LUT_ACCESS_*):
//   we      stores wdata at [table][addr];
//   rdata   the word at [table][addr], combinational: the register block returns it in the access cycle.
// An address past the end of its table stores nothing and reads 0. The tables reset to zero and are
// exported flat (entry i at [16*i +: 16]) so that the datapath reads them with as many ports as it has lanes.
//
// Combinational path across the boundary (written reason): addr and table come from the register block's
// flops and rdata goes back to its read-back mux, which the CSB slave registers; the path is flop -> mux ->
// mux -> flop and has no loop (rdata does not feed addr, table or we).
module nvdla_lut_ram #(
    parameter LE_DEPTH = 65,
    parameter LO_DEPTH = 257,
    parameter ADDR_W   = 10
) (
    input  wire                     clk,
    input  wire                     rst_n,
    input  wire                     we,
    input  wire                     table_sel,     // 0: LE, 1: LO
    input  wire [ADDR_W-1:0]        addr,
    input  wire [15:0]              wdata,
    output wire [15:0]              rdata,
    output reg  [LE_DEPTH*16-1:0]   le_q,
    output reg  [LO_DEPTH*16-1:0]   lo_q
);
    localparam [ADDR_W-1:0] LE_LAST = LE_DEPTH - 1;
    localparam [ADDR_W-1:0] LO_LAST = LO_DEPTH - 1;

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (ADDR_W < 1 || LE_DEPTH < 1 || LO_DEPTH < 1 || LE_DEPTH > (1 << ADDR_W) || LO_DEPTH > (1 << ADDR_W)) begin
            $display("ERROR: nvdla_lut_ram %m: ADDR_W >= 1, 1 <= LE_DEPTH, LO_DEPTH <= 2**ADDR_W ",
                     "(the pointer reaches every entry)");
            $finish;
        end
    end

    // [table][addr], 0 past the table's end: one indexed select (a loop over every entry compared with addr
    // was the costliest logic of the top under Verilator)
    localparam LE_IW = $clog2(LE_DEPTH * 16);   // bit index widths into le_q / lo_q
    localparam LO_IW = $clog2(LO_DEPTH * 16);
    /* verilator lint_off UNUSEDSIGNAL */
    wire [ADDR_W+3:0] rd_bit = {addr, 4'd0};   // its top bits matter only past the tables, which read 0
    /* verilator lint_on UNUSEDSIGNAL */
    wire [LE_IW-1:0]  le_bit = rd_bit[LE_IW-1:0];
    wire [LO_IW-1:0]  lo_bit = rd_bit[LO_IW-1:0];
    assign rdata = table_sel ? ((addr <= LO_LAST) ? lo_q[lo_bit +: 16] : 16'd0)
                             : ((addr <= LE_LAST) ? le_q[le_bit +: 16] : 16'd0);
    integer j;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            le_q <= {(LE_DEPTH*16){1'b0}};
            lo_q <= {(LO_DEPTH*16){1'b0}};
        end else if (we) begin
            for (j = 0; j < LE_DEPTH; j = j + 1) begin
                if (!table_sel && (addr == j[ADDR_W-1:0])) le_q[16*j +: 16] <= wdata;
            end
            for (j = 0; j < LO_DEPTH; j = j + 1) begin
                if (table_sel && (addr == j[ADDR_W-1:0])) lo_q[16*j +: 16] <= wdata;
            end
        end
    end
endmodule
