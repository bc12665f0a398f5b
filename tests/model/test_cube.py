"""The feature-cube layout (models/common/cube.py): addresses, extent, whole-cube reads and writes."""

from __future__ import annotations

import numpy as np
import pytest

from models.common.cube import CubeLayout
from models.common.memory import Memory

# written to nv_small's 8-byte atom (the default atom of a CubeLayout is the run's)
pytestmark = pytest.mark.configuration("nv_small")


def test_round_trip_addresses_and_padding_lanes() -> None:
    rng = np.random.default_rng(1)
    cube = rng.integers(-128, 128, size=(11, 3, 4)).astype(np.int8)
    layout = CubeLayout(0x1000, 0x40, 0x200, 4, 3, 11)
    mem = Memory()
    layout.write(mem, cube)
    assert (layout.read(mem) == cube).all()
    lanes = layout.read_lanes(mem)
    assert lanes.shape == (16, 3, 4) and not lanes[11:].any()     # padding lanes written as zero
    # c=9 lives in the second surface, lane 1
    addr = 0x1000 + 0x200 + 2 * 0x40 + 3 * 8 + 1
    assert layout.address(9, 2, 3) == addr
    assert mem.read(addr, 1).view(np.int8)[0] == cube[9, 2, 3]
    assert layout.coordinate(addr) == (9, 2, 3)
    assert layout.coordinate(0x0FFF) is None
    assert layout.coordinate(0x1000 + 4 * 8) is None              # the gap after a line
    for c, h, w in ((0, 0, 0), (7, 1, 2), (10, 2, 3)):
        assert layout.coordinate(layout.address(c, h, w)) == (c, h, w)


def test_extent_is_the_bounding_range() -> None:
    layout = CubeLayout(0x100, 0x40, 0x200, 4, 3, 11)
    assert layout.extent() == (0x100, 0x100 + 0x200 + 2 * 0x40 + 4 * 8)
    assert CubeLayout(0xFFFF_FF00, 0x100, 0x1000, 4, 3, 11).extent()[1] > 1 << 32   # not wrapped


def test_packed_and_two_byte_elements() -> None:
    packed = CubeLayout.packed(0x40, 2, 3, 16, elem_bytes=2)
    assert (packed.line_stride, packed.surface_stride) == (32, 96)
    assert packed.extent() == (0x40, 0x40 + 2 * 96)
    assert packed.address(9, 1, 1) == 0x40 + 96 + 32 + (8 + 1) * 2
    mem = Memory()
    mem.write(0x40, np.arange(192, dtype=np.uint8))
    atoms = packed.read_atoms(mem)
    assert atoms.shape == (2, 3, 2, 16) and atoms[1, 0, 0, 0] == 96


def test_addresses_wrap_at_32_bits() -> None:
    layout = CubeLayout(0xFFFF_FFF8, 8, 16, 1, 2, 8)      # the second line wraps to address 0
    mem = Memory()
    layout.write(mem, np.arange(16, dtype=np.int8).reshape(8, 2, 1))
    assert mem.read(0, 8).tolist() == list(range(1, 16, 2))
