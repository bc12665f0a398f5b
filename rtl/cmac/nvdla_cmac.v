// CMAC: ATOMIC_C x ATOMIC_K INT8 multiply array in two halves as NVIDIA's (CMAC_A: kernels 0..AK/2-1,
// CMAC_B: AK/2..AK-1; rtl/cmac/nvdla_cmac_half.v), one operation (AC data bytes against the AK kernels of
// the held weight atom) a cycle. A skid buffer takes the operations from CSC (cutting the ready path), one
// stall pipeline (nvdla_pipe_ctrl: multiply, then one stage per adder level) runs both halves in lockstep,
// and the operation's sideband (`in_side`: CACC's stripe position and first/last flags) travels beside it.
// Weight shadow writes (wt_*) are not flow-controlled: CSC writes the shadow only between the operation
// that swapped it in and the next swap (see nvdla_cmac_half).
module nvdla_cmac #(
    parameter AC     = 8,        // atomic C
    parameter AK     = 8,        // atomic K (both halves)
    parameter SIDE_W = 8         // sideband bits carried with each operation
) (
    input  wire                 clk,
    input  wire                 rst_n,
    input  wire                 in_valid,
    output wire                 in_ready,
    input  wire [AC*8-1:0]      in_data,
    input  wire                 in_swap,
    input  wire [SIDE_W-1:0]    in_side,
    input  wire                 wt_we,
    input  wire [KW-1:0]        wt_k,       // kernel of the atom, 0..AK-1
    input  wire [AC*8-1:0]      wt_data,
    output wire                 out_valid,
    input  wire                 out_ready,
    output wire [AK*PSW-1:0]    out_sum,    // AK signed partial sums, kernel 0 lowest
    output wire [SIDE_W-1:0]    out_side,
    output wire                 swap_done   // an operation with swap was multiplied: the shadow is free
);
    localparam LEVELS = $clog2(AC);
    localparam PSW    = 16 + LEVELS;
    localparam KW     = $clog2(AK);
    localparam HK     = AK / 2;

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (AC < 2 || (AC & (AC - 1)) != 0 || AK < 4 || (AK & (AK - 1)) != 0 || SIDE_W < 1) begin
            $display("ERROR: nvdla_cmac %m: AC a power of two >= 2, AK a power of two >= 4 (two halves of >= 2), SIDE_W >= 1");
            $finish;
        end
    end

    wire              s_valid, s_ready, s_swap;
    wire [AC*8-1:0]   s_data;
    wire [SIDE_W-1:0] s_side;
    nvdla_skid #(.WIDTH(AC*8 + 1 + SIDE_W)) u_skid (
        .clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .in_data({in_swap, in_side, in_data}),
        .out_valid(s_valid), .out_ready(s_ready), .out_data({s_swap, s_side, s_data})
    );

    wire [LEVELS:0] en;
    nvdla_pipe_ctrl #(.DEPTH(LEVELS + 1)) u_ctrl (
        .clk(clk), .rst_n(rst_n), .in_valid(s_valid), .in_ready(s_ready), .stage_en(en),
        .out_valid(out_valid), .out_ready(out_ready)
    );

    assign swap_done = en[0] & s_valid & s_swap;

    (* mem2reg *) reg [SIDE_W-1:0] side [0:LEVELS];   // a shift register: registers, not a RAM
    integer i;
    always @(posedge clk) begin
        if (en[0]) side[0] <= s_side;
        for (i = 1; i <= LEVELS; i = i + 1)
            if (en[i]) side[i] <= side[i-1];
    end
    assign out_side = side[LEVELS];

    // the halves: the kernel index's top bit picks the half
    wire [KW-2:0] hk = wt_k[KW-2:0];
    nvdla_cmac_half #(.AC(AC), .NK(HK)) u_a (
        .clk(clk), .rst_n(rst_n), .en(en), .in_data(s_data), .in_swap(s_swap & s_valid),
        .wt_we(wt_we & ~wt_k[KW-1]), .wt_k(hk), .wt_data(wt_data), .out_sum(out_sum[0 +: HK*PSW])
    );
    nvdla_cmac_half #(.AC(AC), .NK(HK)) u_b (
        .clk(clk), .rst_n(rst_n), .en(en), .in_data(s_data), .in_swap(s_swap & s_valid),
        .wt_we(wt_we & wt_k[KW-1]), .wt_k(hk), .wt_data(wt_data), .out_sum(out_sum[HK*PSW +: HK*PSW])
    );
endmodule
