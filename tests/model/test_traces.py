"""NVDLA trace tests of the default configuration (traces/nv_small*, or $NVDLA_TRACES) on the model."""

from __future__ import annotations

from pathlib import Path

import pytest

from models.replay import replay_on_model
from models.trace import default_trace_folders, trace_roots

FOLDERS = default_trace_folders()


@pytest.mark.skipif(not FOLDERS, reason=f"no NVDLA trace folder under {trace_roots()} (set NVDLA_TRACES)")
@pytest.mark.parametrize("folder", FOLDERS, ids=[f.name for f in FOLDERS])
def test_trace_on_model(folder: Path) -> None:
    result = replay_on_model(folder)
    assert result.passed, result.message
    assert result.checks >= 1 or "check_nothing" in (folder / f"{folder.name}.cfg").read_text()
