"""The S_LUT_* registers of a LUT, for either unit: its fields and the writes that load its tables.

One implementation for the CDP and SDP drivers, the LUT helper (models/lut/program.py) and the benches. The
units differ only in START/END: a 38-bit value in LOW[31:0] + HIGH[5:0] registers on CDP, one 32-bit
register on SDP (models.lut.model.INPUT_BITS); the rest of the S_LUT_* layout is the same (seed 000).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from models import registers
from models.lut.model import INPUT_BITS, LutConfig
from models.steps import RegWrite

TABLE_IDS = {"LE": 0, "LO": 1}      # S_LUT_ACCESS_CFG.LUT_TABLE_ID
LUT_WRITE = 1                       # S_LUT_ACCESS_CFG.LUT_ACCESS_TYPE: write


def wide_fields(unit: str, reg: str, value: int) -> dict[str, int]:
    """The field(s) of a START/END register `reg` ("LE_START", ...) holding `value` in two's complement."""
    raw = value & ((1 << INPUT_BITS[unit]) - 1)
    if unit == "SDP":
        return {f"S_LUT_{reg}.LUT_{reg}": raw}
    return {f"S_LUT_{reg}_LOW.LUT_{reg}_LOW": raw & 0xFFFFFFFF, f"S_LUT_{reg}_HIGH.LUT_{reg}_HIGH": raw >> 32}


def lut_fields(cfg: LutConfig) -> dict[str, int]:
    """Every S_LUT_* register field (unsigned, as stored) of a LutConfig of its unit (cfg.unit), signed
    values in two's complement."""
    f = {"S_LUT_CFG.LUT_LE_FUNCTION": cfg.le_function, "S_LUT_CFG.LUT_UFLOW_PRIORITY": cfg.uflow_priority,
         "S_LUT_CFG.LUT_OFLOW_PRIORITY": cfg.oflow_priority,
         "S_LUT_CFG.LUT_HYBRID_PRIORITY": cfg.hybrid_priority,
         "S_LUT_INFO.LUT_LE_INDEX_OFFSET": cfg.le_index_offset & 0xFF,
         "S_LUT_INFO.LUT_LE_INDEX_SELECT": cfg.le_index_select & 0xFF,
         "S_LUT_INFO.LUT_LO_INDEX_SELECT": cfg.lo_index_select & 0xFF}
    for reg in ("LE_START", "LE_END", "LO_START", "LO_END"):
        f.update(wide_fields(cfg.unit, reg, getattr(cfg, reg.lower())))
    for table in ("LE", "LO"):
        for flow in ("UFLOW", "OFLOW"):
            name, reg = f"{table.lower()}_{flow.lower()}", f"S_LUT_{table}_SLOPE"
            f[f"{reg}_SCALE.LUT_{table}_SLOPE_{flow}_SCALE"] = getattr(cfg, f"{name}_scale") & 0xFFFF
            f[f"{reg}_SHIFT.LUT_{table}_SLOPE_{flow}_SHIFT"] = getattr(cfg, f"{name}_shift") & 0x1F
    return f


def table_writes(unit: str, le: Sequence[int] | ArrayLike,
                 lo: Sequence[int] | ArrayLike) -> list[tuple[str, int]]:
    """(register, value) writes that load both tables through the access port, LE then LO as the KMD's
    update_lut does: CFG (table, WRITE, address 0), then one DATA write per entry (the pointer advances by
    itself on both units)."""
    writes: list[tuple[str, int]] = []
    for name, table in (("LE", le), ("LO", lo)):
        cfg = registers.encode_fields(unit, {"S_LUT_ACCESS_CFG.LUT_ADDR": 0,
                                             "S_LUT_ACCESS_CFG.LUT_TABLE_ID": TABLE_IDS[name],
                                             "S_LUT_ACCESS_CFG.LUT_ACCESS_TYPE": LUT_WRITE})
        writes.append(("S_LUT_ACCESS_CFG", cfg["S_LUT_ACCESS_CFG"]))
        writes.extend(("S_LUT_ACCESS_DATA", int(v) & 0xFFFF) for v in np.asarray(table).tolist())
    return writes


def lut_writes(lut: LutConfig) -> list[RegWrite]:
    """table_writes of a LutConfig's tables as the drivers' RegWrite."""
    return [RegWrite(lut.unit, reg, value) for reg, value in table_writes(lut.unit, lut.le, lut.lo)]
