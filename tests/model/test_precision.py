"""Hand-computed cases for the precision path of seed 002 (convertor, truncate, shifter)."""

from __future__ import annotations

import numpy as np
import pytest

from models.common.precision import (
    ConvertorParams,
    as_signed,
    convert,
    rshift_round,
    saturate,
    shift_left_saturate,
    truncate,
)


@pytest.mark.parametrize(("x", "shift", "expected"), [
    (5, 1, 3), (-5, 1, -3),      # 2.5 -> 3, -2.5 -> -3: ties away from zero on both signs
    (3, 1, 2), (-3, 1, -2),      # 1.5 -> 2
    (1, 1, 1), (-1, 1, -1),      # 0.5 -> 1: the smallest tie
    (6, 2, 2), (-6, 2, -2),      # 1.5 -> 2
    (5, 2, 1), (-5, 2, -1),      # 1.25 -> 1
    (7, 2, 2), (-7, 2, -2),      # 1.75 -> 2
    (123, 0, 123), (-123, 0, -123),
    (-(1 << 48), 63, 0), ((1 << 48), 63, 0),
    ((1 << 48), 49, 1),          # exactly 0.5 -> 1
])
def test_rshift_round_half_away_from_zero(x: int, shift: int, expected: int) -> None:
    assert int(rshift_round(x, shift)) == expected


def test_rshift_round_vectorized_matches_scalars() -> None:
    xs = np.array([5, -5, 6, -6, 0])
    shifts = np.array([1, 1, 2, 2, 3])
    assert rshift_round(xs, shifts).tolist() == [3, -3, 2, -2, 0]


def test_rshift_round_rejects_negative_shift() -> None:
    with pytest.raises(ValueError):
        rshift_round(1, -1)


def test_saturate_both_ways() -> None:
    value, sat = saturate(np.array([200, -129, 127, -128, 0]), 8)
    assert value.tolist() == [127, -128, 127, -128, 0]
    assert sat.tolist() == [True, True, False, False, False]


def test_as_signed_wraps() -> None:
    assert as_signed(0xFFFFFFFF, 32) == -1
    assert as_signed(0x80000000, 32) == -(1 << 31)
    assert as_signed(0x1FF, 8) == -1  # bits above the width are dropped


@pytest.mark.parametrize(("x", "params", "expected", "saturated"), [
    (10, ConvertorParams(4, 3, 2, 8), 5, False),         # (6*3)/4 = 4.5 -> 5
    (-2, ConvertorParams(4, 3, 2, 8), -5, False),        # (-6*3)/4 = -4.5 -> -5
    (0, ConvertorParams(0xFFFFFFFF, 1, 0, 8), 1, False),  # offset -1
    ((1 << 31) - 1, ConvertorParams(0x80000000, 1, 0, 8), 127, True),  # 2^32-1 saturates high
    (-(1 << 31), ConvertorParams(0x7FFFFFFF, 1, 0, 8), -128, True),
    (5, ConvertorParams(0, 0xFFFF, 0, 8), -5, False),     # scale -1
    (1 << 30, ConvertorParams(0, 0x8000, 63, 8), 0, False),  # most negative scale, maximum shift
    (100, ConvertorParams(0, 1, 0, 8), 100, False),       # identity
    (1000, ConvertorParams(0, 1, 3, 8), 125, False),      # 1000/8 = 125
    (1020, ConvertorParams(0, 1, 3, 8), 127, True),       # 127.5 -> 128 saturates
    (0x1F0, ConvertorParams(0x1FF, 1, 0, 16, offset_bits=8), 0x1F1, False),  # 8-bit offset: -1
])
def test_convert(x: int, params: ConvertorParams, expected: int, saturated: bool) -> None:
    out = convert(np.array([x]), params)
    assert int(out.value[0]) == expected
    assert bool(out.saturated[0]) == saturated
    assert out.saturation_count == int(saturated)


@pytest.mark.parametrize(("x", "lsb", "bits", "expected", "saturated"), [
    (0x18000, 16, 8, 2, False),     # 1.5 -> 2
    (-0x18000, 16, 8, -2, False),
    (0x17FFF, 16, 8, 1, False),     # just under the tie
    (1 << 40, 4, 32, (1 << 31) - 1, True),
    (-(1 << 40), 4, 32, -(1 << 31), True),
    (-7, 0, 8, -7, False),
])
def test_truncate(x: int, lsb: int, bits: int, expected: int, saturated: bool) -> None:
    out = truncate(np.array([x]), lsb, bits)
    assert (int(out.value[0]), bool(out.saturated[0])) == (expected, saturated)


@pytest.mark.parametrize(("x", "shift", "bits", "expected", "saturated"), [
    (3, 4, 8, 48, False),
    (8, 4, 8, 127, True),
    (-8, 4, 8, -128, False),
    (-9, 4, 8, -128, True),
    (1, 63, 32, (1 << 31) - 1, True),
    (0, 63, 32, 0, False),
    (-1, 31, 32, -(1 << 31), False),
    (-(1 << 32), 31, 32, -(1 << 31), True),
])
def test_shift_left_saturate(x: int, shift: int, bits: int, expected: int, saturated: bool) -> None:
    out = shift_left_saturate(np.array([x]), shift, bits)
    assert (int(out.value[0]), bool(out.saturated[0])) == (expected, saturated)
