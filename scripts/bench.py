"""Benchmarks: print figures (cycles per sample, simulated cycles/s, samples/s), never pass/fail.

Runs the convertor and LUT throughput benches on Verilator, then every other scripts/bench_*.py that exists.
"""

from __future__ import annotations

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
    bench = Bench("convertor_bench", base.toplevel, base.sources, "tb.bench_precision", base.param_sets)
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


def main() -> int:
    convertor_figures()
    lut_figures()
    for script in sorted((ROOT / "scripts").glob("bench_*.py")):
        print(f"== {script.name}", flush=True)
        subprocess.run([sys.executable, str(script)], cwd=ROOT, check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
