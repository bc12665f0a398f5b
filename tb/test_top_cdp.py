"""Top-level tests of the CDP slice (rtl/top/nvdla_pp_top.v), driven the way software drives NVDLA.

Layers are programmed over CSB from the CDP driver layer's register writes (models/driver_cdp.py: the LUT
tables through S_LUT_ACCESS_CFG/DATA, the S_LUT_* registers, both register groups), the AXI memory
(cocotbext-axi AxiRam) stalls every channel at random, and each layer's destination region, guard bytes and
line/surface gaps included, is compared byte for byte with models.cdp.run_cdp run on a mirror of the memory.
After every layer the LUT statistics (D_PERF_LUT_LE_HIT, _LO_HIT, _UFLOW, _OFLOW, _HYBRID) and
D_OUT_SATURATION of BOTH register groups are read over CSB: the group that ran must hold the model's
CdpResult, the other one what its own last layer left (per-group latching). Tests:
- random_layers: random legal layers in groups 0 and 1 alternately: every NORMALZ_LEN, the bypass modes,
  random convertors, the LUT helper's LRN (exponential and default LE) and sigmoid programs and random /
  aimed LUT configurations, cube sizes with C and W mostly not multiples of 8, strided placements; a few
  layers by default, NIGHTLY >= 100 (bigger cubes);
- lut_readback: both tables written and read back over CSB with the access pointer's auto-increment, then
  random accesses (any start address, past the end, reads in write mode and writes in read mode) scored
  against the model of the access port (models.lut.LutRam);
- queued_groups: group 1 programmed while group 0 runs (LUT kept), enabled behind it: both outputs and
  each group's statistics correct although group 1 starts right after group 0's done;
- pdp_and_cdp_concurrent: a PDP layer and a CDP layer running at the same time through the AXI arbiter
  (their read bursts interleave), both outputs correct.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

import cocotb
import numpy as np
from cocotb.handle import SimHandleBase
from cocotb.triggers import ReadOnly, RisingEdge
from numpy.typing import NDArray

from models import lut_program
from models.cdp import CdpConfig, CdpResult, cdp_compute, cube_layouts, input_convert, run_cdp, square_sum
from models.driver_cdp import CdpProgram, Convertor, Surface, cdp_layer
from models.lut import EXPONENT, LE_ENTRIES, LINEAR, LO_ENTRIES, LutConfig
from models.pdp import run_pdp
from models.precision import as_signed
from models.regfile import intr_bit
from tb import lut_access
from tb.batch import Batch
from tb.bench_target import batch_count, wait_status_bit
from tb.bfm.axi_ram import set_memory_pauses
from tb.bfm.sim_memory import SimMemory
from tb.common import nightly, scaled
from tb.funcov import Covergroup
from tb.lut_stimulus import Shape, random_config, random_table
from tb.pdp_top import Top, fixed_program, start
from tb.pdp_top import compare as compare_pdp
from tb.pdp_top import prepare as prepare_pdp
from tb.test_cdp_core import aimed_lut, input_convertor, narrow_lut, output_convertor, random_cube_data

ATOM = 8
INTR_BIT = {u: intr_bit(u, 0) for u in ("CDP", "PDP")}  # GLB S_INTR_STATUS: group 1 = bit + 1
IDLE, RUNNING, PENDING = 0, 1, 2    # S_STATUS.STATUS_{0,1}
GUARD = 64                          # bytes checked untouched before and after each destination cube
POLL = 32                           # cycles between interrupt polls
DONE_BOUND = 1_000_000              # bounds a hang only (a nightly layer with heavy stalls is far shorter)
SRC_REGION, DST_REGION = 0x2000_0000, 0x9000_0000
STATS = {"D_PERF_LUT_LE_HIT": "le_hit", "D_PERF_LUT_LO_HIT": "lo_hit", "D_PERF_LUT_UFLOW": "uflow",
         "D_PERF_LUT_OFLOW": "oflow", "D_PERF_LUT_HYBRID": "hybrid", "D_OUT_SATURATION": "out_saturation"}
LUT_KINDS = ("lrn exp", "lrn default", "sigmoid", "random", "aimed", "narrow", "one table")


# ---- the DUT ------------------------------------------------------------------------------------------

class CdpTop(Top):
    """tb/pdp_top.py's top (CSB master, AxiRam with random stalls, model memory) plus the CDP side."""

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


# ---- layers -------------------------------------------------------------------------------------------

@functools.cache
def programs() -> dict[str, lut_program.LutProgram]:
    """The LUT helper's CDP programs (their search takes seconds: built once per simulation)."""
    return {"lrn exp": lut_program.lrn(le_mode="exponent"), "lrn default": lut_program.lrn(),
            "sigmoid": lut_program.sigmoid(unit="CDP")}


@dataclass
class Layer:
    desc: dict[str, object]
    prog: CdpProgram
    cube: NDArray[np.int8]
    """[padded channels, h, w] written at the source (the padding lanes random, as memory would hold)."""
    kind: str
    label: str = ""
    res: CdpResult | None = field(default=None, repr=False)


def random_dims(rng: random.Random, big: bool) -> tuple[int, int, int]:
    """(W, H, C): mostly not multiples of 8 (the chunk and the atom), sometimes exactly at the edges."""
    scale = 3 if big else 1
    w = rng.choice([1, 7, 8, 9, 15, 17, rng.randint(1, 24 * scale)])
    h = rng.choice([1, 2, rng.randint(1, 3 * scale)])
    c = rng.choice([1, 3, 7, 8, 9, 17, rng.randint(1, 40 * scale)])
    return w, h, c


def placement(rng: random.Random, region: int, width: int, height: int) -> Surface:
    """Random 8-byte aligned base in a 1 MiB window, line/surface strides packed or with random gaps."""
    line = width * ATOM + ATOM * rng.choice([0, 0, 1, rng.randint(2, 16)])
    surf = line * height + ATOM * rng.choice([0, 0, 1, rng.randint(2, 64)])
    return Surface(region + ATOM * rng.randrange(1 << 17), line, surf)


def signed_datin(raw: Mapping[str, int]) -> Convertor:
    """tb/test_cdp_core's random input convertor (raw fields) as the driver's signed values."""
    return Convertor(int(as_signed(raw["D_DATIN_OFFSET.DATIN_OFFSET"] & 0xFF, 8)),
                     int(as_signed(raw["D_DATIN_SCALE.DATIN_SCALE"], 16)),
                     raw["D_DATIN_SHIFTER.DATIN_SHIFTER"])


def signed_datout(raw: Mapping[str, int]) -> Convertor:
    return Convertor(int(as_signed(raw["D_DATOUT_OFFSET.DATOUT_OFFSET"] & 0x1FFFFFF, 25)),
                     int(as_signed(raw["D_DATOUT_SCALE.DATOUT_SCALE"], 16)),
                     raw["D_DATOUT_SHIFTER.DATOUT_SHIFTER"])


def one_table_lut(rng: random.Random, values: NDArray[np.int64]) -> LutConfig:
    """One table (LE or LO, linear) over the middle of the layer's LUT inputs, the other entirely above
    them: inputs that hit count as that table's hits alone (the LO-only hit is rare otherwise)."""
    lo_v, hi_v = (int(np.percentile(values, q)) for q in (10, 90))
    span = max(hi_v - lo_v, 1)
    above = int(values.max()) + 1 + rng.randint(0, 1000)
    lo_on_data = rng.random() < 0.7    # the LO-only hit is the rarer one elsewhere
    lo_sel = max(-8, min(13, span.bit_length() - 8)) if lo_on_data else rng.randint(-8, 4)
    le_sel = rng.randint(-6, 4) if lo_on_data else max(-6, min(15, span.bit_length() - 6))
    lo_start, le_start = (lo_v, above) if lo_on_data else (above, lo_v)
    slopes = {f"{t}_{f}_{k}": v for t in ("le", "lo") for f in ("uflow", "oflow")
              for k, v in zip(("scale", "shift"), (rng.randint(-32768, 32767), rng.randint(-16, 15)),
                              strict=True)}
    return LutConfig(unit="CDP", le_function=LINEAR, le_index_select=le_sel, le_start=le_start,
                     le_end=le_start + (1 << (le_sel + 6)), lo_index_select=lo_sel, lo_start=lo_start,
                     lo_end=lo_start + (1 << (lo_sel + 8)), uflow_priority=rng.randint(0, 1),
                     oflow_priority=rng.randint(0, 1), hybrid_priority=rng.randint(0, 1),
                     le=random_table(rng, LE_ENTRIES), lo=random_table(rng, LO_ENTRIES), **slopes)


def choose_lut(rng: random.Random, kind: str, lut_in: NDArray[np.int64]) -> LutConfig:
    if kind in programs():
        return programs()[kind].lut_config()
    if kind == "random":
        return random_config(Shape(ATOM, 37, 38, False), rng)
    makers = {"aimed": aimed_lut, "narrow": narrow_lut, "one table": one_table_lut}
    return makers[kind](rng, lut_in.reshape(-1))


def make_layer(rng: random.Random, index: int, group: int, *, kind: str | None = None,
               dims: tuple[int, int, int] | None = None, src_region: int = SRC_REGION,
               dst_region: int = DST_REGION) -> Layer:
    """A random legal layer through the driver. The first layers walk the window lengths, the bypass modes
    and the LUT kinds, so that even a short run has them all."""
    w, h, c = dims or random_dims(rng, nightly())
    modes = [(0, 0), (1, 0), (0, 1), (1, 1), (0, 0), (0, 0)]
    sqsum_bypass, mul_bypass = modes[index] if index < len(modes) else rng.choice(modes + [(0, 0)] * 3)
    kind = kind or (LUT_KINDS[index] if index < len(LUT_KINDS) else rng.choice(LUT_KINDS))
    # the LRN programs expect the square sums of int8 codes: often an identity input convertor for them
    identity = kind.startswith("lrn") and rng.random() < 0.5
    datin = Convertor() if identity else signed_datin(input_convertor(rng))
    desc: dict[str, object] = {
        "local_size": 2 * (index % 4) + 3 if index < 8 else rng.choice([3, 5, 7, 9]),
        "sqsum_bypass": bool(sqsum_bypass), "mul_bypass": bool(mul_bypass), "datin": datin,
        "src": placement(rng, src_region, w, h), "dst": placement(rng, dst_region, w, h),
        "perf": rng.random() < 0.5}
    surfaces = -(-c // ATOM)
    cube = random_cube_data(rng, w, h, surfaces * ATOM)
    # a provisional program (default LUT and output convertor) gives the LUT inputs and products of the data,
    # so that the LUT and the output convertor can be aimed at them
    base = cdp_layer(w, h, c, lut=LutConfig(unit="CDP"), group=group, **desc)  # type: ignore[arg-type]
    x9 = input_convert(cube, base.config)
    lut = choose_lut(rng, kind, x9 if sqsum_bypass else square_sum(x9, base.config.local_size))
    with_lut = cdp_layer(w, h, c, lut=lut, group=group, **desc)  # type: ignore[arg-type]
    looked = cdp_compute(cube, with_lut.config).lut
    assert looked is not None
    v = looked.output if mul_bypass else looked.output * x9
    desc["datout"] = signed_datout(output_convertor(rng, v))
    prog = cdp_layer(w, h, c, lut=lut, group=group, **desc)  # type: ignore[arg-type]
    return Layer({"dims": (w, h, c), **desc}, prog, cube, kind)


def describe(layer: Layer) -> str:
    cfg, lut = layer.prog.config, layer.prog.config.lut
    mode = "EXP" if lut.le_function == EXPONENT else "LIN"
    src = (cfg.src_base, cfg.src_line_stride, cfg.src_surface_stride)
    dst = (cfg.dst_base, cfg.dst_line_stride, cfg.dst_surface_stride)
    return (f"group {layer.prog.group}: {cfg.width}x{cfg.height}x{cfg.channels} LRN{cfg.local_size} "
            f"bypass sqsum={int(cfg.sqsum_bypass)} mul={int(cfg.mul_bypass)}; "
            f"in cvt {layer.desc['datin']}, out cvt {layer.desc.get('datout')}; LUT {layer.kind}: LE {mode} "
            f"[{lut.le_start}, {lut.le_end}] sel={lut.le_index_select} off={lut.le_index_offset}, LO "
            f"[{lut.lo_start}, {lut.lo_end}] sel={lut.lo_index_select}, priorities u/o/h="
            f"{lut.uflow_priority}/{lut.oflow_priority}/{lut.hybrid_priority}; "
            f"src (base, line, surface) {tuple(hex(v) for v in src)}, dst {tuple(hex(v) for v in dst)}")


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
    top.fill(lo, hi)
    top.fill(*dst_span(cfg))
    src.write(top.mem, layer.cube)
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
    where = cube_layouts(cfg)[1].coordinate(addr)
    e, a = (int(as_signed(int(x[bad[0]]), 8)) for x in (expected, actual))
    if where is None:
        element = f"a gap or guard byte at {addr:#x} (must stay untouched): expected {e}, actual {a}"
    else:
        c, h, w = where
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


# ---- tests --------------------------------------------------------------------------------------------

class Coverage(Covergroup):
    def __init__(self) -> None:
        super().__init__("top_cdp", "CDP", {
            "LRN size": tuple(f"LRN{n}" for n in (3, 5, 7, 9)),
            "bypass": ("sqsum bypass", "mul bypass", "both bypass"),
            "cube": ("C % 8 != 0", "W % 8 != 0", "several surfaces"),
            "register group": ("group 0", "group 1"),
            "LUT program": (*(f"LUT {k}" for k in LUT_KINDS), "exponential LE"),
            "LUT statistics": ("le_hit", "lo_hit", "uflow", "oflow", "hybrid"),
            "output": ("saturation",)})

    def add(self, layer: Layer) -> None:
        cfg, res = layer.prog.config, layer.res
        assert res is not None
        self.sample({f"LRN{cfg.local_size}": True, "sqsum bypass": cfg.sqsum_bypass,
                     "mul bypass": cfg.mul_bypass, "both bypass": cfg.sqsum_bypass and cfg.mul_bypass,
                     "C % 8 != 0": cfg.channels % ATOM != 0, "W % 8 != 0": cfg.width % ATOM != 0,
                     "several surfaces": cfg.surfaces > 1, "exponential LE": cfg.lut.le_function == EXPONENT,
                     f"group {layer.prog.group}": True, f"LUT {layer.kind}": True,
                     "saturation": res.out_saturation > 0, **{k: v > 0 for k, v in res.lut_counts.items()}})


@cocotb.test()
async def random_layers(dut: SimHandleBase) -> None:
    top = await setup(dut, "random_layers")
    count = batch_count(dut, 8, 16000)  # NIGHTLY: with cdp_core ~1e7 samples, on the simulation memory
    batch = Batch(dut, after_reset=lambda: top.write("GLB", "S_INTR_MASK", 0, nposted=True))
    i = 0
    with Coverage().written("random_layers") as cov:
        # the planned layers, then (bounded) more until every coverage goal is met: small random cubes miss
        # one now and then (a LO-only hit, say)
        while i < count or (cov.missing() and i < 4 * count):
            # Both units are enabled every layer, so their CONSUMER pointers alternate 0, 1, 0, ...
            # past the planned layers, a missing LE-only / LO-only hit is aimed at with a one-table LUT
            aim = "one table" if i >= count and {"le_hit", "lo_hit"} & set(cov.missing()) else None
            layer = make_layer(top.rng, i, group=batch.group, kind=aim)
            label = f"layer {i}"
            cycles = await batch.run(f"{label} ({describe(layer)})", run_layer(top, layer, label))
            if cycles is not None:
                cov.add(layer)
                dut._log.info("layer %d ok in %d cycles: %s", i, cycles, describe(layer))
            i += 1
        dut._log.info("%d layers, coverage: %s", i, cov.summary())
        batch.finish()
        cov.check()


@cocotb.test()
async def lut_readback(dut: SimHandleBase) -> None:
    top = await setup(dut, "lut_readback")
    await lut_access.lut_readback(top, "CDP", top.rng, saturating=True)


@cocotb.test()
async def queued_groups(dut: SimHandleBase) -> None:
    """Group 1 programmed (same LUT, not reloaded) while group 0 runs and enabled behind it."""
    top = await setup(dut, "queued_groups")
    rng = top.rng
    for rounds in range(scaled(2, 10)):
        a = make_layer(rng, 0, group=0, kind="lrn exp", dims=(24, 4, 40))
        b = make_layer(rng, rounds + 1, group=1, kind="lrn exp", dims=random_dims(rng, False),
                       src_region=SRC_REGION + 0x400_0000, dst_region=DST_REGION + 0x400_0000)
        b.prog = cdp_layer(*b.desc["dims"], lut=programs()["lrn exp"], group=1, load_lut=False,  # type: ignore[misc]
                           **{k: v for k, v in b.desc.items() if k != "dims"})  # type: ignore[arg-type]
        prepare(top, a)
        prepare(top, b)
        await top.issue(a.prog.writes)
        await top.issue(b.prog.writes)
        await check_queued(top, f"round {rounds}")
        bits = sum(1 << (INTR_BIT["CDP"] + g) for g in (0, 1))
        assert await top.wait_intr(bits) is not None, "no CDP_0 and CDP_1 interrupts"
        for layer, name in ((a, "A (group 0)"), (b, "B (group 1)")):
            expect_stats(top, layer)
            compare(top, layer, f"round {rounds}, layer {name}")
        await top.check_stats(f"round {rounds}")
        await check_idle(top, f"round {rounds}")


async def record_reads(dut: SimHandleBase, cycles: dict[int, list[int]]) -> None:
    """The cycle of every AR handshake per AXI ID (PDP 0, CDP 1, SDP 2)."""
    n = 0
    while True:
        await ReadOnly()
        if int(dut.m_axi_arvalid.value) and int(dut.m_axi_arready.value):
            cycles.setdefault(int(dut.m_axi_arid.value), []).append(n)
        await RisingEdge(dut.clk)
        n += 1


def overlapped(cycles: Mapping[int, Sequence[int]]) -> bool:
    return len(cycles) == 2 and all(cycles[i][0] < cycles[1 - i][-1] for i in (0, 1))


@cocotb.test()
async def pdp_and_cdp_concurrent(dut: SimHandleBase) -> None:
    top = await setup(dut, "pdp_and_cdp_concurrent")
    rng = top.rng
    for rounds in range(scaled(2, 8)):
        group = rounds % 2
        # kernel = stride, a divisor of the 32 x 8 input (every input sample used)
        pdp = fixed_program(rng, group, 32, 8, 24, rng.choice([1, 2, 4]), SRC_REGION + 0x800_0000,
                            DST_REGION + 0x800_0000)
        cdp = make_layer(rng, rounds + 4, group=group, dims=(rng.randint(17, 30), 3, rng.randint(17, 40)))
        prepare_pdp(top, pdp)
        prepare(top, cdp)
        set_memory_pauses(top.ram, rng)
        cycles: dict[int, list[int]] = {}
        monitor = cocotb.start_soon(record_reads(dut, cycles))
        # everything but the enables, then the four enables back to back
        await top.issue([w for w in cdp.prog.writes if w[1] != "D_OP_ENABLE"])
        await top.issue([w for w in pdp.writes if w[1] != "D_OP_ENABLE"])
        enables = [w for w in cdp.prog.writes + pdp.writes if w[1] == "D_OP_ENABLE"]
        await top.issue(enables if rng.random() < 0.5 else enables[::-1])
        bits = (1 << (INTR_BIT["CDP"] + group)) | (1 << (INTR_BIT["PDP"] + group))
        waited = await top.wait_intr(bits)
        monitor.cancel()
        assert waited is not None, \
            f"round {rounds}: not both of the PDP and CDP interrupts\n  {describe(cdp)}"
        spans = {i: (c[0], c[-1]) for i, c in cycles.items()}
        assert overlapped(cycles), \
            f"round {rounds}: the PDP (ID 0) and CDP (ID 1) reads did not interleave (first/last AR cycle " \
            f"per ID: {spans})"
        expect_stats(top, cdp)
        compare(top, cdp, f"round {rounds}, CDP")
        run_pdp(pdp.config, top.mem)
        compare_pdp(top, pdp.config, f"round {rounds}, PDP")
        await top.check_stats(f"round {rounds}")
        dut._log.info("round %d: both done in %d cycles, %d PDP and %d CDP read bursts", rounds, waited,
                      len(cycles.get(0, [])), len(cycles.get(1, [])))
