"""Real models made by others through the NVDLA delegate (data/tflite/README.md: provenance, licences):
microWakeWord's okay_nabu detects its phrase, and only it, with NVDLA as without; MTCNN's ONet scores the
astronaut's face the same."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ai_edge_litert")

from tflite_nvdla.wakeword import run_stream  # noqa: E402
from tflite_nvdla.whole_model import run_whole  # noqa: E402
from tflite_nvdla.whole_report import drift_table  # noqa: E402

pytestmark = pytest.mark.configuration("nv_small")
DATA = Path(__file__).resolve().parents[2] / "data" / "tflite"


@pytest.mark.parametrize("stream, detected", [("positive", True), ("negative", False)])
def test_wakeword_same_detection(stream: str, detected: bool) -> None:
    config = DATA / "microwakeword" / "okay_nabu.json"
    cpu, nvdla, run, _ = run_stream(config, DATA / "microwakeword" / f"okay_nabu.{stream}.npy", "model")
    taken = [d.op for d in run.decisions if d.delegated]
    assert sorted(set(taken)) == ["CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "LOGISTIC", "QUANTIZE"]
    assert taken.count("CONV_2D") == 6 and taken.count("DEPTHWISE_CONV_2D") == 8
    assert len(run.layers) == len(taken) * len(run.cpu_outputs), "a delegated operator skipped an invoke"
    for row in drift_table(run):
        assert row.own_max <= 1, f"#{row.op_index} {row.op}: own max {row.own_max} LSB"
    assert cpu.detected is detected and nvdla.detected is detected


def test_mtcnn_onet_face_score() -> None:
    run = run_whole(DATA / "mtcnn" / "onet.tflite", DATA / "mtcnn" / "onet.input.npy", 0, "reference", False)
    delegated = sorted({d.op for d in run.decisions if d.delegated})
    assert delegated == ["CONV_2D", "FULLY_CONNECTED", "MAX_POOL_2D", "PRELU"]
    share = sum(d.delegated for d in run.decisions) / len(run.decisions)
    assert share >= 0.7, f"{100 * share:.0f}% of ONet's operators on NVDLA (issue 30: >= 70%)"
    convs = [layer for layer in run.layers if layer.op in ("CONV_2D", "FULLY_CONNECTED")]
    assert len(convs) == 8 and all(layer.layout.startswith("CDMA") for layer in convs)
    for row in drift_table(run):
        assert row.own_elements and row.own_max <= 1, f"#{row.op_index} {row.op}: own max {row.own_max} LSB"
    scores = run.outputs[2]
    assert scores.name == "Identity_2" and run.cpu_outputs[0][2].shape == (1, 2)
    face = [(float(v[2].reshape(-1)[1]) - scores.zero_point) * scores.scale
            for v in (run.cpu_outputs[0], run.nvdla_outputs[0])]
    assert face[0] > 0.99 and abs(face[0] - face[1]) <= 0.01, face
    for k in (0, 1):   # bounding box regression, landmarks: the convolutions' drift, within 1 LSB
        diff = np.abs(run.cpu_outputs[0][k].astype(int) - run.nvdla_outputs[0][k].astype(int))
        assert diff.max() <= 1, f"{run.outputs[k].name}: {run.cpu_outputs[0][k]} vs {run.nvdla_outputs[0][k]}"


def test_mtcnn_rnet_partitioning() -> None:
    """RNet: every CONV_2D / FULLY_CONNECTED / PRELU / MAX_POOL_2D on NVDLA (>= 70% of its operators), the
    rest on the CPU with the reason."""
    from ai_edge_litert.interpreter import Interpreter, OpResolverType

    from tflite_nvdla.delegate import NvdlaDelegate

    path = DATA / "mtcnn" / "rnet.tflite"
    delegate = NvdlaDelegate(path)
    Interpreter(model_path=str(path), experimental_delegates=[delegate],
                experimental_op_resolver_type=OpResolverType.BUILTIN_REF).allocate_tensors()
    taken = sorted({d.op for d in delegate.decisions if d.delegated})
    assert taken == ["CONV_2D", "FULLY_CONNECTED", "MAX_POOL_2D", "PRELU"]
    refused = {d.op: d.reason for d in delegate.decisions if not d.delegated}
    assert sorted(refused) == ["RESHAPE", "SOFTMAX", "TRANSPOSE"] and all(refused.values())
    assert len(delegate.delegated()) / len(delegate.decisions) >= 0.7
