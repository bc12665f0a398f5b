"""Module-by-module synthesis (scripts/synth_hier.py) on a small design: the design's figure is each module's
own cells plus its instances' totals, a parameter check stops it, and a broken module fails alone."""

from __future__ import annotations

import json
from pathlib import Path

from scripts import rtl_check, synth_hier

LEAF = """module leaf #(parameter W = 4) (input wire clk, input wire [W-1:0] a, b, output reg [W-1:0] y);
    initial if (W < 2) begin $display("ERROR: leaf W >= 2"); $finish; end
    always @(posedge clk) y <= a + b;
endmodule
"""
TOP = """module top #(parameter W = 4) (input wire clk, input wire [W-1:0] a, b, output wire [W-1:0] y,
                                      output wire [7:0] z, output wire q);
    wire [W-1:0] t;
    leaf #(.W(W)) u0 (.clk(clk), .a(a), .b(b), .y(t));
    leaf #(.W(W)) u1 (.clk(clk), .a(t), .b(b), .y(y));
    leaf #(.W(8)) u2 (.clk(clk), .a({8{a[0]}}), .b(8'd3), .y(z));
    `ifdef BROKEN
    shorted u3 (.a(a[0]), .b(b[0]), .y(q));
    `else
    assign q = a[0];
    `endif
endmodule
"""
# two drivers on one wire: elaborates, and Yosys's `check` at the end of `synth` warns
SHORTED = """module shorted (input wire a, b, output wire y);
    assign y = a;
    assign y = b;
endmodule
"""


def design(tmp: str, params: str = "", define: str = "") -> synth_hier.DesignResult:
    work = Path("build") / "test_synth_hier" / tmp     # repo-relative: yowasp sees only the repository
    (rtl_check.ROOT / work).mkdir(parents=True, exist_ok=True)
    for name, text in (("leaf", LEAF), ("top", TOP), ("shorted", SHORTED)):
        (rtl_check.ROOT / work / f"{name}.v").write_text(text)
    read = f"read_verilog -sv {define} {work}/leaf.v {work}/shorted.v {work}/top.v; {params}"
    return synth_hier.synthesize(rtl_check.yosys_exe(), rtl_check.ROOT, "top", read, work, "-noabc", jobs=2)


def test_totals_count_every_instance() -> None:
    result = design("ok")
    assert result.ok, result.errors
    leaves = {synth_hier.base_name(n): m for n, m in result.modules.items() if n != result.top}
    assert set(leaves) == {"leaf"} and len(result.modules) == 3     # W=4 and W=8: two modules of leaf
    top = result.modules[result.top]
    assert sorted(top.children.values()) == [1, 2]
    own = {n: int(m.stat["num_cells"]) - sum(m.children.values()) for n, m in result.modules.items()}
    expected = own[result.top] + sum(n * own[c] for c, n in top.children.items())
    assert result.total() == expected
    assert all(own[c] > 0 for c in top.children)
    # each Yosys process timed on its own (rtl_check prints the slowest)
    assert all(m.cpu_s > 0 and m.wall_s > 0 for m in result.modules.values())
    slowest = result.slowest(2)
    assert len(slowest) == 2 and slowest[0].cpu_s >= slowest[1].cpu_s
    times = json.loads((rtl_check.ROOT / "build" / "test_synth_hier" / "ok" / "times.json").read_text())
    assert [t["cpu_s"] for t in times] == sorted((t["cpu_s"] for t in times), reverse=True)
    assert {t["module"] for t in times} == {"top", "leaf"} and len(times) == 3


def test_parameter_check_stops_elaboration() -> None:
    result = design("bad_param", "chparam -set W 1 top;")
    assert not result.ok and result.total() is None


def test_a_broken_module_fails_the_design_named() -> None:
    result = design("broken", define="-DBROKEN")
    assert not result.ok and result.total() is None
    failed = [synth_hier.base_name(n) for n, m in result.modules.items() if not m.ok]
    assert failed == ["shorted"], result.errors
    assert any(e.startswith("shorted: ") for e in result.errors)
