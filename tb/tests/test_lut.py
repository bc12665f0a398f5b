"""Bench of the hybrid LUT (rtl/lut/nvdla_lut.v) against models/lut/model.py.

- table_port: the table port the register block drives (write strobe, table, address, data; same-cycle
  read data): random writes and reads at any 10-bit address mirrored on a model of the two tables (past a
  table's end nothing is stored and reads give 0), then the whole tables looked up by the datapath. The
  pointer styles live in the register block (tb/tests/test_regs.py) and are checked end to end in
  tb/lut_access.py.
- random_configs: random valid configurations (both LE modes, every priority setting, slopes, shifts of both
  signs) with tables programmed through the access port, samples aimed at every hit/miss case, random
  backpressure on both sides; every lane scored against models.lut.model.lut_lookup, the five statistics
  counters
  compared after every run, and a coverage check that every LE/LO state pair and priority was exercised.
- start_width: directed CDP configurations (START with bits above bit 21, differences past 2^22 and 2^23,
  exponential START/END extremes) where the lanes of the bench's START_MODE read START differently.
- realistic_programs: the programming helper's sigmoid, tanh and LRN (exponential LE) programs, loaded
  with the helper's own access-port writes and read back.
- throughput: no backpressure, one beat per cycle required; also the figures of scripts/benchmark.py.
- reset_clears: a reset clears both tables, as NVIDIA's flop tables reset to 0 (the RAM's clear sweep,
  `busy` for max(LE, LO) cycles): random tables written, reset, samples offered at once wait for the sweep
  and are looked up in zero tables, and every entry reads 0 through the access port.
"""

from __future__ import annotations

import json
import os
import random
import time

import cocotb
import numpy as np
from cocotb.handle import SimHandleBase
from cocotb.triggers import ClockCycles, FallingEdge, ReadOnly, RisingEdge
from cocotb.utils import get_sim_time

from models.common.precision import as_signed
from models.lut import program as lp
from models.lut.model import (
    EXPONENT,
    HIT,
    LE_ENTRIES,
    LINEAR,
    LO_ENTRIES,
    OFLOW,
    UFLOW,
    LutConfig,
    LutRam,
    LutResult,
    lut_lookup,
)
from models.lut.program import LutProgram
from tb import outcome
from tb.common import make_rng, scaled
from tb.funcov import Covergroup
from tb.lanes import pack
from tb.lut_bench import STATE_NAME, LutDriver, samples_for, score, stream
from tb.lut_port import CLEAR_CYCLES, wait_tables_cleared
from tb.stimulus.lut import (
    Goal,
    Mode,
    Priorities,
    Shape,
    random_config,
    start_width_cases,
)

CLOCK_NS = 10
# ------------------------------------------------------------------------------------------ scoring
PRIORITY_KINDS = ("uflow", "oflow", "hybrid")
MODE_NAME = {EXPONENT: "exp", LINEAR: "lin"}


ALL_SETTINGS = [(m, (u, o, h)) for m in (EXPONENT, LINEAR) for u in (0, 1) for o in (0, 1) for h in (0, 1)]


def _pair_bin(mode: Mode, le: int, lo: int) -> str:
    return f"{MODE_NAME[mode]} LE {STATE_NAME[le]} LO {STATE_NAME[lo]}"


def _decisive_bin(mode: Mode, prios: Priorities, kind: str) -> str:
    return f"{MODE_NAME[mode]} u/o/h={prios[0]}/{prios[1]}/{prios[2]} {kind} decides"


class Coverage(Covergroup):
    """What the random configurations exercised, crossed with the LE mode:

    - pairs: (LE mode, LE state, LO state) of every sample (2 x 3 x 3 bins);
    - decisive: (LE mode, (uflow, oflow, hybrid) priorities, kind) where that priority chose the table for
      at least one sample (kind uflow: both tables underflowed; oflow: both overflowed; hybrid: both hit or
      one under- and one overflowed), so every one of the 16 mode x priority combinations is run with each
      of its three priorities deciding (48 bins);
    - features: behaviours that need a particular configuration, not only a particular input.
    """

    REQUIRED = ("exp LE hit", "exp LE uflow chosen, offset 0", "exp LE uflow chosen, offset > 0",
                "exp LE uflow chosen, offset < 0", "linear hit, negative select", "flow, left shift",
                "flow, right shift", "LE oflow chosen", "LO oflow chosen")

    def __init__(self) -> None:
        self.decisive_of = {_decisive_bin(m, p, k): (m, p, k)
                            for m, p in ALL_SETTINGS for k in PRIORITY_KINDS}
        super().__init__("lut", "LUT", {
            "LE mode x LE state x LO state": tuple(_pair_bin(m, a, b) for m in (EXPONENT, LINEAR)
                                                   for a in (HIT, UFLOW, OFLOW) for b in (HIT, UFLOW, OFLOW)),
            "LE mode x priorities x deciding priority": tuple(self.decisive_of),
            "features": self.REQUIRED})

    def add(self, res: LutResult, cfg: LutConfig) -> None:
        le, lo = res.le_state.reshape(-1), res.lo_state.reshape(-1)
        mode = cfg.le_function
        for a, b in set(zip(le.tolist(), lo.tolist(), strict=True)):
            self.hit(_pair_bin(mode, a, b))
        prios = (cfg.uflow_priority, cfg.oflow_priority, cfg.hybrid_priority)
        cases = {"uflow": (le == UFLOW) & (lo == UFLOW), "oflow": (le == OFLOW) & (lo == OFLOW),
                 "hybrid": ((le == HIT) & (lo == HIT)) | ((le != HIT) & (lo != HIT) & (le != lo))}
        for kind, mask in cases.items():
            self.hit(_decisive_bin(mode, prios, kind), bool(np.any(mask)))
        self._features(res, cfg)

    def _features(self, res: LutResult, cfg: LutConfig) -> None:
        le = res.le_state.reshape(-1)
        table, uf, of = res.table.reshape(-1), res.uflow.reshape(-1), res.oflow.reshape(-1)
        le_uf_chosen = bool(np.any((table == 0) & uf)) and cfg.le_uflow_scale != 0
        if cfg.le_function == EXPONENT:
            if np.any(le == HIT):
                self.hit("exp LE hit")
            if le_uf_chosen:
                off = cfg.le_index_offset
                sign = "0" if off == 0 else "> 0" if off > 0 else "< 0"
                self.hit(f"exp LE uflow chosen, offset {sign}")
        elif cfg.le_index_select < 0 and np.any((table == 0) & ~uf & ~of):
            self.hit("linear hit, negative select")
        if cfg.lo_index_select < 0 and np.any((table == 1) & ~uf & ~of):
            self.hit("linear hit, negative select")
        for t, name in ((0, "le"), (1, "lo")):
            for flow, mask in (("uflow", uf), ("oflow", of)):
                if np.any((table == t) & mask) and getattr(cfg, f"{name}_{flow}_scale"):
                    shift = getattr(cfg, f"{name}_{flow}_shift")
                    self.hit("flow, left shift" if shift < 0 else "flow, right shift")
            if np.any((table == t) & of):
                self.hit(f"{name.upper()} oflow chosen")

    def missing_decisive(self) -> list[tuple[Mode, Priorities, str]]:
        return [self.decisive_of[b] for b in self.missing() if b in self.decisive_of]

    def goal(self, rng: random.Random) -> Goal | None:
        """A configuration shape still missing from the coverage (None once nothing is), so the generator
        aims at the holes instead of waiting for chance: a (mode, priorities) combination lacking a
        deciding case, or an exponential LE whose underflow (priority LE) must be taken at some offset."""
        exp_uflow = [f for f in self.REQUIRED if f.startswith("exp LE uflow chosen") and not self.hits[f]]
        missing = self.missing_decisive()
        if exp_uflow and (not missing or rng.random() < 0.5):
            sign = rng.choice(exp_uflow).split("offset ", 1)[1]
            offset = {"0": 0, "> 0": rng.randint(1, 12), "< 0": rng.randint(-20, -1)}[sign]
            return Goal(EXPONENT, (0, rng.randint(0, 1), rng.randint(0, 1)), offset)
        if not missing:
            return None
        mode, prios, _ = rng.choice(missing)
        return Goal(mode, prios)

    def holes(self) -> str:
        """What is still uncovered ('' when nothing)."""
        return ", ".join(self.missing())


# ------------------------------------------------------------------------------------------ tests
@cocotb.test()
async def table_port(dut) -> None:
    """Random writes and reads at any address vs a model of the two tables; whole tables looked up."""
    shape = Shape.current()
    rng = make_rng("table_port")
    drv = LutDriver(dut, shape)
    await drv.reset()
    model = {0: [0] * LE_ENTRIES, 1: [0] * LO_ENTRIES}

    def address(table: int) -> int:
        last = len(model[table]) - 1
        return rng.choice([0, last, last - 1, last + 1, rng.randint(0, last), rng.randint(0, 1023)])

    for table in (0, 1):
        for addr in range(len(model[table])):
            model[table][addr] = rng.getrandbits(16)
            await drv.write_entry(table, addr, model[table][addr])
    for n in range(scaled(1500, 20000)):
        table = rng.randint(0, 1)
        addr = address(table)
        if rng.random() < 0.4:
            value = rng.getrandbits(16)
            await drv.write_entry(table, addr, value)
            if addr < len(model[table]):
                model[table][addr] = value
        else:
            got = await drv.read_entry(table, addr)
            want = model[table][addr] if addr < len(model[table]) else 0
            assert got == want, (f"access {n}: {'LO' if table else 'LE'}[{addr}] read {got:#06x}, "
                                 f"the table model holds {want:#06x}")
    # the tables the datapath sees are what the port holds: look up every entry exactly
    le_now, lo_now = (np.array(model[t], dtype=np.int64) for t in (0, 1))
    cfg = LutConfig(unit=shape.unit, le_function=LINEAR, le_index_select=0, le_start=-1, le_end=63,
                    lo_index_select=0, lo_start=999, lo_end=1255, hybrid_priority=1,
                    le=as_signed(le_now, 16), lo=as_signed(lo_now, 16))
    samples = list(range(0, 64)) + list(range(1000, 1256))
    await stream(drv, cfg, samples, rng)


@cocotb.test()
async def random_configs(dut) -> None:
    """Random configurations, tables, inputs and backpressure; outputs and statistics vs the model."""
    shape = Shape.current()
    rng = make_rng("random_configs")
    drv = LutDriver(dut, shape)
    await drv.reset()
    configs, per_config = scaled(40, 240), scaled(400, 4200)
    total = n = 0
    with Coverage().written("random_configs") as cov:
        # Random configurations until both the count and the coverage goal are met (a bounded number more);
        # every other one is aimed at a (LE mode, priorities) combination that still lacks a deciding case.
        while n < configs or (cov.holes() and n < 4 * configs):
            goal = cov.goal(rng) if n % 2 == 0 else None
            n += 1
            cfg = random_config(shape, rng, goal)
            await drv.load_tables(cfg.le, cfg.lo)
            res = await stream(drv, cfg, samples_for(cfg, shape, rng, per_config), rng,
                               cnt_en=(n % 17 != 16))
            cov.add(res, cfg)
            total += res.output.size
            outcome.checked(total, "samples")
        # stream() raises on the first wrong lane or counter, so reaching here means none in the whole run
        cocotb.log.info("%d random configurations, %d samples scored, 0 mismatches, the five statistics "
                        "counters compared after each configuration; coverage %s", n, total, cov.summary())
        cov.check()


@cocotb.test()
async def start_width(dut) -> None:
    """Directed CDP configurations where the ways a lane forms x - START disagree (tb/stimulus/lut.py
    start_width_cases; models/lut/model.py FULL / NARROW / PAIRED_LOW, the bench's START_MODE): every lane
    scored
    against the model, which must see different states in the lanes of different kinds somewhere."""
    shape = Shape.current()
    if shape.sdp:
        outcome.skip("SDP's LUT reads its whole 32-bit START")
    rng = make_rng("start_width")
    drv = LutDriver(dut, shape)
    await drv.reset()
    for what, cfg, xs in start_width_cases(shape, rng):
        await drv.load_tables(cfg.le, cfg.lo)
        await stream(drv, cfg, xs, rng)
        cocotb.log.info("%s: %d samples match the model", what, len(xs))
    if shape.start_mode != 0:
        # the cases discriminate: a lane reading the whole START would have differed
        moved = sum(int(np.count_nonzero(lut_lookup(np.array(xs), cfg, shape.lane_kinds(len(xs))).output
                                         != lut_lookup(np.array(xs), cfg).output))
                    for _, cfg, xs in start_width_cases(shape, make_rng("start_width")))
        assert moved > 0, "no case tells this bench's lanes from whole-START lanes"


def helper_programs(shape: Shape) -> list[tuple[str, LutProgram]]:
    """The programming helper's ready-made sigmoid and tanh (16-bit output) and its LRN program with the
    seeds' exponential LE (CDP's square sums; the same curve over the SDP input for the SDP shape)."""
    if shape.sdp:
        lrn = lp.program_function(lp.lrn_fn(), 0.0, 2.0 ** 24, unit="SDP", in_scale=1 / 16,
                                  out_scale=2.0 ** 15, le_mode="exponent", domain=(0.0, None))
    else:
        lrn = lp.lrn(le_mode="exponent")
    return [("sigmoid", lp.sigmoid(unit=shape.unit)), ("tanh", lp.tanh(unit=shape.unit)), ("lrn", lrn)]


async def load_program(drv: LutDriver, prog: LutProgram) -> None:
    """The helper's own register writes (S_LUT_ACCESS_CFG, then S_LUT_ACCESS_DATA per entry) played on the
    access-port model (the register block's part), the tables it holds written to the DUT, then read back
    through the port and compared with the program."""
    ram = LutRam(saturating=not drv.shape.sdp)
    for reg, value in prog.access_writes():
        if reg == "S_LUT_ACCESS_CFG":
            ram.write_cfg(value)
        else:
            ram.write_data(value)
    await drv.load_tables(*ram.tables())
    for table, want in ((0, prog.le), (1, prog.lo)):
        got = [await drv.read_entry(table, addr) for addr in range(want.size)]
        assert got == [int(v) & 0xFFFF for v in want], f"{'LO' if table else 'LE'} read-back differs"


@cocotb.test()
async def realistic_programs(dut) -> None:
    """The helper's sigmoid, tanh and LRN programs, loaded with the helper's own access-port writes, read
    back, and scored like the random configurations on inputs across and beyond the programmed range."""
    shape = Shape.current()
    rng = make_rng("realistic_programs")
    drv = LutDriver(dut, shape)
    await drv.reset()
    n = scaled(1500, 20000)
    for name, prog in helper_programs(shape):
        cfg = prog.lut_config()
        await load_program(drv, prog)
        pool = lp.default_samples(prog)
        xs = [int(v) for v in pool[[rng.randrange(pool.size) for _ in range(n)]]]
        xs += [int(pool[0]), int(pool[-1])]
        # the inputs the bench's LUT takes (CDP's INT8 shape: 21-bit square sums)
        xs = [min(max(x, shape.x_min), shape.x_max) for x in xs]
        res = await stream(drv, cfg, xs, rng)
        cocotb.log.info("%s (%s, %s): %d samples match the model; statistics %s", name, prog.unit,
                        prog.layout, len(xs), res.counts)


async def handshake_cycles(dut: SimHandleBase, count: int) -> tuple[list[int], list[int]]:
    """Clock-cycle numbers of the first `count` input and output handshakes (one coroutine for both keeps
    the per-cycle Python overhead, and so the measured simulation speed, close to the bare BFMs')."""
    t_in: list[int] = []
    t_out: list[int] = []
    while len(t_out) < count:
        await ReadOnly()
        now = int(get_sim_time("ns") // CLOCK_NS)
        if len(t_in) < count and int(dut.in_valid.value) and int(dut.in_ready.value):
            t_in.append(now)
        if int(dut.out_valid.value) and int(dut.out_ready.value):
            t_out.append(now)
        await RisingEdge(dut.clk)
    return t_in, t_out


@cocotb.test()
async def throughput(dut) -> None:
    """No backpressure: one beat per cycle once the pipeline is full (per LANES / DP_LANES cycles behind
    the gearbox), every output handshake that many cycles after the last (outputs still scored). Writes the
    figures scripts/benchmark.py prints to $BENCH_OUT."""
    shape = Shape.current()
    rng = make_rng("throughput")
    drv = LutDriver(dut, shape)
    await drv.reset()
    beats = int(os.environ.get("BENCH_BEATS", "2000"))
    cfg = random_config(shape, rng)
    await drv.load_tables(cfg.le, cfg.lo)
    drv.apply(cfg)
    samples = samples_for(cfg, shape, rng, beats * shape.lanes)
    words = [pack(samples[i:i + shape.lanes], shape.in_w) for i in range(0, len(samples), shape.lanes)]
    wall0, sim0 = time.perf_counter(), get_sim_time("ns")
    monitor = cocotb.start_soon(handshake_cycles(dut, beats))
    send = cocotb.start_soon(drv.source.send(words))
    got = await drv.sink.recv(beats)
    wall, cycles = time.perf_counter() - wall0, (get_sim_time("ns") - sim0) / CLOCK_NS
    await send
    t_in, t_out = await monitor
    score(shape, cfg, samples, got)
    # steady state: cycles from the first to the last output beat, per beat (1.00 = no bubble at all)
    steady = (t_out[-1] - t_out[0]) / max(beats - 1, 1)
    latency = t_out[0] - t_in[0]
    # behind the gearbox the input skid and the split take the first beats early (3 beats of buffer), so
    # the input side is periodic from its fourth beat on
    per = shape.sub_beats
    for side, t in (("input", t_in[3:] if per > 1 else t_in), ("output", t_out)):
        n = len(t)
        assert t[-1] - t[0] == (n - 1) * per, \
            f"{n} {side} beats took {t[-1] - t[0] + 1} cycles, not {(n - 1) * per + 1}"
    cocotb.log.info("%d beats x %d lanes: %.3f cycles per beat in steady state, latency %d cycles, "
                    "%.0f simulated cycles/s", beats, shape.lanes, steady, latency, cycles / wall)
    await ClockCycles(dut.clk, 1)
    if "BENCH_OUT" in os.environ:
        with open(os.environ["BENCH_OUT"], "w") as f:
            json.dump({"beats": beats, "lanes": shape.lanes, "cycles": cycles, "steady": steady,
                       "latency": latency, "wall_s": wall}, f)


@cocotb.test()
async def reset_clears(dut) -> None:
    """Tables written, reset: samples wait for the clear sweep and see zero tables; every entry reads 0."""
    shape = Shape.current()
    rng = make_rng("reset_clears")
    drv = LutDriver(dut, shape)
    await drv.reset()
    await drv.load_tables([rng.getrandbits(16) | 1 for _ in range(LE_ENTRIES)],
                          [rng.getrandbits(16) | 1 for _ in range(LO_ENTRIES)])
    dut.rst_n.value = 0
    await ClockCycles(dut.clk, 2)
    await FallingEdge(dut.clk)
    dut.rst_n.value = 1
    sweep = cocotb.start_soon(wait_tables_cleared(dut.clk, dut.busy))
    # offered at once: the samples wait for the sweep (in_ready low while busy), then meet zero tables
    zeros = np.zeros(LE_ENTRIES, dtype=np.int64), np.zeros(LO_ENTRIES, dtype=np.int64)
    cfg = LutConfig(unit=shape.unit, le_function=LINEAR, le_index_select=0, le_start=-1, le_end=63,
                    lo_index_select=0, lo_start=999, lo_end=1255, hybrid_priority=1, le=zeros[0], lo=zeros[1])
    await stream(drv, cfg, list(range(0, 64)) + list(range(1000, 1256)), rng)
    waited = await sweep
    assert waited == CLEAR_CYCLES, f"LUT busy for {waited} cycles after reset, the sweep takes {CLEAR_CYCLES}"
    for table, entries in ((0, LE_ENTRIES), (1, LO_ENTRIES)):
        for addr in range(entries):
            got = await drv.read_entry(table, addr)
            assert got == 0, (f"after reset {'LO' if table else 'LE'}[{addr}] reads {got:#06x}, expected 0 "
                              "(NVIDIA's tables reset to 0)")
    outcome.checked(LE_ENTRIES + LO_ENTRIES, "entries cleared")
