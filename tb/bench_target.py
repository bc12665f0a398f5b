"""The RTL top under the replay's step interface, shared by the top-level benchmarks
(tb/tests/test_benchmark_{pdp,
cdp,sdp}.py: timed layers, each scored against the model) and the NVDLA trace replay on the RTL
(tb/tests/test_trace_rtl.py: CRC, memory-image and register-read checks, the model alongside naming the first
wrong
element). Steps run on tb/hdl/nvdla_pp_top_mem.v (the top, the simulation memories and a clock generated in
Verilog), with the model fed the same steps alongside. Memory index 0 of a step is the primary memory (m_axi),
1 the CV SRAM (c_axi, a trace's sec_mem); the model has the second memory when the top was built with SEC_MEM
= 1, as the RTL.

Python touches the simulation only for CSB transactions, memory loads/reads through handles (tb/bfm/
sim_memory.py) and the wait for `intr` (one trigger, no per-cycle polling), so the design runs free while a
layer computes. The memory's timing comes from the environment: BENCH_LATENCY=<cycles> gives a fixed latency
without stalls, BENCH_RANDOM_MEM=1 random latency and backpressure from the run's seed, neither: latency 0.
"""

from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from cocotb.triggers import ClockCycles, First, RisingEdge, Timer
from cocotb.utils import get_sim_time

from models import configs
from models.executor import execute
from models.regfile import intr_bit, intr_mask
from models.replay import TraceResult, load_steps, locate_against
from models.steps import CheckCrc, RegWrite, Step, StepError, WaitInterrupt
from models.subsystem import ModelTarget
from models.trace import TraceError
from tb.bfm.csb import CsbMaster
from tb.bfm.sim_memory import MemTiming, SimMemory
from tb.common import bench_params, nightly, scaled
from tb.cpp_program import write_program


def csb_address(unit: str, reg: str) -> int:
    """A register's byte address on the CSB of the run's configuration ($CONFIG)."""
    return configs.load().csb_address(unit, reg)


ROOT = Path(__file__).resolve().parent.parent
CLK_NS = 10                       # the wrapper's clock: 100 MHz
LAYER_TIMEOUT_CYCLES = 2_000_000  # bounds a hang only
# The run's configuration ($CONFIG) sizes the benchmarks: its AXI data bus (the bound's beat) and its atom
# (the benchmark cubes' layout; one atom a beat here, configs.parse checks bus_bits = atom * 8)
BUS_BYTES = configs.load().bus_bytes
ATOM_BYTES = configs.load().atom_bytes
DONE_BITS = intr_mask(("SDP", "CDP", "PDP"))  # GLB S_INTR_MASK: their done, groups 0 and 1


@dataclass
class Row:
    name: str
    cycles: int = 0
    read_bytes: int = 0
    write_bytes: int = 0
    wall_s: float = 0.0
    ok: bool = False
    message: str = ""
    cpp_program: str = ""     # the layer as a program for the plain C++ loop (scripts/benchmark_cpp.py)
    cpp_cycles: int = 0
    cpp_cycles_per_s: float = 0.0
    cpp_cpu_cycles_per_s: float = 0.0   # per second of the loop's CPU time (the machine's load left out)
    cpp_check: str = ""
    checks: int = 0           # output checks made (CRCs, layers scored against the model)
    skipped: bool = False     # a trace not run: it needs what the model or the RTL lacks (not a failure)
    elements: int = 0         # input elements of a synthetic layer (0: a trace, not counted)
    precision: str = "INT8"   # of a synthetic layer's data
    macs: int = 0             # a convolution's useful multiply-accumulates (0: not a convolution)
    mac_slots: int = 0        # the configuration's MACs a cycle (atomic C x atomic K)
    bound_bytes: int = 0      # what a layer must move at least (a convolution: input cube + weight image)


def trace_case(folder: Path) -> list[Step] | str:
    """A trace's steps for a benchmark (`.cfg` or `.txn`), or why it cannot run: "SKIP: needs ..." when it
    needs what this subsystem lacks (nv_full's INT16 `.txn` layers), the reading error otherwise."""
    try:
        steps, skip = load_steps(folder)
    except TraceError as err:
        return str(err)
    return f"SKIP: {skip}" if skip else steps


def case_row(name: str, why: str) -> Row:
    """The row of a trace that did not run: skipped (ok) for a SKIP reason, failed otherwise."""
    skipped = why.startswith("SKIP")
    return Row(name, ok=skipped, message=why, skipped=skipped)


def bench_timing(rng: random.Random) -> MemTiming:
    """The memory timing the environment asks for (see the module docstring)."""
    if os.environ.get("BENCH_LATENCY"):
        return MemTiming.fixed(int(os.environ["BENCH_LATENCY"]))
    if os.environ.get("BENCH_RANDOM_MEM", "0") not in ("", "0"):
        return MemTiming.random(rng)
    return MemTiming()


def on_wrapper(dut: Any) -> bool:
    """The toplevel is tb/hdl/nvdla_pp_top_mem.v (the top with the simulation memory and its own clock)."""
    return hasattr(dut, "mem_clear")


def batch_count(dut: Any, fast: int, long: int) -> int:
    """Layers of a top test's random batch: `long` under NIGHTLY on the simulation memory, where the long
    batch runs (bench <unit>_mem); on the AxiRam, which checks the AXI protocol too, a tenth of it. Outside
    the nightly a bench's `layers` (short_batch) replaces `fast`."""
    return scaled(short_batch() or fast, long if on_wrapper(dut) else max(fast, long // 10))


def short_batch() -> int:
    """The bench's short batch (Bench.layers, through BENCH_LAYERS) outside the nightly, else 0. A short batch
    (one layer of each unit on every other configuration) cannot reach a test's coverage goals: the tests
    then report their coverage without requiring it."""
    return 0 if nightly() else int(os.environ.get("BENCH_LAYERS", "0") or 0)


async def start_top(dut: Any, timing: MemTiming) -> SimMemory:
    """Idle CSB, memory timing set, first reset; returns the memory's Python side."""
    dut.csb_req_valid.value = 0
    mem = SimMemory(dut)
    mem.configure(timing)
    dut._log.info("memory: %s", timing.describe())
    dut.rst_n.value = 1
    await Timer(1, unit="ns")
    await reset(dut)
    return mem


async def reset(dut: Any) -> None:
    dut.rst_n.value = 0
    await ClockCycles(dut.clk, 3)
    dut.rst_n.value = 1
    await ClockCycles(dut.clk, 2)


async def intr_high(dut: Any, cycles: int) -> bool:
    """Until `intr` is high (one trigger, no polling); False after `cycles` clock periods."""
    if int(dut.intr.value):
        return True
    timeout = Timer(max(cycles, 1) * CLK_NS, "ns")
    return await First(RisingEdge(dut.intr), timeout) is not timeout


async def wait_status_bit(dut: Any, csb: CsbMaster, bits: int, bound: int = LAYER_TIMEOUT_CYCLES,
                          only: bool = False) -> tuple[int, int] | None:
    """Wait until every bit of `bits` was set in GLB S_INTR_STATUS, clearing each (write 1): the rise of
    `intr`, then a status read; while another unit's bit holds `intr` high, a read every 64 cycles (rare).
    only: any other bit set is a wrong interrupt (AssertionError). (cycles waited, the last status read) or
    None after `bound` cycles. `intr` is a level: every done bit awaited must be unmasked in GLB."""
    status_addr = csb_address("GLB", "S_INTR_STATUS")
    start = get_sim_time("ns")
    pending = bits

    def waited() -> int:
        return round((get_sim_time("ns") - start) / CLK_NS)

    while waited() <= bound:
        if not await intr_high(dut, bound - waited()):
            return None
        status = await csb.read(status_addr)
        assert not (only and status & ~bits), \
            f"unexpected interrupt bits {status & ~bits:#x} (waiting for {bits:#x})"
        if status & pending:
            await csb.write(status_addr, status & pending, nposted=True)
            pending &= ~status
            if not pending:
                return waited(), status
            continue
        await ClockCycles(dut.clk, 64)
    return None


def _is_wait(step: Step) -> bool:
    return isinstance(step, WaitInterrupt | CheckCrc)


def with_interrupt_masks(steps: list[Step]) -> list[Step]:
    """Before each layer (the steps up to a run of interrupt waits), a GLB S_INTR_MASK write that leaves only
    the LAST interrupt of that run reaching `intr`: when SDP feeds PDP on the fly the trace waits for SDP's
    interrupt and then PDP's, and `intr` would otherwise rise at SDP's done, before PDP has written its
    output. The status bits are set whatever the mask, so every wait still finds its bit."""
    out: list[Step] = []
    start = 0
    i = 0
    while i < len(steps):
        if not _is_wait(steps[i]):
            i += 1
            continue
        end = i
        while end < len(steps) and _is_wait(steps[end]):
            end += 1
        waits = [s for s in steps[i:end] if isinstance(s, WaitInterrupt)]
        if waits:
            bit = 1 << intr_bit(waits[-1].unit, waits[-1].group)
            out.append(RegWrite("GLB", "S_INTR_MASK", DONE_BITS & ~bit))
        out += steps[start:end]
        start = i = end
    return out + steps[start:]


class BenchTarget:
    """The top as a target of the executor (models/executor.py), timed from the last D_OP_ENABLE to the rise
    of `intr`; the model runs the same steps alongside. run_steps for a benchmark's layers (each scored
    against the model), replay for an NVDLA trace (its CRCs are the checks)."""

    # layers also written as a program for the C++ loop when BENCH_CPP_DIR is set: the 64x64x64 cubes
    cpp_layers = ("cube64",)

    def __init__(self, dut: Any, mem: SimMemory, timing: MemTiming | None = None) -> None:
        self.dut = dut
        self.mem = mem
        # memory 1, the CV SRAM on c_axi: the wrapper always has it; the top uses it when built with SEC_MEM=1
        self.mems = [mem, SimMemory(dut, mem.clk, instance="u_cmem")]
        self.second_memory = bool(bench_params().get("SEC_MEM", 0))
        self.timing = timing or MemTiming()
        self.csb = CsbMaster(dut.clk, dut)
        self.model = self.new_model()
        self.t_enable = 0
        self.wall_enable = 0.0
        self.first_wait = True    # the next wait is the first since an enable: it times the layer
        self.cycles = 0
        self.wall_s = 0.0
        self.pending = ""
        self.t_first = -1.0       # the first enable of run_steps' steps (ns; -1: none yet)
        self.span_cycles = 0      # from it to the last timed interrupt: every hardware layer of the steps

    def new_model(self) -> ModelTarget:
        """The model of the top this bench built: the run's configuration ($CONFIG) at the build's SEC_MEM."""
        return ModelTarget(configs.load().with_second_memory(self.second_memory))

    @property
    def write_bytes(self) -> int:
        return sum(m.write_bytes for m in self.mems)

    async def start_case(self) -> None:
        """A new layer or trace: memories cleared, model and top reset, every done bit unmasked in GLB (the
        C++ program of the layer starts the same way, so a seed's stalls fall on the same cycles)."""
        for m in self.mems:
            await m.clear()
        self.model = self.new_model()
        await reset(self.dut)
        await self.csb.write(csb_address("GLB", "S_INTR_MASK"), 0, nposted=True)

    # -- the executor's target interface -------------------------------------------------------------------
    async def reg_write(self, unit: str, reg: str, value: int) -> None:
        self.model.reg_write(unit, reg, value)   # before t_enable: the model runs here
        enable = reg == "D_OP_ENABLE"
        await self.csb.write(csb_address(unit, reg), value, nposted=enable)
        if enable and value & 1:
            # timed from the enable's acceptance: the last enable before the interrupt wins
            self.t_enable = get_sim_time("ns")
            self.wall_enable = time.perf_counter()
            self.first_wait = True
            if self.t_first < 0:
                self.t_first = self.t_enable

    async def reg_read(self, unit: str, reg: str) -> int:
        return int(await self.csb.read(csb_address(unit, reg)))

    async def pause(self, cycles: int) -> None:
        await ClockCycles(self.dut.clk, cycles)

    def _sim_memory(self, mem: int) -> SimMemory:
        if mem != 0 and not self.second_memory:
            raise StepError("the RTL top was built without a second memory (SEC_MEM=0); the trace uses one")
        return self.mems[mem]

    def mem_fill(self, mem: int, addr: int, size: int) -> None:
        self._sim_memory(mem).fill_zero(addr, size)
        self.model.mem_fill(mem, addr, size)

    def mem_write(self, mem: int, addr: int, data: np.ndarray) -> None:
        self._sim_memory(mem).write(addr, data.tobytes())
        self.model.mem_write(mem, addr, data)

    def mem_read(self, mem: int, addr: int, size: int) -> np.ndarray:
        return np.frombuffer(self._sim_memory(mem).read(addr, size), dtype=np.uint8)

    async def wait_interrupt(self, unit: str, group: int) -> bool:
        """The first wait since an enable: until `intr` rises (the layer's cycles); then the unit's done bit
        in GLB S_INTR_STATUS, cleared (write 1); the model's interrupt alongside."""
        if self.first_wait:
            if not await intr_high(self.dut, LAYER_TIMEOUT_CYCLES):
                self.pending = f"no interrupt within {LAYER_TIMEOUT_CYCLES} cycles"
                return False
            self.cycles = round((get_sim_time("ns") - self.t_enable) / CLK_NS)
            self.wall_s = time.perf_counter() - self.wall_enable
            self.span_cycles = round((get_sim_time("ns") - self.t_first) / CLK_NS)
            self.first_wait = False
        if await wait_status_bit(self.dut, self.csb, 1 << intr_bit(unit, group)) is None:
            self.pending = "its done bit never set in GLB S_INTR_STATUS"
            return False
        self.model.wait_interrupt(unit, group)
        return True

    def describe_pending(self) -> str:
        return self.pending

    # -- runs ----------------------------------------------------------------------------------------------
    async def replay(self, name: str, steps: list[Step]) -> TraceResult:
        """A whole NVDLA trace: its CRC steps are the checks (its layers may overwrite each other's outputs,
        so no per-layer scoring); a failed CRC names the first wrong element from the model alongside."""
        row = await self.run_steps(name, steps, score_layers=False)
        return TraceResult(name, row.ok, row.checks, row.message)

    async def run_steps(self, name: str, steps: list[Step], score_layers: bool = True) -> Row:
        """Run the steps; score_layers: after each interrupt, the last layer's output span must equal the
        model's and be all the memory was written with (a benchmark's single layer)."""
        self.cycles, self.wall_s, self.first_wait, self.pending = 0, 0.0, True, ""
        self.t_first, self.span_cycles = -1.0, 0
        out = await execute(steps, self, locate=locate_against(self.model),
                            after_wait=(lambda _step: self._against_model()) if score_layers else None)
        row = Row(name, cycles=self.cycles, wall_s=self.wall_s)
        if out.error:
            row.message, row.checks = out.error, len(out.checks)
            return row
        checks = out.checks
        row.read_bytes = sum(m.read_bytes for m in self.mems)
        row.write_bytes = self.write_bytes
        if any(m.error for m in self.mems):
            checks.append("the memory flagged a protocol error (WRAP burst, misplaced WLAST or full)")
        failed = [c for c in checks if c]
        row.checks = len(checks)
        row.ok = bool(checks) and not failed
        row.message = failed[0] if failed else ("" if checks else "nothing was checked")
        cpp_dir = os.environ.get("BENCH_CPP_DIR")
        if cpp_dir and row.ok and name.startswith(self.cpp_layers):
            row.cpp_program = str(write_program(Path(cpp_dir) / name, steps, self.model, self.timing))
        return row

    def _against_model(self) -> str:
        """'' if the DUT's output span equals the model's and the DUT wrote exactly the output cube."""
        run = self.model.runs[-1] if self.model.runs else None
        layout = run.layout if run is not None else None
        if run is None or layout is None:
            return "the model ran no layer"
        first, end = layout.extent()
        actual = np.frombuffer(self.mems[run.mem].read(first, end - first), dtype=np.uint8)
        expected = self.model.mem_read(run.mem, first, end - first)
        bad = np.flatnonzero(actual != expected)
        if bad.size:
            return (f"output differs from the model at {bad.size} bytes, first at address "
                    f"{first + int(bad[0]):#x} (expected {expected[bad[0]]}, got {actual[bad[0]]})")
        cube_bytes = layout.surfaces * layout.height * layout.line_bytes
        if self.write_bytes != cube_bytes:
            return f"wrote {self.write_bytes} bytes, the output cube has {cube_bytes}"
        return ""
