"""Random stimulus for the LUT at FP16 (models/lut/fp16.py): legal configurations over seed 001's FP16 rows
(models/lut/model.py validate: every LE/LO select and LE offset, FP32 START a multiple of the step, subnormal
starts included, END = START + 2^(select + 6|8) exactly), the LE often over the LO so that both tables hit
at once; FP16 tables and slopes with NaN, infinities, subnormals, zeros of both signs and the largest
values; FP32 samples aimed at the table bounds and entry boundaries (a few ULPs either side), spread over
the tables, and NaN, infinite, subnormal, huge and random patterns."""

from __future__ import annotations

import random

import numpy as np

from models.errors import ConfigError
from models.lut.fp16 import fp32_bits, fp32_value
from models.lut.model import EXPONENT, LE_ENTRIES, LINEAR, LO_ENTRIES, LutConfig, validate

FP16_SPECIALS = (0x0000, 0x8000, 0x7BFF, 0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0xFE55, 0x0001, 0x83FF,
                 0x0400, 0x3C00, 0xBC00)
FP32_SPECIALS = (0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001,
                 0x7F7FFFFF, 0xFF7FFFFF, 0x00800000, 0x80800000, 0x00000001, 0x807FFFFF, 0x3F800000)
LE_SELECT = (-128, 121)    # seed 001's FP16 rows (models/lut/model.py)
LO_SELECT = (-128, 119)
LE_OFFSET = (-126, 127)
FP32_MAX = float(np.finfo(np.float32).max)


def fp16_value(rng: random.Random) -> int:
    """An FP16 bit pattern: a special (NaN, infinity, subnormal, zero, largest) or a random magnitude."""
    if rng.random() < 0.15:
        return rng.choice(FP16_SPECIALS)
    if rng.random() < 0.1:
        return rng.getrandbits(16)
    v = np.float16(rng.choice((-1, 1)) * 2.0 ** rng.uniform(-16, 15))
    return int(v.view(np.uint16))


def fp16_table(rng: random.Random, n: int) -> np.ndarray:
    """n FP16 entries (as int16): a smooth random curve, random patterns, or either with specials."""
    if rng.random() < 0.2:
        bits = [rng.getrandbits(16) for _ in range(n)]
    else:
        scale = 2.0 ** rng.uniform(-8, 8)
        walk = np.cumsum([rng.gauss(0, 1) for _ in range(n)]) * scale + rng.gauss(0, 4) * scale
        with np.errstate(over="ignore"):
            bits = [int(b) for b in walk.astype(np.float16).view(np.uint16)]
    if rng.random() < 0.5:
        for _ in range(rng.randint(1, 8)):
            bits[rng.randrange(n)] = fp16_value(rng) if rng.random() < 0.5 else rng.choice(FP16_SPECIALS)
    return np.array(bits, dtype=np.int64).astype(np.uint16).view(np.int16)


def _select(rng: random.Random, lo: int, hi: int) -> int:
    r = rng.random()
    if r < 0.6:
        return rng.randint(max(lo, -30), min(hi, 30))
    if r < 0.8:
        return rng.choice((lo, lo + 1, lo + 2, hi, hi - 1, 0, -1))
    return rng.randint(lo, hi)


def _linear(rng: random.Random, select: int, steps: int, near: float | None) -> tuple[int, int]:
    """(START, END) FP32 bits: START = k 2^select (often near `near`), END = START + 2^(select + steps)."""
    step = 2.0 ** select
    q = near / step if near is not None else float("inf")
    if abs(q) < 1 << 24 and rng.random() < 0.7:
        k = int(np.floor(q)) + rng.randint(-(1 << steps) // 2, 1 << steps)
    else:
        k = rng.choice((0, 0, rng.randint(-(1 << steps), 1 << steps), rng.randint(-(1 << 23), (1 << 23) - 1)))
    k = max(-(1 << 24) + (1 << steps), min(k, (1 << 24) - (1 << steps)))
    start = k * step
    with np.errstate(over="ignore"):   # past FP32's range: validate refuses the draw
        return fp32_bits(start), fp32_bits(start + 2.0 ** (select + steps))


def random_fp16_config(unit: str, rng: random.Random) -> LutConfig:
    """A legal FP16 LUT configuration of `unit` (drawn again until models/lut/model.py validate accepts
    it)."""
    while True:
        lo_sel = _select(rng, *LO_SELECT)
        lo_start, lo_end = _linear(rng, lo_sel, 8, None)
        near = fp32_value(lo_start) if rng.random() < 0.6 else None
        exponent = rng.random() < 0.4
        offset, le_sel = 0, 0
        if exponent:
            offset = _select(rng, *LE_OFFSET)
            start = rng.choice((0.0, -(2.0 ** (offset + rng.randint(-2, 1))),
                                near if near is not None else 0.0,
                                rng.uniform(-1, 1) * 2.0 ** (offset + rng.randint(0, 8))))
            le_start = fp32_bits(max(-FP32_MAX, min(FP32_MAX, start)))
            span = 2.0 ** (offset + 64) if offset + 64 < 128 else FP32_MAX
            le_end = fp32_bits(min(fp32_value(le_start) + span, FP32_MAX)) if rng.random() < 0.8 \
                else fp32_bits(rng.uniform(-1, 1) * 2.0 ** rng.randint(-100, 100))
        else:
            le_sel = lo_sel + rng.randint(-3, 3) if near is not None else _select(rng, *LE_SELECT)
            le_sel = max(LE_SELECT[0], min(LE_SELECT[1], le_sel))
            le_start, le_end = _linear(rng, le_sel, 6, near)
        cfg = LutConfig(
            le_function=EXPONENT if exponent else LINEAR, le_index_offset=offset, le_index_select=le_sel,
            lo_index_select=lo_sel, le_start=le_start, le_end=le_end, lo_start=lo_start, lo_end=lo_end,
            le_uflow_scale=fp16_value(rng), le_oflow_scale=fp16_value(rng), lo_uflow_scale=fp16_value(rng),
            lo_oflow_scale=fp16_value(rng), uflow_priority=rng.randint(0, 1),
            oflow_priority=rng.randint(0, 1), hybrid_priority=rng.randint(0, 1), unit=unit, precision="FP16",
            le=fp16_table(rng, LE_ENTRIES), lo=fp16_table(rng, LO_ENTRIES))
        try:
            validate(cfg)
        except ConfigError:
            continue
        return cfg


def anchors_fp16(cfg: LutConfig) -> list[float]:
    """Values where the behaviour changes: the bounds, entry boundaries, exponent steps."""
    le_s, lo_s = fp32_value(cfg.le_start), fp32_value(cfg.lo_start)
    pts = [le_s, fp32_value(cfg.le_end), lo_s, fp32_value(cfg.lo_end)]
    lo_step = 2.0 ** cfg.lo_index_select
    pts += [lo_s + k * lo_step for k in (1, 2, 128, 255, 256, 257)]
    if cfg.le_function == LINEAR:
        le_step = 2.0 ** cfg.le_index_select
        pts += [le_s + k * le_step for k in (1, 2, 32, 63, 64, 65)]
    else:
        off = cfg.le_index_offset
        pts += [le_s + 2.0 ** p for p in range(off - 1, min(off + 66, 128))]
    return [p for p in pts if np.isfinite(p) and abs(p) <= FP32_MAX]


def fp16_samples(cfg: LutConfig, rng: random.Random, n: int) -> list[int]:
    """n FP32 bit patterns for cfg's tables."""
    pts = anchors_fp16(cfg)
    span = max(abs(fp32_value(cfg.lo_end) - fp32_value(cfg.lo_start)), 2.0 ** -140)
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.3:
            bits = (fp32_bits(rng.choice(pts)) + rng.randint(-3, 3)) & 0xFFFFFFFF
        elif r < 0.7:
            v = rng.choice(pts) + rng.uniform(-2, 2) * span * rng.choice((1, 1, 0.01, 4))
            with np.errstate(over="ignore"):   # rounding up to an infinity is a sample like any other
                bits = fp32_bits(max(-FP32_MAX, min(FP32_MAX, v)))
        elif r < 0.85:
            bits = rng.getrandbits(32)
        elif r < 0.92:
            bits = rng.choice(FP32_SPECIALS)
        else:   # NaN payloads, subnormals, huge magnitudes of either sign
            sign = rng.getrandbits(1) << 31
            bits = sign | rng.choice((0x7F800000 | rng.randint(1, 0x7FFFFF), rng.randint(1, 0x7FFFFF),
                                      (rng.randint(0xF0, 0xFE) << 23) | rng.getrandbits(23)))
        out.append(bits)
    return out
