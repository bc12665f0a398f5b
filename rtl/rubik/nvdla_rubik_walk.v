// Rubik job walker: the DMA commands of one side (read or write) of a Rubik layer, job by job, in the order
// both sides share (models/rubik/model.py, docs/rubik.md). A job is one chunk of at most N input columns of one
// line: for surface s, line h, sub-line dy (contract: 0..sy-1, else 0) and first column x0 (steps of N):
//     job base = BASE + s*A + h*B + dy*C + x0*D      (byte addresses, kept as running sums: no multiplier)
// and the job's commands are c = 0..count-1 at job base + c*STEP, each of `beats` atoms:
//     count = CNT_FIXED ? cnt_fixed : planes(s) = min(C - s*epa, epa)      beats per the mode (below).
// A command goes out with its job's column count n = min(N, W - x0), its index c and whether it ends the
// job / the layer, so the buffer side knows where its beats belong.
//   beats: BEATS_MODE 0: n (a column an atom); 1: n * mul (contract write: n columns of sx atoms);
//          2: ceil(n * bpe / 32) (a plane line of n elements).
// `start` loads the layer; `busy` falls when the last command has been accepted.
module nvdla_rubik_walk (
    input  wire        clk,
    input  wire        rst_n,
    input  wire        start,
    // layer geometry (held by the caller while busy)
    input  wire [31:0] base,
    input  wire [31:0] a_step,       // per surface
    input  wire [31:0] b_step,       // per line
    input  wire [31:0] c_step,       // per sub-line dy
    input  wire [31:0] d_step,       // per column (x0 steps by N: N*D is added)
    input  wire [31:0] cmd_step,     // between the commands of a job
    input  wire [9:0]  surfs_m1,     // surfaces - 1
    input  wire [12:0] height_m1,
    input  wire [4:0]  dy_m1,        // sub-lines - 1 (contract: DECONV_Y_STRIDE)
    input  wire [13:0] width,        // columns W
    input  wire [6:0]  chunk,        // N: columns a job
    input  wire [13:0] channels,     // C (planes per surface: min(C - s*epa, epa))
    input  wire        byte_data,    // INT8 (epa 32, bpe 1), else epa 16, bpe 2
    input  wire        cnt_fixed_en, // commands a job: cnt_fixed (else the surface's planes)
    input  wire [5:0]  cnt_fixed,
    input  wire [1:0]  beats_mode,
    input  wire [5:0]  beats_mul,
    // commands
    output wire        cmd_valid,
    input  wire        cmd_ready,
    output wire [31:0] cmd_addr,
    output reg  [12:0] cmd_beats,
    output wire [6:0]  cmd_n,        // the job's columns
    output wire [5:0]  cmd_index,    // c
    output wire [5:0]  cmd_count,    // commands in this job
    output wire [5:0]  cmd_planes,   // planes of the job's surface (min(C - s*epa, epa), at least 1)
    output wire        cmd_job_last, // the job's last command
    output wire        cmd_last,     // the layer's last command
    output wire        busy
);
    reg         active;
    reg  [31:0] s_base, h_base, y_base, x_base, c_addr, x_adv;
    reg  [9:0]  s_cnt;
    reg  [12:0] h_cnt;
    reg  [4:0]  y_cnt;
    reg  [13:0] x0;
    reg  [5:0]  c_cnt;
    reg  [13:0] c_rem;               // C - s*epa

    wire [13:0] left   = width - x0;
    wire [6:0]  n      = (left > {7'd0, chunk}) ? chunk : left[6:0];
    wire [5:0]  epa    = byte_data ? 6'd32 : 6'd16;
    // at least 1: a program whose DATAOUT_CHANNEL counts more surfaces than DATAIN_CHANNEL fills (the driver
    // and the model refuse it, RB6) still runs to its end
    wire [5:0]  planes = (c_rem > {8'd0, epa}) ? epa : (c_rem == 14'd0) ? 6'd1 : c_rem[5:0];
    wire [5:0]  count  = cnt_fixed_en ? cnt_fixed : planes;
    wire        c_end  = (c_cnt == count - 6'd1);
    wire        x_end  = ({7'd0, n} == left);
    wire        y_end  = (y_cnt == dy_m1);
    wire        h_end  = (h_cnt == height_m1);
    wire        s_end  = (s_cnt == surfs_m1);
    wire        fire   = active & cmd_ready;

    // beats of a command (registered inputs only: one multiply of 7 x 6 bits)
    wire [12:0] plane_bytes = byte_data ? {6'd0, n} : {5'd0, n, 1'b0};
    always @(*) begin
        case (beats_mode)
            2'd1:    cmd_beats = n * beats_mul;
            2'd2:    cmd_beats = (plane_bytes + 13'd31) >> 5;
            default: cmd_beats = {6'd0, n};
        endcase
    end

    assign cmd_valid    = active;
    assign cmd_addr     = c_addr;
    assign cmd_n        = n;
    assign cmd_index    = c_cnt;
    assign cmd_count    = count;
    assign cmd_planes   = planes;
    assign cmd_job_last = c_end;
    assign cmd_last     = c_end & x_end & y_end & h_end & s_end;
    assign busy         = active;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            active <= 1'b0;
            s_base <= 32'h0;
            h_base <= 32'h0;
            y_base <= 32'h0;
            x_base <= 32'h0;
            c_addr <= 32'h0;
            x_adv  <= 32'h0;
            s_cnt  <= 10'h0;
            h_cnt  <= 13'h0;
            y_cnt  <= 5'h0;
            x0     <= 14'h0;
            c_cnt  <= 6'h0;
            c_rem  <= 14'h0;
        end else if (!active) begin
            if (start) begin
                active <= 1'b1;
                s_base <= base;
                h_base <= base;
                y_base <= base;
                x_base <= base;
                c_addr <= base;
                x_adv  <= d_step * {25'd0, chunk};
                s_cnt  <= 10'h0;
                h_cnt  <= 13'h0;
                y_cnt  <= 5'h0;
                x0     <= 14'h0;
                c_cnt  <= 6'h0;
                c_rem  <= channels;
            end
        end else if (fire) begin
            if (!c_end) begin
                c_cnt  <= c_cnt + 6'd1;
                c_addr <= c_addr + cmd_step;
            end else begin
                c_cnt <= 6'h0;
                if (!x_end) begin
                    x0     <= x0 + {7'd0, n};
                    x_base <= x_base + x_adv;
                    c_addr <= x_base + x_adv;
                end else begin
                    x0 <= 14'h0;
                    if (!y_end) begin
                        y_cnt  <= y_cnt + 5'd1;
                        y_base <= y_base + c_step;
                        x_base <= y_base + c_step;
                        c_addr <= y_base + c_step;
                    end else begin
                        y_cnt <= 5'h0;
                        if (!h_end) begin
                            h_cnt  <= h_cnt + 13'd1;
                            h_base <= h_base + b_step;
                            y_base <= h_base + b_step;
                            x_base <= h_base + b_step;
                            c_addr <= h_base + b_step;
                        end else begin
                            h_cnt <= 13'h0;
                            if (!s_end) begin
                                s_cnt  <= s_cnt + 10'd1;
                                c_rem  <= c_rem - {8'd0, epa};
                                s_base <= s_base + a_step;
                                h_base <= s_base + a_step;
                                y_base <= s_base + a_step;
                                x_base <= s_base + a_step;
                                c_addr <= s_base + a_step;
                            end else begin
                                active <= 1'b0;
                            end
                        end
                    end
                end
            end
        end
    end
endmodule
