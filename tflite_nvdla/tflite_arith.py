"""TFLite's int8 integer arithmetic (tensorflow/lite/kernels/internal/common.h, quantization_util.cc): the
targets the NVDLA mapping is fitted to. This is TFLite's arithmetic, not NVDLA's: the NVDLA side is always
evaluated by the project's model (models/)."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike, NDArray

IntArray = NDArray[np.int64]
INT8_MIN, INT8_MAX = -128, 127
INT8_DOMAIN = np.arange(INT8_MIN, INT8_MAX + 1, dtype=np.int64)


def quantize_multiplier(real: float) -> tuple[int, int]:
    """QuantizeMultiplier: real = M * 2^(shift - 31), M a Q31 int32 in [2^30, 2^31)."""
    if real == 0.0:
        return 0, 0
    q, shift = math.frexp(real)
    q_fixed = round(q * (1 << 31))  # TfLiteRound: half away from zero (q > 0 here)
    if q_fixed == 1 << 31:
        q_fixed //= 2
        shift += 1
    if shift < -31:
        return 0, 0
    return int(q_fixed), shift


def _srdhm(a: IntArray, b: int) -> IntArray:
    """SaturatingRoundingDoublingHighMul: (a * b * 2 + nudge) / 2^32 truncated toward zero."""
    ab = a * np.int64(b)
    nudge = np.where(ab >= 0, 1 << 30, 1 - (1 << 30))
    total = ab + nudge
    q = np.abs(total) >> 31
    out = np.where(total < 0, -q, q)
    return np.where((a == -(1 << 31)) & (b == -(1 << 31)), (1 << 31) - 1, out)


def rounding_divide_by_pot(x: IntArray, exponent: int) -> IntArray:
    """RoundingDivideByPOT: x / 2^exponent, rounded half away from zero."""
    mask = (1 << exponent) - 1
    remainder = x & mask
    threshold = (mask >> 1) + (x < 0)
    return (x >> exponent) + (remainder > threshold)


def multiply_by_quantized_multiplier(x: ArrayLike, multiplier: int, shift: int) -> IntArray:
    """MultiplyByQuantizedMultiplier (the double-rounding form LiteRT's reference kernels use)."""
    xa = np.asarray(x, dtype=np.int64)
    left = max(shift, 0)
    right = max(-shift, 0)
    shifted = np.clip(xa * (1 << left), -(1 << 31), (1 << 31) - 1)
    return rounding_divide_by_pot(_srdhm(shifted, multiplier), right)


def requantize(x: ArrayLike, real_multiplier: float) -> IntArray:
    m, s = quantize_multiplier(real_multiplier)
    return multiply_by_quantized_multiplier(x, m, s)


def round_half_away(x: ArrayLike) -> IntArray:
    """std::round / TfLiteRound: half away from zero (np.round rounds half to even)."""
    xa = np.asarray(x)
    return (np.sign(xa) * np.floor(np.abs(xa) + xa.dtype.type(0.5))).astype(np.int64)


def activation_range(activation: str, scale: float, zero_point: int) -> tuple[int, int]:
    """CalculateActivationRangeQuantized: the int8 clamp of a fused activation (float32 arithmetic)."""
    def q(v: float) -> int:
        return zero_point + int(round_half_away(np.float32(v) / np.float32(scale)))
    lo, hi = INT8_MIN, INT8_MAX
    if activation in ("RELU", "RELU6", "RELU_N1_TO_1", "RELU_0_TO_1"):
        lo = max(lo, q(-1.0) if activation == "RELU_N1_TO_1" else zero_point)
    if activation == "RELU6":
        hi = min(hi, q(6.0))
    elif activation in ("RELU_N1_TO_1", "RELU_0_TO_1"):
        hi = min(hi, q(1.0))
    return lo, hi


def requant_table(in_scale: float, in_zp: int, out_scale: float, out_zp: int, clamp: tuple[int, int],
                  negative_multiplier: float | None = None) -> IntArray:
    """The int8 -> int8 output of QUANTIZE / RELU* / LEAKY_RELU for every int8 input: out_zp +
    MBQM(x - in_zp) with the identity multiplier (and, for LEAKY_RELU, its alpha multiplier below zero)."""
    d = INT8_DOMAIN - in_zp
    y = requantize(d, in_scale / out_scale)
    if negative_multiplier is not None:
        y = np.where(d >= 0, y, requantize(d, negative_multiplier))
    return np.clip(y + out_zp, *clamp)


def float_lut_table(fn: Callable[[NDArray[np.float32]], NDArray[np.float32]], in_scale: float, in_zp: int,
                    out_scale: float, out_zp: int) -> IntArray:
    """LUTPopulate<int8_t>: the table LiteRT's int8 LOGISTIC / TANH use, computed in float32."""
    x = np.float32(in_scale) * (INT8_DOMAIN - in_zp).astype(np.float32)
    y = fn(x).astype(np.float32)
    q = round_half_away(y / np.float32(out_scale)) + out_zp
    return np.clip(q, INT8_MIN, INT8_MAX)


def add_reference(x1: ArrayLike, x2: ArrayLike, q1: tuple[float, int], q2: tuple[float, int],
                  qo: tuple[float, int], clamp: tuple[int, int] = (INT8_MIN, INT8_MAX)) -> IntArray:
    """Int8 ADD (add.cc PrepareGeneralSubOp / AddElementwise): inputs moved to 20 extra bits, each scaled
    by its share of twice the larger input scale, summed, then scaled to the output."""
    left_shift = 20
    twice_max = 2.0 * max(q1[0], q2[0])
    y1 = requantize((np.asarray(x1, dtype=np.int64) - q1[1]) << left_shift, q1[0] / twice_max)
    y2 = requantize((np.asarray(x2, dtype=np.int64) - q2[1]) << left_shift, q2[0] / twice_max)
    out = requantize(y1 + y2, twice_max / ((1 << left_shift) * qo[0])) + qo[1]
    return np.clip(out, *clamp)


def mul_reference(x1: ArrayLike, x2: ArrayLike, q1: tuple[float, int], q2: tuple[float, int],
                  qo: tuple[float, int], clamp: tuple[int, int] = (INT8_MIN, INT8_MAX)) -> IntArray:
    """Int8 MUL (mul.cc): one requantization of the product of the offset inputs."""
    product = (np.asarray(x1, dtype=np.int64) - q1[1]) * (np.asarray(x2, dtype=np.int64) - q2[1])
    return np.clip(requantize(product, q1[0] * q2[0] / qo[0]) + qo[1], *clamp)


def prelu_reference(x: ArrayLike, alpha: ArrayLike, qi: tuple[float, int], qa: tuple[float, int],
                    qo: tuple[float, int]) -> IntArray:
    """Int8 PRELU (prelu.cc, reference BroadcastPrelu4DSlow): x - zp_in >= 0 scaled by s_in / s_out, else
    (x - zp_in) * (alpha - zp_alpha) scaled by s_in * s_alpha / s_out (both ratios in float32, as Prepare
    computes them from the tensors' float scales); alpha broadcasts against x."""
    d = np.asarray(x, dtype=np.int64) - qi[1]
    a = np.asarray(alpha, dtype=np.int64) - qa[1]
    r1 = float(np.float32(qi[0]) / np.float32(qo[0]))
    r2 = float(np.float32(qi[0]) * np.float32(qa[0]) / np.float32(qo[0]))
    y = np.where(d >= 0, requantize(d, r1), requantize(d * a, r2))
    return np.clip(y + qo[1], INT8_MIN, INT8_MAX)
