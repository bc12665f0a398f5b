"""Random data of a packed feature cube at a precision: the top-level benchmarks' inputs."""

from __future__ import annotations

import numpy as np


def cube_data(elements: int, precision: str, rng: np.random.Generator) -> np.ndarray:
    """A packed cube's bytes (every byte, or pair of bytes, is an element): random INT8/INT16 codes; FP16 as
    finite values of mixed magnitude and sign (NaN and infinity are the random benches' business)."""
    if precision == "INT8":
        return rng.integers(0, 256, size=elements, dtype=np.uint8)
    if precision == "INT16":
        return rng.integers(-(1 << 15), 1 << 15, size=elements).astype("<i2").view(np.uint8)
    values = rng.standard_normal(elements) * np.exp2(rng.integers(-8, 9, elements))
    return values.astype("<f2").view(np.uint8)
