"""Bench of the precision path (seed 002): nvdla_cvt, nvdla_trunc and nvdla_shl against
models/common/precision.py.

Random configurations and data, random backpressure on both sides, every output and saturation flag
scored against the model, and the saturation counter compared with the model's count after every run.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from dataclasses import dataclass

import cocotb
import numpy as np
from cocotb.triggers import ClockCycles

from models.common.precision import (
    Converted,
    ConvertorParams,
    as_signed,
    convert,
    shift_left_saturate,
    truncate,
)
from tb import outcome
from tb.bfm.stream import StreamBus, StreamSink, StreamSource, pick_pause
from tb.common import bench_params, make_rng, scaled, start_clock_and_reset
from tb.lanes import pack, unpack


@dataclass(frozen=True)
class Shape:
    kind: str  # "cvt", "trunc" or "shl"
    lanes: int
    in_w: int
    out_w: int
    shift_w: int
    offset_w: int
    scale_w: int

    @staticmethod
    def current() -> Shape:
        p = bench_params()
        kind = {"nvdla_cvt": "cvt", "nvdla_trunc": "trunc", "nvdla_shl": "shl"}[os.environ["COCOTB_TOPLEVEL"]]
        return Shape(kind, p["LANES"], p["IN_W"], p["OUT_W"], p["SHIFT_W"], p.get("OFFSET_W", 0),
                     p.get("SCALE_W", 0))


@dataclass(frozen=True)
class Config:
    shift: int
    offset: int = 0
    scale: int = 0


def model(shape: Shape, cfg: Config) -> Callable[[np.ndarray], Converted]:
    if shape.kind == "cvt":
        params = ConvertorParams(cfg.offset, cfg.scale, cfg.shift, shape.out_w, shape.offset_w, shape.scale_w)
        return lambda x: convert(x, params)
    if shape.kind == "trunc":
        return lambda x: truncate(x, cfg.shift, shape.out_w)
    return lambda x: shift_left_saturate(x, cfg.shift, shape.out_w)


def signed_values(rng: random.Random, bits: int, n: int, near: int | None = None) -> list[int]:
    """A mix that finds corner cases: uniform, extremes, and small values around `near`."""
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    out = []
    for _ in range(n):
        pick = rng.random()
        if pick < 0.45:
            out.append(rng.randint(lo, hi))
        elif pick < 0.6:
            out.append(rng.choice([lo, lo + 1, -1, 0, 1, hi - 1, hi]))
        else:
            centre = near if near is not None else 0
            out.append(max(lo, min(hi, centre + rng.randint(-300, 300))))
    return out


def random_config(shape: Shape, rng: random.Random) -> Config:
    shift = rng.choice([0, (1 << shape.shift_w) - 1, rng.randrange(1 << shape.shift_w),
                        rng.randrange(min(1 << shape.shift_w, shape.in_w + 2))])
    if shape.kind != "cvt":
        return Config(shift)
    offset_mask = (1 << shape.offset_w) - 1
    offset = rng.choice([0, rng.getrandbits(shape.offset_w), (1 << (shape.offset_w - 1)),
                         (1 << (shape.offset_w - 1)) - 1, rng.randrange(-512, 512) & offset_mask])
    scale = rng.choice([1, (1 << shape.scale_w) - 1, 1 << (shape.scale_w - 1), (1 << (shape.scale_w - 1)) - 1,
                        rng.getrandbits(shape.scale_w)])
    return Config(shift, offset, scale)


async def run_config(dut, shape: Shape, cfg: Config, samples: list[int], rng: random.Random) -> None:
    """Stream `samples` through the DUT under `cfg` and score every lane and the saturation count."""
    dut.cfg_shift.value = cfg.shift
    if shape.kind == "cvt":
        dut.cfg_offset.value = cfg.offset
        dut.cfg_scale.value = cfg.scale
    dut.sat_count_clr.value = 1
    await ClockCycles(dut.clk, 1)
    dut.sat_count_clr.value = 0

    beats = [samples[i:i + shape.lanes] for i in range(0, len(samples), shape.lanes)]
    source = StreamSource(StreamBus(dut, "in"), dut.clk, pick_pause(rng))
    sink = StreamSink(StreamBus(dut, "out", sideband=["sat"]), dut.clk, pick_pause(rng))
    send = cocotb.start_soon(source.send(pack(b, shape.in_w) for b in beats))
    got = await sink.recv(len(beats))
    await send

    expected = model(shape, cfg)(np.array(samples, dtype=np.int64))
    got_values = [v for word, _ in got for v in unpack(word, shape.out_w, shape.lanes)]
    got_sat = [(sat >> i) & 1 for _, sat in got for i in range(shape.lanes)]
    for i, x in enumerate(samples):
        if got_values[i] != int(expected.value[i]) or got_sat[i] != int(expected.saturated[i]):
            raise AssertionError(
                f"{shape.kind} {cfg}: sample {i} (beat {i // shape.lanes}, lane {i % shape.lanes}) x={x}: "
                f"expected {int(expected.value[i])} sat={int(expected.saturated[i])}, "
                f"got {got_values[i]} sat={got_sat[i]}")
    await ClockCycles(dut.clk, 1)
    count = int(dut.sat_count.value)
    if count != expected.saturation_count:
        raise AssertionError(
            f"{shape.kind} {cfg}: saturation counter {count}, model {expected.saturation_count}")


@cocotb.test()
async def random_configs(dut) -> None:
    """Random configurations, data and backpressure; scoreboard against the model."""
    shape = Shape.current()
    rng = make_rng("random_configs")
    await start_clock_and_reset(dut.clk, dut.rst_n, idle=[dut.in_valid, dut.out_ready, dut.sat_count_clr])
    total = 0
    for _ in range(scaled(25, 300)):
        cfg = random_config(shape, rng)
        near = (as_signed(cfg.offset, shape.offset_w).item() if shape.kind == "cvt" else 0)
        n = shape.lanes * rng.randint(1, scaled(200, 1000))
        await run_config(dut, shape, cfg, signed_values(rng, shape.in_w, n, near), rng)
        total += n
        outcome.checked(total, "samples")


def tie_samples(shape: Shape, cfg: Config) -> list[int]:
    """Inputs whose scaled value sits exactly on +-0.5 LSB after the shift, on both signs."""
    if cfg.shift == 0 or shape.kind == "shl":
        return []
    half = 1 << (cfg.shift - 1)
    lo, hi = -(1 << (shape.in_w - 1)), (1 << (shape.in_w - 1)) - 1
    if shape.kind == "trunc":
        candidates = [k * (1 << cfg.shift) + s * half for k in range(-3, 4) for s in (-1, 1)]
    else:
        offset = as_signed(cfg.offset, shape.offset_w).item()
        candidates = [offset + k * (1 << cfg.shift) + s * half for k in range(-3, 4) for s in (-1, 1)]
    return [c for c in candidates if lo <= c <= hi]


@cocotb.test()
async def directed_corners(dut) -> None:
    """Ties of +-0.5 on both signs, zero and maximum shift, extremes, saturation both ways, offsets
    that wrap."""
    shape = Shape.current()
    rng = make_rng("directed_corners")
    await start_clock_and_reset(dut.clk, dut.rst_n, idle=[dut.in_valid, dut.out_ready, dut.sat_count_clr])
    max_shift = (1 << shape.shift_w) - 1
    lo, hi = -(1 << (shape.in_w - 1)), (1 << (shape.in_w - 1)) - 1
    extremes = [lo, lo + 1, -2, -1, 0, 1, 2, hi - 1, hi]
    configs = [Config(s) for s in (0, 1, 2, max_shift)]
    if shape.kind == "cvt":
        om, sm = (1 << shape.offset_w) - 1, (1 << shape.scale_w) - 1
        configs = [Config(s, o, sc) for s in (0, 1, 3, max_shift)
                   for o in (0, 1 << (shape.offset_w - 1), om, 5)        # min, -1, small: wraps at both ends
                   for sc in (1, sm, 1 << (shape.scale_w - 1), 3)]       # +1, -1, most negative, odd
    for cfg in configs:
        samples = extremes + tie_samples(shape, cfg)
        samples += [0] * (-len(samples) % shape.lanes)
        await run_config(dut, shape, cfg, samples, rng)
