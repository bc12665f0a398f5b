"""The precision path of NVDLA (seed 002): convertor, truncate and shifter.

This is the one implementation of NVDLA's rounding and saturation; every unit model uses it.
All functions take and return int64 numpy arrays (scalars are accepted) and never overflow:
the widest intermediate (a 33-bit difference times a 16-bit scale) needs 49 bits.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

IntArray = NDArray[np.int64]


def as_signed(value: ArrayLike, bits: int) -> IntArray:
    """Interpret the low `bits` bits of `value` as a two's-complement number (wraps wider values)."""
    v = np.asarray(value, dtype=np.int64) & ((1 << bits) - 1)
    return np.where(v >= (1 << (bits - 1)), v - (1 << bits), v)


def rshift_round(x: ArrayLike, shift: ArrayLike) -> IntArray:
    """x / 2**shift rounded half away from zero (NVDLA's rounding for every right shift)."""
    xa = np.asarray(x, dtype=np.int64)
    sh = np.asarray(shift, dtype=np.int64)
    if np.any(sh < 0):
        raise ValueError("rshift_round needs a non-negative shift")
    mag = np.abs(xa)
    half = np.where(sh > 0, np.left_shift(np.int64(1), np.maximum(sh - 1, 0)), 0)
    rounded = np.right_shift(mag + half, sh)
    return np.where(xa < 0, -rounded, rounded)


def saturate(x: ArrayLike, bits: int, signed: bool = True) -> tuple[IntArray, NDArray[np.bool_]]:
    """Clamp to a `bits`-bit integer; returns (value, mask of saturated elements)."""
    xa = np.asarray(x, dtype=np.int64)
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    sat = (xa < lo) | (xa > hi)
    return np.clip(xa, lo, hi), sat


@dataclass(frozen=True)
class ConvertorParams:
    """One convertor: y = sat(round((x - offset) * scale >> shift)); raw register values, widths in bits."""

    offset: int
    scale: int
    shift: int
    out_bits: int
    offset_bits: int = 32
    scale_bits: int = 16
    out_signed: bool = True


@dataclass(frozen=True)
class Converted:
    value: IntArray
    saturated: NDArray[np.bool_]

    @property
    def saturation_count(self) -> int:
        return int(np.count_nonzero(self.saturated))


def convert(x: ArrayLike, p: ConvertorParams) -> Converted:
    """The convertor of seed 002. Offset and scale are raw register values, read as signed of their width."""
    offset = as_signed(p.offset, p.offset_bits)
    scale = as_signed(p.scale, p.scale_bits)
    product = (np.asarray(x, dtype=np.int64) - offset) * scale
    value, sat = saturate(rshift_round(product, p.shift), p.out_bits, p.out_signed)
    return Converted(value, sat)


def truncate(x: ArrayLike, lsb: ArrayLike, out_bits: int) -> Converted:
    """y = saturate_round(x[msb:lsb]) with msb = lsb + out_bits: a rounded right shift, then saturation."""
    value, sat = saturate(rshift_round(x, lsb), out_bits)
    return Converted(value, sat)


def shift_left_saturate(x: ArrayLike, shift: ArrayLike, out_bits: int) -> Converted:
    """y = saturate(x << shift), the shifter of seed 002 (inputs up to 33 bits, outputs up to 32 bits)."""
    if out_bits > 32:
        raise ValueError("shift_left_saturate supports outputs of at most 32 bits")
    xa = np.asarray(x, dtype=np.int64)
    sh = np.asarray(shift, dtype=np.int64)
    if np.any(sh < 0):
        raise ValueError("shift_left_saturate needs a non-negative shift")
    # Any non-zero x shifted by >= out_bits saturates, so capping the shift keeps int64 exact.
    value, sat = saturate(np.left_shift(xa, np.minimum(sh, out_bits)), out_bits)
    return Converted(value, sat)
