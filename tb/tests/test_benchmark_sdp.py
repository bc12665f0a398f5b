"""SDP benchmark on the RTL top level: OP_ENABLE-to-interrupt cycles against the configuration's bus bounds.

For every SDP NVDLA trace of the configuration ($CONFIG; models/trace.py trace_roots) that the RTL runs
(tb/trace_rtl.py's units_needed and rtl_capabilities decide; the others are listed as SKIP with the
capability they need) and for synthetic layers programmed through the SDP driver layer (models/sdp/driver.py)
on int8 cubes laid out at the configuration's atom:
  cube64_pass     64x64x64, every block bypassed;
  cube64_bs_bn    64x64x64, BS and BN with per-channel ALU and MUL operands (2 bytes each) from memory;
  cube64_ew_lut   64x64x64, EW MUL with a per-element 2-byte operand from memory, then the EW LUT
                  (models.lut.program.sigmoid, hybrid);
  cube64_eql      64x64x64, EW compare (EQL) against a per-element 1-byte cube that differs in one element:
                  nothing is written, D_STATUS reports the difference;
  cube8_ew_lut    8x8x64, the same layer as cube64_ew_lut;
the top (rtl/top/nvdla_pp_top.v) runs the layer with the simulation memory
(tb/hdl/nvdla_pp_top_mem.v; latency 0 and no stalls unless --latency or --random-mem). The table shows
(scripts/benchmark_top.py's, the same for the three units):
  cycles      clock cycles from the last D_OP_ENABLE request on the CSB to the rising edge of `intr` (raised
              only after the last write response; of the last interrupt the layer waits for: SDP's done is
              masked in GLB S_INTR_MASK while PDP's follows, in the SDP->PDP on-the-fly trace);
  read/write  bytes the memory served on R and took on W;
  bound       (read + written) / bus bytes: the cycles one bus of the configuration ($CONFIG, one atom a
              beat) needs to move those bytes;
  busier      max(read, written) / bus bytes: AXI reads and writes use separate channels, so this is the
              bound of the busier channel (SDP reads the input and its operand cubes on R, writes the output
              on W);
  ratios      cycles / bound and cycles / busier;
  cycles/s    simulated cycles per wall-clock second over the layer (cocotb included), and of the plain
              C++ loop on the 64x64x64 layers (scripts/benchmark_cpp.py), whose output is checked too.
Every layer is checked: the output span must equal the replay model's (models/subsystem.ModelTarget fed the
same steps, LUT writes included) and the bytes written must be exactly the output cube (nothing at all in
EQL mode); D_PERF_LUT_{LE_HIT,LO_HIT,UFLOW,OFLOW,HYBRID}, D_PERF_OUT_SATURATION and D_STATUS of each
register group the model ran, read over CSB, must hold the model's values (0 for the LUT counters of a layer
without the LUT); traces must match their golden CRCs; synthetic layers are also scored against
models.sdp.model.run_sdp run directly on the driver's SdpConfig (output bytes and statistics). A failed check
is
printed in the table and sets the exit code. Figures only: no timed pass/fail.

Measured (seed 1234): every layer takes its busier channel's beats plus 28..55 cycles, whatever its size, so
the large layers run at 1.00x the busier bound and only layers of a few dozen beats are above 1.3x. The
excess is the fixed latency of one layer, read in the waves (--waves --only sdp_1x1x8) of the 1x1x8 trace
(1 beat each way, 34 cycles): CSB request to OP_EN 5 cycles, OP_EN to the AR handshake 3, AR to R 2, R to
the core input 2, the core pipeline 13, the core output to W on the top's port 3 (the write arbiter passes
the AW with the first W beat), W to B 2, B to done 2, done to `intr` 2.

Usage: .venv/bin/python -m scripts.benchmark_top sdp [--seed N] [--waves] [--latency N] [--random-mem]
       [--no-cpp]
       [--only NAME,...]   (also by `make bench`)
The host side (scripts/benchmark_top.py) builds the top in sim_build/<sim>/top_mem and runs this module's
cocotb test, which writes its rows as JSON to the file named by BENCH_OUT.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import cocotb
import numpy as np
from numpy.typing import NDArray

from models import configs
from models.common.memory import Memory
from models.lut import program as lut_program
from models.replay import SDP_TO_PDP
from models.sdp.datapath import ALU_EQL, ALU_SUM
from models.sdp.driver import EwBlock, OutputCvt, SdpProgram, Surface, XBlock, operand_dma, sdp_layer
from models.sdp.model import SdpResult, run_sdp
from models.steps import MemWrite, RegWrite, Step, WaitInterrupt
from models.subsystem import RunRecord
from models.trace import default_trace_folders, is_reference_program
from tb.bench_target import ATOM_BYTES, BenchTarget, Row, csb_address, trace_case, with_interrupt_masks
from tb.benchmark import record_rows, selected, start_benchmark
from tb.stimulus.cube_data import cube_data
from tb.trace_rtl import rtl_capabilities, units_needed

SRC_BASE = 0x1000_0000
DST_BASE = 0x2000_0000
BS_BASE = 0x3000_0000
BN_BASE = 0x3001_0000
EW_BASE = 0x4000_0000
# The statistics registers of an SDP register group, and the model's zero for a layer without the LUT.
LUT_STATS = ("D_PERF_LUT_LE_HIT", "D_PERF_LUT_LO_HIT", "D_PERF_LUT_UFLOW", "D_PERF_LUT_OFLOW",
             "D_PERF_LUT_HYBRID")
STATS = (*LUT_STATS, "D_PERF_OUT_SATURATION", "D_STATUS")


@dataclass
class SdpRow(Row):
    """bench_pdp's row (a skipped trace: not run, the RTL lacks what it needs; not a failure)."""


# ---------------------------------------------------------------------------------------------------------
# Synthetic layers
# ---------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Synthetic:
    """A driver-built layer: its replay steps and what models.sdp.model.run_sdp says about it."""

    steps: list[Step]
    prog: SdpProgram
    expected: SdpResult
    dst_bytes: NDArray[np.uint8] | None    # the output cube as run_sdp wrote it (None: nothing written)
    elements: int = 0
    precision: str = "INT8"


def packed(width: int, height: int, elem_bytes: int, base: int) -> Surface:
    """A line- and surface-packed cube of `elem_bytes` bytes per element."""
    line = width * ATOM_BYTES * elem_bytes
    return Surface(base, line, line * height)


def int16_bytes(values: NDArray[np.int64]) -> NDArray[np.uint8]:
    return values.astype("<i2").view(np.uint8)


def per_channel_both(alu: NDArray[np.int64], mul: NDArray[np.int64]) -> NDArray[np.uint8]:
    """A per-kernel operand block, DATA_USE both, 2 bytes each: channel c holds (ALU, MUL) at byte 4c."""
    return int16_bytes(np.stack([alu, mul], axis=1).reshape(-1))


def layer_pass(w: int, h: int, c: int, _rng: np.random.Generator) -> tuple[dict[str, Any], dict[int, Any]]:
    return {}, {}


def layer_bs_bn(w: int, h: int, c: int, rng: np.random.Generator) -> tuple[dict[str, Any], dict[int, Any]]:
    """Bias + scale in BS, then BN's bias, scale and ReLU. The scales keep most results inside int8; four
    channels get a huge BN scale, so their large results overflow the convertor's 17-bit stage and
    D_PERF_OUT_SATURATION counts them (the final int8 clamp alone is not counted)."""
    bs = XBlock(bypass=False, alu_bypass=False, alu_algo=ALU_SUM, alu_from_mem=True, mul_bypass=False,
                mul_from_mem=True, mul_shift=8)
    bn = XBlock(bypass=False, alu_bypass=False, alu_algo=ALU_SUM, alu_from_mem=True, mul_bypass=False,
                mul_from_mem=True, mul_shift=3, relu_bypass=False)
    bn_mul = rng.integers(-8, 9, c)
    bn_mul[rng.choice(c, size=min(4, c), replace=False)] = rng.integers(16384, 32768, min(4, c))
    kw = {"bs": bs, "bn": bn,
          "brdma": operand_dma(Surface(BS_BASE, 0, 0), "both", two_byte=True),
          "nrdma": operand_dma(Surface(BN_BASE, 0, 0), "both", two_byte=True)}
    return kw, {BS_BASE: per_channel_both(rng.integers(-16, 17, c), rng.integers(-300, 301, c)),
                BN_BASE: per_channel_both(rng.integers(-32, 33, c), bn_mul)}


def layer_ew_lut(w: int, h: int, c: int, rng: np.random.Generator) -> tuple[dict[str, Any], dict[int, Any]]:
    """x * operand >> 1 spans about +-2^16 = the sigmoid program's +-16.0 (in_scale 2^12): most inputs hit
    the LE/LO tables, about 15% under- or overflow; the output convertor centres 0..2^15 on int8."""
    ew = EwBlock(bypass=False, mul_bypass=False, mul_from_mem=True, truncate=1, lut_bypass=False)
    kw = {"ew": ew, "erdma": operand_dma(packed(w, h, 2, EW_BASE), "mul", two_byte=True, per_element=True),
          "lut": lut_program.sigmoid(), "cvt": OutputCvt(1 << 14, 1, 7)}
    return kw, {EW_BASE: int16_bytes(rng.integers(-2048, 2048, w * h * c))}


def layer_eql(w: int, h: int, c: int, rng: np.random.Generator,
              data: NDArray[np.uint8]) -> tuple[dict[str, Any], dict[int, Any]]:
    """EW ALU EQL against a copy of the input (same packed layout) with one element changed."""
    ew = EwBlock(bypass=False, alu_bypass=False, alu_algo=ALU_EQL, alu_from_mem=True)
    other = data.copy()
    other[int(rng.integers(0, other.size))] ^= np.uint8(1 << int(rng.integers(0, 8)))
    kw = {"ew": ew, "erdma": operand_dma(packed(w, h, 1, EW_BASE), "alu", per_element=True), "dst": None}
    return kw, {EW_BASE: other}


Maker = Callable[[int, int, int, np.random.Generator], tuple[dict[str, Any], dict[int, Any]]]


def synthetic(name: str, dims: tuple[int, int, int], make: Maker | None,
              rng: np.random.Generator, precision: str = "INT8") -> Synthetic:
    """Random packed input (INT8, INT16 or FP16, in and out), the driver's program for the layer, its replay
    steps and run_sdp's result on a memory holding the same bytes (EQL when make is None)."""
    w, h, c = dims
    elem = 1 if precision == "INT8" else 2
    data = cube_data(w * h * c, precision, rng)   # packed: every element in turn
    kw, blobs = layer_eql(w, h, c, rng, data) if make is None else make(w, h, c, rng)
    kw.setdefault("dst", packed(w, h, elem, DST_BASE))
    prog = sdp_layer(w, h, c, src=packed(w, h, elem, SRC_BASE), in_precision=precision,
                     out_precision=precision, **kw)
    mem = Memory()
    steps: list[Step] = []
    for base, blob in {SRC_BASE: data, **blobs}.items():
        mem.write(base, blob)
        steps.append(MemWrite(0, base, blob))
    steps += [RegWrite(unit, reg, value) for unit, reg, value in prog.writes]
    steps.append(WaitInterrupt("SDP", prog.group, name))
    expected = run_sdp(prog.config, mem, lut_tables=prog.lut_tables)
    dst = None if kw["dst"] is None else mem.read(DST_BASE, w * h * c * elem)
    return Synthetic(steps, prog, expected, dst, w * h * c, precision)


CUBE64 = (64, 64, 64)
SYNTHETIC: tuple[tuple[str, tuple[int, int, int], Maker | None], ...] = (
    ("cube64_pass", CUBE64, layer_pass),
    ("cube64_bs_bn", CUBE64, layer_bs_bn),
    ("cube64_ew_lut", CUBE64, layer_ew_lut),
    ("cube64_eql", CUBE64, None),
    ("cube8_ew_lut", (8, 8, 64), layer_ew_lut),
)
# the pass-through at each other precision the configuration has (half the elements an atom)
WIDE = tuple(p for p in configs.load().precisions if p != "INT8")


# ---------------------------------------------------------------------------------------------------------
# Traces
# ---------------------------------------------------------------------------------------------------------
def sdp_traces() -> list[tuple[Path, set[str]]]:
    """Every trace whose datapath is SDP (alone, or feeding PDP on the fly), with what it needs."""
    found = []
    for folder in default_trace_folders():
        if is_reference_program(folder):
            continue
        needed = units_needed(folder)
        others = needed & {"CDP", "PDP"}
        if "SDP" in needed and (not others or (others == {"PDP"} and SDP_TO_PDP in needed)):
            found.append((folder, needed))
    return found


def skip_reason(needed: set[str]) -> str:
    missing = needed - rtl_capabilities(configs.load())
    return f"SKIP: needs {', '.join(sorted(missing))}, not in the RTL" if missing else ""


# ---------------------------------------------------------------------------------------------------------
# Simulation side
# ---------------------------------------------------------------------------------------------------------
class SdpBenchTarget(BenchTarget):
    """bench_pdp's timed target; a layer that writes nothing (EQL) must have written nothing."""

    def _against_model(self) -> str:
        run = self.model.runs[-1] if self.model.runs else None
        if run is not None and run.unit == "SDP" and run.layout is None:
            return "" if self.write_bytes == 0 else f"wrote {self.write_bytes} bytes, the layer writes none"
        return super()._against_model()


def expected_stats(stats: dict[str, int]) -> dict[str, int]:
    """The statistics registers a group must hold after a layer (after reset: LUT counters 0 without LUT)."""
    return {reg: int(stats.get(reg, 0)) & 0xFFFFFFFF for reg in STATS}


async def read_stats(target: BenchTarget, group: int) -> dict[str, int]:
    await target.csb.write(csb_address("SDP", "S_POINTER"), group)
    return {reg: await target.csb.read(csb_address("SDP", reg)) for reg in STATS}


def last_sdp_runs(runs: list[RunRecord]) -> dict[int, RunRecord]:
    """The last SDP run of each register group: what that group's statistics registers hold."""
    return {run.group: run for run in runs if run.unit == "SDP"}


async def check_stats(target: BenchTarget) -> str:
    """'' if every group the model ran holds the model's statistics in the RTL's registers."""
    runs = last_sdp_runs(target.model.runs)
    if not runs:
        return "the model ran no SDP layer"
    for group, run in sorted(runs.items()):
        got, want = await read_stats(target, group), expected_stats(run.stats)
        if got != want:
            bad = {reg: (got[reg], want[reg]) for reg in STATS if got[reg] != want[reg]}
            return f"group {group} statistics (RTL, model): {bad}"
    return ""


async def check_run_sdp(target: BenchTarget, layer: Synthetic) -> str:
    """'' if the RTL's output bytes and statistics equal models.sdp.model.run_sdp's on the driver's config."""
    res = layer.expected
    if layer.dst_bytes is not None:
        got = np.frombuffer(target.mem.read(DST_BASE, layer.dst_bytes.size), dtype=np.uint8)
        bad = np.flatnonzero(got != layer.dst_bytes)
        if bad.size:
            return (f"output differs from run_sdp at {bad.size} bytes, first at {DST_BASE + int(bad[0]):#x} "
                    f"(run_sdp {layer.dst_bytes[bad[0]]}, RTL {got[bad[0]]})")
    want = expected_stats({"D_PERF_OUT_SATURATION": res.saturation_count, "D_STATUS": int(res.status_unequal),
                           **{f"D_PERF_LUT_{k.upper()}": v for k, v in res.lut_stats.items()}})
    got_stats = await read_stats(target, layer.prog.group)
    if got_stats != want:
        bad = [(r, got_stats[r], want[r]) for r in STATS if got_stats[r] != want[r]]
        return f"statistics (register, RTL, run_sdp): {bad}"
    return ""


async def run_case(dut: Any, target: BenchTarget, name: str, case: list[Step] | Synthetic | str) -> SdpRow:
    await target.start_case()
    if isinstance(case, str):
        skipped = case.startswith("SKIP")
        return SdpRow(name, ok=skipped, message=case, skipped=skipped)
    steps = with_interrupt_masks(case.steps if isinstance(case, Synthetic) else case)
    row = SdpRow(**asdict(await target.run_steps(name, steps)))
    if isinstance(case, Synthetic):
        row.elements, row.precision = case.elements, case.precision
    if row.ok:
        row.message = await check_stats(target)
    if row.ok and not row.message and isinstance(case, Synthetic):
        row.message = await check_run_sdp(target, case)
    row.ok = row.ok and not row.message
    return row


def cases(data_rng: np.random.Generator) -> list[tuple[str, list[Step] | Synthetic | str]]:
    found: list[tuple[str, list[Step] | Synthetic | str]] = []
    for folder, needed in sdp_traces():
        if not selected(folder.name):
            continue
        reason = skip_reason(needed)
        found.append((folder.name, reason or trace_case(folder)))
    # Every synthetic layer draws its data, selected or not, so --only keeps a seed's data; a layer using a
    # block the configuration lacks (nv_medium_512: no EW, no LUT) is a SKIP row, not built (the driver
    # refuses it, as the RTL forces that block's bypass).
    built: list[tuple[str, Synthetic | str]] = []
    for name, dims, make in SYNTHETIC:
        missing = synthetic_missing(name)
        built.append((name, f"SKIP: needs SDP {missing}, which {configs.load().name} lacks" if missing
                      else synthetic(name, dims, make, data_rng)))
    for precision in WIDE:
        name = f"cube64_pass_{precision.lower()}"
        built.append((name, synthetic(name, CUBE64, layer_pass, data_rng, precision)))
    found += [(name, layer) for name, layer in built if selected(name)]
    return found


def synthetic_missing(name: str) -> str:
    """The SDP blocks a synthetic layer uses (EW: _ew_ and _eql layers, LUT: _lut) that the configuration
    lacks, '' when it has them all."""
    sdp = configs.load().sdp
    needs = {"EW": "_ew" in name or "_eql" in name, "LUT": "_lut" in name}
    have = {"EW": sdp.ew, "LUT": sdp.lut}
    return " and ".join(block for block, used in needs.items() if used and not have[block])


@cocotb.test()
async def sdp_benchmark(dut: Any) -> None:
    target, data_rng = await start_benchmark(dut, "sdp_bench", SdpBenchTarget)

    async def run(name: str, case: list[Step] | Synthetic | str) -> SdpRow:
        return await run_case(dut, target, name, case)

    await record_rows(dut, cases(data_rng), run, "bench_sdp.json")
