"""A bad trace fails alone on the RTL too: `make traces TARGET=rtl` (tb/trace_rtl.py,
tb/tests/test_trace_rtl.py)
replays every other trace of the batch, after it, with its own result (trace_batch: tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from models.trace import find_traces
from tb.trace_rtl import replay_on_rtl


def test_model_rejected_trace_fails_alone(trace_batch: Callable[[str], tuple[Path, str, tuple[str, ...]]],
                                          sim: str) -> None:
    root, bad, good = trace_batch("rejected")
    results = {r.name: r for r in replay_on_rtl(sorted(find_traces(root), key=lambda p: p.name), sim=sim)}
    assert sorted(results) == sorted((bad, *good))
    # failed inside the simulation with its own reason (not by the host restarting a dead simulation)
    assert not results[bad].passed and results[bad].message.startswith("ConfigError: PDP: CUBE_OUT_WIDTH"), \
        results[bad]
    failed = {name: r.message for name, r in results.items() if name != bad and not r.passed}
    assert not failed, failed
