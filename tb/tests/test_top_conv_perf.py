"""CDMA's D_PERF_* statistics on the subsystem top (bench top_conv_perf: nvdla_pp_top with cocotbext-axi
AxiRams, the build of top_pdp; docs/perf_counters.md): random convolution layers (tb/stimulus/conv_top.py)
over a memory that withholds ready (and valid) about half the cycles on every channel, or never, with CDMA's
D_PERF_ENABLE.DMA_EN drawn per layer (the first layers: on over a stalling memory, off over a stalling
memory, on over one that never stalls). The bench watches CDMA's two AXI read ports on the top (the arb_*
vectors between the units and the memory interface) every cycle and counts, as NVIDIA defines them:
- D_PERF_DAT_READ_STALL / D_PERF_WT_READ_STALL: cycles in which the port's AR request is valid and not ready;
- D_PERF_DAT_READ_LATENCY / D_PERF_WT_READ_LATENCY: cycles in which at least one of the port's read bursts
  is outstanding, a burst being outstanding from the cycle after its AR handshake to the cycle of its last
  R beat (NVIDIA's CDMA: a count of outstanding requests, one more after an accepted request, one fewer
  after its last response, and the latency one more every cycle that count is not 0).
After each hardware layer the register group it ran must hold the counts of that layer (CDMA restarts them
at every layer's start; a layer with DMA_EN 0 leaves 0); every layer's output cube is scored against the
model. The latency counts must be nonzero on every enabled layer, the stall counts over the stalling ones.
NIGHTLY: more layers.
"""

from __future__ import annotations

from dataclasses import dataclass

import cocotb
import numpy as np
from cocotb.handle import SimHandleBase
from cocotb.triggers import ReadOnly, RisingEdge

from models.regfile import intr_bit
from models.steps import MemCheck, MemWrite, RegWrite, Step, WaitInterrupt
from tb import outcome
from tb.bench_target import reset
from tb.common import bench_params, scaled
from tb.env import pdp as pdp_env
from tb.stimulus.conv_top import ConfigError, describe, layer_steps, output_check, random_layer

PORTS = ("DAT", "WT")   # CDMA's read ports: the top's memory-interface masters M_CDMA_DAT, M_CDMA_WT


@dataclass
class Counts:
    stall: int = 0
    latency: int = 0
    outstanding: int = 0   # bursts accepted, their last beat not yet seen


class ReadMonitor:
    """Every cycle, CDMA's two read ports: stall and latency cycles as NVIDIA defines them (module doc)."""

    def __init__(self, dut: SimHandleBase) -> None:
        params = bench_params()
        first = 3 + int(params.get("BDMA", 0)) + int(params.get("RUBIK", 0))   # M_CDMA_DAT (nvdla_pp_top)
        self.master = {"DAT": first, "WT": first + 1}
        self.dut = dut
        self.counts = {p: Counts() for p in PORTS}
        cocotb.start_soon(self._run())

    def take(self) -> dict[str, Counts]:
        seen = self.counts
        self.counts = {p: Counts(outstanding=seen[p].outstanding) for p in PORTS}
        return seen

    async def _run(self) -> None:
        dut = self.dut
        while True:
            await ReadOnly()
            arv, arr = int(dut.arb_arvalid.value), int(dut.arb_arready.value)
            rv, rr, rl = int(dut.arb_rvalid.value), int(dut.arb_rready.value), int(dut.arb_rlast.value)
            for port, m in self.master.items():
                c = self.counts[port]
                c.stall += (arv >> m) & ~(arr >> m) & 1
                c.latency += c.outstanding > 0
                c.outstanding += ((arv & arr) >> m) & 1
                c.outstanding -= ((rv & rr & rl) >> m) & 1
            await RisingEdge(dut.clk)


def with_dma_en(steps: list[Step], dma_en: int) -> list[Step]:
    """The steps with CDMA D_PERF_ENABLE written before each hardware layer's first D_OP_ENABLE."""
    out: list[Step] = []
    enabling = False
    for step in steps:
        is_enable = isinstance(step, RegWrite) and step.reg == "D_OP_ENABLE"
        if is_enable and not enabling:
            out.append(RegWrite("CDMA", "D_PERF_ENABLE", dma_en))
        enabling = is_enable or (enabling and not isinstance(step, WaitInterrupt))
        out.append(step)
    return out


@cocotb.test()
async def perf_counters_cdma(dut: SimHandleBase) -> None:
    top = await pdp_env.setup(dut, "perf_counters_cdma")
    monitor = ReadMonitor(dut)
    count = scaled(3, 30)   # the three fixed cases; NIGHTLY adds random ones
    fixed = ((True, 1), (True, 0), (False, 1))   # (the memory stalls, DMA_EN) of the first layers
    seen_stall = seen_latency = 0
    n = 0
    while n < count:
        layer = random_layer(top.rng)
        try:
            prog, steps = layer_steps(top.rng, layer)
        except ConfigError:
            continue
        # every program of the driver starts at register group 0: a reset puts both pointers back there
        await reset(dut)
        top.reset_shadow()
        top.stall, dma_en = fixed[n] if n < len(fixed) else (top.rng.random() < 0.7, top.rng.getrandbits(1))
        top.new_pauses()
        steps = with_dma_en(steps, dma_en)
        check = output_check(layer, steps, f"layer {n}")
        memory = "stalling" if top.stall else "never stalling"
        label = f"layer {n} ({describe(layer, prog)}; {memory} memory, DMA_EN {dma_en})"
        monitor.take()
        for step in steps:
            if isinstance(step, MemWrite):
                top.rams[step.mem].write(step.addr, step.data.tobytes())
            elif isinstance(step, RegWrite):
                await top.write(step.unit, step.reg, step.value, nposted=step.reg == "D_OP_ENABLE")
            elif isinstance(step, WaitInterrupt):
                got = await top.wait_intr(1 << intr_bit(step.unit, step.group))
                assert got is not None, f"{label}: no {step.unit} done interrupt ({step.where})"
                # the statistics are the group's once the convolution is done (CACC's done: every unit's)
                cacc = await top.wait_intr(1 << intr_bit("CACC", step.group))
                assert cacc is not None, f"{label}: no CACC done interrupt ({step.where})"
                c = monitor.take()
                assert not any(x.outstanding for x in c.values()), f"{label}: reads outstanding at the end"
                want = {f"D_PERF_{p}_READ_{kind}": (getattr(c[p], kind.lower()) if dma_en else 0)
                        for p in PORTS for kind in ("STALL", "LATENCY")}
                regs = await top.group_registers("CDMA", step.group, want)
                bad = {r: (regs[r], v) for r, v in want.items() if regs[r] != v}
                assert not bad, f"{label}, {step.where}: CDMA group {step.group} (read, bench): {bad}"
                if dma_en:
                    assert c["DAT"].latency and c["WT"].latency, f"{label}: no read latency counted"
                    seen_stall += c["DAT"].stall + c["WT"].stall if top.stall else 0
                    seen_latency += c["DAT"].latency
        assert isinstance(check, MemCheck)
        actual = np.frombuffer(top.rams[0].read(check.addr, check.data.size), dtype=np.uint8)
        wrong = np.flatnonzero(actual != check.data)
        assert not wrong.size, (f"{label}: the output differs from the model at {wrong.size} bytes, first "
                                f"at {check.addr + int(wrong[0]):#x} (expected {check.data[wrong[0]]}, "
                                f"actual {actual[wrong[0]]})")
        dut._log.info("%s: ok", label)
        n += 1
        outcome.checked(n, "layers")
    assert seen_stall and seen_latency, "no stall or no latency counted over the layers: nothing tested"
