"""TFLite int8 operators -> NVDLA layers through the project's drivers (models/sdp/driver.py, driver_cdp.py,
models/pdp/driver.py, driver_conv.py through tflite_nvdla/conv_map.py); an operator NVDLA cannot run raises
`Unsupported` with the reason."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from models.errors import ConfigError
from models.pdp.driver import pdp_layer
from models.sdp.datapath import ew_convert
from tflite_nvdla import baseline_vta as vta
from tflite_nvdla import sdp_fit
from tflite_nvdla import tflite_arith as ta
from tflite_nvdla.conv_map import ACCUMULATING, NotMapped, conv_plan
from tflite_nvdla.hw_plan import (
    INPUT_BASES,
    OUTPUT_BASE,
    SCRATCH_BASE,
    HwPlan,
    ShapeError,
    cube_dims,
    cube_writes,
    layer_steps,
    packed,
    surface,
    to_cube,
)
from tflite_nvdla.lrn_map import NotLrnPattern, lrn_pattern, lrn_plan
from tflite_nvdla.pdp_split import average_pool_layers, same_pads
from tflite_nvdla.reader import ACTIVATIONS, INT8, ModelInfo, OperatorInfo, TensorInfo
from tflite_nvdla.sdp_plans import clamp_steps, clamps, sdp_plan

UNARY_ACTIVATIONS = {"RELU": "RELU", "RELU6": "RELU6", "RELU_N1_TO_1": "RELU_N1_TO_1",
                     "RELU_0_TO_1": "RELU_0_TO_1"}
SUPPORTED = ("ADD", "MUL", "PRELU", "LOCAL_RESPONSE_NORMALIZATION",
             "QUANTIZE", "RELU", "RELU6", "RELU_N1_TO_1", "RELU_0_TO_1", "LEAKY_RELU",
             "LOGISTIC", "TANH", "AVERAGE_POOL_2D", "MAX_POOL_2D", *ACCUMULATING)


class Unsupported(Exception):
    """The operator stays on the CPU; str() is the reason."""


@dataclass
class Mapped:
    plan: HwPlan
    fitted_exact: float | None
    """Share of the operator's whole input domain where the fitted setting equals TFLite (SDP ops)."""
    baseline: NDArray[np.int64] | None
    """Seed 004's 16-bit multiplier / shift result on the same inputs (None: seed 004 has no such op)."""
    output_tensor: int | None = None
    """The tensor the plan's output replaces when it is not the operator's own output (an LRN pattern's
    QUANTIZE output)."""


def operator_inputs(model: ModelInfo, op: OperatorInfo) -> list[int]:
    """The tensors map_operator takes the values of: the operator's inputs, or for an LRN the int8 tensor
    its pattern's DEQUANTIZE reads (the CDP layer replaces the whole pattern)."""
    if op.name == "LOCAL_RESPONSE_NORMALIZATION":
        try:
            return [lrn_pattern(model, op)[0].inputs[0]]
        except NotLrnPattern:
            pass
    return [i for i in op.inputs if i >= 0]


def _int8(t: TensorInfo, what: str) -> tuple[float, int]:
    if t.dtype != INT8:
        raise Unsupported(f"{what} {t.name!r} is {t.type_name}: NVDLA's datapath here is int8")
    if not t.scales:
        raise Unsupported(f"{what} {t.name!r} has no quantization parameters")
    if not t.per_tensor:
        raise Unsupported(f"{what} {t.name!r} is quantized per axis ({len(t.scales)} scales): this unit "
                          "takes one scale and zero point per tensor")
    return t.scale, t.zero_point


def _fused_clamp(op: OperatorInfo, qo: tuple[float, int]) -> tuple[int, int]:
    """The int8 clamp of the operator's fused activation (TFLite's CalculateActivationRangeQuantized)."""
    activation = ACTIVATIONS.get(op.options.get("activation", 0), "NONE")
    if activation not in ("NONE", *UNARY_ACTIVATIONS):
        raise Unsupported(f"fused {activation}: not a clamp (TFLite's int8 kernels fuse only clamps)")
    return ta.activation_range(activation, *qo)


def as_tensor(value: NDArray[np.integer], tensor: TensorInfo) -> NDArray[np.integer]:
    """A plan's int8 output as the tensor's type: a UINT8 tensor's bytes are what SDP wrote (the uint8
    value read as int8, see _quantize_uint8), viewed, not converted."""
    return value.view(np.uint8) if tensor.type_name == "UINT8" else value


def _quantize_uint8(ti: TensorInfo, to: TensorInfo, x: NDArray[np.integer]) -> Mapped:
    """QUANTIZE int8 -> uint8 (the microWakeWord models' last operator): SDP writes int8, so the layer
    writes each uint8 result's byte: the EW LUT holds, at every int8 input, TFLite's uint8 output read as
    int8 (u - 256 above 127; not monotone, which a 257-entry step-1 LUT does not mind)."""
    qi = _int8(ti, "input")
    if not to.scales or not to.per_tensor:
        raise Unsupported(f"output {to.name!r}: uint8 without one scale and zero point")
    u = np.clip(ta.requantize(ta.INT8_DOMAIN - qi[1], qi[0] / to.scale) + to.zero_point, 0, 255)
    table = np.where(u > ta.INT8_MAX, u - 256, u)
    setting = sdp_fit.lut_function(qi[1], 0, table)
    plan = sdp_plan(setting, x, None, to.shape, "SDP EW LUT (uint8 bytes)")
    return Mapped(plan, setting.exact_fraction, None)


def _unary(name: str, op: OperatorInfo, ti: TensorInfo, to: TensorInfo,
           x: NDArray[np.integer]) -> Mapped:
    if name == "QUANTIZE" and to.type_name == "UINT8" and ti.dtype == INT8:
        return _quantize_uint8(ti, to, x)
    qi, qo = _int8(ti, "input"), _int8(to, "output")
    if name in ("LOGISTIC", "TANH"):
        fn = (lambda v: 1.0 / (1.0 + np.exp(-v))) if name == "LOGISTIC" else np.tanh
        table = ta.float_lut_table(fn, *qi, *qo)
        setting = sdp_fit.lut_function(qi[1], qo[1], table)
        baseline = vta.function16(fn, x, qi, qo)
    else:
        f32 = float(np.float32(qi[0]) / np.float32(qo[0]))
        ratio = qi[0] / qo[0] if name == "QUANTIZE" else f32
        clamp = ta.activation_range(UNARY_ACTIVATIONS.get(name, "NONE"), qo[0], qo[1])
        negative = None
        if name == "LEAKY_RELU":
            negative = float(np.float32(qi[0]) * np.float32(op.options["alpha"]) / np.float32(qo[0]))
        table = ta.requant_table(qi[0], qi[1], qo[0], qo[1], clamp, negative)
        setting = sdp_fit.requantization(qi[1], qo[1], ratio, clamp, table, negative)
        d = np.asarray(x, dtype=np.int64) - qi[1]
        base = vta.requant16(d, ratio, qo[1])
        if negative is not None:
            base = np.where(d >= 0, base, vta.requant16(d, negative, qo[1]))
        baseline = np.clip(base, *clamp)
    layout = "SDP EW LUT" if setting.lut is not None else "SDP BS/BN/EW + CVT"
    return Mapped(sdp_plan(setting, x, None, to.shape, layout), setting.exact_fraction, baseline)


def _prelu(op: OperatorInfo, ti: TensorInfo, ta_: TensorInfo, to: TensorInfo,
           x: NDArray[np.integer], alpha: NDArray[np.integer]) -> Mapped:
    qi, qa, qo = _int8(ti, "input"), _int8(ta_, "alpha"), _int8(to, "output")
    channels = cube_dims(ti.shape)[0]
    if ta_.data is None:
        raise Unsupported("PRELU with a computed alpha: the SDP takes alpha as a register or a constant "
                          "operand in memory")
    shape = tuple(ta_.shape) or (1,)
    if any(n != 1 for n in shape[:-1]) or shape[-1] not in (1, channels):
        raise Unsupported(f"PRELU alpha of shape {shape}: the mapping takes one alpha or one per channel")
    per_channel = np.broadcast_to(np.asarray(alpha, dtype=np.int64).reshape(-1), (channels,))
    grid = np.broadcast_to(ta.INT8_DOMAIN, (channels, ta.INT8_DOMAIN.size))
    target = ta.prelu_reference(grid, per_channel[:, None], qi, qa, qo)
    ratio = float(np.float32(qi[0]) / np.float32(qo[0]))
    ratio2 = float(np.float32(qi[0]) * np.float32(qa[0]) / np.float32(qo[0]))
    setting = sdp_fit.prelu(qi[1], qo[1], ratio, ratio2 * (per_channel - qa[1]), target)
    d = np.asarray(x, dtype=np.int64) - qi[1]
    a = per_channel.reshape((1,) * (d.ndim - 1) + (channels,)) - qa[1]
    baseline = np.clip(np.where(d >= 0, vta.requant16(d, ratio, qo[1]), vta.requant16(d * a, ratio2, qo[1])),
                       ta.INT8_MIN, ta.INT8_MAX)
    layout = ("SDP EW LUT" if setting.lut is not None else
              "SDP BS + BN PReLU (per-channel operand) + CVT" if setting.bn_operand is not None
              else "SDP BS + BN PReLU + CVT")
    return Mapped(sdp_plan(setting, x, None, to.shape, layout), setting.exact_fraction, baseline)


def _second_operand(name: str, t1: TensorInfo, t2: TensorInfo, x1: NDArray[np.integer],
                    x2: NDArray[np.integer]) -> tuple[TensorInfo, TensorInfo, NDArray[np.integer],
                                                      NDArray[np.integer], str]:
    """(full input, second input, their values, how the second is read): "element" (a cube like the first),
    "kernel" (one value per channel, or one for all, from memory once per kernel) or "register" (a constant
    scalar). ADD and MUL commute, so a broadcast first input becomes the second."""
    if tuple(t1.shape) != tuple(t2.shape) and int(np.prod(t1.shape)) < int(np.prod(t2.shape)):
        t1, t2, x1, x2 = t2, t1, x2, x1
    if tuple(t1.shape) == tuple(t2.shape):
        return t1, t2, x1, x2, "element"
    channels = cube_dims(t1.shape)[0]
    shape = tuple(t2.shape) or (1,)
    if any(n != 1 for n in shape[:-1]) or shape[-1] not in (1, channels) or len(shape) > len(t1.shape):
        raise Unsupported(f"broadcast {t1.shape} x {t2.shape}: the SDP operand is per element, per channel "
                          "or one value")
    if int(np.prod(shape)) == 1 and t2.data is not None:
        return t1, t2, x1, x2, "register"
    return t1, t2, x1, np.broadcast_to(np.asarray(x2).reshape(-1), (channels,)), "kernel"


def _register_operand(setting: sdp_fit.SdpSetting, value: int) -> sdp_fit.SdpSetting:
    """The setting with its EW memory operand replaced by the register holding the converted constant (the
    EW input convertor's own arithmetic, models.sdp.datapath.ew_convert, so the result is the same)."""
    ew = setting.ew
    if setting.operand == "alu":
        converted = int(ew_convert(np.int64(value), ew.alu_cvt))
        ew = dataclasses.replace(ew, alu_from_mem=False, alu_operand=converted)
    else:
        converted = int(ew_convert(np.int64(value), ew.mul_cvt))
        ew = dataclasses.replace(ew, mul_from_mem=False, mul_operand=converted)
    return dataclasses.replace(setting, ew=ew, operand=None)


def _binary(name: str, op: OperatorInfo, t1: TensorInfo, t2: TensorInfo, to: TensorInfo,
            x1: NDArray[np.integer], x2: NDArray[np.integer]) -> Mapped:
    t1, t2, x1, x2, how = _second_operand(name, t1, t2, x1, x2)
    q1, q2, qo = _int8(t1, "input 1"), _int8(t2, "input 2"), _int8(to, "output")
    clamp = _fused_clamp(op, qo)
    # a constant second operand is fitted on its own values only (every x1 with each of them)
    second = np.unique(np.asarray(t2.data, dtype=np.int64)) if t2.data is not None else ta.INT8_DOMAIN
    g1, g2 = np.meshgrid(ta.INT8_DOMAIN, second, indexing="ij")
    # the baseline sees x2 broadcast as TFLite does (the last axis is the channel)
    x2_full = np.broadcast_to(np.asarray(x2).reshape(-1) if how != "element" else x2, np.shape(x1))
    if name == "ADD":
        # the sum is formed in the EW ALU, the last arithmetic stage: a clamp layer follows (sdp_plans)
        target = ta.add_reference(g1, g2, q1, q2, qo)
        setting = sdp_fit.add(q1[1], q2[1], qo[1], q1[0] / qo[0], q2[0] / qo[0], target, second)
        baseline = vta.add16(x1, x2_full, q1, q2, qo)
        layer_clamp = clamp
    else:
        target = ta.mul_reference(g1, g2, q1, q2, qo, clamp)
        setting = sdp_fit.mul(q1[1], q2[1], qo[1], q1[0] * q2[0] / qo[0], target, clamp, second)
        d = (np.asarray(x1, dtype=np.int64) - q1[1]) * (np.asarray(x2_full, dtype=np.int64) - q2[1])
        baseline = vta.requant16(d, q1[0] * q2[0] / qo[0], qo[1])
        layer_clamp = (ta.INT8_MIN, ta.INT8_MAX)   # folded into the EW ALU / LUT
    if how == "register":
        setting = _register_operand(setting, int(np.asarray(x2).reshape(-1)[0]))
    operand = {"element": "memory operand", "kernel": "per-channel operand", "register": "register operand"}
    layout = f"SDP BS + EW {'ALU' if name == 'ADD' else 'MUL'} ({operand[how]}) + CVT"
    if name == "MUL" and clamps(clamp):
        layout = layout.replace(" + CVT", " + EW clamp + CVT")
    plan = sdp_plan(setting, x1, None if how == "register" else x2, to.shape, layout, layer_clamp,
                    per_kernel_operand=how == "kernel")
    return Mapped(plan, setting.exact_fraction, np.clip(baseline, *clamp))


def _pool(name: str, op: OperatorInfo, ti: TensorInfo, to: TensorInfo, x: NDArray[np.integer]) -> Mapped:
    qi, qo = _int8(ti, "input"), _int8(to, "output")
    if qi != qo:
        raise Unsupported("pooling with different input and output quantization (TFLite requires equal)")
    # PDP has no output clamp: a fused activation becomes an SDP clamp layer on the pooled cube
    clamp = _fused_clamp(op, qo)
    if len(ti.shape) != 4:
        raise Unsupported(f"pooling input of rank {len(ti.shape)} (NHWC expected)")
    c, h, w = cube_dims(ti.shape)
    _, oh, ow, _ = to.shape
    kernel, stride = op.options["filter"], op.options["stride"]
    pads = same_pads((w, h), kernel, stride) if op.options["padding"] == "SAME" else (0, 0, 0, 0)
    src, dst = packed(INPUT_BASES[0], (c, h, w)), packed(OUTPUT_BASE, (c, oh, ow))
    pooled = packed(SCRATCH_BASE, (c, oh, ow)) if clamps(clamp) else dst
    steps = cube_writes(src, to_cube(x))
    if name == "MAX_POOL_2D":
        # PDP's max pooling lets only real inputs compete, as TFLite's does: one layer, padding included.
        # VALID drops the inputs past the last window; PDP wants every input used, so it reads only the
        # columns and rows the windows cover (the same cube, its own strides).
        used_w = min(w, (ow - 1) * stride[0] + kernel[0] - pads[0] - pads[1])
        used_h = min(h, (oh - 1) * stride[1] + kernel[1] - pads[2] - pads[3])
        prog = pdp_layer(used_w, used_h, c, method="max", kernel=kernel, stride=stride, pads=pads,
                         src=surface(src), dst=surface(pooled))
        steps += layer_steps(prog.writes, "PDP", "PDP max")
        layout, layers, baseline = "PDP max", 1, None
    else:
        programs = average_pool_layers(src, pooled, kernel, stride, pads)
        for prog in programs:
            steps += layer_steps(prog.writes, "PDP", "PDP average")
        sums, counts = _window_sums(to_cube(x), kernel, stride, pads, (oh, ow))
        baseline = np.stack([vta.requant16(sums[:, i], 1.0 / counts[i], 0) for i in range(counts.size)], 1)
        baseline = np.clip(baseline.reshape(c, oh, ow).transpose(1, 2, 0).reshape(to.shape), *clamp)
        layout = f"PDP average ({len(programs)} layers: windows by valid size)"
        layers = len(programs)
    if clamps(clamp):
        steps += clamp_steps(pooled, dst, clamp, group=0)
        layout, layers = f"{layout}, then SDP clamp", layers + 1
    return Mapped(HwPlan(steps, dst, to.shape, layout, layers), None, baseline)


def _window_sums(cube: NDArray[np.int64], kernel: tuple[int, int], stride: tuple[int, int],
                 pads: tuple[int, int, int, int], out_hw: tuple[int, int]) -> tuple[NDArray[np.int64],
                                                                                       NDArray[np.int64]]:
    """Per output position: the sum of the valid inputs [c, positions] and their count (the baseline's
    exact integer inputs, the same TFLite's kernel averages)."""
    c, h, w = cube.shape
    sums, counts = [], []
    for oy in range(out_hw[0]):
        y0 = oy * stride[1] - pads[2]
        ys = slice(max(y0, 0), min(y0 + kernel[1], h))
        for ox in range(out_hw[1]):
            x0 = ox * stride[0] - pads[0]
            xs = slice(max(x0, 0), min(x0 + kernel[0], w))
            window = cube[:, ys, xs]
            sums.append(window.reshape(c, -1).sum(1))
            counts.append(window.shape[1] * window.shape[2])
    return np.stack(sums, 1), np.asarray(counts)


def map_operator(model: ModelInfo, op: OperatorInfo, inputs: Sequence[NDArray[np.integer]]) -> Mapped:
    """The operator as an HwPlan over its input tensors' values; Unsupported with the reason otherwise."""
    name = op.name
    if name not in SUPPORTED:
        raise Unsupported(f"{name}: no NVDLA mapping (convolution pipeline, SDP, CDP, PDP) for this operator")
    tensors = [model.tensors[i] for i in op.inputs if i >= 0]
    out = model.tensors[op.outputs[0]]
    try:
        if name == "LOCAL_RESPONSE_NORMALIZATION":
            plan, output = lrn_plan(model, op, inputs[0])
            return Mapped(plan, None, None, output)
        if name in ACCUMULATING:
            plan, fit = conv_plan(model, op, inputs[0])
            return Mapped(plan, fit.exact, None)
        if name == "PRELU":
            return _prelu(op, tensors[0], tensors[1], out, inputs[0], inputs[1])
        if name in ("ADD", "MUL"):
            return _binary(name, op, tensors[0], tensors[1], out, inputs[0], inputs[1])
        if name in ("AVERAGE_POOL_2D", "MAX_POOL_2D"):
            return _pool(name, op, tensors[0], out, inputs[0])
        return _unary(name, op, tensors[0], out, inputs[0])
    except ConfigError as err:
        raise Unsupported(f"the driver refuses the layer: {err}") from None
    except (sdp_fit.NotExpressible, ShapeError, NotLrnPattern, NotMapped) as err:
        raise Unsupported(str(err)) from None
