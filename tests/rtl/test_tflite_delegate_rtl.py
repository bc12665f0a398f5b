"""The NVDLA delegate's layer runs on the RTL (python -m scripts.tflite_rtl ... --whole-model --target rtl):
MTCNN's ONet on the astronaut's face (data/tflite/mtcnn), every delegated layer run (convolutions, fully
connected layers, PReLU, pooling) replayed in one simulation of the top, each equal to the model's output bit
for bit."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("ai_edge_litert")

from tb.tflite_rtl import run_on_rtl  # noqa: E402
from tflite_nvdla.whole_model import run_whole  # noqa: E402
from tflite_nvdla.whole_report import replay_on_rtl, rtl_skipped  # noqa: E402

MTCNN = Path(__file__).resolve().parents[2] / "data" / "tflite" / "mtcnn"
pytestmark = pytest.mark.configuration("nv_small")


def test_onet_delegated_layers_on_rtl(sim: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SIM", sim)
    run = run_whole(MTCNN / "onet.tflite", MTCNN / "onet.input.npy", 0, "reference", keep_plans=True)
    skipped = rtl_skipped(run.layers)
    assert not skipped, f"the nv_small top has the convolution pipeline, yet: {skipped}"
    ops = [r.op for r in run.layers]
    counts = [ops.count(op) for op in ("CONV_2D", "FULLY_CONNECTED", "PRELU", "MAX_POOL_2D")]
    assert counts == [4, 4, 5, 3], ops
    differ = replay_on_rtl(run.layers, run_on_rtl)
    assert not differ, differ
