"""The units' DMA behaviour on the subsystem top (bench top_dma: nvdla_pp_top with cocotbext-axi AxiRams, the
build of top_pdp), for PDP, CDP and SDP (docs/perf_counters.md):
- perf_counters_{pdp,cdp,sdp}: layers on a memory that withholds ready (and valid) about half the cycles on
  every channel or never, D_PERF_ENABLE drawn per unit and field (the first layer all off over a stalling
  memory: every counter must stay at its reset value 0 although the bench counted stalls; the next two all on
  over a stalling memory, the fourth all on over a memory that never stalls, the fifth all off over a
  stalling one); every layer's output is scored as usual, and both register groups of every
  D_PERF_*_STALL register must hold what models/perf.py makes of the stall cycles the bench counted on the
  unit's own AXI port (tb/perf.py). The bench's own counts must be 0 on the memory that never stalls, and
  every counter must have counted over the stalling layers.
- axi_errors_{pdp,cdp,sdp}: the memory answers SLVERR or DECERR on windows of each layer's input and output
  (tb/bfm/axi_ram.py ErrorRam: an errored read beat carries junk data, an errored write beat is not
  stored). The layer still ends with its done interrupt and the unit idle; the output is the model's on
  the input as read (the junk in the windows) with the refused writes missing; a clean layer after it is
  correct.
NIGHTLY: more layers each.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass

import cocotb
import numpy as np
from cocotb.handle import SimHandleBase
from cocotb.triggers import ReadOnly, RisingEdge
from cocotbext.axi.constants import AxiResp

from models.cdp.model import cube_layouts
from models.pdp.model import dst_layout, run_pdp, src_layout
from models.regfile import intr_bit
from models.sdp.model import run_sdp
from tb import outcome
from tb.bfm.axi_ram import ErrorRam, junk
from tb.common import scaled
from tb.env import cdp as cdp_env
from tb.env import pdp as pdp_env
from tb.env import sdp as sdp_env
from tb.env.pdp import DST_REGION, SRC_REGION
from tb.env.top import ATOM, Top
from tb.perf import (
    RDMA,
    READ_STALL,
    WRITE_STALL,
    PerfCheck,
    StallMonitor,
    Stalls,
    random_enables,
    with_enables,
)
from tb.stimulus import cdp_top
from tb.stimulus.sdp_top import BLOCKS, LUT_KINDS, Wants
from tb.stimulus.sdp_top import Layer as SdpLayer
from tb.stimulus.sdp_top import make_layer as make_sdp_layer

SDP_READS = {"input": "MRDMA", "BS": "BRDMA", "BN": "NRDMA", "EW": "ERDMA"}   # stream -> its counter's name


# (the memory stalls, the enables) of the first layers of each perf_counters test
FIXED_LAYERS = ((True, "none"), (True, "all"), (True, "all"), (False, "all"), (True, "none"))


def plan(i: int, rng: random.Random) -> tuple[bool, str]:
    """(the memory stalls, the enables: "all", "none" or "random") of layer i: the first with everything
    disabled on a stalling memory (the counters must stay at their reset value 0), the next two (different
    kinds of layer) with everything enabled on it."""
    return FIXED_LAYERS[i] if i < len(FIXED_LAYERS) else (rng.random() < 0.7, "random")


def enables_for(rng: random.Random, units: Sequence[str], mode: str) -> list[tuple[str, str, int]]:
    writes = random_enables(rng, units)
    if mode == "random":
        return writes
    return [(u, r, 0xFFFF_FFFF if mode == "all" else 0) for u, r, _v in writes]


class Totals:
    """Stall cycles the bench counted per counter over the layers that enabled it on a stalling memory."""

    def __init__(self) -> None:
        self.seen: dict[tuple[str, str], int] = {}

    def layer(self, label: str, stall: bool, counts: Mapping[tuple[str, str], int],
              enabled: Callable[[tuple[str, str]], bool]) -> None:
        for key, n in counts.items():
            assert stall or n == 0, f"{label}: the bench counted {n} stall cycles for {key} on a memory " \
                                    "that never withholds ready (the unit runs alone: nothing may hold it)"
            if stall and enabled(key):
                self.seen[key] = self.seen.get(key, 0) + n

    def check(self, keys: Sequence[tuple[str, str]]) -> None:
        idle = [k for k in keys if not self.seen.get(k)]
        assert not idle, f"counters that never counted on the stalling memory while enabled: {idle} " \
                         f"(counted: {self.seen}): the test did not exercise them"


async def perf_layers(top: Top, units: Sequence[str], keys: Sequence[tuple[str, str]],
                      run: Callable[[int, list[tuple[str, str, int]]], Awaitable[None]],
                      counts_of: Callable[[Stalls], dict[tuple[str, str], int]], count: int,
                      exercised: Sequence[tuple[str, str]] | None = None) -> None:
    """The perf_counters test of one unit: `run(i, enables)` builds, runs and scores layer i with the
    D_PERF_ENABLE writes `enables`, `counts_of` turns the monitor's stalls into counts per counter; every
    counter of `exercised` (default: all of `keys`) must count over the stalling layers."""
    monitor = StallMonitor(top.dut)
    check = PerfCheck(keys)
    totals = Totals()
    for i in range(count):
        top.stall, mode = plan(i, top.rng)
        enables = enables_for(top.rng, units, mode)
        label = f"layer {i} ({'stalling' if top.stall else 'never stalling'} memory, enables {mode}: " \
                f"{[(u, hex(v)) for u, _r, v in enables]})"
        monitor.take()
        await run(i, enables)
        counts = counts_of(monitor.take())
        values = check.ran(top.shadow, units, counts)
        if i == 0:
            # disabled from reset: nothing counts although the memory stalled the unit
            assert any(counts.values()), f"{label}: the bench counted no stall: the layer tests nothing"
            assert not any(values.values()), f"{label}: the model let disabled counters count: {values}"
        totals.layer(label, top.stall, counts, lambda k: check.last_on[k])
        await check.check(top, label)
        top.dut._log.info("%s: bench-counted stalls %s", label, counts)
        outcome.checked(i + 1, "layers")
    totals.check(keys if exercised is None else exercised)


# ---- performance counters ----------------------------------------------------------------------------------

@cocotb.test()
async def perf_counters_pdp(dut: SimHandleBase) -> None:
    top = await pdp_env.setup(dut, "perf_counters_pdp")

    async def run(i: int, enables: list[tuple[str, str, int]]) -> None:
        if i % 2 == 0:
            # a 1x1 kernel writes as much as it reads: enough to fill the memory interface's write buffers
            prog = pdp_env.fixed_program(top.rng, i % 2, 32, 8, 2 * ATOM, 1, SRC_REGION, DST_REGION)
            label = f"layer {i}: 32x8x{2 * ATOM}, 1x1 kernel"
        else:
            desc, prog = pdp_env.random_program(top.rng, top.max_w, group=i % 2)
            label = f"layer {i}: {pdp_env.describe(desc, prog)}"
        await pdp_env.run_layer(top, with_enables(prog, enables), label)

    await perf_layers(top, ("PDP", "PDP_RDMA"), (READ_STALL["PDP"], WRITE_STALL["PDP"]), run,
                      lambda s: {READ_STALL["PDP"]: s.reads["PDP"], WRITE_STALL["PDP"]: s.writes["PDP"]},
                      scaled(len(FIXED_LAYERS), 40))


@cocotb.test()
async def perf_counters_cdp(dut: SimHandleBase) -> None:
    top = await cdp_env.setup(dut, "perf_counters_cdp")

    async def run(i: int, enables: list[tuple[str, str, int]]) -> None:
        # wide enough to fill the memory interface's write buffers (CDP writes what it reads)
        dims = (top.rng.randint(17, 30), top.rng.randint(2, 4), top.rng.randint(2 * ATOM + 1, 5 * ATOM))
        layer = cdp_top.make_layer(top.rng, i, i % 2, dims=dims)
        layer.prog = with_enables(layer.prog, enables)
        await cdp_env.run_layer(top, layer, f"layer {i}: {cdp_top.describe(layer)}")

    await perf_layers(top, ("CDP", "CDP_RDMA"), (READ_STALL["CDP"], WRITE_STALL["CDP"]), run,
                      lambda s: {READ_STALL["CDP"]: s.reads["CDP"], WRITE_STALL["CDP"]: s.writes["CDP"]},
                      scaled(len(FIXED_LAYERS), 40))


def sdp_streams(top: Top, layer: SdpLayer) -> dict[str, tuple[int, int, int]]:
    """Each read stream of the layer: (memory, first byte, last byte + 1) of the cube it reads."""
    cfg = layer.prog.config
    spans = {"input": (top.index(cfg.src_ram_mc),
                       *sdp_env.cube_span(cfg.src_base, cfg.src_line_stride, cfg.src_surface_stride, cfg,
                                          cfg.is_1x1))}
    for name, od in layer.operands.items():
        if od is not None:
            d = od.dma
            spans[name] = (top.index(d.ram_mc),
                           *sdp_env.cube_span(d.base, d.line_stride, d.surface_stride, cfg,
                                              sdp_env.packed(d, cfg), d.bytes_per_element))
    return spans


def sdp_counts(top: Top, layer: SdpLayer, stalls: Stalls) -> dict[tuple[str, str], int]:
    """The SDP counters' counts: each AR burst's waiting cycles to the stream whose cube holds its address."""
    counts = {("SDP_RDMA", f"D_PERF_{name}_READ_STALL"): 0 for name in SDP_READS.values()}
    streams = sdp_streams(top, layer)
    for burst in stalls.sdp_bursts:
        mem = top.index(burst.ram_mc)
        owners = [s for s, (m, lo, hi) in streams.items() if m == mem and lo <= burst.addr < hi]
        assert len(owners) == 1, f"SDP read burst at {burst.addr:#x} (memory {mem}) belongs to streams " \
                                 f"{owners} of {streams}"
        counts["SDP_RDMA", f"D_PERF_{SDP_READS[owners[0]]}_READ_STALL"] += burst.stalled
    assert sum(counts.values()) == stalls.reads["SDP"], "bench bug: SDP AR waits lost in the attribution"
    counts[WRITE_STALL["SDP"]] = stalls.writes["SDP"]
    return counts


@cocotb.test()
async def perf_counters_sdp(dut: SimHandleBase) -> None:
    top = await sdp_env.setup(dut, "perf_counters_sdp")
    layers: list[SdpLayer] = []

    async def run(i: int, enables: list[tuple[str, str, int]]) -> None:
        # even layers: every operand stream of the configuration's SDP reads a cube from memory; odd ones
        # bypass every block, so that they write as fast as they read (a big cube: enough to fill the
        # memory interface's write buffers)
        if i % 2 == 0:
            wants = Wants(lut=top.rng.choice([None, *LUT_KINDS]), cube="several surfaces",
                          block=dict.fromkeys(BLOCKS, "per element"))
        else:
            wants = Wants(cube="big", block=dict.fromkeys(BLOCKS, "bypassed"))
        layer = make_sdp_layer(top.rng, i % 2, wants)
        # at least 8 lines a stream: enough AR requests for each to meet the stalling memory
        while layer.prog.config.height * layer.prog.config.surfaces < 8:
            layer = make_sdp_layer(top.rng, i % 2, wants)
        layer.prog = with_enables(layer.prog, enables)
        layers.append(layer)
        await sdp_env.run_layer(top, layer, f"layer {i}")

    keys = (*(("SDP_RDMA", f"D_PERF_{n}_READ_STALL") for n in SDP_READS.values()), WRITE_STALL["SDP"])
    used = [k for k in keys if k[1] != "D_PERF_ERDMA_READ_STALL" or "EW" in BLOCKS]
    await perf_layers(top, ("SDP", "SDP_RDMA"), keys, run, lambda s: sdp_counts(top, layers[-1], s),
                      scaled(len(FIXED_LAYERS), 40), used)


# ---- AXI error responses ----------------------------------------------------------------------------------

RESPONSES = (AxiResp.SLVERR, AxiResp.DECERR)
Span = tuple[int, int, int]    # (memory, base, last byte + 1) of a cube a DMA side uses


@dataclass
class ErrorLayer:
    """A layer to run with error windows: its writes and group, the cubes it reads and writes, and how to
    prepare it, run the model on what the RTL read, and score it."""

    writes: Sequence[tuple[str, str, int]]
    group: int
    reads: Sequence[Span]
    stores: Sequence[Span]
    text: str
    prepare: Callable[[], None]
    model: Callable[[], None]
    score: Callable[[str], Awaitable[None]]


class Faults:
    """One layer's error windows: two per cube (at its first atom, which the DMA always uses, and at a random
    atom of its span), the two responses in turn. Reads of a window return the ErrorRam's junk, so the model's
    memory holds that junk there (the unit must use an error beat's data as it came, as NVIDIA's MCIF does);
    a write to one is dropped, so the model's memory takes the bytes the RAM keeps there."""

    def __init__(self, top: Top, layer: ErrorLayer, first: AxiResp) -> None:
        self.top = top
        rng, other = top.rng, RESPONSES[1 - RESPONSES.index(first)]
        self.windows: dict[str, list[tuple[int, int, int, AxiResp]]] = {"read": [], "write": []}
        for kind, spans in (("read", layer.reads), ("write", layer.stores)):
            for mem, lo, hi in spans:
                at = lo + ATOM * rng.randrange(max(1, (hi - lo) // ATOM))
                self.windows[kind] += [(mem, lo, lo + ATOM * rng.randint(1, 3), first),
                                       (mem, at, at + ATOM * rng.randint(1, 4), other)]
        self.kept: list[tuple[int, int, bytes]] = []

    def ram(self, mem: int) -> ErrorRam:
        ram = self.top.rams[mem]
        assert isinstance(ram, ErrorRam), "the error tests need the AxiRam top (bench top_dma)"
        return ram

    def arm(self) -> None:
        for mem, lo, hi, _resp in self.windows["read"]:
            self.top.mems[mem].write(lo, np.frombuffer(junk(lo, hi - lo), dtype=np.uint8))
        for mem, lo, hi, _resp in self.windows["write"]:
            self.kept.append((mem, lo, bytes(self.ram(mem).read(lo, hi - lo))))
        for kind in ("read", "write"):
            for mem, lo, hi, resp in self.windows[kind]:
                self.ram(mem).errors.windows.append((lo, hi, resp))

    def off(self) -> None:
        for mem in {m for ws in self.windows.values() for m, *_rest in ws}:
            self.ram(mem).errors.windows.clear()

    def refused_writes(self) -> None:
        """The bytes of the refused writes into the model's memory (after the model ran)."""
        for mem, lo, data in self.kept:
            self.top.mems[mem].write(lo, np.frombuffer(data, dtype=np.uint8))


def answered(top: Top) -> dict[tuple[str, AxiResp], int]:
    """Beats the memories answered with an error so far, per (access, response)."""
    found: dict[tuple[str, AxiResp], int] = {}
    for ram in top.rams:
        if isinstance(ram, ErrorRam):
            for key, n in ram.errors.answered.items():
                found[key] = found.get(key, 0) + n
    return found


async def bus_errors(dut: SimHandleBase, seen: dict[str, int]) -> None:
    """Count the error responses the units' memory ports carry ("R SLVERR", "B DECERR", ...): the windows
    must reach the bus, not only the RAM model."""
    ports = [p for p in ("m_axi", "c_axi") if hasattr(dut, f"{p}_rresp")]
    while True:
        await ReadOnly()
        for port in ports:
            for ch in ("r", "b"):
                valid, ready = (int(getattr(dut, f"{port}_{ch}{s}").value) for s in ("valid", "ready"))
                code = int(getattr(dut, f"{port}_{ch}resp").value)
                fire = valid & ready
                if fire and code:
                    key = f"{ch.upper()} {AxiResp(code).name}"
                    seen[key] = seen.get(key, 0) + 1
        await RisingEdge(dut.clk)


async def error_layers(top: Top, unit: str, draw: Callable[[int], ErrorLayer],
                       clean: Callable[[], Awaitable[object]], count: int) -> None:
    """`count` layers of `unit` (`draw(i)`) with error windows, each ending with its done interrupt, the unit
    idle and its output the model's; then `clean()` runs and scores one layer without errors."""
    on_bus: dict[str, int] = {}
    cocotb.start_soon(bus_errors(top.dut, on_bus))
    for i in range(count):
        layer = draw(i)
        label = f"layer {i} with AXI error responses: {layer.text}"
        faults = Faults(top, layer, RESPONSES[i % 2])
        layer.prepare()
        top.new_pauses()
        faults.arm()
        before = sum(answered(top).values())
        await top.issue(layer.writes)
        waited = await top.wait_intr(1 << intr_bit(unit, layer.group))
        faults.off()
        assert waited is not None, f"{label}: no {unit}_{layer.group} done interrupt: the error responses " \
                                   "hung the unit"
        assert sum(answered(top).values()) > before, f"{label}: the memory answered no error (not exercised)"
        layer.model()
        faults.refused_writes()
        await layer.score(label)
        for name in (unit, RDMA[unit]):
            status = await top.read(name, "S_STATUS")
            assert status == 0, f"{label}: {name} S_STATUS {status:#x} after its done: not idle"
        top.dut._log.info("%s: done after %s cycles; error beats answered so far %s", label, waited,
                          {f"{k} {r.name}": n for (k, r), n in answered(top).items()})
        outcome.checked(i + 1, "layers")
    missing = {(k, r.name) for k in ("read", "write") for r in RESPONSES} - \
        {(k, r.name) for (k, r), n in answered(top).items() if n}
    assert not missing, f"error responses never answered: {missing}"
    assert set(on_bus) == {f"{c} {r.name}" for c in "RB" for r in RESPONSES}, \
        f"error responses seen on the memory ports: {on_bus}"
    await clean()


def cube(top: Top, ram_mc: bool, extent: tuple[int, int]) -> Span:
    return top.index(ram_mc), extent[0], extent[1]


@cocotb.test()
async def axi_errors_pdp(dut: SimHandleBase) -> None:
    top = await pdp_env.setup(dut, "axi_errors_pdp")

    def draw(i: int) -> ErrorLayer:
        desc, prog = pdp_env.random_program(top.rng, top.max_w, group=i % 2)
        cfg = prog.config

        async def score(label: str) -> None:
            pdp_env.compare(top, cfg, label)

        return ErrorLayer(prog.writes, prog.group, [cube(top, cfg.src_ram_mc, src_layout(cfg).extent())],
                          [cube(top, cfg.dst_ram_mc, dst_layout(cfg).extent())], pdp_env.describe(desc, prog),
                          lambda: pdp_env.prepare(top, prog),
                          lambda: run_pdp(cfg, top.mem, sec_mem=top.sec_mem), score)

    async def clean() -> None:
        desc, prog = pdp_env.random_program(top.rng, top.max_w, group=(await top.pointer("PDP"))[1])
        await pdp_env.run_layer(top, prog, f"clean layer after the errors: {pdp_env.describe(desc, prog)}")

    await error_layers(top, "PDP", draw, clean, scaled(3, 30))


@cocotb.test()
async def axi_errors_cdp(dut: SimHandleBase) -> None:
    top = await cdp_env.setup(dut, "axi_errors_cdp")

    def draw(i: int) -> ErrorLayer:
        layer = cdp_top.make_layer(top.rng, i, i % 2)
        cfg = layer.prog.config
        src, dst = cube_layouts(cfg)

        async def score(label: str) -> None:
            cdp_env.compare(top, layer, label)
            await top.check_stats(label)

        return ErrorLayer(layer.prog.writes, layer.prog.group, [cube(top, cfg.src_ram_mc, src.extent())],
                          [cube(top, cfg.dst_ram_mc, dst.extent())], cdp_top.describe(layer),
                          lambda: cdp_env.prepare(top, layer), lambda: cdp_env.expect_stats(top, layer),
                          score)

    async def clean() -> None:
        layer = cdp_top.make_layer(top.rng, 0, (await top.pointer("CDP"))[1])
        await cdp_env.run_layer(top, layer, f"clean layer after the errors: {cdp_top.describe(layer)}")

    await error_layers(top, "CDP", draw, clean, scaled(3, 30))


@cocotb.test()
async def axi_errors_sdp(dut: SimHandleBase) -> None:
    top = await sdp_env.setup(dut, "axi_errors_sdp")

    def draw(i: int) -> ErrorLayer:
        # an operand read too, and an output written (no EQL)
        layer = make_sdp_layer(top.rng, i % 2, Wants(lut=top.rng.choice([None, *LUT_KINDS]),
                                                     block={"BS": "per element"}))
        cfg = layer.prog.config
        dst = sdp_env.cube_span(cfg.dst_base, cfg.dst_line_stride, cfg.dst_surface_stride, cfg, cfg.is_1x1)

        def model() -> None:
            res = run_sdp(cfg, top.mem, sec_mem=top.sec_mem, lut_tables=layer.prog.lut_tables)
            sdp_env.record_stats(top, layer.prog, res)

        async def score(label: str) -> None:
            sdp_env.compare(top, layer, label)
            await top.check_sdp_stats(label)

        return ErrorLayer(layer.prog.writes, layer.prog.group, list(sdp_streams(top, layer).values()),
                          [cube(top, cfg.dst_ram_mc, dst)], sdp_env.describe(layer),
                          lambda: sdp_env.prepare(top, layer), model, score)

    async def clean() -> None:
        layer = make_sdp_layer(top.rng, (await top.pointer("SDP"))[1], Wants())
        await sdp_env.run_layer(top, layer, "clean layer after the errors")

    await error_layers(top, "SDP", draw, clean, scaled(3, 30))
