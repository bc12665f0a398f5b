// Gearbox, wide to narrow: one beat of R sub-beats (R*W bits, sub-beat 0 in the low W bits) in, its R
// sub-beats out one at a time, lowest first. Valid/ready with full backpressure on both sides; one sub-beat a
// cycle sustained (a new beat is taken in the cycle its predecessor's last sub-beat leaves). out_data,
// out_valid, out_idx and out_last are flops; in_ready depends combinationally on out_ready (the parent puts a
// skid buffer in front where that path must be cut). Used where a datapath narrower than the memory atom
// (its lanes from the configuration's throughput) meets the atom-wide DMA side (nvdla_gear_join undoes it).
module nvdla_gear_split #(
    parameter W = 8,     // sub-beat width
    parameter R = 2,     // sub-beats per beat
    parameter IW = (R > 1) ? $clog2(R) : 1   // out_idx width (derived; do not set)
) (
    input  wire           clk,
    input  wire           rst_n,
    input  wire           in_valid,
    output wire           in_ready,
    input  wire [R*W-1:0] in_data,
    output wire           out_valid,
    input  wire           out_ready,
    output wire [W-1:0]   out_data,
    output wire [IW-1:0]  out_idx,    // which sub-beat of its beat out_data is (0 first)
    output wire           out_last    // out_data is its beat's last sub-beat
);
    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (W < 1 || R < 1 || IW != ((R > 1) ? $clog2(R) : 1)) begin
            $display("ERROR: nvdla_gear_split %m: W, R >= 1; IW not set");
            $finish;
        end
    end

    reg [R*W-1:0] hold;      // the beat, shifted down a sub-beat at every one that leaves
    reg           full;
    reg [IW-1:0]  cnt;
    localparam integer LAST_I = R - 1;
    localparam [IW-1:0] LAST = LAST_I[IW-1:0];
    wire          last = (cnt == LAST);
    wire          out_fire = full & out_ready;

    assign out_valid = full;
    assign out_data  = hold[W-1:0];
    assign out_idx   = cnt;
    assign out_last  = last;
    assign in_ready  = ~full | (out_ready & last);
    wire in_fire = in_valid & in_ready;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            full <= 1'b0;
            cnt  <= {IW{1'b0}};
        end else if (in_fire) begin
            full <= 1'b1;
            cnt  <= {IW{1'b0}};
        end else if (out_fire) begin
            full <= ~last;
            cnt  <= last ? {IW{1'b0}} : cnt + 1'b1;
        end
    end
    generate
        if (R > 1) begin : g_shift
            always @(posedge clk) begin
                if (in_fire) hold <= in_data;
                else if (out_fire) hold <= {{W{1'b0}}, hold[R*W-1:W]};
            end
        end else begin : g_one
            always @(posedge clk) begin
                if (in_fire) hold <= in_data;
            end
        end
    endgenerate
endmodule
