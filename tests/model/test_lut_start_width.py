"""How CDP's LUT forms x - START for its index, per lane (models/lut/model.py FULL / NARROW / PAIRED_LOW;
NVIDIA's
NV_NVDLA_CDP_DP_LUT_CTRL_unit.v, branches nv_small and nvdlav1; docs/lut.md "START width"), hand-computed,
and which lanes a CDP layer gets (models/cdp/model.py lut_lanes)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from models.cdp.model import INT8, INT16, CdpConfig, lut_lanes
from models.lut.model import (
    EXPONENT,
    FULL,
    HIT,
    LINEAR,
    NARROW,
    OFLOW,
    PAIRED_LOW,
    UFLOW,
    LutConfig,
    lut_lookup,
)

RAMP_LE = np.arange(65) * 10
RAMP_LO = np.arange(257) * 3


def cfg_of(**kw: Any) -> LutConfig:
    base: dict[str, Any] = dict(unit="CDP", le_function=LINEAR, le_start=1000, le_end=1064, lo_start=0,
                                lo_end=256, le=RAMP_LE, lo=RAMP_LO)
    base.update(kw)
    return LutConfig(**base)


def states(x: int, cfg: LutConfig, kind: int) -> tuple[int, int, int, int]:
    """(LE state, LE index, LO state, LO index) of one sample in a lane of `kind`."""
    r = lut_lookup(np.array([x]), cfg, kind)
    le_index = int(r.index[0]) if int(r.table[0]) == 0 else -1
    lo_index = int(r.index[0]) if int(r.table[0]) == 1 else -1
    return int(r.le_state[0]), le_index, int(r.lo_state[0]), lo_index


def test_narrow_lanes_read_start_bits_21_to_0() -> None:
    # LE START = 5 * 2^22 + 100: the whole register is far above x = 110 (underflow), bits [21:0] are 100:
    # a NARROW lane hits at index (110 - 100) >> 0 = 10.
    start = (5 << 22) + 100
    cfg = cfg_of(le_start=start, le_end=start + 64, lo_start=-(1 << 30), lo_end=-(1 << 30) + 256)
    assert states(110, cfg, FULL)[0] == UFLOW
    assert states(110, cfg, NARROW)[:2] == (HIT, 10)
    # bit 21 is the narrow START's sign: 0x3FFF9C is -100, so x = -90 hits at 10 there too
    neg = (3 << 22) + 0x3FFF9C
    cfg = cfg_of(le_start=neg, le_end=neg + 64, lo_start=-(1 << 30), lo_end=-(1 << 30) + 256)
    assert states(-90, cfg, NARROW)[:2] == (HIT, 10)


def test_x_equal_to_start_underflows_in_every_lane() -> None:
    cfg = cfg_of(le_start=(7 << 22) + 50, le_end=(7 << 22) + 114)
    assert states(50, cfg, NARROW)[0] == UFLOW
    cfg = cfg_of(le_start=50, le_end=114)
    assert states(50, cfg, FULL)[0] == states(50, cfg, PAIRED_LOW)[0] == UFLOW


def test_paired_low_lanes_keep_23_bits_of_the_le_difference() -> None:
    # START = -(2^23) - 5: d = x + 2^23 + 5 overflows a FULL lane; a PAIRED_LOW lane indexes with d mod 2^23
    # = x + 5 (x = 20: index 25). LO far away.
    start = -(1 << 23) - 5
    cfg = cfg_of(le_start=start, le_end=start + 64, lo_start=1 << 30, lo_end=(1 << 30) + 256)
    assert states(20, cfg, FULL)[0] == OFLOW
    assert states(20, cfg, PAIRED_LOW)[:2] == (HIT, 25)
    # a difference of exactly 2^23 keeps 0: index 0, a hit (not an underflow)
    assert states(5, cfg_of(le_start=5 - (1 << 23), le_end=69 - (1 << 23), lo_start=1 << 30,
                            lo_end=(1 << 30) + 256), PAIRED_LOW)[:2] == (HIT, 0)


def test_paired_low_lanes_keep_22_bits_of_the_lo_difference() -> None:
    start = -(1 << 22) - 9
    cfg = cfg_of(le_start=1 << 30, le_end=(1 << 30) + 64, lo_start=start, lo_end=start + 256)
    assert states(30, cfg, FULL)[2] == OFLOW
    le, _, lo, lo_index = states(30, cfg, PAIRED_LOW)
    assert (le, lo, lo_index) == (UFLOW, HIT, 39)


def test_paired_low_exponent_reads_the_whole_difference() -> None:
    # exponential LE, offset 0, START = -2^30: d = x + 2^30 has its leading one at bit 30 (index 30) in a
    # FULL or PAIRED_LOW lane; a NARROW lane reads START[21:0] = 0 and finds log2(x) = 5 for x = 40.
    cfg = cfg_of(le_function=EXPONENT, le_index_offset=0, le_start=-(1 << 30), le_end=0x7FFFFFFF,
                 lo_start=1 << 30, lo_end=(1 << 30) + 256)
    assert states(40, cfg, FULL)[:2] == states(40, cfg, PAIRED_LOW)[:2] == (HIT, 30)
    assert states(40, cfg, NARROW)[:2] == (HIT, 5)


def test_underflow_slope_measures_from_the_whole_start() -> None:
    # NARROW lane, x below START[21:0] = 100: LE underflows and extrapolates from the whole START
    # (2^22 + 100): T[0] + (x - START) * scale >> shift = 0 + (90 - 4194404) * 1 >> 8 -> saturated -32768;
    # measured from 100 it would be (90 - 100) >> 8 = 0. LO underflows too (its START, 2^21 - 1000, is a
    # positive 22-bit number above x), and UFLOW_PRIORITY 0 takes LE.
    start = (1 << 22) + 100
    lo = (1 << 21) - 1000
    cfg = cfg_of(le_start=start, le_end=start + 64, le_uflow_scale=1, le_uflow_shift=8,
                 lo_start=lo, lo_end=lo + 256, uflow_priority=0)
    r = lut_lookup(np.array([90]), cfg, NARROW)
    assert int(r.le_state[0]) == UFLOW and int(r.output[0]) == -16384


def test_exponent_edge_of_nv_small_end_near_2_31() -> None:
    # seed 001's exponential rule END - START = 2^(offset + 64) with END = 0x7fffffff and offset -40 puts
    # START at 0x7effffff, whose bits [21:0] (0x3fffff) are -1: a NARROW lane sees d = x + 1 and hits (index
    # log2(x + 1) + 40 = 45 for x = 40, below 64), a FULL lane underflows (x far below START).
    start = 0x7FFFFFFF - (1 << 24)
    cfg = cfg_of(le_function=EXPONENT, le_index_offset=-40, le_start=start, le_end=0x7FFFFFFF,
                 lo_start=1 << 30, lo_end=(1 << 30) + 256)
    assert states(40, cfg, FULL)[0] == UFLOW
    assert states(40, cfg, NARROW)[:2] == (HIT, 45)


@pytest.mark.parametrize(("precision", "int8_lut", "expected"), [
    (INT8, "narrow", [NARROW] * 4), (INT8, "paired", [PAIRED_LOW, NARROW] * 2),
    (INT16, "paired", [FULL] * 4), (INT16, "narrow", [FULL] * 4),
])
def test_cdp_lanes_follow_the_configuration(precision: int, int8_lut: str, expected: list[int]) -> None:
    cfg = CdpConfig(width=1, height=1, channels=4, src_base=0, src_line_stride=0, src_surface_stride=0,
                    dst_base=0, dst_line_stride=0, dst_surface_stride=0, local_size=3, sqsum_bypass=False,
                    mul_bypass=False, datin_offset=0, datin_scale=1, datin_shifter=0, datout_offset=0,
                    datout_scale=1, datout_shifter=0, lut=cfg_of(), precision=precision, int8_lut=int8_lut)
    assert lut_lanes(cfg, 4).reshape(-1).tolist() == expected
