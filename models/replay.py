"""Replay of NVDLA trace tests: trace folders parsed into checked steps, run against a target.

`replay(folder, target)` runs a trace folder against any target with the same small interface (the RTL
replay implements it over cocotb) and returns a `TraceResult`.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from models import configs
from models import registers as regmap
from models.configs import Configuration
from models.errors import ConfigError
from models.regfile import INTR_UNITS, RegWrite
from models.subsystem import ModelTarget
from models.trace import Command, TraceError, load_dat, parse_cfg, parse_int, trace_cfg

MEMORIES = {"pri_mem": 0, "1": 0, "0": 0, "sec_mem": 1, "2": 1}
# poll_reg_equal: reads a target retries (the RTL: POLL_CYCLES apart) before the value must match
POLL_RETRIES = 1000


class Target(Protocol):
    """What a trace needs from a design under replay (the model here, the RTL in tb/)."""

    def reg_write(self, unit: str, reg: str, value: int) -> None: ...
    def mem_fill(self, mem: int, addr: int, size: int, value: int) -> None: ...
    def mem_write(self, mem: int, addr: int, data: NDArray[np.uint8]) -> None: ...
    def mem_read(self, mem: int, addr: int, size: int) -> NDArray[np.uint8]: ...
    def wait_interrupt(self, unit: str, group: int) -> bool: ...
    def describe_pending(self) -> str: ...


@dataclass
class TraceResult:
    name: str
    passed: bool
    checks: int = 0
    message: str = ""


def _mem_id(text: str, where: str) -> int:
    try:
        return MEMORIES[text]
    except KeyError:
        raise TraceError(f"{where}: unknown memory {text!r} (pri_mem, sec_mem)") from None


Locator = Callable[[int, int, int, NDArray[np.uint8]], str]


@dataclass(frozen=True)
class MemFill:
    mem: int
    addr: int
    size: int


@dataclass(frozen=True)
class MemWrite:
    mem: int
    addr: int
    data: NDArray[np.uint8]


@dataclass(frozen=True)
class WaitInterrupt:
    unit: str
    group: int
    where: str


@dataclass(frozen=True)
class CheckCrc:
    mem: int
    base: int
    size: int
    crc: int
    where: str


@dataclass(frozen=True)
class RegRead:
    """`.txn` read_reg: (value & mask) == expected, retried up to `retries` times on a target that runs."""

    unit: str
    reg: str
    mask: int
    expected: int
    retries: int
    where: str


@dataclass(frozen=True)
class MemCheck:
    """`.txn` dump_mem: the memory at addr must hold exactly these bytes."""

    mem: int
    addr: int
    data: NDArray[np.uint8]
    where: str


Step = RegWrite | MemFill | MemWrite | WaitInterrupt | CheckCrc | RegRead | MemCheck


def trace_steps(folder: Path) -> list[Step]:
    """A trace folder as resolved steps, every name and number checked before anything runs."""
    steps: list[Step] = []
    fired: set[str] = set()
    for cmd in parse_cfg(trace_cfg(folder)):
        steps.extend(_resolve(folder, cmd, fired))
    return steps


def _resolve(folder: Path, cmd: Command, fired: set[str]) -> list[Step]:
    where = cmd.where()
    if cmd.op == "reg_write":
        try:
            unit, reg = regmap.lookup_trace_name(cmd.args[0])
        except KeyError as err:
            raise TraceError(f"{where}: {err.args[0]}") from None
        return [RegWrite(unit, reg, parse_int(cmd.args[1], where) & 0xFFFFFFFF)]
    if cmd.op == "poll_reg_equal":
        try:
            unit, reg = regmap.lookup_trace_name(cmd.args[0])
        except KeyError as err:
            raise TraceError(f"{where}: {err.args[0]}") from None
        expected = parse_int(cmd.args[1], where) & 0xFFFFFFFF
        return [RegRead(unit, reg, 0xFFFFFFFF, expected, POLL_RETRIES, where)]
    if cmd.op in ("sync_notify", "sync_wait"):
        # NVIDIA's player runs each unit's commands in its own thread and orders them with these; replayed
        # in file order, a wait is met by a notify written before it
        if cmd.op == "sync_notify":
            fired.add(f"sync:{cmd.args[1]}")
        elif f"sync:{cmd.args[1]}" not in fired:
            raise TraceError(f"{where}: sync_wait for {cmd.args[1]}, which no earlier sync_notify fired")
        return []
    if cmd.op == "mem_init":
        if cmd.args[3] != "ALL_ZERO":
            raise TraceError(f"{where}: mem_init pattern {cmd.args[3]} is not supported (ALL_ZERO is)")
        return [MemFill(_mem_id(cmd.args[0], where), parse_int(cmd.args[1], where),
                        parse_int(cmd.args[2], where))]
    if cmd.op == "mem_load":
        mem, base = _mem_id(cmd.args[0], where), parse_int(cmd.args[1], where)
        return [MemWrite(mem, base + off, data) for off, data in load_dat(folder / cmd.args[2].strip('"'))]
    if cmd.op == "intr_notify":
        unit, _, group = cmd.args[0].upper().rpartition("_")   # the convolution traces write cdma_dat_0
        if unit not in INTR_UNITS or group not in ("0", "1"):
            raise TraceError(f"{where}: unknown interrupt {cmd.args[0]!r}")
        fired.add(cmd.args[1])
        return [WaitInterrupt(unit, int(group), where)]
    # check_crc / check_nothing
    if cmd.args[0] not in fired:
        raise TraceError(f"{where}: {cmd.args[0]} is checked but never notified")
    if cmd.op == "check_nothing":
        return []
    base, size, crc = (parse_int(a, where) for a in cmd.args[2:5])
    return [CheckCrc(_mem_id(cmd.args[1], where), base, size, crc, where)]


def crc_failure(step: CheckCrc, actual: NDArray[np.uint8], locate: Locator | None = None) -> str:
    """'' when the bytes have the golden CRC, else a message naming the region and, if known, the element."""
    crc = zlib.crc32(actual.tobytes()) & 0xFFFFFFFF
    if crc == step.crc:
        return ""
    detail = locate(step.mem, step.base, step.size, actual) if locate else ""
    region = f"[{step.base:#x}, +{step.size:#x})"
    return (f"{step.where}: CRC of {region} is {crc:#010x}, expected {step.crc:#010x}"
            + (f"; {detail}" if detail else ""))


def load_steps(folder: Path) -> tuple[list[Step], str]:
    """(steps, why the trace cannot run here or '') of a `.cfg` or `.txn` trace folder."""
    # models.txn builds on this module's steps, hence the import here rather than at the top.
    from models import txn

    if txn.is_txn_folder(folder):
        trace = txn.txn_trace(folder)
        return trace.steps, trace.skip
    return trace_steps(folder), ""


SDP_TO_PDP = "SDP->PDP on the fly"
OUTPUT_DST_PDP = 1 << 1   # SDP D_FEATURE_MODE_CFG.OUTPUT_DST
# nv_small has one memory interface; larger NVDLA configurations add the CV SRAM (a trace's sec_mem)
SECOND_MEMORY = "a second memory (sec_mem)"
BDMA = "BDMA"


def capabilities(config: Configuration) -> frozenset[str]:
    """Units, capabilities and precisions a configuration has (the model follows it; the RTL builds each
    unit's precisions as far as it has them: tb/trace_rtl.py rtl_capabilities). A precision is there both
    plainly ("INT16") and per datapath unit ("INT16 PDP"), the form trace_needs names it in."""
    extra = set(config.precisions) - {"INT8"}
    return frozenset({"PDP", "CDP", "SDP", SDP_TO_PDP, *configs.CONV_UNITS, conv_layout(config)}
                     | ({SECOND_MEMORY} if config.second_memory else set())
                     | ({BDMA} if config.bdma else set()) | set(config.precisions)
                     | {unit_precision(p, u) for p in extra for u in PRECISION_UNITS})


PRECISION_UNITS = ("PDP", "CDP", "SDP")   # the datapath units with precision fields (their RDMAs included)


def unit_precision(precision: str, unit: str) -> str:
    """A precision one datapath unit (or its RDMA) needs, as trace_needs and capabilities name it."""
    return f"{precision} {unit.removesuffix('_RDMA')}"


def trace_needs(steps: list[Step]) -> set[str]:
    """The datapath units whose D_OP_ENABLE the steps write with 1, BDMA if they program it, the
    capabilities they need (SDP feeding PDP on the fly, a second memory) and the precisions beyond INT8."""
    needed = {s.unit for s in steps if isinstance(s, RegWrite) and s.reg == "D_OP_ENABLE" and s.value & 1
              and not s.unit.endswith("_RDMA")}
    if any(isinstance(s, RegWrite) and s.unit == "SDP" and s.reg == "D_FEATURE_MODE_CFG"
           and s.value & OUTPUT_DST_PDP for s in steps):
        needed.add(SDP_TO_PDP)
    if any(getattr(s, "mem", 0) != 0 for s in steps):
        needed.add(SECOND_MEMORY)
    if any(isinstance(s, RegWrite) and s.unit == BDMA for s in steps):
        needed.add(BDMA)
    return needed | _precisions_written(steps)


def conv_layout(config: Configuration) -> str:
    """The capability a convolution trace's weight image needs: NVIDIA's weight layout in memory follows the
    configuration's atomic C and K (docs/convolution.md), so a trace runs only where they are its own."""
    return f"convolution weights laid out for atomic C {config.conv.atomic_c}, K {config.conv.atomic_k}"


def folder_needs(folder: Path, steps: list[Step]) -> set[str]:
    """trace_needs, and for a trace enabling the convolution pipeline the weight layout of its own
    configuration (its folder's: trace_config(env=False))."""
    needed = trace_needs(steps)
    if needed & set(configs.CONV_UNITS):
        needed.add(conv_layout(trace_config(folder, env=False)))
    return needed


def _precisions_written(steps: list[Step]) -> set[str]:
    """The precisions other than INT8 that the steps' register writes select (any precision field), each
    plainly and for the unit whose field selects it ("INT16", "INT16 SDP"): a design may have a precision
    in some units only (the RTL, while its datapaths gain INT16 one by one)."""
    from models.txn import precision_fields  # models.txn builds on this module

    found: set[str] = set()
    for s in steps:
        if isinstance(s, RegWrite):
            for msb, lsb, names in precision_fields().get((s.unit, s.reg), {}).values():
                name = names.get(regmap.field_value(s.value, msb, lsb), "INT8")
                if name != "INT8":
                    found |= {name, unit_precision(name, s.unit)}
    return found


def _read_failure(step: RegRead, target: Target) -> str:
    """'' when the register reads as expected (the model runs at once, so polling cannot change it)."""
    reader = getattr(target, "reg_read", None)
    if reader is None:
        return f"{step.where}: this target cannot read registers"
    return read_failure(step, reader(step.unit, step.reg))


def read_failure(step: RegRead, value: int) -> str:
    """'' when a read_reg's value matches under its mask, else what was read and expected."""
    if value & step.mask == step.expected:
        return ""
    return (f"{step.where}: {step.unit}.{step.reg} reads {value:#010x}, (& {step.mask:#010x}) "
            f"expected {step.expected:#010x}")


def mem_failure(step: MemCheck, actual: NDArray[np.uint8]) -> str:
    """'' when the memory holds a dump_mem's bytes, else how many differ and the first."""
    diff = np.flatnonzero(actual != step.data)
    if diff.size == 0:
        return ""
    first = int(diff[0])
    return (f"{step.where}: memory [{step.addr:#x}, +{step.data.size:#x}) differs from the image in "
            f"{diff.size} bytes, first at {step.addr + first:#x}: {int(actual[first]):#04x}, "
            f"expected {int(step.data[first]):#04x}")


def replay(folder: Path, target: Target, locate: Locator | None = None) -> TraceResult:
    """Run one trace folder; `locate(mem, base, size, actual)` explains a failed CRC (first bad element).

    A trace needing what the design lacks returns a result whose message starts with "SKIP".
    """
    name = folder.name
    checks = 0
    try:
        steps, skip = load_steps(folder)
        if skip:
            return TraceResult(name, False, 0, f"SKIP: {skip}")
        config = getattr(target, "config", None)
        lacks = (folder_needs(folder, steps) - capabilities(config) if isinstance(config, Configuration)
                 else set())
        if lacks:
            return TraceResult(name, False, 0, f"SKIP: needs {', '.join(sorted(lacks))}, which configuration "
                                               f"{config.name} lacks")
        for step in steps:
            if isinstance(step, RegWrite):
                target.reg_write(step.unit, step.reg, step.value)
            elif isinstance(step, MemFill):
                target.mem_fill(step.mem, step.addr, step.size, 0)
            elif isinstance(step, MemWrite):
                target.mem_write(step.mem, step.addr, step.data)
            elif isinstance(step, WaitInterrupt):
                if not target.wait_interrupt(step.unit, step.group):
                    raise TraceError(f"{step.where}: {step.unit}_{step.group} never raised "
                                     f"({target.describe_pending()})")
            elif isinstance(step, RegRead):
                checks += 1
                msg = _read_failure(step, target)
                if msg:
                    return TraceResult(name, False, checks, msg)
            elif isinstance(step, MemCheck):
                checks += 1
                msg = mem_failure(step, target.mem_read(step.mem, step.addr, step.data.size))
                if msg:
                    return TraceResult(name, False, checks, msg)
            else:
                checks += 1
                msg = crc_failure(step, target.mem_read(step.mem, step.base, step.size), locate)
                if msg:
                    return TraceResult(name, False, checks, msg)
    except TraceError as err:
        return TraceResult(name, False, checks, str(err))
    except ConfigError as err:
        return TraceResult(name, False, checks, f"configuration rejected: {err}")
    except Exception as err:  # noqa: BLE001
        # Whatever stops this trace (a model that cannot run it, an unreadable file) fails this trace only,
        # saying why; the others of the batch still run.
        return TraceResult(name, False, checks, f"{type(err).__name__}: {err}")
    return TraceResult(name, True, checks)


def locate_against(reference: ModelTarget) -> Locator:
    """A locator naming the first byte where a target's memory differs from the reference model's."""
    def locate(mem: int, base: int, size: int, actual: NDArray[np.uint8]) -> str:
        expected = reference.mem_read(mem, base, size)
        diff = np.flatnonzero(expected != actual)
        if diff.size == 0:
            return "the model's memory has the same bytes (the model disagrees with the golden CRC too)"
        addr = base + int(diff[0])
        exp, act = int(expected[diff[0]].view(np.int8)), int(actual[diff[0]].view(np.int8))
        for run in reversed(reference.runs):
            coord = run.layout.coordinate(addr) if run.layout else None
            if coord:
                c, h, w = coord
                return (f"first mismatch {run.unit} group {run.group} at w={w} h={h} c={c} "
                        f"(address {addr:#x}): "
                        f"expected {exp}, actual {act}; {diff.size} bytes differ")
        return f"first mismatch at address {addr:#x}: expected {exp}, actual {act}; {diff.size} bytes differ"
    return locate


def replay_on_model(folder: Path, config: Configuration | None = None) -> TraceResult:
    """Replay on the model of a configuration (default: the trace's, trace_config)."""
    return replay(folder, ModelTarget(config or trace_config(folder)))


def replay_on_own_config(folder: Path) -> TraceResult:
    """Replay on the model of the trace's own configuration (its folder's or format's), whatever $CONFIG the
    run is at: for checks of a given trace set (NVIDIA's nv_full programs are nv_full's under any CONFIG)."""
    return replay_on_model(folder, trace_config(folder, env=False))


def trace_config(folder: Path, env: bool = True) -> Configuration:
    """The configuration a trace runs on: $CONFIG (when `env`), else its folder's name, else its format's
    (`.txn`: nv_full's traceplayer, `.cfg`: the default). env=False: the trace's own configuration, for
    checks of a trace set whatever configuration the run is at."""
    from models import txn

    fallback = txn.TXN_CONFIG if txn.is_txn_folder(folder) else configs.DEFAULT
    return configs.for_trace_folder(folder, fallback, env)
