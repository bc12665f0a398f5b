"""The top-level environment every unit's shares (tb/env/pdp.py, cdp.py, sdp.py build on it): `Top`, the
subsystem top with its memories, their model mirror, the CSB master, the register-file model and interrupt
waits; `StatsTop`, the same with every done interrupt unmasked, exact interrupt waits and the statistics
each CDP and SDP register group must hold; their start-up; the S_STATUS checks and the AR monitor of the
concurrency tests.

`start` picks the memories from the toplevel: on nvdla_pp_top, a cocotb clock and an AxiRam on m_axi and one
on c_axi (the CV SRAM) whose pauses change every layer (they also check the AXI protocol); on the wrapper,
its Verilog clock and the simulation memories with one seeded random latency/stall timing per test (they
sample it in reset), so the design runs free while a layer computes. Memory index 1 is the CV SRAM: a DMA
side whose RAM_TYPE is CV uses it when the top was built with SEC_MEM=1, memory 0 otherwise (the model
decides the same way: `Top.sec_mem`, `Top.index`).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TypeVar

import numpy as np
from cocotb.handle import SimHandleBase
from cocotb.triggers import ClockCycles, ReadOnly, RisingEdge
from cocotbext.axi import AxiBus, AxiRam

from models import configs
from models import registers as regmap
from models.common.cube import run_atom_bytes
from models.common.memory import Memory, memory_index
from models.common.precision import as_signed
from models.pdp.model import PdpConfig
from models.perf import PerfCounters
from models.regfile import intr_bit
from tb import pdp_coverage
from tb.bench_target import on_wrapper, start_top, wait_status_bit
from tb.bfm.axi_ram import ErrorRam, set_memory_pauses
from tb.bfm.csb import CsbMaster, CsbMonitor
from tb.bfm.sim_memory import MemTiming, SimMemory
from tb.common import bench_params, make_rng, start_clock_and_reset
from tb.reg_shadow import SIDE_EFFECT_READS, RegShadow


def csb_address(unit: str, reg: str) -> int:
    """A register's byte address on the CSB of the run's configuration ($CONFIG)."""
    return configs.load().csb_address(unit, reg)


ATOM = run_atom_bytes()  # the configuration's memory atom: bases, strides and channel counts follow it
# The units whose register block the top has at the run's configuration (others answer as unmapped addresses).
TOP_UNITS = configs.load().units
PDP_INTR_BIT = intr_bit("PDP", 0)   # GLB S_INTR_STATUS: group 1 is the next bit
IDLE, RUNNING, PENDING = 0, 1, 2    # S_STATUS.STATUS_{0,1}
GUARD = 64                          # bytes checked untouched before and after each destination cube
# A layer of the sizes used here takes a few thousand cycles even with heavy AXI stalls; this only bounds
# a hang. Random register programs are bounded by their (small) cube sizes the same way.
DONE_BOUND = 400_000
# StatsTop's: bounds a hang only (a nightly layer with heavy stalls is far shorter)
STATS_DONE_BOUND = 1_000_000
# what each register group's statistics registers hold: register -> the model's count
CDP_STATS = {"D_PERF_LUT_LE_HIT": "le_hit", "D_PERF_LUT_LO_HIT": "lo_hit", "D_PERF_LUT_UFLOW": "uflow",
             "D_PERF_LUT_OFLOW": "oflow", "D_PERF_LUT_HYBRID": "hybrid", "D_OUT_SATURATION": "out_saturation",
             # FP16's counters (0 at INT8/INT16): the inputs' always read 0 and the NaN outputs are the layer
             # before's (NVIDIA's RTL; models/subsystem.py)
             "D_NAN_INPUT_NUM": "nan_input", "D_INF_INPUT_NUM": "inf_input", "D_NAN_OUTPUT_NUM": "nan_output"}
SDP_STATS = {"D_PERF_LUT_LE_HIT": "le_hit", "D_PERF_LUT_LO_HIT": "lo_hit", "D_PERF_LUT_UFLOW": "uflow",
             "D_PERF_LUT_OFLOW": "oflow", "D_PERF_LUT_HYBRID": "hybrid",
             "D_PERF_OUT_SATURATION": "out_saturation", "D_STATUS": "status_unequal"}


# ---- the DUT with its memory, its model mirror and the CSB master -------------------------------------

class Top:
    def __init__(self, dut: SimHandleBase, rng: random.Random, sim_mem: SimMemory | None = None) -> None:
        self.dut = dut
        self.rng = rng
        self.csb = CsbMaster(dut.clk, dut)
        self.rams: list[AxiRam | SimMemory]
        if sim_mem is not None:
            self.rams = [sim_mem, SimMemory(dut, sim_mem.clk, instance="u_cmem")]
            self.csb_monitor = None
        else:
            self.rams = []
            for prefix in ("m_axi", "c_axi"):
                # an AxiRam that can answer chosen windows with error responses (none unless a test sets them)
                ram = ErrorRam(AxiBus.from_prefix(dut, prefix), dut.clk, dut.rst_n, reset_active_level=False,
                               size=2**32)
                for port in (ram.write_if, ram.read_if):
                    port.log.setLevel(logging.WARNING)    # one INFO line per burst slows the simulation down
                self.rams.append(ram)
            # the CSB protocol checked on every access; not on the simulation-memory wrapper, whose point is
            # that no Python runs per cycle while a layer computes
            self.csb_monitor: CsbMonitor | None = CsbMonitor(dut.clk, dut, reset=dut.rst_n)
        self.ram = self.rams[0]
        # the model's memories, kept equal to the RAMs before each layer runs
        self.mems = [Memory(), Memory()]
        self.mem = self.mems[0]
        self.second_memory = bool(bench_params().get("SEC_MEM", 0))   # the top has c_axi (SEC_MEM=1)
        self.max_w = int(bench_params().get("PDP_MAX_W", 64))
        # the precisions the top's PDP computes: INT16 / FP16 where it was built with it (the configuration
        # has it)
        self.precisions = ("INT8", *(p for p in ("INT16", "FP16") if bench_params().get(p, 0)))
        # the AxiRam's stalls each layer: random shapes (None), about half the cycles on every channel (True),
        # none (False)
        self.stall: bool | None = None
        self.new_pauses()
        self.cov = pdp_coverage.pdp_coverage()
        self.test = ""               # the test's name, for its functional coverage file (setup sets it)
        # every register block as the register-file model sees it (tb/reg_shadow.py), from reset on: exact
        # until a layer runs (the model does not know a layer's statistics), so expect() refuses after that
        self.shadow = RegShadow(TOP_UNITS)
        self.shadow_exact = True

    @property
    def sec_mem(self) -> Memory | None:
        """The model's CV SRAM, as run_pdp / run_cdp / run_sdp take it: None when the top has none."""
        return self.mems[1] if self.second_memory else None

    def index(self, ram_mc: bool) -> int:
        """The memory a DMA side with this RAM type uses on this top."""
        return memory_index(ram_mc, self.second_memory)

    def cover(self, cfg: PdpConfig, group: int) -> None:
        """Count a scored PDP layer in the test's functional coverage (its file is rewritten each time, so
        a test that fails later still leaves what it covered)."""
        pdp_coverage.sample(self.cov, cfg, group)
        self.cov.write(self.test)

    async def write(self, unit: str, reg: str, value: int, nposted: bool = False) -> None:
        await self.csb.write(csb_address(unit, reg), value, nposted=nposted)
        self.shadow.write(unit, reg, value)
        if reg == "D_OP_ENABLE" and value & 1:
            self.shadow_exact = False

    def reset_shadow(self) -> None:
        """The design was reset: the register-file model starts over from its reset state."""
        self.shadow = RegShadow(TOP_UNITS)
        self.shadow_exact = True

    async def expect(self, unit: str, reg: str, what: str = "") -> None:
        """Read `unit`.`reg` and compare it with the register-file model."""
        assert self.shadow_exact, "the register-file model is exact only until a layer runs: reset first"
        self.shadow.expect(unit, reg, await self.read(unit, reg), what)

    async def expect_all(self, what: str = "") -> None:
        """Every register of every unit of the top (the producer group's D_ registers) against the model."""
        for unit in TOP_UNITS:
            for reg in self.shadow.readable(unit):
                await self.expect(unit, reg, what)

    async def read(self, unit: str, reg: str) -> int:
        return await self.csb.read(csb_address(unit, reg))

    async def issue(self, writes: tuple[tuple[str, str, int], ...] | list[tuple[str, str, int]]) -> None:
        # D_OP_ENABLE is non-posted, as NVIDIA's traces write it: the start is acknowledged.
        for unit, reg, value in writes:
            await self.write(unit, reg, value, nposted=reg == "D_OP_ENABLE")

    def fill(self, lo: int, hi: int, mem: int = 0) -> None:
        """Random bytes in [lo, hi) of both the RAM and the model's memory (index `mem`)."""
        data = self.rng.randbytes(hi - lo)
        self.rams[mem].write(lo, data)
        self.mems[mem].write(lo, np.frombuffer(data, dtype=np.uint8))

    async def group_registers(self, unit: str, group: int, regs: Iterable[str]) -> dict[str, int]:
        """Registers of one register group of `unit` (selected with S_POINTER.PRODUCER)."""
        await self.write(unit, "S_POINTER", group)
        return {reg: await self.read(unit, reg) for reg in regs}

    async def check_group_registers(self, unit: str, want: Sequence[Mapping[str, int]], label: str) -> None:
        """Each register group of `unit` holds what the model says (want[group]: register -> value)."""
        for group, regs in enumerate(want):
            got = await self.group_registers(unit, group, regs)
            bad = {reg: (got[reg], value) for reg, value in regs.items() if got[reg] != value}
            assert not bad, f"{label}: {unit} group {group} registers (read, model): {bad}"

    def check_region(self, lo: int, hi: int, label: str, where: Callable[[int], str], *, signed: bool = False,
                     detail: str = "", mem: int = 0) -> None:
        """RAM `mem`'s [lo, hi) equals the model's memory; else fail naming the first wrong byte (`where`:
        what that byte is), its values as int8 (`signed`) or hex bytes, then `detail`. The same region of
        the other memory must equal the model's too (a request routed to the wrong memory shows there)."""
        for m in (mem, 1 - mem):
            self._check_one(lo, hi, f"{label} (memory {m})", where, signed, detail, m)

    def _check_one(self, lo: int, hi: int, label: str, where: Callable[[int], str], signed: bool, detail: str,
                   mem: int) -> None:
        actual = np.frombuffer(self.rams[mem].read(lo, hi - lo), dtype=np.uint8)
        expected = self.mems[mem].read(lo, hi - lo)
        bad = np.flatnonzero(actual != expected)
        if not bad.size:
            return
        addr = lo + int(bad[0])
        e, a = (int(x[bad[0]]) for x in (expected, actual))
        values = f"expected {int(as_signed(e, 8))}, actual {int(as_signed(a, 8))}" if signed else \
            f"expected {e:#04x}, actual {a:#04x}"
        raise AssertionError(f"{label}: {bad.size} wrong bytes in [{lo:#x}, {hi:#x}); first at {addr:#x}, "
                             f"{where(addr)}: {values}{detail}")

    async def wait_done(self, group: int, bound: int = DONE_BOUND) -> tuple[int, int] | None:
        """Wait for PDP's done interrupt of `group`, clear it (W1C); (cycles waited, status seen) or None."""
        return await self.wait_intr(1 << (PDP_INTR_BIT + group), bound)

    async def wait_intr(self, bit: int, bound: int = DONE_BOUND) -> tuple[int, int] | None:
        """Wait for an S_INTR_STATUS bit, clear it (W1C); (cycles waited, status seen) or None."""
        return await wait_status_bit(self.dut, self.csb, bit, bound)

    def new_pauses(self) -> None:
        """New random AXI pauses for the next layer on the AxiRam; the simulation memory keeps the timing
        it sampled in reset (one seeded draw per test, logged by start_top)."""
        for ram in self.rams:
            if isinstance(ram, AxiRam):
                set_memory_pauses(ram, self.rng, self.stall)

    async def status(self, unit: str) -> tuple[int, int]:
        value = await self.read(unit, "S_STATUS")
        return value & 3, (value >> 16) & 3

    async def pointer(self, unit: str) -> tuple[int, int]:
        """(PRODUCER, CONSUMER) of S_POINTER."""
        value = await self.read(unit, "S_POINTER")
        return value & 1, (value >> 16) & 1

    async def snapshot(self) -> dict[int, int]:
        """Every register of the top's units (D_ registers of the current producer group)."""
        return {csb_address(u, r): await self.read(u, r) for u in TOP_UNITS for r in regmap.registers(u)
                if r not in SIDE_EFFECT_READS}


TopT = TypeVar("TopT", bound=Top)


async def start(dut: SimHandleBase, salt: str, cls: type[TopT]) -> TopT:
    """Clock, reset and a `cls` top (Top or a subclass): on the wrapper (tb/hdl/nvdla_pp_top_mem.v) with its
    simulation memory at a seeded random timing, else on nvdla_pp_top with an AxiRam."""
    rng = make_rng(salt)
    if on_wrapper(dut):
        top = cls(dut, rng, await start_top(dut, MemTiming.random(rng)))
    else:
        await start_clock_and_reset(dut.clk, dut.rst_n, idle=[dut.csb_req_valid])
        top = cls(dut, rng)
        # Reset again now that the AxiRam drives its outputs: on a 4-state simulator (Icarus) the DMA
        # counters would otherwise clock in the X of the undriven AXI inputs between reset and the AxiRam.
        dut.rst_n.value = 0
        await ClockCycles(dut.clk, 3)
        dut.rst_n.value = 1
        await ClockCycles(dut.clk, 2)
    top.test = salt
    return top


# ---- the top that scores statistics: every done interrupt unmasked, exact interrupt waits ---------------

class StatsTop(Top):
    """`Top` plus exact interrupt waits (every done interrupt unmasked; any other bit set fails) and what
    each register group's statistics registers of CDP and SDP must hold (reset: 0): the top the CDP and SDP
    environments (tb/env/cdp.py, tb/env/sdp.py) run their layers on, alone or together with the others'."""

    def __init__(self, dut: SimHandleBase, rng: random.Random, sim_mem: SimMemory | None = None) -> None:
        super().__init__(dut, rng, sim_mem)
        self.group_stats: list[dict[str, int]] = []   # CDP's (tb/env/cdp.py expect_stats)
        self.sdp_stats: list[dict[str, int]] = []     # SDP's (tb/env/sdp.py record_stats)
        self.nan_before = 0   # the NaN outputs of the last CDP layer (D_NAN_OUTPUT_NUM of the next one)
        self.counters = PerfCounters()    # the hardware's SDP LUT and saturation counters across layers
        self.clear_stats()

    def clear_stats(self) -> None:
        """Every register group's statistics as after reset: 0."""
        self.group_stats = [dict.fromkeys(CDP_STATS, 0), dict.fromkeys(CDP_STATS, 0)]
        self.sdp_stats = [dict.fromkeys(SDP_STATS, 0), dict.fromkeys(SDP_STATS, 0)]
        self.nan_before = 0
        self.counters = PerfCounters()

    async def wait_intr(self, bits: int, bound: int = STATS_DONE_BOUND) -> int | None:  # type: ignore[override]
        """Wait until every bit of `bits` was set in GLB S_INTR_STATUS, clearing each (W1C); the cycles
        waited, or None after `bound` cycles. Any other bit set is a wrong interrupt: it fails."""
        done = await wait_status_bit(self.dut, self.csb, bits, bound, only=True)
        return None if done is None else done[0]

    async def after_reset(self) -> None:
        """After a reset (a batch's failed layer): every register group's statistics are 0 again, and every
        done bit reaches `intr` (GLB S_INTR_MASK 0)."""
        self.clear_stats()
        await self.write("GLB", "S_INTR_MASK", 0, nposted=True)

    async def check_stats(self, label: str) -> None:
        """Both CDP register groups' statistics registers hold what the model says."""
        await self.check_group_registers("CDP", self.group_stats, label)

    async def check_sdp_stats(self, label: str) -> None:
        """Both SDP register groups' statistics registers hold what the model says."""
        await self.check_group_registers("SDP", self.sdp_stats, label)


async def make_top(dut: SimHandleBase, salt: str) -> StatsTop:
    """Clock, reset and a `StatsTop` with every done interrupt unmasked: on the wrapper
    (tb/hdl/nvdla_pp_top_mem.v) with its simulation memory, else with an AxiRam."""
    top = await start(dut, salt, StatsTop)
    await top.write("GLB", "S_INTR_MASK", 0, nposted=True)   # every done interrupt reaches `intr`
    return top


# ---- S_STATUS and AXI read checks of the concurrency tests -----------------------------------------------

async def check_idle(top: Top, label: str, unit: str = "CDP") -> None:
    """Both register groups of `unit` and of its read DMA idle (after the last done)."""
    for name in (unit, f"{unit}_RDMA"):
        value = await top.read(name, "S_STATUS")
        assert (value & 3, (value >> 16) & 3) == (IDLE, IDLE), \
            f"{label}: {name} S_STATUS {value:#x} after done"


async def check_queued(top: Top, label: str, unit: str = "CDP") -> None:
    """Group 0 of `unit` and of its read DMA still RUNNING with group 1 queued behind it (PENDING)."""
    for name in (unit, f"{unit}_RDMA"):
        value = await top.read(name, "S_STATUS")
        assert value == RUNNING | PENDING << 16, \
            f"{label}: {name} S_STATUS {value:#x} once both groups are enabled: group 0 must " \
            "still run (RUNNING) with group 1 queued behind it (PENDING)"


async def record_reads(dut: SimHandleBase, cycles: dict[int, list[int]]) -> None:
    """The cycle of every AR handshake per AXI ID (PDP 0, CDP 1, SDP 2)."""
    n = 0
    while True:
        await ReadOnly()
        if int(dut.m_axi_arvalid.value) and int(dut.m_axi_arready.value):
            cycles.setdefault(int(dut.m_axi_arid.value), []).append(n)
        await RisingEdge(dut.clk)
        n += 1
