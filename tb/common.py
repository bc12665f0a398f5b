"""What every bench shares: its parameters, seeded randomness, run length, clock and reset."""

from __future__ import annotations

import json
import os
import random
from collections.abc import Sequence

import cocotb
from cocotb.clock import Clock
from cocotb.handle import SimHandleBase
from cocotb.triggers import ClockCycles, Timer


def bench_params() -> dict[str, int]:
    """The HDL parameter set this simulation was built with (set by tb/runner.py)."""
    return json.loads(os.environ.get("BENCH_PARAMS", "{}"))


def nightly() -> bool:
    return os.environ.get("NIGHTLY", "0") not in ("", "0")


def scaled(default: int, nightly_count: int) -> int:
    """Run length: the default regression stays short, the nightly one goes long."""
    return nightly_count if nightly() else default


def make_rng(salt: str = "") -> random.Random:
    """A generator derived from cocotb's seed (printed by cocotb at start; SEED=... reproduces a run)."""
    seed = os.environ.get("BENCH_SEED") or str(cocotb.RANDOM_SEED)
    rng = random.Random(f"{seed}:{salt}")
    cocotb.log.info("random seed %s (reproduce with SEED=%s)", seed, seed)
    return rng


async def start_clock_and_reset(clk: SimHandleBase, rst_n: SimHandleBase, cycles: int = 3,
                                idle: Sequence[SimHandleBase] = ()) -> None:
    """Start a 100 MHz clock and pulse the active-low reset; `idle` inputs are driven to 0 first
    (a 4-state simulator would otherwise clock X from undriven valid inputs into the design)."""
    for signal in idle:
        signal.value = 0
    cocotb.start_soon(Clock(clk, 10, unit="ns").start())
    # Go 1 -> 0 after time 0 so every simulator sees the asynchronous-reset edge.
    rst_n.value = 1
    await Timer(1, unit="ns")
    rst_n.value = 0
    await ClockCycles(clk, cycles)
    rst_n.value = 1
    await ClockCycles(clk, 1)
