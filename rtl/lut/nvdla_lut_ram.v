// The two LUT tables (LE: LE_DEPTH x 16, LO: LO_DEPTH x 16) in flops, behind NVDLA's access port
// (S_LUT_ACCESS_CFG / S_LUT_ACCESS_DATA). The register block turns CSB accesses into strobes:
//   cfg_we   a write of S_LUT_ACCESS_CFG: loads the pointer, latches table id and access type;
//   data_we  a write of S_LUT_ACCESS_DATA (data_wdata);
//   data_re  a read of S_LUT_ACCESS_DATA: data_rdata holds the answer from the next cycle on.
// SATURATE = 1 (CDP, as nv_small builds it): a DATA access whose direction matches the type reads or
// writes [table][ptr] and moves the pointer on, stopping at the table's last entry; an access of the
// other direction changes nothing (a read of it answers 0). cfg_addr_q (LUT_ADDR read back) is the
// current pointer.
// SATURATE = 0 (SDP): every DATA access moves a 10-bit wrapping pointer on; only writes with type WRITE
// store, reads answer whatever the type; cfg_addr_q is the address as written.
// A pointer past the end of its table (reachable through cfg_we only) stores nothing and reads 0; in
// CDP mode it also stays where it is. The tables reset to zero and are exported flat (entry i at
// [16*i +: 16]) so that the datapath reads them with as many ports as it has lanes.
module nvdla_lut_ram #(
    parameter LE_DEPTH = 65,
    parameter LO_DEPTH = 257,
    parameter SATURATE = 1,
    parameter ADDR_W   = 10
) (
    input  wire                     clk,
    input  wire                     rst_n,
    input  wire                     cfg_we,
    input  wire [ADDR_W-1:0]        cfg_addr,
    input  wire                     cfg_table,     // 0: LE, 1: LO
    input  wire                     cfg_write,     // access type: 0: read, 1: write
    output wire [ADDR_W-1:0]        cfg_addr_q,    // LUT_ADDR as S_LUT_ACCESS_CFG reads back
    output reg                      table_id,
    output reg                      access_write,
    input  wire                     data_we,
    input  wire [15:0]              data_wdata,
    input  wire                     data_re,
    output reg  [15:0]              data_rdata,
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

    reg  [ADDR_W-1:0] ptr;
    reg  [ADDR_W-1:0] addr_written;
    wire [ADDR_W-1:0] last     = table_id ? LO_LAST : LE_LAST;
    wire              in_range = (ptr <= last);
    // accesses that count: CDP only those matching the type, SDP every one
    wire              wr_ok    = data_we & ((SATURATE == 0) | access_write);
    wire              rd_ok    = data_re & ((SATURATE == 0) | ~access_write);
    wire              store    = wr_ok & access_write & in_range;
    wire              move     = (SATURATE != 0) ? ((wr_ok | rd_ok) & (ptr < last))
                                                 : (data_we | data_re);

    assign cfg_addr_q = (SATURATE != 0) ? ptr : addr_written;

    // [table][ptr], 0 past the table's end: one indexed select (a loop over every entry compared with ptr
    // was the costliest logic of the top under Verilator, evaluated each cycle though read only on data_re)
    localparam LE_IW = $clog2(LE_DEPTH * 16);   // bit index widths into le_q / lo_q
    localparam LO_IW = $clog2(LO_DEPTH * 16);
    /* verilator lint_off UNUSEDSIGNAL */
    wire [ADDR_W+3:0] rd_bit  = {ptr, 4'd0};   // its top bits matter only past the tables, which read 0
    /* verilator lint_on UNUSEDSIGNAL */
    wire [LE_IW-1:0]  le_bit  = rd_bit[LE_IW-1:0];
    wire [LO_IW-1:0]  lo_bit  = rd_bit[LO_IW-1:0];
    wire [15:0]       rd_word = table_id ? ((ptr <= LO_LAST) ? lo_q[lo_bit +: 16] : 16'd0)
                                         : ((ptr <= LE_LAST) ? le_q[le_bit +: 16] : 16'd0);
    integer j;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            ptr          <= {ADDR_W{1'b0}};
            addr_written <= {ADDR_W{1'b0}};
            table_id     <= 1'b0;
            access_write <= 1'b0;
            data_rdata   <= 16'd0;
        end else if (cfg_we) begin
            ptr          <= cfg_addr;
            addr_written <= cfg_addr;
            table_id     <= cfg_table;
            access_write <= cfg_write;
        end else begin
            if (move) ptr <= ptr + 1'b1;
            if (data_re) data_rdata <= rd_ok ? rd_word : 16'd0;
        end
    end

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            le_q <= {(LE_DEPTH*16){1'b0}};
            lo_q <= {(LO_DEPTH*16){1'b0}};
        end else if (store & ~cfg_we) begin
            for (j = 0; j < LE_DEPTH; j = j + 1) begin
                if (!table_id && (ptr == j[ADDR_W-1:0])) le_q[16*j +: 16] <= data_wdata;
            end
            for (j = 0; j < LO_DEPTH; j = j + 1) begin
                if (table_id && (ptr == j[ADDR_W-1:0])) lo_q[16*j +: 16] <= data_wdata;
            end
        end
    end
endmodule
