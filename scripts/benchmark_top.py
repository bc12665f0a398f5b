"""The top-level benchmarks of one unit on the RTL top level: the command-line side of the cocotb modules
tb/tests/test_benchmark_{pdp,cdp,sdp,rubik,conv}.py (what each measures: their docstrings). It builds the
top with the simulation memory, runs the unit's cocotb test, the plain C++ loop on the 64x64x64 layers
(scripts/benchmark_cpp.py), prints the table and writes the records for reports/bench.json, with NVIDIA's
nv_small cycle counts beside ours under --latency.

Usage: .venv/bin/python -m scripts.benchmark_top {pdp,cdp,sdp,rubik,conv} [--seed N] [--waves] [--latency N]
       [--random-mem] [--no-cpp] [--only NAME,...] [--json FILE]      (all three: `make bench`)
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
UNITS = ("pdp", "cdp", "sdp", "rubik", "conv")
RATIO_NOTE = 1.3     # the busier-channel ratio above which the SDP summary asks for an explanation

# NVIDIA's nv_small RTL with a 32-cycle memory: cycles from the last D_OP_ENABLE to the interrupt
REFERENCE = ROOT / "scripts" / "nv_small_reference.json"


def arguments() -> argparse.ArgumentParser:
    """The options of a top-level benchmark."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("unit", choices=UNITS)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--waves", action="store_true", default=os.environ.get("WAVES", "0") == "1",
                        help="dump waves/<sim>/top_mem/.../<unit>_benchmark.fst")
    parser.add_argument("--latency", type=int, default=int(os.environ.get("LATENCY") or -1),
                        help="fixed memory latency in cycles, no stalls (default: 0); prints NVIDIA's "
                             "nv_small cycle counts measured with a 32-cycle memory next to ours")
    parser.add_argument("--random-mem", action="store_true",
                        help="random memory latency and stalls on every channel, drawn from the seed")
    parser.add_argument("--no-cpp", action="store_true",
                        help="skip the plain C++ loop on the 64x64x64 layers")
    parser.add_argument("--json", type=Path, default=os.environ.get("BENCH_JSON") or None,
                        help="write the records (as in reports/bench.json) to this file")
    parser.add_argument("--only", default="", help="comma-separated name fragments: run only those layers "
                        "(SDP, conv; keeps the waves of a small layer small)")
    return parser


def memory_note(args: argparse.Namespace) -> str:
    if args.latency >= 0:
        return f"memory latency {args.latency} cycles, no stalls"
    if args.random_mem:
        return "random memory latency and stalls (from the seed)"
    return "memory latency 0, no stalls"


def run_on_top(unit: str, args: argparse.Namespace) -> tuple[str, list[Any], list[dict[str, Any]]]:
    """Build the top with the simulation memory (tb/hdl/nvdla_pp_top_mem.v) in the build of bench `top_mem`
    (tb/registry/top_mem.py: one build for the three units and the memory's own test), run
    tb/tests/test_benchmark_<unit>.py's cocotb test `<unit>_benchmark`, then the C++ loop on the programs it
    wrote;
    returns the parameter tag, the test results and the rows (JSON through the file
    named by BENCH_OUT)."""
    from scripts.benchmark_cpp import run_programs
    from tb.benches import find
    from tb.runner import run_bench

    bench = dataclasses.replace(find("top_mem"), module=f"tb.tests.test_benchmark_{unit}")
    cpp_dir = ROOT / "sim_build" / "cpp" / "programs" / unit
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "rows.json"
        inputs = {"BENCH_LATENCY": str(args.latency) if args.latency >= 0 else "",
                  "BENCH_RANDOM_MEM": "1" if args.random_mem else "0",
                  "BENCH_CPP_DIR": "" if args.no_cpp else str(cpp_dir),
                  "BENCH_ONLY": args.only, "BENCH_OUT": str(out)}
        results = run_bench(bench, bench.param_sets[0], testcase=f"{unit}_benchmark", waves=args.waves,
                            seed=args.seed, inputs=inputs)
        rows = json.loads(out.read_text()) if out.exists() else []
    if not args.no_cpp:
        run_programs(rows)
    return bench.tag(bench.param_sets[0]), results, rows


def reference() -> dict[str, int]:
    """NVIDIA's nv_small cycle counts by trace name; none at another configuration (its traces are others,
    its bus wider: nothing to compare with)."""
    from models import configs

    if configs.load().name != configs.DEFAULT:
        return {}
    return {name: int(cycles) for name, cycles in json.loads(REFERENCE.read_text())["cycles"].items()}


def records(unit: str, rows: list[Any], args: argparse.Namespace) -> list[dict[str, Any]]:
    """One reports/bench.json record per layer. bound_cycles is the busier AXI direction's beats (reads and
    writes have separate channels); shared_bound_cycles all beats on one bus."""
    from models import configs
    from tb.bench_target import BUS_BYTES

    ref = reference() if args.latency >= 0 else {}
    out = []
    for r in rows:
        skipped = getattr(r, "skipped", False)
        rec: dict[str, Any] = {
            "kind": "layer", "name": r.name, "unit": unit, "config": configs.load().name,
            "bus_bytes": BUS_BYTES, "cycles": r.cycles,
            "bound_cycles": max(r.read_bytes, r.write_bytes) // BUS_BYTES,
            "shared_bound_cycles": (r.read_bytes + r.write_bytes) // BUS_BYTES,
            "sim_cycles_per_s": round(r.cycles / r.wall_s) if r.wall_s > 0 else 0,
            "check": "ok" if r.ok and not skipped else (r.message or "failed"),
            "memory": memory_note(args),
        }
        if r.macs:
            # a convolution: MAC utilization, and the bound of its data and weights on the read channel
            util = round(r.macs / (r.mac_slots * r.cycles), 4) if r.cycles else 0.0
            rec.update(macs=r.macs, mac_slots=r.mac_slots, mac_util=util,
                       data_weight_bound_cycles=-(-r.bound_bytes // BUS_BYTES))
        if getattr(r, "elements", 0):
            rec.update(precision=r.precision, elements=r.elements,
                       cycles_per_element=round(r.cycles / r.elements, 5))
        if r.cpp_program:
            rec.update(cpp_cycles=r.cpp_cycles, cpp_cycles_per_s=round(r.cpp_cycles_per_s),
                       cpp_cpu_cycles_per_s=round(r.cpp_cpu_cycles_per_s), cpp_check=r.cpp_check)
        if r.name in ref:
            rec["nvidia_cycles"] = ref[r.name]
        out.append(rec)
    return out


def cpp_lines(rows: list[Any]) -> list[str]:
    """The cocotb run and the plain C++ loop side by side on the layers both ran."""
    lines = []
    for r in rows:
        if r.cpp_program:
            cocotb_rate = r.cycles / r.wall_s if r.wall_s > 0 else 0.0
            ratio = f"{cocotb_rate / r.cpp_cycles_per_s:.2f}x of it" if r.cpp_cycles_per_s else "-"
            lines.append(f"{r.name}: cocotb {cocotb_rate:,.0f} cycles/s ({r.cycles} cycles); plain C++ loop "
                         f"{r.cpp_cycles_per_s:,.0f} cycles/s, {r.cpp_cpu_cycles_per_s:,.0f} per CPU second "
                         f"({r.cpp_cycles} cycles, check {r.cpp_check}): "
                         f"cocotb runs at {ratio}")
    return lines


def reference_lines(rows: list[Any], args: argparse.Namespace) -> list[str]:
    """With --latency: our cycles next to NVIDIA's nv_small RTL (32-cycle memory) for the traces it ran."""
    ref = reference()
    if args.latency < 0 or not ref:
        return []
    lines = [f"against NVIDIA nv_small RTL (32-cycle memory, {REFERENCE.name}); ours with latency "
             f"{args.latency}:"]
    for r in rows:
        if r.name in ref:
            lines.append(f"  {r.name}: ours {r.cycles} cycles, NVIDIA {ref[r.name]} "
                         f"({r.cycles / ref[r.name]:.2f}x)")
    return lines


def element_lines(rows: list[Any]) -> list[str]:
    """Cycles per input element of the synthetic layers, by precision (an atom carries half as many INT16 or
    FP16 elements as INT8 ones, so at the bus bound their cycles per element double)."""
    from tb.bench_target import ATOM_BYTES

    lines = []
    for r in rows:
        if getattr(r, "elements", 0) and r.cycles:
            lanes = ATOM_BYTES if r.precision == "INT8" else ATOM_BYTES // 2
            lines.append(f"{r.name}: {r.cycles / r.elements:.4f} cycles per element ({r.precision}, "
                         f"{r.elements} elements; {lanes} elements an atom: {1 / lanes:.4f} at one atom a "
                         f"cycle)")
    return lines


def finish(unit: str, rows: list[Any], results: list[Any], args: argparse.Namespace) -> int:
    """Print the per-element, C++ and reference comparisons, write the records, return the exit code."""
    for line in element_lines(rows) + cpp_lines(rows) + reference_lines(rows, args):
        print(line)
    if args.json:
        Path(args.json).write_text(json.dumps(records(unit, rows, args), indent=1))
    return exit_code(results)


def exit_code(results: list[Any]) -> int:
    """0 when the benchmark's cocotb test passed (every layer checked), else 1 with the reason printed."""
    if not results or not all(r.passed for r in results):
        print("benchmark run failed: " + "; ".join(r.message for r in results if not r.passed))
        return 1
    return 0


def table(rows: list[Any]) -> str:
    """One line per layer: cycles, bytes each way, the bounds (one shared bus; the busier direction), the
    simulated cycles per second (cocotb, C++ loop) and the check."""
    head = ("layer", "cycles", "read B", "written B", "bound", "busier", "cycles/bound", "cycles/busier",
            "sim cycles/s", "C++ cycles/s", "check")
    body = [_cells(r) for r in rows]
    widths = [max(len(x[i]) for x in (head, *body)) for i in range(len(head))]
    rule = "-+-".join("-" * w for w in widths)
    lines = [" | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) for cells in (head, *body)]
    return "\n".join([lines[0], rule, *lines[1:]])


def _cells(r: Any) -> tuple[str, ...]:
    from tb.bench_target import BUS_BYTES

    if r.skipped:
        return (r.name, *(["-"] * 9), r.message)
    bound = (r.read_bytes + r.write_bytes) / BUS_BYTES
    busier = max(r.read_bytes, r.write_bytes) / BUS_BYTES
    return (r.name, f"{r.cycles}", f"{r.read_bytes}", f"{r.write_bytes}", f"{bound:.0f}", f"{busier:.0f}",
            f"{r.cycles / bound:.3f}" if bound else "-", f"{r.cycles / busier:.3f}" if busier else "-",
            f"{r.cycles / r.wall_s:,.0f}" if r.wall_s > 0 else "-",
            f"{r.cpp_cycles_per_s:,.0f}" if r.cpp_cycles_per_s else "-",
            "ok" if r.ok else f"FAIL: {r.message}")


def summary(unit: str, rows: list[Any]) -> list[str]:
    """The 64^3 (and other synthetic) layers against the busier direction's bound; for SDP also every layer
    above RATIO_NOTE of it, with the cycles beyond the bound (a fixed latency shows as the same excess
    whatever the layer size)."""
    from tb.bench_target import BUS_BYTES

    lines = []
    for r in rows:
        busier = max(r.read_bytes, r.write_bytes) / BUS_BYTES
        if r.skipped or not (r.cycles and busier):
            continue
        ratio = r.cycles / busier
        if unit == "cdp" and r.name.startswith("cube"):
            lines.append(f"{r.name}: {r.cycles} cycles for {busier:.0f} beats each way = "
                         f"{ratio:.3f}x the {BUS_BYTES * 8}-bit bound of the busier direction "
                         f"({r.cycles / ((r.read_bytes + r.write_bytes) / BUS_BYTES):.3f}x one shared bus); "
                         f"target 1.3x")
        elif unit == "sdp" and (r.name.startswith("cube") or ratio > RATIO_NOTE):
            note = f"  <-- above {RATIO_NOTE}x" if ratio > RATIO_NOTE else ""
            lines.append(f"{r.name}: {r.cycles} cycles = {ratio:.3f}x the busier channel's bound "
                         f"({busier:.0f} beats), {r.cycles - busier:.0f} cycles beyond it{note}")
        elif unit == "conv" and r.macs:
            bound = -(-r.bound_bytes // BUS_BYTES)
            util = r.macs / (r.mac_slots * r.cycles)
            lines.append(f"{r.name}: {r.cycles} cycles, MAC utilization {util:.3f} ({r.macs} useful MACs, "
                         f"{r.mac_slots} a cycle); data + weights {r.bound_bytes} bytes "
                         f"= {bound} bus beats, cycles = {r.cycles / bound:.3f}x that bound; target: MAC "
                         f"utilization 0.9 or 1.1x the bound")
        elif unit == "rubik":
            lines.append(f"{r.name}: {r.cycles} cycles = {ratio:.3f}x the busier channel's bound "
                         f"({busier:.0f} beats); target 1.1x")
    return lines


def main() -> int:
    from models import configs
    from tb.bench_target import BUS_BYTES, Row

    args = arguments().parse_args()
    tag, results, raw = run_on_top(args.unit, args)
    rows = [Row(**r) for r in raw]
    print(f"{args.unit.upper()} on the RTL top level ({configs.load().name}: {tag}), {memory_note(args)}, "
          f"bound = (read + written bytes) / {BUS_BYTES}, busier = max(read, written) / {BUS_BYTES}; "
          f"seed {results[0].seed if results else '?'}")
    if rows:
        print(table(rows))
        print("\n".join(summary(args.unit, rows)))
    return finish(args.unit, rows, results, args)


if __name__ == "__main__":
    sys.exit(main())
