"""The trace proof never passes vacuously: with no trace to replay, top_traces is a SKIP, not a PASS.

It runs the registered bench itself (its build in sim_build/ is shared with tests/rtl/test_benches.py)
with NVDLA_TRACES pointing at an empty folder.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tb.benches import find
from tb.runner import run_bench


def test_empty_trace_folder_is_skip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sim: str) -> None:
    monkeypatch.setenv("NVDLA_TRACES", str(tmp_path))
    monkeypatch.delenv("TRACE_FOLDERS", raising=False)
    bench = find("top_traces")
    results = run_bench(bench, bench.param_sets[0], sim=sim, testcase="replay_traces")
    assert [(r.test, r.status) for r in results] == [("replay_traces", "skip")], results
    assert str(tmp_path) in results[0].message, results[0].message
    assert results[0].checked == "", "a skipped replay checked nothing"
