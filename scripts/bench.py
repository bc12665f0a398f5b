"""Benchmarks: print figures (cycles per sample, simulated cycles/s, samples/s), never pass/fail.

Runs the convertor and LUT throughput benches on Verilator, then every other scripts/bench_*.py that exists,
and collects the top-level benchmarks' per-layer records (name, unit, config, cycles, bound_cycles,
sim_cycles_per_s, check, cpp_cycles_per_s where the plain C++ loop ran) in reports/bench.json.

Usage: .venv/bin/python scripts/bench.py [--latency N] [--seed N]   (`make bench [LATENCY=N] [SEED=N]`)
--latency gives the memory a fixed latency without stalls and prints NVIDIA's nv_small cycle counts (measured
with a 32-cycle memory) next to ours.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tb.benches import Bench, find  # noqa: E402
from tb.runner import run_bench  # noqa: E402


def convertor_figures() -> None:
    base = find("convertor")
    bench = Bench("convertor_bench", base.toplevel, "tb.bench_precision", base.param_sets)
    for params in base.param_sets[:2]:
        with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as tmp:
            out = Path(tmp.name)
        os.environ["BENCH_OUT"] = str(out)
        results = run_bench(bench, params, testcase="throughput")
        if not results or not results[0].passed:
            print(f"convertor benchmark [{bench.tag(params)}] did not run: {results}")
            continue
        f = json.loads(out.read_text())
        samples = f["beats"] * f["lanes"]
        print(f"convertor [{bench.tag(params)}]: {f['cycles'] / f['beats']:.3f} cycles per beat "
              f"({f['lanes']} lanes, no backpressure, {f['beats']} beats); "
              f"{f['cycles'] / f['wall_s']:,.0f} simulated cycles/s and "
              f"{samples / f['wall_s']:,.0f} samples/s "
              f"(cocotb drives and checks every cycle)")


def lut_figures() -> None:
    """The LUT bench's throughput test at 20000 beats per parameter set: steady-state cycles per beat
    (each beat is one sample per lane) and simulated cycles/s."""
    bench = find("lut")
    os.environ["BENCH_BEATS"] = "20000"
    for params in bench.param_sets:
        with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as tmp:
            out = Path(tmp.name)
        os.environ["BENCH_OUT"] = str(out)
        results = run_bench(bench, params, testcase="throughput")
        if not results or not results[0].passed:
            print(f"lut benchmark [{bench.tag(params)}] did not run: {results}")
            continue
        f = json.loads(out.read_text())
        print(f"lut [{bench.tag(params)}]: {f['steady']:.3f} cycles per sample per lane ({f['lanes']} lanes, "
              f"no backpressure, {f['beats']} beats, latency {f['latency']} cycles); "
              f"{f['cycles'] / f['wall_s']:,.0f} simulated cycles/s and "
              f"{f['beats'] * f['lanes'] / f['wall_s']:,.0f} samples/s "
              f"(cocotb drives and checks every cycle)")
    del os.environ["BENCH_BEATS"]


TOP_BENCHES = ("bench_pdp.py", "bench_cdp.py", "bench_sdp.py")   # they take --latency/--seed/--json


def main() -> int:
    parser = argparse.ArgumentParser(description="benchmarks")
    parser.add_argument("--latency", type=int, default=None, help="fixed memory latency, no stalls")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--top-only", action="store_true", help="only the top-level benchmarks")
    args = parser.parse_args()
    if not args.top_only:
        convertor_figures()
        lut_figures()
    records: list[dict[str, object]] = []
    for script in sorted((ROOT / "scripts").glob("bench_*.py")):
        top = script.name in TOP_BENCHES
        if args.top_only and not top:
            continue
        print(f"== {script.name}", flush=True)
        cmd = [sys.executable, str(script)]
        with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as tmp:
            out = Path(tmp.name)
        if top:
            cmd += ["--json", str(out)]
            cmd += ["--latency", str(args.latency)] if args.latency is not None else []
            cmd += ["--seed", str(args.seed)] if args.seed is not None else []
        subprocess.run(cmd, cwd=ROOT, check=False)
        if top and out.stat().st_size:
            records += json.loads(out.read_text())
        out.unlink()
    report = ROOT / "reports" / "bench.json"
    report.parent.mkdir(exist_ok=True)
    report.write_text(json.dumps(records, indent=1) + "\n")
    print(f"{len(records)} records in {report.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
