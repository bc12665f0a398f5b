"""tflite_nvdla.delegate: NVDLA as a LiteRT delegate (partitioning, the operator's own input order, results
that come from NVDLA and not the CPU, errors as LiteRT statuses) and the --whole-model command."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("ai_edge_litert")

from ai_edge_litert.interpreter import Interpreter, OpResolverType  # noqa: E402

from models.subsystem import ModelTarget  # noqa: E402
from tflite_nvdla import __main__ as cli  # noqa: E402
from tflite_nvdla.delegate import NvdlaDelegate  # noqa: E402
from tflite_nvdla.graph_builder import Graph, OpSpec, TensorSpec, serialize  # noqa: E402
from tflite_nvdla.make_models import OPTIONS, B, _Quant, _softmax_options, broadcast, lrn  # noqa: E402
from tflite_nvdla.reader import TfliteFileError  # noqa: E402
from tflite_nvdla.whole_model import run_whole  # noqa: E402
from tflite_nvdla.whole_report import drift_table  # noqa: E402

pytestmark = pytest.mark.configuration("nv_small")
ROOT = Path(__file__).resolve().parents[2]
WAKEWORD = ROOT / "data" / "tflite" / "microwakeword"
SHAPE = (1, 4, 4, 8)


def _q(name: str, scale: float, zp: int, shape: tuple[int, ...] = SHAPE) -> TensorSpec:
    return TensorSpec(name, shape, scales=(float(np.float32(scale)),), zero_points=(zp,))


def two_partitions() -> Graph:
    """RELU (NVDLA) -> SOFTMAX (CPU) -> ADD(softmax, y) and MUL(sum, x) (NVDLA): two partitions; ADD's inputs
    are (tensor 3, tensor 1), the reverse of the order the partition lists its inputs in, and every tensor
    has its own scale, so inputs fed in the partition's order give a different sum."""
    g = Graph()
    x, y = g.tensor(_q("x", 0.05, -10)), g.tensor(_q("y", 0.11, 20))
    g.inputs = [x, y]
    r = g.tensor(_q("relu", 0.05, -10))
    g.op(OpSpec(B.RELU, (x,), (r,)))
    s = g.tensor(_q("softmax", 1 / 256, -128))
    g.op(OpSpec(B.SOFTMAX, (r,), (s,), OPTIONS.SoftmaxOptions, _softmax_options))
    total = g.tensor(_q("sum", 0.13, 5))
    g.op(OpSpec(B.ADD, (s, y), (total,)))
    prod = g.tensor(_q("product", 0.3, -3))
    g.op(OpSpec(B.MUL, (total, x), (prod,)))
    g.outputs = [prod]
    return g


def single(code: int) -> Graph:
    g = Graph()
    x = g.tensor(_q("x", 0.05, -10))
    out = g.tensor(_q("out", 0.07, 3))
    g.inputs, g.outputs = [x], [out]
    g.op(OpSpec(code, (x,), (out,)))
    return g


def _write(tmp_path: Path, name: str, graph: Graph, **kwargs: Any) -> Path:
    path = tmp_path / f"{name}.tflite"
    path.write_bytes(serialize(graph, **kwargs))
    return path


def _interpreter(path: Path, **kwargs: Any) -> Interpreter:
    warnings.filterwarnings("ignore", message=".*experimental_preserve_all_tensors.*")
    interp = Interpreter(model_path=str(path), experimental_op_resolver_type=OpResolverType.BUILTIN_REF,
                         **kwargs)
    interp.allocate_tensors()
    return interp


def _invoke(interp: Interpreter, seed: int = 3) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    for d in interp.get_input_details():
        interp.set_tensor(d["index"], rng.integers(-128, 128, d["shape"]).astype(np.int8))
    interp.invoke()
    return [np.array(interp.get_tensor(d["index"])) for d in interp.get_output_details()]


def test_partitions_and_refused_reasons(tmp_path: Path) -> None:
    path = _write(tmp_path, "parts", two_partitions())
    delegate = NvdlaDelegate(path)
    interp = _interpreter(path, experimental_delegates=[delegate])
    assert [(d.node, d.op, d.delegated) for d in delegate.decisions] == [
        (0, "RELU", True), (1, "SOFTMAX", False), (2, "ADD", True), (3, "MUL", True)]
    assert "SOFTMAX" in (delegate.decisions[1].reason or "")
    parts = sorted((p.subgraph, [op.index for op in p.nodes]) for p in delegate._partitions.values())
    assert parts == [(0, [0]), (0, [2, 3])]
    # the second partition lists its inputs in its own order, not ADD's (softmax output, then y)
    second = next(p for p in delegate._partitions.values() if len(p.nodes) == 2)
    print("partition inputs", second.inputs, "ADD inputs (3, 1)")
    assert second.inputs[:2] != [3, 1]
    nvdla = _invoke(interp)[0]
    cpu = _invoke(_interpreter(path))[0]
    assert [(layer.op_index, layer.op) for layer in delegate.layers] == [(0, "RELU"), (2, "ADD"), (3, "MUL")]
    diff = np.abs(nvdla.astype(int) - cpu.astype(int))
    assert diff.max() <= 1, f"max {diff.max()} LSB at {np.unravel_index(diff.argmax(), diff.shape)}"
    # the graph's output is the last delegated layer's value, as NVDLA left it
    assert np.array_equal(nvdla, delegate.layers[-1].value.reshape(nvdla.shape))


class FaultyNvdla(ModelTarget):
    """NVDLA with a visible fault: every byte read back from memory has its lowest bit flipped."""

    def mem_read(self, mem: int, addr: int, size: int) -> np.ndarray:
        return super().mem_read(mem, addr, size) ^ np.uint8(1)


def test_results_come_from_nvdla_not_the_cpu(tmp_path: Path) -> None:
    """A delegate that computed its outputs on the CPU (or handed back LiteRT's own tensor) would be blind
    to a fault in NVDLA's output: here the fault must show in the graph's output, bit for bit."""
    path = _write(tmp_path, "relu", single(B.QUANTIZE))
    cpu = _invoke(_interpreter(path))[0]
    delegate = NvdlaDelegate(path, target=FaultyNvdla)
    faulty = _invoke(_interpreter(path, experimental_delegates=[delegate]))[0]
    assert delegate.layers, "the delegate ran no layer"
    assert np.array_equal(faulty, cpu ^ np.int8(1)), "the output does not carry NVDLA's (faulty) result"


def test_exception_in_callback_is_a_litert_error(tmp_path: Path) -> None:
    path = _write(tmp_path, "relu", single(B.RELU))

    def broken() -> ModelTarget:
        raise RuntimeError("injected NVDLA fault")

    delegate = NvdlaDelegate(path, target=broken)
    interp = _interpreter(path, experimental_delegates=[delegate])
    with pytest.raises(RuntimeError, match="injected NVDLA fault"):
        _invoke(interp)
    assert any("injected NVDLA fault" in e for e in delegate.errors)


def test_layout_check_names_the_mismatch(tmp_path: Path) -> None:
    """A delegate whose declarations read something other than the .tflite file says fails in Prepare with
    the ABI check's message (here: the context's tensors are another model's)."""
    path = _write(tmp_path, "relu", single(B.RELU))
    other = _write(tmp_path, "parts", two_partitions())
    with pytest.raises((RuntimeError, ValueError), match="delegate ABI differs"):
        _interpreter(path, experimental_delegates=[NvdlaDelegate(other)])


def test_several_subgraphs_stateful_model() -> None:
    """okay_nabu (pymicro-wakeword 2.5.0): subgraph 1 is the CALL_ONCE initialiser of its resource
    variables; the delegate is prepared on both, refuses the handles and runs the convolutions, the fully
    connected layer, LOGISTIC and the QUANTIZE to uint8 on NVDLA."""
    model = WAKEWORD / "okay_nabu.tflite"
    stream = np.load(WAKEWORD / "okay_nabu.positive.npy")
    delegate = NvdlaDelegate(model)
    interp = _interpreter(model, experimental_delegates=[delegate])
    subgraphs = {d.subgraph for d in delegate.decisions}
    assert subgraphs == {0, 1}
    taken = [d.op for d in delegate.decisions if d.delegated]
    assert sorted(set(taken)) == ["CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "LOGISTIC", "QUANTIZE"]
    assert {d.subgraph for d in delegate.decisions if d.delegated} == {0}
    assert all("resource" in (d.reason or "") for d in delegate.decisions
               if d.op in ("VAR_HANDLE", "READ_VARIABLE", "ASSIGN_VARIABLE"))
    cpu = _interpreter(model)
    for window in stream[40:55]:   # the phrase: the state carries from invoke to invoke
        for i in (interp, cpu):
            i.set_tensor(i.get_input_details()[0]["index"], window)
            i.invoke()
        out = [i.get_tensor(i.get_output_details()[0]["index"]) for i in (interp, cpu)]
        # the output is NVDLA's QUANTIZE layer's bytes; against LiteRT alone it carries the drift of 15
        # requantized layers, each within 1 LSB (README: 6 LSB at most on the whole positive stream)
        assert np.array_equal(out[0].reshape(-1), delegate.layers[-1].value.reshape(-1)), "not NVDLA's output"
        diff = np.abs(out[0].astype(int) - out[1].astype(int)).max()
        assert diff <= 8, f"output {out[0]} with NVDLA, {out[1]} alone"
    assert len(delegate.layers) == 15 * len(taken)


def test_offset_buffers_read_as_inline(tmp_path: Path) -> None:
    """Constants stored after the flatbuffer (offset/size buffers) map as the same constants inline."""
    graph = broadcast(_Quant(5))
    inline = run_whole(_write(tmp_path, "inline", graph), None, 2, "reference", False)
    offset = run_whole(_write(tmp_path, "offset", graph, offset_buffers=True), None, 2, "reference", False)
    assert [d.reason for d in offset.decisions] == [d.reason for d in inline.decisions]
    assert sum(d.delegated for d in offset.decisions) == len(graph.ops)
    for a, b in zip(offset.nvdla_outputs[0], inline.nvdla_outputs[0], strict=True):
        assert np.array_equal(a, b)


def softmax_then_mul() -> Graph:
    """RELU (NVDLA) -> SOFTMAX (CPU) -> MUL(softmax, y) (NVDLA): what the command prints (MUL's fit is
    not exact on every input, so a tolerance of -1 fails)."""
    g = Graph()
    x, y = g.tensor(_q("x", 0.05, -10)), g.tensor(_q("y", 0.11, 20))
    g.inputs = [x, y]
    r = g.tensor(_q("relu", 0.05, -10))
    g.op(OpSpec(B.RELU, (x,), (r,)))
    s = g.tensor(_q("softmax", 1 / 256, -128))
    g.op(OpSpec(B.SOFTMAX, (r,), (s,), OPTIONS.SoftmaxOptions, _softmax_options))
    prod = g.tensor(_q("product", 0.01, -3))
    g.op(OpSpec(B.MUL, (s, y), (prod,)))
    g.outputs = [prod]
    return g


def test_whole_model_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "parts", softmax_then_mul())
    assert cli.main([str(path), "--whole-model"]) == 0
    out = capsys.readouterr().out
    assert "2 of 3 operators delegated" in out
    assert "#1 SOFTMAX: SOFTMAX" in out
    assert "tflite: parts.tflite: 2/3 operators on NVDLA" in out
    assert "final outputs" in out and "product: 128 elements" in out
    # tolerances nothing meets: the same run exits 1
    assert cli.main([str(path), "--whole-model", "--tolerance", "-1"]) == 1
    assert cli.main([str(path), "--whole-model", "--layer-tolerance", "-1"]) == 1


def test_corrupt_file_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = serialize(two_partitions())
    bad = tmp_path / "bad.tflite"
    bad.write_bytes(good[: len(good) // 2])
    assert cli.main([str(bad), "--whole-model"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("tflite: ") and "Traceback" not in err
    assert "corrupt" in err or "LiteRT" in err


def test_model_litert_refuses_gets_litert_reason(tmp_path: Path) -> None:
    g = Graph()
    a = g.tensor(_q("a", 0.1, 0, (1, 4)))
    b = g.tensor(_q("b", 0.1, 0, (1, 3)))
    out = g.tensor(_q("sum", 0.1, 0, (1, 4)))
    g.inputs, g.outputs = [a, b], [out]
    g.op(OpSpec(B.ADD, (a, b), (out,)))
    with pytest.raises(TfliteFileError, match="LiteRT refuses the model: .*broadcast"):
        run_whole(_write(tmp_path, "bad_add", g), None, 1, "reference", False)


def test_lrn_pattern_is_one_cdp_layer(tmp_path: Path) -> None:
    """DEQUANTIZE -> LRN -> QUANTIZE: all three delegated, one CDP layer writing the QUANTIZE's int8 output;
    scored against LiteRT's builtin kernel (TensorFlow's LRN window; the reference kernel's is one channel
    narrower, README)."""
    run = run_whole(_write(tmp_path, "lrn", lrn(_Quant(9))), None, 3, "builtin", False)
    assert all(d.delegated for d in run.decisions) and len(run.decisions) == 6
    assert [layer.op for layer in run.layers] == ["LOCAL_RESPONSE_NORMALIZATION"] * 2
    for row in drift_table(run):
        assert row.own_elements and row.own_max <= 1, f"#{row.op_index}: own max {row.own_max} LSB"


def test_npz_input_feeds_each_input_by_name(tmp_path: Path) -> None:
    """Two inputs from a .npz, a stream of three invokes; the CPU run sees exactly the given values."""
    path = _write(tmp_path, "parts", softmax_then_mul())
    rng = np.random.default_rng(8)
    x, y = (rng.integers(-128, 128, (3, *SHAPE)).astype(np.int8) for _ in range(2))
    np.savez(tmp_path / "in.npz", x=x, y=y)
    run = run_whole(path, tmp_path / "in.npz", 0, "reference", False)
    assert len(run.cpu_outputs) == 3
    relu = [v[2] for v in run.cpu_tensors]       # tensor 2: RELU(x), delegated, its input x kept
    assert all(np.array_equal(r, np.maximum(x[k], -10)) for k, r in enumerate(relu))
