"""Random LUT stimulus shared by the LUT, CDP core, SDP core and top-level benches: the LUT shape of a
bench, random tables, and random legal LUT configurations over the whole range seed 001 allows (optionally
aimed at an LE mode and priorities): every select and index offset, START/END anywhere in their registers,
also with bits above bit 21 over a small low part (what a CDP INT8 lane's 22-bit START reads,
models/lut/model.py),
exponential END near 2^31 or anywhere."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from models.lut.model import (
    EXPONENT,
    FULL,
    LE_ENTRIES,
    LINEAR,
    LO_ENTRIES,
    NARROW,
    PAIRED_LOW,
    LutConfig,
    validate,
)
from tb.common import bench_params

Mode = int  # EXPONENT or LINEAR (S_LUT_CFG.LUT_LE_FUNCTION)
Priorities = tuple[int, int, int]  # (UFLOW, OFLOW, HYBRID)_PRIORITY
# Seed 001 Limitation ranges (INT8), as models/lut/model.py validates them.
LE_SELECT = {"SDP": (-6, 25), "CDP": (-6, 15)}
LO_SELECT = {"SDP": (-8, 23), "CDP": (-8, 13)}
LE_OFFSET = {"SDP": (-64, 31), "CDP": (-64, 20)}


@dataclass(frozen=True)
class Shape:
    lanes: int
    in_w: int
    cfg_w: int
    sdp: bool
    start_mode: int = 0     # nvdla_lut START_MODE: 0 whole START, 1 narrow, 2 nvdlav1's INT8 pairs
    fp16: bool = False      # nvdla_lut FP16: the FP16 path built (CDP's output lanes then 17 bits)
    dp_lanes: int = 0       # nvdla_lut DP_LANES: the datapath's lanes behind the gearbox (0: lanes)

    @property
    def sub_beats(self) -> int:
        """Cycles a beat takes in the datapath (nvdla_lut's gearbox: LANES / DP_LANES)."""
        return self.lanes // (self.dp_lanes or self.lanes)

    @property
    def unit(self) -> str:
        return "SDP" if self.sdp else "CDP"

    @property
    def out_w(self) -> int:
        """nvdla_lut's output lane (Y_W): integer results sign-extended to it."""
        return 32 if self.sdp else 17 if self.fp16 else 16

    @property
    def x_min(self) -> int:
        return -(1 << (self.in_w - 1))

    @property
    def x_max(self) -> int:
        return (1 << (self.in_w - 1)) - 1

    @staticmethod
    def current() -> Shape:
        p = bench_params()
        return Shape(p["LANES"], p["IN_W"], p["CFG_W"], bool(p["SDP"]), int(p.get("START_MODE", 0)),
                     bool(p.get("FP16", 0)), int(p.get("DP_LANES", p["LANES"])))

    def lane_kinds(self, n: int) -> NDArray[np.int8]:
        """models/lut/model.py's lane kind of each of n samples streamed in order (sample i in lane i %
        lanes)."""
        lane = np.arange(n) % self.lanes
        if self.start_mode == 0:
            return np.full(n, FULL, dtype=np.int8)
        if self.start_mode == 1:
            return np.full(n, NARROW, dtype=np.int8)
        return np.where(lane % 2 == 0, PAIRED_LOW, NARROW).astype(np.int8)


@dataclass(frozen=True)
class Goal:
    """What a directed random configuration must have: LE mode, priorities and (optionally) LE offset."""

    mode: Mode
    priorities: Priorities
    le_offset: int | None = None


def random_table(rng: random.Random, n: int) -> list[int]:
    kind = rng.choice(["uniform", "walk", "walk", "extremes", "ramp"])
    if kind == "uniform":
        return [rng.randint(-32768, 32767) for _ in range(n)]
    if kind == "extremes":
        return [rng.choice([-32768, -32767, -1, 0, 1, 32766, 32767]) for _ in range(n)]
    if kind == "ramp":
        a, b = rng.randint(-32768, 32767), rng.randint(-32768, 32767)
        return [round(a + (b - a) * i / (n - 1)) for i in range(n)]
    v, out, step = rng.randint(-20000, 20000), [], rng.choice([16, 256, 4096])
    for _ in range(n):
        v = max(-32768, min(32767, v + rng.randint(-step, step)))
        out.append(v)
    return out


NARROW_BITS = 22   # a CDP INT8 lane's START (models/lut/model.py NARROW_START_BITS)


def _fit_start(rng: random.Random, span: int, bits: int, centre: int) -> int:
    """A start so that [start, start+span] fits a signed `bits` register: near centre, anywhere, or (wider
    registers) bits above bit 21 set over a low part near centre, where the 22-bit START of a CDP INT8 lane
    and the whole register disagree."""
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1 - span
    pick = rng.random()
    if pick < 0.7:
        want = centre - rng.randint(0, span)
    elif pick < 0.85 and bits > NARROW_BITS:
        top = 1 << (bits - NARROW_BITS - 1)
        high = rng.randint(-top, top - 1) << NARROW_BITS
        want = high + ((centre - rng.randint(0, span)) & ((1 << NARROW_BITS) - 1))
    else:
        want = rng.randint(lo, hi)
    return max(lo, min(hi, want))


def _select(rng: random.Random, lo: int, hi: int, cap: int) -> int:
    """A select in [lo, hi], mostly small so that the table spans a range the inputs reach."""
    return rng.randint(lo, min(hi, cap)) if rng.random() < 0.85 else rng.randint(lo, hi)


def _slope(rng: random.Random) -> tuple[int, int]:
    scale = rng.choice([0, 1, -1, 32767, -32768, rng.randint(-300, 300), rng.randint(-32768, 32767)])
    return scale, rng.randint(-16, 15)


def any_slope(rng: random.Random) -> tuple[int, int]:
    """Any 16-bit slope scale and 5-bit slope shift."""
    return rng.randint(-32768, 32767), rng.randint(-16, 15)


def random_slopes(rng: random.Random, draw: Callable[[random.Random], tuple[int, int]] = any_slope
                  ) -> dict[str, int]:
    """The eight LE/LO underflow/overflow slope fields of a LutConfig, one (scale, shift) pair per `draw`."""
    return {f"{t}_{f}_{k}": v for t in ("le", "lo") for f in ("uflow", "oflow")
            for k, v in zip(("scale", "shift"), draw(rng), strict=True)}


def random_config(shape: Shape, rng: random.Random, goal: Goal | None = None) -> LutConfig:
    """A random valid configuration with random tables; `goal` fixes the LE mode and priorities (and
    perhaps the exponential offset), everything else stays random."""
    unit, bits = shape.unit, LutConfig(unit=shape.unit).input_bits
    if goal is None:
        goal = Goal(rng.choice((EXPONENT, LINEAR)), (rng.randint(0, 1), rng.randint(0, 1), rng.randint(0, 1)))
    mode, prios = goal.mode, goal.priorities
    centre = rng.choice([0, rng.randint(-5000, 5000), rng.randint(shape.x_min // 4, shape.x_max // 4)])
    lo_sel = _select(rng, *LO_SELECT[unit], cap=6)
    lo_start = _fit_start(rng, 1 << (lo_sel + 8), bits, centre)
    slopes = random_slopes(rng, _slope)
    common = dict(unit=unit, lo_index_select=lo_sel, lo_start=lo_start, lo_end=lo_start + (1 << (lo_sel + 8)),
                  uflow_priority=prios[0], oflow_priority=prios[1], hybrid_priority=prios[2],
                  le=random_table(rng, LE_ENTRIES), lo=random_table(rng, LO_ENTRIES), **slopes)
    if mode == LINEAR:
        le_sel = _select(rng, *LE_SELECT[unit], cap=8)
        # place LE relative to LO: overlapping, inside, or apart, so every state pair occurs
        le_centre = rng.choice([centre, lo_start, lo_start + (1 << (lo_sel + 8)),
                                centre + rng.randint(-3000, 3000)])
        le_start = _fit_start(rng, 1 << (le_sel + 6), bits, le_centre)
        cfg = LutConfig(le_function=LINEAR, le_index_select=le_sel, le_start=le_start,
                        le_end=le_start + (1 << (le_sel + 6)), **common)
    else:
        cfg = _exp_config(shape, rng, centre, common, goal.le_offset)
    validate(cfg)
    return cfg


def _exp_config(shape: Shape, rng: random.Random, centre: int, common: dict,
                offset: int | None = None) -> LutConfig:
    """Exponential LE near `centre` (LE_INDEX_OFFSET `offset` when given); a third of the time otherwise
    its overflow point START + 2^(OFFSET+64) lies inside the input range and the LO table sits around it,
    so that an overflowing LE meets a LO that hits or underflows (with the LE anywhere, that is rare)."""
    unit, bits = shape.unit, LutConfig(unit=shape.unit).input_bits
    reg_min, reg_max = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    off_lo, off_hi = LE_OFFSET[unit]
    lead_max = shape.in_w
    le_start = _fit_start(rng, 0, bits, centre + rng.randint(0, 2000))
    if offset is None and rng.random() < 1 / 3:
        # the overflow point lands between 2^(in_w-6) and 2^(in_w-3) above START, within the inputs
        offset = rng.randint(max(off_lo, lead_max - 70), lead_max - 67)
        le_start = max(reg_min, min(0, le_start))
        point = le_start + (1 << (offset + 64))
        lo_span = 1 << (common["lo_index_select"] + 8)
        lo_start = max(reg_min, min(reg_max - lo_span, point + rng.randint(-lo_span, lo_span)))
        common = dict(common, lo_start=lo_start, lo_end=lo_start + lo_span)
    elif offset is None:
        offset = rng.choice([rng.randint(off_lo, off_hi), rng.randint(-4, 12), 0, 1,
                             rng.randint(max(off_lo, lead_max - 68), lead_max - 62)])
    # END only anchors the overflow slope: near START, far above it, near 2^31, or anywhere
    le_end = max(reg_min, min(reg_max, rng.choice(
        [le_start + 18, le_start + (1 << rng.randint(0, bits - 2)), le_start + rng.randint(-1000, 1 << 20),
         0x7FFFFFFF - rng.randint(0, 255), rng.randint(reg_min, reg_max)])))
    return LutConfig(le_function=EXPONENT, le_index_offset=offset, le_index_select=rng.randint(-128, 127),
                     le_start=le_start, le_end=le_end, **common)


def start_width_cases(shape: Shape, rng: random.Random) -> list[tuple[str, LutConfig, list[int]]]:
    """Directed CDP configurations where the lanes of models/lut/model.py disagree (docs/lut.md
    "START width"), with inputs around the points that decide: (what, configuration, samples)."""
    far = (1 << (NARROW_BITS - 1)) - 4096     # a START above every 21-bit input, whatever width reads it
    slopes = random_slopes(rng)

    def cfg(**kw: int) -> LutConfig:
        base = dict(unit="CDP", le_function=LINEAR, le_index_select=0, le_start=far, le_end=far + 64,
                    lo_index_select=0, lo_start=far, lo_end=far + 256, le=random_table(rng, LE_ENTRIES),
                    lo=random_table(rng, LO_ENTRIES), **slopes)
        base.update(kw)
        return LutConfig(**base)  # type: ignore[arg-type]

    def around(lo: int, hi: int) -> list[int]:
        return [max(shape.x_min, min(shape.x_max, v)) for v in range(lo, hi)]

    high = (5 << NARROW_BITS) + 100
    paired_le, paired_lo = -(1 << 23) - 5, -(1 << 22) - 9
    edge = 0x7FFFFFFF - (1 << 24)
    return [
        ("LE START with bits above 21 (narrow lanes read 100)",
         cfg(le_index_select=2, le_start=high, le_end=high + 256), around(90, 380)),
        ("LE difference past 2^23 (paired even lanes keep x + 5)",
         cfg(le_start=paired_le, le_end=paired_le + 64), around(-8, 70)),
        ("LO difference past 2^22 (paired even lanes keep x + 9)",
         cfg(lo_start=paired_lo, lo_end=paired_lo + 256), around(-12, 260)),
        ("exponential LE, START -2^30 (whole difference, or START[21:0] = 0)",
         cfg(le_function=EXPONENT, le_index_offset=0, le_start=-(1 << 30), le_end=0x7FFFFFFF),
         around(-2, 300) + [rng.randint(0, shape.x_max) for _ in range(200)]),
        ("exponential LE, END 2^31 - 1, START = END - 2^(offset + 64), offset -40",
         cfg(le_function=EXPONENT, le_index_offset=-40, le_start=edge, le_end=0x7FFFFFFF),
         around(-3, 300) + [rng.randint(0, shape.x_max) for _ in range(200)]),
    ]
