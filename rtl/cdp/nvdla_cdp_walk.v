// Position walker of the CDP stream order (docs/CONTRACTS.md "CDP core"): for each line h, for each width
// chunk k (columns [k*CHUNK, min((k+1)*CHUNK, W))), for each surface s, the chunk's pixels p left to right.
// `step` advances by one atom; after the last atom of the cube the walker is back at the first one, so a
// new layer needs no re-initialisation (`init` forces it anyway, e.g. at start). Outputs come from flops
// through a little logic on the configuration only.
module nvdla_cdp_walk #(
    parameter CHUNK  = 8,
    parameter DIM_W  = 13,                              // D_DATA_CUBE_WIDTH/HEIGHT field width
    parameter SURF_W = 10,                              // surface index width
    parameter P_W    = (CHUNK > 1) ? $clog2(CHUNK) : 1  // pixel-in-chunk index width
) (
    input  wire              clk,
    input  wire              rst_n,
    input  wire              init,
    input  wire              step,
    input  wire [DIM_W-1:0]  cfg_width,    // W - 1
    input  wire [DIM_W-1:0]  cfg_height,   // H - 1
    input  wire [SURF_W-1:0] cfg_surf,     // surfaces - 1
    output wire [P_W-1:0]    cw_m1,        // width of the current chunk - 1
    output wire              s_first,      // current atom is in surface 0
    output wire              s_last,       // current atom is in the last surface
    output wire              last          // current atom is the last of the cube
);

    // elaboration-time parameter checks (Yosys stops on them; simulators at time 0)
    initial begin
        if (CHUNK < 1 || CHUNK >= (1 << DIM_W) || CHUNK > (1 << P_W) || SURF_W < 1) begin
            $display("ERROR: nvdla_cdp_walk %m: 1 <= CHUNK < 2**DIM_W, CHUNK <= 2**P_W, SURF_W >= 1");
            $finish;
        end
    end
    localparam [DIM_W-1:0] CHUNK_M1 = CHUNK - 1;
    localparam [DIM_W-1:0] CHUNK_D  = CHUNK;

    reg [P_W-1:0]    pix;
    reg [SURF_W-1:0] surf;
    reg [DIM_W-1:0]  x0;     // first column of the chunk
    reg [DIM_W-1:0]  line;

    wire [DIM_W-1:0] remain  = cfg_width - x0;            // columns after x0 (never negative)
    wire             k_last  = (remain <= CHUNK_M1);
    wire             p_last  = (pix == cw_m1);
    wire             h_last  = (line == cfg_height);

    assign cw_m1   = k_last ? remain[P_W-1:0] : CHUNK_M1[P_W-1:0];
    assign s_first = (surf == {SURF_W{1'b0}});
    assign s_last  = (surf == cfg_surf);
    assign last    = p_last & s_last & k_last & h_last;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            pix  <= {P_W{1'b0}};
            surf <= {SURF_W{1'b0}};
            x0   <= {DIM_W{1'b0}};
            line <= {DIM_W{1'b0}};
        end else if (init) begin
            pix  <= {P_W{1'b0}};
            surf <= {SURF_W{1'b0}};
            x0   <= {DIM_W{1'b0}};
            line <= {DIM_W{1'b0}};
        end else if (step) begin
            if (!p_last) begin
                pix <= pix + 1'b1;
            end else begin
                pix <= {P_W{1'b0}};
                if (!s_last) begin
                    surf <= surf + 1'b1;
                end else begin
                    surf <= {SURF_W{1'b0}};
                    if (!k_last) begin
                        x0 <= x0 + CHUNK_D;
                    end else begin
                        x0   <= {DIM_W{1'b0}};
                        line <= h_last ? {DIM_W{1'b0}} : line + 1'b1;
                    end
                end
            end
        end
    end
endmodule
