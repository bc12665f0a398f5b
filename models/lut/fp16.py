"""NVDLA's hybrid LUT at FP16 (seed 000: START/END are FP32, entries and slopes FP16): index computation and
interpolation as NVIDIA's nv_full RTL does them (nvdlav1 vmod/nvdla/cdp NV_NVDLA_CDP_DP_LUT_CTRL_unit.v,
NV_NVDLA_CDP_DP_lut.v, NV_NVDLA_CDP_DP_intp.v, NV_NVDLA_CDP_DP_INTP_unit.v; the float units are NVIDIA's
HLS ones, models/common/nvfloat.py). Table choice and the five counters are the integer LUT's
(models/lut/model.py).

Index, per table, on the FP32 input x (d = x - START, an FP32 subtraction):
- d NaN, +0 or negative (sign bit set, -0 too) underflows;
- linear: index = floor(d / 2^SELECT), the fraction the next 16 bits below it, both exact (the RTL shifts
  d's fixed-point value); index >= entries - 1 overflows;
- exponential (LE only): index = (d's unbiased exponent) - LE_INDEX_OFFSET, < 0 underflows; the fraction is
  d's mantissa bits [22:7].
Output (FP17), the chosen table's (T: the FP16 entries):
- hit:  T[i] + fp17(fp32(T[i+1]) - fp32(T[i])) * fp17(fraction / 2^16)      (FP17 multiply and add)
- flow: T[0|last] + fp17(x - P) * fp17(SCALE)     (SCALE the FP16 slope; SHIFT is not used at FP16)
P is END on overflow, START on underflow, except that an exponential LE table measures its underflow from
START + 2^LE_INDEX_OFFSET (an FP32 add; offset -127 and -128 count as 0).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from models.common import nvfloat
from models.common.nvfloat import FP17, FP32
from models.lut.model import (
    EXPONENT,
    HIT,
    LE_ENTRIES,
    LO_ENTRIES,
    OFLOW,
    UFLOW,
    LutConfig,
    LutResult,
    Side,
    choose_lo,
    count_states,
    state_of,
)

Bits = NDArray[np.int64]
FP17_ONE = 0x7C00
SDP_FRAC = 35
# The fraction's width: CDP's LUT control keeps 16 bits, SDP's (sdp_y_idx) 35.
FRAC_BITS = {"CDP": 16, "SDP": 35}


def fp32_bits(value: float) -> int:
    """The FP32 bit pattern of a Python float (nearest, as numpy rounds)."""
    return int(np.float32(value).view(np.uint32))


def fp32_value(bits: int) -> float:
    return float(np.uint32(bits & 0xFFFFFFFF).view(np.float32))


def _underflows(d: Bits) -> NDArray[np.bool_]:
    """d NaN, +0, or sign bit set (-0 and negatives)."""
    return FP32.is_nan(d) | (d == 0) | (((d >> 31) & 1) == 1)


def _linear(d: Bits, select: int, entries: int, frac_bits: int) -> Side:
    """floor(d / 2^select) and the frac_bits fraction bits below it, exactly (d = mant24 x 2^(expo - 150));
    SDP's FpFloatToIntFrac saturates the index at 511, which overflows all the same."""
    uflow = _underflows(d)
    _s, e, m = FP32.split(d)
    mant = m | (1 << FP32.mant)
    right = 150 - e + select            # d / 2^select = mant >> right
    r = np.clip(right, 0, 63)
    index = np.where(right <= 0, np.minimum(mant, 1 << 30) << np.clip(-right, 0, 30), mant >> r)
    below = mant & ((np.int64(1) << r) - 1)
    frac = np.where(right <= frac_bits, below << np.clip(frac_bits - right, 0, frac_bits),
                    below >> np.clip(right - frac_bits, 0, 63))
    frac = np.where(right <= 0, 0, frac)
    oflow = ~uflow & (index >= entries - 1)
    return Side(state_of(uflow, oflow), np.where(uflow, 0, index), np.where(uflow, 0, frac))


def _exponent(d: Bits, offset: int, entries: int, frac_bits: int) -> Side:
    under = _underflows(d)
    _s, e, m = FP32.split(d)
    log2 = e - FP32.bias
    uflow = under | (log2 < offset)
    index = log2 - offset
    oflow = ~uflow & (index >= entries - 1)
    frac = m >> (FP32.mant - frac_bits) if frac_bits <= FP32.mant else m << (frac_bits - FP32.mant)
    return Side(state_of(uflow, oflow), np.where(uflow, 0, index), frac)


def _exp_start(cfg: LutConfig) -> int:
    """START + 2^LE_INDEX_OFFSET, where an exponential LE table's entry 0 sits: an FP32 add of the power of
    two (its exponent field offset + 127, 8 bits) and START, in the unit's operand order (CDP's intp: the
    power first, offsets -127 and -128 as 0; SDP's Y_lut: START first)."""
    off = cfg.le_index_offset
    two = ((off + FP32.bias) & 0xFF) << FP32.mant
    if cfg.unit == "CDP":
        two = 0 if off in (-128, -127) else two
        return int(nvfloat.add(FP32, two, cfg.le_start & 0xFFFFFFFF))
    return int(nvfloat.add(FP32, cfg.le_start & 0xFFFFFFFF, two))


@dataclass(frozen=True)
class _Table:
    entries: NDArray[np.int64]
    start: int
    end: int
    uflow_scale: int
    oflow_scale: int


def _tables(cfg: LutConfig) -> tuple[_Table, _Table]:
    le_start = _exp_start(cfg) if cfg.le_function == EXPONENT else cfg.le_start
    le = _Table(cfg.le.astype(np.int64) & 0xFFFF, le_start & 0xFFFFFFFF, cfg.le_end & 0xFFFFFFFF,
                cfg.le_uflow_scale & 0xFFFF, cfg.le_oflow_scale & 0xFFFF)
    lo = _Table(cfg.lo.astype(np.int64) & 0xFFFF, cfg.lo_start & 0xFFFFFFFF, cfg.lo_end & 0xFFFFFFFF,
                cfg.lo_uflow_scale & 0xFFFF, cfg.lo_oflow_scale & 0xFFFF)
    return le, lo


def _output(x: Bits, side: Side, t: _Table, unit: str) -> Bits:
    """One table's FP17 output for every element (hit: interpolation; flow: the slope from its anchor)."""
    last = t.entries.size - 1
    i = np.clip(side.index, 0, last)
    y0 = t.entries[np.where(side.state == OFLOW, last, np.where(side.state == UFLOW, 0, i))]
    y1 = t.entries[np.minimum(i + 1, last)]
    hit = side.state == HIT
    anchor = np.where(side.state == OFLOW, t.end, t.start)
    slope = nvfloat.fp16_to_fp17(np.where(side.state == OFLOW, t.oflow_scale, t.uflow_scale))
    slope_term = nvfloat.mul(FP17, nvfloat.fp32_to_fp17(nvfloat.sub(FP32, x, anchor)), slope)
    y0_17 = nvfloat.fp16_to_fp17(y0)
    if unit == "SDP":
        # sdp_y_inp: (1 - f) y0 + f y1 with both weights FP17 fractions; a flow adds y0 first
        frac = side.fraction
        rest = nvfloat.fraction_to_fp17((np.int64(1) << SDP_FRAC) - frac, SDP_FRAC)
        a0 = np.where(frac == 0, FP17_ONE, rest)
        a1 = nvfloat.fraction_to_fp17(frac, SDP_FRAC)
        y1_17 = nvfloat.fp16_to_fp17(y1)
        inner = nvfloat.add(FP17, nvfloat.mul(FP17, a0, y0_17), nvfloat.mul(FP17, a1, y1_17))
        return np.where(hit, inner, nvfloat.add(FP17, y0_17, slope_term))
    # CDP's intp: y0 + (y1 - y0) f, the difference an FP32 subtraction; a flow adds y0 last
    diff = nvfloat.sub(FP32, nvfloat.fp16_to_fp32(y1), nvfloat.fp16_to_fp32(y0))
    inner = nvfloat.mul(FP17, nvfloat.fp32_to_fp17(diff), nvfloat.uint16_to_fp17(side.fraction))
    return nvfloat.add(FP17, np.where(hit, inner, slope_term), y0_17)


def lookup_fp16(x: Bits, cfg: LutConfig) -> LutResult:
    """The LUT at FP16 on FP32 inputs (bit patterns): FP17 outputs (SDP's Y block widens them to FP32) and
    the counts as the unit counts them (models/lut/model.py)."""
    shape = np.shape(x)
    flat = np.asarray(x, dtype=np.int64).reshape(-1) & 0xFFFFFFFF
    fb = FRAC_BITS[cfg.unit]
    le_t, lo_t = _tables(cfg)
    d_le = nvfloat.sub(FP32, flat, cfg.le_start & 0xFFFFFFFF)
    le = (_exponent(d_le, cfg.le_index_offset, LE_ENTRIES, fb) if cfg.le_function == EXPONENT
          else _linear(d_le, cfg.le_index_select, LE_ENTRIES, fb))
    lo = _linear(nvfloat.sub(FP32, flat, cfg.lo_start & 0xFFFFFFFF), cfg.lo_index_select, LO_ENTRIES, fb)
    take_lo = choose_lo(le, lo, cfg)
    out = np.where(take_lo, _output(flat, lo, lo_t, cfg.unit), _output(flat, le, le_t, cfg.unit))
    state = np.where(take_lo, lo.state, le.state)
    index = np.where(take_lo, lo.index, le.index)
    fraction = np.where(take_lo, lo.fraction, le.fraction)
    le_hit, lo_hit, n_u, n_o, n_h = count_states(le, lo, state, cfg)
    return LutResult(
        output=out.reshape(shape), table=take_lo.view(np.int8).reshape(shape),
        index=index.reshape(shape), fraction=np.where(state == HIT, fraction, 0).reshape(shape),
        uflow=(state == UFLOW).reshape(shape), oflow=(state == OFLOW).reshape(shape),
        le_state=le.state.reshape(shape), lo_state=lo.state.reshape(shape),
        le_hit=le_hit, lo_hit=lo_hit, uflow_count=n_u, oflow_count=n_o, hybrid=n_h,
    )


def cdp_lookup_fp16(x: Bits, cfg: LutConfig) -> LutResult:
    """CDP's LUT at FP16 (FP17 outputs)."""
    return lookup_fp16(x, cfg)
