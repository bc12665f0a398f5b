"""models/lut/regs.py: the S_LUT_* fields and table writes shared by both drivers and the LUT helper."""

from __future__ import annotations

import numpy as np
import pytest

from models.lut.model import LE_ENTRIES, LO_ENTRIES, LutConfig, LutRam
from models.lut.regs import lut_fields, lut_writes, wide_fields


def test_wide_fields_two_complement_per_unit() -> None:
    # CDP: 38-bit START/END, -2 is 0x3f_ffff_fffe split into LOW and HIGH[5:0]; SDP: one 32-bit register
    assert wide_fields("CDP", "LE_START", -2) == {"S_LUT_LE_START_LOW.LUT_LE_START_LOW": 0xFFFFFFFE,
                                                  "S_LUT_LE_START_HIGH.LUT_LE_START_HIGH": 0x3F}
    assert wide_fields("CDP", "LO_END", 5 << 32 | 7) == {"S_LUT_LO_END_LOW.LUT_LO_END_LOW": 7,
                                                         "S_LUT_LO_END_HIGH.LUT_LO_END_HIGH": 5}
    assert wide_fields("SDP", "LE_END", -2) == {"S_LUT_LE_END.LUT_LE_END": 0xFFFFFFFE}


@pytest.mark.parametrize("unit", ["CDP", "SDP"])
def test_fields_and_writes_round_trip(unit: str) -> None:
    rng = np.random.default_rng(3)
    le = rng.integers(-32768, 32768, LE_ENTRIES)
    lo = rng.integers(-32768, 32768, LO_ENTRIES)
    lut = LutConfig(unit=unit, le_start=-300, le_end=-300 + 64, lo_start=-1000, lo_end=-1000 + 256,
                    le_uflow_scale=-5, le_uflow_shift=-3, lo_oflow_scale=7, lo_oflow_shift=4,
                    le_index_select=0, lo_index_select=0, hybrid_priority=1, le=le, lo=lo)
    assert LutConfig.from_fields({unit: lut_fields(lut)}, unit, (lut.le, lut.lo)) == lut
    ram = LutRam(saturating=unit == "CDP")
    for w_unit, reg, value in lut_writes(lut):
        assert w_unit == unit
        (ram.write_cfg if reg == "S_LUT_ACCESS_CFG" else ram.write_data)(value)
    assert all(np.array_equal(a, b) for a, b in zip(ram.tables(), (le, lo), strict=True))
