"""LOCAL_RESPONSE_NORMALIZATION on CDP.

TFLite has no int8 LRN kernel (local_response_norm.cc takes float32 only), so an int8 model holds the
pattern DEQUANTIZE (int8 -> float) -> LRN (float) -> QUANTIZE (float -> int8). The whole pattern is one CDP
layer on the int8 tensors, compared with LiteRT's float kernel output quantized by its QUANTIZE:

- input convertor: x9 = x - zp_in (DATIN_OFFSET zp_in, scale 1: exact, |x9| <= 255 fits its 9 bits), so the
  real input is s_in * x9;
- square sum over 2 * radius + 1 channels (CDP's 3/5/7/9), channels past either end count 0, as in TFLite;
- the LUT on the integer sum S holds E(S) = (bias + alpha * s_in^2 * S)^-beta * s_in / s_out * 2^k, the
  output scale ratio folded into the entries, k as large as the 16-bit entries allow;
- the product x9 * E(S) (25 bits), output convertor (v + zp_out * 2^k) >> k rounded: zp_out added exactly.

The window is TensorFlow's, channels [c - radius, c + radius], which LiteRT's builtin (optimized) kernel
sums too; LiteRT's reference kernel (reference_ops::LocalResponseNormalization) sums [c - radius,
c + radius), one channel fewer, so against it the outputs differ by what the last channel's square changes
(the report says so in a note; CDP's windows are centred, 3/5/7/9 channels, and cannot drop that channel).

What is not exact: the LUT interpolates E between its entries (a hybrid table searched for the smallest
maximum error by models/lut/program.py), entries are rounded to integers, and TFLite rounds a float32
result: an output near a rounding boundary can land one LSB off, and more where E's interpolation error
times |x9| exceeds half an LSB. The report counts it.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from numpy.typing import NDArray

from models.cdp.driver import Convertor, cdp_layer
from models.lut.program import LutProgram, program_function
from tflite_nvdla.hw_plan import (
    INPUT_BASES,
    OUTPUT_BASE,
    HwPlan,
    cube_dims,
    cube_writes,
    layer_steps,
    packed,
    surface,
    to_cube,
)
from tflite_nvdla.reader import FLOAT32, INT8, ModelInfo, OperatorInfo

ENTRY_MAX = (1 << 15) - 1
SHIFT_MAX = 16          # DATOUT_OFFSET (25-bit signed) holds zp_out * 2^k up to this k
LOCAL_SIZES = (3, 5, 7, 9)


class NotLrnPattern(ValueError):
    """The LRN is not DEQUANTIZE -> LRN -> QUANTIZE between per-tensor int8 tensors (the message says how)."""


def _producer(model: ModelInfo, tensor: int) -> OperatorInfo | None:
    return next((o for o in model.operators if tensor in o.outputs), None)


def _consumers(model: ModelInfo, tensor: int) -> list[OperatorInfo]:
    return [o for o in model.operators if tensor in o.inputs]


def lrn_pattern(model: ModelInfo, op: OperatorInfo) -> tuple[OperatorInfo, OperatorInfo]:
    """(DEQUANTIZE, QUANTIZE) around a float LRN; NotLrnPattern says what breaks the pattern."""
    deq = _producer(model, op.inputs[0])
    users = _consumers(model, op.outputs[0])
    if deq is None or deq.name != "DEQUANTIZE" or model.tensors[deq.inputs[0]].dtype != INT8:
        raise NotLrnPattern("LRN input does not come from a DEQUANTIZE of an int8 tensor")
    if len(users) != 1 or users[0].name != "QUANTIZE" or model.tensors[users[0].outputs[0]].dtype != INT8:
        raise NotLrnPattern("LRN output does not go to one QUANTIZE to int8 (only a float consumer)")
    if model.tensors[op.inputs[0]].dtype != FLOAT32:
        raise NotLrnPattern("LRN on a non-float tensor")
    for t in (model.tensors[deq.inputs[0]], model.tensors[users[0].outputs[0]]):
        if not t.per_tensor:
            raise NotLrnPattern(f"{t.name!r} is not quantized per tensor")
    return deq, users[0]


def absorbed_operators(model: ModelInfo) -> dict[int, int]:
    """DEQUANTIZE / QUANTIZE operators that are part of an LRN pattern: {index: the LRN's index}."""
    out: dict[int, int] = {}
    for op in model.operators:
        if op.name == "LOCAL_RESPONSE_NORMALIZATION":
            try:
                deq, quant = lrn_pattern(model, op)
            except NotLrnPattern:
                continue
            if len(_consumers(model, deq.outputs[0])) == 1:
                out[deq.index] = op.index
            out[quant.index] = op.index
    return out


def _scale(bias: float, alpha: float, beta: float, s_in: float, s: float) -> float:
    return float(np.power(bias + alpha * s_in * s_in * s, -beta))


@functools.lru_cache(maxsize=64)
def _lut(bias: float, alpha: float, beta: float, s_in: float, s_max: int, out_scale: float) -> LutProgram:
    """The LUT of (bias + alpha s_in^2 S)^-beta: seconds of search, the same for every run of one LRN (a
    delegate maps it at every invoke), so kept."""
    def scale(s: NDArray[np.float64]) -> NDArray[np.float64]:
        return np.power(bias + alpha * s_in * s_in * np.asarray(s, dtype=np.float64), -beta)

    return program_function(scale, 0.0, float(s_max), unit="CDP", in_scale=1.0, out_scale=out_scale,
                            le_mode="auto", layout="hybrid", domain=(0.0, None))


def lrn_plan(model: ModelInfo, op: OperatorInfo, x: NDArray[np.integer]) -> tuple[HwPlan, int]:
    """The CDP layer of the pattern on the int8 input x; returns the plan and the int8 output tensor it
    replaces (the QUANTIZE's output)."""
    deq, quant = lrn_pattern(model, op)
    ti, to = model.tensors[deq.inputs[0]], model.tensors[quant.outputs[0]]
    radius, bias = int(op.options["radius"]), float(op.options["bias"])
    alpha, beta = float(op.options["alpha"]), float(op.options["beta"])
    size = 2 * radius + 1
    if size not in LOCAL_SIZES:
        raise NotLrnPattern(f"LRN radius {radius}: CDP sums 3, 5, 7 or 9 channels (radius 1 to 4)")
    s_in, zp_in, s_out, zp_out = ti.scale, ti.zero_point, to.scale, to.zero_point
    if bias <= 0:
        raise NotLrnPattern(f"LRN bias {bias}: the LUT needs (bias + alpha * sum)^-beta finite at sum 0")
    s_max = size * 255 * 255
    ratio = s_in / s_out

    peak = max(_scale(bias, alpha, beta, s_in, 0.0), _scale(bias, alpha, beta, s_in, float(s_max))) * ratio
    k = min(SHIFT_MAX, math.floor(math.log2(ENTRY_MAX / peak)))
    if k < 0:
        raise NotLrnPattern(f"LRN output scale ratio {ratio:.3g}: the LUT's 16-bit entries cannot hold it")
    lut = _lut(bias, alpha, beta, s_in, s_max, ratio * (1 << k))
    c, h, w = dims = cube_dims(ti.shape)
    src, dst = packed(INPUT_BASES[0], dims), packed(OUTPUT_BASE, dims)
    prog = cdp_layer(w, h, c, local_size=size, datin=Convertor(zp_in, 1, 0),
                     datout=Convertor(-zp_out << k, 1, k), lut=lut, src=surface(src), dst=surface(dst))
    layout = f"CDP LRN ({size} channels, LUT x^-beta; DEQUANTIZE/QUANTIZE in its convertors)"
    steps = cube_writes(src, to_cube(x)) + layer_steps(prog.writes, "CDP", layout)
    note = (f"CDP sums channels [c-{radius}, c+{radius}] (TensorFlow's LRN, LiteRT's builtin kernel); "
            f"LiteRT's reference kernel sums [c-{radius}, c+{radius}) (one channel fewer)")
    return HwPlan(steps, dst, to.shape, layout, 1, [note]), quant.outputs[0]
