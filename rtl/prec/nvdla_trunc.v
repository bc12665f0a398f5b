// NVDLA truncate (seed 002): y = saturate(round_half_away(x >> lsb)) to OUT_W signed bits, per lane.
// Pipeline: input skid buffer -> round/saturate (output register).
module nvdla_trunc #(
    parameter LANES   = 1,
    parameter IN_W    = 32,
    parameter SHIFT_W = 6,
    parameter OUT_W   = 16,
    parameter CNT_W   = 32
) (
    input  wire                   clk,
    input  wire                   rst_n,
    input  wire [SHIFT_W-1:0]     cfg_shift,    // lsb of the kept window; stable while samples are in flight
    input  wire                   sat_count_clr,
    input  wire                   in_valid,
    output wire                   in_ready,
    input  wire [LANES*IN_W-1:0]  in_data,
    output wire                   out_valid,
    input  wire                   out_ready,
    output wire [LANES*OUT_W-1:0] out_data,
    output wire [LANES-1:0]       out_sat,
    output wire [CNT_W-1:0]       sat_count
);
    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (LANES < 1) begin
            $display("ERROR: nvdla_trunc %m: LANES >= 1");
            $finish;
        end
    end

    wire                  s0_valid;
    wire                  s0_ready;
    wire [LANES*IN_W-1:0] s0_data;
    wire                  s1_en;

    nvdla_skid #(.WIDTH(LANES*IN_W)) u_in_skid (
        .clk(clk), .rst_n(rst_n),
        .in_valid(in_valid), .in_ready(in_ready), .in_data(in_data),
        .out_valid(s0_valid), .out_ready(s0_ready), .out_data(s0_data)
    );

    nvdla_pipe_ctrl #(.DEPTH(1)) u_ctrl (
        .clk(clk), .rst_n(rst_n),
        .in_valid(s0_valid), .in_ready(s0_ready), .stage_en(s1_en),
        .out_valid(out_valid), .out_ready(out_ready)
    );

    reg [LANES*OUT_W-1:0] s1_y;  // lanes packed side by side
    reg [LANES-1:0] s1_sat;

    genvar l;
    generate
        for (l = 0; l < LANES; l = l + 1) begin : g_lane
            wire signed [OUT_W-1:0] y;
            wire                    sat;
            nvdla_round_sat #(.IN_W(IN_W), .SHIFT_W(SHIFT_W), .OUT_W(OUT_W)) u_rs (
                .x(s0_data[l*IN_W +: IN_W]), .shift(cfg_shift), .y(y), .sat(sat)
            );
            always @(posedge clk) begin
                if (s1_en) begin
                    s1_y[l*OUT_W +: OUT_W] <= y;
                    s1_sat[l] <= sat;
                end
            end
        end
    endgenerate

    assign out_data = s1_y;
    assign out_sat  = s1_sat;

    nvdla_sat_counter #(.LANES(LANES), .CNT_W(CNT_W)) u_sat_cnt (
        .clk(clk), .rst_n(rst_n), .clr(sat_count_clr),
        .inc_valid(out_valid & out_ready), .inc_mask(s1_sat), .count(sat_count)
    );
endmodule
