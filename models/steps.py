"""The steps every program for the subsystem is made of, whatever wrote it and whatever runs it.

Every format is read into these and nothing else: a `.cfg` trace (models/trace.py), a `.txn` trace
(models/txn.py), a mapped TFLite operator (tflite_nvdla/hw_plan.py), a benchmark's layer. One executor
(models/executor.py) runs them on any target: the model (models/subsystem.py ModelTarget), the RTL through
cocotb (tb/bench_target.py), the RTL through the plain C++ loop (tb/cpp_program.py writes the program).

Memory index 0 is the primary memory, 1 the second one (the CV SRAM, a trace's sec_mem). `where` names the
source line a step came from, for messages. A wait names its interrupt as the register description does:
the GLB S_INTR_STATUS field `<unit>_DONE_STATUS<group>` (models/regfile.py intr_bit), so a unit that gains a
done interrupt in the description needs no new step.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray


class StepError(ValueError):
    """A program that cannot be read or run as written; the message names the file and line."""


class RegWrite(NamedTuple):
    """One CSB register write: what drivers produce and traces hold."""

    unit: str
    reg: str
    value: int


@dataclass(frozen=True)
class RegRead:
    """(value & mask) == expected, read up to `retries` more times (a poll) on a target that runs."""

    unit: str
    reg: str
    mask: int
    expected: int
    retries: int
    where: str


@dataclass(frozen=True)
class MemFill:
    """Zero `size` bytes from addr (a trace's mem_init ALL_ZERO)."""

    mem: int
    addr: int
    size: int


@dataclass(frozen=True)
class MemWrite:
    """Load bytes into memory."""

    mem: int
    addr: int
    data: NDArray[np.uint8]


@dataclass(frozen=True)
class WaitInterrupt:
    """Wait for a unit's done interrupt of one register group (and clear it)."""

    unit: str
    group: int
    where: str

    @property
    def status_field(self) -> str:
        """The GLB S_INTR_STATUS field of this interrupt in the register description."""
        return f"{self.unit}_DONE_STATUS{self.group}"


@dataclass(frozen=True)
class CheckCrc:
    """The CRC-32 of a memory region must be `crc` (a `.cfg` trace's check)."""

    mem: int
    base: int
    size: int
    crc: int
    where: str


@dataclass(frozen=True)
class MemCheck:
    """The memory at addr must hold exactly these bytes (a `.txn` trace's dump_mem)."""

    mem: int
    addr: int
    data: NDArray[np.uint8]
    where: str


Step = RegWrite | RegRead | MemFill | MemWrite | WaitInterrupt | CheckCrc | MemCheck
CHECKS = (RegRead, CheckCrc, MemCheck)   # the steps that are checks (each one counts)

# Explains a failed CRC: (memory, base, size, actual bytes) -> where the first wrong element is
Locator = Callable[[int, int, int, NDArray[np.uint8]], str]


def crc_failure(step: CheckCrc, actual: NDArray[np.uint8], locate: Locator | None = None) -> str:
    """'' when the bytes have the golden CRC, else a message naming the region and, if known, the element."""
    crc = zlib.crc32(actual.tobytes()) & 0xFFFFFFFF
    if crc == step.crc:
        return ""
    detail = locate(step.mem, step.base, step.size, actual) if locate else ""
    region = f"[{step.base:#x}, +{step.size:#x})"
    return (f"{step.where}: CRC of {region} is {crc:#010x}, expected {step.crc:#010x}"
            + (f"; {detail}" if detail else ""))


def read_failure(step: RegRead, value: int) -> str:
    """'' when a read's value matches under its mask, else what was read and expected."""
    if value & step.mask == step.expected:
        return ""
    return (f"{step.where}: {step.unit}.{step.reg} reads {value:#010x}, (& {step.mask:#010x}) "
            f"expected {step.expected:#010x}")


def mem_failure(step: MemCheck, actual: NDArray[np.uint8], locate: Locator | None = None) -> str:
    """'' when the memory holds a MemCheck's bytes, else how many differ and the first; `locate` (a replay
    with the model alongside) adds where the target's bytes first differ from the model's: unit, (w, h, c),
    expected, actual."""
    diff = np.flatnonzero(actual != step.data)
    if diff.size == 0:
        return ""
    first = int(diff[0])
    detail = locate(step.mem, step.addr, step.data.size, actual) if locate else ""
    return (f"{step.where}: memory [{step.addr:#x}, +{step.data.size:#x}) differs from the image in "
            f"{diff.size} bytes, first at {step.addr + first:#x}: {int(actual[first]):#04x}, "
            f"expected {int(step.data[first]):#04x}" + (f"; {detail}" if detail else ""))
