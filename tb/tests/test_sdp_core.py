"""Bench of the SDP datapath core (rtl/sdp/nvdla_sdp_core.v) against models/sdp/model.py sdp_compute.

Every configuration is a set of raw SDP / SDP_RDMA register fields: the model's SdpConfig comes from
SdpConfig.from_fields (so the Limitation rules hold), and the DUT gets the same raw values in its cfg bundle.
Memory operands are the model's Operands (per channel or per element, int8 or int16 values); the operand
streams carry them per atom (lane i: ALU [15:0], MUL [31:16]); a stream is enabled exactly when the
wrapper would enable it (RDMA on and an active ALU or MUL of the block takes its operand from memory).
The LUT tables go in through the access port. Atoms stream in cube order (surface, line, column) with
random backpressure on all five streams; every lane of every atom is scored, and the LUT statistics, the
output saturation count and STATUS_UNEQUAL (the stat bundle) are compared after every configuration (the
counters as D_PERF_ENABLE's PERF_LUT_EN / PERF_SAT_EN gate them, drawn off now and then: models/perf.py).

- random_configs: random register fields (every ALU algo of BS/BN/EW incl. EQL, PReLU with and without
  ALU, ReLU, every register/memory source combination, shifts up to their field maximum, EW truncate up to
  1023, EW input convertors bypassed or not), random cubes, LUTs from tb/tests/test_lut.py's generator, aimed
  at
  the layer's LUT inputs, or models.lut.program's sigmoid / tanh; the run continues (at most 4x) until the
  coverage goal is met. NIGHTLY: >= 200 configurations.
- unused_stream_reads_zero: a memory operand whose stream is not enabled reads 0 and is never waited for
  (the driver rejects such programs; the core must not hang): scored against the model with zero operands.
- output_saturation_edges: the output convertor straddling the 17-bit stage's limits (the saturation count).
- lut_readback: tables written through the access port read back through it.
- throughput: no backpressure, all three operand streams and the LUT on: cycles per atom (printed).
With the INT16 parameter set (INT16 = 1: 16-bit lanes on the data ports) a third of random_configs' cases
are INT16 -> INT16 (ATOM/2 lanes, two-byte operands), INT16 -> INT8 (the 16to8 mode: ATOM lanes of int16
values) or INT8 -> INT16 (int16 saturation), the core's in16/out16/half set as nvdla_sdp sets them.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import cocotb
import numpy as np
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge

from models.common.precision import as_signed, shift_left_saturate
from models.errors import ConfigError
from models.lut.model import LutConfig, lut_lookup
from models.perf import PerfCounters, sdp_counts
from models.sdp.datapath import (
    ALU_EQL,
    ALU_SUM,
    DatapathResult,
    Operands,
    XBlock,
    x_block,
    y_block,
)
from models.sdp.model import SdpConfig, sdp_compute
from tb import outcome
from tb.bfm.stream import StreamBus, StreamMonitor, StreamSink, StreamSource, never_pause, pick_pause
from tb.bundle import read_stat
from tb.common import bench_params, make_rng, scaled, start_clock_and_reset
from tb.funcov import Covergroup
from tb.lut_port import LutPortDriver, check_readback
from tb.stimulus.sdp_core import (
    BLOCKS,
    Case,
    IntArray,
    Streams,
    Wants,
    make_case,
    make_operands,
    random_data,
    unpack_atom,
)

COUNTERS = ("le_hit", "lo_hit", "uflow", "oflow", "hybrid")


def atom_lanes() -> int:
    return int(bench_params().get("ATOM", 8))


def int16_build() -> bool:
    """The core built with INT16 = 1: 16-bit lanes on its data ports, INT16 cases drawn."""
    return bool(bench_params().get("INT16", 0))


def precisions() -> tuple[str, ...]:
    return ("INT8", "INT16") if int16_build() else ("INT8",)


# ------------------------------------------------------------------------------------------ coverage
def prelu_wraps(x: IntArray, blk: XBlock, alu_mem: IntArray | None) -> bool:
    """Whether PReLU passes an ALU sum beyond 32 bits (where keeping the low 32 bits matters)."""
    if not (blk.alu_active and blk.mul_active and blk.mul_prelu and blk.alu_algo in (ALU_SUM, ALU_EQL)):
        return False
    op = alu_mem if blk.alu_from_mem else as_signed(blk.alu_operand, 16)
    if op is None:
        return False
    shifted = shift_left_saturate(as_signed(op, 16), blk.alu_shift & 0x3F, 32).value
    return bool(np.any(x + shifted > (1 << 31) - 1))


class Coverage(Covergroup):
    def __init__(self) -> None:
        super().__init__("sdp_core", "SDP", {
            "ALU algo": tuple(f"{b} ALU algo {a}" for b in BLOCKS for a in range(4)),
            "PReLU": tuple(f"{b} PReLU {w} ALU" for b in BLOCKS for w in ("with", "without"))
            + ("BS PReLU wrap", "BN PReLU wrap"),
            "operand stream": tuple(f"{b} stream {o}" for b in BLOCKS for o in ("on", "off")),
            "EQL": ("EQL equal", "EQL unequal"),
            "LUT": ("LUT sigmoid", "LUT tanh", "LUT le_hit", "LUT lo_hit", "LUT uflow", "LUT oflow"),
            "misc": ("out saturation", "EW input convertor", "ReLU")})

    def add(self, case: Case, res: DatapathResult) -> None:
        cfg, o = case.cfg, case.ops
        bs_out = x_block(case.cube, cfg.bs, o.bs_alu, o.bs_mul, "BS")
        for name, blk, x_in, alu_mem in (("BS", cfg.bs, case.cube, o.bs_alu),
                                         ("BN", cfg.bn, bs_out, o.bn_alu)):
            self.hit(f"{name} PReLU wrap", prelu_wraps(x_in, blk, alu_mem))
        for name, blk in (("BS", cfg.bs), ("BN", cfg.bn), ("EW", cfg.ew)):
            self.hit(f"{name} ALU algo {blk.alu_algo}", blk.alu_active)
            self.hit(f"{name} PReLU {'with' if blk.alu_active else 'without'} ALU",
                     blk.mul_active and blk.mul_prelu)
            self.hit(f"{name} stream {'on' if case.op_en(name.lower()) else 'off'}")
        self.hit("EQL unequal" if res.unequal else "EQL equal", cfg.ew.eql)
        for kind in ("sigmoid", "tanh"):
            self.hit(f"LUT {kind}", f"LUT {kind}" in case.label)
        self.sample({f"LUT {k}": bool(v) for k, v in res.lut_stats.items()})
        self.hit("out saturation", bool(res.saturation_count))
        ew = cfg.ew
        self.hit("EW input convertor",
                 not ew.bypass and ((ew.alu_active and ew.alu_from_mem and not ew.alu_cvt.bypass)
                                    or (ew.mul_active and ew.mul_from_mem and not ew.mul_cvt.bypass)))
        self.hit("ReLU", any(not b.bypass and not b.relu_bypass for b in (cfg.bs, cfg.bn)))

    def wants(self, rng: random.Random) -> Wants:
        """Force one missing feature (most of the time), so that the goal is met in a bounded run."""
        w = Wants()
        missing = self.missing()
        if not missing or rng.random() < 0.3:
            return w
        goal = rng.choice(missing)
        parts = goal.split()
        if "ALU algo" in goal:
            w.algo[parts[0]] = int(parts[-1])
            if parts[0] == "EW" and parts[-1] == "3":
                w.eql = rng.choice(["equal", "unequal"])
        elif "wrap" in goal:
            w.wrap = parts[0]
        elif "PReLU" in goal:
            w.prelu[parts[0]] = parts[2] == "with"
        elif "stream" in goal:
            w.stream[parts[0]] = parts[2] == "on"
        elif goal.startswith("EQL"):
            w.eql = parts[1]
            w.stream["EW"] = True
        elif goal in ("LUT sigmoid", "LUT tanh"):
            w.lut = parts[1]
        elif goal.startswith("LUT"):
            w.lut = "aimed"
        return w


# ------------------------------------------------------------------------------------------ DUT driver
class SdpDriver(LutPortDriver):
    """Drives the configuration bundle from raw fields, the LUT access port and start; reads the results
    from the statistics bundle."""

    async def reset(self) -> None:
        d = self.dut
        idle = [d.in_valid, d.bs_op_valid, d.bn_op_valid, d.ew_op_valid, d.out_ready, d.start,
                d.cfg, d.bs_op_en, d.bn_op_en, d.ew_op_en]
        await start_clock_and_reset(d.clk, d.rst_n, idle=idle)
        self.clear_access()
        await self.wait_cleared()
        self.counters = PerfCounters()   # the statistics counters from reset (models/perf.py)
        # one BFM per stream for the whole test; the monitor checks the DUT's output protocol throughout
        self.sources = {name: StreamSource(StreamBus(d, name), d.clk)
                        for name in ("in", "bs_op", "bn_op", "ew_op")}
        out = StreamBus(d, "out")
        self.sink = StreamSink(out, d.clk)
        self.out_monitor = StreamMonitor(out, d.clk, reset=d.rst_n, record=False)

    def apply(self, case: Case, op_en: dict[str, bool] | None = None) -> None:
        self.apply_fields(case.fields["SDP"])
        if int16_build():   # the modes nvdla_sdp derives from the precision fields
            in_p, out_p = case.precisions
            self.dut.in16.value = int(in_p == "INT16")
            self.dut.out16.value = int(out_p == "INT16")
            self.dut.half.value = int(case.atom < atom_lanes())
        for name in ("bs", "bn", "ew"):
            en = case.op_en(name) if op_en is None else op_en[name]
            getattr(self.dut, f"{name}_op_en").value = int(en)

    async def results(self) -> dict[str, int]:
        await ReadOnly()
        d = self.dut
        stat = read_stat(d.stat, "SDP")
        got = {name: stat[f"D_PERF_LUT_{name.upper()}.LUT_{name.upper()}"] for name in COUNTERS}
        got["out_saturation"] = stat["D_PERF_OUT_SATURATION.OUT_SATURATION"]
        got["unequal"] = stat["D_STATUS.STATUS_UNEQUAL"]
        await FallingEdge(self.clk)
        return got


# ------------------------------------------------------------------------------------------ scoring
def describe(case: Case) -> str:
    cfg = case.cfg

    def blk(name: str, b: object) -> str:
        keep = {k: v for k, v in dataclasses.asdict(b).items() if not isinstance(v, dict)}  # type: ignore
        return f"{name} {keep}"

    streams = ",".join(n for n in ("bs", "bn", "ew") if case.op_en(n)) or "none"
    return (f"{case.label}: {cfg.width}x{cfg.height}x{cfg.channels}, streams {streams}\n  "
            f"{blk('BS', cfg.bs)}\n  {blk('BN', cfg.bn)}\n  EW {cfg.ew}\n  CVT {cfg.cvt}\n  "
            f"LUT fields {dict(cfg.lut_fields) if not cfg.ew.lut_bypass else 'bypass'}")


def stage_values(case: Case, c: int, y: int, x: int) -> str:
    """The model's intermediate values of one element, for a failure message."""
    cfg = case.cfg

    def at(a: IntArray | None) -> IntArray | None:
        return None if a is None else np.broadcast_to(a, case.cube.shape)[c:c + 1, y:y + 1, x:x + 1]

    o = case.ops
    v = case.cube[c:c + 1, y:y + 1, x:x + 1]
    bs = x_block(v, cfg.bs, at(o.bs_alu), at(o.bs_mul), "BS")
    bn = x_block(bs, cfg.bn, at(o.bn_alu), at(o.bn_mul), "BN")
    ew = y_block(bn, dataclasses.replace(cfg.ew, lut_bypass=True), at(o.ew_alu), at(o.ew_mul), None)[0]
    names = ("bs_alu", "bs_mul", "bn_alu", "bn_mul", "ew_alu", "ew_mul")
    ops = {k: int(at(getattr(o, k)).item()) for k in names if getattr(o, k) is not None}
    text = f"BS out {int(bs.item())}, BN out {int(bn.item())}, EW out (before LUT) {int(ew.item())}"
    if not cfg.ew.lut_bypass and not cfg.ew.bypass:
        lut = LutConfig.from_fields({"SDP": cfg.lut_fields}, "SDP", case.tables)
        text += f", LUT out {int(lut_lookup(ew, lut).output.item())}"
    return f"{text}; memory operands {ops}"


def score(case: Case, res: DatapathResult, got: IntArray) -> None:
    """Raise naming the first wrong element in stream order, with the model's stage values."""
    want = res.data
    bad = got != want
    if not bad.any():
        return
    a = case.atom
    for n, (s, y, x) in enumerate(case.order()):
        lanes = np.nonzero(bad[s * a:(s + 1) * a, y, x])[0]
        if lanes.size:
            c = s * a + int(lanes[0])
            raise AssertionError(
                f"atom {n} (surface {s}, h={y}, w={x}), lane {int(lanes[0])} (c={c}): input "
                f"{int(case.cube[c, y, x])}, expected {int(want[c, y, x])}, got {int(got[c, y, x])}; "
                f"{stage_values(case, c, y, x)}; {int(bad.sum())} wrong elements in all\n  {describe(case)}")


async def run_case(drv: SdpDriver, case: Case, pauses: random.Random | None,
                   op_en: dict[str, bool] | None = None, res: DatapathResult | None = None) -> None:
    """Program, start, stream and score one configuration. `pauses` drives the backpressure only (None:
    none). `op_en`/`res` override the stream enables and the expected result (for programs the model
    rejects); a stream disabled that way is held valid with junk and its ready must stay low."""
    dut = drv.dut
    if not case.cfg.ew.lut_bypass and not case.cfg.ew.bypass:
        await drv.load_tables(*case.tables)
    drv.apply(case, op_en)
    junk = [n for n in ("bs", "bn", "ew") if op_en is not None and case.op_en(n) and not op_en[n]]
    for name in junk:
        getattr(dut, f"{name}_op_valid").value = 1
        getattr(dut, f"{name}_op_data").value = (1 << (32 * case.atom)) - 1
    ready_seen: list[str] = []

    async def watch_junk() -> None:
        while True:
            await ReadOnly()
            ready_seen.extend(n for n in junk if int(getattr(dut, f"{n}_op_ready").value))
            await RisingEdge(dut.clk)

    watcher = cocotb.start_soon(watch_junk())
    await drv._strobe(dut.start)

    def pause() -> Iterator[bool]:
        return pick_pause(pauses) if pauses else never_pause()

    beats = case.in_beats()
    streams = {"in": beats}
    for name in ("bs", "bn", "ew"):
        if case.op_en(name) and (op_en is None or op_en[name]):
            streams[f"{name}_op"] = case.op_beats(name)
    senders = []
    for stream, data in streams.items():
        drv.sources[stream].set_pause_generator(pause())
        senders.append(cocotb.start_soon(drv.sources[stream].send(data)))
    drv.sink.set_pause_generator(pause())
    words = await drv.sink.recv(len(beats))
    for task in senders:
        await task
    watcher.cancel()
    for name in junk:
        getattr(dut, f"{name}_op_valid").value = 0
    assert not ready_seen, f"ready of the disabled stream(s) {sorted(set(ready_seen))} went high"
    for _ in range(3):
        await RisingEdge(dut.clk)
        assert not int(dut.out_valid.value), (f"an output atom beyond the {len(beats)} expected\n  "
                                              f"{describe(case)}")
    assert not int(dut.busy.value), f"busy still high after the last output\n  {describe(case)}"

    got = np.zeros_like(case.cube)
    a = case.atom
    for (s, y, x), (word,) in zip(case.order(), words, strict=True):
        if int16_build():   # 16-bit lanes (int8 results sign-extended); INT16 processing uses ATOM/2 of them
            got[s * a:(s + 1) * a, y, x] = np.frombuffer(word.to_bytes(2 * atom_lanes(), "little"),
                                                         dtype="<i2")[:a]
        else:
            got[s * a:(s + 1) * a, y, x] = unpack_atom(word, a)
    res = res if res is not None else case.model()
    score(case, res, got)
    counts = await drv.results()
    # the counters as their D_PERF_ENABLE fields gate them (a disabled one keeps its count)
    counted = drv.counters.layer({"SDP": case.fields["SDP"]}, sdp_counts(res.lut_stats, res.saturation_count))
    want = {**{k: counted["SDP", f"D_PERF_LUT_{k.upper()}"] for k in COUNTERS},
            "out_saturation": counted["SDP", "D_PERF_OUT_SATURATION"], "unequal": int(res.unequal)}
    assert counts == want, f"counters: RTL {counts}, model {want}\n  {describe(case)}"


# ------------------------------------------------------------------------------------------ tests
@cocotb.test()
async def random_configs(dut) -> None:
    """Random register configurations back to back, random backpressure; data and statistics vs the model."""
    atom = atom_lanes()
    rng, pauses = make_rng("random_configs"), make_rng("random_configs:pauses")
    drv = SdpDriver(dut, "SDP")
    await drv.reset()
    n_cfg = scaled(10, 30000)  # NIGHTLY: with top_sdp, >1e7 samples (README "Nightly")
    i = atoms = rejected = 0
    with Coverage().written("random_configs") as cov:
        while i < n_cfg or (cov.missing() and i < 4 * n_cfg):
            try:
                case = make_case(rng, atom, i, cov.wants(rng), precisions())
            except ConfigError as err:
                # a random program can break a Limitation rule; the model rejects it, so draw again
                rejected += 1
                assert rejected < 10 * n_cfg, f"the generator keeps making illegal programs: {err}"
                continue
            await run_case(drv, case, pauses)
            cov.add(case, case.model())
            atoms += case.cfg.width * case.cfg.height * case.cfg.surfaces
            i += 1
            outcome.checked(i, "configurations")
        cocotb.log.info("%d configurations, %d atoms, every lane scored, coverage %s", i, atoms,
                        cov.summary())
        assert not cov.missing(), f"coverage holes after {i} configurations: {cov.missing()}"


@cocotb.test()
async def unused_stream_reads_zero(dut) -> None:
    """Memory operands whose stream is disabled read 0 and are never waited for; the stream's ready stays
    low even with valid held high."""
    atom = atom_lanes()
    rng = make_rng("unused_stream_reads_zero")
    drv = SdpDriver(dut, "SDP")
    await drv.reset()
    done = 0
    while done < 3:
        case = make_case(rng, atom, done, Wants(stream={"BS": True, "BN": True, "EW": True}))
        off = {name: rng.random() < 0.5 for name in ("bs", "bn", "ew") if case.op_en(name)}
        if not any(off.values()):
            continue
        zero = {k: (np.zeros_like(v) if v is not None and off.get(k[:2], False) else v)
                for k, v in dataclasses.asdict(case.ops).items()}
        res = sdp_compute(case.cube, case.cfg, Operands(**zero), lut_tables=case.tables)
        en = {name: case.op_en(name) and not off.get(name, False) for name in ("bs", "bn", "ew")}
        await run_case(drv, case, make_rng(f"unused:{done}"), op_en=en, res=res)
        done += 1


def cvt_edge_case(rng: random.Random, atom: int, index: int) -> Case:
    """Every block bypassed, every int8 value once, and an output convertor whose (x - offset) * scale
    straddles the 17-bit stage's limits (-65536 judged on the floor, 65535 on the rounded value)."""
    w, h, c = 8, 1, 32
    case = make_case(rng, atom, index, Wants())
    fields = {unit: dict(v) for unit, v in case.fields.items()}
    s = fields["SDP"]
    s.update({"D_DP_BS_CFG.BS_BYPASS": 1, "D_DP_BN_CFG.BN_BYPASS": 1, "D_DP_EW_CFG.EW_BYPASS": 1})
    for unit in ("SDP", "SDP_RDMA"):
        fields[unit].update({"D_DATA_CUBE_WIDTH.WIDTH": w - 1, "D_DATA_CUBE_HEIGHT.HEIGHT": h - 1,
                             "D_DATA_CUBE_CHANNEL.CHANNEL": c - 1})
    for d in "BNE":
        fields["SDP_RDMA"][f"D_{d}RDMA_CFG.{d}RDMA_DISABLE"] = 1
    shift, scale = rng.randint(0, 8), rng.choice([1, -1, 2, -3, 5])
    edge = -(65536 << shift) if index % 2 == 0 else (65536 << shift) - (1 << shift >> 1)
    offset = -(edge // scale) + rng.randint(-3, 3)
    s.update({"D_CVT_OFFSET.CVT_OFFSET": offset & 0xFFFFFFFF, "D_CVT_SCALE.CVT_SCALE": scale & 0xFFFF,
              "D_CVT_SHIFT.CVT_SHIFT": shift})
    cfg = SdpConfig.from_fields(fields, atom)
    values = list(range(-128, 128))
    rng.shuffle(values)
    cube = np.array(values, dtype=np.int64).reshape(c, h, w)
    none: Streams = {"bs": None, "bn": None, "ew": None}
    return Case(fields, cfg, cube, Operands(), none, case.tables, f"convertor edge {index}")


@cocotb.test()
async def output_saturation_edges(dut) -> None:
    """The output convertor around the 17-bit stage's limits, where the saturation count (the HLS flag,
    floor-judged for negative values) and the int8 result part ways; every int8 input once."""
    atom = atom_lanes()
    rng, pauses = make_rng("output_saturation_edges"), make_rng("output_saturation_edges:pauses")
    drv = SdpDriver(dut, "SDP")
    await drv.reset()
    for i in range(scaled(8, 40)):
        await run_case(drv, cvt_edge_case(rng, atom, i), pauses)


@cocotb.test()
async def lut_readback(dut) -> None:
    """Tables written through the access port read back entry by entry through it."""
    rng = make_rng("lut_readback")
    drv = SdpDriver(dut, "SDP")
    await drv.reset()
    await check_readback(drv, rng)


@cocotb.test()
async def throughput(dut) -> None:
    """No backpressure, every operand stream and the LUT in use: cycles per atom, printed (the pipeline
    should take one atom per cycle once full). Scored like the random configurations."""
    atom = atom_lanes()
    rng = make_rng("throughput")
    drv = SdpDriver(dut, "SDP")
    await drv.reset()
    while True:
        case = make_case(rng, atom, 0, Wants(stream={"BS": True, "BN": True, "EW": True}, lut="aimed"))
        if all(case.op_en(n) for n in ("bs", "bn", "ew")) and not case.cfg.ew.lut_bypass:
            break
    w, h, c = 16, 8, 8 * atom
    fields = {k: dict(v) for k, v in case.fields.items()}
    for unit in ("SDP", "SDP_RDMA"):
        fields[unit].update({"D_DATA_CUBE_WIDTH.WIDTH": w - 1, "D_DATA_CUBE_HEIGHT.HEIGHT": h - 1,
                             "D_DATA_CUBE_CHANNEL.CHANNEL": c - 1})
    cfg = SdpConfig.from_fields(fields, atom)
    cube = random_data(rng, (c, h, w), -128, 127)
    ops, streams = make_operands(rng, cfg, c)
    big = Case(fields, cfg, cube, ops, streams, case.tables, "throughput")
    atoms = w * h * cfg.surfaces
    fires: dict[str, list[int]] = {"in": [], "out": []}

    async def watch() -> None:
        cycle = 0
        while True:
            await ReadOnly()
            for name in fires:
                if int(getattr(dut, f"{name}_valid").value) and int(getattr(dut, f"{name}_ready").value):
                    fires[name].append(cycle)
            await RisingEdge(dut.clk)
            cycle += 1

    watcher = cocotb.start_soon(watch())
    await run_case(drv, big, None)
    watcher.cancel()
    span_in = fires["in"][-1] - fires["in"][0] + 1
    span_out = fires["out"][-1] - fires["out"][0] + 1
    cocotb.log.info("%dx%dx%d with all operand streams and the LUT, no backpressure: %d atoms; input taken "
                    "in %d cycles (%.3f cycles/atom), output given in %d cycles (%.3f cycles/atom), "
                    "latency first input -> first output %d cycles", w, h, c, atoms, span_in,
                    span_in / atoms, span_out, span_out / atoms, fires["out"][0] - fires["in"][0])
