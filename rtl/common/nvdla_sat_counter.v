// Counts set bits of inc_mask on every inc_valid cycle; saturates at all-ones instead of wrapping,
// so a long run can never report a small count. clr wins over increment.
module nvdla_sat_counter #(
    parameter LANES = 1,
    parameter CNT_W = 32
) (
    input  wire             clk,
    input  wire             rst_n,
    input  wire             clr,
    input  wire             inc_valid,
    input  wire [LANES-1:0] inc_mask,
    output reg  [CNT_W-1:0] count
);
    localparam POP_W = $clog2(LANES + 1);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (LANES < 1 || CNT_W < POP_W) begin
            $display("ERROR: nvdla_sat_counter %m: LANES >= 1, CNT_W >= clog2(LANES + 1) ",
                     "(the count holds one beat's increment)");
            $finish;
        end
    end

    reg [POP_W-1:0] pop;
    reg [CNT_W:0]   sum;
    integer i;

    always @(*) begin
        pop = {POP_W{1'b0}};
        for (i = 0; i < LANES; i = i + 1) pop = pop + {{(POP_W-1){1'b0}}, inc_mask[i]};
        sum = {1'b0, count} + {{(CNT_W+1-POP_W){1'b0}}, pop};
    end

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) count <= {CNT_W{1'b0}};
        else if (clr) count <= {CNT_W{1'b0}};
        else if (inc_valid) count <= sum[CNT_W] ? {CNT_W{1'b1}} : sum[CNT_W-1:0];
    end
endmodule
