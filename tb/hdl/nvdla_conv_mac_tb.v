// Bench wrapper (tb/test_conv_mac.py): CMAC (rtl/cmac/nvdla_cmac.v) feeding CACC (rtl/cacc/nvdla_cacc.v) as
// in nvdla_conv, the operation's sideband {stripe position, first, last} carried through CMAC.
module nvdla_conv_mac_tb #(
    parameter AC     = 8,
    parameter AK     = 8,
    parameter STRIPE = 16
) (
    input  wire                 clk,
    input  wire                 rst_n,
    input  wire                 start,
    input  wire [4:0]           truncate,
    input  wire                 in_valid,
    output wire                 in_ready,
    input  wire [AC*8-1:0]      in_data,
    input  wire                 in_swap,
    input  wire [PW-1:0]        in_pos,
    input  wire                 in_first,
    input  wire                 in_last,
    input  wire                 wt_we,
    input  wire [$clog2(AK)-1:0] wt_k,
    input  wire [AC*8-1:0]      wt_data,
    output wire                 swap_done,
    output wire                 out_valid,
    input  wire                 out_ready,
    output wire [AK*32-1:0]     out_data,
    output wire [31:0]          sat_count,
    output wire                 idle
);
    localparam PW  = $clog2(STRIPE);
    localparam PSW = 16 + $clog2(AC);
    wire              mac_valid, mac_ready;
    wire [AK*PSW-1:0] mac_sum;
    wire [PW+1:0]     mac_side;
    nvdla_cmac #(.AC(AC), .AK(AK), .SIDE_W(PW + 2)) u_cmac (
        .clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .in_data(in_data),
        .in_swap(in_swap), .in_side({in_pos, in_first, in_last}), .wt_we(wt_we), .wt_k(wt_k), .wt_data(wt_data),
        .out_valid(mac_valid), .out_ready(mac_ready), .out_sum(mac_sum), .out_side(mac_side),
        .swap_done(swap_done)
    );
    nvdla_cacc #(.AC(AC), .AK(AK), .STRIPE(STRIPE), .OUT_DEPTH(8)) u_cacc (
        .clk(clk), .rst_n(rst_n), .start(start), .truncate(truncate),
        .in_valid(mac_valid), .in_ready(mac_ready), .in_sum(mac_sum), .in_pos(mac_side[PW+1:2]),
        .in_first(mac_side[1]), .in_last(mac_side[0]),
        .out_valid(out_valid), .out_ready(out_ready), .out_data(out_data), .sat_count(sat_count), .idle(idle)
    );
endmodule
