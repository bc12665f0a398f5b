"""NVIDIA's convolution traces beyond the default family (tests/model/test_traces.py runs traces/nv_small*):
nv_large's two on the model of their own configuration, and on a configuration whose atomic C differs a SKIP
naming the weight layout they were written for, never a pass or a failure."""

from __future__ import annotations

from pathlib import Path

import pytest

from models import configs
from models.replay import replay_on_model, replay_on_own_config
from models.trace import REPO_TRACES

NV_LARGE = sorted((REPO_TRACES / "nv_large").glob("dc_*"))


@pytest.mark.skipif(not NV_LARGE, reason="no convolution trace under traces/nv_large")
@pytest.mark.parametrize("folder", NV_LARGE, ids=[f.name for f in NV_LARGE])
def test_nv_large_convolution_trace_on_model(folder: Path) -> None:
    result = replay_on_own_config(folder)
    assert result.passed and result.checks >= 1, result.message


@pytest.mark.skipif(not NV_LARGE, reason="no convolution trace under traces/nv_large")
def test_other_weight_layout_is_a_skip_naming_it() -> None:
    result = replay_on_model(NV_LARGE[0], configs.load("nv_medium_1024_full"))
    assert result.message.startswith("SKIP") and "atomic C 64, K 32" in result.message, result.message
