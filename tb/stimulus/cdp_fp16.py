"""FP16 CDP (LRN) stimulus shared by the core and top benches: the layer's LUT inputs as the model forms them
(models/cdp/fp16.py steps 1-3) and FP16 LUTs for them: the LUT helper's FP16 programs (LRN, sigmoid) and
random LUTs placed where the layer's inputs fall (linear or exponential LE, a linear LO, START a multiple of
the step so END is exact in FP32, FP16 entries along a random smooth curve with an occasional special
value, random FP16 slopes and priorities), as scripts/ref_programs/cdp_fp16.py draws the nv_full programs.
"""

from __future__ import annotations

import functools
import math
import random

import numpy as np
from numpy.typing import NDArray

from models.cdp.fp16 import square_sum
from models.common import nvfloat
from models.common.nvfloat import FP16, FP32
from models.lut.fp16 import fp32_bits, fp32_value
from models.lut.fp16_program import lrn_fp16, sigmoid_fp16
from models.lut.model import EXPONENT, LE_ENTRIES, LINEAR, LO_ENTRIES, LutConfig
from models.lut.program import LutProgram
from tb.stimulus.fp16_values import FP16_SPECIALS

Bits = NDArray[np.int64]
FP32_MAX = float(np.finfo(np.float32).max)
FP16_LUT_KINDS = ("lrn fp16", "sigmoid fp16", "random fp16")


@functools.cache
def fp16_programs() -> dict[str, LutProgram]:
    """The LUT helper's CDP programs at FP16 (their search takes seconds: built once per simulation)."""
    return {"lrn fp16": lrn_fp16(), "sigmoid fp16": sigmoid_fp16(unit="CDP")}


def fp16_lut_inputs(cube: Bits, channels: int, local_size: int, sqsum_bypass: bool,
                    nan_to_zero: bool) -> Bits:
    """The FP32 LUT input of every element of a [c, h, w] cube of FP16 patterns (models/cdp/fp16.py 1-3)."""
    h = np.asarray(cube, dtype=np.int64) & 0xFFFF
    h = np.where(nan_to_zero & FP16.is_nan(h), 0, h)
    x17 = nvfloat.fp16_to_fp17(h)
    x17[channels:] = 0
    x32 = nvfloat.fp17_to_fp32(x17)
    return x32 if sqsum_bypass else square_sum(nvfloat.mul(FP32, x32, x32), local_size)


def _log2_typical(lut_in: Bits) -> float:
    """log2 of the median magnitude of the finite non-zero inputs (0 when there are none)."""
    flat = np.asarray(lut_in, dtype=np.int64).reshape(-1) & 0xFFFFFFFF
    values = np.abs(flat.astype(np.uint32).view(np.float32).astype(np.float64))
    values = values[np.isfinite(values) & (values > 0)]
    return float(np.log2(np.median(values))) if values.size else 0.0


def _table(rng: random.Random, n: int) -> NDArray[np.int16]:
    g = np.random.default_rng(rng.getrandbits(64))
    curve = np.cumsum(g.standard_normal(n)) * 2.0 ** g.uniform(-6, 2) + g.standard_normal() * 4
    bits = curve.astype(np.float16).view(np.uint16).astype(np.int64)
    if rng.random() < 0.2:
        for _ in range(rng.randint(1, 3)):
            bits[rng.randrange(n)] = rng.choice(FP16_SPECIALS)
    return bits.astype(np.uint16).view(np.int16)


def _slope(rng: random.Random) -> int:
    if rng.random() < 0.1:
        return 0
    return int(np.float16(rng.gauss(0, 1) * 2.0 ** rng.uniform(-12, 4)).view(np.uint16))


def _linear_range(rng: random.Random, select: int, steps: int) -> tuple[int, int]:
    """(START, END) of 2^steps entries of 2^select, START a multiple of 2^select a little below the data."""
    k = 0 if rng.random() < 0.3 else rng.randint(-(1 << (steps - 1)), (1 << (steps - 2)) - 1)
    start = k * 2.0 ** select
    return fp32_bits(start), fp32_bits(start + 2.0 ** (select + steps))


def random_fp16_lut(rng: random.Random, lut_in: Bits) -> LutConfig:
    """A random FP16 LUT around the layer's LUT inputs (FP32 bit patterns)."""
    log2_in = _log2_typical(lut_in)
    exponent = rng.random() < 0.4
    le_sel = int(np.clip(round(log2_in) - 6 + rng.randint(-3, 2), -128, 121))
    lo_sel = int(np.clip(round(log2_in) - 8 + rng.randint(-3, 2), -128, 119))
    lo_start, lo_end = _linear_range(rng, lo_sel, 8)
    if exponent:
        offset = int(np.clip(round(log2_in) - rng.randint(0, 23), -126, 127))
        start = 0.0 if rng.random() < 0.5 else -float(2.0 ** (offset + rng.randint(-2, 1)))
        le_start = fp32_bits(start)
        le_end = fp32_bits(min(start + 2.0 ** min(offset + 64, 127), FP32_MAX))
    else:
        le_start, le_end = _linear_range(rng, le_sel, 6)
        offset = rng.randint(-126, 127) if rng.random() < 0.2 else 0
    assert math.isfinite(fp32_value(le_end))
    return LutConfig(
        le_function=EXPONENT if exponent else LINEAR, le_index_offset=offset,
        le_index_select=le_sel, lo_index_select=lo_sel, le_start=le_start, le_end=le_end,
        lo_start=lo_start, lo_end=lo_end,
        le_uflow_scale=_slope(rng), le_uflow_shift=rng.randint(-16, 15),
        le_oflow_scale=_slope(rng), le_oflow_shift=rng.randint(-16, 15),
        lo_uflow_scale=_slope(rng), lo_uflow_shift=rng.randint(-16, 15),
        lo_oflow_scale=_slope(rng), lo_oflow_shift=rng.randint(-16, 15),
        uflow_priority=rng.randint(0, 1), oflow_priority=rng.randint(0, 1),
        hybrid_priority=rng.randint(0, 1), unit="CDP", precision="FP16",
        le=_table(rng, LE_ENTRIES), lo=_table(rng, LO_ENTRIES))


def fp16_lut(rng: random.Random, kind: str, lut_in: Bits) -> LutConfig:
    """The LUT of a kind of FP16_LUT_KINDS for a layer with these LUT inputs."""
    if kind in fp16_programs():
        return fp16_programs()[kind].lut_config()
    return random_fp16_lut(rng, lut_in)
