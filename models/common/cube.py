"""NVDLA's feature-cube layout in memory: the one description every reader and writer of feature data uses.

A cube [channels, height, width] is stored as channel surfaces of `atom_bytes` channels each; a surface is
`height` lines `line_stride` apart, a line is `width` atoms (one atom = the atom_bytes channels of one
element, `elem_bytes` bytes each); surfaces are `surface_stride` apart:

    addr(c, h, w) = base + (c // atom) * surface_stride + h * line_stride + (w * atom + c % atom) * elem_bytes

Channels past the last whole atom are padding lanes: written (as zero) and read like the others. Addresses
wrap at 32 bits, as the DMAs' do. A packed cube (`CubeLayout.packed`) has its lines and surfaces back to
back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
from numpy.typing import ArrayLike, NDArray

from models import configs
from models.errors import ConfigError


def run_atom_bytes() -> int:
    """The memory atom of the run's configuration ($CONFIG), read when asked (not at import) so that a test
    pinned to a configuration sees its own; the units pass their own."""
    return configs.load().atom_bytes

ADDRESS_MASK = 0xFFFFFFFF
# element bytes -> numpy types of a lane (NVDLA stores two-byte elements little-endian)
_SIGNED = {1: np.dtype(np.int8), 2: np.dtype("<i2")}
_UNSIGNED = {1: np.dtype(np.uint8), 2: np.dtype("<u2")}


class ByteMemory(Protocol):
    def read(self, addr: int, n: int) -> ArrayLike: ...
    def write(self, addr: int, data: NDArray[np.uint8]) -> None: ...


@dataclass(frozen=True)
class CubeLayout:
    """Where a cube lives and its size; addresses, extent, whole-cube reads and writes."""

    base: int
    line_stride: int
    surface_stride: int
    width: int
    height: int
    channels: int
    atom_bytes: int = field(default_factory=run_atom_bytes)
    elem_bytes: int = 1

    @classmethod
    def packed(cls, base: int, width: int, height: int, channels: int, atom_bytes: int | None = None,
               elem_bytes: int = 1) -> CubeLayout:
        """Lines and surfaces back to back (line stride = a line's bytes, surface stride = a surface's)."""
        atom_bytes = atom_bytes or run_atom_bytes()
        line = width * atom_bytes * elem_bytes
        return cls(base, line, line * height, width, height, channels, atom_bytes, elem_bytes)

    @property
    def surfaces(self) -> int:
        return -(-self.channels // self.atom_bytes)

    @property
    def line_bytes(self) -> int:
        return self.width * self.atom_bytes * self.elem_bytes

    def line_address(self, surface: int, line: int) -> int:
        return (self.base + surface * self.surface_stride + line * self.line_stride) & ADDRESS_MASK

    def address(self, c: int, h: int, w: int) -> int:
        """Byte address of element (c, h, w) (its first byte)."""
        s, lane = divmod(c, self.atom_bytes)
        return (self.line_address(s, h) + (w * self.atom_bytes + lane) * self.elem_bytes) & ADDRESS_MASK

    def extent(self) -> tuple[int, int]:
        """[first, last + 1) byte addresses the cube can touch (its bounding range, gaps included), unwrapped
        so that a cube running past the 32-bit space shows it."""
        end = (self.base + (self.surfaces - 1) * self.surface_stride + (self.height - 1) * self.line_stride
               + self.line_bytes)
        return self.base, end

    def coordinate(self, addr: int) -> tuple[int, int, int] | None:
        """(c, h, w) of the element whose byte is at addr; None for a gap or an address outside the cube."""
        for s in range(self.surfaces):
            rel = addr - (self.base + s * self.surface_stride)
            if rel < 0:
                break
            h, rem = divmod(rel, self.line_stride) if self.line_stride else (0, rel)
            w, lane = divmod(rem // self.elem_bytes, self.atom_bytes)
            if h < self.height and w < self.width:  # padding lanes too: they are written like the others
                return s * self.atom_bytes + lane, h, w
        return None

    def read_atoms(self, mem: ByteMemory) -> NDArray[np.uint8]:
        """The raw bytes [surfaces, height, width, atom_bytes * elem_bytes], one read per line."""
        out = np.empty((self.surfaces, self.height, self.line_bytes), dtype=np.uint8)
        for s in range(self.surfaces):
            for h in range(self.height):
                out[s, h] = np.asarray(mem.read(self.line_address(s, h), self.line_bytes), dtype=np.uint8)
        return out.reshape(self.surfaces, self.height, self.width, self.atom_bytes * self.elem_bytes)

    def read_lanes(self, mem: ByteMemory) -> NDArray[np.int8] | NDArray[np.int16]:
        """Every lane of the cube, padding included: [surfaces * atom_bytes, height, width], int8 or (two-byte
        elements, little-endian) int16."""
        atoms = self.read_atoms(mem).view(_SIGNED[self.elem_bytes])
        return atoms.transpose(0, 3, 1, 2).reshape(self.surfaces * self.atom_bytes, self.height, self.width)

    def read(self, mem: ByteMemory) -> NDArray[np.int8] | NDArray[np.int16]:
        """The cube [channels, height, width] (int8, or int16 for two-byte elements)."""
        return self.read_lanes(mem)[:self.channels]

    def write(self, mem: ByteMemory, cube: ArrayLike) -> None:
        """Store a cube [c, h, w] (values taken mod 2^(8*elem_bytes)), c <= surfaces * atom_bytes: channels
        padded with zero lanes to whole atoms, every lane written, one write per line."""
        arr = np.asarray(cube)
        c = arr.shape[0]
        unsigned = _UNSIGNED[self.elem_bytes]
        padded = np.zeros((self.surfaces * self.atom_bytes, self.height, self.width), dtype=unsigned)
        padded[:c] = (arr.astype(np.int64) & ((1 << (8 * self.elem_bytes)) - 1)).astype(unsigned)
        atoms = padded.reshape(self.surfaces, self.atom_bytes, self.height, self.width).transpose(0, 2, 3, 1)
        for s in range(self.surfaces):
            for h in range(self.height):
                line = np.ascontiguousarray(atoms[s, h]).reshape(-1)
                mem.write(self.line_address(s, h), line.view(np.uint8))


class _Element(Protocol):
    @property
    def elem_bytes(self) -> int: ...


class AtomLanes:
    """A unit configuration's channels in memory atoms (PDP, CDP, SDP): `lanes` elements an atom (the
    memory atom over its precision's element size, `widths`, the unit's table row), `surfaces` atoms'
    worth of channels, `padded_channels` their lanes. The unit's dataclass holds the fields."""

    atom_bytes: int
    channels: int

    @property
    def widths(self) -> _Element:
        raise NotImplementedError

    @property
    def lanes(self) -> int:
        """Elements per memory atom: atom_bytes at INT8, half as many at INT16/FP16."""
        return self.atom_bytes // self.widths.elem_bytes

    @property
    def surfaces(self) -> int:
        return -(-self.channels // self.lanes)

    @property
    def padded_channels(self) -> int:
        return self.surfaces * self.lanes


def check_layout(unit: str, side: str, base: int, line_stride: int, surface_stride: int, *, width: int,
                 height: int, channels: int, atom_bytes: int, elem_bytes: int = 1,
                 align: int | None = None) -> None:
    """Seed 001 Limitation / Data Format rules on one cube in memory; SDP and PDP use it too.

    Alignment (nv_small: the memory atom, the datapaths drop address bits below it) of the base and of
    each stride the hardware steps by, then: a line stride at least the bytes of a line (equal is
    LINE_PACKED), a surface stride that holds a whole surface. A line stride is used only when height > 1
    and a surface stride only with more than one surface: NVIDIA's traces leave unused ones arbitrary.
    `side` names the registers (SRC, DST, BS, ...: <side>_LINE_STRIDE). atom_bytes counts the lanes of an
    atom, each elem_bytes wide; `align` is the memory atom in bytes (default atom_bytes).
    """
    line_bytes = width * atom_bytes * elem_bytes
    surfaces = -(-channels // atom_bytes)
    used = {f"{side}_BASE_ADDR": base}
    if height > 1:
        used[f"{side}_LINE_STRIDE"] = line_stride
    if surfaces > 1:
        used[f"{side}_SURFACE_STRIDE"] = surface_stride
    align = align or atom_bytes
    misaligned = {name: value for name, value in used.items() if value % align}
    if misaligned:
        raise ConfigError(f"{unit}: the alignment for {side} address/line_stride/surf_stride should be "
                          f"satisfied ({align}-byte memory atom)", misaligned)
    if height > 1 and line_stride < line_bytes:
        raise ConfigError(f"{unit}: {side}_LINE_STRIDE has to be bigger than the actual size per line",
                          {f"{side}_LINE_STRIDE": line_stride, "bytes_per_line": line_bytes})
    needed = line_stride * (height - 1) + line_bytes
    if surfaces > 1 and surface_stride < needed:
        raise ConfigError(f"{unit}: {side}_SURFACE_STRIDE must hold a whole surface (no overlap)",
                          {f"{side}_SURFACE_STRIDE": surface_stride, "bytes_per_surface": needed})


def surface_fields(get: Callable[[str], int], side: str) -> dict[str, int]:
    """A cube's address registers as a unit configuration's fields: <side>_base, <side>_line_stride and
    <side>_surface_stride from D_<SIDE>_BASE_ADDR_LOW, D_<SIDE>_LINE_STRIDE and D_<SIDE>_SURFACE_STRIDE
    (`get` reads "REGISTER.FIELD" of the unit that holds them: the RDMA for the source)."""
    reg = side.upper()
    return {f"{side}_base": get(f"D_{reg}_BASE_ADDR_LOW.{reg}_BASE_ADDR_LOW"),
            f"{side}_line_stride": get(f"D_{reg}_LINE_STRIDE.{reg}_LINE_STRIDE"),
            f"{side}_surface_stride": get(f"D_{reg}_SURFACE_STRIDE.{reg}_SURFACE_STRIDE")}
