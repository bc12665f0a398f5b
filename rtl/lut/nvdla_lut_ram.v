// The two LUT tables (LE: LE_DEPTH x 16, LO: LO_DEPTH x 16) in flops, with NVDLA's access port
// (S_LUT_ACCESS_CFG / S_LUT_ACCESS_DATA, as the nv_small CDP register block drives it):
//   - cfg_we loads the address pointer and latches table id and access type (write = 1);
//   - data_we with type WRITE stores data_wdata at [table][ptr], data_re with type READ returns
//     [table][ptr] on data_rdata (registered, held until the next read); either then moves the pointer
//     on, except at the last entry of the selected table, where it stays (it saturates);
//   - an access whose direction does not match the type does nothing and leaves the pointer alone;
//   - a pointer past the end of its table (only reachable through cfg_we) writes nothing, reads
//     entry 0 and keeps counting, as NVDLA's RTL does.
// The whole tables are exported flat (entry i at [16*i +: 16]) so the datapath can read them with
// as many ports as it has lanes; the tables reset to zero like NVDLA's.
module nvdla_lut_ram #(
    parameter LE_DEPTH = 65,
    parameter LO_DEPTH = 257,
    parameter ADDR_W   = 10
) (
    input  wire                     clk,
    input  wire                     rst_n,
    input  wire                     cfg_we,
    input  wire [ADDR_W-1:0]        cfg_addr,
    input  wire                     cfg_table,     // 0: LE, 1: LO
    input  wire                     cfg_write,     // access type: 0: read, 1: write
    output reg  [ADDR_W-1:0]        ptr,           // what a read of S_LUT_ACCESS_CFG returns as LUT_ADDR
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

    wire              do_write = data_we & access_write;
    wire              do_read  = data_re & ~access_write;
    wire [ADDR_W-1:0] last     = table_id ? LO_LAST : LE_LAST;
    wire              in_range = (ptr <= last);

    reg [15:0] rd_word;
    integer i, j;   // one loop variable per always block

    always @(*) begin
        rd_word = table_id ? lo_q[15:0] : le_q[15:0];
        for (i = 0; i < LE_DEPTH; i = i + 1) begin
            if (!table_id && (ptr == i[ADDR_W-1:0])) rd_word = le_q[16*i +: 16];
        end
        for (i = 0; i < LO_DEPTH; i = i + 1) begin
            if (table_id && (ptr == i[ADDR_W-1:0])) rd_word = lo_q[16*i +: 16];
        end
    end

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            ptr          <= {ADDR_W{1'b0}};
            table_id     <= 1'b0;
            access_write <= 1'b0;
            data_rdata   <= 16'd0;
        end else if (cfg_we) begin
            ptr          <= cfg_addr;
            table_id     <= cfg_table;
            access_write <= cfg_write;
        end else if (do_write | do_read) begin
            if (ptr != last) ptr <= ptr + 1'b1;
            if (do_read) data_rdata <= rd_word;
        end
    end

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            le_q <= {(LE_DEPTH*16){1'b0}};
            lo_q <= {(LO_DEPTH*16){1'b0}};
        end else if (do_write & ~cfg_we & in_range) begin
            for (j = 0; j < LE_DEPTH; j = j + 1) begin
                if (!table_id && (ptr == j[ADDR_W-1:0])) le_q[16*j +: 16] <= data_wdata;
            end
            for (j = 0; j < LO_DEPTH; j = j + 1) begin
                if (table_id && (ptr == j[ADDR_W-1:0])) lo_q[16*j +: 16] <= data_wdata;
            end
        end
    end
endmodule
