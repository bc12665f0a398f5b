"""What the cocotb benchmark modules (tb/tests/test_benchmark_{pdp,cdp,sdp,rubik,conv}.py) share: the start-up
(seeded data, the memory timing the host asked for, a BenchTarget on the top), a unit's NVIDIA traces, and
the loop that runs the cases, logs each row and writes the rows as JSON where the host side
(scripts/benchmark_top.py) reads them (BENCH_OUT), then fails the test on any wrong result.
"""

from __future__ import annotations

import json
import os
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import asdict
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from models.steps import Step
from models.trace import default_trace_folders, is_reference_program
from tb import outcome
from tb.bench_target import BenchTarget, Row, bench_timing, case_row, start_top
from tb.common import make_rng
from tb.trace_rtl import units_needed

TargetT = TypeVar("TargetT", bound=BenchTarget)
CaseT = TypeVar("CaseT")
RowT = TypeVar("RowT", bound=Row)


async def start_benchmark(dut: Any, salt: str, cls: type[TargetT]) -> tuple[TargetT, np.random.Generator]:
    """The top on the simulation memory at the timing the environment asks for (tb/bench_target.py
    bench_timing) as a `cls` target, and the generator of the layers' data, both seeded from `salt`."""
    rng = make_rng(salt)
    data_rng = np.random.default_rng(rng.getrandbits(32))
    timing = bench_timing(rng)
    return cls(dut, await start_top(dut, timing), timing), data_rng


def unit_traces(unit: str) -> list[Path]:
    """NVIDIA's traces of the configuration that use `unit` alone (not the reference programs kept with
    nv_full)."""
    return [f for f in default_trace_folders() if units_needed(f) == {unit} and not is_reference_program(f)]


def selected(name: str) -> bool:
    """--only (BENCH_ONLY): comma-separated name fragments; empty selects every case."""
    only = [part for part in os.environ.get("BENCH_ONLY", "").split(",") if part]
    return not only or any(part in name for part in only)


async def run_case(target: BenchTarget, name: str, steps: list[Step] | str, **kw: Any) -> Row:
    """One case on a fresh start: its steps run and scored, or a row saying why it cannot run."""
    await target.start_case()
    return case_row(name, steps) if isinstance(steps, str) else await target.run_steps(name, steps, **kw)


async def record_rows(dut: Any, cases: Iterable[tuple[str, CaseT]],
                      run: Callable[[str, CaseT], Awaitable[RowT]], default_out: str) -> None:
    """Run every case, log its row and rewrite the rows as JSON after each (BENCH_OUT, else `default_out`),
    so a crash still leaves the rows before it; SKIP when there was no case, fail on any wrong row."""
    rows: list[RowT] = []
    out = Path(os.environ.get("BENCH_OUT", default_out))
    for name, case in cases:
        if not selected(name):
            continue
        row = await run(name, case)
        dut._log.info("%s: %d cycles, %s %s", name, row.cycles, "ok" if row.ok else "FAIL", row.message)
        rows.append(row)
        out.write_text(json.dumps([asdict(r) for r in rows]))
    if not rows:
        outcome.skip("no layer to benchmark (BENCH_ONLY / --only selected none)")
    outcome.checked(len(rows), "layers")
    assert all(r.ok for r in rows), f"wrong results: {[r.name for r in rows if not r.ok]}"
