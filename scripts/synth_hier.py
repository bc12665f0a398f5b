"""Hierarchical synthesis: every distinct module of a design synthesized once, in a Yosys process of its own.

Yosys elaborates the top at the requested parameters (`hierarchy -check`, which also runs every module's
parameter checks) and writes the elaborated design as RTLIL; each module of it (each parameterization is a
module of its own, `$paramod...`) is then synthesized alone, its sub-modules standing as black boxes, and the
design's figures are each module's own cells plus its instances' totals, recursively.

Why: a single Yosys process holds the whole flattened-per-module netlist of every module at once. At a
32-byte atom (nv_large) the yowasp (WebAssembly) build stops at its 4 GB memory limit before ABC; per module,
the largest process is one unit's own logic, and a lane module repeated 32 times is synthesized once. It is
also how synthesis is run on real chips (bottom-up, per block), and the processes run in parallel.

Each module's Yosys process is timed (its own CPU seconds and wall); `<work>/times.json` lists them, the
slowest first.

Names such as `$paramod$<hash>\\nvdla_x` are renamed `\\m<n>` in each module's own RTLIL file, so no Yosys
command has to quote them.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_MODULE = re.compile(r"^module (\S+)$")
_CELL = re.compile(r"^  cell (\S+) (\S+)$")
_PORT = re.compile(r"^  wire .*\b(?:input|output|inout) \d+\b")


@dataclass
class ModuleResult:
    name: str                     # the elaborated module's name ($paramod... for parameterized copies)
    ok: bool
    log: Path
    stat: dict[str, Any] = field(default_factory=dict)   # its own `stat -json` entry (sub-modules as cells)
    children: dict[str, int] = field(default_factory=dict)  # sub-module -> instance count
    errors: list[str] = field(default_factory=list)
    cpu_s: float = 0.0            # the Yosys process's CPU time (user + system): comparable under load
    wall_s: float = 0.0


@dataclass
class DesignResult:
    top: str
    ok: bool
    modules: dict[str, ModuleResult]
    errors: list[str]

    def total(self, key: str = "num_cells") -> int | None:
        """The design's `key` figure (num_cells, num_memory_bits...), every instance counted."""
        if not self.ok:
            return None
        return recursive_totals({n: m.stat for n, m in self.modules.items()}, key)[self.top]

    def slowest(self, n: int = 5) -> list[ModuleResult]:
        """The `n` modules whose Yosys process took the most CPU time."""
        return sorted(self.modules.values(), key=lambda m: -m.cpu_s)[:n]


def base_name(module: str) -> str:
    """A module's source name: Yosys names parameterized copies $paramod$<hash>\\<name> or
    $paramod\\<name>\\<PARAM=value>..."""
    parts = module.split("\\")
    return parts[1] if module.startswith("$paramod") and len(parts) > 1 else module.lstrip("\\")


def recursive_totals(modules: dict[str, Any], own: str) -> dict[str, int]:
    """Every module's `own` figure (num_cells, num_memory_bits...) including its sub-modules', each instance
    counted as its module's figure; num_cells_by_type lists the instances by module, so they are subtracted
    from a module's own cell count."""
    totals: dict[str, int] = {}

    def total(name: str) -> int:
        if name not in totals:
            by_type = modules[name].get("num_cells_by_type", {})
            subs = [(t, n) for t, n in by_type.items() if t in modules]
            mine = int(modules[name].get(own, 0)) - (sum(n for _, n in subs) if own == "num_cells" else 0)
            totals[name] = mine + sum(n * total(t) for t, n in subs)
        return totals[name]

    for name in modules:
        total(name)
    return totals


def split_rtlil(text: str) -> dict[str, list[str]]:
    """The modules of an RTLIL file, each as its lines (its attributes included)."""
    modules: dict[str, list[str]] = {}
    pending: list[str] = []
    current: list[str] | None = None
    for line in text.splitlines():
        if current is None:
            m = _MODULE.match(line)
            if m:
                current = modules.setdefault(m.group(1), [])
                current.extend(pending)
                current.append(line)
                pending = []
            elif line.startswith("attribute "):
                pending.append(line)
        else:
            current.append(line)
            if line == "end":
                current = None
    return modules


def module_file(name: str, modules: dict[str, list[str]]) -> tuple[str, dict[str, int]]:
    """RTLIL of `name` with its sub-modules as black boxes (ports only), every module renamed \\m<n>, and
    its sub-module instance counts."""
    lines = modules[name]
    children: dict[str, int] = {}
    for line in lines:
        m = _CELL.match(line)
        if m and m.group(1) in modules:
            children[m.group(1)] = children.get(m.group(1), 0) + 1
    alias = {name: "\\m0", **{c: f"\\m{i + 1}" for i, c in enumerate(children)}}
    out: list[str] = []
    for line in lines:
        m = _MODULE.match(line)
        c = _CELL.match(line)
        if m:
            line = f"module {alias[name]}"
        elif c and c.group(1) in alias:
            line = f"  cell {alias[c.group(1)]} {c.group(2)}"
        out.append(line)
    for child in children:
        ports = [ln for ln in modules[child] if _PORT.match(ln)]
        out += ["attribute \\blackbox 1", f"module {alias[child]}", *ports, "end"]
    return "\n".join(out) + "\n", children


def logged_cpu(log: Path) -> float:
    """The CPU seconds a Yosys log reports for its script (user + system), 0 when absent."""
    text = log.read_text() if log.exists() else ""
    m = re.search(r"End of script.*?user: ([\d.]+)s, system: ([\d.]+)s", text)
    return float(m.group(1)) + float(m.group(2)) if m else 0.0


def run_timed(cmd: list[str], cwd: Path) -> tuple[int, str, float]:
    """Run `cmd`: (exit status, its stderr, its CPU seconds). The CPU time is the process's own (os.wait4),
    so processes running side by side do not count each other's."""
    with subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) as p:
        assert p.stderr is not None
        stderr = p.stderr.read()
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
    return p.returncode, stderr, usage.ru_utime + usage.ru_stime


def elaborate(yosys: list[str], read: str, top: str, work: Path, root: Path
              ) -> tuple[subprocess.CompletedProcess[str], Path]:
    """Yosys runs `read` (it reads the sources and sets the top's parameters), elaborates `top` (`hierarchy
    -check`, which runs every module's parameter checks) and writes the design as RTLIL: (the process, the
    RTLIL file). `work` (under `root`, repo-relative: yowasp sees only the working directory) holds
    elab.il and elab.log."""
    (root / work).mkdir(parents=True, exist_ok=True)
    elab = work / "elab.il"
    proc = subprocess.run([*yosys, "-q", "-l", str(work / "elab.log"), "-p",
                           f"{read} hierarchy -check -top {top}; write_rtlil {elab}"],
                          cwd=root, capture_output=True, text=True)
    return proc, elab


@dataclass
class MappedModule:
    """One module's Yosys process in map_modules: its files ("il", "log" and one per output suffix), its
    sub-modules (instance counts) and how the process went."""
    name: str
    files: dict[str, Path]
    children: dict[str, int]
    returncode: int = 0
    stderr: str = ""
    cpu_s: float = 0.0
    wall_s: float = 0.0
    cached: bool = False


def map_modules(yosys: list[str], modules: dict[str, list[str]], work: Path, root: Path, prefix: str,
                outputs: tuple[str, ...], script: Callable[[dict[str, Path]], str], jobs: int,
                reuse: bool = False) -> list[MappedModule]:
    """Every module of an elaborated design (split_rtlil) through a Yosys process of its own, its
    sub-modules black boxes: `script` gets the module's files, <work>/<prefix><n>.il (its RTLIL, names
    renamed: module_file), .log and one file per suffix of `outputs`, for it to write. `jobs` processes at
    once, the largest modules first so that the last to finish is a small one. `reuse`: a module whose RTLIL
    is unchanged since the last run and whose outputs all exist keeps them (a run cut short resumes)."""
    names = sorted(modules)

    def run(index: int) -> MappedModule:
        name = names[index]
        text, children = module_file(name, modules)
        files = {"il": work / f"{prefix}{index}.il", "log": work / f"{prefix}{index}.log",
                 **{suffix: work / f"{prefix}{index}{suffix}" for suffix in outputs}}
        done = MappedModule(name, files, children)
        written = [root / files[suffix] for suffix in outputs]
        il = root / files["il"]
        if reuse and il.exists() and il.read_text() == text and all(f.exists() for f in written):
            done.cached, done.cpu_s = True, logged_cpu(root / files["log"])
            return done
        if reuse:
            for f in written:
                f.unlink(missing_ok=True)
        il.write_text(text)
        start = time.monotonic()
        done.returncode, done.stderr, done.cpu_s = run_timed(
            [*yosys, "-q", "-l", str(files["log"]), "-p", script(files)], root)
        done.wall_s = time.monotonic() - start
        return done

    order = sorted(range(len(names)), key=lambda i: -sum(map(len, modules[names[i]])))
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(run, order))


def synthesize(yosys: str, root: Path, top: str, read: str, work: Path, synth_args: str = "",
               jobs: int = 2) -> DesignResult:
    """Synthesize `top` module by module. `read` is the Yosys script that reads the sources and sets the
    top's parameters; `work` (repo-relative: yowasp sees only the working directory) holds the files."""
    proc, elab = elaborate([yosys], read, top, work, root)
    elab_log = work / "elab.log"
    log_text = (root / elab_log).read_text() if (root / elab_log).exists() else ""
    errors = re.findall(r"^(?:ERROR|Warning).*$", log_text + proc.stderr, re.M | re.I)
    if proc.returncode != 0 or errors or not (root / elab).exists():
        return DesignResult(top, False, {}, errors or [proc.stderr[-3000:]])
    modules = split_rtlil((root / elab).read_text())
    if f"\\{top}" not in modules:
        return DesignResult(top, False, {}, [f"{top} not in the elaborated design"])

    def script(files: dict[str, Path]) -> str:
        return (f"read_rtlil {files['il']}; hierarchy -top \\m0; synth -top \\m0 {synth_args}; "
                f"tee -q -o {files['.json']} stat -json; stat")

    def result(run: MappedModule) -> ModuleResult:
        log, stat = root / run.files["log"], root / run.files[".json"]
        out = log.read_text() if log.exists() else ""
        found = re.findall(r"^(?:ERROR|Warning).*$", out + run.stderr, re.M | re.I)
        entry: dict[str, Any] = {}
        if stat.exists():
            entry = json.loads(stat.read_text())["modules"].get("\\m0", {})
        # the black boxes' aliases back to the elaborated names
        back = {f"m{i + 1}": c for i, c in enumerate(run.children)}
        back.update({f"\\m{i + 1}": c for i, c in enumerate(run.children)})
        if "num_cells_by_type" in entry:
            entry["num_cells_by_type"] = {back.get(t, t): n for t, n in entry["num_cells_by_type"].items()}
        ok = run.returncode == 0 and not found and "num_cells" in entry
        return ModuleResult(run.name, ok, run.files["log"], entry, run.children,
                            found[:20] or ([] if ok else [run.stderr[-3000:] or "no statistics"]), run.cpu_s,
                            run.wall_s)

    results = [result(r) for r in map_modules([yosys], modules, work, root, "m", (".json",), script, jobs)]
    done = {r.name: r for r in results}
    # where the time went, per module (the slowest first): compare runs like with like by CPU seconds
    times = [{"module": base_name(r.name), "log": str(r.log), "cpu_s": round(r.cpu_s, 2),
              "wall_s": round(r.wall_s, 2), "cells": r.stat.get("num_cells")}
             for r in sorted(results, key=lambda r: -r.cpu_s)]
    (root / work / "times.json").write_text(json.dumps(times, indent=1) + "\n")
    errors = [f"{base_name(r.name)}: {e}" for r in results for e in r.errors]
    return DesignResult(f"\\{top}", all(r.ok for r in results), done, errors)
