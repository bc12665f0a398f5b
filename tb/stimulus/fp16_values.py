"""Random FP16 and FP17 bit patterns for the CDP FP16 benches: numbers around a power of two over a few
octaves (so sums and products reach both ends of the range when the scale does), with a share of the
specials a float unit must handle (signed zeros, subnormals, the largest finite values, infinities, NaNs
with payloads in the low and the high mantissa bits)."""

from __future__ import annotations

import random

import numpy as np
from numpy.typing import NDArray

from models.common.nvfloat import FP17

FP16_SPECIALS = (0x0000, 0x8000, 0x0001, 0x83FF, 0x0400, 0x7BFF, 0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0x7C01,
                 0xFE55)
FP17_SPECIALS = (0x00000, 0x10000, 0x00001, 0x00400, 0x0FBFF, 0x1FBFF, 0x0FC00, 0x1FC00, 0x0FE00, 0x0FC01,
                 0x1FE55, 0x07C00, 0x04400, 0x03C00)


def fp16_values(rng: random.Random, n: int, log2_scale: float, specials: float) -> NDArray[np.int64]:
    """n FP16 bit patterns: normal numbers times 2^log2_scale (+-3 octaves), a `specials` share of
    FP16_SPECIALS."""
    g = np.random.default_rng(rng.getrandbits(64))
    spread = g.standard_normal(n) * 2.0 ** (log2_scale + g.uniform(-3, 3, size=n))
    with np.errstate(over="ignore"):
        bits = spread.astype(np.float16).view(np.uint16).astype(np.int64)
    special = g.random(n) < specials
    bits[special] = g.choice(np.array(FP16_SPECIALS, dtype=np.int64), size=int(special.sum()))
    return bits


def fp17_values(rng: random.Random, n: int, specials: float) -> NDArray[np.int64]:
    """n FP17 bit patterns: random signs and mantissas, exponents over the whole range but weighted to
    FP16's (where a product narrows to FP16 normals, subnormals, 65504 and 0), a share of FP17_SPECIALS."""
    g = np.random.default_rng(rng.getrandbits(64))
    sign = g.integers(0, 2, size=n)
    expo = np.where(g.random(n) < 0.8, g.integers(FP17.bias - 20, FP17.bias + 12, size=n),
                    g.integers(0, FP17.emax + 1, size=n))
    mant = np.where(g.random(n) < 0.2, g.integers(0, 4, size=n) << 8, g.integers(0, 1 << FP17.mant, size=n))
    bits = FP17.join(sign, expo, mant)
    special = g.random(n) < specials
    bits[special] = g.choice(np.array(FP17_SPECIALS, dtype=np.int64), size=int(special.sum()))
    return bits
