"""One-time import of units from NVIDIA's RDL into the project's register description.

The convolution units (CDMA, CSC, CMAC_A, CMAC_B, CACC) were added to regmap/nvdla_regs.json by this script
from NVIDIA's `spec/manual/NVDLA_<unit>.rdl` (github.com/nvdla/hw, identical on branches nv_small and master;
a copy is in ../shared/nvdla/regmap/rdl). It reads the subset of SystemRDL NVIDIA's files use (reg, field,
enum, `->desc`, `@offset`), maps NVIDIA's `spec_access` to the description's access names as the first
import did (scripts/import_regmap.py: rw -> RW, r -> RO, c -> RO-const, rwto -> RW-special) and applies the
project keys listed in PROJECT below. Re-run only to refresh from NVIDIA's files:
`python -m scripts.import_rdl <rdl folder> CDMA CSC CMAC_A CMAC_B CACC`.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent.parent / "regmap" / "nvdla_regs.json"
ACCESS = {"rw": "RW", "r": "RO", "c": "RO-const", "rwto": "RW-special"}

# Project keys beyond NVIDIA's RDL (regmap/README.md "Project keys").
# Statistics: NV_NVDLA_CDMA_regfile.v and NV_NVDLA_CACC_regfile.v latch them as SDP does (dN_set when the
# group's OP_EN falls, dN_clr when software sets it).
STAT_LATCH = {
    "CDMA": ("D_NAN_INPUT_DATA_NUM", "D_NAN_INPUT_WEIGHT_NUM", "D_INF_INPUT_DATA_NUM",
             "D_INF_INPUT_WEIGHT_NUM", "D_PERF_DAT_READ_STALL", "D_PERF_WT_READ_STALL",
             "D_PERF_DAT_READ_LATENCY", "D_PERF_WT_READ_LATENCY"),
    "CACC": ("D_OUT_SATURATION",),
}
# S_CBUF_FLUSH_STATUS.FLUSH_DONE: NVIDIA's RTL raises it once CBUF's flush after reset is over (a few
# hundred cycles, NV_NVDLA_CDMA_regfile.v dp2reg_flush_done); every trace polls it before its first layer.
# This design has no flush to wait for, so the field is a constant 1.
CONST_ONE = {("CDMA", "S_CBUF_FLUSH_STATUS", "FLUSH_DONE"):
             "reads 1: NVIDIA's CBUF flush after reset is long over when software polls; this design has "
             "none to wait for (NVIDIA: dp2reg_flush_done, 0 for the flush's duration after reset)"}

_REG = re.compile(r"reg\s*\{(.*?)\}\s*([A-Z0-9_]+)\s*@\s*(0x[0-9a-fA-F]+)\s*;", re.S)
_FIELD = re.compile(r"field\s*\{(.*?)\}\s*([A-Z0-9_]+)\s*\[(\d+):(\d+)\]\s*;", re.S)
_ENUM = re.compile(r"enum\s+([A-Za-z0-9_]+)\s*\{(.*?)\}\s*;", re.S)
_ITEM = re.compile(r"([A-Za-z0-9_]+)\s*=\s*\d+'d(\d+)\s*;")
_PROP = re.compile(r"([a-z_]+)\s*=\s*([^;]+);")
_DESC = re.compile(r"([A-Z0-9_]+)->desc\s*=\s*\"(.*?)\"\s*;", re.S)


def _clean(text: str) -> str:
    lines = [ln.strip().lstrip("/").strip() for ln in text.splitlines()]
    return " ".join(ln for ln in lines if ln and not set(ln) <= set("/"))


def _unit(text: str, name: str) -> list[dict[str, Any]]:
    regs = []
    # nested braces: enums and fields sit inside reg { }; cut the file at each "}NAME @0x..;"
    body_start = 0
    for m in re.finditer(r"\}\s*([A-Z0-9_]+)\s*@\s*(0x[0-9a-fA-F]+)\s*;", text):
        chunk = text[body_start:m.start()]
        body_start = m.end()
        rname, offset = m.group(1), int(m.group(2), 16)
        chunk = chunk[chunk.index("reg {") + 5:] if "reg {" in chunk else chunk
        enums = {e.group(1): {k: int(v) for k, v in _ITEM.findall(e.group(2))} for e in _ENUM.finditer(chunk)}
        descs = {d.group(1): _clean(d.group(2)) for d in _DESC.finditer(chunk)}
        fields = []
        for f in _FIELD.finditer(chunk):
            props = {k: v.strip() for k, v in _PROP.findall(f.group(1))}
            fname, msb, lsb = f.group(2), int(f.group(3)), int(f.group(4))
            out: dict[str, Any] = {"name": fname, "msb": msb, "lsb": lsb,
                                   "access": ACCESS[props["spec_access"]], "reset": int(props["reset"], 16)}
            if "encode" in props:
                out["enum"] = enums[props["encode"]]
            if descs.get(fname):
                out["desc"] = descs[fname]
            note = CONST_ONE.get((name, rname, fname))
            if note:
                out.update(access="RO-const", reset=1, note=note)
            fields.append(out)
        accesses = {f["access"] for f in fields}
        access = accesses.pop() if len(accesses) == 1 else "RW(mixed RO fields)"
        reg: dict[str, Any] = {"name": rname, "offset": offset,
                               "group": "dual" if rname.startswith("D_") else "single",
                               "access": access, "fields": sorted(fields, key=lambda f: f["lsb"])}
        if rname in STAT_LATCH.get(name, ()):
            reg["stat"] = "latch"
        regs.append(reg)
    return regs


def main(argv: list[str]) -> int:
    folder, names = Path(argv[1]), argv[2:]
    rm = json.loads(OUT.read_text())
    have = [u["name"] for u in rm["units"]]
    for name in names:
        unit = {"name": name, "registers": _unit((folder / f"NVDLA_{name}.rdl").read_text(), name)}
        if name in have:
            rm["units"][have.index(name)] = unit
        else:
            rm["units"].append(unit)
    OUT.write_text(json.dumps(rm, indent=1) + "\n")
    print(f"wrote {OUT}: {', '.join(names)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
