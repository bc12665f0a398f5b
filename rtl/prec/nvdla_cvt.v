// NVDLA convertor (seed 002): y = saturate(round_half_away((x - offset) * scale >> shift)), per lane.
// Pipeline: input skid buffer -> subtract -> multiply -> round/saturate (output register).
// Signed operands throughout; offset and scale are raw register fields read as two's complement.
module nvdla_cvt #(
    parameter LANES    = 1,
    parameter IN_W     = 32,
    parameter OFFSET_W = 32,
    parameter SCALE_W  = 16,
    parameter SHIFT_W  = 6,
    parameter OUT_W    = 8,
    parameter CNT_W    = 32
) (
    input  wire                   clk,
    input  wire                   rst_n,
    // configuration: must be stable while samples are in flight
    input  wire [OFFSET_W-1:0]    cfg_offset,
    input  wire [SCALE_W-1:0]     cfg_scale,
    input  wire [SHIFT_W-1:0]     cfg_shift,
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
    localparam SUB_W  = ((IN_W > OFFSET_W) ? IN_W : OFFSET_W) + 1;
    localparam PROD_W = SUB_W + SCALE_W;

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (LANES < 1 || IN_W < 1 || OFFSET_W < 1 || SCALE_W < 1) begin
            $display("ERROR: nvdla_cvt %m: LANES, IN_W, OFFSET_W, SCALE_W >= 1");
            $finish;
        end
    end

    wire                  s0_valid;
    wire [LANES*IN_W-1:0] s0_data;
    wire                  s0_ready;
    wire [2:0]            en;
    wire                  s1_en = en[0];
    wire                  s2_en = en[1];
    wire                  s3_en = en[2];

    nvdla_skid #(.WIDTH(LANES*IN_W)) u_in_skid (
        .clk(clk), .rst_n(rst_n),
        .in_valid(in_valid), .in_ready(in_ready), .in_data(in_data),
        .out_valid(s0_valid), .out_ready(s0_ready), .out_data(s0_data)
    );

    nvdla_pipe_ctrl #(.DEPTH(3)) u_ctrl (
        .clk(clk), .rst_n(rst_n),
        .in_valid(s0_valid), .in_ready(s0_ready), .stage_en(en),
        .out_valid(out_valid), .out_ready(out_ready)
    );

    // Lanes are packed side by side in plain vectors (Yosys maps unpacked arrays to memories).
    reg [LANES*SUB_W-1:0]  s1_diff;
    reg [LANES*PROD_W-1:0] s2_prod;
    reg [LANES*OUT_W-1:0]  s3_y;
    reg [LANES-1:0]        s3_sat;

    genvar l;
    generate
        for (l = 0; l < LANES; l = l + 1) begin : g_lane
            wire signed [IN_W-1:0]   x = s0_data[l*IN_W +: IN_W];
            wire signed [OUT_W-1:0]  y;
            wire                     sat;
            nvdla_round_sat #(.IN_W(PROD_W), .SHIFT_W(SHIFT_W), .OUT_W(OUT_W)) u_rs (
                .x(s2_prod[l*PROD_W +: PROD_W]), .shift(cfg_shift), .y(y), .sat(sat)
            );
            always @(posedge clk) begin
                if (s1_en) s1_diff[l*SUB_W +: SUB_W] <= $signed({{(SUB_W-IN_W){x[IN_W-1]}}, x})
                                        - $signed({{(SUB_W-OFFSET_W){cfg_offset[OFFSET_W-1]}}, cfg_offset});
                if (s2_en) s2_prod[l*PROD_W +: PROD_W] <= $signed(s1_diff[l*SUB_W +: SUB_W]) * $signed(cfg_scale);
                if (s3_en) begin
                    s3_y[l*OUT_W +: OUT_W] <= y;
                    s3_sat[l] <= sat;
                end
            end
        end
    endgenerate

    assign out_data = s3_y;
    assign out_sat  = s3_sat;

    nvdla_sat_counter #(.LANES(LANES), .CNT_W(CNT_W)) u_sat_cnt (
        .clk(clk), .rst_n(rst_n), .clr(sat_count_clr),
        .inc_valid(out_valid & out_ready), .inc_mask(s3_sat), .count(sat_count)
    );
endmodule
