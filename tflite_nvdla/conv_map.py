"""TFLite int8 CONV_2D, FULLY_CONNECTED and DEPTHWISE_CONV_2D -> one convolution on the pipeline
(CDMA -> CSC -> CMAC -> CACC -> SDP on the fly) through the project's driver (models/conv/driver.py).

Zero points. TFLite accumulates sum((x - zp_in) * w) over the taps inside the input (padding adds nothing).
CDMA's input convertor cannot subtract zp_in: it saturates to int8, and x - zp_in spans -255..255. So the
input goes in raw, the layer pads with zp_in (CDMA's and CSC's pad value, in the input's domain), every tap
then contributes x * w with x = zp_in in the padding, and the accumulator is
    sum(x_padded * w) = TFLite's accumulator + zp_in * sum(w_c)
exactly (int32 in CACC, truncate 0, no rounding anywhere). The term is folded into the bias:
bias_c - zp_in * sum(w_c), added exactly by SDP (tflite_nvdla/conv_requant.py). Filters are symmetric
(zero point 0), as TFLite's int8 kernels require.

Geometry. Strides and dilations go to the layer as they are; SAME padding is TFLite's (half the total before,
the rest after); input columns or rows no window reaches (VALID, or a stride past the end) are not read:
CDMA reads the used width/height of the same cube (seed 001 CV2 wants every read input used).
FULLY_CONNECTED is a 1x1 convolution over a 1 x rows x C cube (C the input depth; one row for batch 1,
line and surface packed as CV12 wants for 1x1xC). DEPTHWISE_CONV_2D is one convolution whose kernel k
holds the depthwise filter of k's input channel (k // depth_multiplier) and zeros on every other channel:
C times the multiplies of a real depthwise engine, exact, one layer (NVDLA's convolution core has no
depthwise mode; a per-channel-group split would cut the waste to atomic C times but take a layer per group).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from models import configs
from models.common.driver import run_atom_bytes
from models.conv.cdma import pack_weights
from models.conv.driver import ConvLayer, SdpStage, conv_layer
from models.sdp.driver import operand_dma
from models.steps import MemWrite
from tflite_nvdla.conv_requant import BiasRange, ConvRequant, fit_conv
from tflite_nvdla.hw_plan import (
    INPUT_BASES,
    OUTPUT_BASE,
    SCRATCH_BASE,
    HwPlan,
    Step,
    WaitInterrupt,
    cube_dims,
    cube_writes,
    packed,
    surface,
)
from tflite_nvdla.reader import INT8, ModelInfo, OperatorInfo
from tflite_nvdla.requant import quant_of
from tflite_nvdla.sdp_plans import clamp_steps

ACCUMULATING = ("CONV_2D", "FULLY_CONNECTED", "DEPTHWISE_CONV_2D")
WEIGHT_BASE = INPUT_BASES[1]
OPERAND_BASE = INPUT_BASES[2]
OPERAND_BYTES = 1 << 16          # room for one block's per-channel operands
# the done interrupts of one convolution hardware layer (models/subsystem.py CONV_DONES, then SDP's)
LAYER_DONES = ("SDP", "CACC", "CDMA_DAT", "CDMA_WT")


class NotMapped(ValueError):
    """The operator stays on the CPU (the message says why)."""


@dataclass(frozen=True)
class ConvGeometry:
    """The layer's input as CDMA reads it and the layer's shape."""

    channels: int
    height: int             # the rows CDMA reads (the used ones)
    width: int
    kernel_h: int
    kernel_w: int
    stride: tuple[int, int]     # (x, y)
    dilation: tuple[int, int]
    pads: tuple[int, int, int, int]
    out_hw: tuple[int, int]


@dataclass(frozen=True)
class ConvFit:
    weights: NDArray[np.int64]      # [K, C, R, S]
    setting: ConvRequant
    exact: float
    max_lsb: int


_FITS: dict[int, tuple[ModelInfo, dict[int, ConvFit]]] = {}


def _int8_tensor(model: ModelInfo, index: int, what: str) -> None:
    t = model.tensors[index]
    if t.dtype != INT8 or not t.scales:
        raise NotMapped(f"{what} {t.name!r} is {t.type_name}{'' if t.scales else ' without quantization'}: "
                        "the convolution pipeline here runs int8 with TFLite's int8 quantization")


def weights_kcrs(model: ModelInfo, op: OperatorInfo) -> NDArray[np.int64]:
    """The operator's filter as the convolution's kernels [K, C, R, S]."""
    tw = model.tensors[op.inputs[1]]
    if tw.data is None:
        raise NotMapped(f"{op.name}: the filter is computed, not a constant (CDMA reads weights from memory "
                        "prepared once)")
    if any(z != 0 for z in tw.zero_points):
        raise NotMapped(f"{op.name}: filter zero points {list(tw.zero_points[:4])} (the folding assumes "
                        "TFLite's symmetric int8 filters)")
    w = tw.data.astype(np.int64).reshape(tw.shape)
    if op.name == "FULLY_CONNECTED":
        return w.reshape(w.shape[0], w.shape[1], 1, 1)
    if op.name == "CONV_2D":
        return w.transpose(0, 3, 1, 2)
    _, r, s, k = w.shape
    channels = model.tensors[op.inputs[0]].shape[3]
    mult = k // channels
    if mult * channels != k:
        raise NotMapped(f"DEPTHWISE_CONV_2D: {k} outputs from {channels} channels")
    full = np.zeros((k, channels, r, s), dtype=np.int64)
    full[np.arange(k), np.arange(k) // mult] = w[0].transpose(2, 0, 1)
    return full


def _span(size: int, out: int, kernel: int, stride: int, dilation: int, same: bool) -> tuple[int, int, int]:
    """(pad before, used input, pad after) along one axis, TFLite's SAME/VALID."""
    span = (kernel - 1) * dilation + 1
    needed = (out - 1) * stride + span
    before = max(needed - size, 0) // 2 if same else 0
    used = min(size, needed - before)
    return before, used, needed - before - used


def geometry(model: ModelInfo, op: OperatorInfo, kcrs: NDArray[np.int64]) -> ConvGeometry:
    ti, to = model.tensors[op.inputs[0]], model.tensors[op.outputs[0]]
    k, c, r, s = kcrs.shape
    if op.name == "FULLY_CONNECTED":
        rows = int(np.prod(ti.shape)) // c
        if rows * c != int(np.prod(ti.shape)):
            raise NotMapped(f"FULLY_CONNECTED: input {ti.shape} is not rows of {c}")
        return ConvGeometry(c, 1, rows, 1, 1, (1, 1), (1, 1), (0, 0, 0, 0), (1, rows))
    if len(ti.shape) != 4 or ti.shape[0] != 1:
        raise NotMapped(f"{op.name}: input {ti.shape} (batch-1 NHWC expected)")
    _, h, w, cin = ti.shape
    if cin != c:
        raise NotMapped(f"{op.name}: filter of {c} channels on {cin} input channels (grouped convolution)")
    sx, sy = op.options["stride"]  # type: ignore[misc]
    dx, dy = op.options["dilation"]  # type: ignore[misc]
    same = op.options["padding"] == "SAME"
    oh, ow = to.shape[1], to.shape[2]
    top, used_h, bottom = _span(h, oh, r, sy, dy, same)
    left, used_w, right = _span(w, ow, s, sx, dx, same)
    return ConvGeometry(c, used_h, used_w, r, s, (sx, sy), (dx, dy), (left, right, top, bottom), (oh, ow))


def conv_fit(model: ModelInfo, op: OperatorInfo) -> ConvFit:
    """The kernels and the SDP requantization of the operator, fitted once per model and operator."""
    held = _FITS.setdefault(id(model), (model, {}))[1]
    if op.index not in held:
        for i, what in ((op.inputs[0], "input"), (op.inputs[1], "filter"), (op.outputs[0], "output")):
            _int8_tensor(model, i, what)
        if not model.tensors[op.inputs[0]].per_tensor or not model.tensors[op.outputs[0]].per_tensor:
            raise NotMapped(f"{op.name}: a per-axis quantized input or output (one zero point per tensor "
                            "is what the pad value and the folded bias take)")
        if op.name == "FULLY_CONNECTED" and op.options.get("weights_format", 0) != 0:
            raise NotMapped("FULLY_CONNECTED: shuffled weights (weights_format "
                            f"{op.options['weights_format']}); the weight image is packed from plain [K, C]")
        if len(op.inputs) > 2 and op.inputs[2] >= 0 and model.tensors[op.inputs[2]].data is None:
            raise NotMapped(f"{op.name}: the bias is computed, not a constant (it is folded into SDP's "
                            "per-channel operands, prepared once)")
        kcrs = weights_kcrs(model, op)
        q = quant_of(model, op)
        zp_in = model.tensors[op.inputs[0]].zero_point
        folded = q.bias - zp_in * kcrs.sum(axis=(1, 2, 3))
        try:
            setting, exact, worst = fit_conv(type(q)(q.scales, folded, q.out_zp, q.clamp))
        except BiasRange as err:
            raise NotMapped(f"{op.name}: {err}") from None
        held[op.index] = ConvFit(kcrs, setting, exact, worst)
    return held[op.index]


def _operand_image(values: list[NDArray[np.int64]], lanes: int) -> NDArray[np.uint8]:
    """Per-kernel operands as SDP's RDMA reads them: per channel its values (ALU first, then MUL) as
    little-endian int16, the channels padded to whole surfaces."""
    channels = values[0].size
    padded = -(-channels // lanes) * lanes
    table = np.zeros((padded, len(values)), dtype="<i2")
    for k, v in enumerate(values):
        table[:channels, k] = v
    return table.reshape(-1).view(np.uint8)


def conv_plan(model: ModelInfo, op: OperatorInfo, x: NDArray[np.integer]) -> tuple[HwPlan, ConvFit]:
    """The operator's steps on the subsystem: input cube, weight image and SDP operands into memory, then
    each hardware layer's writes and its done interrupts (and the clamp layer an upper clamp needs)."""
    config = configs.load()
    fit = conv_fit(model, op)
    g = geometry(model, op, fit.weights)
    to = model.tensors[op.outputs[0]]
    k = fit.weights.shape[0]
    oh, ow = g.out_hw
    full_h = 1 if op.name == "FULLY_CONNECTED" else model.tensors[op.inputs[0]].shape[1]
    full_w = g.width if op.name == "FULLY_CONNECTED" else model.tensors[op.inputs[0]].shape[2]
    src = packed(INPUT_BASES[0], (g.channels, full_h, full_w))
    cube = np.asarray(x, dtype=np.int64).reshape(full_h, full_w, g.channels).transpose(2, 0, 1)
    steps: list[Step] = cube_writes(src, cube)
    steps.append(MemWrite(0, WEIGHT_BASE, pack_weights(fit.weights, config.conv.atomic_c,
                                                       config.conv.atomic_k)))
    s = fit.setting
    lanes = max(run_atom_bytes(), 32)
    bs_at, bn_at = OPERAND_BASE, OPERAND_BASE + OPERAND_BYTES
    steps.append(MemWrite(0, bs_at, _operand_image([s.bias_hi], lanes)))
    steps.append(MemWrite(0, bn_at, _operand_image([s.bias_lo, s.multipliers], lanes)))
    dst = packed(OUTPUT_BASE, (k, oh, ow))
    first = packed(SCRATCH_BASE, (k, oh, ow)) if s.upper_clamp else dst
    bs, bn, ew, cvt = s.blocks()
    one = packed(OPERAND_BASE, (1, 1, 1))    # strides of a per-kernel operand are unused
    brdma = operand_dma(surface(one), "alu", two_byte=True)
    nrdma = operand_dma(surface(packed(bn_at, (1, 1, 1))), "both", two_byte=True)
    layer = ConvLayer(width=g.width, height=g.height, channels=g.channels, kernels=k, kernel_w=g.kernel_w,
                      kernel_h=g.kernel_h, src=surface(src), weight_base=WEIGHT_BASE,
                      sdp=SdpStage(dst=surface(first), bs=bs, bn=bn, ew=ew, cvt=cvt, brdma=brdma,
                                   nrdma=nrdma),
                      stride=g.stride, dilation=g.dilation, pads=g.pads,
                      pad_value=model.tensors[op.inputs[0]].zero_point)
    program = conv_layer(layer)
    for hw in program.layers:
        steps += list(hw.writes)
        steps += [WaitInterrupt(unit, hw.group, f"{op.name} rows {hw.rows}: {unit} done")
                  for unit in LAYER_DONES]
    layout = (f"CDMA->CSC->CMAC->CACC (INT32, {program.mode}, {len(program.layers)} layer(s)) -> SDP BS bias "
              "+ BN bias/mult (per-channel operands)" + (" + ReLU" if s.relu else "") + " + CVT")
    layers = len(program.layers)
    if s.upper_clamp:
        group = (program.layers[-1].group + 1) % 2
        steps += clamp_steps(first, dst, (-128, s.clamp[1]), group=group)
        layout, layers = f"{layout}, then SDP clamp", layers + 1
    plan = HwPlan(steps, dst, tuple(to.shape), layout, layers)
    plan.notes.append(f"requant fit: {100 * fit.exact:.3f}% exact on the sampled accumulators, max "
                      f"{fit.max_lsb} LSB; folded bias, shift {s.bias_shift}, truncate {s.truncate}")
    if cube_dims(to.shape) != (k, oh, ow):
        raise NotMapped(f"{op.name}: output {to.shape} is not the {k}x{oh}x{ow} cube the layer writes")
    return plan, fit
