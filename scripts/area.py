"""Area per configuration and per unit: Yosys cell counts of the top (rtl/top/nvdla_pp_top.v) synthesized at a
configuration's parameters (chparam, as scripts/rtl_check.py synth), without flattening, so `stat` counts each
module of the hierarchy; a unit's area is its module's cells with every sub-module's, recursively.

Units (the top's instances): SDP, PDP and CDP (each unit with its read DMA and datapath, nvdla_<unit>), BDMA
(configurations that have it), memif (nvdla_axi_memif: the AXI arbiters and the router to the two memories),
csb_regs (the CSB slave, GLB and every unit's register file), CONV (the convolution pipeline, nvdla_conv,
with its breakdown CDMA, CBUF, CSC, CMAC, CACC and CONV_ctrl: control, statistics), top (the glue).

Level (--level): "coarse" (the default) stops after Yosys's coarse stage (`synth -run begin:fine`): word-level
cells ($alu, $mux, $adffe, $mem_v2, $macc_v2 of any width), 20 s at nv_small and 75 s at nv_large on one core.
A 256-bit adder counts as one cell, so the count measures structure; it still grows with the atom because the
datapaths are generated per lane (a lane's converter, LUT interpolator, pooling adder are cells of their own).
"gates" is `synth -noabc` (every operator, memory and process mapped to Yosys's generic gates), module by
module as scripts/rtl_check.py synth --level fast (scripts/synth_hier.py: one Yosys process holding the
whole top at a 32-byte atom stops at the yowasp WebAssembly build's 4 GB limit): a count that follows the
bits, 1 min at nv_small and 2 min at nv_large on two cores.

Usage: .venv/bin/python -m scripts.area [--level coarse|gates] [--config NAME ...] [--json FILE]
(run by scripts/benchmark.py at the run's configuration; logs and `stat -json` under build/area/)
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from models import configs
from scripts import synth_hier
from scripts.rtl_check import SUBSYSTEM_TOP, read_sources, yosys_exe
from scripts.synth_hier import base_name, recursive_totals

ROOT = Path(__file__).resolve().parent.parent

LEVELS = {
    "coarse": f"synth -top {SUBSYSTEM_TOP} -run begin:fine",
    "gates": "synth -noabc, module by module",
}
# the top's sub-modules by name -> the unit their cells count for
UNIT_OF = {"nvdla_sdp": "SDP", "nvdla_pdp": "PDP", "nvdla_cdp": "CDP", "nvdla_bdma": "BDMA",
           "nvdla_axi_memif": "memif", "nvdla_csb_slave": "csb_regs", "nvdla_glb": "csb_regs",
           "nvdla_conv": "CONV"}
UNITS = ("SDP", "PDP", "CDP", "BDMA", "CONV", "memif", "csb_regs", "top")
# CONV (rtl/conv/nvdla_conv.v) by its units: its sub-modules by name -> unit; its own cells and the rest
# (layer control, statistics counters) are CONV_ctrl. A breakdown of CONV, not added to the total again.
CONV_PART_OF = {"nvdla_cdma_dat": "CDMA", "nvdla_cdma_wt": "CDMA", "nvdla_cbuf": "CBUF",
                "nvdla_csc_dat": "CSC", "nvdla_csc_wt": "CSC", "nvdla_cmac": "CMAC", "nvdla_cacc": "CACC"}
CONV_PARTS = ("CDMA", "CBUF", "CSC", "CMAC", "CACC", "CONV_ctrl")


def by_unit(stat: dict[str, Any], own: str) -> dict[str, int]:
    """The top's `own` figure by unit (UNIT_OF; register files to csb_regs; the top's own to `top`)."""
    # Yosys names a plain module "\\name" in `modules` but "name" as a cell type; one spelling for both
    modules = {name.removeprefix("\\"): {**body, "num_cells_by_type": {
        t.removeprefix("\\"): n for t, n in body.get("num_cells_by_type", {}).items()}}
        for name, body in stat["modules"].items()}
    totals = recursive_totals(modules, own)
    top = next(m for m in modules if base_name(m) == SUBSYSTEM_TOP)
    out = dict.fromkeys(UNITS, 0)
    for cell_type, n in modules[top]["num_cells_by_type"].items():
        if cell_type in modules:
            name = base_name(cell_type)
            out[UNIT_OF.get(name, "csb_regs" if name.endswith("_regs") else "top")] += n * totals[cell_type]
    out["top"] += totals[top] - sum(out.values())
    out["total"] = totals[top]
    out.update(dict.fromkeys(CONV_PARTS, 0))
    conv = next((m for m in modules if base_name(m) == "nvdla_conv"), None)
    if conv is not None:
        for cell_type, n in modules[conv]["num_cells_by_type"].items():
            if cell_type in modules:
                out[CONV_PART_OF.get(base_name(cell_type), "CONV_ctrl")] += n * totals[cell_type]
        out["CONV_ctrl"] += totals[conv] - sum(out[p] for p in CONV_PARTS)
    return out


@dataclass(frozen=True)
class Area:
    cells: dict[str, int]         # by unit (UNITS and "total")
    memory_bits: dict[str, int]   # bits of the arrays Yosys infers as memories (FIFOs, line buffer, LUT)
    wall_s: float


def synthesize(config: configs.Configuration, level: str) -> Area:
    """Run Yosys on the top at the configuration's parameters. The memory bits are counted after `proc`,
    before the coarse stage turns each memory into one $mem_v2 cell whatever its size."""
    out_dir = Path("build") / "area"   # repo-relative: yowasp's sandbox sees only the working directory
    (ROOT / out_dir).mkdir(parents=True, exist_ok=True)
    stem = out_dir / f"{config.name}_{level}"
    log, stat_json, mem_json = (Path(f"{stem}{suffix}") for suffix in (".log", ".json", "_memories.json"))
    read = read_sources(SUBSYSTEM_TOP, config.verilog_parameters())
    coarse = level == "coarse"
    script = (f"{read} hierarchy -top {SUBSYSTEM_TOP}; proc; tee -q -o {mem_json} stat -json; "
              + (f"{LEVELS[level]}; tee -q -o {stat_json} stat -json" if coarse else ""))
    start = time.perf_counter()
    proc = subprocess.run([yosys_exe(), "-q", "-l", str(log), "-p", script], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    if proc.returncode != 0 or not (ROOT / mem_json).exists() or (coarse and not (ROOT / stat_json).exists()):
        raise RuntimeError(f"synthesis of {SUBSYSTEM_TOP} at {config.name} failed (log: {log}): "
                           f"{proc.stderr.strip()[-500:]}")
    if coarse:
        stat = json.loads((ROOT / stat_json).read_text())
    else:
        design = synth_hier.synthesize(yosys_exe(), ROOT, SUBSYSTEM_TOP, read, Path(f"{stem}_modules"),
                                       "-noabc")
        if not design.ok:
            raise RuntimeError(f"synthesis of {SUBSYSTEM_TOP} at {config.name} failed: {design.errors[:3]}")
        stat = {"modules": {name: m.stat for name, m in design.modules.items()}}
    wall = time.perf_counter() - start
    cells = by_unit(stat, "num_cells")
    bits = by_unit(json.loads((ROOT / mem_json).read_text()), "num_memory_bits")
    return Area(cells, bits, wall)


def yosys_version() -> str:
    done = subprocess.run([yosys_exe(), "-V"], capture_output=True, text=True, check=False)
    return " ".join(done.stdout.split()[:2])


def area_records(config: configs.Configuration, level: str) -> list[dict[str, Any]]:
    """One reports/bench.json record per unit (and the total), printed as a line."""
    area = synthesize(config, level)
    tool = f"{yosys_version()}, {LEVELS[level]}, not flattened"
    present = [u for u in (*UNITS, "total", *CONV_PARTS) if area.cells[u] or u != "BDMA"]
    print(f"area of {SUBSYSTEM_TOP} at {config.name} ({tool}; {area.wall_s:.0f} s): "
          + ", ".join(f"{u} {area.cells[u]:,} ({area.memory_bits[u] / 1024:.1f} Kbit)" for u in present)
          + " cells (memory bits)")
    return [{"kind": "area", "name": f"area_{u}", "unit": u, "config": config.name, "cells": area.cells[u],
             "memory_bits": area.memory_bits[u], "level": level, "synthesis": tool} for u in present]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--level", choices=sorted(LEVELS), default="coarse")
    parser.add_argument("--config", action="append", default=[],
                        help="configuration (repeatable; default: $CONFIG, else nv_small)")
    parser.add_argument("--json", type=Path, default=None, help="write the records to this file")
    args = parser.parse_args()
    records: list[dict[str, Any]] = []
    for name in args.config or [configs.load().name]:
        records += area_records(configs.load(name), args.level)
    if args.json:
        args.json.write_text(json.dumps(records, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
