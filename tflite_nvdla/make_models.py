"""Writes the test models (python -m tflite_nvdla.make_models OUT_DIR [--seed N]): small int8 .tflite files
with random scales and zero points, deterministic for a seed.

- unary.tflite: QUANTIZE (requantization), RELU, RELU6, LEAKY_RELU, LOGISTIC, TANH, each on
  the graph input;
- binary.tflite: ADD and MUL of two inputs;
- pooling.tflite: MAX_POOL_2D and AVERAGE_POOL_2D, SAME and VALID, strides 1 and 2;
- postproc_chain.tflite: a small network's post-processing after its convolution (the conv output is the
  graph input): BN-folded scale (requantization), residual ADD, RELU6, 2x2 max pooling, 3x3 average pooling;
- prelu.tflite: PRELU with a per-channel alpha and with one alpha for the tensor;
- fused.tflite: ADD, MUL, MAX_POOL_2D and AVERAGE_POOL_2D with fused RELU / RELU6 / RELU_N1_TO_1;
- lrn.tflite: LOCAL_RESPONSE_NORMALIZATION between DEQUANTIZE and QUANTIZE (5 and 9 channels);
- broadcast.tflite: ADD and MUL with a per-channel or a scalar constant operand;
- cpu_fallbacks.tflite: what NVDLA cannot express (per-axis quantization, a scale ratio beyond the
  convertor, a width over PDP's line buffer, an operator without a mapping, a float operator).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

import numpy as np
import tflite
from flatbuffers.builder import Builder

from tflite_nvdla.graph_builder import FLOAT32, Graph, OpSpec, TensorSpec, serialize

B = tflite.BuiltinOperator
OPTIONS = tflite.BuiltinOptions


class _Quant:
    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, name: str, shape: tuple[int, ...], scale: float | None = None,
                 zp: int | None = None) -> TensorSpec:
        s = float(np.float32(scale if scale is not None else self.rng.uniform(0.01, 0.2)))
        z = int(zp if zp is not None else self.rng.integers(-100, 100))
        return TensorSpec(name, shape, scales=(s,), zero_points=(z,))


def _pool_options(padding: int, stride: int, kernel: int, activation: int = 0) -> Callable[[Builder], int]:
    def write(b: Builder) -> int:
        tflite.Pool2DOptionsStart(b)
        tflite.Pool2DOptionsAddFusedActivationFunction(b, activation)
        tflite.Pool2DOptionsAddPadding(b, padding)
        tflite.Pool2DOptionsAddStrideW(b, stride)
        tflite.Pool2DOptionsAddStrideH(b, stride)
        tflite.Pool2DOptionsAddFilterWidth(b, kernel)
        tflite.Pool2DOptionsAddFilterHeight(b, kernel)
        return tflite.Pool2DOptionsEnd(b)
    return write


def _leaky_options(alpha: float) -> Callable[[Builder], int]:
    def write(b: Builder) -> int:
        tflite.LeakyReluOptionsStart(b)
        tflite.LeakyReluOptionsAddAlpha(b, alpha)
        return tflite.LeakyReluOptionsEnd(b)
    return write


def _softmax_options(b: Builder) -> int:
    tflite.SoftmaxOptionsStart(b)
    tflite.SoftmaxOptionsAddBeta(b, 1.0)
    return tflite.SoftmaxOptionsEnd(b)


def _unary(g: Graph, code: int, src: int, out: TensorSpec, options: tuple[int, Callable[[Builder], int]]
           | None = None) -> int:
    t = g.tensor(out)
    g.op(OpSpec(code, (src,), (t,), *(options or (0, None))))
    g.outputs.append(t)
    return t


def _binary_options(code: int, activation: int) -> tuple[int, Callable[[Builder], int]]:
    """(options type, writer) of ADD / MUL with a fused activation."""
    def write(b: Builder) -> int:
        if code == B.ADD:
            tflite.AddOptionsStart(b)
            tflite.AddOptionsAddFusedActivationFunction(b, activation)
            return tflite.AddOptionsEnd(b)
        tflite.MulOptionsStart(b)
        tflite.MulOptionsAddFusedActivationFunction(b, activation)
        return tflite.MulOptionsEnd(b)
    return (OPTIONS.AddOptions if code == B.ADD else OPTIONS.MulOptions), write


def _pool(g: Graph, q: _Quant, code: int, src: int, shape: tuple[int, int, int, int], kernel: int,
          stride: int, same: bool, name: str, activation: int = 0) -> int:
    _, h, w, c = shape
    oh, ow = ((-(-h // stride), -(-w // stride)) if same
              else ((h - kernel) // stride + 1, (w - kernel) // stride + 1))
    spec = g.tensors[src]
    out = TensorSpec(name, (1, oh, ow, c), scales=spec.scales, zero_points=spec.zero_points)
    padding = tflite.Padding.SAME if same else tflite.Padding.VALID
    return _unary(g, code, src, out, (OPTIONS.Pool2DOptions, _pool_options(padding, stride, kernel,
                                                                              activation)))


def unary(q: _Quant) -> Graph:
    g = Graph()
    shape = (1, 8, 8, 16)
    x = g.tensor(q("input", shape))
    g.inputs = [x]
    _unary(g, B.QUANTIZE, x, q("requantized", shape))
    _unary(g, B.RELU, x, q("relu", shape))
    _unary(g, B.RELU6, x, q("relu6", shape, scale=q.rng.uniform(6 / 200, 6 / 100)))
    alpha = float(np.float32(q.rng.uniform(0.05, 0.3)))
    _unary(g, B.LEAKY_RELU, x, q("leaky_relu", shape), (OPTIONS.LeakyReluOptions, _leaky_options(alpha)))
    _unary(g, B.LOGISTIC, x, q("logistic", shape, scale=1 / 256, zp=-128))
    _unary(g, B.TANH, x, q("tanh", shape, scale=1 / 128, zp=0))
    return g


def binary(q: _Quant) -> Graph:
    g = Graph()
    shape = (1, 8, 8, 16)
    a, b = g.tensor(q("a", shape)), g.tensor(q("b", shape))
    g.inputs = [a, b]
    for code, name in ((B.ADD, "sum"), (B.MUL, "product")):
        t = g.tensor(q(name, shape))
        g.op(OpSpec(code, (a, b), (t,)))
        g.outputs.append(t)
    return g


def pooling(q: _Quant) -> Graph:
    g = Graph()
    shape = (1, 9, 11, 16)
    x = g.tensor(q("input", shape))
    g.inputs = [x]
    for code, kind in ((B.MAX_POOL_2D, "max"), (B.AVERAGE_POOL_2D, "avg")):
        _pool(g, q, code, x, shape, 3, 1, True, f"{kind}_3x3_s1_same")
        _pool(g, q, code, x, shape, 3, 2, True, f"{kind}_3x3_s2_same")
        _pool(g, q, code, x, shape, 2, 2, False, f"{kind}_2x2_s2_valid")
    return g


def postproc_chain(q: _Quant) -> Graph:
    g = Graph()
    shape = (1, 16, 16, 16)
    conv = g.tensor(q("conv_out", shape))
    skip = g.tensor(q("skip", shape))
    g.inputs = [conv, skip]
    bn = g.tensor(q("bn_scaled", shape))
    g.op(OpSpec(B.QUANTIZE, (conv,), (bn,)))
    res = g.tensor(q("residual_sum", shape))
    g.op(OpSpec(B.ADD, (bn, skip), (res,)))
    act = g.tensor(q("relu6", shape, scale=q.rng.uniform(6 / 250, 6 / 200), zp=-128))
    g.op(OpSpec(B.RELU6, (res,), (act,)))
    pooled = _pool(g, q, B.MAX_POOL_2D, act, shape, 2, 2, False, "max_2x2")
    g.outputs = [_pool(g, q, B.AVERAGE_POOL_2D, pooled, (1, 8, 8, 16), 3, 1, True, "avg_3x3_same")]
    return g


def prelu(q: _Quant) -> Graph:
    """PRELU with a per-channel alpha (1, 1, C), as Keras' PReLU(shared_axes=[1, 2]) converts, and with one
    alpha for the whole tensor (shape (1,)); alphas mostly in [0, 0.4], one channel negative."""
    g = Graph()
    shape = (1, 8, 8, 16)
    x = g.tensor(q("input", shape))
    g.inputs = [x]
    for name, alpha_shape in (("per_channel", (1, 1, shape[3])), ("per_tensor", (1,))):
        n = int(np.prod(alpha_shape))
        values = q.rng.uniform(0.0, 0.4, n)
        values[0] = -0.1 if n > 1 else values[0]
        a_scale = float(np.float32(0.4 / 127))
        a_zp = int(q.rng.integers(-20, 20))
        data = np.clip(np.round(values / a_scale) + a_zp, -128, 127).astype(np.int8).reshape(alpha_shape)
        alpha = g.tensor(TensorSpec(f"alpha_{name}", alpha_shape, scales=(a_scale,), zero_points=(a_zp,),
                                    data=data))
        out = g.tensor(q(f"prelu_{name}", shape))
        g.op(OpSpec(B.PRELU, (x, alpha), (out,), version=1))
        g.outputs.append(out)
    return g


def fused(q: _Quant) -> Graph:
    """ADD, MUL and pooling with fused RELU / RELU6 / RELU_N1_TO_1 (output scales that make each clamp
    bite: 6 / 1 real units inside the int8 range)."""
    g = Graph()
    shape = (1, 8, 8, 16)
    a, b = g.tensor(q("a", shape)), g.tensor(q("b", shape))
    g.inputs = [a, b]
    act = tflite.ActivationFunctionType
    for code, kind in ((B.ADD, "sum"), (B.MUL, "product")):
        for activation, name, scale in ((act.RELU, "relu", None), (act.RELU6, "relu6", 8 / 255),
                                        (act.RELU_N1_TO_1, "relu_n1_to_1", 3 / 255)):
            t = g.tensor(q(f"{kind}_{name}", shape, scale=scale))
            g.op(OpSpec(code, (a, b), (t,), *_binary_options(code, activation)))
            g.outputs.append(t)
    pool_shape = (1, 9, 11, 16)
    x = g.tensor(q("pool_input", pool_shape, scale=16 / 255, zp=0))
    g.inputs.append(x)
    _pool(g, q, B.MAX_POOL_2D, x, pool_shape, 3, 2, True, "max_relu6", act.RELU6)
    _pool(g, q, B.AVERAGE_POOL_2D, x, pool_shape, 3, 1, True, "avg_relu", act.RELU)
    _pool(g, q, B.AVERAGE_POOL_2D, x, pool_shape, 2, 2, False, "avg_relu_n1_to_1", act.RELU_N1_TO_1)
    return g


def _lrn_options(radius: int, bias: float, alpha: float, beta: float) -> Callable[[Builder], int]:
    def write(b: Builder) -> int:
        tflite.LocalResponseNormalizationOptionsStart(b)
        tflite.LocalResponseNormalizationOptionsAddRadius(b, radius)
        tflite.LocalResponseNormalizationOptionsAddBias(b, bias)
        tflite.LocalResponseNormalizationOptionsAddAlpha(b, alpha)
        tflite.LocalResponseNormalizationOptionsAddBeta(b, beta)
        return tflite.LocalResponseNormalizationOptionsEnd(b)
    return write


def lrn(q: _Quant) -> Graph:
    """LOCAL_RESPONSE_NORMALIZATION as an int8 model holds it (TFLite's LRN is float only): DEQUANTIZE ->
    LRN -> QUANTIZE, with 5 channels (AlexNet's beta 0.75) and with 9 (beta 0.5); alphas that make the
    normalization matter on these scales."""
    g = Graph()
    shape = (1, 8, 8, 16)
    x = g.tensor(q("input", shape, scale=0.05))
    g.inputs = [x]
    for radius, bias, alpha, beta in ((2, 1.0, 0.01, 0.75), (4, 2.0, 0.005, 0.5)):
        f = g.tensor(TensorSpec(f"dequantized_r{radius}", shape, FLOAT32))
        g.op(OpSpec(B.DEQUANTIZE, (x,), (f,)))
        n = g.tensor(TensorSpec(f"lrn_r{radius}", shape, FLOAT32))
        g.op(OpSpec(B.LOCAL_RESPONSE_NORMALIZATION, (f,), (n,), OPTIONS.LocalResponseNormalizationOptions,
                    _lrn_options(radius, bias, alpha, beta), version=1))
        _unary(g, B.QUANTIZE, n, q(f"lrn_r{radius}_int8", shape, scale=0.04))
    return g


def broadcast(q: _Quant) -> Graph:
    """ADD and MUL with a broadcast second operand: a per-channel constant ((C,) as a bias, (1, 1, 1, C)),
    a scalar constant ((1,) and ()), and a per-channel operand given first (ADD commutes)."""
    g = Graph()
    shape = (1, 8, 8, 16)
    x = g.tensor(q("input", shape))
    g.inputs = [x]
    cases = ((B.ADD, "bias", (16,), False), (B.MUL, "channel_scale", (1, 1, 1, 16), False),
             (B.ADD, "scalar_add", (1,), False), (B.MUL, "scalar_mul", (), False),
             (B.ADD, "bias_first", (16,), True))
    for code, name, const_shape, first in cases:
        spec = q(f"{name}_const", const_shape)
        spec.data = q.rng.integers(-128, 128, const_shape).astype(np.int8)
        c = g.tensor(spec)
        out = g.tensor(q(name, shape))
        g.op(OpSpec(code, (c, x) if first else (x, c), (out,)))
        g.outputs.append(out)
    return g


def cpu_fallbacks(q: _Quant) -> Graph:
    g = Graph()
    shape = (1, 4, 4, 8)
    x = g.tensor(q("input", shape))
    per_axis = g.tensor(TensorSpec("per_axis", shape, scales=tuple(0.05 + 0.01 * i for i in range(8)),
                                   zero_points=(0,) * 8, quantized_dimension=3))
    g.inputs = [x]
    g.op(OpSpec(B.QUANTIZE, (x,), (per_axis,)))
    _unary(g, B.QUANTIZE, x, q("huge_ratio", shape, scale=1e-6))
    wide_shape = (1, 1, 2000, 8)
    wide = g.tensor(q("wide", wide_shape))
    g.inputs.append(wide)
    _pool(g, q, B.MAX_POOL_2D, wide, wide_shape, 1, 1, False, "wide_pool")
    softmax = q("softmax", shape, scale=1 / 256, zp=-128)
    _unary(g, B.SOFTMAX, x, softmax, (OPTIONS.SoftmaxOptions, _softmax_options))
    _unary(g, B.DEQUANTIZE, x, TensorSpec("dequantized", shape, FLOAT32))
    g.outputs.append(per_axis)
    return g


MODELS = {"unary": unary, "binary": binary, "pooling": pooling, "postproc_chain": postproc_chain,
          "cpu_fallbacks": cpu_fallbacks, "prelu": prelu, "fused": fused,
          "lrn": lrn, "broadcast": broadcast}


def write_models(out_dir: Path, seed: int = 2024) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for i, (name, build) in enumerate(MODELS.items()):
        path = out_dir / f"{name}.tflite"
        path.write_bytes(serialize(build(_Quant(seed + i)), f"tflite_nvdla {name}"))
        paths.append(path)
    return paths


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    for p in write_models(args.out_dir, args.seed):
        print(p)
