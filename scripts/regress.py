"""The cocotb regression: every registered bench and parameter set, then a summary table.

`make` runs it on Verilator; `make SIM=icarus` on Icarus (benches Icarus accepts); `make nightly` with
NIGHTLY=1 (long random runs) and JUnit XML. Each row says how much its test checked (tb/outcome.py) and a
test that found nothing to check is a SKIP row with its reason. Exit status is non-zero when any test fails,
and when nothing passed at all (every test skipped, or none ran).
`--test`/`--params` narrow it to one failing test (`make BENCH=top_pdp TESTCASE=random_layers WAVES=1`),
`--shard K/N` runs the K-th of N parts (the nightly's parallel CI jobs).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import sys
import time
import xml.etree.ElementTree as ET
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from scripts.merge_junit import checked_report, unit_of
from tb.benches import BENCHES, Bench, find
from tb.runner import TestResult, run_bench, wave_path
from tb.selection import Run, parse_shard, plan, read_costs

ROOT = Path(__file__).resolve().parent.parent


def selected(sim: str, names: list[str], nightly: bool, all_configs: bool = False) -> list[Bench]:
    """The benches to run: those named, else every bench of the run's configuration; the other
    configurations' benches (Bench.config: their own Verilator build each) only under `all_configs` or
    `nightly` (`make test` runs them too, through pytest), their nightly-only ones only under `nightly`."""
    benches = [b for b in BENCHES if (not names or b.name in names)]
    benches = [b for b in benches if nightly or not b.nightly_only]
    if not (names or nightly or all_configs):
        benches = [b for b in benches if not b.config]
    if sim == "icarus":
        benches = [b for b in benches if b.icarus]
    return benches


def print_table(results: list[TestResult]) -> None:
    rows = [("bench", "params", "test", "result", "checked", "seed", "sim time (us)", "wall (s)")]
    for r in results:
        rows.append((r.bench, r.params, r.test, r.status.upper(), r.checked or "-", r.seed,
                     f"{r.sim_time_ns / 1000:.1f}", f"{r.wall_s:.1f}"))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    line = "+" + "+".join("-" * (w + 2) for w in widths) + "+"
    print("\n" + line)
    for i, row in enumerate(rows):
        print("| " + " | ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)) + " |")
        if i == 0:
            print(line)
    print(line)


def print_waves(results: list[TestResult], sim: str) -> None:
    """Where each test's dump went, and how to open a top-level one with the committed GTKWave view."""
    for r in results:
        dumps = sorted(wave_path(sim, r.bench, r.params, r.test).parent.glob(f"{r.test}.*"))
        where = ", ".join(str(d.relative_to(ROOT)) for d in dumps) or "no dump written"
        print(f"waves {r.bench}[{r.params}].{r.test}: {where}")
        if dumps and find(r.bench).toplevel == "nvdla_pp_top":
            print(f"  open: gtkwave {dumps[0].relative_to(ROOT)} docs/waves/nvdla_pp_top.gtkw")


def print_checked(results: list[TestResult]) -> None:
    """Under --nightly: what each unit's tests checked in this run (scripts/merge_junit.py totals the shards;
    the goal is 1e7 samples per unit per night, README "Nightly")."""
    totals: dict[tuple[str, str], int] = {}
    for r in results:
        count, _, noun = r.checked.partition(" ")
        if count.isdigit():
            key = (unit_of(r.bench), noun)
            totals[key] = totals.get(key, 0) + int(count)
    print(checked_report(totals))


def write_junit(results: list[TestResult], path: Path) -> None:
    suite = ET.Element("testsuite", name="cocotb", tests=str(len(results)),
                       failures=str(sum(r.failed for r in results)),
                       skipped=str(sum(r.skipped for r in results)))
    for r in results:
        case = ET.SubElement(suite, "testcase", classname=f"{r.bench}.{r.params}", name=r.test,
                             time=f"{r.wall_s:.3f}")
        ET.SubElement(case, "property", name="seed", value=r.seed)
        if r.checked:
            ET.SubElement(case, "property", name="checked", value=r.checked)
        if r.failed:
            ET.SubElement(case, "failure", message=r.message[:2000])
        elif r.skipped:
            ET.SubElement(case, "skipped", message=r.message[:2000])
    path.parent.mkdir(parents=True, exist_ok=True)
    ET.ElementTree(ET.Element("testsuites")).getroot().append(suite)
    ET.ElementTree(suite).write(path, encoding="utf-8", xml_declaration=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sim", default="verilator", choices=["verilator", "icarus"])
    ap.add_argument("--waves", action="store_true", help="dump an FST per test under waves/")
    ap.add_argument("--seed", type=int, default=None, help="reproduce a run (the table prints each seed)")
    ap.add_argument("--nightly", action="store_true", help="long randomized runs")
    ap.add_argument("--junit", type=Path, default=None, help="write JUnit XML here")
    ap.add_argument("--coverage", action="store_true",
                    help="Verilator line/toggle coverage (own -cov builds), see scripts/coverage.py")
    ap.add_argument("--test", action="append", default=None, metavar="NAME",
                    help="only this cocotb test (repeatable)")
    ap.add_argument("--params", default=None, metavar="TAG", help="only the parameter set with this tag")
    ap.add_argument("--shard", type=parse_shard, default=None, metavar="K/N",
                    help="only the K-th of N parts of the bench x params x test list (balanced by cost)")
    ap.add_argument("--costs", type=Path, default=None, metavar="JUNIT",
                    help="balance the shards by the test times of this earlier report (if it exists)")
    ap.add_argument("--all-configs", action="store_true",
                    help="also the other configurations' benches (make ALL_CONFIGS=1; always in the nightly)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                    help="simulations (and their builds) at a time (default: the number of CPUs)")
    ap.add_argument("benches", nargs="*", help="only these benches (default: all of the run's configuration)")
    args = ap.parse_args()
    if args.coverage and args.sim != "verilator":
        ap.error("--coverage needs --sim verilator")
    unknown = [n for n in args.benches if n not in {b.name for b in BENCHES}]
    if unknown:
        ap.error(f"no bench {unknown}; known: {', '.join(b.name for b in BENCHES)}")
    try:
        costs = read_costs(args.costs) if args.costs and args.costs.exists() else None
        runs = plan(selected(args.sim, args.benches, args.nightly, args.all_configs), tests=args.test,
                    params=args.params, shard=args.shard, costs=costs)
    except ValueError as err:
        ap.error(str(err))

    start = time.time()
    options = {"sim": args.sim, "waves": args.waves, "seed": args.seed, "nightly": args.nightly,
               "coverage": args.coverage}
    results = [r for rs in run_all(runs, options, max(1, args.jobs)) for r in rs]
    if args.junit:
        write_junit(results, args.junit)
    if args.shard and not runs:  # more shards than tests: an empty shard is no failure
        print(f"shard {args.shard[0]}/{args.shard[1]}: nothing to run")
        return 0
    status = summary(results, f"regression on {args.sim}: {time.time() - start:.0f} s wall")
    if args.waves:
        print_waves(results, args.sim)
    if args.nightly:
        print_checked(results)
    return status


def _run(run: Run, options: dict[str, Any]) -> list[TestResult]:
    return run_bench(run.bench, run.params, testcase=run.tests, **options)


def run_all(runs: list[Run], options: dict[str, Any], jobs: int) -> list[list[TestResult]]:
    """Each run's results, in the order of `runs`; `jobs` simulations at a time, each in its own process
    (a run sets its configuration in the environment). Runs on the same design wait for one build
    (tb/runner.py locks it), so the first run of each design goes first: the builds go in parallel."""
    def line(run: Run, got: list[TestResult]) -> str:
        counts = f"{sum(r.passed for r in got)} passed, {sum(r.failed for r in got)} failed"
        return (f"== {run.bench.name} [{run.bench.tag(run.params)}] {' '.join(run.tests or ['all tests'])} "
                f"on {options['sim']}: {counts}")

    if jobs == 1 or len(runs) == 1:
        out = []
        for run in runs:
            out.append(_run(run, options))
            print(line(run, out[-1]), flush=True)
        return out
    first: dict[str, int] = {}
    for i, run in enumerate(runs):
        first.setdefault(run.bench.design(run.params), i)
    order = sorted(range(len(runs)), key=lambda i: i not in first.values())
    done: dict[int, list[TestResult]] = {}
    with ProcessPoolExecutor(max_workers=jobs, mp_context=mp.get_context("fork")) as pool:
        futures = {pool.submit(_run, runs[i], options): i for i in order}
        for future in as_completed(futures):
            i = futures[future]
            done[i] = future.result()
            print(line(runs[i], done[i]), flush=True)
    return [done[i] for i in range(len(runs))]


def summary(results: list[TestResult], timing: str) -> int:
    """The table, each skip and failure with its reason, the closing count; the exit status (non-zero on a
    failure, and when nothing passed: a run that checked nothing is not a green run)."""
    print_table(results)
    for r in results:
        if r.skipped:
            print(f"SKIPPED {r.bench}[{r.params}].{r.test}: {r.message}")
    failed = [r for r in results if r.failed]
    for r in failed:
        print(f"FAILED {r.bench}[{r.params}].{r.test} (seed {r.seed}): {r.message}")
    passed = sum(r.passed for r in results)
    print(timing)
    if not passed:
        why = "every test skipped, so nothing was checked" if results else "no test ran"
        print(f"nothing passed: {why}")
    print(f"{passed} passed, {len(failed)} failed, {len(results) - passed - len(failed)} skipped")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
