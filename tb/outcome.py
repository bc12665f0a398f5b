"""How a cocotb test says how much it checked, or why it checked nothing, so no test passes vacuously.

A test calls `checked(37, "traces")` once it knows its count, or `skip("no trace under ...")` when it finds
nothing to check (cocotb 2.1 records a pytest.skip as skipped in results.xml, with a generic reason). Both
land in one JSON file of the run directory (BENCH_OUTCOMES, set by tb/runner.py), keyed by test name:
  {"replay_traces": {"checked": 37, "noun": "traces"}, "other_test": {"reason": "why it skipped"}}
tb/runner.py reads it back into TestResult.checked and the SKIP row's message.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import NoReturn

ENV = "BENCH_OUTCOMES"
FILE_NAME = "outcomes.json"


def current_test() -> str:
    """Name of the running cocotb test. cocotb 2.1 has no public API for it: its regression manager knows."""
    from cocotb import regression

    return str(regression._manager_inst._test.name)


def _path() -> Path:
    return Path(os.environ.get(ENV, FILE_NAME))


def _update(test: str, entry: dict[str, object]) -> None:
    path = _path()
    data = read(path)
    data.setdefault(test, {}).update(entry)
    path.write_text(json.dumps(data, indent=1))


def checked(count: int, noun: str, test: str | None = None) -> None:
    """Record that the running test checked `count` items ("layers", "samples", ...); call it again to raise
    the count as the test goes (a failing test still shows how far it got)."""
    _update(test or current_test(), {"checked": int(count), "noun": noun})


def skip(reason: str, test: str | None = None) -> NoReturn:
    """End the running test as SKIP with this reason (recorded here, since results.xml keeps no reason)."""
    import pytest

    _update(test or current_test(), {"reason": reason})
    pytest.skip(reason)


def read(path: Path) -> dict[str, dict[str, object]]:
    """What the tests of one run recorded ({} when none recorded anything or the file is unreadable)."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def describe(entry: dict[str, object]) -> str:
    """'37 traces' for a recorded count, '' when the test recorded none."""
    if "checked" not in entry:
        return ""
    return f"{entry['checked']} {entry.get('noun', 'items')}"
