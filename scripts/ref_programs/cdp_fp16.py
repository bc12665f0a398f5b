"""Random CDP (LRN) programs at FP16: local sizes 3..9, square sum and multiplier bypasses, NaN flush, a
random LUT at FP16 (linear or exponential LE table, LO table, FP32 starts placed where the square sums fall,
FP16 entries and slopes, priorities), random convertor registers (FP16 ignores them). Inputs are FP16 numbers
around a random power of two, some with NaNs, infinities, subnormals and the largest finite values. Every
program runs a second layer, the top left part of the first from the other register group, and reads back
the saturation, LUT, NaN and infinity counters after each. A draw the driver refuses is drawn again."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from models.cdp.driver import CdpProgram, Convertor, cdp_layer
from models.cdp.model import cube_layouts
from models.errors import ConfigError
from models.lut.fp16 import fp32_bits
from models.lut.model import EXPONENT, LE_ENTRIES, LINEAR, LO_ENTRIES, LutConfig
from scripts.ref_programs.common import FP16_SPECIALS, Program, extent, surface

_MAX_ATOMS = 64
# D_NAN_OUTPUT_NUM is not read: NVIDIA's RTL counts lanes that depend on timing there (models/cdp/fp16.py)
READS = tuple(("CDP", r) for r in ("D_OUT_SATURATION", "D_PERF_LUT_UFLOW", "D_PERF_LUT_OFLOW",
                                   "D_PERF_LUT_HYBRID", "D_PERF_LUT_LE_HIT", "D_PERF_LUT_LO_HIT",
                                   "D_NAN_INPUT_NUM", "D_INF_INPUT_NUM"))
_FP32_MAX = float(np.finfo(np.float32).max)


def fp16_values(rng: np.random.Generator, n: int, log2_scale: float, specials: float) -> NDArray[np.int64]:
    """n FP16 bit patterns: normal numbers times 2^log2_scale (a few octaves either way), a `specials` share
    of FP16_SPECIALS."""
    spread = rng.standard_normal(n) * 2.0 ** (log2_scale + rng.uniform(-3, 3, size=n))
    bits = spread.astype(np.float16).view(np.uint16).astype(np.int64)
    special = rng.random(n) < specials
    bits[special] = rng.choice(np.array(FP16_SPECIALS, dtype=np.int64), size=int(special.sum()))
    return bits


def _table(rng: np.random.Generator, n: int) -> NDArray[np.int64]:
    """n FP16 entries: a smooth random curve (LRN tables are), sometimes with a few special values."""
    curve = np.cumsum(rng.standard_normal(n)) * 2.0 ** rng.uniform(-6, 2) + rng.standard_normal() * 4
    bits = curve.astype(np.float16).view(np.uint16).astype(np.int64)
    if rng.random() < 0.2:
        pick = rng.integers(0, n, size=int(rng.integers(1, 4)))
        bits[pick] = rng.choice(np.array(FP16_SPECIALS, dtype=np.int64), size=pick.size)
    return bits


def _slope(rng: np.random.Generator) -> int:
    if rng.random() < 0.1:
        return 0
    return int(np.float16(rng.standard_normal() * 2.0 ** rng.uniform(-12, 4)).view(np.uint16))


def _linear_start(rng: np.random.Generator, select: int, steps: int) -> tuple[int, int]:
    """(START, END) FP32 bits of a linear table of 2^steps entries of 2^select, starting at a multiple of
    2^select a little below the data (START + 2^(select+steps) exact in FP32, as seed 001 asks)."""
    k = 0 if rng.random() < 0.3 else int(rng.integers(-(1 << (steps - 1)), 1 << (steps - 2)))
    start = k * 2.0 ** select
    return fp32_bits(start), fp32_bits(start + 2.0 ** (select + steps))


def _lut(rng: np.random.Generator, log2_in: float) -> LutConfig:
    """A random FP16 LUT for LUT inputs of about 2^log2_in."""
    exponent = rng.random() < 0.4
    le_sel = int(np.clip(round(log2_in) - 6 + rng.integers(-3, 3), -128, 121))
    lo_sel = int(np.clip(round(log2_in) - 8 + rng.integers(-3, 3), -128, 119))
    lo_start, lo_end = _linear_start(rng, lo_sel, 8)
    if exponent:
        offset = int(np.clip(round(log2_in) - rng.integers(0, 24), -126, 127))
        start = 0.0 if rng.random() < 0.5 else -float(2.0 ** (offset + rng.integers(-2, 2)))
        le_start = fp32_bits(start)
        le_end = fp32_bits(min(start + 2.0 ** (offset + 64), _FP32_MAX))
    else:
        le_start, le_end = _linear_start(rng, le_sel, 6)
        offset = int(rng.integers(-126, 128)) if rng.random() < 0.2 else 0
    return LutConfig(
        le_function=EXPONENT if exponent else LINEAR, le_index_offset=offset,
        le_index_select=le_sel, lo_index_select=lo_sel, le_start=le_start, le_end=le_end,
        lo_start=lo_start, lo_end=lo_end,
        le_uflow_scale=_slope(rng), le_uflow_shift=int(rng.integers(-16, 16)),
        le_oflow_scale=_slope(rng), le_oflow_shift=int(rng.integers(-16, 16)),
        lo_uflow_scale=_slope(rng), lo_uflow_shift=int(rng.integers(-16, 16)),
        lo_oflow_scale=_slope(rng), lo_oflow_shift=int(rng.integers(-16, 16)),
        uflow_priority=int(rng.integers(0, 2)), oflow_priority=int(rng.integers(0, 2)),
        hybrid_priority=int(rng.integers(0, 2)), unit="CDP", precision="FP16",
        le=_table(rng, LE_ENTRIES), lo=_table(rng, LO_ENTRIES))


def _draw(rng: np.random.Generator, name: str) -> Program | None:
    width, height, channels = int(rng.integers(1, 9)), int(rng.integers(1, 7)), int(rng.integers(1, 49))
    if width * height * -(-channels // 16) > _MAX_ATOMS:
        return None
    local_size = int(rng.choice((3, 5, 7, 9)))
    sqsum_bypass, mul_bypass = bool(rng.random() < 0.15), bool(rng.random() < 0.2)
    log2_x = float(rng.uniform(-10, 10))
    log2_in = log2_x if sqsum_bypass else 2 * log2_x + np.log2(local_size)
    specials = float(rng.choice((0.0, 0.0, 0.02, 0.1)))
    nan_to_zero = bool(rng.random() < 0.3)
    datin = Convertor(int(rng.integers(-(1 << 15), 1 << 15)), int(rng.integers(-(1 << 15), 1 << 15)),
                      int(rng.integers(0, 32)))
    datout = Convertor(int(rng.integers(-(1 << 31), 1 << 31)), int(rng.integers(-(1 << 15), 1 << 15)),
                       int(rng.integers(0, 64)))
    lut = _lut(rng, log2_in)
    src = surface(rng, 0, width, height, cv=rng.random() < 0.15)
    dst = surface(rng, 1, width, height, cv=rng.random() < 0.15)
    def layer(w: int, h: int, group: int) -> CdpProgram:
        return cdp_layer(w, h, channels, local_size=local_size, sqsum_bypass=sqsum_bypass,
                         mul_bypass=mul_bypass, datin=datin, datout=datout, lut=lut, src=src, dst=dst,
                         precision="FP16", nan_to_zero=nan_to_zero, group=group, load_lut=group == 0)

    try:
        prog = layer(width, height, 0)
        # then the top left part of the same cube from the other register group: the same outputs there, other
        # counts (NVIDIA's RTL reports a layer's NaN and infinity counts at the end of the next one)
        again = layer(int(rng.integers(1, width + 1)), int(rng.integers(1, height + 1)), 1)
    except ConfigError:
        return None
    src_layout, dst_layout = cube_layouts(prog.config)
    base, size = extent(src_layout)
    data = fp16_values(rng, -(-size // 2), log2_x, specials).astype("<u2").view(np.uint8)[:size]
    about = {"unit": "CDP", "precision": "FP16", "cube": f"{width}x{height}x{channels}",
             "local_size": local_size, "sqsum_bypass": int(sqsum_bypass), "mul_bypass": int(mul_bypass),
             "nan_to_zero": int(nan_to_zero), "data": f"2^{log2_x:.1f}, specials {specials}",
             "lut": f"{'exponent' if lut.le_function == EXPONENT else 'linear'} "
                    f"le_select {lut.le_index_select} le_offset {lut.le_index_offset} "
                    f"lo_select {lut.lo_index_select}"}
    return Program(name, list(prog.writes), [(base, "input.dat", data)], extent(dst_layout), about,
                   list(READS), [list(again.writes)])


def cdp_fp16_program(rng: np.random.Generator, name: str) -> Program:
    """One legal random FP16 CDP program (draws until the driver accepts one)."""
    while True:
        prog = _draw(rng, name)
        if prog is not None:
            return prog
