"""Random stimulus of the CDP datapath core bench (tb/tests/test_cdp_core.py), also used by the CDP and SDP
top-level layers: input cubes, input/output convertors aimed at the data, LUT configurations aimed at the
layer's LUT inputs."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
from numpy.typing import NDArray

from models.common.precision import as_signed
from models.lut.model import EXPONENT, LE_ENTRIES, LINEAR, LO_ENTRIES, LutConfig
from tb.stimulus.lut import random_slopes, random_table


def random_cube_data(rng: random.Random, w: int, h: int, c_pad: int,
                     bits: int = 8) -> NDArray[np.int8] | NDArray[np.int16]:
    """A cube of `bits`-bit elements (8: INT8, 16: INT16)."""
    nprng = np.random.default_rng(rng.getrandbits(32))
    kind = rng.choice(["uniform", "uniform", "small", "extremes"])
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    if kind == "small":
        small = 12 if bits == 8 else 300
        data = nprng.integers(-small, small + 1, size=(c_pad, h, w))
    elif kind == "extremes":
        data = nprng.choice([lo, lo + 1, -1, 0, 1, hi - 1, hi], size=(c_pad, h, w))
    else:
        data = nprng.integers(lo, hi + 1, size=(c_pad, h, w))
    return data.astype(np.int8 if bits == 8 else np.int16)


def _shift_for(rng: random.Random, magnitude: float, out_bits: int, max_shift: int) -> int:
    """A shift that brings `magnitude` to about out_bits bits, give or take, so some outputs saturate."""
    bits = max(int(magnitude), 1).bit_length()
    return max(0, min(max_shift, bits - out_bits + rng.randint(-1, 2)))


def input_convertor(rng: random.Random, bits: int = 8) -> dict[str, int]:
    """Input convertor fields for `bits`-bit elements (INT8: an int8 offset, INT16: int16)."""
    if bits == 8:
        offset = rng.choice([0, rng.randint(-128, 127), rng.randint(-8, 8)]) & 0xFF
        # the upper byte of DATIN_OFFSET is not used (int8): random junk there must change nothing
        offset |= rng.choice([0, 0, rng.randint(0, 0xFF)]) << 8
    else:
        offset = rng.choice([0, rng.randint(-32768, 32767), rng.randint(-8, 8)]) & 0xFFFF
    scale = rng.choice([1, rng.randint(1, 300), rng.randint(-300, -1), rng.randint(-32768, 32767)])
    if rng.random() < 0.8:
        shift = _shift_for(rng, (1 << bits) * abs(scale), bits + 1, 31)
    else:
        shift = rng.randint(0, 31)
    return {"D_DATIN_OFFSET.DATIN_OFFSET": offset, "D_DATIN_SCALE.DATIN_SCALE": scale & 0xFFFF,
            "D_DATIN_SHIFTER.DATIN_SHIFTER": shift}


def output_convertor(rng: random.Random, v: NDArray[np.int64], bits: int = 8) -> dict[str, int]:
    """Output convertor aimed at the layer's multiply results v: mostly in range, some saturating. `bits`:
    the output element's (INT8: a 25-bit offset, INT16: the whole 32-bit one)."""
    off_bits = 25 if bits == 8 else 32
    centre = int(np.median(v)) if v.size else 0
    offset = rng.choice([0, centre, rng.randint(-(1 << (off_bits - 1)), (1 << (off_bits - 1)) - 1)])
    raw_offset = offset & ((1 << off_bits) - 1)
    if bits == 8:
        # bits above the 25-bit offset are not used: random junk there must change nothing
        raw_offset |= rng.choice([0, 0, rng.randint(0, 0x7F)]) << 25
    scale = rng.choice([1, rng.randint(1, 2000), rng.randint(-2000, -1), rng.randint(-32768, 32767)])
    spread = float(np.percentile(np.abs(v - as_signed(offset, off_bits)), 90)) if v.size else 1.0
    if rng.random() < 0.85:
        shift = _shift_for(rng, spread * abs(scale), bits, 63)
    else:
        shift = rng.randint(0, 63)
    return {"D_DATOUT_OFFSET.DATOUT_OFFSET": raw_offset, "D_DATOUT_SCALE.DATOUT_SCALE": scale & 0xFFFF,
            "D_DATOUT_SHIFTER.DATOUT_SHIFTER": shift}


def aimed_lut(rng: random.Random, values: NDArray[np.int64], precision: str = "INT8") -> LutConfig:
    """A random LUT whose tables sit on the layer's LUT inputs, so hits and every flow case occur. The
    index selects stay in the precision's Limitation range (INT16: short of it, so that the tables' ends
    fit the 38-bit registers above the square sums of int16 data, < 2^35.2)."""
    lo_max, le_max, off_max = (13, 15, 6) if precision == "INT8" else (27, 29, 30)
    lo_v, hi_v = (int(np.percentile(values, q)) for q in (rng.choice([0, 5, 20]), rng.choice([60, 90, 100])))
    span = max(hi_v - lo_v, 1)
    lo_sel = max(-8, min(lo_max, span.bit_length() - 8 + rng.randint(-1, 1)))
    lo_start = lo_v + rng.randint(-span // 4, span // 4)
    common = dict(unit="CDP", lo_index_select=lo_sel, lo_start=lo_start,
                  lo_end=lo_start + (1 << (lo_sel + 8)),
                  uflow_priority=rng.randint(0, 1), oflow_priority=rng.randint(0, 1),
                  hybrid_priority=rng.randint(0, 1), le=random_table(rng, LE_ENTRIES),
                  lo=random_table(rng, LO_ENTRIES))
    slopes = random_slopes(rng)
    if rng.random() < 0.5:
        le_sel = max(-6, min(le_max, span.bit_length() - 6 + rng.randint(-2, 1)))
        le_start = lo_v + rng.randint(-span // 2, span // 2)
        return LutConfig(le_function=LINEAR, le_index_select=le_sel, le_start=le_start,
                         le_end=le_start + (1 << (le_sel + 6)), **common, **slopes)
    offset = rng.randint(-3, off_max)
    le_start = lo_v - rng.randint(0, 1 << max(offset, 0))
    return LutConfig(le_function=EXPONENT, le_index_offset=offset, le_index_select=rng.randint(-128, 127),
                     le_start=le_start, le_end=le_start + rng.choice([span, 1 << 20, 1 << 36]),
                     **common, **slopes)


def narrow_lut(rng: random.Random, values: NDArray[np.int64]) -> LutConfig:
    """Both tables (LE linear) inside the middle half of the layer's LUT inputs: the inputs below
    underflow both, those above overflow both, the middle ones hit."""
    lo_v, hi_v = (int(np.percentile(values, q)) for q in (25, 75))
    span = max(hi_v - lo_v, 1)
    lo_sel, le_sel = max(-8, span.bit_length() - 9), max(-6, span.bit_length() - 7)
    return linear_lut(rng, lo_v, le_sel, lo_v, lo_sel)


def linear_lut(rng: random.Random, le_start: int, le_sel: int, lo_start: int, lo_sel: int) -> LutConfig:
    """A CDP LUT with a linear LE table: the tables start where given and span what their index selects
    give; priorities, table entries and slopes random."""
    slopes = random_slopes(rng)
    return LutConfig(unit="CDP", le_function=LINEAR, le_index_select=le_sel, le_start=le_start,
                     le_end=le_start + (1 << (le_sel + 6)), lo_index_select=lo_sel, lo_start=lo_start,
                     lo_end=lo_start + (1 << (lo_sel + 8)), uflow_priority=rng.randint(0, 1),
                     oflow_priority=rng.randint(0, 1), hybrid_priority=rng.randint(0, 1),
                     le=random_table(rng, LE_ENTRIES), lo=random_table(rng, LO_ENTRIES), **slopes)


def atom_order(w: int, h: int, surfaces: int, chunk: int) -> Iterator[tuple[int, int, int]]:
    """(line, surface, column) of every atom in the contract's order."""
    for y in range(h):
        for x0 in range(0, w, chunk):
            for s in range(surfaces):
                for x in range(x0, min(x0 + chunk, w)):
                    yield y, s, x
