"""Replay of NVDLA trace tests: a trace folder read by its format's parser into steps (`.cfg`:
models/trace.py, `.txn`: models/txn.py), what it needs checked against the target's configuration, and the
steps run by the one executor (models/executor.py) on any target: the model here, the RTL in tb/.

`replay(folder, target)` returns a `TraceResult`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from models import configs, executor, txn
from models import registers as regmap
from models.configs import Configuration
from models.errors import ConfigError
from models.executor import Target
from models.steps import Locator, RegWrite, Step
from models.subsystem import ModelTarget
from models.trace import TraceError, trace_steps


@dataclass
class TraceResult:
    name: str
    passed: bool
    checks: int = 0
    message: str = ""


def load_steps(folder: Path) -> tuple[list[Step], str]:
    """(steps, why the trace cannot run here or '') of a `.cfg` or `.txn` trace folder."""
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
                     | ({BDMA} if config.bdma else set()) | ({configs.RUBIK} if config.rubik else set())
                     | set(config.precisions)
                     | {unit_precision(p, u) for p in extra for u in PRECISION_UNITS})


# the datapath units with precision fields (their RDMAs included); RUBIK's only sets bytes per element
PRECISION_UNITS = ("PDP", "CDP", "SDP", "RUBIK")


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
    found: set[str] = set()
    for s in steps:
        if isinstance(s, RegWrite):
            for msb, lsb, names in txn.precision_fields().get((s.unit, s.reg), {}).values():
                name = names.get(regmap.field_value(s.value, msb, lsb), "INT8")
                if name != "INT8":
                    found |= {name, unit_precision(name, s.unit)}
    return found


def replay(folder: Path, target: Target, locate: Locator | None = None) -> TraceResult:
    """Run one trace folder; `locate(mem, base, size, actual)` explains a failed CRC (first bad element).

    A trace needing what the design lacks returns a result whose message starts with "SKIP".
    """
    name = folder.name
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
        out = executor.run(steps, target, locate=locate, stop_on_failure=True)
    except TraceError as err:
        return TraceResult(name, False, 0, str(err))
    except ConfigError as err:
        return TraceResult(name, False, 0, f"configuration rejected: {err}")
    except Exception as err:  # noqa: BLE001
        # Whatever stops this trace (a model that cannot run it, an unreadable file) fails this trace only,
        # saying why; the others of the batch still run.
        return TraceResult(name, False, 0, f"{type(err).__name__}: {err}")
    return TraceResult(name, out.passed, len(out.checks), out.message)


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
    fallback = txn.TXN_CONFIG if txn.is_txn_folder(folder) else configs.DEFAULT
    return configs.for_trace_folder(folder, fallback, env)
