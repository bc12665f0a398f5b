"""What every unit's program generator shares: the program, its memory images, and writing it as a `.txn`
folder in NVIDIA's traceplayer format (models/txn.py reads it back; nvdla-ref's harness plays it).

Programs are made for the nv_full configuration (32-byte atom, nv_full CSB map): the caller sets
$CONFIG=nv_full before the models are imported, so the drivers encode for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from models.common.cube import CubeLayout
from models.common.driver import Surface
from models.steps import RegWrite
from models.txn import csb_word

ATOM = 32
# Regions of the two memories, far enough apart that no cube of a program overlaps another: nvdla-ref's
# harness serves both AXI ports from one memory, the model keeps two (0x5xxxxxxx is the CV SRAM).
DRAM, CVSRAM = 0x80000000, 0x50000000
REGION = 0x100000
BYTES_PER_LINE = 32      # of a .dat file, as nvdla-ref writes its .actual files
GOLDEN = "output.dat"


@dataclass
class Program:
    """One register program: memory images to load, register writes (ending with the OP_ENABLEs), the
    output region to dump, and what it was made from (written into the .txn as comments)."""

    name: str
    writes: list[RegWrite]
    loads: list[tuple[int, str, NDArray[np.uint8]]]   # (address, file name, bytes)
    dump: tuple[int, int]                              # (address, bytes)
    about: dict[str, object] = field(default_factory=dict)
    reads: list[tuple[str, str]] = field(default_factory=list)
    """(unit, register) read back after each run of the layer: statistics whose values NVIDIA's RTL gives
    (gen_ref_programs run records them as the read_reg's expected values)."""
    again: list[list[RegWrite]] = field(default_factory=list)
    """The writes of further layers, each run after the one before it finished (the hardware consumes
    the register groups in turn: the next layer is the other group's), so a statistic one layer late shows."""
    polls: list[tuple[str, str, int]] = field(default_factory=list)
    """(unit, register, value) read before the first D_OP_ENABLE until it reads value (CDMA's
    S_CBUF_FLUSH_STATUS before a convolution), retried as plusargs.txt says."""
    plusargs: str = ""
    """The program's plusargs.txt (+read_reg_poll_retries=N for its polls); none when empty."""


def surface(rng: np.random.Generator, slot: int, width: int, height: int, *, cv: bool = False,
            slack: int = 2) -> Surface:
    """A cube's place in memory slot `slot`: strides of whole atoms with 0..slack atoms of slack each."""
    line = (width + int(rng.integers(0, slack + 1))) * ATOM
    surf = (height * line) + int(rng.integers(0, slack + 1)) * ATOM
    return Surface((CVSRAM if cv else DRAM) + slot * REGION, line, surf, ram_mc=not cv)


def extent(layout: CubeLayout) -> tuple[int, int]:
    lo, hi = layout.extent()
    return lo, hi - lo


def random_image(rng: np.random.Generator, nbytes: int, elem_bytes: int,
                 bits: int | None = None) -> NDArray[np.uint8]:
    """nbytes of random little-endian elements: full range, or (bits) uniform in [-2^(bits-1), 2^(bits-1))
    so that some programs stay clear of saturation. Gaps between lines get the same random data: a unit that
    read them would show it."""
    top = 8 * elem_bytes
    b = top if bits is None else min(bits, top)
    n = -(-nbytes // elem_bytes)
    values = rng.integers(-(1 << (b - 1)), 1 << (b - 1), size=n)
    dtype = np.dtype("<i2") if elem_bytes == 2 else np.dtype(np.int8)
    return values.astype(dtype).view(np.uint8)[:nbytes]


# FP16 values the hardware treats specially: zeros, the largest finite values, infinities, NaNs (quiet,
# signalling, negative), the smallest and largest subnormals
FP16_SPECIALS = (0x0000, 0x8000, 0x7BFF, 0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0xFE55, 0x0001, 0x83FF)


def fp16_image(rng: np.random.Generator, nbytes: int, specials: float = 0.02) -> NDArray[np.uint8]:
    """nbytes of random FP16 numbers: magnitudes spread over 1e-6..1e4 (subnormals and sums that overflow
    included), with a `specials` share of FP16_SPECIALS."""
    n = -(-nbytes // 2)
    values = rng.standard_normal(n) * 10.0 ** rng.uniform(-6, 4, size=n)
    bits = values.astype(np.float16).view(np.uint16).astype(np.int64)
    special = rng.random(n) < specials
    bits[special] = rng.choice(np.array(FP16_SPECIALS, dtype=np.int64), size=int(special.sum()))
    return bits.astype("<u2").view(np.uint8)[:nbytes]


def image_of(rng: np.random.Generator, layout: CubeLayout, elem_bytes: int,
             bits: int | None = None, fp16: bool = False) -> tuple[int, NDArray[np.uint8]]:
    base, size = extent(layout)
    if fp16:
        return base, fp16_image(rng, size, 0.0 if bits is None else 0.05)
    return base, random_image(rng, size, elem_bytes, bits)


def dat_text(data: NDArray[np.uint8], header: dict[str, object]) -> str:
    """A `.dat` memory image: `Key = value` header lines, then the bytes, 32 a line."""
    lines = [f"{k} = {v}" for k, v in header.items()]
    for i in range(0, data.size, BYTES_PER_LINE):
        lines.append(" ".join(f"0x{b:02x}" for b in data[i:i + BYTES_PER_LINE]))
    return "\n".join(lines) + "\n"


def txn_text(prog: Program) -> str:
    """The program as NVIDIA's traceplayer commands (load_mem, write_reg, wait, dump_mem)."""
    out = [f"# {prog.name}: generated by scripts/gen_ref_programs.py"]
    out += [f"# {k} = {v}" for k, v in prog.about.items()]
    for addr, fname, data in prog.loads:
        out.append(f"load_mem {addr:#x} {data.size:#x} {fname}")
    polls = [read_reg_line(u, reg, value) for u, reg, value in prog.polls]
    for writes in (prog.writes, *prog.again):
        for u, reg, value in writes:
            if reg == "D_OP_ENABLE" and polls:
                out += polls
                polls = []
            out.append(f"write_reg {csb_word(u, reg):#010x} {value:#x} # {u}.{reg}")
        out.append("wait")
        # The harness waits for the interrupt level: clear it as NVIDIA's traces do.
        out.append(f"write_reg {csb_word('GLB', 'S_INTR_STATUS'):#010x} 0xffffffff # GLB.S_INTR_STATUS")
        out += [read_reg_line(unit, reg, UNREAD) for unit, reg in prog.reads]
    addr, size = prog.dump
    out.append(f"dump_mem {addr:#x} {size:#x} {GOLDEN}")
    return "\n".join(out) + "\n"


# The expected value of a read_reg NVIDIA's RTL has not answered yet: nvdla-ref prints what it reads when it
# differs from the expected value, and gen_ref_programs.py run writes that value in its place.
UNREAD = 0xDEADBEEF


def read_reg_line(unit: str, reg: str, value: int) -> str:
    return f"read_reg {csb_word(unit, reg):#010x} 0xffffffff {value:#010x} # {unit}.{reg}"


def write_program(folder: Path, prog: Program) -> None:
    """The program's folder: input.txn and its input images (the golden output comes from nvdla-ref)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "input.txn").write_text(txn_text(prog))
    if prog.plusargs:
        (folder / "plusargs.txt").write_text(prog.plusargs + "\n")
    for addr, fname, data in prog.loads:
        (folder / fname).write_text(dat_text(data, {"Address": f"{addr:#x}", "Data_size": f"{data.size:#x}"}))
