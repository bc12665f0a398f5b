// Valid/enable control of a DEPTH-stage stall pipeline: stage k loads when it is empty or when the stage
// after it moves, so bubbles collapse and the pipeline runs one beat per cycle under no backpressure.
// in_ready depends combinationally on out_ready: the parent cuts that path with nvdla_skid at its input.
module nvdla_pipe_ctrl #(
    parameter DEPTH = 2
) (
    input  wire             clk,
    input  wire             rst_n,
    input  wire             in_valid,
    output wire             in_ready,
    output wire [DEPTH-1:0] stage_en,   // load enable of stage k (stage 0 takes the input)
    output wire             out_valid,
    input  wire             out_ready
);
    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (DEPTH < 1) begin
            $display("ERROR: nvdla_pipe_ctrl %m: DEPTH >= 1");
            $finish;
        end
    end

    reg  [DEPTH-1:0] valid;
    wire [DEPTH:0]   en_chain;

    assign en_chain[DEPTH] = out_ready;
    genvar k;
    generate
        for (k = DEPTH - 1; k >= 0; k = k - 1) begin : g_en
            assign en_chain[k] = ~valid[k] | en_chain[k+1];
        end
    endgenerate

    assign stage_en  = en_chain[DEPTH-1:0];
    assign in_ready  = en_chain[0];
    assign out_valid = valid[DEPTH-1];

    // what each stage would load: the input for stage 0, the previous stage's flag for the others
    // (its top bit, the last stage's flag, has no stage after it)
    /* verilator lint_off UNUSEDSIGNAL */
    wire [DEPTH:0] upstream = {valid, in_valid};
    /* verilator lint_on UNUSEDSIGNAL */

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            valid <= {DEPTH{1'b0}};
        end else begin
            valid <= (stage_en & upstream[DEPTH-1:0]) | (~stage_en & valid);
        end
    end
endmodule
