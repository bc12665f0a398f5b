// One CMAC half (NVIDIA's CMAC_A or CMAC_B): NK kernels x AC INT8 multipliers and, per kernel, a pipelined
// adder tree summing the AC products exactly. Weights: a shadow set written one kernel a cycle by CSC
// (wt_we, wt_k, wt_data) and the active set the multipliers use; an operation carrying `swap` copies the
// shadow set into the active one as it is multiplied (with the shadow's products), so CSC loads the next
// weight atom while the current one is used for a whole stripe, as NVIDIA's CMAC holds its weights.
// Pipeline: the multiply stage then one registered stage per adder level (no long combinational chain);
// `en` is the stall pipeline's load enables (nvdla_pipe_ctrl in nvdla_cmac): stage 0 multiplies.
module nvdla_cmac_half #(
    parameter AC = 8,            // atomic C: channels per operation
    parameter NK = 4,            // kernels of this half
    // derived (do not set; declared here because the ports use them)
    parameter LEVELS = $clog2(AC),
    parameter PSW    = 16 + LEVELS,          // |sum of AC products| <= AC * 2^14
    parameter KW     = (NK > 1) ? $clog2(NK) : 1
) (
    input  wire                   clk,
    input  wire                   rst_n,
    input  wire [LEVELS:0]        en,        // stage load enables, stage 0 = products
    input  wire [AC*8-1:0]        in_data,   // AC signed bytes
    input  wire                   in_swap,   // this operation starts a new weight atom (shadow -> active)
    input  wire                   wt_we,     // shadow write of one kernel's AC bytes
    input  wire [KW-1:0]          wt_k,
    input  wire [AC*8-1:0]        wt_data,
    output wire [NK*PSW-1:0]      out_sum    // NK signed partial sums of PSW bits
);
    localparam NODES  = 2 * AC - 1;           // the tree: level l's AC >> l nodes after level l - 1's

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (AC < 2 || (AC & (AC - 1)) != 0 || NK < 1 || LEVELS != $clog2(AC) || PSW != 16 + LEVELS
            || KW != ((NK > 1) ? $clog2(NK) : 1)) begin
            $display("ERROR: nvdla_cmac_half %m: AC a power of two >= 2 (a full adder tree), NK >= 1, LEVELS PSW KW not set");
            $finish;
        end
    end

    (* mem2reg *) reg [AC*8-1:0] shadow [0:NK-1];   // registers, not a RAM: read in parallel
    (* mem2reg *) reg [AC*8-1:0] active [0:NK-1];
    integer k;
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            for (k = 0; k < NK; k = k + 1) begin
                shadow[k] <= {AC*8{1'b0}};
                active[k] <= {AC*8{1'b0}};
            end
        end else begin
            if (wt_we) shadow[wt_k] <= wt_data;
            if (en[0] & in_swap)
                for (k = 0; k < NK; k = k + 1) active[k] <= shadow[k];
        end
    end

    // first node of level l: AC + AC/2 + ... (2*AC - 2*(AC >> l))
    function integer base(input integer l);
        base = 2 * AC - 2 * (AC >> l);
    endfunction

    genvar gk, gl, gi;
    generate
        for (gk = 0; gk < NK; gk = gk + 1) begin : g_k
            (* mem2reg *) reg signed [PSW-1:0] node [0:NODES-1];   // the adder tree's registers
            // the products are formed inside the enabled register (the same multiplier and weight mux in
            // front of the flop), so a simulator computes them only on a cycle that loads them
            for (gi = 0; gi < AC; gi = gi + 1) begin : g_mul
                always @(posedge clk)
                    if (en[0])
                        node[gi] <= $signed(in_data[gi*8 +: 8])
                                    * $signed(in_swap ? shadow[gk][gi*8 +: 8] : active[gk][gi*8 +: 8]);
            end
            for (gl = 1; gl <= LEVELS; gl = gl + 1) begin : g_add
                for (gi = 0; gi < (AC >> gl); gi = gi + 1) begin : g_i
                    always @(posedge clk)
                        if (en[gl]) node[base(gl) + gi] <= node[base(gl-1) + 2*gi] + node[base(gl-1) + 2*gi + 1];
                end
            end
            assign out_sum[gk*PSW +: PSW] = node[NODES-1];
        end
    endgenerate
endmodule
