"""Parser of NVIDIA's older `.txn` traces (traceplayer, nv_full) into steps (models/steps.py).

A `.txn` trace is a folder with `input.txn`, its `.dat` memory images and optionally `plusargs.txt`
(docs: ../shared/notes/nvdla-configs.md, "The `.txn` format"). Commands, one a line, `#` starts a comment:
`write_reg 0xffffNNNN VALUE`, `read_reg 0xffffNNNN MASK EXPECTED`, `load_mem ADDR SIZE FILE`,
`dump_mem ADDR SIZE FILE` (memory must equal FILE: the check of this format) and `wait`.

Addresses are CSB word addresses of the nv_full map. nv_full places the units at other windows than
nv_small, with the same registers inside each window, so an address is mapped as (nv_full window, offset)
-> this project's unit at that offset, through the generated register map. A trace that writes a unit this
subsystem lacks, or asks for a precision the model lacks, is not run: `TxnTrace.skip` says why.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from models import configs
from models import registers as regmap
from models.bdma.model import LAUNCH, memory_of
from models.common.memory import Memory
from models.regfile import INTR_UNITS
from models.steps import MemCheck, MemWrite, RegRead, RegWrite, Step, WaitInterrupt
from models.trace import TXN_FILE, Command, TraceError, parse_int

TXN_NAME = TXN_FILE
KNOWN = {"write_reg": 2, "read_reg": 3, "load_mem": 3, "dump_mem": 3, "wait": 0}

# nv_full, the one configuration traced in this format, has its own CSB map (the description's csb_maps):
# byte base -> unit. Only the bases differ; the register offsets inside a window are the same.
TXN_CONFIG = "nv_full"
NV_FULL_WINDOWS = {base: unit for unit, base in configs.load(TXN_CONFIG).csb_windows.items()}
_WINDOW = 0x1000
# NVIDIA's nv_full trace benches (verif/verilator/nvdla.cpp, verif/synth_tb) place a load_mem/dump_mem by its
# address: 0x5xxxxxxx is the CV SRAM, 0x8xxxxxxx the external memory (DBB). Memory 1 and 0 here.
_CVSRAM_REGION, _REGION_MASK = 0x50000000, 0xF0000000
# The precisions each unit's model computes (PdpConfig, SdpConfig and CdpConfig: INT8, INT16 and FP16); the
# field's fourth value names none.
_INT8 = frozenset({"INT8"})
_INTS = frozenset({"INT8", "INT16"})
MODEL_PRECISIONS = {unit: _INTS | {"FP16"}
                    for unit in ("PDP", "PDP_RDMA", "SDP", "SDP_RDMA", "CDP", "CDP_RDMA", "RUBIK")}
_CSB = re.compile(r"^0x[fF]{4}([0-9a-fA-F]{4})$")
_BYTE = re.compile(r"^0x[0-9a-fA-F]{1,2}$")
_HEADER = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(\S.*?)\s*$")


@dataclass
class TxnTrace:
    """A `.txn` folder resolved: its steps, and why it cannot run here ('' when it can)."""

    steps: list[Step]
    skip: str = ""
    # what is missing (a unit, a precision) -> the writes needing it, as "UNIT.REG.FIELD at file:line"
    reasons: dict[str, list[str]] = field(default_factory=dict)


def is_txn_folder(folder: Path) -> bool:
    return (folder / TXN_NAME).is_file()


def parse_txn(path: Path) -> list[Command]:
    """The commands of a `.txn` file; a bad line is a TraceError naming file and line."""
    if not path.is_file():
        raise TraceError(f"{path}: trace file not found")
    commands = []
    for lineno, raw in enumerate(path.read_text().splitlines(), start=1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        op, args = words[0], tuple(words[1:])
        commands.append(Command.checked(op, args, path, lineno, KNOWN))
    return commands


def parse_plusargs(folder: Path) -> dict[str, str]:
    """`+key=value` / `+flag` words of plusargs.txt beside a trace (empty when there is none)."""
    path = folder / "plusargs.txt"
    if not path.is_file():
        return {}
    out = {}
    for word in path.read_text().split():
        if not word.startswith("+"):
            raise TraceError(f"{path}: {word!r} is not a +plusarg")
        key, _, value = word[1:].partition("=")
        out[key] = value
    return out


def load_txn_dat(path: Path, where: str) -> tuple[dict[str, str], NDArray[np.uint8]]:
    """A text `.dat`: header lines (`Key = value`, or NVIDIA's dump banner), the `0x..` bytes in address
    order, then possibly a text trailer (`dump done`). A line mixing bytes and text, or bytes resuming after
    the trailer began, is an error naming the line: such a file is corrupt, and guessing would hide it."""
    if not path.is_file():
        raise TraceError(f"{where}: memory image {path} not found")
    header: dict[str, str] = {}
    data: list[int] = []
    trailer = 0  # line where text after the bytes began
    for lineno, full in enumerate(path.read_text().splitlines(), start=1):
        raw = full.split("#", 1)[0]  # "#BPE=0x1", "Data_type=0x24 #DATA_TYPE_...": NVIDIA's comments
        tokens = raw.split()
        if not tokens:
            continue
        header_line = None if data else _HEADER.match(raw)
        if header_line:
            header[header_line.group(1)] = header_line.group(2)
            continue
        is_byte = [bool(_BYTE.match(t)) for t in tokens]
        if all(is_byte):
            if trailer:
                raise TraceError(f"{path}:{lineno}: bytes after the text at line {trailer}")
            data.extend(int(t, 16) for t in tokens)
        elif any(is_byte) or (data and tokens[0].lower().startswith("0x")):
            bad = next(t for t, ok in zip(tokens, is_byte, strict=True) if not ok)
            raise TraceError(f"{path}:{lineno}: {bad!r} is not a byte (0x00..0xff)")
        elif data:
            trailer = trailer or lineno
        # else: banner text before the bytes ("memory type:dram")
    return header, np.array(data, dtype=np.uint8)


def csb_register(text: str, where: str) -> tuple[str, str] | str:
    """`0xffffNNNN` -> (unit, register) of this project; the nv_full unit's name when the project lacks it."""
    m = _CSB.match(text)
    if not m:
        raise TraceError(f"{where}: {text!r} is not a CSB word address 0xffffNNNN")
    byte_addr = int(m.group(1), 16) << 2
    base = byte_addr - byte_addr % _WINDOW
    unit = NV_FULL_WINDOWS.get(base)
    if unit is None:
        return f"the nv_full unit at window {base:#06x}"
    if unit not in regmap.UNITS:
        return unit
    found = regmap.lookup_address(regmap.UNITS[unit]["base"] + byte_addr - base)
    if found is None:
        raise TraceError(f"{where}: {text} (byte {byte_addr:#x}, {unit} offset {byte_addr - base:#x}) "
                         f"is not a register of {unit}")
    return found


def csb_word(unit: str, reg: str) -> int:
    """The `.txn` (nv_full) CSB word address 0xffffNNNN of one of this project's registers."""
    base = next(b for b, u in NV_FULL_WINDOWS.items() if u == unit)
    return 0xFFFF0000 | (base + regmap.address(unit, reg) - regmap.UNITS[unit]["base"]) >> 2


@cache
def precision_fields() -> dict[tuple[str, str], dict[str, tuple[int, int, dict[int, str]]]]:
    """(unit, register) -> field -> (msb, lsb, value -> name) of every field whose enum is a precision."""
    desc = json.loads((Path(__file__).resolve().parents[1] / "regmap" / "nvdla_regs.json").read_text())
    out: dict[tuple[str, str], dict[str, tuple[int, int, dict[int, str]]]] = {}
    for unit in desc["units"]:
        for reg in unit["registers"]:
            for f in reg["fields"]:
                enum = f.get("enum", {})
                if "INT8" in enum and "INT16" in enum:
                    names = {v: k for k, v in enum.items()}
                    out.setdefault((unit["name"], reg["name"]), {})[f["name"]] = (f["msb"], f["lsb"], names)
    return out


def _precisions(unit: str, reg: str, value: int) -> list[tuple[str, str]]:
    """(precision name, UNIT.REG.FIELD) of every precision field a write sets to one the model lacks."""
    out = []
    for fname, (msb, lsb, names) in precision_fields().get((unit, reg), {}).items():
        v = regmap.field_value(value, msb, lsb)
        name = names.get(v, f"precision {v}")
        if name not in MODEL_PRECISIONS.get(unit, _INT8):
            out.append((name, f"{unit}.{reg}.{fname}"))
    return out


def txn_trace(folder: Path) -> TxnTrace:
    """A `.txn` folder as steps, every address, file and number checked before anything runs."""
    path = folder / TXN_NAME
    retries = parse_int(parse_plusargs(folder).get("read_reg_poll_retries", "0") or "0",
                        f"{folder / 'plusargs.txt'}")
    trace = TxnTrace([])
    producer: dict[str, int] = {}
    started: tuple[str, int] | None = None
    copies = _CopyCheck()

    def need(what: str, detail: str) -> None:
        trace.reasons.setdefault(what, []).append(detail)

    for cmd in parse_txn(path):
        where = cmd.where()
        if cmd.op in ("write_reg", "read_reg"):
            target = csb_register(cmd.args[0], where)
            nums = [parse_int(a, where) & 0xFFFFFFFF for a in cmd.args[1:]]
            if isinstance(target, str):
                need(f"{target} (a unit this subsystem lacks)", f"{cmd.op} at {where}")
                continue
            unit, reg = target
            if cmd.op == "read_reg":
                trace.steps.append(RegRead(unit, reg, nums[0], nums[1], retries, where))
                continue
            value = nums[0]
            for prec, fname in _precisions(unit, reg, value):
                need(prec, f"{fname} at {where}")
            if reg == "S_POINTER":
                msb, lsb, _access = regmap.registers(unit)[reg]["fields"]["PRODUCER"]
                producer[unit] = regmap.field_value(value, msb, lsb)
            if reg == "D_OP_ENABLE" and value & 1 and unit in INTR_UNITS:
                started = (unit, producer.get(unit, 0))
            trace.steps.append(RegWrite(unit, reg, value))
            if unit == "BDMA":
                group = copies.write(reg, value, where)
                started = ("BDMA", group) if group is not None else started
        elif cmd.op in ("load_mem", "dump_mem"):
            addr, size = parse_int(cmd.args[0], where), parse_int(cmd.args[1], where)
            _header, data = load_txn_dat(folder / cmd.args[2], where)
            # NVIDIA's images may hold more than SIZE bytes (sample_surf.dat: 0x4000 for a 0x1000 load):
            # the player uses the first SIZE; fewer than SIZE cannot be what the trace meant.
            if data.size < size:
                raise TraceError(f"{where}: {cmd.args[2]} holds {data.size} bytes, {cmd.op} needs {size:#x}")
            data = data[:size]
            mem = 1 if addr & _REGION_MASK == _CVSRAM_REGION else 0
            step = MemWrite(mem, addr, data) if cmd.op == "load_mem" else MemCheck(mem, addr, data, where)
            trace.steps.append(step)
            if cmd.op == "load_mem":
                copies.memories[mem].write(addr, data)
        else:  # wait: for the done interrupt of the operation started last
            if started is not None:
                trace.steps.append(WaitInterrupt(started[0], started[1], where))
                started = None
            elif not trace.reasons:
                raise TraceError(f"{where}: wait, but no SDP/CDP/PDP/BDMA operation was started before it")
    trace.steps.extend(copies.checks())
    if trace.reasons:
        trace.skip = "needs " + "; ".join(_reason(what, uses) for what, uses in trace.reasons.items())
    return trace


def _reason(what: str, uses: list[str]) -> str:
    more = f" and {len(uses) - 1} more" if len(uses) > 1 else ""
    return f"{what}: {uses[0]}{more}"


class _CopyCheck:
    """The check of BDMA's copies, which `.txn` traces do not dump: a plain replay of each launched copy on
    the images the trace loads (its own few lines, not models/bdma/model.py), and at the end of the trace one
    MemCheck per destination run of lines: the target's memory must hold what the copies put there."""

    def __init__(self) -> None:
        self.memories = [Memory(), Memory()]
        self.values: dict[str, int] = {}
        self.pending: list[tuple[dict[str, int], str]] = []
        self.written: list[tuple[int, int, int, str]] = []  # (memory, address, bytes, where)

    def write(self, reg: str, value: int, where: str) -> int | None:
        """Follows one BDMA write; returns the group a launch starts (None for any other write)."""
        self.values[reg] = value
        if reg == "CFG_OP" and value & 1:
            self.pending.append((regmap.decode_fields("BDMA", self.values), where))
        group = next((g for g, (name, _f) in LAUNCH.items() if name == reg and value & 1), None)
        if group is not None:
            for fields, at in self.pending:
                self._copy(fields, at)
            self.pending = []
        return group

    def _copy(self, f: dict[str, int], where: str) -> None:
        def get(key: str) -> int:
            return f.get(key, 0)

        size = (get("CFG_LINE.SIZE") + 1) * 32
        src_mem = memory_of(get("CFG_CMD.SRC_RAM_TYPE"))
        dst_mem = memory_of(get("CFG_CMD.DST_RAM_TYPE"))
        src0 = get("CFG_SRC_ADDR_HIGH.V8") << 32 | get("CFG_SRC_ADDR_LOW.V32") * 32
        dst0 = get("CFG_DST_ADDR_HIGH.V8") << 32 | get("CFG_DST_ADDR_LOW.V32") * 32
        for s in range(get("CFG_SURF_REPEAT.NUMBER") + 1):
            for ln in range(get("CFG_LINE_REPEAT.NUMBER") + 1):
                src = src0 + s * get("CFG_SRC_SURF.STRIDE") * 32 + ln * get("CFG_SRC_LINE.STRIDE") * 32
                dst = dst0 + s * get("CFG_DST_SURF.STRIDE") * 32 + ln * get("CFG_DST_LINE.STRIDE") * 32
                self.memories[dst_mem].write(dst, self.memories[src_mem].read(src, size))
                last = self.written[-1] if self.written else None
                if last and last[0] == dst_mem and last[1] + last[2] == dst and last[3] == where:
                    self.written[-1] = (dst_mem, last[1], last[2] + size, where)  # one check per run
                else:
                    self.written.append((dst_mem, dst, size, where))

    def checks(self) -> list[Step]:
        return [MemCheck(mem, addr, self.memories[mem].read(addr, size), f"{where} (BDMA copy)")
                for mem, addr, size, where in self.written]
