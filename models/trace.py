"""Parser of NVDLA trace tests (a folder with one .cfg command file and .dat memory images) into steps.

Commands (docs: ../shared/notes/nvdla-traces.md): reg_write, mem_init, mem_load, intr_notify, check_crc,
check_nothing; the convolution traces add poll_reg_equal (CDMA S_CBUF_FLUSH_STATUS before the first layer)
and sync_notify/sync_wait (NVIDIA's player orders its per-unit threads with them). Anything else is an error
naming the file and line, never silently skipped. `trace_steps` reads a folder into the steps of
models/steps.py, every name and number checked before anything runs.

Where the traces are is defined here once: NVIDIA's traces live in the repository under traces/
(traces/PROVENANCE.md); the default configuration's are the nv_small family (traces/nv_small*). The
environment variable NVDLA_TRACES (or `make traces TRACES=<dir>`) points everything at another tree.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from models import registers as regmap
from models.regfile import INTR_UNITS
from models.steps import CheckCrc, MemFill, MemWrite, RegRead, RegWrite, Step, StepError, WaitInterrupt

if TYPE_CHECKING:
    from models.configs import Configuration

# A trace that cannot be parsed or replayed; the message names the file and line.
TraceError = StepError
MEMORIES = {"pri_mem": 0, "1": 0, "0": 0, "sec_mem": 1, "2": 1}
# poll_reg_equal: reads a target retries (the RTL: POLL_CYCLES apart) before the value must match
POLL_RETRIES = 1000


@dataclass(frozen=True)
class Command:
    op: str
    args: tuple[str, ...]
    file: str
    line: int

    def where(self) -> str:
        return f"{self.file}:{self.line}"

    @classmethod
    def checked(cls, op: str, args: tuple[str, ...], path: Path, lineno: int,
                known: dict[str, int]) -> Command:
        """The command at path:lineno, if its format knows it (`known`: command -> argument count)."""
        if op not in known:
            raise TraceError(f"{path}:{lineno}: unknown command {op!r} (known: {', '.join(sorted(known))})")
        if len(args) != known[op]:
            raise TraceError(f"{path}:{lineno}: {op} takes {known[op]} arguments, got {len(args)}")
        return cls(op, args, str(path), lineno)


_CALL = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*\((.*)\)\s*;\s*$")
KNOWN = {"reg_write": 2, "mem_init": 4, "mem_load": 3, "intr_notify": 2, "check_crc": 5, "check_nothing": 1,
         "poll_reg_equal": 2, "sync_notify": 2, "sync_wait": 2}
_RECORD = re.compile(r"\{\s*offset\s*:\s*(0x[0-9a-fA-F]+|\d+)\s*,\s*size\s*:\s*(\d+)\s*,"
                     r"\s*payload\s*:\s*([^}]*)\}")


def _split_args(text: str) -> tuple[str, ...]:
    out, depth, cur, quoted = [], 0, "", False
    for ch in text:
        if ch == '"':
            quoted = not quoted
        if ch == "," and not quoted and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += ch == "(" and not quoted
        depth -= ch == ")" and not quoted
        cur += ch
    if cur.strip():
        out.append(cur.strip())
    return tuple(out)


def parse_cfg(path: Path) -> list[Command]:
    commands = []
    for lineno, raw in enumerate(path.read_text().splitlines(), start=1):
        line = raw.split("//", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        m = _CALL.match(line)
        if not m:
            raise TraceError(f"{path}:{lineno}: cannot parse {raw.strip()!r}")
        op, args = m.group(1), _split_args(m.group(2))
        commands.append(Command.checked(op, args, path, lineno, KNOWN))
    return commands


def trace_steps(folder: Path) -> list[Step]:
    """A `.cfg` trace folder as resolved steps, every name and number checked before anything runs."""
    steps: list[Step] = []
    fired: set[str] = set()
    for cmd in parse_cfg(trace_cfg(folder)):
        steps.extend(_resolve(folder, cmd, fired))
    return steps


def _mem_id(text: str, where: str) -> int:
    try:
        return MEMORIES[text]
    except KeyError:
        raise TraceError(f"{where}: unknown memory {text!r} (pri_mem, sec_mem)") from None


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


def parse_int(text: str, where: str) -> int:
    try:
        return int(text, 0)
    except ValueError:
        raise TraceError(f"{where}: {text!r} is not a number") from None


def load_dat(path: Path) -> list[tuple[int, NDArray[np.uint8]]]:
    """(offset, bytes) records of a .dat memory image."""
    if not path.exists():
        raise TraceError(f"{path}: memory image not found")
    text = path.read_text()
    records = []
    for m in _RECORD.finditer(text):
        offset, size = int(m.group(1), 0), int(m.group(2))
        payload = np.array([int(tok, 16) for tok in m.group(3).split()], dtype=np.uint8)
        if payload.size != size:
            raise TraceError(f"{path}: record at offset {offset:#x} says size {size} "
                             f"but has {payload.size} bytes")
        records.append((offset, payload))
    if not records and text.strip(" \n{}"):
        raise TraceError(f"{path}: no {{offset, size, payload}} records found")
    return records


def find_traces(root: Path) -> list[Path]:
    """Every trace folder under root (a folder holding a .cfg named after it, or exactly one .cfg, or
    NVIDIA's older traceplayer format: an input.txn, models/txn.py)."""
    folders = [txn.parent for txn in root.rglob(TXN_FILE)]
    for cfg in sorted(root.rglob("*.cfg")):
        if cfg.stem == cfg.parent.name or len(list(cfg.parent.glob("*.cfg"))) == 1:
            folders.append(cfg.parent)
    return sorted(set(folders))


def trace_cfg(folder: Path) -> Path:
    named = folder / f"{folder.name}.cfg"
    if named.exists():
        return named
    cfgs = list(folder.glob("*.cfg"))
    if len(cfgs) != 1:
        raise TraceError(f"{folder}: expected one .cfg file, found {len(cfgs)}")
    return cfgs[0]


# the command file of a traceplayer (.txn) trace folder; models/txn.py parses it
TXN_FILE = "input.txn"
REPO_TRACES = Path(__file__).resolve().parents[1] / "traces"
# The configuration the RTL implements (nv_small: 8-byte atom, 64-bit bus); nv_large, nv_full: later.
DEFAULT_FAMILY = "nv_small*"


def trace_roots(config: str | None = None) -> list[Path]:
    """The trees the default replay searches: $NVDLA_TRACES if set, else the in-repo traces of the run's
    configuration ($CONFIG): the nv_small family for nv_small, traces/<name>/ for the others, and
    traces/<name>_ref/ (programs generated here and run on NVIDIA's RTL of that configuration, which stored
    the goldens: nv_full_ref's INT16 programs) where there is one. `config`: that configuration's instead.
    A configuration without traces of its own (nv_medium_1024_full, one given by path) searches those of its
    kin (kindred_configurations): NVIDIA's traces of one size run unchanged on another."""
    from models import configs

    override = os.environ.get("NVDLA_TRACES", "")
    if override and config is None:
        return [Path(override)]
    cfg = configs.load(config)
    own = _own_roots(cfg.name)
    if any(find_traces(root) for root in own):
        return own
    return sorted({root for kin in kindred_configurations(cfg) for root in _own_roots(kin)})


def _own_roots(name: str) -> list[Path]:
    from models import configs

    patterns = {DEFAULT_FAMILY if name == configs.DEFAULT else name, f"{name}_ref"}
    return sorted({p for pattern in patterns for p in REPO_TRACES.glob(pattern) if p.is_dir()})


def kindred_configurations(cfg: Configuration) -> list[str]:
    """The named configurations whose NVDLA traces run unchanged on `cfg`: the same memory atom (a trace's
    memory image and strides are laid out in it) and the same CSB map (its register addresses). Throughputs
    and the PDP line buffer change only timing and limits; a trace needing a unit, memory or precision `cfg`
    lacks is a SKIP naming it (models/replay.py capabilities)."""
    from models import configs

    return [name for name in configs.names() if name != cfg.name
            and (other := configs.load(name)).atom_bytes == cfg.atom_bytes and other.csb_map == cfg.csb_map]


def is_reference_program(folder: Path) -> bool:
    """A program written here and run on NVIDIA's RTL (under traces/<name>_ref/), not one of NVIDIA's own
    traces: the benchmarks time NVIDIA's traces and their own layers, not the thousand reference programs."""
    return any(parent.name.endswith("_ref") for parent in folder.parents)


def default_trace_folders(config: str | None = None) -> list[Path]:
    """Every trace folder of the run's configuration (or of $NVDLA_TRACES; `config`: of that configuration),
    sorted by name."""
    return sorted({f for root in trace_roots(config) for f in find_traces(root)}, key=lambda p: (p.name, p))
