// Gearbox, narrow to wide: R sub-beats (W bits each) in, one beat of them out (the first in the low W bits),
// the inverse of nvdla_gear_split. Valid/ready with full backpressure on both sides; one sub-beat a cycle
// sustained (the last sub-beat of a beat may come in while the previous beat leaves). out_valid, out_data and
// slot are flops; in_ready depends combinationally on out_ready.
module nvdla_gear_join #(
    parameter W = 8,     // sub-beat width
    parameter R = 2,     // sub-beats per beat
    parameter IW = (R > 1) ? $clog2(R) : 1   // slot width (derived; do not set)
) (
    input  wire           clk,
    input  wire           rst_n,
    input  wire           in_valid,
    output wire           in_ready,
    input  wire [W-1:0]   in_data,
    output wire           out_valid,
    input  wire           out_ready,
    output wire [R*W-1:0] out_data,
    output wire [IW-1:0]  slot        // the sub-beat index the next sub-beat in takes (0 first)
);
    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (W < 1 || R < 1 || IW != ((R > 1) ? $clog2(R) : 1)) begin
            $display("ERROR: nvdla_gear_join %m: W, R >= 1; IW not set");
            $finish;
        end
    end

    reg [R*W-1:0] hold;      // sub-beats shifted in from the top: after R of them the first is at the bottom
    reg           full;
    reg [IW-1:0]  cnt;
    localparam integer LAST_I = R - 1;
    localparam [IW-1:0] LAST = LAST_I[IW-1:0];
    wire          last = (cnt == LAST);

    assign out_valid = full;
    assign out_data  = hold;
    assign slot      = cnt;
    assign in_ready  = ~full | out_ready;
    wire in_fire  = in_valid & in_ready;
    wire out_fire = full & out_ready;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            full <= 1'b0;
            cnt  <= {IW{1'b0}};
        end else begin
            if (in_fire & last) full <= 1'b1;
            else if (out_fire) full <= 1'b0;
            if (in_fire) cnt <= last ? {IW{1'b0}} : cnt + 1'b1;
        end
    end
    generate
        if (R > 1) begin : g_shift
            always @(posedge clk) begin
                if (in_fire) hold <= {in_data, hold[R*W-1:W]};
            end
        end else begin : g_one
            always @(posedge clk) begin
                if (in_fire) hold <= in_data;
            end
        end
    endgenerate
endmodule
