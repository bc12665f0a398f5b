"""CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED through the delegate on the convolution pipeline
(tflite_nvdla/conv_map.py): partitions with conv nodes, each layer within 1 LSB of LiteRT, results that are
NVDLA's and not the CPU's, refusals naming the Limitation rule, and the RTL target skipping conv layers
while the top has no conv units."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import tflite
from flatbuffers.builder import Builder

pytest.importorskip("ai_edge_litert")

from ai_edge_litert.interpreter import Interpreter, OpResolverType  # noqa: E402

from models import configs  # noqa: E402
from models.subsystem import ModelTarget  # noqa: E402
from tflite_nvdla.delegate import NvdlaDelegate  # noqa: E402
from tflite_nvdla.graph_builder import INT32, Graph, OpSpec, TensorSpec, serialize  # noqa: E402

UINT8 = tflite.TensorType.UINT8
from tflite_nvdla.hw_plan import run_plan  # noqa: E402
from tflite_nvdla.make_models import OPTIONS, B, _softmax_options  # noqa: E402
from tflite_nvdla.mapping import map_operator  # noqa: E402
from tflite_nvdla.reader import read  # noqa: E402
from tflite_nvdla.rtl_units import rtl_skip_reason  # noqa: E402

pytestmark = pytest.mark.configuration("nv_small")
SAME, VALID = 0, 1
RELU = 1


def _act(name: str, shape: tuple[int, ...], scale: float, zp: int) -> TensorSpec:
    return TensorSpec(name, shape, scales=(float(np.float32(scale)),), zero_points=(zp,))


def _filter(rng: np.random.Generator, name: str, shape: tuple[int, ...], axis: int) -> TensorSpec:
    channels = shape[axis]
    scales = tuple(float(np.float32(s)) for s in rng.uniform(0.002, 0.02, channels))
    return TensorSpec(name, shape, scales=scales, zero_points=(0,) * channels, quantized_dimension=axis,
                      data=rng.integers(-127, 128, shape).astype(np.int8))


def _bias(rng: np.random.Generator, name: str, s_in: float, w: TensorSpec) -> TensorSpec:
    scales = tuple(float(np.float32(s_in) * np.float32(s)) for s in w.scales)
    return TensorSpec(name, (len(scales),), dtype=INT32, scales=scales, zero_points=(0,) * len(scales),
                      data=rng.integers(-40000, 40000, len(scales)).astype(np.int32))


def _conv_options(padding: int, stride: tuple[int, int], dilation: tuple[int, int], activation: int,
                  multiplier: int = 0) -> Any:
    def write(b: Builder) -> int:
        if multiplier:
            tflite.DepthwiseConv2DOptionsStart(b)
            tflite.DepthwiseConv2DOptionsAddPadding(b, padding)
            tflite.DepthwiseConv2DOptionsAddStrideW(b, stride[0])
            tflite.DepthwiseConv2DOptionsAddStrideH(b, stride[1])
            tflite.DepthwiseConv2DOptionsAddDepthMultiplier(b, multiplier)
            tflite.DepthwiseConv2DOptionsAddFusedActivationFunction(b, activation)
            tflite.DepthwiseConv2DOptionsAddDilationWFactor(b, dilation[0])
            tflite.DepthwiseConv2DOptionsAddDilationHFactor(b, dilation[1])
            return tflite.DepthwiseConv2DOptionsEnd(b)
        tflite.Conv2DOptionsStart(b)
        tflite.Conv2DOptionsAddPadding(b, padding)
        tflite.Conv2DOptionsAddStrideW(b, stride[0])
        tflite.Conv2DOptionsAddStrideH(b, stride[1])
        tflite.Conv2DOptionsAddFusedActivationFunction(b, activation)
        tflite.Conv2DOptionsAddDilationWFactor(b, dilation[0])
        tflite.Conv2DOptionsAddDilationHFactor(b, dilation[1])
        return tflite.Conv2DOptionsEnd(b)
    return write


def _fc_options(b: Builder) -> int:
    tflite.FullyConnectedOptionsStart(b)
    tflite.FullyConnectedOptionsAddFusedActivationFunction(b, 0)
    return tflite.FullyConnectedOptionsEnd(b)


def _conv(g: Graph, rng: np.random.Generator, x: int, s_x: float, out: TensorSpec,
          kernel: tuple[int, int, int, int], padding: int, stride: tuple[int, int], dilation: tuple[int, int],
          activation: int) -> int:
    w = _filter(rng, f"{out.name}_w", kernel, 0)
    wi, bi = g.tensor(w), g.tensor(_bias(rng, f"{out.name}_b", s_x, w))
    o = g.tensor(out)
    g.op(OpSpec(B.CONV_2D, (x, wi, bi), (o,), OPTIONS.Conv2DOptions,
                _conv_options(padding, stride, dilation, activation), version=3))
    return o


def conv_graph(seed: int = 5) -> Graph:
    """CONV_2D (SAME, stride (2, 1), fused RELU, input zero point -20) -> DEPTHWISE_CONV_2D (VALID,
    dilation (1, 2), multiplier 2) -> SOFTMAX (CPU) -> FULLY_CONNECTED over 15 rows of 16: two partitions."""
    rng = np.random.default_rng(seed)
    g = Graph()
    s_x, s_c, s_d = 0.05, 0.08, 0.06
    x = g.tensor(_act("x", (1, 9, 7, 5), s_x, -20))
    c = _conv(g, rng, x, s_x, _act("conv", (1, 9, 4, 8), s_c, -121), (8, 3, 3, 5), SAME, (2, 1), (1, 1), RELU)
    dw = _filter(rng, "dw", (1, 3, 2, 16), 3)
    dwi, dbi = g.tensor(dw), g.tensor(_bias(rng, "db", s_c, dw))
    d = g.tensor(_act("dw_out", (1, 5, 3, 16), s_d, 11))
    g.op(OpSpec(B.DEPTHWISE_CONV_2D, (c, dwi, dbi), (d,), OPTIONS.DepthwiseConv2DOptions,
                _conv_options(VALID, (1, 1), (1, 2), 0, multiplier=2), version=3))
    sm = g.tensor(_act("softmax", (1, 5, 3, 16), 1 / 256, -128))
    g.op(OpSpec(B.SOFTMAX, (d,), (sm,), OPTIONS.SoftmaxOptions, _softmax_options))
    fw = _filter(rng, "fw", (6, 16), 0)
    fwi, fbi = g.tensor(fw), g.tensor(_bias(rng, "fb", 1 / 256, fw))
    out = g.tensor(_act("fc", (15, 6), 0.04, -3))
    g.op(OpSpec(B.FULLY_CONNECTED, (sm, fwi, fbi), (out,), OPTIONS.FullyConnectedOptions, _fc_options,
                version=4))
    g.inputs, g.outputs = [x], [out]
    return g


def _interpreter(path: Path, **kwargs: Any) -> Interpreter:
    warnings.filterwarnings("ignore", message=".*experimental_preserve_all_tensors.*")
    interp = Interpreter(model_path=str(path), experimental_op_resolver_type=OpResolverType.BUILTIN_REF,
                         **kwargs)
    interp.allocate_tensors()
    return interp


def _invoke(interp: Interpreter, seed: int = 3) -> np.ndarray:
    rng = np.random.default_rng(seed)
    d = interp.get_input_details()[0]
    interp.set_tensor(d["index"], rng.integers(-128, 128, d["shape"]).astype(np.int8))
    interp.invoke()
    return np.array(interp.get_tensor(interp.get_output_details()[0]["index"]))


@pytest.fixture(scope="module")
def model_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("conv") / "conv.tflite"
    path.write_bytes(serialize(conv_graph()))
    return path


class FaultyNvdla(ModelTarget):
    """NVDLA with a visible fault: every byte read back from memory has its lowest bit flipped."""

    def mem_read(self, mem: int, addr: int, size: int) -> np.ndarray:
        return super().mem_read(mem, addr, size) ^ np.uint8(1)


def test_conv_partitions_each_layer_within_one_lsb(model_path: Path) -> None:
    delegate = NvdlaDelegate(model_path)
    interp = _interpreter(model_path, experimental_delegates=[delegate])
    assert [(d.op, d.delegated) for d in delegate.decisions] == [
        ("CONV_2D", True), ("DEPTHWISE_CONV_2D", True), ("SOFTMAX", False), ("FULLY_CONNECTED", True)]
    parts = sorted([op.name for op in p.nodes] for p in delegate._partitions.values())
    assert parts == [["CONV_2D", "DEPTHWISE_CONV_2D"], ["FULLY_CONNECTED"]]
    assert all("CDMA" in d.layout for d in delegate.delegated())
    nvdla = _invoke(interp)
    cpu_interp = _interpreter(model_path, experimental_preserve_all_tensors=True)
    cpu = _invoke(cpu_interp)
    ran = [(layer.op, layer.output_tensor) for layer in delegate.layers]
    assert [op for op, _ in ran] == ["CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED"]
    for layer in delegate.layers:
        want = cpu_interp.get_tensor(layer.output_tensor).astype(int)
        diff = np.abs(layer.value.reshape(want.shape).astype(int) - want)
        at = np.unravel_index(diff.argmax(), diff.shape)
        print(f"{layer.op}: exact {100 * np.mean(diff == 0):.2f}%, max {diff.max()} LSB")
        # the conv runs on the CPU's own input here only for the first; later ones see NVDLA's input
        if layer.op == "CONV_2D":
            assert diff.max() <= 1, f"CONV_2D off by {diff.max()} LSB at {at}"
    assert np.abs(nvdla.astype(int) - cpu.astype(int)).max() <= 2


def test_each_accumulating_operator_alone_within_one_lsb(model_path: Path) -> None:
    """Each operator on the CPU run's own input tensor (no drift passed on): <= 1 LSB, mostly exact."""
    model = read(model_path)
    cpu_interp = _interpreter(model_path, experimental_preserve_all_tensors=True)
    _invoke(cpu_interp, seed=11)
    for op in model.operators:
        if op.name == "SOFTMAX":
            continue
        mapped = map_operator(model, op, [cpu_interp.get_tensor(op.inputs[0])])
        got = run_plan(ModelTarget(), mapped.plan).astype(int)
        want = cpu_interp.get_tensor(op.outputs[0]).astype(int).reshape(got.shape)
        diff = np.abs(got - want)
        exact = float(np.mean(diff == 0))
        print(f"{op.name}: exact {100 * exact:.2f}%, max {diff.max()} LSB")
        at = np.unravel_index(diff.argmax(), diff.shape)
        assert diff.max() <= 1, f"{op.name}: max {diff.max()} LSB at {at}"
        assert exact >= 0.95, f"{op.name}: only {100 * exact:.2f}% exact"


def test_conv_results_come_from_nvdla_not_the_cpu(model_path: Path) -> None:
    """The graph output carries NVDLA's (faulty) bytes: a delegate returning the CPU's CONV_2D result would
    not show the fault."""
    clean = NvdlaDelegate(model_path)
    good = _invoke(_interpreter(model_path, experimental_delegates=[clean]))
    faulty_delegate = NvdlaDelegate(model_path, target=FaultyNvdla)
    faulty = _invoke(_interpreter(model_path, experimental_delegates=[faulty_delegate]))
    conv_clean = clean.layers[0].value
    conv_faulty = faulty_delegate.layers[0].value
    assert clean.layers[0].op == "CONV_2D"
    assert np.array_equal(conv_faulty, conv_clean ^ np.int8(1)), "CONV_2D's value is not what NVDLA wrote"
    assert not np.array_equal(faulty, good), "the fault in NVDLA's output did not reach the graph output"


def test_limitation_rule_named_on_refusal(tmp_path: Path) -> None:
    """A layer the driver refuses stays on the CPU with the Limitation rule's name: an input row too wide
    for CBUF beside one kernel group (split H cannot go below one output row: CV16)."""
    rng = np.random.default_rng(2)
    g = Graph()
    x = g.tensor(_act("x", (1, 3, 2048, 64), 0.05, 3))
    out = _conv(g, rng, x, 0.05, _act("y", (1, 1, 2046, 8), 0.1, 0), (8, 3, 3, 64), VALID, (1, 1), (1, 1), 0)
    g.inputs, g.outputs = [x], [out]
    path = tmp_path / "wide.tflite"
    path.write_bytes(serialize(g))
    delegate = NvdlaDelegate(path)
    _interpreter(path, experimental_delegates=[delegate])
    [decision] = delegate.decisions
    assert not decision.delegated and "Convolution CV16" in (decision.reason or ""), decision.reason


def test_rtl_target_skips_conv_layers_by_unit_list(model_path: Path) -> None:
    model = read(model_path)
    x = np.zeros(model.tensors[model.operators[0].inputs[0]].shape, dtype=np.int8)
    plan = map_operator(model, model.operators[0], [x]).plan
    config = configs.load()
    reason = rtl_skip_reason(plan)
    if all(u in config.units for u in configs.CONV_UNITS):
        assert reason is None
    else:
        assert reason is not None and "CDMA" in reason and "SKIP" in reason


@pytest.mark.parametrize("scale, zp", [(0.05, 0), (0.07, 3), (0.11, 200)])
def test_quantize_to_uint8_on_sdp_every_input(tmp_path: Path, scale: float, zp: int) -> None:
    """QUANTIZE int8 -> uint8 (microWakeWord's last operator) as one SDP EW LUT layer writing the uint8
    bytes: equal to LiteRT on all 256 int8 inputs (wrapping past 127 included)."""
    g = Graph()
    x = g.tensor(_act("x", (1, 256), 0.05, -7))
    out = g.tensor(TensorSpec("u", (1, 256), dtype=UINT8, scales=(float(np.float32(scale)),),
                              zero_points=(zp,)))
    g.op(OpSpec(B.QUANTIZE, (x,), (out,)))
    g.inputs, g.outputs = [x], [out]
    path = tmp_path / "q.tflite"
    path.write_bytes(serialize(g))
    values = np.arange(-128, 128, dtype=np.int8).reshape(1, 256)
    results = []
    delegate = NvdlaDelegate(path)
    for kwargs in ({}, {"experimental_delegates": [delegate]}):
        interp = _interpreter(path, **kwargs)
        interp.set_tensor(interp.get_input_details()[0]["index"], values)
        interp.invoke()
        results.append(np.array(interp.get_tensor(interp.get_output_details()[0]["index"])))
    assert [d.delegated for d in delegate.decisions] == [True] and delegate.layers
    cpu, nvdla = results
    assert cpu.dtype == nvdla.dtype == np.uint8
    bad = np.flatnonzero(cpu != nvdla)
    assert not bad.size, f"input {values.reshape(-1)[bad[:4]]}: LiteRT {cpu.reshape(-1)[bad[:4]]}, " \
                         f"NVDLA {nvdla.reshape(-1)[bad[:4]]}"
    assert np.array_equal(nvdla.reshape(-1), delegate.layers[0].value.reshape(-1)), "not NVDLA's bytes"
