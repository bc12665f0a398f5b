"""The CDP top-level environment: `CdpTop` (tb/env/pdp.py's `Top` plus the CDP statistics each register group
must hold and the interrupt wait), its start-up, and how a CDP layer is placed in memory, run and scored
against models.cdp.run_cdp; the AR monitor of the concurrency tests.
"""

from __future__ import annotations

import random
from typing import TypeVar

import numpy as np
from cocotb.handle import SimHandleBase
from cocotb.triggers import ReadOnly, RisingEdge

from models.cdp import CdpConfig, run_cdp
from models.driver_cdp import Surface
from models.memory import write_cube
from models.precision import as_signed
from models.replay import OutputLayout
from tb.bench_target import wait_status_bit
from tb.bfm.sim_memory import SimMemory
from tb.env.pdp import Top, start
from tb.stimulus.cdp_top import (
    ATOM,
    Layer,
    describe,
)

INTR_BIT = {"CDP": 2, "PDP": 4}     # GLB S_INTR_STATUS: unit group 0 / 1 = bit, bit + 1
IDLE, RUNNING, PENDING = 0, 1, 2    # S_STATUS.STATUS_{0,1}
GUARD = 64                          # bytes checked untouched before and after each destination cube
POLL = 32                           # cycles between interrupt polls
DONE_BOUND = 1_000_000              # bounds a hang only (a nightly layer with heavy stalls is far shorter)
STATS = {"D_PERF_LUT_LE_HIT": "le_hit", "D_PERF_LUT_LO_HIT": "lo_hit", "D_PERF_LUT_UFLOW": "uflow",
         "D_PERF_LUT_OFLOW": "oflow", "D_PERF_LUT_HYBRID": "hybrid", "D_OUT_SATURATION": "out_saturation"}


# ---- the DUT ------------------------------------------------------------------------------------------

class CdpTop(Top):
    """tb/env/pdp.py's top (CSB master, AxiRam with random stalls, model memory) plus the CDP side."""

    def __init__(self, dut: SimHandleBase, rng: random.Random, sim_mem: SimMemory | None = None) -> None:
        super().__init__(dut, rng, sim_mem)
        # what each register group's statistics registers must hold (reset: 0)
        self.group_stats: list[dict[str, int]] = [dict.fromkeys(STATS, 0), dict.fromkeys(STATS, 0)]

    async def wait_intr(self, bits: int, bound: int = DONE_BOUND) -> int | None:  # type: ignore[override]
        """Wait until every bit of `bits` was set in GLB S_INTR_STATUS, clearing each (W1C); the cycles
        waited, or None after `bound` cycles. Any other bit set is a wrong interrupt: it fails."""
        done = await wait_status_bit(self.dut, self.csb, bits, bound, only=True)
        return None if done is None else done[0]

    async def stats(self, group: int) -> dict[str, int]:
        """The statistics registers of one CDP register group (selected with S_POINTER.PRODUCER)."""
        await self.write("CDP", "S_POINTER", group)
        return {reg: await self.read("CDP", reg) for reg in STATS}

    async def check_stats(self, label: str) -> None:
        for group in (0, 1):
            got = await self.stats(group)
            want = self.group_stats[group]
            assert got == want, f"{label}: CDP group {group} statistics registers read {got}, the model " \
                                f"expects {want}"


TopT = TypeVar("TopT", bound=CdpTop)


async def make_top(dut: SimHandleBase, salt: str, cls: type[TopT]) -> TopT:
    """Clock, reset and a `cls` top (CdpTop or a subclass) with every done interrupt unmasked: on the
    wrapper (tb/hdl/nvdla_pp_top_mem.v) with its simulation memory, else with an AxiRam."""
    top = await start(dut, salt, cls)
    await top.write("GLB", "S_INTR_MASK", 0, nposted=True)   # every done interrupt reaches `intr`
    return top


async def setup(dut: SimHandleBase, salt: str) -> CdpTop:
    return await make_top(dut, salt, CdpTop)


# ---- memory, running, scoring --------------------------------------------------------------------------

def cube_span(s: Surface, width: int, height: int, channels: int) -> tuple[int, int]:
    surfaces = -(-channels // ATOM)
    return s.base, s.base + (surfaces - 1) * s.surface_stride + (height - 1) * s.line_stride + width * ATOM


def dst_span(cfg: CdpConfig) -> tuple[int, int]:
    lo, hi = cube_span(Surface(cfg.dst_base, cfg.dst_line_stride, cfg.dst_surface_stride), cfg.width,
                       cfg.height, cfg.channels)
    return lo - GUARD, hi + GUARD


def prepare(top: CdpTop, layer: Layer) -> None:
    """Random background at the source and around the destination, then the layer's cube at the source, in
    the RAM and in the model's memory alike."""
    cfg = layer.prog.config
    src = Surface(cfg.src_base, cfg.src_line_stride, cfg.src_surface_stride)
    lo, hi = cube_span(src, cfg.width, cfg.height, cfg.channels)
    top.fill(lo, hi)
    top.fill(*dst_span(cfg))
    write_cube(top.mem, src.base, src.line_stride, src.surface_stride, layer.cube)
    top.ram.write(lo, top.mem.read(lo, hi - lo).tobytes())


def compare(top: CdpTop, layer: Layer, label: str) -> None:
    """The destination region (gaps and guards included) against the model; names the first wrong element."""
    cfg = layer.prog.config
    lo, hi = dst_span(cfg)
    actual = np.frombuffer(top.ram.read(lo, hi - lo), dtype=np.uint8)
    expected = top.mem.read(lo, hi - lo)
    bad = np.flatnonzero(actual != expected)
    if not bad.size:
        return
    addr = lo + int(bad[0])
    where = OutputLayout("CDP", layer.prog.group, cfg.dst_base, cfg.dst_line_stride, cfg.dst_surface_stride,
                         cfg.width, cfg.height, cfg.channels).coordinate(addr)
    e, a = (int(as_signed(int(x[bad[0]]), 8)) for x in (expected, actual))
    if where is None:
        element = f"a gap or guard byte at {addr:#x} (must stay untouched): expected {e}, actual {a}"
    else:
        w, h, c = where
        element = f"h={h}, w={w}, c={c} (address {addr:#x}): expected {e}, actual {a}"
    raise AssertionError(f"{label}: {bad.size} wrong bytes in [{lo:#x}, {hi:#x}); first {element}\n"
                         f"  {describe(layer)}")


def expect_stats(top: CdpTop, layer: Layer) -> None:
    """Run the model on the mirror (after the RTL ran) and record what the group's registers must hold."""
    res = run_cdp(layer.prog.config, top.mem)
    layer.res = res
    counts = {**res.lut_counts, "out_saturation": res.out_saturation}
    top.group_stats[layer.prog.group] = {reg: counts[name] for reg, name in STATS.items()}


async def check_idle(top: CdpTop, label: str, unit: str = "CDP") -> None:
    """Both register groups of `unit` and of its read DMA idle (after the last done)."""
    for name in (unit, f"{unit}_RDMA"):
        value = await top.read(name, "S_STATUS")
        assert (value & 3, (value >> 16) & 3) == (IDLE, IDLE), \
            f"{label}: {name} S_STATUS {value:#x} after done"


async def check_queued(top: CdpTop, label: str, unit: str = "CDP") -> None:
    """Group 0 of `unit` and of its read DMA still RUNNING with group 1 queued behind it (PENDING)."""
    for name in (unit, f"{unit}_RDMA"):
        value = await top.read(name, "S_STATUS")
        assert value == RUNNING | PENDING << 16, \
            f"{label}: {name} S_STATUS {value:#x} once both groups are enabled: group 0 must " \
            "still run (RUNNING) with group 1 queued behind it (PENDING)"


async def run_layer(top: CdpTop, layer: Layer, label: str) -> int:
    """Program over CSB, start, wait for the interrupt, score output and statistics; the cycles waited."""
    prepare(top, layer)
    top.new_pauses()
    await top.issue(layer.prog.writes)
    waited = await top.wait_intr(1 << (INTR_BIT["CDP"] + layer.prog.group))
    assert waited is not None, f"{label}: no CDP_{layer.prog.group} interrupt within {DONE_BOUND} cycles\n" \
                               f"  {describe(layer)}"
    expect_stats(top, layer)
    compare(top, layer, label)
    await top.check_stats(label)
    await check_idle(top, label)
    return waited

async def record_reads(dut: SimHandleBase, cycles: dict[int, list[int]]) -> None:
    """The cycle of every AR handshake per AXI ID (PDP 0, CDP 1, SDP 2)."""
    n = 0
    while True:
        await ReadOnly()
        if int(dut.m_axi_arvalid.value) and int(dut.m_axi_arready.value):
            cycles.setdefault(int(dut.m_axi_arid.value), []).append(n)
        await RisingEdge(dut.clk)
        n += 1
