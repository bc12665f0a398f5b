"""Line-by-line access to a feature cube in memory (the layout of docs/CONTRACTS.md), as the DMAs do it.

One implementation for models/cdp.py and models/pdp.py: one memory read or write per line of a surface,
every lane of every atom, addresses wrapping at 32 bits.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray


def read_lines(mem: object, base: int, line_stride: int, surface_stride: int, width: int, height: int,
               surfaces: int, atom: int) -> NDArray[np.int8]:
    """Read [surfaces*atom, height, width] int8 from the feature layout, one read per line."""
    out = np.empty((surfaces, height, width, atom), dtype=np.int8)
    for s in range(surfaces):
        for h in range(height):
            addr = (base + s * surface_stride + h * line_stride) & 0xFFFFFFFF
            line = np.asarray(mem.read(addr, width * atom), dtype=np.uint8)  # type: ignore[attr-defined]
            out[s, h] = line.view(np.int8).reshape(width, atom)
    return out.transpose(0, 3, 1, 2).reshape(surfaces * atom, height, width)


def write_lines(mem: object, base: int, line_stride: int, surface_stride: int,
                cube: NDArray[np.int8], atom: int) -> None:
    """Write [surfaces*atom, h, w] int8 (all lanes) to the feature layout, one write per line."""
    c, height, width = cube.shape
    surfaces = c // atom
    atoms = cube.reshape(surfaces, atom, height, width).transpose(0, 2, 3, 1)
    for s in range(surfaces):
        for h in range(height):
            addr = (base + s * surface_stride + h * line_stride) & 0xFFFFFFFF
            mem.write(addr, np.ascontiguousarray(atoms[s, h]).reshape(-1).view(np.uint8))  # type: ignore
