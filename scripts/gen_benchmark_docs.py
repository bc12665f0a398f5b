"""docs/benchmarks.md from reports/bench.json: the per-configuration table (scripts/config_figures.py) and
every layer's record, with what the figures mean. Nothing in the page is typed by hand: it is regenerated
by `make benchmark` (which calls this at its end) or by this command on an existing report.

Usage: .venv/bin/python -m scripts.gen_benchmark_docs [reports/bench.json] [--out docs/benchmarks.md]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from scripts.config_figures import REPORT, load, table

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "benchmarks.md"

INTRO = """# Benchmarks

Generated from `reports/bench.json` by `python -m scripts.gen_benchmark_docs` (run at the end of
`make benchmark`; `make benchmark-all` fills every configuration). Do not edit: rerun the command.

What is measured (scripts/benchmark.py, scripts/benchmark_top.py,
tb/tests/test_benchmark_{pdp,cdp,sdp,rubik,conv}.py): each unit's NVIDIA traces of the configuration and
64x64x64 cubes laid out at its atom run on the RTL top with the simulation memory
(tb/hdl/nvdla_pp_top_mem.v), timed from the last D_OP_ENABLE to `intr`, every layer checked against
the model (a failed check is a failed benchmark, never a figure). The bound is the busier AXI
direction's beats (max(read, written) bytes / bus bytes); the ratio cycles / bound says how close a layer
runs to one atom a cycle. The C++ loop (tb/cpp/top_mem_main.cpp, scripts/benchmark_cpp.py) replays the
64x64x64 layers without cocotb and checks their whole output span. Cells: Yosys, per unit (scripts/area.py).
Wall-clock rates (cycles/s) depend on the machine and its load; cycle counts do not. The C++ loop also
times each layer in its own CPU time (cycles per CPU second), which other jobs on the machine hardly change.
Convolution layers (tb/tests/test_benchmark_conv.py) are timed from the first hardware layer's enable to
the last one's interrupt; MAC utilization = useful MACs / (atomic C x atomic K x cycles); their data +
weights bound is the input cube and weight image in bus beats (the read channel brings both).
"""


def _conv_rows(records: list[dict[str, Any]]) -> list[str]:
    head = ("configuration", "memory", "layer", "cycles", "useful MACs", "MACs a cycle", "MAC util",
            "data + weights bound", "cycles/bound", "check")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    convs = [r for r in records if r.get("kind") == "layer" and r.get("macs")]
    for r in sorted(convs, key=lambda r: (r.get("config", ""), r.get("memory", ""), r.get("name", ""))):
        bound = r.get("data_weight_bound_cycles") or 0
        cells = (r.get("config", ""), r.get("memory", ""), r.get("name", ""), r.get("cycles", ""), r["macs"],
                 r.get("mac_slots", ""), f"{r.get('mac_util', 0):.3f}", bound or "-",
                 f"{r['cycles'] / bound:.3f}" if bound and r.get("cycles") else "-", r.get("check", ""))
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    return lines


def _layer_rows(records: list[dict[str, Any]]) -> list[str]:
    head = ("configuration", "memory", "unit", "layer", "precision", "cycles", "bound", "cycles/bound",
            "cycles/element", "C++ loop", "check")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    layers = [r for r in records if r.get("kind") == "layer"]
    for r in sorted(layers, key=lambda r: (r.get("config", ""), r.get("memory", ""), r.get("unit", ""),
                                           r.get("name", ""))):
        bound = r.get("bound_cycles") or 0
        cells = (r.get("config", ""), r.get("memory", ""), r.get("unit", ""), r.get("name", ""),
                 r.get("precision", "-"), str(r.get("cycles", "")), str(bound or "-"),
                 f"{r['cycles'] / bound:.3f}" if bound and r.get("cycles") else "-",
                 f"{r['cycles_per_element']:.4f}" if r.get("cycles_per_element") else "-",
                 r.get("cpp_check", "-") if r.get("cpp_cycles") or r.get("cpp_check") else "-",
                 r.get("check", ""))
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    return lines


def page(records: list[dict[str, Any]]) -> str:
    if not records:
        return INTRO + "\nNo records: run `make benchmark` first.\n"
    parts = [INTRO, "## Per configuration\n", table(records), "",
             "## Convolution\n", *_conv_rows(records), "",
             "## Every layer\n", *_layer_rows(records), ""]
    return "\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("report", nargs="?", type=Path, default=REPORT)
    parser.add_argument("--out", type=Path, default=PAGE)
    args = parser.parse_args(argv)
    args.out.write_text(page(load(args.report)))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
