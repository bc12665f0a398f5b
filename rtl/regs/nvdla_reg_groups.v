// Ping-pong register group control shared by every NVDLA unit register block (regmap README,
// "Register groups"): S_POINTER.PRODUCER (the group software programs), CONSUMER (the group the datapath
// runs now or next), the OP_EN bit of each group, S_STATUS, and the op_en the datapath sees.
//
// - software arms the PRODUCER group by writing D_OP_ENABLE.OP_EN=1; the write counts only while that
//   group's OP_EN is 0 (it cannot abort a group by writing 0);
// - the datapath's done pulse clears OP_EN of the CONSUMER group and toggles CONSUMER;
// - op_en is the CONSUMER group's OP_EN delayed by OP_EN_DELAY cycles and forced low by done, so an
//   already armed group starts as a fresh layer (op_en falls, then rises) right after the other ends.
// arm/finish mark the cycle in which a group's OP_EN rises/falls: the statistic registers latch on them.
module nvdla_reg_groups #(
    parameter OP_EN_DELAY = 3
) (
    input  wire       clk,
    input  wire       rst_n,
    input  wire       pointer_wr,     // CSB write to S_POINTER
    input  wire       pointer_wdata,  // its PRODUCER bit
    input  wire       op_en_wr,       // CSB write to D_OP_ENABLE (reaches the PRODUCER group)
    input  wire       op_en_wdata,    // its OP_EN bit
    input  wire       dp_done,        // datapath: the CONSUMER group's layer is complete (one cycle)
    output reg        producer,
    output reg        consumer,
    output reg  [1:0] op_en_g,        // OP_EN of group 0 and group 1
    output wire [1:0] arm,            // group's OP_EN rises this cycle
    output wire [1:0] finish,         // group's OP_EN falls this cycle
    output wire [1:0] status_0,       // S_STATUS.STATUS_0: 0 idle, 1 running, 2 pending
    output wire [1:0] status_1,       // S_STATUS.STATUS_1
    output wire       op_en           // to the datapath
);
    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (OP_EN_DELAY < 1) begin
            $display("ERROR: nvdla_reg_groups %m: OP_EN_DELAY >= 1");
            $finish;
        end
    end

    wire [1:0] op_en_next;

    genvar g;
    generate
        for (g = 0; g < 2; g = g + 1) begin : g_grp
            wire is_g1   = (g == 1);  // this group's number as one bit
            wire trigger = op_en_wr && (producer == is_g1) && !op_en_g[g];
            wire done_me = dp_done && (consumer == is_g1);
            assign op_en_next[g] = trigger ? op_en_wdata : (done_me ? 1'b0 : op_en_g[g]);
            assign arm[g]    = !op_en_g[g] && op_en_next[g];
            assign finish[g] = op_en_g[g] && !op_en_next[g];
        end
    endgenerate

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            producer <= 1'b0;
            consumer <= 1'b0;
            op_en_g  <= 2'b00;
        end else begin
            if (pointer_wr) producer <= pointer_wdata;
            if (dp_done) consumer <= !consumer;
            op_en_g <= op_en_next;
        end
    end

    // Running = armed and pointed at by CONSUMER; pending = armed, waiting for the other group.
    assign status_0 = !op_en_g[0] ? 2'd0 : (consumer ? 2'd2 : 2'd1);
    assign status_1 = !op_en_g[1] ? 2'd0 : (consumer ? 2'd1 : 2'd2);

    wire op_en_cur = consumer ? op_en_g[1] : op_en_g[0];
    reg  [OP_EN_DELAY-1:0] op_en_pipe;
    // shift in at bit 0; the top bit is the output (a width-1 pipe still works)
    wire [OP_EN_DELAY:0]   op_en_chain = {op_en_pipe, op_en_cur};
    wire                   unused_chain_top = op_en_chain[OP_EN_DELAY];
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            op_en_pipe <= {OP_EN_DELAY{1'b0}};
        end else if (dp_done) begin
            op_en_pipe <= {OP_EN_DELAY{1'b0}};
        end else begin
            op_en_pipe <= op_en_chain[OP_EN_DELAY-1:0];
        end
    end
    assign op_en = op_en_pipe[OP_EN_DELAY-1];
endmodule
