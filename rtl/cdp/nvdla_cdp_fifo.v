// Small synchronous FIFO (flops, DEPTH a power of two): carries the converted atoms alongside the LUT so
// that the multiply gets each atom's x with its LUT result. Full throughput: a push and a pop in the same
// cycle both happen. in_ready / out_valid / out_data come from flops.
module nvdla_cdp_fifo #(
    parameter WIDTH = 72,
    parameter DEPTH = 8
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
    localparam [A_W:0] FULL = DEPTH;

    reg [A_W-1:0]       wp, rp;
    reg [A_W:0]         count;
    reg [DEPTH*WIDTH-1:0] mem;

    wire push = in_valid & in_ready;
    wire pop  = out_valid & out_ready;

    assign in_ready  = (count != FULL);
    assign out_valid = (count != {(A_W+1){1'b0}});
    assign out_data  = mem[rp*WIDTH +: WIDTH];

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
        if (push) mem[wp*WIDTH +: WIDTH] <= in_data;
    end
endmodule
