"""Bench of the hybrid LUT's FP16 path (rtl/lut/nvdla_lut.v built with FP16 = 1) against models/lut/fp16.py.

- random_fp16: random legal FP16 configurations (tb/stimulus/lut_fp16.py: FP32 START/END over every select
  and offset, FP16 tables and slopes with NaN, infinities and subnormals), FP32 samples at the bounds and
  entry boundaries and NaN/infinite/subnormal/huge ones, random backpressure on both sides; every lower lane
  (an FP16 atom's elements) scored bit for bit (the FP32 result in SDP, the FP17 one in CDP) with its table,
  state and index, the upper lanes 0, the five counters after every configuration as the unit counts them
  (SDP: the lower lanes, cnt_half; CDP: int16 set, the upper lanes hybrid), and a coverage check.
- helper_programs: the FP16 programming helper's sigmoid, tanh and LRN tables (models/lut/fp16_program.py)
  over every FP16 input of their range and beyond.
- integer_path: the same build with fp16 low: random integer configurations (tb/tests/test_lut.py's generator)
  scored against models/lut/model.py, so the FP16 build leaves the integer LUT as it was.
"""

from __future__ import annotations

import random

import cocotb
import numpy as np

from models.common import nvfloat
from models.lut import fp16_program as lfp
from models.lut.fp16 import lookup_fp16
from models.lut.model import EXPONENT, HIT, OFLOW, UFLOW, LutConfig, LutResult
from tb import outcome
from tb.bfm.stream import never_pause, pick_pause
from tb.common import make_rng, scaled
from tb.funcov import Covergroup
from tb.lanes import pack, unpack
from tb.lut_bench import DBG_W, STATE_NAME, LutDriver, describe, samples_for, stream
from tb.stimulus.lut import Shape, random_config
from tb.stimulus.lut_fp16 import fp16_samples, random_fp16_config

LAST = {0: 64, 1: 256}   # the index a table's overflow shows (its last entry)


class Fp16Coverage(Covergroup):
    """Per LE mode, every pair of LE/LO states; and the float inputs and entries that need care."""

    FEATURES = ("NaN input", "infinite input", "subnormal input", "negative zero input", "NaN entry used",
                "subnormal entry used", "infinite entry used", "exp LE uflow chosen, offset > 0",
                "exp LE uflow chosen, offset < 0", "LE oflow chosen", "LO oflow chosen", "hit, fraction 0")

    def __init__(self) -> None:
        pairs = tuple(f"{m} LE {STATE_NAME[a]} LO {STATE_NAME[b]}" for m in ("exp", "lin")
                      for a in (HIT, UFLOW, OFLOW) for b in (HIT, UFLOW, OFLOW))
        super().__init__("lut_fp16", "LUT", {"LE mode x LE state x LO state": pairs,
                                             "features": self.FEATURES})

    def add(self, xs: np.ndarray, res: LutResult, cfg: LutConfig) -> None:
        mode = "exp" if cfg.le_function == EXPONENT else "lin"
        for a, b in set(zip(res.le_state.tolist(), res.lo_state.tolist(), strict=True)):
            self.hit(f"{mode} LE {STATE_NAME[a]} LO {STATE_NAME[b]}")
        e, m = (xs >> 23) & 0xFF, xs & 0x7FFFFF
        self.hit("NaN input", bool(np.any((e == 0xFF) & (m != 0))))
        self.hit("infinite input", bool(np.any((e == 0xFF) & (m == 0))))
        self.hit("subnormal input", bool(np.any((e == 0) & (m != 0))))
        self.hit("negative zero input", bool(np.any(xs == 0x80000000)))
        hit = ~res.uflow & ~res.oflow
        for t, table in ((0, cfg.le), (1, cfg.lo)):
            bits = table.astype(np.int64) & 0xFFFF
            used = res.index[(res.table == t) & hit]
            words = np.concatenate([bits[used], bits[np.minimum(used + 1, bits.size - 1)]])
            ex, mx = (words >> 10) & 0x1F, words & 0x3FF
            self.hit("NaN entry used", bool(np.any((ex == 0x1F) & (mx != 0))))
            self.hit("infinite entry used", bool(np.any((ex == 0x1F) & (mx == 0))))
            self.hit("subnormal entry used", bool(np.any((ex == 0) & (mx != 0))))
            self.hit(f"{'LO' if t else 'LE'} oflow chosen", bool(np.any((res.table == t) & res.oflow)))
        self.hit("hit, fraction 0", bool(np.any(hit & (res.fraction == 0))))
        if cfg.le_function == EXPONENT and np.any((res.table == 0) & res.uflow) and cfg.le_index_offset:
            self.hit(f"exp LE uflow chosen, offset {'> 0' if cfg.le_index_offset > 0 else '< 0'}")


def expected_output(shape: Shape, res: LutResult) -> np.ndarray:
    """The lane's value: SDP widens the FP17 result to FP32 (its Y block), CDP takes the FP17."""
    return nvfloat.fp17_to_fp32(res.output) if shape.sdp else res.output


async def stream_fp16(drv: LutDriver, cfg: LutConfig, xs: list[int], rng: random.Random,
                      cnt_en: bool = True, backpressure: bool = True) -> LutResult:
    """xs in the lower lanes (junk in the upper ones), fp16 high; every lane and the counters scored."""
    shape, dut = drv.shape, drv.dut
    half = shape.lanes // 2
    xs = xs + [xs[-1]] * (-len(xs) % half)
    beats = len(xs) // half
    # CDP's sums are FP32 in the low 32 bits; anything above must not matter
    lanes = []
    for b in range(beats):
        low = [x | (rng.getrandbits(shape.in_w - 32) << 32 if shape.in_w > 32 and rng.random() < 0.2 else 0)
               for x in xs[b * half:(b + 1) * half]]
        lanes.append(low + [rng.getrandbits(shape.in_w) for _ in range(shape.lanes - half)])
    drv.apply(cfg)
    dut.fp16.value = 1
    dut.int16.value = int(not shape.sdp)   # CDP at FP16: the upper lanes count as hybrid (models/cdp/fp16.py)
    dut.cnt_half.value = int(shape.sdp)    # SDP at FP16: only the lower lanes count
    dut.cnt_en.value = int(cnt_en)
    await drv.clear_counters()
    drv.source.set_pause_generator(pick_pause(rng) if backpressure else never_pause())
    drv.sink.set_pause_generator(pick_pause(rng) if backpressure else never_pause())
    send = cocotb.start_soon(drv.source.send([pack(v, shape.in_w) for v in lanes]))
    got = await drv.sink.recv(beats)
    await send
    flat = np.array(xs, dtype=np.int64) & 0xFFFFFFFF
    res = lookup_fp16(flat, cfg)
    want = expected_output(shape, res)
    for b, (word, dbg_word) in enumerate(got):
        values = unpack(word, shape.out_w, shape.lanes, signed=False)
        dbgs = unpack(dbg_word, DBG_W, shape.lanes, signed=False)
        for lane in range(shape.lanes):
            if lane >= half:
                assert values[lane] == 0, f"beat {b} lane {lane} (upper, at FP16): {values[lane]:#x}, not 0"
                continue
            i = b * half + lane
            t, u, o = int(res.table[i]), bool(res.uflow[i]), bool(res.oflow[i])
            index = 0 if u else LAST[t] if o else int(res.index[i])
            dbg = dbgs[lane]
            got_dbg = (dbg >> 11, bool((dbg >> 10) & 1), bool((dbg >> 9) & 1), dbg & 0x1FF)
            if values[lane] != int(want[i]) or got_dbg != (t, u, o, index):
                raise AssertionError(
                    f"sample {i} (beat {b}, lane {lane}) x={int(flat[i]):#010x}: expected {int(want[i]):#x} "
                    f"(table {'LO' if t else 'LE'}, index {index}, fraction {int(res.fraction[i])}, "
                    f"uflow {u}, oflow {o}; LE {STATE_NAME[int(res.le_state[i])]}, "
                    f"LO {STATE_NAME[int(res.lo_state[i])]}), "
                    f"got {values[lane]:#x} (table {'LO' if got_dbg[0] else 'LE'}, index {got_dbg[3]}, "
                    f"uflow {got_dbg[1]}, oflow {got_dbg[2]})\n  config: {describe(cfg)}")
    counts = await drv.counters()
    model = dict(res.counts)
    if not shape.sdp:
        model["hybrid"] += beats * (shape.lanes - half)
    model = model if cnt_en else dict.fromkeys(model, 0)
    if counts != model:
        raise AssertionError(f"statistics: RTL {counts}, model {model} ({len(xs)} samples)\n"
                             f"  config: {describe(cfg)}")
    return res


@cocotb.test()
async def random_fp16(dut) -> None:
    """Random legal FP16 configurations, tables, samples and backpressure; lanes and counters vs the model."""
    shape = Shape.current()
    if not shape.fp16:
        outcome.skip("built without FP16")
    rng = make_rng("random_fp16")
    drv = LutDriver(dut, shape)
    await drv.reset()
    configs, per_config = scaled(40, 300), scaled(300, 3000)
    total = n = 0
    with Fp16Coverage().written("random_fp16") as cov:
        while n < configs or (cov.missing() and n < 12 * configs):   # rare pairs: more draws, same goal
            n += 1
            cfg = random_fp16_config(shape.unit, rng)
            await drv.load_tables(cfg.le, cfg.lo)
            xs = fp16_samples(cfg, rng, per_config)
            res = await stream_fp16(drv, cfg, xs, rng, cnt_en=(n % 13 != 12))
            cov.add(np.array(xs, dtype=np.int64) & 0xFFFFFFFF, res, cfg)
            total += len(xs)
            outcome.checked(total, "samples")
        cocotb.log.info("%d FP16 configurations, %d samples scored, 0 mismatches; coverage %s", n, total,
                        cov.summary())
        cov.check()


@cocotb.test()
async def helper_programs(dut) -> None:
    """The FP16 helper's sigmoid and tanh (SDP layouts) and LRN (CDP) programs over every FP16 input of
    their range, a margin beyond it, and the specials."""
    shape = Shape.current()
    if not shape.fp16:
        outcome.skip("built without FP16")
    rng = make_rng("helper_programs")
    drv = LutDriver(dut, shape)
    await drv.reset()
    progs = [("sigmoid", lfp.sigmoid_fp16(unit=shape.unit)), ("tanh", lfp.tanh_fp16(unit=shape.unit))]
    if not shape.sdp:
        progs.append(("lrn", lfp.lrn_fp16()))
    total = 0
    for name, prog in progs:
        cfg = prog.lut_config()
        await drv.load_tables(cfg.le, cfg.lo)
        margin = (prog.x_max - prog.x_min) / 4
        values = lfp.lut_inputs(prog, prog.x_min - margin, prog.x_max + margin, n=1 << 14)
        values = values[np.linspace(0, values.size - 1, min(values.size, scaled(2000, 20000))).astype(int)]
        xs = [int(b) for b in values.astype(np.float32).view(np.uint32)]
        xs += [0x7FC00000, 0xFF800000, 0x7F800000, 0x80000000, 0x00000001]
        res = await stream_fp16(drv, cfg, xs, rng)
        total += len(xs)
        outcome.checked(total, "samples")
        cocotb.log.info("%s (%s): %d samples match the model; statistics %s", name, shape.unit, len(xs),
                        res.counts)


@cocotb.test()
async def integer_path(dut) -> None:
    """fp16 low on the FP16 build: random integer configurations scored against models/lut/model.py."""
    shape = Shape.current()
    rng = make_rng("integer_path")
    drv = LutDriver(dut, shape)
    await drv.reset()
    total = 0
    for _ in range(scaled(12, 80)):
        cfg = random_config(shape, rng)
        await drv.load_tables(cfg.le, cfg.lo)
        res = await stream(drv, cfg, samples_for(cfg, shape, rng, scaled(300, 2000)), rng)
        total += res.output.size
        outcome.checked(total, "samples")
