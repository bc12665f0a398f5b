"""CMAC feeding CACC (tb/hdl/nvdla_conv_mac_tb.v) against the model's arithmetic (models/conv/conv.py): each
operation multiplies AC int8 data by the AK kernels of the held weight atom and sums exactly; CACC adds the
partial sums of a stripe's atoms into 34-bit saturating accumulators (ACC_BITS) and delivers each position's
final sum through cacc_output (truncate, NVIDIA's rounding, INT32 saturation, counted in sat_count).

The driver plays CSC's part: an atom's AK kernels are written into CMAC's shadow one a cycle, only after the
previous atom's swap operation was multiplied (swap_done); operations come with random gaps and the output
with random backpressure. A mismatch names the stripe, position, kernel, expected and actual.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import cocotb
import numpy as np
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge

from models.conv.conv import ACC_BITS, cacc_output
from tb import outcome
from tb.common import bench_params, make_rng, scaled, start_clock_and_reset

MAX_REPORTED = 8


@dataclass
class Stripe:
    weights: list[np.ndarray]      # per atom [AK, AC]
    data: list[np.ndarray]         # per atom [len, AC]


def pack(values: np.ndarray, bits: int) -> int:
    word = 0
    for i, v in enumerate(values):
        word |= (int(v) & ((1 << bits) - 1)) << (i * bits)
    return word


def expected(stripe: Stripe, truncate: int) -> tuple[np.ndarray, int]:
    """[len, AK] CACC outputs and the saturated lanes, accumulating atom by atom as the model does."""
    limit = 1 << (ACC_BITS - 1)
    acc = np.zeros((stripe.data[0].shape[0], stripe.weights[0].shape[0]), dtype=np.int64)
    for w, d in zip(stripe.weights, stripe.data, strict=True):
        acc = np.clip(acc + d.astype(np.int64) @ w.astype(np.int64).T, -limit, limit - 1)
    out, sat = cacc_output(acc, truncate)
    return out, int(np.count_nonzero(sat))


class Harness:
    def __init__(self, dut, rng: random.Random) -> None:
        p = bench_params()
        self.dut, self.rng = dut, rng
        self.ac, self.ak, self.stripe = int(p["AC"]), int(p["AK"]), int(p["STRIPE"])
        self.got: list[np.ndarray] = []
        self.ready_p = 1.0
        self.swaps = 0

    async def start(self) -> None:
        d = self.dut
        await start_clock_and_reset(d.clk, d.rst_n, idle=(d.in_valid, d.wt_we, d.out_ready, d.start))
        cocotb.start_soon(self._collect())

    async def _collect(self) -> None:
        """Per cycle, between the edges (after the inputs changed and settled): the ready for this cycle, the
        beat it takes, CMAC's swap pulse; the rising edge then moves them."""
        d = self.dut
        while True:
            await FallingEdge(d.clk)
            d.out_ready.value = int(self.rng.random() < self.ready_p)
            await ReadOnly()
            if d.swap_done.value:
                self.swaps += 1
            if d.out_valid.value and d.out_ready.value:
                word = int(d.out_data.value)
                lanes = [(word >> (32 * k)) & 0xFFFFFFFF for k in range(self.ak)]
                self.got.append(np.array([v - (1 << 32) if v >> 31 else v for v in lanes], dtype=np.int64))

    async def run(self, stripe: Stripe, gap_p: float) -> None:
        """Load and issue every atom of the stripe (CSC's protocol, see the module docstring)."""
        d = self.dut
        n = stripe.data[0].shape[0]
        for a, (w, data) in enumerate(zip(stripe.weights, stripe.data, strict=True)):
            while self.swaps < self.issued_swaps:      # the shadow still holds the previous atom
                await RisingEdge(d.clk)
            await FallingEdge(d.clk)
            for k in range(self.ak):
                d.wt_we.value, d.wt_k.value, d.wt_data.value = 1, k, pack(w[k], 8)
                await FallingEdge(d.clk)
            d.wt_we.value = 0
            for p in range(n):
                while self.rng.random() < gap_p:
                    d.in_valid.value = 0
                    await FallingEdge(d.clk)
                d.in_valid.value = 1
                d.in_data.value = pack(data[p], 8)
                d.in_swap.value = int(p == 0)
                d.in_pos.value = p
                d.in_first.value = int(a == 0)
                d.in_last.value = int(a == len(stripe.data) - 1)
                await self.handshake()
                if p == 0:
                    self.issued_swaps += 1
            d.in_valid.value = 0

    issued_swaps = 0

    async def handshake(self) -> None:
        """From a falling edge with the operation driven: wait for the rising edge at which CMAC takes it
        (in_ready comes from a flop: its value between the edges is the one that edge sees), return at the
        falling edge after it."""
        d = self.dut
        while True:
            ready = bool(d.in_ready.value)
            await RisingEdge(d.clk)
            await FallingEdge(d.clk)
            if ready:
                return

    async def drain(self, beats: int) -> None:
        d = self.dut
        for _ in range(200000):
            await RisingEdge(d.clk)
            if len(self.got) >= beats and d.idle.value:
                return
        raise AssertionError(f"CACC delivered {len(self.got)} of {beats} outputs (hung)")


def compare(got: list[np.ndarray], want: list[np.ndarray], where: list[str]) -> list[str]:
    bad: list[str] = []
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        for k in np.nonzero(g != w)[0]:
            bad.append(f"{where[i]} kernel {k}: expected {int(w[k])}, actual {int(g[k])}")
    return bad


def random_stripe(rng: random.Random, ac: int, ak: int, length: int, atoms: int) -> Stripe:
    def values(shape: tuple[int, int]) -> np.ndarray:
        rows, cols = shape
        if rng.random() < 0.15:   # the extremes: the largest products and their signs
            return np.array([[rng.choice((-128, 127, -127)) for _ in range(cols)] for _ in range(rows)])
        return np.array([[rng.randint(-128, 127) for _ in range(cols)] for _ in range(rows)])
    return Stripe([values((ak, ac)) for _ in range(atoms)], [values((length, ac)) for _ in range(atoms)])


@cocotb.test()
async def random_stripes(dut) -> None:
    """Stripes of every length 1..STRIPE and 1..5 atoms, every truncation 0..31 (random order), random gaps
    and backpressure: every output against the model, and the saturation count."""
    rng = make_rng("conv_mac")
    h = Harness(dut, rng)
    await h.start()
    truncs = list(range(32))
    rng.shuffle(truncs)
    checked = 0
    for t in truncs[:scaled(12, 32)]:
        dut.truncate.value = t
        dut.start.value = 1
        await RisingEdge(dut.clk)
        dut.start.value = 0
        h.got.clear()
        h.ready_p = rng.choice((1.0, 0.7, 0.3))
        gap = rng.choice((0.0, 0.2, 0.5))
        want: list[np.ndarray] = []
        where: list[str] = []
        sats = 0
        for s in range(scaled(6, 20)):
            length = rng.randint(1, h.stripe)
            stripe = random_stripe(rng, h.ac, h.ak, length, rng.randint(1, 5))
            out, sat = expected(stripe, t)
            await h.run(stripe, gap)
            want += list(out)
            where += [f"truncate {t} stripe {s} position {p}" for p in range(length)]
            sats += sat
        await h.drain(len(want))
        bad = compare(h.got, want, where)
        assert not bad, f"{len(bad)} outputs differ: " + "; ".join(bad[:MAX_REPORTED])
        assert len(h.got) == len(want), f"{len(h.got)} outputs, expected {len(want)}"
        count = int(dut.sat_count.value)
        assert count == sats, f"truncate {t}: saturation count {count}, expected {sats}"
        checked += len(want)
        outcome.checked(checked, "outputs")


@cocotb.test()
async def saturation(dut) -> None:
    """One position accumulating the largest products (positive, then negative) past 34 bits: CACC's
    accumulator saturates, and at small truncations the INT32 output saturates and is counted."""
    rng = make_rng("conv_mac_sat")
    h = Harness(dut, rng)
    await h.start()
    ac, ak = h.ac, h.ak
    ops = (1 << (ACC_BITS - 1)) // (ac * 128 * 128) + 64        # enough to pass 2^33
    cases = ((1, 0), (-1, 3), (-1, 0), (1, 2), (1, 31))      # each ~2^19 / AC operations a cycle each
    for checked, (sign, t) in enumerate(cases[:scaled(2, len(cases))], start=1):
        dut.truncate.value = t
        dut.start.value = 1
        await RisingEdge(dut.clk)
        dut.start.value = 0
        h.got.clear()
        h.ready_p = 1.0
        w = np.full((ak, ac), -128 if sign > 0 else 127)
        w[ak - 1] = rng.randint(-128, 127)                        # one lane stays small
        data = np.full((1, ac), -128)
        stripe = Stripe([w] * ops, [data] * ops)
        out, sat = expected(stripe, t)
        # one atom's weights for every operation: load once, then one operation per atom with no swap
        await FallingEdge(dut.clk)
        for k in range(ak):
            dut.wt_we.value, dut.wt_k.value, dut.wt_data.value = 1, k, pack(w[k], 8)
            await FallingEdge(dut.clk)
        dut.wt_we.value = 0
        dut.in_valid.value = 1
        dut.in_data.value = pack(data[0], 8)
        dut.in_pos.value = 0
        for i in range(ops):
            dut.in_swap.value = int(i == 0)
            dut.in_first.value = int(i == 0)
            dut.in_last.value = int(i == ops - 1)
            await h.handshake()
        dut.in_valid.value = 0
        h.issued_swaps += 1
        await h.drain(1)
        bad = compare(h.got, list(out), [f"sign {sign} truncate {t}"])
        assert not bad, "; ".join(bad[:MAX_REPORTED])
        assert int(dut.sat_count.value) == sat, f"saturation count {int(dut.sat_count.value)}, expected {sat}"
        outcome.checked(checked, "saturating sums")
