"""NVIDIA's float rules (models/common/nvfloat.py) on the cases where they differ from IEEE or are easy to
get wrong:
subnormals, infinities, NaNs, the largest finite values, cancellation signs, round to nearest even."""

from __future__ import annotations

import numpy as np
import pytest

from models.common import nvfloat
from models.common.nvfloat import FP16, FP17

ONE16, TWO16, MAX16, INF16, NAN16 = 0x3C00, 0x4000, 0x7BFF, 0x7C00, 0x7E00
ONE17 = 0x7C00


def h(bits: int) -> float:
    return float(np.array(bits, dtype=np.uint16).view(np.float16))


def test_fp16_fp17_round_trip_is_exact_for_every_finite_fp16() -> None:
    finite = np.array([b for b in range(1 << 16) if (b >> 10) & 0x1F != 0x1F], dtype=np.int64)
    assert np.array_equal(nvfloat.fp17_to_fp16(nvfloat.fp16_to_fp17(finite)), finite)


def test_subnormal_fp16_becomes_a_normal_fp17() -> None:
    f = int(nvfloat.fp16_to_fp17(0x0001))          # 2^-24
    assert (f >> 10) & 0x3F == 31 - 24 and f & 0x3FF == 0


def test_infinity_saturates_and_nan_keeps_its_payload() -> None:
    assert int(nvfloat.fp16_to_fp17(INF16)) == int(FP17.largest(0))
    assert int(nvfloat.fp17_to_fp16(nvfloat.fp16_to_fp17(0xFC00))) == 0xFBFF
    assert int(nvfloat.fp17_to_fp16(nvfloat.fp16_to_fp17(0x7C01))) == 0x7C01


def test_overflow_saturates_to_the_largest_finite_value() -> None:
    big = nvfloat.fp16_to_fp17(MAX16)
    total = nvfloat.add(FP17, big, big)
    assert int(nvfloat.fp17_to_fp16(total)) == MAX16     # 131008 is finite in FP17, too large for FP16
    assert int(nvfloat.add(FP16, MAX16, MAX16)) == MAX16
    assert int(nvfloat.mul(FP16, MAX16, TWO16)) == MAX16


def test_cancellation_keeps_the_sign_of_the_first_operand() -> None:
    assert int(nvfloat.add(FP17, ONE17, ONE17 | 1 << 16)) == 0
    assert int(nvfloat.add(FP17, ONE17 | 1 << 16, ONE17)) == 1 << 16      # -1 + 1 = -0


def test_nan_operand_wins_first_one_first() -> None:
    assert int(nvfloat.add(FP16, NAN16, 0xFE55)) == NAN16
    assert int(nvfloat.add(FP16, ONE16, 0xFE55)) == 0xFE55
    assert int(nvfloat.maximum(FP16, ONE16, 0x7C01)) == 0x7C01
    assert int(nvfloat.minimum(FP16, 0x7C01, NAN16)) == 0x7C01


def test_max_min_order_signed_zeros() -> None:
    assert int(nvfloat.maximum(FP16, 0x8000, 0x0000)) == 0x0000
    assert int(nvfloat.minimum(FP16, 0x0000, 0x8000)) == 0x8000
    assert int(nvfloat.maximum(FP16, 0xFBFF, 0x8001)) == 0x8001


def test_add_and_mul_of_normal_numbers_round_to_nearest_even() -> None:
    rng = np.random.default_rng(3)
    a, b = (rng.integers(0x0400, 0x7800, size=20000) | (rng.integers(0, 2, size=20000) << 15)
            for _ in range(2))
    fa, fb = (np.asarray(x, dtype=np.uint16).view(np.float16).astype(np.float64) for x in (a, b))
    want = (fa + fb).astype(np.float16).view(np.uint16).astype(np.int64)
    got = nvfloat.add(FP16, a, b)
    normal = np.abs(fa + fb) >= 2.0 ** -14
    assert np.array_equal(got[normal], want[normal])
    assert np.all((got[~normal] & 0x7FFF) == 0)          # below the normals: flushed to zero
    prod = fa * fb
    ok = (np.abs(prod) >= 2.0 ** -14) & (np.abs(prod) < 65504)
    with np.errstate(over="ignore"):
        want_m = prod.astype(np.float16).view(np.uint16).astype(np.int64)
    assert np.array_equal(nvfloat.mul(FP16, a, b)[ok], want_m[ok])


def test_small_operand_is_truncated_not_rounded_when_far_below() -> None:
    # 1 + 2^-12 * 1.5: the addend sits below the window's guard bits only partly; the result is 1
    assert int(nvfloat.add(FP16, ONE16, 0x0E00)) == ONE16


@pytest.mark.parametrize("k, bits", [(1, 0x7C00), (3, 0x7555), (5, 0x7266), (7, 0x7092)])
def test_reciprocals_match_the_kmd_fp16_table(k: int, bits: int) -> None:
    assert nvfloat.fp17_of(1 / k) == bits


def test_fp17_to_fp16_rounds_subnormals_to_nearest_even() -> None:
    # 1.5 * 2^-24 is halfway between the subnormals 1 and 2 (x 2^-24): even is 2
    f = int(FP17.join(0, 31 - 24, 0x200))
    assert int(nvfloat.fp17_to_fp16(f)) == 0x0002
    assert h(int(nvfloat.fp17_to_fp16(FP17.join(0, 31 - 26, 0)))) == 0.0     # 2^-26: below half of 2^-24
