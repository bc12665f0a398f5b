// Synchronous FIFO (DEPTH a power of two): a push and a pop in the same cycle both happen, so it moves one
// beat per cycle. in_ready and out_valid come from flops; out_data is a read mux. Used by the SDP RDMA (one
// per stream, and the order of its bursts) and by the CDP core (atoms travelling beside the LUT).
module nvdla_fifo #(
    parameter WIDTH = 64,
    parameter DEPTH = 32
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
    localparam A_W = (DEPTH > 1) ? $clog2(DEPTH) : 1;
    localparam [A_W:0] FULL = DEPTH[A_W:0];

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (WIDTH < 1 || DEPTH < 2 || (1 << A_W) != DEPTH) begin
            $display("ERROR: nvdla_fifo %m: WIDTH >= 1, DEPTH a power of two >= 2 (the pointers wrap at DEPTH)");
            $finish;
        end
    end

    reg [A_W-1:0]   wp, rp;
    reg [A_W:0]     count;
    reg [WIDTH-1:0] mem [0:DEPTH-1];

    wire push = in_valid & in_ready;
    wire pop  = out_valid & out_ready;

    assign in_ready  = count != FULL;
    assign out_valid = count != {(A_W+1){1'b0}};
    assign out_data  = mem[rp];

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            wp    <= {A_W{1'b0}};
            rp    <= {A_W{1'b0}};
            count <= {(A_W+1){1'b0}};
        end else begin
            if (push) wp <= wp + 1'b1;
            if (pop)  rp <= rp + 1'b1;
            if (push != pop) count <= push ? count + 1'b1 : count - 1'b1;
        end
    end

    // Entries need no reset: one is read only after it was written.
    always @(posedge clk) begin
        if (push) mem[wp] <= in_data;
    end
endmodule
