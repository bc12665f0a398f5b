"""One-time import of the extracted nv_small register map into the project's own description.

regmap/nvdla_regs.json is the single source of truth the generators read (scripts/gen_regs.py). It was
made by this script from the nv_small map extracted from NVIDIA's RDL (see regmap/README.md);
re-run it only to refresh from a newer extraction:
`python -m scripts.import_regmap <path to nvdla_nv_small_regmap.json>`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent.parent / "regmap" / "nvdla_regs.json"
UNITS = ("GLB", "SDP_RDMA", "SDP", "PDP_RDMA", "PDP", "CDP_RDMA", "CDP")


def _field(f: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"name": f["name"], "msb": f["msb"], "lsb": f["lsb"], "access": f["access"],
                           "reset": int(f["reset"], 16)}
    if "enum" in f:
        out["enum"] = f["enum"]
    if f.get("desc"):
        out["desc"] = f["desc"]
    return out


def _register(r: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"name": r["name"], "offset": int(r["offset"], 16), "group": r["group"],
                           "access": r["access"], "fields": [_field(f) for f in r["fields"]]}
    if r.get("per_group_stat"):
        # "hold" (DMA/CDP holding registers) was set by hand afterwards: regmap/README.md "Statistics"
        out["stat"] = "latch"
    note = r.get("nv_small_note")
    if note:
        out["note"] = note
    return out


def convert(src: dict[str, Any]) -> dict[str, Any]:
    units = {u["name"]: u for u in src["units"]}
    return {
        "schema": "nvdla-postproc-regs/1",
        "source": "nv_small register map extracted from github.com/nvdla/hw spec/manual/*.rdl "
                  f"(commit {src['source']['commit']}); NVIDIA Open NVDLA License",
        "csb_maps": {"nv_small": {n: int(units[n]["base"], 16) for n in UNITS}},
        "units": [{"name": n,
                   "registers": [_register(r) for r in units[n]["registers"]]} for n in UNITS],
    }


def main(argv: list[str]) -> int:
    src = json.loads(Path(argv[1]).read_text())
    OUT.write_text(json.dumps(convert(src), indent=1) + "\n")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
