// SDP's INT8 -> INT16 output split (INT16 builds only): ATOM lanes processed per atom, ATOM/2 two-byte lanes
// per memory atom (models/sdp/model.py run_sdp with cfg.out_lanes). With `split` each atom {second, first} of
// the core leaves as two beats, first then second, for the memory atoms of surfaces 2s and 2s + 1; the
// second is dropped in the last processing surface when the 16-bit surface count is odd (`odd`: the
// model writes only the output's surfaces). Without `split` the atom leaves as its first beat.
// An atom is taken (in_ready) with its last beat. Combinational valid/ready.
module nvdla_sdp_split16 #(
    parameter B = 64      // bits per beat
) (
    input  wire           clk,
    input  wire           rst_n,
    input  wire           start,      // pulse: a new layer (the unit is idle then)
    input  wire           split,      // INT8 -> INT16 this layer
    input  wire           odd,        // the last processing surface has one memory surface
    input  wire [39:0]    atoms,      // processing atoms of the layer
    input  wire [26:0]    plane,      // atoms per surface (width * height)
    input  wire           in_valid,
    output wire           in_ready,
    input  wire [2*B-1:0] in_data,
    output wire           out_valid,
    input  wire           out_ready,
    output wire [B-1:0]   out_data
);
    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (B < 1) begin
            $display("ERROR: nvdla_sdp_split16 %m: B >= 1");
            $finish;
        end
    end

    reg        second;        // the atom's first beat has left
    reg [39:0] left;          // processing atoms still to take
    wire lone = odd & (left <= {13'd0, plane});
    wire last = ~split | second | lone;

    assign out_valid = in_valid;
    assign in_ready  = out_ready & last;
    assign out_data  = second ? in_data[B +: B] : in_data[B-1:0];

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            second <= 1'b0;
            left   <= 40'd0;
        end else if (start) begin
            second <= 1'b0;
            left   <= atoms;
        end else if (in_valid & out_ready) begin
            second <= ~last;
            if (last) left <= left - 40'd1;
        end
    end
endmodule
