// CBUF, the convolution buffer: BANKS banks of DEPTH entries of EB bytes (nvdla_cbuf_bank), one address
// space of BANKS * DEPTH entries (bank = the address's high bits). CDMA's feature data go to the first
// DATA_BANK + 1 banks and its weights to the WEIGHT_BANK + 1 banks after them (NVIDIA's split); here the
// ports only route: two write ports (feature data `dw_*`, weights `ww_*`; a write enable per memory atom of
// the entry) and two read ports (CSC's feature reads `dr_*`, weight reads `wr_*`), each read answering one
// cycle after `re` and holding while `re` is low. Both ports of a kind reach every bank: a register program
// that makes them meet in one bank gives the data port the bank (the weight access is lost or reads the
// data port's entry) but never a stall. A read port's held answer stays valid while no other port reads
// that bank, which the disjoint data and weight banks of a legal program guarantee.
module nvdla_cbuf #(
    parameter BANKS = 32,
    parameter DEPTH = 512,
    parameter EB    = 8,      // entry bytes (= atomic C at INT8)
    parameter ATOM  = 8       // memory atom bytes: the write granularity
) (
    input  wire              clk,
    input  wire              rst_n,
    input  wire [PARTS-1:0]  dw_we,
    input  wire [A_W-1:0]    dw_addr,
    input  wire [EB*8-1:0]   dw_data,
    input  wire [PARTS-1:0]  ww_we,
    input  wire [A_W-1:0]    ww_addr,
    input  wire [EB*8-1:0]   ww_data,
    input  wire              dr_re,
    input  wire [A_W-1:0]    dr_addr,
    output wire [EB*8-1:0]   dr_data,
    input  wire              wr_re,
    input  wire [A_W-1:0]    wr_addr,
    output wire [EB*8-1:0]   wr_data
);
    localparam PARTS = EB / ATOM;
    localparam BW    = $clog2(BANKS);
    localparam IW    = $clog2(DEPTH);
    localparam A_W   = BW + IW;

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (BANKS < 2 || (BANKS & (BANKS - 1)) != 0 || DEPTH < 2 || (DEPTH & (DEPTH - 1)) != 0 || ATOM < 1
            || EB < ATOM || EB % ATOM != 0) begin
            $display("ERROR: nvdla_cbuf %m: BANKS and DEPTH powers of two >= 2, EB a multiple of ATOM");
            $finish;
        end
    end

    wire [BW-1:0] dw_bank = dw_addr[A_W-1:IW], ww_bank = ww_addr[A_W-1:IW];
    wire [BW-1:0] dr_bank = dr_addr[A_W-1:IW], wr_bank = wr_addr[A_W-1:IW];
    reg  [BW-1:0] dr_sel, wr_sel;   // the bank each read port's answer comes from
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            dr_sel <= {BW{1'b0}};
            wr_sel <= {BW{1'b0}};
        end else begin
            if (dr_re) dr_sel <= dr_bank;
            if (wr_re) wr_sel <= wr_bank;
        end
    end

    wire [BANKS*EB*8-1:0] q;
    genvar b;
    generate
        for (b = 0; b < BANKS; b = b + 1) begin : g_bank
            wire dw_hit = dw_bank == b[BW-1:0];
            wire ww_hit = ww_bank == b[BW-1:0];
            wire dr_hit = dr_re & (dr_bank == b[BW-1:0]);
            wire wr_hit = wr_re & (wr_bank == b[BW-1:0]);
            wire dw_on  = dw_hit & (dw_we != {PARTS{1'b0}});
            wire [PARTS-1:0] we = dw_on ? dw_we : (ww_hit ? ww_we : {PARTS{1'b0}});
            nvdla_cbuf_bank #(.DEPTH(DEPTH), .PARTS(PARTS), .PART_W(ATOM*8)) u_bank (
                .clk(clk), .we(we),
                .waddr(dw_on ? dw_addr[IW-1:0] : ww_addr[IW-1:0]), .wdata(dw_on ? dw_data : ww_data),
                .re(dr_hit | wr_hit), .raddr(dr_hit ? dr_addr[IW-1:0] : wr_addr[IW-1:0]),
                .rdata(q[b*EB*8 +: EB*8])
            );
        end
    endgenerate
    assign dr_data = q[dr_sel*EB*8 +: EB*8];
    assign wr_data = q[wr_sel*EB*8 +: EB*8];
endmodule
