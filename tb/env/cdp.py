"""The CDP top-level environment: `CdpTop` (tb/env/pdp.py's `Top` plus the CDP statistics each register group
must hold and the interrupt wait), its start-up, and how a CDP layer is placed in memory, run and scored
against models.cdp.model.run_cdp; the AR monitor of the concurrency tests.
"""

from __future__ import annotations

import random
from typing import TypeVar

from cocotb.handle import SimHandleBase
from cocotb.triggers import ReadOnly, RisingEdge

from models.cdp.model import CdpConfig, cube_layouts, run_cdp
from models.regfile import intr_bit
from tb.bench_target import wait_status_bit
from tb.bfm.sim_memory import SimMemory
from tb.env.pdp import Top, start
from tb.stimulus.cdp_top import (
    Layer,
    describe,
)

INTR_BIT = {u: intr_bit(u, 0) for u in ("CDP", "PDP")}  # GLB S_INTR_STATUS: group 1 = bit + 1
IDLE, RUNNING, PENDING = 0, 1, 2    # S_STATUS.STATUS_{0,1}
GUARD = 64                          # bytes checked untouched before and after each destination cube
POLL = 32                           # cycles between interrupt polls
DONE_BOUND = 1_000_000              # bounds a hang only (a nightly layer with heavy stalls is far shorter)
STATS = {"D_PERF_LUT_LE_HIT": "le_hit", "D_PERF_LUT_LO_HIT": "lo_hit", "D_PERF_LUT_UFLOW": "uflow",
         "D_PERF_LUT_OFLOW": "oflow", "D_PERF_LUT_HYBRID": "hybrid", "D_OUT_SATURATION": "out_saturation",
         # FP16's counters (0 at INT8/INT16): the inputs' always read 0 and the NaN outputs are the layer
         # before's (NVIDIA's RTL; models/subsystem.py)
         "D_NAN_INPUT_NUM": "nan_input", "D_INF_INPUT_NUM": "inf_input", "D_NAN_OUTPUT_NUM": "nan_output"}


# ---- the DUT ------------------------------------------------------------------------------------------

class CdpTop(Top):
    """tb/env/pdp.py's top (CSB master, AxiRam with random stalls, model memory) plus the CDP side."""

    def __init__(self, dut: SimHandleBase, rng: random.Random, sim_mem: SimMemory | None = None) -> None:
        super().__init__(dut, rng, sim_mem)
        # what each register group's statistics registers must hold (reset: 0)
        self.group_stats: list[dict[str, int]] = [dict.fromkeys(STATS, 0), dict.fromkeys(STATS, 0)]
        self.nan_before = 0   # the NaN outputs of the last CDP layer (D_NAN_OUTPUT_NUM of the next one)

    async def wait_intr(self, bits: int, bound: int = DONE_BOUND) -> int | None:  # type: ignore[override]
        """Wait until every bit of `bits` was set in GLB S_INTR_STATUS, clearing each (W1C); the cycles
        waited, or None after `bound` cycles. Any other bit set is a wrong interrupt: it fails."""
        done = await wait_status_bit(self.dut, self.csb, bits, bound, only=True)
        return None if done is None else done[0]

    async def after_reset(self) -> None:
        """After a reset (a batch's failed layer): every register group's statistics are 0 again, and every
        done bit reaches `intr` (GLB S_INTR_MASK 0)."""
        self.group_stats = [dict.fromkeys(STATS, 0), dict.fromkeys(STATS, 0)]
        self.nan_before = 0
        await self.write("GLB", "S_INTR_MASK", 0, nposted=True)

    async def check_stats(self, label: str) -> None:
        """Both CDP register groups' statistics registers hold what the model says."""
        await self.check_group_registers("CDP", self.group_stats, label)


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

def dst_span(cfg: CdpConfig) -> tuple[int, int]:
    lo, hi = cube_layouts(cfg)[1].extent()
    return lo - GUARD, hi + GUARD


def prepare(top: CdpTop, layer: Layer) -> None:
    """Random background at the source and around the destination, then the layer's cube at the source, in
    the RAM and in the model's memory alike."""
    cfg = layer.prog.config
    src = cube_layouts(cfg)[0]
    lo, hi = src.extent()
    m = top.index(cfg.src_ram_mc)   # the memory the source is read from (RAM_TYPE), background in both
    top.fill(lo, hi, mem=m)
    top.fill(*dst_span(cfg), mem=0)
    top.fill(*dst_span(cfg), mem=1)
    src.write(top.mems[m], layer.cube)
    top.rams[m].write(lo, top.mems[m].read(lo, hi - lo).tobytes())


def locate(layer: Layer, addr: int) -> str:
    """Name an output byte: its (h, w, c) in the output cube, or a gap/guard byte."""
    cfg = layer.prog.config
    where = cube_layouts(cfg)[1].coordinate(addr)
    if where is None:
        return "a gap or guard byte (must stay untouched)"
    c, h, w = where
    return f"h={h}, w={w}, c={c}"


def compare(top: CdpTop, layer: Layer, label: str) -> None:
    """The destination region (gaps and guards included) against the model; names the first wrong element."""
    cfg = layer.prog.config
    top.check_region(*dst_span(cfg), label, lambda addr: locate(layer, addr), signed=True,
                     detail=f"\n  {describe(layer)}", mem=top.index(cfg.dst_ram_mc))


def expect_stats(top: CdpTop, layer: Layer) -> None:
    """Run the model on the mirror (after the RTL ran) and record what the group's registers must hold (the
    layers in the order they ran)."""
    res = run_cdp(layer.prog.config, top.mem, sec_mem=top.sec_mem)
    layer.res = res
    counts = {**res.lut_counts, "out_saturation": res.out_saturation, "nan_input": 0, "inf_input": 0,
              "nan_output": top.nan_before}
    top.nan_before = res.nan_output
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
