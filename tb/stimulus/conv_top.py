"""Random INT8 direct-convolution layers for the top (tb/test_top_conv.py): a layer description the driver
(models/driver_conv.py) accepts, its input cube and kernels, and the replay steps that load them, program
every hardware layer and wait for its SDP interrupt (tb/bench_target.py scores each layer against the model).

Ranges (the configuration's atoms): W, H 1..12, C 1..3 atomic C, K 1..2 atomic K + 2 (C and K mostly not
multiples of the atoms), kernels 1..5 x 1..5, strides 1..3, dilation 1..3 (40 % of layers), left/top
padding up to the dilated kernel - 1, right/bottom padding consuming the input exactly, any INT8 pad value,
truncation 0..31 (sums of small layers mostly need less than 12), the input convertor on 30 % of layers,
operands drawn over the whole INT8 range with extremes mixed in.
"""

from __future__ import annotations

import random

import numpy as np

from models import configs
from models.cdma import pack_weights
from models.cube import CubeLayout
from models.driver_common import Surface
from models.driver_conv import ConvLayer, ConvProgram, InputCvt, SdpStage, conv_layer
from models.errors import ConfigError
from models.memory import Memory
from models.steps import MemCheck, MemWrite, RegWrite, Step, WaitInterrupt
from models.subsystem import ModelTarget

SRC, WEIGHTS, DST = 0x10000, 0x80000, 0x200000


def _values(rng: random.Random, shape: tuple[int, ...]) -> np.ndarray:
    n = int(np.prod(shape))
    if rng.random() < 0.2:
        vals = [rng.choice((-128, 127, -127, 0)) for _ in range(n)]
    else:
        vals = [rng.randint(-128, 127) for _ in range(n)]
    return np.array(vals, dtype=np.int64).reshape(shape)


def random_layer(rng: random.Random) -> ConvLayer:
    config = configs.load()
    atom, ac, ak = config.atom_bytes, config.conv.atomic_c, config.conv.atomic_k
    while True:
        w, h = rng.randint(1, 12), rng.randint(1, 12)
        c, k = rng.randint(1, 3 * ac), rng.randint(1, 2 * ak + 2)
        kw, kh = rng.randint(1, 5), rng.randint(1, 5)
        sx, sy = rng.randint(1, 3), rng.randint(1, 3)
        dx, dy = (rng.randint(1, 3), rng.randint(1, 3)) if rng.random() < 0.4 else (1, 1)
        span_w, span_h = (kw - 1) * dx + 1, (kh - 1) * dy + 1
        pl, pt = rng.randint(0, span_w - 1), rng.randint(0, span_h - 1)
        out_w, out_h = (pl + w - span_w) // sx + 1, (pt + h - span_h) // sy + 1
        pr, pb = (out_w - 1) * sx + span_w - pl - w, (out_h - 1) * sy + span_h - pt - h
        if min(out_w, out_h) < 1 or not (0 <= pr < span_w and 0 <= pb < span_h):
            continue
        if (w, h) == (1, 1) or rng.random() < 0.5:
            src = Surface(SRC, w * atom, w * atom * h)
        else:
            line = w * atom + atom * rng.randint(0, 2)
            src = Surface(SRC, line, line * h + atom * rng.randint(0, 4))
        dst = Surface(DST, out_w * atom, out_w * atom * out_h)
        cvt = None
        if rng.random() < 0.3:
            cvt = InputCvt(rng.randint(-40, 40), rng.randint(-3, 3), rng.randint(0, 2))
        truncate = rng.randint(0, 31 if rng.random() < 0.2 else 11)
        return ConvLayer(w, h, c, k, kw, kh, src=src, weight_base=WEIGHTS, sdp=SdpStage(dst=dst),
                         stride=(sx, sy), dilation=(dx, dy), pads=(pl, pr, pt, pb),
                         pad_value=rng.randint(-128, 127), truncate=truncate, cvt=cvt)


def layer_steps(rng: random.Random, layer: ConvLayer) -> tuple[ConvProgram, list[Step]]:
    """The driver's program for the layer and the steps that run it (raises ConfigError if refused)."""
    config = configs.load()
    prog = conv_layer(layer)
    data = _values(rng, (layer.channels, layer.height, layer.width))
    weights = _values(rng, (layer.kernels, layer.channels, layer.kernel_h, layer.kernel_w))
    mem = Memory()
    src = CubeLayout(layer.src.base, layer.src.line_stride, layer.src.surface_stride, layer.width,
                     layer.height, layer.channels, config.atom_bytes)
    src.write(mem, data)
    span = src.surface_stride * (-(-layer.channels // config.atom_bytes)) + src.line_stride * layer.height
    image = pack_weights(weights, config.conv.atomic_c, config.conv.atomic_k)
    steps: list[Step] = [MemWrite(0, layer.src.base, mem.read(layer.src.base, span)),
                         MemWrite(0, layer.weight_base, image)]
    for n, hw in enumerate(prog.layers):
        steps += list(hw.writes)
        steps.append(WaitInterrupt("SDP", hw.group, f"hardware layer {n} of {len(prog.layers)}"))
    return prog, steps


def output_check(layer: ConvLayer, steps: list[Step], label: str) -> MemCheck:
    """The whole output cube the model makes of the steps (every hardware layer of a split layer), as a check
    step: a run scored once at its end rather than per hardware layer."""
    dst = layer.sdp.dst
    assert dst is not None, "the layer's output goes to memory"
    model = ModelTarget(configs.load())
    for step in steps:
        if isinstance(step, MemWrite):
            model.mem_write(step.mem, step.addr, step.data)
        elif isinstance(step, RegWrite):
            model.reg_write(step.unit, step.reg, step.value)
        elif isinstance(step, WaitInterrupt):
            model.wait_interrupt(step.unit, step.group)
    size = dst.surface_stride * -(-layer.kernels // configs.load().atom_bytes)
    return MemCheck(0, dst.base, model.mem_read(0, dst.base, size), f"{label}: output cube")


def describe(layer: ConvLayer, prog: ConvProgram) -> str:
    return (f"{layer.width}x{layer.height}x{layer.channels} * {layer.kernels} of "
            f"{layer.kernel_w}x{layer.kernel_h} "
            f"stride {layer.stride} dilation {layer.dilation} pads {layer.pads} pad {layer.pad_value} "
            f"truncate {layer.truncate} cvt {layer.cvt} ({prog.mode}, {len(prog.layers)} hw layers)")


__all__ = ["DST", "SRC", "WEIGHTS", "ConfigError", "describe", "layer_steps", "output_check", "random_layer"]
