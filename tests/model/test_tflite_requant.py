"""tflite_nvdla.requant: CONV_2D / DEPTHWISE_CONV_2D / FULLY_CONNECTED requantization as one SDP layer,
against TFLite's arithmetic and LiteRT's own outputs (okay_nabu, pymicro-wakeword 2.5.0)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ai_edge_litert")

from tflite_nvdla.host_conv import ACCUMULATED, accumulators  # noqa: E402
from tflite_nvdla.litert_run import run_litert  # noqa: E402
from tflite_nvdla.reader import read  # noqa: E402
from tflite_nvdla.requant import Quant, fit, quant_of, tflite_requant  # noqa: E402

pytestmark = pytest.mark.configuration("nv_small")
MODEL = Path(__file__).resolve().parents[2] / "data" / "tflite" / "microwakeword" / "okay_nabu.tflite"


@pytest.fixture(scope="module")
def run() -> dict[int, np.ndarray]:
    return run_litert(MODEL, 4, "reference")


def test_host_accumulators_reproduce_litert(run: dict[int, np.ndarray]) -> None:
    """The host's accumulators through TFLite's requantization give LiteRT's own output, bit for bit, for
    every accumulating operator (the SDP fit's inputs and targets are LiteRT's)."""
    model = read(MODEL)
    ops = [op for op in model.operators if op.name in ACCUMULATED]
    assert {op.name for op in ops} == set(ACCUMULATED)
    for op in ops:
        acc = accumulators(model, op, run[op.inputs[0]])
        expected = run[op.outputs[0]].reshape(-1, acc.shape[0]).T
        got = tflite_requant(acc, quant_of(model, op))
        bad = np.count_nonzero(got != expected)
        assert not bad, f"#{op.index} {op.name}: {bad} of {got.size} differ"


def test_sdp_requantization_within_one_lsb(run: dict[int, np.ndarray]) -> None:
    model = read(MODEL)
    ops = [op for op in model.operators if op.index in (19, 58)]   # a DEPTHWISE_CONV_2D, the FC
    assert [op.name for op in ops] == ["DEPTHWISE_CONV_2D", "FULLY_CONNECTED"]
    for op in ops:
        q = quant_of(model, op)
        setting, exact, worst, _ = fit(q)
        assert worst <= 1 and exact > 0.995, f"#{op.index} {op.name}: {exact:.4f} exact, max {worst}"
        acc = accumulators(model, op, run[op.inputs[0]])
        diff = np.abs(setting.run(acc) - run[op.outputs[0]].reshape(-1, acc.shape[0]).T)
        assert diff.max() <= 1


def test_large_bias_and_fused_relu6() -> None:
    """A bias beyond 16 bits goes in as a shifted operand; RELU6's clamps are exact (BN MAX, EW MIN)."""
    q = Quant(np.array([3.1e-4, 9.7e-4]), np.array([250_000, -71_234]), -20, (-20, 90))
    setting, exact, worst, _ = fit(q)
    assert setting.bias_shift > 0
    assert worst <= 1 and exact > 0.99, f"{exact:.4f} exact, max {worst}"
    acc = np.array([[-10**7, 10**7, -250_000], [-10**7, 10**7, 71_234]])
    assert setting.run(acc).tolist() == tflite_requant(acc, q).tolist() == [[-20, 90, -20], [-20, 90, -20]]
