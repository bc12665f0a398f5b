"""Merge the JUnit XML files of the nightly's shards into one report; fail if any test or shard failed.

    python3 scripts/merge_junit.py -o reports/nightly.xml --expect 9 reports/nightly-*.xml
    python3 scripts/merge_junit.py --repro reports/nightly-3.xml   # one `make` line per failed test

Standard library only, so the CI's merge job runs it without the virtualenv. Exit status: 0 when every file
was read, at least `--expect` files were given and no testcase failed or errored; 1 otherwise. `--repro`
prints, for each failed cocotb test (classname `<bench>.<params>`, property `seed`, as scripts/regress.py
writes them), the command that reruns exactly that test with its seed and waves.
"""

from __future__ import annotations

import argparse
import sys
import xml.etree.ElementTree as ET
from pathlib import Path


def suites(path: Path) -> list[ET.Element]:
    root = ET.parse(path).getroot()
    return [root] if root.tag == "testsuite" else list(root.iter("testsuite"))


def failed(case: ET.Element) -> bool:
    return case.find("failure") is not None or case.find("error") is not None


def merge(paths: list[Path]) -> tuple[ET.Element, list[str]]:
    """One <testsuites> holding every suite (renamed after its file), and the problems found."""
    merged = ET.Element("testsuites")
    problems: list[str] = []
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for path in paths:
        try:
            found = suites(path)
        except (OSError, ET.ParseError) as err:
            problems.append(f"{path}: unreadable ({err})")
            continue
        if not found:
            problems.append(f"{path}: no testsuite")
        for suite in found:
            suite.set("name", f"{path.stem}:{suite.get('name', '')}")
            cases = list(suite.iter("testcase"))
            counts = {"tests": len(cases), "failures": sum(c.find("failure") is not None for c in cases),
                      "errors": sum(c.find("error") is not None for c in cases),
                      "skipped": sum(c.find("skipped") is not None for c in cases)}
            for key, value in counts.items():
                suite.set(key, str(value))
                totals[key] += value
            problems += [f"{path.stem}: {c.get('classname', '')}.{c.get('name', '')} failed"
                         for c in cases if failed(c)]
            merged.append(suite)
    for key, value in totals.items():
        merged.set(key, str(value))
    return merged, problems


GOAL = 10**7  # randomized samples per unit per night


def unit_of(bench: str) -> str:
    """The datapath unit a bench scores (top_pdp, pdp_dma_seq -> pdp), else the bench itself."""
    return next((u for u in ("pdp", "cdp", "sdp") if u in bench), bench)


def checked_report(totals: dict[tuple[str, str], int]) -> str:
    """One line per unit: what its tests checked ('1,500 layers', '2,000,000 samples'); samples against
    the nightly goal (README "Nightly" turns layers into samples with the measured mean per layer)."""
    if not totals:
        return "checked per unit: nothing recorded"
    units = sorted({unit for unit, _ in totals})
    lines = []
    for unit in units:
        parts = [f"{n:,} {noun}" + (f" ({n / GOAL:.0%} of {GOAL:.0e})" if noun == "samples" else "")
                 for (u, noun), n in sorted(totals.items()) if u == unit]
        lines.append(f"checked, {unit}: " + ", ".join(parts))
    return "\n".join(lines)


def checked_per_unit(paths: list[Path]) -> dict[tuple[str, str], int]:
    """The `checked` properties ('8 layers', as scripts/regress.py writes them from tb/outcome.py) of the
    cocotb testcases, summed per unit and noun over all the shards."""
    totals: dict[tuple[str, str], int] = {}
    for path in paths:
        try:
            found = suites(path)
        except (OSError, ET.ParseError):
            continue  # merge() reports it
        for suite in found:
            for case in suite.iter("testcase") if suite.get("name") == "cocotb" else ():
                unit = unit_of(case.get("classname", "").partition(".")[0])
                for prop in case.iter("property"):
                    count, _, noun = (prop.get("value") or "").partition(" ")
                    if prop.get("name") == "checked" and count.isdigit():
                        totals[(unit, noun)] = totals.get((unit, noun), 0) + int(count)
    return totals


def repro_lines(paths: list[Path]) -> list[str]:
    lines = []
    for path in paths:
        for suite in suites(path):
            if suite.get("name") != "cocotb":  # scripts/regress.py's suite; pytest's cases are not benches
                continue
            for case in suite.iter("testcase"):
                bench, _, params = case.get("classname", "").partition(".")
                seed = next((p.get("value") for p in case.iter("property") if p.get("name") == "seed"), None)
                if failed(case) and params and seed:
                    lines.append(f"make BENCH={bench} PARAMS={params} TESTCASE={case.get('name')} "
                                 f"SEED={seed} NIGHTLY=1 WAVES=1")
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("-o", "--output", type=Path, default=None, help="write the merged JUnit XML here")
    ap.add_argument("--expect", type=int, default=0, help="fail unless at least this many files are given "
                    "(a shard that died before writing its report leaves no file)")
    ap.add_argument("--repro", action="store_true", help="only print a rerun command per failed test")
    args = ap.parse_args()
    if args.repro:
        print("\n".join(repro_lines(args.files)))
        return 0
    merged, problems = merge(args.files)
    if len(args.files) < args.expect:
        problems.append(f"{len(args.files)} report files, expected {args.expect}: a shard wrote none")
    if args.output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        ET.ElementTree(merged).write(args.output, encoding="utf-8", xml_declaration=True)
    print(f"{len(args.files)} files: {merged.get('tests')} tests, {merged.get('failures')} failures, "
          f"{merged.get('errors')} errors, {merged.get('skipped')} skipped")
    print(checked_report(checked_per_unit(args.files)))
    for problem in problems:
        print(f"FAILED {problem}")
    return 1 if problems or merged.get("tests") == "0" else 0


if __name__ == "__main__":
    sys.exit(main())
