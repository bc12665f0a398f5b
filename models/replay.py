"""Replay of NVDLA trace tests on the reference model.

`ModelTarget` holds what the hardware holds: the register file of each unit with its two register groups
(S_POINTER producer/consumer, D_OP_ENABLE, writes to a running group dropped), the LUT RAMs behind
S_LUT_ACCESS_*, the GLB interrupt status, and the memories. A unit runs when its own D_OP_ENABLE and the
D_OP_ENABLE of every partner it needs (its RDMA, or the SDP feeding PDP on the fly) are set for the groups
their consumer pointers select, in whatever order the trace writes them.

`replay(folder, target)` runs a trace folder against any target with the same small interface (the RTL
replay implements it over cocotb) and returns a `TraceResult`.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from models import registers as regmap
from models.errors import ConfigError
from models.memory import Memory
from models.trace import Command, TraceError, load_dat, parse_cfg, parse_int, trace_cfg

# GLB S_INTR_STATUS bit of each unit's done, group 0 (group 1 is the next bit).
INTR_BIT = {"SDP": 0, "CDP": 2, "PDP": 4}
RDMA_OF = {"SDP": "SDP_RDMA", "PDP": "PDP_RDMA", "CDP": "CDP_RDMA"}
MEMORIES = {"pri_mem": 0, "1": 0, "0": 0, "sec_mem": 1, "2": 1}


@dataclass(frozen=True)
class OutputLayout:
    """Where an operation wrote its output: lets a byte address be named as a cube coordinate."""

    unit: str
    group: int
    base: int
    line_stride: int
    surface_stride: int
    width: int
    height: int
    channels: int
    atom_bytes: int = 8

    def coordinate(self, addr: int) -> tuple[int, int, int] | None:
        """(w, h, c) of the element at addr, or None if addr is not inside this output."""
        off = addr - self.base
        if off < 0:
            return None
        surfaces = -(-self.channels // self.atom_bytes)
        for s in range(surfaces):
            rel = off - s * self.surface_stride
            if rel < 0:
                break
            h, rem = divmod(rel, self.line_stride) if self.line_stride else (0, rel)
            w, lane = divmod(rem, self.atom_bytes)
            if h < self.height and w < self.width:
                return w, h, s * self.atom_bytes + lane
        return None


@dataclass
class UnitRegs:
    """One unit's register file: single registers, two register groups, pointer and op_en per group."""

    name: str
    single: dict[str, int] = field(default_factory=dict)
    groups: list[dict[str, int]] = field(default_factory=list)
    producer: int = 0
    consumer: int = 0
    op_en: list[bool] = field(default_factory=lambda: [False, False])

    @classmethod
    def reset(cls, name: str) -> UnitRegs:
        regs = regmap.registers(name)
        single = {n: r["reset"] for n, r in regs.items() if r["group"] == "single"}
        group = {n: r["reset"] for n, r in regs.items() if r["group"] != "single"}
        return cls(name, single, [dict(group), dict(group)])

    def fields(self, group: int) -> dict[str, int]:
        return regmap.decode_fields(self.name, {**self.single, **self.groups[group]})

    def status(self) -> int:
        def one(g: int) -> int:
            return 0 if not self.op_en[g] else (1 if self.consumer == g else 2)
        return one(0) | (one(1) << 16)


class Target(Protocol):
    """What a trace needs from a design under replay (the model here, the RTL in tb/)."""

    def reg_write(self, unit: str, reg: str, value: int) -> None: ...
    def mem_fill(self, mem: int, addr: int, size: int, value: int) -> None: ...
    def mem_write(self, mem: int, addr: int, data: NDArray[np.uint8]) -> None: ...
    def mem_read(self, mem: int, addr: int, size: int) -> NDArray[np.uint8]: ...
    def wait_interrupt(self, unit: str, group: int) -> bool: ...
    def describe_pending(self) -> str: ...


@dataclass
class RunRecord:
    """One operation the model ran: its unit, group, output layout and statistics."""

    unit: str
    group: int
    layout: OutputLayout | None
    stats: dict[str, int]


class ModelTarget:
    """The reference model behind the register interface."""

    def __init__(self, atom_bytes: int = 8) -> None:
        self.atom_bytes = atom_bytes
        self.units = {name: UnitRegs.reset(name) for name in regmap.UNITS if name != "GLB"}
        self.glb = {"S_INTR_MASK": 0, "S_INTR_STATUS": 0}
        self.memories = [Memory(), Memory()]
        self.luts: dict[str, Any] = {}
        self.runs: list[RunRecord] = []

    # --- memory -------------------------------------------------------------------------------------------
    def mem_fill(self, mem: int, addr: int, size: int, value: int) -> None:
        self.memories[mem].fill(addr, size, value)

    def mem_write(self, mem: int, addr: int, data: NDArray[np.uint8]) -> None:
        self.memories[mem].write(addr, data)

    def mem_read(self, mem: int, addr: int, size: int) -> NDArray[np.uint8]:
        return self.memories[mem].read(addr, size)

    # --- registers ----------------------------------------------------------------------------------------
    def lut(self, unit: str) -> Any:
        if unit not in self.luts:
            from models.lut import LutRam  # the LUT model is only needed by traces that program a LUT

            # CDP's access pointer saturates at the end of a table, SDP's wraps (regmap README, LUT access).
            self.luts[unit] = LutRam(saturating=(unit == "CDP"))
        return self.luts[unit]

    def reg_write(self, unit: str, reg: str, value: int) -> None:
        value &= 0xFFFFFFFF
        if unit == "GLB":
            self._glb_write(reg, value)
            return
        u = self.units[unit]
        info = regmap.registers(unit)[reg]
        if reg == "S_POINTER":
            u.producer = value & 1
        elif reg in ("S_LUT_ACCESS_CFG", "S_LUT_ACCESS_DATA"):
            port = self.lut(unit)
            (port.write_cfg if reg == "S_LUT_ACCESS_CFG" else port.write_data)(value)
            u.single[reg] = value
        elif info["group"] == "single":
            if info["access"] != "RO":
                u.single[reg] = value
        elif reg == "D_OP_ENABLE":
            g = u.producer
            if not u.op_en[g]:
                u.op_en[g] = bool(value & 1)
                self._launch_ready()
        elif info["access"] != "RO" and not u.op_en[u.producer]:
            u.groups[u.producer][reg] = value  # a running group's registers are write-protected

    def _glb_write(self, reg: str, value: int) -> None:
        if reg == "S_INTR_MASK":
            self.glb["S_INTR_MASK"] = value & 0x3F
        elif reg == "S_INTR_SET":
            self.glb["S_INTR_STATUS"] |= value & 0x3F
        elif reg == "S_INTR_STATUS":
            self.glb["S_INTR_STATUS"] &= ~value  # write 1 to clear

    def reg_read(self, unit: str, reg: str) -> int:
        if unit == "GLB":
            return {"S_NVDLA_HW_VERSION": regmap.reset_values("GLB")["S_NVDLA_HW_VERSION"],
                    "S_INTR_SET": 0}.get(reg, self.glb.get(reg, 0))
        u = self.units[unit]
        if reg == "S_POINTER":
            return u.producer | (u.consumer << 16)
        if reg == "S_STATUS":
            return u.status()
        if reg == "D_OP_ENABLE":
            return int(u.op_en[u.producer])
        info = regmap.registers(unit)[reg]
        return u.single.get(reg, 0) if info["group"] == "single" else u.groups[u.producer][reg]

    # --- interrupts ---------------------------------------------------------------------------------------
    def wait_interrupt(self, unit: str, group: int) -> bool:
        bit = 1 << (INTR_BIT[unit] + group)
        if not self.glb["S_INTR_STATUS"] & bit:
            return False
        self.glb["S_INTR_STATUS"] &= ~bit  # the player clears what it waited for
        return True

    def describe_pending(self) -> str:
        parts = []
        for name, u in self.units.items():
            if any(u.op_en):
                parts.append(f"{name} op_en={[int(x) for x in u.op_en]} consumer={u.consumer}")
        return "; ".join(parts) or "no unit enabled"

    # --- running units ------------------------------------------------------------------------------------
    def _enabled(self, unit: str) -> bool:
        u = self.units[unit]
        return u.op_en[u.consumer]

    def _launch_ready(self) -> None:
        # Each launch completes a group and may free the next, so repeat until nothing more can start.
        progress = True
        while progress:
            progress = False
            for unit in ("SDP", "CDP", "PDP"):
                if self._enabled(unit) and self._try_run(unit):
                    progress = True

    def _fields(self, *units: str) -> dict[str, dict[str, int]]:
        return {n: self.units[n].fields(self.units[n].consumer) for n in units}

    def _done(self, unit: str, stats: dict[str, int], layout: OutputLayout | None) -> None:
        u = self.units[unit]
        g = u.consumer
        self._store_stats(unit, g, stats)
        self.runs.append(RunRecord(unit, g, layout, stats))
        u.op_en[g] = False
        u.consumer ^= 1
        rdma = self.units[RDMA_OF[unit]]
        if rdma.op_en[rdma.consumer]:
            rdma.op_en[rdma.consumer] = False
            rdma.consumer ^= 1
        self.glb["S_INTR_STATUS"] |= 1 << (INTR_BIT[unit] + g)

    def _store_stats(self, unit: str, group: int, stats: dict[str, int]) -> None:
        regs = regmap.registers(unit)
        for reg, value in stats.items():
            if reg in regs:
                self.units[unit].groups[group][reg] = value & 0xFFFFFFFF

    def _rdma_ready(self, unit: str) -> bool:
        return self._enabled(RDMA_OF[unit])

    def _try_run(self, unit: str) -> bool:
        runner: Callable[[], bool] = {"SDP": self._run_sdp, "CDP": self._run_cdp, "PDP": self._run_pdp}[unit]
        return runner()

    def _run_cdp(self) -> bool:
        from models import cdp

        if not self._rdma_ready("CDP"):
            return False
        fields = self._fields("CDP", "CDP_RDMA")
        cfg = cdp.CdpConfig.from_fields(fields, atom_bytes=self.atom_bytes, tables=self.lut("CDP").tables())
        res = cdp.run_cdp(cfg, self.memories[0])
        self._done("CDP", _cdp_stats(res), _layout("CDP", self.units["CDP"].consumer, fields["CDP"], "D_DST",
                                                   cfg_dims(fields["CDP_RDMA"], "D_DATA_CUBE"),
                                                   self.atom_bytes))
        return True

    def _run_pdp(self, flying_input: NDArray[np.integer] | None = None) -> bool:
        from models import pdp

        fields = self._fields("PDP", "PDP_RDMA")
        cfg = pdp.PdpConfig.from_fields(fields, atom_bytes=self.atom_bytes)
        if cfg.flying and flying_input is None:
            return False  # waits for the SDP that feeds it
        if not cfg.flying and not self._rdma_ready("PDP"):
            return False
        pdp.run_pdp(cfg, self.memories[0], flying_input=flying_input)
        layout = OutputLayout("PDP", self.units["PDP"].consumer, cfg.dst_base, cfg.dst_line_stride,
                              cfg.dst_surface_stride, cfg.out_width, cfg.out_height, cfg.out_channels,
                              self.atom_bytes)
        self._done("PDP", {}, layout)
        return True

    def _run_sdp(self) -> bool:
        from models import sdp

        fields = self._fields("SDP", "SDP_RDMA")
        cfg = sdp.SdpConfig.from_fields(fields, atom_bytes=self.atom_bytes)
        if _sdp_needs_rdma(fields["SDP_RDMA"], cfg.flying_in) and not self._rdma_ready("SDP"):
            return False
        if cfg.to_pdp and not self._enabled("PDP"):
            return False  # on the fly to PDP: both must be enabled, SDP stalls otherwise
        tables = self.lut("SDP").tables() if "SDP" in self.luts else None
        res = sdp.run_sdp(cfg, self.memories[0], sec_mem=self.memories[1], lut_tables=tables)
        layout = None
        if res.written:
            layout = OutputLayout("SDP", self.units["SDP"].consumer, cfg.dst_base, cfg.dst_line_stride,
                                  cfg.dst_surface_stride, cfg.width, cfg.height, cfg.channels,
                                  self.atom_bytes)
        stats = {"D_PERF_OUT_SATURATION": res.saturation_count, "D_STATUS": int(res.status_unequal)}
        stats.update({f"D_PERF_LUT_{k.upper()}": v for k, v in res.lut_stats.items()})
        self._done("SDP", stats, layout)
        if cfg.to_pdp:
            flying = res.flying_output
            if not self._run_pdp(flying_input=flying):
                raise TraceError("SDP sends its output on the fly but PDP is not in on-the-fly mode")
        return True


def _sdp_needs_rdma(rdma: dict[str, int], flying_in: bool) -> bool:
    operands = any(rdma.get(f"D_{b}_CFG.{b}_DISABLE", 1) == 0 for b in ("BRDMA", "NRDMA", "ERDMA"))
    return operands or not flying_in


def _cdp_stats(res: Any) -> dict[str, int]:
    stats = {"D_OUT_SATURATION": int(getattr(res, "out_saturation", 0))}
    for name in ("le_hit", "lo_hit", "uflow", "oflow", "hybrid"):
        if hasattr(res, name):
            stats[f"D_PERF_LUT_{name.upper()}"] = int(getattr(res, name))
    return stats


def cfg_dims(fields: dict[str, int], prefix: str) -> tuple[int, int, int]:
    """(width, height, channels) of a unit's D_DATA_CUBE_* registers (stored minus one)."""
    def get(axis: str) -> int:
        for key, value in fields.items():
            if key.startswith(f"{prefix}_{axis}.") or key.startswith(f"{prefix}_IN_{axis}."):
                return value + 1
        return 1
    return get("WIDTH"), get("HEIGHT"), get("CHANNEL")


def _layout(unit: str, group: int, fields: dict[str, int], prefix: str, dims: tuple[int, int, int],
            atom: int) -> OutputLayout:
    def get(suffix: str) -> int:
        for key, value in fields.items():
            if key.startswith(f"{prefix}_{suffix}."):
                return value
        return 0
    return OutputLayout(unit, group, get("BASE_ADDR_LOW"), get("LINE_STRIDE"), get("SURFACE_STRIDE"), *dims,
                        atom_bytes=atom)


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
class RegWrite:
    unit: str
    reg: str
    value: int


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


Step = RegWrite | MemFill | MemWrite | WaitInterrupt | CheckCrc


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
    if cmd.op == "mem_init":
        if cmd.args[3] != "ALL_ZERO":
            raise TraceError(f"{where}: mem_init pattern {cmd.args[3]} is not supported (ALL_ZERO is)")
        return [MemFill(_mem_id(cmd.args[0], where), parse_int(cmd.args[1], where),
                        parse_int(cmd.args[2], where))]
    if cmd.op == "mem_load":
        mem, base = _mem_id(cmd.args[0], where), parse_int(cmd.args[1], where)
        return [MemWrite(mem, base + off, data) for off, data in load_dat(folder / cmd.args[2].strip('"'))]
    if cmd.op == "intr_notify":
        unit, _, group = cmd.args[0].rpartition("_")
        if unit not in INTR_BIT or group not in ("0", "1"):
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


def replay(folder: Path, target: Target, locate: Locator | None = None) -> TraceResult:
    """Run one trace folder; `locate(mem, base, size, actual)` explains a failed CRC (first bad element)."""
    name = folder.name
    checks = 0
    try:
        for step in trace_steps(folder):
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
                w, h, c = coord
                return (f"first mismatch {run.unit} group {run.group} at w={w} h={h} c={c} "
                        f"(address {addr:#x}): "
                        f"expected {exp}, actual {act}; {diff.size} bytes differ")
        return f"first mismatch at address {addr:#x}: expected {exp}, actual {act}; {diff.size} bytes differ"
    return locate


def replay_on_model(folder: Path, atom_bytes: int = 8) -> TraceResult:
    return replay(folder, ModelTarget(atom_bytes))
