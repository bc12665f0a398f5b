"""Area per configuration and per unit: Yosys cell counts of the top (rtl/top/nvdla_pp_top.v) synthesized at a
configuration's parameters (chparam, as scripts/rtl_check.py synth), without flattening, so `stat` counts each
module of the hierarchy; a unit's area is its module's cells with every sub-module's, recursively.

Units (the top's instances): SDP, PDP and CDP (each unit with its read DMA and datapath, nvdla_<unit>), BDMA
(configurations that have it), memif (nvdla_axi_memif: the AXI arbiters and the router to the two memories),
csb_regs (the CSB slave, GLB and every unit's register file), top (the top's own glue).

Level (--level): "coarse" (the default) stops after Yosys's coarse stage (`synth -run begin:fine`): word-level
cells ($alu, $mux, $adffe, $mem_v2, $macc_v2 of any width), 20 s at nv_small and 75 s at nv_large on one core.
A 256-bit adder counts as one cell, so the count measures structure; it still grows with the atom because the
datapaths are generated per lane (a lane's converter, LUT interpolator, pooling adder are cells of their own).
"gates" is `synth -noabc` (every operator, memory and process mapped to Yosys's generic gates, as
scripts/rtl_check.py synth --level fast): a count that follows the bits, but at a 32-byte atom Yosys (the
yowasp WebAssembly build) stops with a WebAssembly exception in techmap, even on SDP alone (most likely
its 4 GB memory limit).

Usage: .venv/bin/python scripts/area.py [--level coarse|gates] [--config NAME ...] [--json FILE]
(run by scripts/bench.py at the run's configuration; logs and `stat -json` under build/area/)
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from models import configs  # noqa: E402
from scripts.rtl_check import INCLUDES, SUBSYSTEM_TOP, rtl_files, yosys_exe  # noqa: E402
from tb.rtl_deps import dependencies, module_names  # noqa: E402

LEVELS = {
    "coarse": f"synth -top {SUBSYSTEM_TOP} -run begin:fine",
    "gates": f"synth -top {SUBSYSTEM_TOP} -noabc",
}
# the top's sub-modules by name -> the unit their cells count for
UNIT_OF = {"nvdla_sdp": "SDP", "nvdla_pdp": "PDP", "nvdla_cdp": "CDP", "nvdla_bdma": "BDMA",
           "nvdla_axi_memif": "memif", "nvdla_csb_slave": "csb_regs", "nvdla_glb": "csb_regs"}
UNITS = ("SDP", "PDP", "CDP", "BDMA", "memif", "csb_regs", "top")


def base_name(module: str) -> str:
    """A module's source name: Yosys names parameterized copies $paramod$<hash>\\<name> or
    $paramod\\<name>\\<PARAM=value>..."""
    parts = module.split("\\")
    return parts[1] if module.startswith("$paramod") and len(parts) > 1 else module.lstrip("\\")


def recursive_cells(modules: dict[str, Any]) -> dict[str, int]:
    """Every module's cells including its sub-modules' (an instance counts as its module's cells, not 1)."""
    totals: dict[str, int] = {}

    def total(name: str) -> int:
        if name not in totals:
            by_type = modules[name].get("num_cells_by_type", {})
            totals[name] = sum(n * total(t) if t in modules else n for t, n in by_type.items())
        return totals[name]

    for name in modules:
        total(name)
    return totals


def unit_cells(stat: dict[str, Any]) -> dict[str, int]:
    """The top's cells by unit (UNIT_OF; register files to csb_regs; the top's own cells to `top`)."""
    # a plain module is named "\\name" in `modules` but "name" as a cell type; one spelling for both
    modules = {name.removeprefix("\\"): body for name, body in stat["modules"].items()}
    totals = recursive_cells(modules)
    top = next(m for m in modules if base_name(m) == SUBSYSTEM_TOP)
    out = dict.fromkeys(UNITS, 0)
    for cell_type, n in modules[top]["num_cells_by_type"].items():
        if cell_type not in modules:
            out["top"] += n
            continue
        name = base_name(cell_type)
        unit = UNIT_OF.get(name, "csb_regs" if name.endswith("_regs") else "top")
        out[unit] += n * totals[cell_type]
    out["total"] = totals[top]
    return out


def synthesize(config: configs.Configuration, level: str) -> tuple[dict[str, int], float]:
    """Run Yosys on the top at the configuration's parameters; (cells by unit, wall seconds)."""
    needed = " ".join(map(str, dependencies(SUBSYSTEM_TOP, module_names(rtl_files()))))
    params = config.verilog_parameters()
    chparam = "".join(f"chparam -set {k} {v} {SUBSYSTEM_TOP}; " for k, v in params.items())
    out_dir = Path("build") / "area"   # repo-relative: yowasp's sandbox sees only the working directory
    (ROOT / out_dir).mkdir(parents=True, exist_ok=True)
    log, stat_json = out_dir / f"{config.name}_{level}.log", out_dir / f"{config.name}_{level}.json"
    script = (f"read_verilog -sv {' '.join(INCLUDES)} {needed}; {chparam}{LEVELS[level]}; "
              f"tee -q -o {stat_json} stat -json")
    start = time.perf_counter()
    proc = subprocess.run([yosys_exe(), "-q", "-l", str(log), "-p", script], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    wall = time.perf_counter() - start
    if proc.returncode != 0 or not (ROOT / stat_json).exists():
        raise RuntimeError(f"synthesis of {SUBSYSTEM_TOP} at {config.name} failed (log: {log}): "
                           f"{proc.stderr.strip()[-500:]}")
    return unit_cells(json.loads((ROOT / stat_json).read_text())), wall


def yosys_version() -> str:
    done = subprocess.run([yosys_exe(), "-V"], capture_output=True, text=True, check=False)
    return " ".join(done.stdout.split()[:2])


def area_records(config: configs.Configuration, level: str) -> list[dict[str, Any]]:
    """One reports/bench.json record per unit (and the total), printed as a line."""
    cells, wall = synthesize(config, level)
    tool = f"{yosys_version()}, {LEVELS[level]}, not flattened"
    present = [u for u in (*UNITS, "total") if cells[u] or u != "BDMA"]
    print(f"area of {SUBSYSTEM_TOP} at {config.name} ({tool}; {wall:.0f} s): "
          + ", ".join(f"{u} {cells[u]:,}" for u in present) + " cells")
    return [{"kind": "area", "name": f"area_{u}", "unit": u, "config": config.name, "cells": cells[u],
             "level": level, "synthesis": tool} for u in present]


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
