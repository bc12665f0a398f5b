"""Seed 004's approach (the VTA TFLite delegate), measured on the same tensors as the NVDLA mapping:
scales as 16-bit multipliers with a shift (frexp, round(q * 2^15)), requantization
`(val * multiplier) >> (15 - shift) + offset` (an arithmetic shift: no rounding), ADD through its
left-shift-7 dequantization with the doubled-max-scale normalization. Seed 004 has no lookup table: for
LOGISTIC / TANH the baseline feeds its 16-bit fixed-point dequantized input (7 fraction bits) to the float
function and rounds to the output scale."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike

from tflite_nvdla.tflite_arith import INT8_MAX, INT8_MIN, IntArray, round_half_away

LEFT_SHIFT = 7


def multiplier16(scale: float) -> tuple[int, int]:
    """Seed 004: q = frexp(scale, &shift); q_fixed = round(q * 2^15); 2^15 -> 2^14 with shift + 1."""
    q, shift = math.frexp(scale)
    q_fixed = round(q * (1 << 15))
    if q_fixed == 1 << 15:
        q_fixed //= 2
        shift += 1
    return int(q_fixed), shift


def _shift_right(x: IntArray, n: int) -> IntArray:
    return x >> n if n >= 0 else x << -n


def requant16(val: ArrayLike, scale: float, offset: int) -> IntArray:
    """valscaled = val * multiplier; valshifted = valscaled >> (15 - shift); + offset; clamp to int8."""
    m, s = multiplier16(scale)
    out = _shift_right(np.asarray(val, dtype=np.int64) * m, 15 - s) + offset
    return np.clip(out, INT8_MIN, INT8_MAX)


def dequant16(x: ArrayLike, zero_point: int, scale: float) -> IntArray:
    """Seed 004's dequantization: ((x - zp) << 7) * multiplier, rounded >> 15, then >> -shift."""
    m, s = multiplier16(scale)
    raw = ((np.asarray(x, dtype=np.int64) - zero_point) << LEFT_SHIFT) * m
    return _shift_right((raw + (1 << 14)) >> 15, -s)


def add16(x1: ArrayLike, x2: ArrayLike, q1: tuple[float, int], q2: tuple[float, int],
          qo: tuple[float, int]) -> IntArray:
    doubled_max = 2.0 * max(q1[0], q2[0])
    a = dequant16(x1, q1[1], q1[0] / doubled_max)
    b = dequant16(x2, q2[1], q2[0] / doubled_max)
    return requant16(a + b, doubled_max / ((1 << LEFT_SHIFT) * qo[0]), qo[1])


def function16(fn: Callable[[np.ndarray], np.ndarray], x: ArrayLike, qi: tuple[float, int],
               qo: tuple[float, int]) -> IntArray:
    real = dequant16(x, qi[1], qi[0]).astype(np.float64) / (1 << LEFT_SHIFT)
    return np.clip(round_half_away(fn(real) / qo[0]) + qo[1], INT8_MIN, INT8_MAX)
