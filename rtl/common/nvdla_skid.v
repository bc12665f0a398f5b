// Two-entry skid buffer: a valid/ready register slice whose in_ready and out_* both come from flops,
// so it cuts every combinational path between its two sides. Full throughput (one beat per cycle).
module nvdla_skid #(
    parameter WIDTH = 8
) (
    input  wire             clk,
    input  wire             rst_n,
    input  wire             in_valid,
    output wire             in_ready,
    input  wire [WIDTH-1:0] in_data,
    output wire             out_valid,
    input  wire             out_ready,
    output wire [WIDTH-1:0] out_data
);
    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (WIDTH < 1) begin
            $display("ERROR: nvdla_skid %m: WIDTH >= 1");
            $finish;
        end
    end

    reg             main_valid;
    reg [WIDTH-1:0] main_data;
    reg             spare_valid;
    reg [WIDTH-1:0] spare_data;

    assign in_ready  = ~spare_valid;
    assign out_valid = main_valid;
    assign out_data  = main_data;

    wire take = in_valid & ~spare_valid;
    wire give = main_valid & out_ready;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            main_valid  <= 1'b0;
            spare_valid <= 1'b0;
        end else begin
            if (give | ~main_valid) begin
                // main is free next cycle: refill it from spare first, then from the input
                main_valid  <= spare_valid | take;
                spare_valid <= 1'b0;
            end else if (take) begin
                // main is stalled: park the new beat in spare (in_ready drops next cycle)
                spare_valid <= 1'b1;
            end
        end
    end

    // Data registers need no reset: they are only read when their valid flag is set.
    always @(posedge clk) begin
        if (give | ~main_valid) begin
            main_data <= spare_valid ? spare_data : in_data;
        end
        if (take & ~(give | ~main_valid)) begin
            spare_data <= in_data;
        end
    end
endmodule
