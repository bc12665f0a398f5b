// CSB slave with NVDLA's host-side protocol (regmap README, "CSB protocol"):
// request valid/ready carrying a word address, write data, write and non-posted flags; every read returns
// one resp_valid pulse with data, every non-posted write one wr_complete pulse, posted writes nothing.
// The unit is selected by byte-address bits [17:12] (= word-address bits [15:10]); the unit decodes the
// word offset [9:0]. An address in no unit's window reads 0 and ignores writes, as NVDLA's dummy client.
// Fixed latency: request accepted in cycle 0, register access in cycle 1, response in cycle 2.
// `hold` (a register's output in the user: no path from the request) keeps csb_req_ready low: the top level
// holds the host off while a unit's LUT tables are cleared after reset (nvdla_lut_ram), so that no access
// meets a half-cleared table; every other time the slave never stalls.
module nvdla_csb_slave #(
    parameter NUNITS   = 7,
    // 6-bit window number of each unit, unit 0 in the low bits (nv_small: GLB 0x01, SDP_RDMA 0x08, ...)
    parameter UNIT_IDS = {6'h0d, 6'h0c, 6'h0b, 6'h0a, 6'h09, 6'h08, 6'h01}
) (
    input  wire                 clk,
    input  wire                 rst_n,
    input  wire                 hold,          // no request accepted (see above)
    // host side
    input  wire                 csb_req_valid,
    output wire                 csb_req_ready,
    input  wire [15:0]          csb_req_addr,
    input  wire [31:0]          csb_req_wdat,
    input  wire                 csb_req_write,
    input  wire                 csb_req_nposted,
    output reg                  csb_resp_valid,
    output reg  [31:0]          csb_resp_data,
    output reg                  csb_wr_complete,
    // unit side: one access strobe per unit, shared offset/data; read data returned in the same cycle
    output wire [NUNITS-1:0]    reg_sel,
    output wire [9:0]           reg_offset,
    output wire [31:0]          reg_wdata,
    output wire                 reg_write,
    input  wire [NUNITS*32-1:0] reg_rdata
);
    // 1 when two units share a window: an access would select both and OR their read data
    function ids_clash(input integer n);
        integer a, b;
        begin
            ids_clash = 1'b0;
            for (a = 0; a < n; a = a + 1)
                for (b = a + 1; b < n; b = b + 1)
                    if (UNIT_IDS[a*6 +: 6] == UNIT_IDS[b*6 +: 6]) ids_clash = 1'b1;
        end
    endfunction
    localparam CLASH = ids_clash(NUNITS);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (NUNITS < 1 || CLASH) begin
            $display("ERROR: nvdla_csb_slave %m: NUNITS >= 1, every unit in its own window (UNIT_IDS distinct)");
            $finish;
        end
    end

    reg        req_valid;
    reg [15:0] req_addr;
    reg [31:0] req_wdat;
    reg        req_write;
    reg        req_nposted;

    // Every unit answers in a fixed time, so the slave stalls the host only while held.
    assign csb_req_ready = ~hold;
    wire accept = csb_req_valid & ~hold;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            req_valid <= 1'b0;
        end else begin
            req_valid <= accept;
        end
    end

    always @(posedge clk) begin
        if (accept) begin
            req_addr    <= csb_req_addr;
            req_wdat    <= csb_req_wdat;
            req_write   <= csb_req_write;
            req_nposted <= csb_req_nposted;
        end
    end

    genvar u;
    generate
        for (u = 0; u < NUNITS; u = u + 1) begin : g_sel
            assign reg_sel[u] = req_valid && (req_addr[15:10] == UNIT_IDS[u*6 +: 6]);
        end
    endgenerate

    assign reg_offset = req_addr[9:0];
    assign reg_wdata  = req_wdat;
    assign reg_write  = req_write;

    reg [31:0] rdata;
    integer i;
    always @(*) begin
        rdata = 32'h0;
        for (i = 0; i < NUNITS; i = i + 1) begin
            if (reg_sel[i]) rdata = rdata | reg_rdata[i*32 +: 32];
        end
    end

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            csb_resp_valid  <= 1'b0;
            csb_wr_complete <= 1'b0;
            csb_resp_data   <= 32'h0;
        end else begin
            csb_resp_valid  <= req_valid & ~req_write;
            csb_wr_complete <= req_valid & req_write & req_nposted;
            if (req_valid & ~req_write) csb_resp_data <= rdata;
        end
    end
endmodule
