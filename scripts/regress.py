"""The cocotb regression: every registered bench and parameter set, then a summary table.

`make` runs it on Verilator; `make SIM=icarus` on Icarus (benches Icarus accepts); `make nightly` with
NIGHTLY=1 (long random runs) and JUnit XML. Each row says how much its test checked (tb/outcome.py) and a
test that found nothing to check is a SKIP row with its reason. Exit status is non-zero when any test fails,
and when nothing passed at all (every test skipped, or none ran).
"""

from __future__ import annotations

import argparse
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tb.benches import BENCHES, Bench  # noqa: E402
from tb.runner import TestResult, run_bench  # noqa: E402


def selected(sim: str, names: list[str], nightly: bool) -> list[Bench]:
    benches = [b for b in BENCHES if (not names or b.name in names)]
    benches = [b for b in benches if nightly or not b.nightly_only]
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
    ap.add_argument("benches", nargs="*", help="only these benches (default: all)")
    args = ap.parse_args()
    if args.coverage and args.sim != "verilator":
        ap.error("--coverage needs --sim verilator")

    start = time.time()
    results: list[TestResult] = []
    for bench in selected(args.sim, args.benches, args.nightly):
        for params in bench.param_sets:
            print(f"== {bench.name} [{bench.tag(params)}] on {args.sim}", flush=True)
            results += run_bench(bench, params, sim=args.sim, waves=args.waves, seed=args.seed,
                                 nightly=args.nightly, coverage=args.coverage)
    if args.junit:
        write_junit(results, args.junit)
    return summary(results, f"regression on {args.sim}: {time.time() - start:.0f} s wall")


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
