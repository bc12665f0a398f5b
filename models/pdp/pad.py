"""The pad value an average-pooling window adds along one axis: shared by PDP's INT datapath
(models/pdp/model.py) and its FP16 one (models/pdp/fp16.py), which both import it (neither imports the other's
module for it)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray


def pad_terms(n_out: int, in_size: int, kernel: int, stride: int, pad_before: int,
               pad_values: tuple[int, ...]) -> NDArray[np.int64]:
    """Per output position, the pad value an average window adds along one axis (0 when none)."""
    start = np.arange(n_out, dtype=np.int64) * stride - pad_before
    end = start + kernel - 1
    before = np.maximum(-start, 0)
    after = np.maximum(end - (in_size - 1), 0)
    # Both sides padded: the hardware adds the combined run once (see module docstring).
    run = np.where((before > 0) & (after > 0), before + after, np.maximum(before, after))
    table = np.array((0, *pad_values), dtype=np.int64)
    return table[np.minimum(run, 7)]
