// Round-robin grant of one AXI address channel among N requesters (nvdla_axi_arb's AR and AW): `sel` is the
// first requester after the last one accepted (wrapping; requester 0 first after reset), or that last one
// itself when it is the only one. A grant shown to the slave (valid) and not taken (ready low) is held the
// next cycle, so VALID and its payload never change under the slave (AXI rule). `sel` depends on req and on
// the state only, never on valid or ready, so the user may drive valid from req[sel].
module nvdla_axi_rr #(
    parameter N = 2     // requesters
) (
    input  wire                              clk,
    input  wire                              rst_n,
    input  wire [N-1:0]                      req,     // who asks this cycle
    input  wire                              valid,   // the grant is shown to the slave
    input  wire                              ready,   // ... and taken
    output wire [((N > 1) ? $clog2(N) : 1)-1:0] sel
);
    localparam IDX_W = (N > 1) ? $clog2(N) : 1;
    localparam integer     LAST_INIT  = N - 1;
    localparam [IDX_W-1:0] FIRST_LAST = LAST_INIT[IDX_W-1:0];  // so that requester 0 goes first after reset

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (N < 1) begin
            $display("ERROR: nvdla_axi_rr %m: N >= 1");
            $finish;
        end
    end

    // the first requester after `last` (wrapping), `last` itself when it is the only one
    function [IDX_W-1:0] next_after(input [N-1:0] r, input [IDX_W-1:0] last);
        integer i;
        /* verilator lint_off UNUSEDSIGNAL */  // k < N: only its low IDX_W bits matter
        integer k;
        /* verilator lint_on UNUSEDSIGNAL */
        reg [IDX_W-1:0] pick;
        begin
            pick = last;
            for (i = N; i >= 1; i = i - 1) begin
                k = ({{(32-IDX_W){1'b0}}, last} + i) % N;
                if (r[k]) pick = k[IDX_W-1:0];
            end
            next_after = pick;
        end
    endfunction

    reg  [IDX_W-1:0] last, hold_sel;
    reg              hold;
    assign sel = hold ? hold_sel : next_after(req, last);

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            last     <= FIRST_LAST;
            hold     <= 1'b0;
            hold_sel <= {IDX_W{1'b0}};
        end else begin
            if (valid & ready) last <= sel;
            hold     <= valid & ~ready;
            hold_sel <= sel;
        end
    end

endmodule
