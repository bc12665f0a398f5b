// SDP's 16to8 input pairing (INT16 builds only): SDP_RDMA IN_PRECISION INT16 with PROC_PRECISION INT8
// reads ATOM/2 two-byte lanes per memory atom and processes ATOM lanes per atom (models/sdp/model.py read_inputs).
// The read side (nvdla_sdp_pair_walk) delivers the memory atoms of surfaces 2s and 2s + 1 one after the
// other; this joins them into one atom of ATOM 16-bit lanes {second, first}. The second is not there in
// the last processing surface when the 16-bit surface count is odd (`odd`): its lanes read 0, as the
// model pads them. Without `pair` every beat passes alone as the low half (the high half 0).
// Combinational valid/ready (the core's input skid cuts the paths).
module nvdla_sdp_join16 #(
    parameter B = 64      // bits per beat
) (
    input  wire           clk,
    input  wire           rst_n,
    input  wire           start,      // pulse: a new layer (the unit is idle then)
    input  wire           pair,       // 16to8 mode this layer
    input  wire           odd,        // the last processing surface has one memory surface
    input  wire [39:0]    atoms,      // processing atoms of the layer
    input  wire [26:0]    plane,      // atoms per surface (width * height)
    input  wire           in_valid,
    output wire           in_ready,
    input  wire [B-1:0]   in_data,
    output wire           out_valid,
    input  wire           out_ready,
    output wire [2*B-1:0] out_data
);
    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (B < 1) begin
            $display("ERROR: nvdla_sdp_join16 %m: B >= 1");
            $finish;
        end
    end

    reg         hold;          // the first memory atom of a pair is held in `first`
    reg [B-1:0] first;
    reg [39:0]  left;          // processing atoms still to leave
    wire lone = odd & (left <= {13'd0, plane});
    wire take_first = pair & ~hold & ~lone;

    assign out_valid = in_valid & ~take_first;
    assign in_ready  = take_first | out_ready;
    assign out_data  = ~pair ? {{B{1'b0}}, in_data} : hold ? {in_data, first} : {{B{1'b0}}, in_data};

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            hold <= 1'b0;
            left <= 40'd0;
        end else if (start) begin
            hold <= 1'b0;
            left <= atoms;
        end else begin
            if (in_valid & take_first) hold <= 1'b1;
            if (out_valid & out_ready) begin
                hold <= 1'b0;
                left <= left - 40'd1;
            end
        end
    end

    // data register needs no reset: read only while hold is set
    always @(posedge clk) if (in_valid & take_first) first <= in_data;
endmodule
