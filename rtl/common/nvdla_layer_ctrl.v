// Layer control shared by the PDP, CDP and SDP units: when a layer starts, while it runs, and the `done` pulse.
//
// - start: OP_EN is the register block's OP_EN of the consumer group. A layer starts on its rising edge, or
//   while it stays high after the previous layer's done (the next group was enabled while this one ran).
//   `start` is a one-cycle pulse that the unit sends to its core and DMA sequencers.
// - running: high from the cycle after start until the finish cycle. `finish` counts only while running: a
//   condition that is true between layers (an idle write DMA, ...) must not end a layer that has not started.
// - finished[i]: sticky "this part has finished" flags, one per event the unit waits for (core done, write
//   commands issued, ...). The parts signal completion with a one-cycle pulse that can come long before the
//   rest of the layer ends, so the flag remembers it. Cleared at start (an event in the start cycle belongs
//   to the previous layer and is dropped), so a layer never sees the previous layer's completion.
// - finish: the unit's own condition (it differs per unit, so it stays in the unit), built from `finished`
//   and whatever else the unit waits for (write DMA idle, read DMA empty, ...).
// - done: pulses one cycle after finish (registered: it drives the interrupt and the register block).
// - done_q: holds off a restart in the cycle after done, while the register block clears OP_EN of the
//   finished group (`op_en` can still be high then); without it the stale OP_EN would rerun the same layer.
module nvdla_layer_ctrl #(
    parameter N_FLAGS = 1                 // number of sticky "finished" flags
) (
    input  wire               clk,
    input  wire               rst_n,
    input  wire               op_en,
    input  wire [N_FLAGS-1:0] set,        // event pulses: set[i] sets finished[i] (ignored in the start cycle)
    input  wire               finish,     // the unit's finish condition (only acted on while running)
    output wire               start,
    output reg                running,
    output reg  [N_FLAGS-1:0] finished,
    output reg                done
);
    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (N_FLAGS < 1) begin
            $display("ERROR: nvdla_layer_ctrl %m: N_FLAGS >= 1");
            $finish;
        end
    end

    reg done_q;
    assign start = op_en & ~running & ~done & ~done_q;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            running  <= 1'b0;
            finished <= {N_FLAGS{1'b0}};
            done     <= 1'b0;
            done_q   <= 1'b0;
        end else begin
            done   <= finish & running;
            done_q <= done;
            if (start) begin
                running  <= 1'b1;
                finished <= {N_FLAGS{1'b0}};
            end else begin
                finished <= finished | set;
                if (finish) running <= 1'b0;
            end
        end
    end
endmodule
