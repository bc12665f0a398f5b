"""Bench of the CDP datapath core (rtl/cdp/nvdla_cdp_core.v) against models/cdp/model.py cdp_compute.

Every layer is a set of raw CDP / CDP_RDMA register fields: the model's CdpConfig is decoded from them by
CdpConfig.from_fields (so the Limitation rules hold), and the DUT gets the same raw values packed in its
cfg / rdma_cfg bundles (tb/bundle.py). The LUT tables go in through the access port. Atoms are streamed in
the contract's order (per line, per width chunk, per surface, the chunk's pixels; docs/CONTRACTS.md "CDP
core") with random backpressure on both sides; every lane of every output atom is scored and the whole
statistics bundle (five LUT counters, output saturation, the rest 0) is compared after every layer.
Layers run back to back without a reset.

- random_layers: random cubes (C not a multiple of the atom, W not a multiple of the chunk), every
  NORMALZ_LEN, the bypass modes, random convertors, LUT configurations from tb/tests/test_lut.py's generator,
  one
  aimed at the layer's LUT inputs, and models.lut.program's LRN (exponential and linear LE) and sigmoid;
  coverage of all of these is checked at the end. NIGHTLY runs >= 100 layers.
- lut_readback: tables written through the access port read back through it.
- throughput: no backpressure, an 8x8x64 LRN-5 cube: one atom per cycle after the pipeline fills.

With INT16 = 1 (a parameter set of its own) a third of the random layers, and some of the edge and throughput
cubes, are INT16 (both D_DATA_FORMAT fields INT16, elem16 high): ATOM/2 int16 lanes per atom, scored the same
way against the model at INT16. With FP16 = 1 as well, every third layer from the third on (and some edge and
throughput cubes) is FP16 (both fields FP16, fp16 high): FP16 data with NaNs, infinities, subnormals and
65504s, NaN flush on and off, the FP16 LUT programs and random FP16 LUTs around the layer's sums, scored
against models/cdp/fp16.py, D_NAN_OUTPUT_NUM (the layer before's NaN outputs) included.
"""

from __future__ import annotations

import dataclasses
import functools
import random
import time
from dataclasses import dataclass

import cocotb
import numpy as np
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge
from cocotb.utils import get_sim_time
from numpy.typing import NDArray

from models.cdp.model import (
    FP16,
    INT16,
    CdpConfig,
    CdpResult,
    cdp_compute,
    input_convert,
    lut_lanes,
    square_sum,
)
from models.common import nvfloat
from models.common.nvfloat import FP16 as FP16F
from models.lut import program as lut_program
from models.lut.model import EXPONENT, LutConfig, lut_lookup
from models.lut.regs import lut_fields
from tb import outcome
from tb.bfm.stream import StreamBus, StreamMonitor, StreamSink, StreamSource, never_pause, pick_pause
from tb.bundle import CfgBundle, read_stat, statistics
from tb.common import bench_params, make_rng, nightly, scaled, start_clock_and_reset
from tb.funcov import Covergroup
from tb.lut_port import LutPortDriver, check_readback
from tb.stimulus.cdp_core import (
    aimed_lut,
    atom_order,
    input_convertor,
    narrow_lut,
    output_convertor,
    random_cube_data,
)
from tb.stimulus.cdp_fp16 import FP16_LUT_KINDS, fp16_lut, fp16_lut_inputs
from tb.stimulus.fp16_values import fp16_values
from tb.stimulus.lut import Shape, random_config

CLOCK_NS = 10
SUM_MAX = 9 * 256 * 256          # the widest square sum: nine 9-bit squares

Fields = dict[str, dict[str, int]]


@dataclass(frozen=True)
class Geometry:
    atom: int
    chunk: int
    int8_lut: str = "narrow"     # LUT_PAIRED: the model's CdpConfig.int8_lut ("paired" for nvdlav1's)
    int16: bool = False          # INT16: the core computes INT16 layers too
    fp16: bool = False           # FP16: and FP16 layers

    @staticmethod
    def current() -> Geometry:
        p = bench_params()
        return Geometry(p.get("ATOM", 8), p.get("CHUNK", 8), "paired" if p.get("LUT_PAIRED", 0) else "narrow",
                        bool(p.get("INT16", 0)), bool(p.get("FP16", 0)))

    @property
    def precisions(self) -> tuple[str, ...]:
        return ("INT8", *(("INT16",) if self.int16 else ()), *(("FP16",) if self.fp16 else ()))


@dataclass(frozen=True)
class Layer:
    fields: Fields
    cfg: CdpConfig
    cube: NDArray[np.int8] | NDArray[np.int16]
    """[padded channels, h, w] of the precision: the padding lanes hold random values, as memory would."""
    label: str


# ------------------------------------------------------------------------------------------ fields
def cube_fields(w: int, h: int, c: int, atom: int, precision: int = 0) -> Fields:
    """Cube size, formats (both INT8, or both `precision`) and packed strides (the core ignores the
    strides; from_fields checks them)."""
    line, surf = w * atom, w * h * atom
    rdma = {"D_DATA_CUBE_WIDTH.WIDTH": w - 1, "D_DATA_CUBE_HEIGHT.HEIGHT": h - 1,
            "D_DATA_CUBE_CHANNEL.CHANNEL": c - 1, "D_DATA_FORMAT.INPUT_DATA": precision,
            "D_SRC_LINE_STRIDE.SRC_LINE_STRIDE": line, "D_SRC_SURFACE_STRIDE.SRC_SURFACE_STRIDE": surf}
    cdp = {"D_DATA_FORMAT.INPUT_DATA_TYPE": precision, "D_DST_LINE_STRIDE.DST_LINE_STRIDE": line,
           "D_DST_SURFACE_STRIDE.DST_SURFACE_STRIDE": surf}
    return {"CDP": cdp, "CDP_RDMA": rdma}


# ------------------------------------------------------------------------------------------ DUT driver
class CdpDriver(LutPortDriver):
    """Drives the cfg / rdma_cfg bundles from raw fields, the LUT access port and start; reads the
    statistics bundle."""

    # the model's LUT count names -> the statistics fields that hold them
    LUT_STATS = {"le_hit": "D_PERF_LUT_LE_HIT.PERF_LUT_LE_HIT", "lo_hit": "D_PERF_LUT_LO_HIT.PERF_LUT_LO_HIT",
                 "uflow": "D_PERF_LUT_UFLOW.PERF_LUT_UFLOW", "oflow": "D_PERF_LUT_OFLOW.PERF_LUT_OFLOW",
                 "hybrid": "D_PERF_LUT_HYBRID.PERF_LUT_HYBRID"}
    OUT_SATURATION = "D_OUT_SATURATION.OUT_SATURATION"

    async def reset(self) -> None:
        d = self.dut
        await start_clock_and_reset(d.clk, d.rst_n,
                                    idle=[d.in_valid, d.out_ready, d.start, d.cfg, d.elem16, d.fp16])
        self.nan_before = 0   # D_NAN_OUTPUT_NUM: the NaN outputs of the layer before (0 after reset)
        self.clear_access()
        await self.wait_cleared()
        # the DUT's output protocol is checked for the whole test
        self.out_monitor = StreamMonitor(StreamBus(d, "out"), d.clk, reset=d.rst_n, record=False)

    def apply(self, fields: Fields) -> None:
        self.apply_fields(fields["CDP"])
        rdma = CfgBundle(self.dut.rdma_cfg, "CDP_RDMA")
        rdma.update(fields["CDP_RDMA"])
        rdma.apply()
        # nvdla_cdp derives elem16 from both D_DATA_FORMAT fields (INT16 = 1); the core takes it as a port
        formats = (fields["CDP"]["D_DATA_FORMAT.INPUT_DATA_TYPE"],
                   fields["CDP_RDMA"]["D_DATA_FORMAT.INPUT_DATA"])
        self.dut.elem16.value = int(formats == (INT16, INT16))
        self.dut.fp16.value = int(formats == (FP16, FP16))

    async def start(self) -> None:
        await self._strobe(self.dut.start)

    async def statistics(self) -> dict[str, int]:
        await ReadOnly()
        got = read_stat(self.dut.stat, "CDP")
        await FallingEdge(self.clk)
        return got

    def expected_statistics(self, res: CdpResult) -> dict[str, int]:
        """The whole statistics bundle the model predicts: the LUT counts, the output saturation and the
        NaN outputs of the layer before (models/subsystem.py); NaN/Inf inputs read 0 (models/cdp/fp16.py
        InputCounter) and the core counts no write stalls. Moves the NaN outputs on to the next layer."""
        want = dict.fromkeys(statistics("CDP"), 0)
        want.update({self.LUT_STATS[name]: count for name, count in res.lut_counts.items()})
        want[self.OUT_SATURATION] = res.out_saturation
        want["D_NAN_OUTPUT_NUM.NAN_OUTPUT_NUM"], self.nan_before = self.nan_before, res.nan_output
        return want


# ------------------------------------------------------------------------------------------ stream order
def pack_atom(lanes: NDArray[np.int8] | NDArray[np.int16]) -> int:
    """An atom's lanes (int8 or int16 elements) as the little-endian bus word."""
    return int.from_bytes(lanes.astype(lanes.dtype.newbyteorder("<")).tobytes(), "little")


def unpack_atom(word: int, atom: int, dtype: type = np.int8) -> NDArray[np.int8] | NDArray[np.int16]:
    return np.frombuffer(word.to_bytes(atom, "little"), dtype=np.dtype(dtype).newbyteorder("<")).astype(dtype)


def describe(layer: Layer) -> str:
    cfg, lut = layer.cfg, layer.cfg.lut
    mode = "EXP" if lut.le_function == EXPONENT else "LIN"
    prec = {INT16: "INT16 ", FP16: f"FP16 nan_flush={int(cfg.nan_to_zero)} "}.get(cfg.precision, "")
    return (f"{layer.label}: {prec}{cfg.width}x{cfg.height}x{cfg.channels} LRN{cfg.local_size} "
            f"bypass sqsum={int(cfg.sqsum_bypass)} mul={int(cfg.mul_bypass)} | "
            f"in ({cfg.datin_offset:#x}, {cfg.datin_scale:#x}, >>{cfg.datin_shifter}) "
            f"out ({cfg.datout_offset:#x}, {cfg.datout_scale:#x}, >>{cfg.datout_shifter}) | "
            f"LUT LE {mode} [{lut.le_start}, {lut.le_end}] sel={lut.le_index_select} "
            f"off={lut.le_index_offset} LO [{lut.lo_start}, {lut.lo_end}] sel={lut.lo_index_select} "
            f"pri u/o/h={lut.uflow_priority}/{lut.oflow_priority}/{lut.hybrid_priority}")


def score(layer: Layer, res: CdpResult, got: NDArray[np.int8] | NDArray[np.int16], geo: Geometry) -> None:
    """Raise naming the first wrong element (stream order) with the model's intermediate values."""
    cfg = layer.cfg
    bad = got != res.output
    if not bad.any():
        return
    n_l = cfg.lanes
    order = list(atom_order(cfg.width, cfg.height, cfg.surfaces, geo.chunk))
    for n, (y, s, x) in enumerate(order):
        lanes = np.nonzero(bad[s * n_l:(s + 1) * n_l, y, x])[0]
        if lanes.size:
            c = s * n_l + int(lanes[0])
            if cfg.precision == FP16:   # the converted x is FP17, the LUT input FP32 (bit patterns)
                bits = layer.cube.astype(np.int64) & 0xFFFF
                x9 = nvfloat.fp16_to_fp17(np.where(cfg.nan_to_zero & FP16F.is_nan(bits), 0, bits))
                lut_in = fp16_lut_inputs(layer.cube, cfg.channels, cfg.local_size, cfg.sqsum_bypass,
                                         cfg.nan_to_zero)
            else:
                x9 = input_convert(layer.cube, cfg)
                lut_in = x9 if cfg.sqsum_bypass else square_sum(x9, cfg.local_size)
            lut = res.lut
            detail = ""
            if lut is not None:
                detail = (f", LUT in {int(lut_in[c, y, x])} -> {int(lut.output[c, y, x])} (table "
                          f"{'LO' if lut.table[c, y, x] else 'LE'}, index {int(lut.index[c, y, x])}, "
                          f"fraction {int(lut.fraction[c, y, x])}, uflow {bool(lut.uflow[c, y, x])}, "
                          f"oflow {bool(lut.oflow[c, y, x])})")
            raise AssertionError(
                f"atom {n} of {len(order)} (h={y}, w={x}, surface {s}), channel c={c}: expected "
                f"{int(res.output[c, y, x])}, got {int(got[c, y, x])}; x={int(layer.cube[c, y, x])}, "
                f"x9={int(x9[c, y, x])}{detail}; {int(bad.sum())} wrong elements in all\n  {describe(layer)}")


async def run_layer(drv: CdpDriver, layer: Layer, geo: Geometry, rng: random.Random | None) -> int:
    """Program, start, stream and score one layer; returns the cycles from start to done.

    `rng` drives the backpressure only (None: none); it must not be the generator that makes the layers,
    or the layers would depend on how the pause generators were consumed."""
    dut, cfg = drv.dut, layer.cfg
    await drv.load_tables(cfg.lut.le, cfg.lut.lo)
    drv.apply(layer.fields)
    order = list(atom_order(cfg.width, cfg.height, cfg.surfaces, geo.chunk))
    n_l = cfg.lanes   # elements per atom: ATOM int8 or ATOM/2 int16
    beats = [pack_atom(layer.cube[s * n_l:(s + 1) * n_l, y, x]) for y, s, x in order]
    src = StreamSource(StreamBus(dut, "in"), dut.clk, pick_pause(rng) if rng else never_pause())
    sink = StreamSink(StreamBus(dut, "out"), dut.clk, pick_pause(rng) if rng else never_pause())
    done_count = [0]

    async def watch_done() -> None:
        while True:
            await RisingEdge(dut.clk)
            if int(dut.done.value):
                done_count[0] += 1

    watcher = cocotb.start_soon(watch_done())
    t0 = get_sim_time("ns")
    await drv.start()
    send = cocotb.start_soon(src.send(beats))
    words = await sink.recv(len(beats))
    await send
    # done follows the last accepted output within a couple of cycles; nothing else may come out
    for _ in range(4):
        await RisingEdge(dut.clk)
        assert not int(dut.out_valid.value), (f"an output atom beyond the {len(beats)} expected\n"
                                              f"  {describe(layer)}")
    cycles = int((get_sim_time("ns") - t0) / CLOCK_NS)
    watcher.cancel()
    assert done_count[0] == 1, f"done pulsed {done_count[0]} times (want 1)\n  {describe(layer)}"
    assert not int(dut.busy.value), "busy still high after done"

    got = np.zeros_like(layer.cube)
    for (y, s, x), (word,) in zip(order, words, strict=True):
        got[s * n_l:(s + 1) * n_l, y, x] = unpack_atom(word, geo.atom, layer.cube.dtype.type)
    res = cdp_compute(layer.cube, cfg)
    score(layer, res, got, geo)
    got_stat, want_stat = await drv.statistics(), drv.expected_statistics(res)
    diff = {k: (got_stat[k], want_stat[k]) for k in want_stat if got_stat[k] != want_stat[k]}
    assert not diff, f"statistics (RTL, model): {diff}\n  {describe(layer)}"
    return cycles


# ------------------------------------------------------------------------------------------ stimulus
def random_cube(rng: random.Random, geo: Geometry, nightly_size: bool = False) -> tuple[int, int, int]:
    """(W, H, C): edges (1, the chunk, the atom and one past them) and random sizes."""
    big = 4 if nightly_size else 2
    w = rng.choice([1, geo.chunk - 1, geo.chunk, geo.chunk + 1, rng.randint(1, big * geo.chunk + 5)])
    h = rng.choice([1, 1, 2, rng.randint(1, big + 1)])
    c = rng.choice([1, geo.atom - 1, geo.atom, geo.atom + 1, rng.randint(1, 5 * big // 2 * geo.atom),
                    rng.randint(2, 3 * geo.atom)])
    return max(w, 1), h, max(c, 1)


@functools.cache
def programs() -> dict[str, lut_program.LutProgram]:
    """The LUT helper's ready-made CDP programs (the search takes a few seconds: done once)."""
    return {"lrn exp": lut_program.lrn(le_mode="exponent"), "lrn default": lut_program.lrn(),
            "lrn lo_only": lut_program.lrn(layout="lo_only"), "lrn lin": lut_program.lrn(le_mode="linear"),
            "sigmoid": lut_program.sigmoid(unit="CDP")}


def make_layer(rng: random.Random, geo: Geometry, index: int, lut_kind: str | None = None,
               dims: tuple[int, int, int] | None = None, normalz: int | None = None,
               precision: int = 0) -> Layer:
    """A random layer; `precision` 0 (INT8) or INT16 (1: ATOM/2 int16 lanes per atom, the INT16 widths)."""
    w, h, c = dims or random_cube(rng, geo, nightly())
    bits = 16 if precision == INT16 else 8
    lanes = geo.atom * 8 // bits
    fields = cube_fields(w, h, c, geo.atom, precision)
    # the first layers of a run walk every bypass mode, so that even a short run has them all
    modes = [(0, 0), (1, 0), (0, 0), (0, 1), (0, 0), (1, 1)]
    sqsum_bypass, mul_bypass = modes[index] if index < len(modes) else rng.choice(modes + [(0, 0)] * 2)
    fields["CDP"].update({"D_LRN_CFG.NORMALZ_LEN": index % 4 if normalz is None else normalz,
                          "D_FUNC_BYPASS.SQSUM_BYPASS": sqsum_bypass, "D_FUNC_BYPASS.MUL_BYPASS": mul_bypass,
                          **input_convertor(rng, bits)})
    surfaces = -(-c // lanes)
    cube = random_cube_data(rng, w, h, surfaces * lanes, bits)
    # provisional config (default LUT, unit output convertor) to see the layer's LUT inputs
    fields["CDP"].update({"D_DATOUT_SCALE.DATOUT_SCALE": 1, **lut_fields(LutConfig(unit="CDP"))})
    base = CdpConfig.from_fields(fields, geo.atom, precisions=geo.precisions, int8_lut=geo.int8_lut)
    x9 = input_convert(cube, base)
    lut_in = x9 if base.sqsum_bypass else square_sum(x9, base.local_size)
    kind = lut_kind or rng.choice(["random", "aimed", "aimed", "narrow", "program"])
    if kind == "program":
        kind = rng.choice(sorted(programs()))
    if kind in programs():
        prog = programs()[kind]
        lut_f, tables = prog.fields(), (prog.le, prog.lo)
    else:
        prec_name = "INT16" if precision == INT16 else "INT8"
        makers = {"random": lambda: random_config(Shape(geo.atom, 21 if bits == 8 else 37, 38, False), rng),
                  "aimed": lambda: aimed_lut(rng, lut_in.reshape(-1), prec_name),
                  "narrow": lambda: narrow_lut(rng, lut_in.reshape(-1))}
        lut = makers[kind]()
        lut_f, tables = lut_fields(lut), (lut.le, lut.lo)
    fields["CDP"].update(lut_f)
    with_lut = CdpConfig.from_fields(fields, geo.atom, tables, geo.precisions, int8_lut=geo.int8_lut)
    looked = lut_lookup(lut_in, with_lut.lut, lut_lanes(with_lut, lut_in.shape[0])).output
    v = looked if with_lut.mul_bypass else looked * x9
    fields["CDP"].update(output_convertor(rng, v, bits))
    cfg = CdpConfig.from_fields(fields, geo.atom, tables, geo.precisions, int8_lut=geo.int8_lut)
    assert dataclasses.replace(cfg, lut=with_lut.lut) == cfg
    return Layer(fields, cfg, cube, f"layer {index} ({kind})")



def make_fp16_layer(rng: random.Random, geo: Geometry, index: int, lut_kind: str | None = None,
                    dims: tuple[int, int, int] | None = None, normalz: int | None = None) -> Layer:
    """A random FP16 layer (models/cdp/fp16.py): FP16 data around a random power of two with a share of
    specials, NaN flush on or off, every bypass mode, a FP16 LUT (FP16_LUT_KINDS) around the layer's LUT
    inputs, random convertor registers (FP16 ignores them)."""
    w, h, c = dims or random_cube(rng, geo, nightly())
    lanes = geo.atom // 2
    fields = cube_fields(w, h, c, geo.atom, FP16)
    modes = [(0, 0), (1, 0), (0, 1), (1, 1)]
    sqsum_bypass, mul_bypass = modes[index % 4] if index < 12 else rng.choice(modes + [(0, 0)] * 2)
    local_size = 3 + 2 * (index % 4 if normalz is None else normalz)
    nan_flush = rng.random() < 0.3
    fields["CDP"].update({"D_LRN_CFG.NORMALZ_LEN": (local_size - 3) // 2,
                          "D_FUNC_BYPASS.SQSUM_BYPASS": sqsum_bypass, "D_FUNC_BYPASS.MUL_BYPASS": mul_bypass,
                          "D_NAN_FLUSH_TO_ZERO.NAN_TO_ZERO": int(nan_flush), **input_convertor(rng, 16),
                          "D_DATOUT_OFFSET.DATOUT_OFFSET": rng.getrandbits(32),
                          "D_DATOUT_SCALE.DATOUT_SCALE": rng.getrandbits(16),
                          "D_DATOUT_SHIFTER.DATOUT_SHIFTER": rng.getrandbits(6)})
    surfaces = -(-c // lanes)
    log2 = rng.uniform(-10, 10) if rng.random() < 0.85 else rng.choice([-16.0, 14.0])
    specials = rng.choice([0.0, 0.02, 0.1, 0.1])
    cube = fp16_values(rng, surfaces * lanes * h * w, log2, specials).reshape(surfaces * lanes, h, w)
    lut_in = fp16_lut_inputs(cube, c, local_size, bool(sqsum_bypass), nan_flush)
    kind = lut_kind or rng.choice(FP16_LUT_KINDS + ("random fp16",) * 2)
    lut = fp16_lut(rng, kind, lut_in)
    fields["CDP"].update(lut_fields(lut))
    cfg = CdpConfig.from_fields(fields, geo.atom, (lut.le, lut.lo), geo.precisions, int8_lut=geo.int8_lut)
    label = f"layer {index} ({kind}, data 2^{log2:.1f})"
    return Layer(fields, cfg, cube.astype(np.uint16).view(np.int16), label)


def coverage(geo: Geometry) -> Covergroup:
    return Covergroup("cdp_core", "CDP", {
        "precision": geo.precisions,
        "LRN size": tuple(f"LRN{n}" for n in (3, 5, 7, 9)),
        "bypass": ("sqsum bypass", "mul bypass"),
        "cube": ("C % atom != 0", "W % chunk != 0", "several surfaces", "several chunks"),
        "LUT": ("LUT uflow", "LUT oflow", "LUT le_hit", "LUT lo_hit", "LUT hybrid", "exponential LE",
                "LUT program"),
        "output": ("saturation",),
        # FP16 layers: NaN flush, NaN outputs (D_NAN_OUTPUT_NUM), outputs of magnitude 65504
        **({"FP16": ("FP16 NaN flush", "FP16 NaN output", "FP16 saturation")} if geo.fp16 else {})})


def sample(cov: Covergroup, layer: Layer, res: CdpResult, geo: Geometry) -> None:
    cfg = layer.cfg
    cov.hit(f"LRN{cfg.local_size}")
    cov.hit({INT16: "INT16", FP16: "FP16"}.get(cfg.precision, "INT8"))
    cov.sample({"sqsum bypass": cfg.sqsum_bypass, "mul bypass": cfg.mul_bypass,
                "C % atom != 0": cfg.channels % cfg.lanes != 0, "W % chunk != 0": cfg.width % geo.chunk != 0,
                "several surfaces": cfg.surfaces > 1, "several chunks": cfg.width > geo.chunk,
                "saturation": res.out_saturation > 0, "exponential LE": cfg.lut.le_function == EXPONENT,
                "LUT program": any(k in layer.label for k in programs())})
    cov.sample({f"LUT {k}": v > 0 for k, v in res.lut_counts.items()})
    if cfg.precision == FP16:
        cov.sample({"FP16 NaN flush": cfg.nan_to_zero, "FP16 NaN output": res.nan_output > 0,
                    "FP16 saturation": res.out_saturation > 0})


# ------------------------------------------------------------------------------------------ tests
@cocotb.test()
async def random_layers(dut) -> None:
    """Random layers back to back, random backpressure; outputs and statistics vs the model."""
    geo = Geometry.current()
    rng, pauses = make_rng("random_layers"), make_rng("random_layers:pauses")
    drv = CdpDriver(dut, "CDP")
    await drv.reset()
    n_layers = scaled(12, 30000)  # NIGHTLY: with top_cdp, ~1e7 samples (README "Nightly")
    atoms = i = 0
    with coverage(geo).written("random_layers") as cov:
        # Random layers until both the count and the coverage goal are met (at most 8x the count).
        while i < n_layers or (cov.missing() and i < 8 * n_layers):
            # the first layers force the ready-made programs, so even a short run has them
            kind = {0: "lrn exp", 1: "sigmoid", 2: "narrow"}.get(i)
            # with INT16 every third layer (from the second on) is INT16, with FP16 every third from the third
            if geo.fp16 and i % 3 == 2:
                layer = make_fp16_layer(rng, geo, i // 3)
            else:
                precision = INT16 if geo.int16 and i % 3 == 1 else 0
                layer = make_layer(rng, geo, i, lut_kind=kind, precision=precision)
            await run_layer(drv, layer, geo, pauses)
            sample(cov, layer, cdp_compute(layer.cube, layer.cfg), geo)
            atoms += layer.cfg.width * layer.cfg.height * layer.cfg.surfaces
            i += 1
            outcome.checked(i, "layers")
        cocotb.log.info("%d layers, %d atoms, coverage %s", i, atoms, cov.summary())
        cov.check()


@cocotb.test()
async def edge_cubes(dut) -> None:
    """Directed sizes at the chunk and atom edges, each window length, light random backpressure."""
    geo = Geometry.current()
    rng, pauses = make_rng("edge_cubes"), make_rng("edge_cubes:pauses")
    drv = CdpDriver(dut, "CDP")
    await drv.reset()
    a, k = geo.atom, geo.chunk
    dims = [(1, 1, 1), (1, 1, a + 1), (k, 1, a), (k + 1, 2, 2 * a + 3), (2 * k + 3, 1, 3 * a - 1),
            (3, 2, 4 * a), (k - 1, 1, a - 1), (1, 3, 2)]
    for n, d in enumerate(dims):
        for normalz in range(4):
            # with INT16 the odd window lengths run at INT16, with FP16 the longest at FP16
            if geo.fp16 and normalz == 3:
                layer = make_fp16_layer(rng, geo, n * 4 + normalz, lut_kind="random fp16", dims=d,
                                        normalz=normalz)
            else:
                precision = INT16 if geo.int16 and normalz % 2 else 0
                layer = make_layer(rng, geo, n * 4 + normalz, lut_kind="aimed", dims=d, normalz=normalz,
                                   precision=precision)
            await run_layer(drv, layer, geo, pauses)


@cocotb.test()
async def lut_readback(dut) -> None:
    """Tables written through the access port read back entry by entry through it."""
    rng = make_rng("lut_readback")
    drv = CdpDriver(dut, "CDP")
    await drv.reset()
    await check_readback(drv, rng)


@cocotb.test()
async def throughput(dut) -> None:
    """No backpressure, LRN-5 with the LRN program: one atom per cycle once the pipeline is full, on
    8x8x64, on a cube with a narrow last chunk and several lines, and (NIGHTLY) on 64x64x64."""
    geo = Geometry.current()
    rng = make_rng("throughput")
    drv = CdpDriver(dut, "CDP")
    await drv.reset()
    cubes = [(8, 8, 64), (2 * geo.chunk + 3, 3, 5 * geo.atom - 3)] + ([(64, 64, 64)] if nightly() else [])
    # with INT16 each cube at both precisions
    precisions = (0, *((INT16,) if geo.int16 else ()), *((FP16,) if geo.fp16 else ()))
    runs = [(d, p) for d in cubes for p in precisions]
    for n, (dims, precision) in enumerate(runs):
        layer = (make_fp16_layer(rng, geo, 0, lut_kind="lrn fp16", dims=dims, normalz=1) if precision == FP16
                 else make_layer(rng, geo, n, lut_kind="lrn exp", dims=dims, normalz=1, precision=precision))
        atoms = layer.cfg.width * layer.cfg.height * layer.cfg.surfaces
        wall0 = time.perf_counter()
        cycles = await run_layer(drv, layer, geo, None)
        wall = time.perf_counter() - wall0   # includes loading the tables and the model
        # start, input skid and convertor, one chunk of lag in the ring, square sum, LUT, output
        # convertor, the done pulse and the 4 cycles run_layer waits after the last atom
        latency = 2 + 4 + geo.chunk + 2 + 3 + 7 + 4 + 2 + 4
        cocotb.log.info("%dx%dx%d LRN-5: %d atoms in %d cycles from start to done (%.3f cycles/atom), "
                        "%.2f s wall", *dims, atoms, cycles, cycles / atoms, wall)
        assert cycles <= atoms + latency, f"{cycles} cycles for {atoms} atoms: not one atom per cycle"
