"""tflite_nvdla: the mapping checked against LiteRT on the generated models, and against a broken mapping."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ai_edge_litert")

from models.steps import RegWrite  # noqa: E402
from models.subsystem import ModelTarget  # noqa: E402
from tflite_nvdla import __main__ as cli  # noqa: E402
from tflite_nvdla import sdp_fit  # noqa: E402
from tflite_nvdla import tflite_arith as ta  # noqa: E402
from tflite_nvdla.hw_plan import run_plan  # noqa: E402
from tflite_nvdla.litert_run import run_litert  # noqa: E402
from tflite_nvdla.make_models import write_models  # noqa: E402
from tflite_nvdla.mapping import Unsupported, map_operator  # noqa: E402
from tflite_nvdla.reader import TfliteFileError, parse, read  # noqa: E402

# the bridge's plans are checked on nv_small (SDP with EW and its LUT); a configuration without them refuses
# those layers by name (test_configuration_without_ew_refuses_by_name)
pytestmark = pytest.mark.configuration("nv_small")


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return {p.stem: p for p in write_models(tmp_path_factory.mktemp("tflite"))}


def _rows(path: Path) -> tuple[list[cli.Row], list[str]]:
    cpu: list[str] = []
    return cli.run_model(path, 1, "reference", cpu), cpu


def test_unary_and_max_pool_exact(models: dict[str, Path]) -> None:
    rows = _rows(models["unary"])[0] + _rows(models["pooling"])[0]
    exact_ops = [r for r in rows if r.op.name != "AVERAGE_POOL_2D"]
    assert {r.op.name for r in exact_ops} >= {"QUANTIZE", "RELU", "RELU6", "LEAKY_RELU", "LOGISTIC", "TANH",
                                              "MAX_POOL_2D"}
    for r in exact_ops:
        assert r.exact == r.elements, f"{r.op.name}: {r.exact}/{r.elements} exact"


def test_every_operator_within_one_lsb(models: dict[str, Path]) -> None:
    for name in ("binary", "pooling", "postproc_chain"):
        for r in _rows(models[name])[0]:
            assert r.max_error <= 1, f"{name} {r.op.name}: max error {r.max_error}"


def test_cpu_fallbacks_named(models: dict[str, Path]) -> None:
    rows, cpu = _rows(models["cpu_fallbacks"])
    assert not rows
    text = "\n".join(cpu)
    for reason in ("per axis", "scale ratio", "line buffer|flying width", "SOFTMAX", "DEQUANTIZE"):
        assert any(part in text for part in reason.split("|")), f"no fallback for {reason}: {text}"


def test_broken_mapping_is_caught(models: dict[str, Path]) -> None:
    """The comparison finds a mapping error: RELU with its input zero point (BS ALU operand) one off fails."""
    model = read(models["unary"])
    values = run_litert(models["unary"], 1)
    op = next(o for o in model.operators if o.name == "RELU")
    mapped = map_operator(model, op, [values[op.inputs[0]]])
    assert np.array_equal(run_plan(ModelTarget(), mapped.plan), values[op.outputs[0]])
    broken = [s._replace(value=s.value + 1) if isinstance(s, RegWrite) and s.reg == "D_DP_BS_ALU_SRC_VALUE"
              else s for s in mapped.plan.steps]
    bad = run_plan(ModelTarget(), dataclasses.replace(mapped.plan, steps=broken))
    assert not np.array_equal(bad, values[op.outputs[0]])


def test_fit_reports_inexact_domain() -> None:
    """A target no setting reaches gives an exact fraction below 1 (ADD), or the exact LUT layout (unary)."""
    setting = sdp_fit.add(0, 0, 0, 0.5, 0.5, np.full((256, 256), 99, dtype=np.int64))
    assert setting.exact_fraction < 1.0
    scrambled = ta.requant_table(0.05, 3, 0.03, -10, (-128, 127))[::-1].copy()
    assert sdp_fit.requantization(3, -10, 0.05 / 0.03, (-128, 127), scrambled).lut is not None


def test_malformed_files(tmp_path: Path) -> None:
    with pytest.raises(TfliteFileError, match="TFL3"):
        parse(b"not a model at all")
    good = write_models(tmp_path)[0].read_bytes()
    with pytest.raises(TfliteFileError):
        parse(good[:64])
    with pytest.raises(TfliteFileError, match="cannot read"):
        read(tmp_path / "missing.tflite")


def test_cli_malformed_exit_code(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.tflite"
    bad.write_bytes(b"\0\0\0\0TFL3" + b"\xff" * 20)
    assert cli.main([str(bad)]) == 1
    assert "tflite:" in capsys.readouterr().err


def test_unsupported_operator(models: dict[str, Path]) -> None:
    model = read(models["cpu_fallbacks"])
    op = next(o for o in model.operators if o.name == "SOFTMAX")
    with pytest.raises(Unsupported, match="no NVDLA"):
        map_operator(model, op, [np.zeros((1, 4, 4, 8), dtype=np.int8)])


def test_prelu_exact(models: dict[str, Path]) -> None:
    """PRELU per channel (BN's operand per kernel from memory) and with one alpha (register): exact."""
    rows, cpu = _rows(models["prelu"])
    assert not cpu and len(rows) == 2
    assert "per-channel operand" in rows[0].layout and "per-channel" not in rows[1].layout
    for r in rows:
        assert r.exact == r.elements, f"{r.op.name} {r.layout}: {r.exact}/{r.elements} exact"


def test_fused_activations_folded(models: dict[str, Path]) -> None:
    """ADD, MUL and pooling with fused clamps run on NVDLA (MUL's clamp in its own layer, the others in an
    SDP clamp layer), within 1 LSB, and the clamps bite: over 5% of the outputs sit on a bound."""
    rows, cpu = _rows(models["fused"])
    assert not cpu and len(rows) == 9
    for r in rows:
        assert r.max_error <= 1, f"{r.op.name} {r.layout}: max error {r.max_error}"
        assert "clamp" in r.layout
        assert r.expected is not None and r.model_output is not None
        lo, hi = int(r.expected.min()), int(r.expected.max())
        assert int(r.model_output.min()) >= lo and int(r.model_output.max()) <= hi
        on_bound = np.count_nonzero((r.expected == lo) | (r.expected == hi))
        assert on_bound > r.elements // 20, f"{r.op.name}: the clamp does not bite"


def test_upper_clamp_lut_exact() -> None:
    """The EW LUT that clamps MUL's product from above passes everything below hi and stops at hi, over the
    whole 32-bit range the EW block can hand it."""
    values = np.concatenate([np.arange(-600, 600), [-(1 << 31), -(1 << 20), 1 << 20, (1 << 31) - 1]])
    for hi in (-100, 0, 37, 126):
        lut = sdp_fit.upper_clamp_lut(hi)
        setting = sdp_fit.SdpSetting(ew=sdp_fit.EwBlock(bypass=False, lut_bypass=False), lut=lut,
                                     cvt=sdp_fit.OutputCvt(offset=0, scale=1, shift=0))
        got = setting.run(values)
        assert np.array_equal(got, np.clip(np.minimum(values, hi), -128, 127)), hi


def test_lrn_pattern_on_cdp(models: dict[str, Path]) -> None:
    """DEQUANTIZE -> LRN -> QUANTIZE is one CDP layer (the two conversions absorbed, not left to the CPU),
    within 1 LSB of LiteRT's builtin float kernel (TensorFlow's window); against the reference kernel
    (one channel fewer in its window) the difference is reported in a note."""
    cpu: list[str] = []
    rows = cli.run_model(models["lrn"], 1, "builtin", cpu)
    assert not cpu and [r.op.name for r in rows] == ["LOCAL_RESPONSE_NORMALIZATION"] * 2
    for r in rows:
        assert r.max_error <= 1 and r.exact >= 0.99 * r.elements, f"{r.layout}: {r.exact}/{r.elements}"
        assert r.plan is not None and "reference kernel" in r.plan.notes[0]


def test_broadcast_operands(models: dict[str, Path]) -> None:
    """ADD / MUL with a per-channel constant (EW operand per kernel from memory) or a scalar constant (EW
    register operand), the broadcast operand also given first: within 1 LSB, ADD's bias exact."""
    rows, cpu = _rows(models["broadcast"])
    assert not cpu and len(rows) == 5
    assert ["per-channel" in r.layout for r in rows] == [True, True, False, False, True]
    assert all("register" in r.layout for r in rows[2:4])
    for r in rows:
        assert r.max_error <= 1, f"{r.op.name} {r.layout}: max error {r.max_error}"
    assert rows[0].exact == rows[0].elements


@pytest.mark.configuration("nv_medium_512")
def test_configuration_without_ew_refuses_by_name(models: dict[str, Path]) -> None:
    rows, cpu = _rows(models["broadcast"])
    ew = [r for r in cpu if " ADD:" in r or " MUL:" in r]
    assert ew and all("has no EW (SDP_EW_DISABLE)" in r for r in ew), cpu
