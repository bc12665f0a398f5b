"""Bench of PDP's output scaling (rtl/pdp/nvdla_pdp_scale.v): out = rnd(rnd(sum * recip_w / 2^16) *
recip_h / 2^16) per lane at NVIDIA's fixed widths (models/pdp/model.py WIDTHS, scale_round), or the max/min
element as it is, through the three pipeline stages with random stalls (all enables low).

The lanes' multipliers build only the product bits the rounding keeps and take the product's sign from
the sum (nvdla_pdp_scale_lane.v), so INT8 window sums the core can write (sign-extended into the 16-bit
slot as the core does; all 2^14 of them for three pairs, and for every pair in the nightly run) are crossed
with reciprocal pairs: the driver's 2^16 / k, the field's corners (0, 1, 2^15 +- 1, 2^16, 2^17 - 1) and
random ones. INT16 lanes (parameter INT16) get INT16 layers (22-bit sums: corners, small values and random
ones) and INT8 layers (their INT8 widths). A mismatch names the lane, the sum, the reciprocals, the mode,
expected and actual.
"""

from __future__ import annotations

import random

import cocotb
import numpy as np
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge

from models.pdp.model import INT8, INT16, PRECISION_NAMES, WIDTHS, scale_round
from tb import outcome
from tb.common import bench_params, make_rng, nightly, scaled

MAX_REPORTED = 8
CORNERS = (0, 1, 2, 0x7FFF, 0x8000, 0x8001, 0xFFFF, 0x10000, 0x10001, 0x1FFFF)
KERNELS = tuple(round((1 << 16) / k) for k in range(1, 9))   # the driver's 2^16 / kernel size


def expected(sums: np.ndarray, rw: int, rh: int, precision: int, ave: bool) -> np.ndarray:
    """The stored elements' bits (8 or 16) of `sums` as the model computes them."""
    w = WIDTHS[precision]
    bits = 8 * w.elem_bytes
    if ave:
        out = scale_round(scale_round(sums, rw, w.scale_bits[0]), rh, w.scale_bits[1])
    else:
        out = sums
    return np.asarray(out, dtype=np.int64) & ((1 << bits) - 1)


async def run_block(dut, rng: random.Random, sums: np.ndarray, rw: int, rh: int, i16: bool,
                    ave: bool) -> tuple[int, list[str]]:
    """Stream `sums` through the pipeline (a lane's elements per beat, random stall cycles); (results
    checked, mismatch lines)."""
    atom = int(bench_params()["ATOM"])
    lanes, slot = (atom // 2, 32) if i16 else (atom, 16)
    precision = INT16 if i16 else INT8
    elem = 16 if i16 else 8
    real = len(sums)
    n = -(-real // lanes) * lanes
    sums = np.concatenate([sums, np.zeros(n - real, dtype=np.int64)])
    beats = sums.reshape(-1, lanes)
    await FallingEdge(dut.clk)   # out of the last block's ReadOnly phase
    dut.en.value = 0
    dut.i16.value = int(i16)
    dut.m_ave.value = int(ave)
    dut.recip_w.value = rw
    dut.recip_h.value = rh
    got: list[int] = []
    advanced = 0
    b = 0
    while len(got) < len(beats):
        await FallingEdge(dut.clk)
        stall = rng.random() < 0.2
        if not stall:
            word = 0
            row = beats[b] if b < len(beats) else beats[-1]   # flush beats repeat the last one
            for i, s in enumerate(row):
                word |= (int(s) & ((1 << slot) - 1)) << (i * slot)
            dut.sum_in.value = word
            b += 1
        dut.en.value = 0 if stall else 0b111
        await RisingEdge(dut.clk)
        await ReadOnly()
        if not stall:
            advanced += 1
            if advanced >= 3:   # the result of the beat taken three advancing edges ago
                got.append(int(dut.out.value))
    want = [expected(row, rw, rh, precision, ave) for row in beats]
    bad: list[str] = []
    for k, (word, row) in enumerate(zip(got, want, strict=True)):
        for lane in range(lanes):
            actual = (word >> (lane * elem)) & ((1 << elem) - 1)
            if actual != int(row[lane]) and k * lanes + lane < real and len(bad) < MAX_REPORTED:
                mode = "average" if ave else "max/min"
                bad.append(f"  lane {lane} sum {int(beats[k][lane])} recip_w 0x{rw:05x} recip_h 0x{rh:05x} "
                           f"{PRECISION_NAMES[precision]} {mode}: expected 0x{int(row[lane]):x}, "
                           f"got 0x{actual:x}")
    return real, bad


def recip_pairs(rng: random.Random, count: int) -> list[tuple[int, int]]:
    pairs = [(a, b) for a in KERNELS for b in KERNELS[::3]]
    pairs += [(a, b) for a in CORNERS for b in (0x10000, 0x1FFFF, 0x8001, 1)]
    pairs += [(rng.getrandbits(17), rng.getrandbits(17)) for _ in range(count)]
    return pairs


@cocotb.test()
async def scale_sweep(dut) -> None:
    """Every INT8 window sum against reciprocal pairs; INT16 lanes: INT16 sums as well."""
    rng = make_rng("pdp_scale")
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.en.value = 0
    int16 = int(bench_params().get("INT16", 0)) == 1
    every8 = np.arange(-(1 << 13), 1 << 13, dtype=np.int64)
    total = 0
    bad: list[str] = []
    pairs = recip_pairs(rng, scaled(8, 64))
    full = {(KERNELS[2], KERNELS[2]), (0x1FFFF, 0x1FFFF), (1, 0x10000)}   # every sum in the short run too
    for rw, rh in pairs:
        if nightly() or (rw, rh) in full:
            sums = every8.copy()
            rng.shuffle(sums)   # every lane sees every kind of value
        else:
            sums = np.array([-(1 << 13), (1 << 13) - 1] + [rng.randrange(-(1 << 13), 1 << 13)
                                                         for _ in range(1022)], dtype=np.int64)
        n, b = await run_block(dut, rng, sums, rw, rh, False, True)
        total, bad = total + n, bad + b
        if int16:
            wide = np.array([-(1 << 21), (1 << 21) - 1, 0, -1, 1, -(1 << 20), 1 << 20]
                            + [rng.randrange(-(1 << 21), 1 << 21) for _ in range(scaled(150, 1500))]
                            + [rng.randrange(-2000, 2000) for _ in range(scaled(100, 1000))], dtype=np.int64)
            n, b = await run_block(dut, rng, wide, rw, rh, True, True)
            total, bad = total + n, bad + b
        outcome.checked(total, "results")
        assert not bad, f"{len(bad)}+ mismatches:\n" + "\n".join(bad[:MAX_REPORTED])
    # max/min: the element passes as it is
    n, b = await run_block(dut, rng, every8, 0x1FFFF, 0x1FFFF, False, False)
    total, bad = total + n, bad + b
    if int16:
        wide = np.array([rng.randrange(-(1 << 15), 1 << 15) for _ in range(2000)], dtype=np.int64)
        n, b = await run_block(dut, rng, wide, 0x1FFFF, 0x1FFFF, True, False)
        total, bad = total + n, bad + b
    outcome.checked(total, "results")
    assert not bad, f"{len(bad)}+ mismatches:\n" + "\n".join(bad[:MAX_REPORTED])
