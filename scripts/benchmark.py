"""Benchmarks: print figures (cycles per sample, simulated cycles/s, samples/s), never pass/fail on timing.

Runs the convertor and LUT throughput benches on Verilator, the top-level benchmarks of each unit
(scripts/benchmark_top.py) and the model's speed (scripts/benchmark_model.py), and collects the top-level
benchmarks' per-layer records (name, unit, config, cycles, bound_cycles, sim_cycles_per_s, check,
cpp_cycles_per_s where the plain C++ loop ran) in reports/bench.json.

At the run's configuration ($CONFIG, default nv_small), the top-level benchmarks scale to it (its bus is the
bound, its atom the cubes' layout, its traces) and scripts/area.py adds the Yosys cells per unit (records of
kind "area"). reports/bench.json keeps every configuration's records (a run replaces its own configuration's),
and the run ends with scripts/config_figures.py's table of them. A failed correctness check (or synthesis)
sets the exit code; timing never does.

Usage: .venv/bin/python -m scripts.benchmark [--latency N] [--seed N] [--top-only] [--all-configs] [--no-area]
(`make bench [LATENCY=N] [SEED=N]`, `make bench-all`: --all-configs)
--latency gives the memory a fixed latency without stalls and prints NVIDIA's nv_small cycle counts (measured
with a 32-cycle memory) next to ours, at nv_small.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from models import configs
from scripts import gen_benchmark_docs
from scripts.area import LEVELS as AREA_LEVELS
from scripts.area import area_records
from scripts.config_figures import load, merge, table
from tb.benches import Bench, find
from tb.runner import run_bench

ROOT = Path(__file__).resolve().parent.parent


def convertor_figures() -> None:
    base = find("convertor")
    bench = Bench("convertor_bench", base.toplevel, "tb.bench_precision", base.param_sets)
    for params in base.param_sets[:2]:
        with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as tmp:
            out = Path(tmp.name)
        results = run_bench(bench, params, testcase="throughput", inputs={"BENCH_OUT": str(out)})
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
    for params in bench.param_sets:
        with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as tmp:
            out = Path(tmp.name)
        results = run_bench(bench, params, testcase="throughput",
                            inputs={"BENCH_OUT": str(out), "BENCH_BEATS": "20000"})
        if not results or not results[0].passed:
            print(f"lut benchmark [{bench.tag(params)}] did not run: {results}")
            continue
        f = json.loads(out.read_text())
        print(f"lut [{bench.tag(params)}]: {f['steady']:.3f} cycles per sample per lane ({f['lanes']} lanes, "
              f"no backpressure, {f['beats']} beats, latency {f['latency']} cycles); "
              f"{f['cycles'] / f['wall_s']:,.0f} simulated cycles/s and "
              f"{f['beats'] * f['lanes'] / f['wall_s']:,.0f} samples/s "
              f"(cocotb drives and checks every cycle)")


TOP_UNITS = ("pdp", "cdp", "sdp", "conv")   # scripts/benchmark_top.py <unit>: --latency/--seed/--json
RUBIK_UNIT = "rubik"   # a top-level benchmark too, at configurations with Rubik (nv_full)


def run_script(module: list[str], args: argparse.Namespace,
               top: bool) -> tuple[list[dict[str, object]], bool]:
    """One benchmark command (`python -m <module...>`) in a subprocess at the environment's $CONFIG: (its
    records, exit code 0). Only the top-level benchmarks write records; their exit code says whether every
    layer's check passed."""
    print(f"== {' '.join(module)} ({configs.load().name})", flush=True)
    cmd = [sys.executable, "-m", *module]
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as tmp:
        out = Path(tmp.name)
    if top:
        cmd += ["--json", str(out)]
        cmd += ["--latency", str(args.latency)] if args.latency is not None else []
        cmd += ["--seed", str(args.seed)] if args.seed is not None else []
    done = subprocess.run(cmd, cwd=ROOT, check=False)
    records = json.loads(out.read_text()) if top and out.stat().st_size else []
    out.unlink()
    return records, done.returncode == 0


def configuration_figures(args: argparse.Namespace) -> tuple[list[dict[str, object]], bool]:
    """The top-level benchmarks and the area at the run's configuration ($CONFIG)."""
    records: list[dict[str, object]] = []
    ok = True
    for unit in TOP_UNITS + ((RUBIK_UNIT,) if configs.load().rubik else ()):
        got, passed = run_script(["scripts.benchmark_top", unit], args, top=True)
        records += got
        ok = ok and passed
    if not args.no_area:
        try:
            records += area_records(configs.load(), args.area_level)
        except RuntimeError as err:
            print(err)
            ok = False
    return records, ok


def main() -> int:
    parser = argparse.ArgumentParser(description="benchmarks")
    parser.add_argument("--latency", type=int, default=None, help="fixed memory latency, no stalls")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--top-only", action="store_true", help="only the top-level benchmarks and the area")
    parser.add_argument("--all-configs", action="store_true",
                        help="the top-level benchmarks and the area at every configuration (configs/*.json); "
                             "the configuration-independent figures once, at $CONFIG")
    parser.add_argument("--no-area", action="store_true", help="skip the synthesis for the area figures")
    parser.add_argument("--area-level", choices=sorted(AREA_LEVELS), default="coarse",
                        help="Yosys level of the area figures (scripts/area.py)")
    args = parser.parse_args()
    if not args.top_only:
        convertor_figures()
        lut_figures()
    ok = True
    records: list[dict[str, object]] = []
    run_config = os.environ.get("CONFIG")
    for name in configs.names() if args.all_configs else [configs.load().name]:
        os.environ["CONFIG"] = name   # the benchmarks' subprocesses and configs.load() follow it
        got, passed = configuration_figures(args)
        records += got
        ok = ok and passed
    # the configuration-independent figures below run at the run's own configuration again
    if run_config is None:
        os.environ.pop("CONFIG", None)
    else:
        os.environ["CONFIG"] = run_config
    if not args.top_only:
        run_script(["scripts.benchmark_model"], args, top=False)
    report = ROOT / "reports" / "bench.json"
    report.parent.mkdir(exist_ok=True)
    # the other configurations' records stay: `make bench CONFIG=<each>` builds the whole table
    merged = merge(load(report), records)
    report.write_text(json.dumps(merged, indent=1) + "\n")
    print(f"{len(records)} records ({len(merged)} in all) in {report.relative_to(ROOT)}")
    print(table(merged))
    gen_benchmark_docs.main([str(report)])   # docs/benchmarks.md from the report
    if not ok:
        print("a benchmark's correctness check failed (or its area synthesis): see above")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
