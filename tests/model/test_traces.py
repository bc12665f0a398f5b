"""NVDLA trace tests replayed on the model (skipped with a reason when the trace folder is absent)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from models.replay import replay_on_model
from models.trace import find_traces

DEFAULT = Path(__file__).resolve().parents[2].parent / "shared" / "nvdla" / "traces"
TRACES = Path(os.environ.get("NVDLA_TRACES", DEFAULT))
FOLDERS = find_traces(TRACES) if TRACES.is_dir() else []


@pytest.mark.skipif(not FOLDERS, reason=f"no NVDLA trace folder under {TRACES} (set NVDLA_TRACES)")
@pytest.mark.parametrize("folder", FOLDERS, ids=[f.name for f in FOLDERS])
def test_trace_on_model(folder: Path) -> None:
    result = replay_on_model(folder)
    assert result.passed, result.message
    assert result.checks >= 1 or "check_nothing" in (folder / f"{folder.name}.cfg").read_text()
