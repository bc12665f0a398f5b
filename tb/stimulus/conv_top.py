"""Random INT8 direct-convolution layers for the top (tb/tests/test_top_conv.py): a layer description the
driver
(models/conv/driver.py) accepts, its input cube and kernels, and the replay steps that load them, program
every hardware layer and wait for its SDP interrupt (tb/bench_target.py scores each layer against the model).

Ranges (the configuration's atoms): mostly small layers (W, H 1..12, C 1..3 atomic C, K 1..2 atomic K + 2, C
and K mostly not multiples of the atoms, kernels 1..5 x 1..5, strides 1..3, dilation 1..3 in 40 %), any INT8
pad value, right/bottom padding consuming the input exactly, truncation 0..31, the input convertor on 30 %,
skip-release bits, SDP on the fly with BS/BN/EW register operands and its output convertor in half; a layer
aimed at a functional coverage bin still missing (tb/conv_coverage.py, AIM of the draws) reaches the rest of
the registers' legal range: W up to 8192, C up to 8192, K past two atomic K, kernels of 8+, strides 1..8,
dilation up to 32, pads to the fields' limits (31 left/top, 63 right/bottom), CBUF's partial-weight and
split-H modes, a short last channel block packed in CBUF. Operands are drawn over the whole INT8 range with
extremes mixed in. `cbuf_limit_layer` makes an input that fills its data banks exactly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from models import configs
from models.common.cube import CubeLayout
from models.common.driver import Surface
from models.common.memory import Memory
from models.conv.cdma import pack_weights
from models.conv.driver import ConvLayer, ConvProgram, InputCvt, SdpStage, conv_layer, entry_per_slice
from models.errors import ConfigError
from models.sdp.driver import IDENTITY_CVT, EwBlock, OutputCvt, XBlock
from models.steps import MemCheck, MemWrite, RegWrite, Step, WaitInterrupt
from models.subsystem import ModelTarget
from tb.conv_coverage import sdp_goals

SRC, WEIGHTS, DST = 0x10000, 0x80000, 0x200000


def _values(rng: random.Random, shape: tuple[int, ...]) -> np.ndarray:
    n = int(np.prod(shape))
    if rng.random() < 0.2:
        vals = [rng.choice((-128, 127, -127, 0)) for _ in range(n)]
    else:
        vals = [rng.randint(-128, 127) for _ in range(n)]
    return np.array(vals, dtype=np.int64).reshape(shape)


AIM = 0.7          # how often a missing coverage bin decides the layer (tb/conv_coverage.py)


@dataclass
class Draw:
    """A layer's free choices before the padding is fitted: sizes, kernel, stride, dilation, left/top pads
    and the right/bottom pads wanted (None: whatever the output size gives)."""

    w: int
    h: int
    c: int
    k: int
    kw: int
    kh: int
    sx: int
    sy: int
    dx: int
    dy: int
    pl: int | None = None
    pt: int | None = None
    pr: int | None = None
    pb: int | None = None


def _axis(rng: random.Random, size: int, kernel: int, stride: int, dil: int, lo_pad: int | None,
          hi_pad: int | None, limits: tuple[int, int]) -> tuple[int, int, int, int] | None:
    """(input size, left pad, right pad, output size) with the right pad consuming the input exactly
    ((out - 1) * stride + span == left + size + right, right < span, both within the fields), or None."""
    span = (kernel - 1) * dil + 1
    lo = rng.randint(0, min(span - 1, limits[0])) if lo_pad is None else lo_pad
    if hi_pad is not None:                     # the right pad wanted: the input size follows from it
        out = 1 if rng.random() < 0.5 else rng.randint(1, 4)
        size = (out - 1) * stride + span - lo - hi_pad
        hi = hi_pad
    else:
        out = (lo + size - span) // stride + 1
        if out < 1:
            return None
        out += rng.randint(0, 1) if (lo + size - span) % stride else 0   # a partial window made whole
        hi = (out - 1) * stride + span - lo - size
    if size < 1 or out < 1 or not (0 <= lo < span and 0 <= hi < span) or lo > limits[0] or hi > limits[1]:
        return None
    return size, lo, hi, out


def _draw(rng: random.Random, goal: str | None) -> Draw:
    config = configs.load()
    ac, ak, atom = config.conv.atomic_c, config.conv.atomic_k, config.atom_bytes
    geo = config.conv
    d = Draw(rng.randint(1, 12), rng.randint(1, 12), rng.randint(1, 3 * ac), rng.randint(1, 2 * ak + 2),
             rng.randint(1, 5), rng.randint(1, 5), rng.randint(1, 3), rng.randint(1, 3), 1, 1)
    if rng.random() < 0.4:
        d.dx, d.dy = rng.randint(1, 3), rng.randint(1, 3)
    if goal is None:
        return d
    words = goal.split()
    if goal == "C 8192" or goal == "C > 512":
        d.c = 8192 if goal == "C 8192" else rng.randint(513, 2048)
        d.w, d.h, d.kw, d.kh = rng.randint(1, 2), rng.randint(1, 2), rng.randint(1, 2), rng.randint(1, 2)
        d.k, d.sx, d.sy, d.dx, d.dy = rng.randint(1, ak), 1, 1, 1, 1
    elif goal in ("W 8192", "W >= 1024"):
        d.w = 8192 if goal == "W 8192" else rng.randint(1024, 2048)
        d.h, d.c, d.k, d.kh, d.kw = 1, rng.randint(1, atom), rng.randint(1, ak), 1, rng.randint(1, 3)
        d.dy = 1
    elif goal == "C < atomic C":
        d.c = rng.randint(1, ac - 1)
    elif goal == "C a multiple of atomic C":
        d.c = ac * rng.randint(1, 2)
    elif goal == "K 1":
        d.k = 1
    elif goal == "K a multiple of atomic K":
        d.k = ak * rng.randint(1, 2)
    elif goal == "K > 2 atomic K":
        d.k = rng.randint(2 * ak + 1, 3 * ak + 3)
    elif goal in ("W 1", "H 1"):
        d.w, d.kw, d.sx = (1, 1, 1) if goal == "W 1" else (d.w, d.kw, d.sx)
        d.h, d.kh, d.sy = (1, 1, 1) if goal == "H 1" else (d.h, d.kh, d.sy)
    elif goal == "kernel 1x1":
        d.kw = d.kh = 1
    elif goal == "kernel side >= 8":
        d.kw, d.w = rng.randint(8, 11), rng.randint(8, 14)
    elif words[0] == "stride":
        d.sx, d.sy = (int(words[2]), d.sy) if words[1] == "x" else (d.sx, int(words[2]))
        d.w, d.h = rng.randint(d.sx, 16), rng.randint(d.sy, 16)
    elif words[0] == "dilation":
        value = 32 if words[2] == "32" else rng.randint(2, 31) if words[2] == "2-31" else 1
        if words[1] == "x":
            d.dx, d.kw, d.w = value, rng.randint(2, 3), rng.randint(1, 40)
        else:
            d.dy, d.kh, d.h = value, rng.randint(2, 3), rng.randint(1, 40)
    elif words[0] == "pad":
        side, value = words[1], words[2]
        limit = 31 if side in ("left", "top") else 63
        want = limit if value == str(limit) else 0 if value == "0" else rng.randint(1, limit - 1)
        kernel, dil = (3, 32) if want >= 31 else (rng.randint(2, 3), rng.randint(1, 4) + want // 2)
        if side in ("left", "right"):
            d.kw, d.dx, d.sx = kernel, dil, rng.randint(1, 3)
            d.pl, d.pr = (want, None) if side == "left" else (None, want)
        else:
            d.kh, d.dy, d.sy = kernel, dil, rng.randint(1, 3)
            d.pt, d.pb = (want, None) if side == "top" else (None, want)
        if side == "left":
            d.w = rng.randint(1, 40)
        elif side == "top":
            d.h = rng.randint(1, 40)
    elif goal == "partial weights":
        # more weights than CBUF holds beside the data: K kernels of C x 3 x 3 over a few banks' worth
        d.c, d.kw, d.kh, d.w, d.h, d.sx, d.sy, d.dx, d.dy = 2 * ac, 3, 3, 3, 3, 1, 1, 1, 1
        bank_bytes = geo.cbuf_bank_entries * geo.cbuf_entry_bytes
        d.k = -(-(geo.cbuf_banks - 1) * bank_bytes // (d.c * 9)) + rng.randint(1, ak)
    elif goal == "split H":
        # an input larger than CBUF: 32 positions of four channel blocks a row, rows past every bank
        d.w, d.c, d.kw, d.kh, d.sx, d.sy, d.dx, d.dy = 32, 4 * ac, 1, rng.randint(1, 3), 1, 1, 1, 1
        eps = entry_per_slice(d.w, d.c, geo, atom)
        d.h = geo.cbuf_banks * geo.cbuf_bank_entries // eps + rng.randint(1, 8)
        d.k = rng.randint(1, ak)
    elif goal == "short last block packed":
        per_entry = geo.cbuf_entry_bytes // atom
        d.c = ac * rng.randint(0, 1) + atom * rng.randint(1, per_entry - 1) - rng.randint(0, atom - 1)
    return d


def _sdp_stage(rng: random.Random, goal: str | None, dst: Surface) -> SdpStage:
    """SDP on the fly with register operands: BS, BN (PReLU), EW where the configuration has it, the
    output convertor; `goal` (a tb/conv_coverage.py SDP bin) forces its feature."""
    if goal is None and rng.random() < 0.5 or goal == "SDP bypassed":
        return SdpStage(dst=dst)
    on = {b: rng.random() < 0.5 or (goal or "").startswith(b) for b in ("BS", "BN", "EW")}
    on["EW"] = on["EW"] and configs.load().sdp.ew

    def xblock(name: str) -> XBlock:
        prelu = name == "BN" and (goal == "BN PReLU" or rng.random() < 0.2)
        alu = goal == f"{name} ALU" or rng.random() < 0.6
        mul = goal in (f"{name} MUL", f"{name} PReLU") or rng.random() < 0.6
        return XBlock(bypass=not on[name], alu_bypass=not alu or prelu, alu_algo=rng.randint(0, 2),
                      alu_shift=rng.choice([0, rng.randint(0, 8), rng.randint(0, 63)]),
                      alu_operand=rng.randint(-32768, 32767), mul_bypass=not mul, mul_prelu=prelu,
                      mul_shift=rng.choice([0, rng.randint(0, 8), rng.randint(0, 63)]),
                      mul_operand=rng.choice([rng.randint(-32768, 32767), rng.randint(-8, 8)]),
                      relu_bypass=goal != f"{name} ReLU" and rng.random() < 0.6)

    ew = EwBlock()
    if on["EW"]:
        alu = goal == "EW ALU" or rng.random() < 0.6
        mul = goal == "EW MUL" or rng.random() < 0.6
        ew = EwBlock(bypass=False, alu_bypass=not alu, alu_algo=rng.randint(0, 2),
                     alu_operand=rng.randint(-(1 << 20), 1 << 20), mul_bypass=not mul,
                     mul_operand=rng.randint(-(1 << 12), 1 << 12), truncate=rng.randint(0, 20))
    cvt = IDENTITY_CVT
    if goal == "output cvt" or rng.random() < 0.5:
        cvt = OutputCvt(rng.randint(-1000, 1000), rng.choice([1, rng.randint(-300, 300)]), rng.randint(0, 24))
    return SdpStage(dst=dst, bs=xblock("BS"), bn=xblock("BN"), ew=ew, cvt=cvt)


def random_layer(rng: random.Random, aim: Sequence[str] = ()) -> ConvLayer:
    """A random layer; most of the time (AIM) one of the coverage bins in `aim` decides part of it."""
    config = configs.load()
    atom = config.atom_bytes
    goal = rng.choice(list(aim)) if aim and rng.random() < AIM else None
    while True:
        d = _draw(rng, goal)
        x = _axis(rng, d.w, d.kw, d.sx, d.dx, d.pl, d.pr, (31, 63))
        y = _axis(rng, d.h, d.kh, d.sy, d.dy, d.pt, d.pb, (31, 63))
        if x is None or y is None:
            continue
        (w, pl, pr, out_w), (h, pt, pb, out_h) = x, y
        if (w, h) == (1, 1) or rng.random() < 0.5 or w * h > 4096:
            src = Surface(SRC, w * atom, w * atom * h)
        else:
            line = w * atom + atom * rng.randint(0, 2)
            src = Surface(SRC, line, line * h + atom * rng.randint(0, 4))
        dst = Surface(DST, out_w * atom, out_w * atom * out_h)
        cvt = None
        if goal in ("cvt on", "cvt negative scale", "cvt truncate >= 16", "cvt 16-bit offset") \
                or rng.random() < 0.3:
            big = goal == "cvt 16-bit offset" or rng.random() < 0.1
            scale = rng.randint(-3, 3) if goal != "cvt negative scale" else rng.randint(-300, -1)
            shift = rng.randint(16, 20) if goal == "cvt truncate >= 16" else rng.randint(0, 2)
            if goal == "cvt truncate >= 16":
                scale = rng.choice((-1, 1)) * rng.randint(1 << 10, 1 << 15)
            cvt = InputCvt(rng.randint(-32768, 32767) if big else rng.randint(-40, 40), scale, shift)
        if goal and goal.startswith("truncate "):
            truncate = int(goal.split()[1])
        else:
            truncate = rng.randint(0, 31 if rng.random() < 0.2 else 11)
        skip = (goal == "skip data release" or rng.random() < 0.15,
                goal == "skip weight release" or rng.random() < 0.15)
        if goal == "no skip release":
            skip = (False, False)
        sdp = _sdp_stage(rng, goal if goal in sdp_goals() else None, dst)
        return ConvLayer(w, h, d.c, d.k, d.kw, d.kh, src=src, weight_base=WEIGHTS, sdp=sdp,
                         stride=(d.sx, d.sy), dilation=(d.dx, d.dy), pads=(pl, pr, pt, pb),
                         pad_value=rng.randint(-128, 127), truncate=truncate, cvt=cvt, skip_release=skip)


def cbuf_limit_layer(rng: random.Random, rest: int) -> ConvLayer:
    """A layer whose input fills its data banks exactly at NVIDIA's ENTRY_PER_SLICE (DATA_BANK * entries a
    bank = ENTRY_PER_SLICE * H), the weights in the bank right after: C = one CBUF entry's memory atoms plus
    `rest` more (1 .. atoms an entry - 1: a short last block that NVIDIA packs several pixels an entry; at one
    atom an entry, two whole blocks), W and H found to fit exactly; 3x3 kernels, padding 1, atomic K + 1
    kernels (two kernel groups)."""
    config = configs.load()
    geo, atom = config.conv, config.atom_bytes
    per_entry = geo.cbuf_entry_bytes // atom
    channels = (per_entry + (rest if per_entry > 1 else 1)) * atom - rng.randint(0, atom - 1)
    for banks in range(1, geo.cbuf_banks):
        for w in range(24, 0, -1):
            eps = entry_per_slice(w, channels, geo, atom)
            h, left = divmod(banks * geo.cbuf_bank_entries, eps)
            if not left and 2 <= h <= 64:
                line = w * atom
                src = Surface(SRC, line, line * h)
                dst = Surface(DST, w * atom, w * atom * h)
                return ConvLayer(w, h, channels, geo.atomic_k + 1, 3, 3, src=src, weight_base=WEIGHTS,
                                 sdp=SdpStage(dst=dst), pads=(1, 1, 1, 1), pad_value=rng.randint(-128, 127),
                                 truncate=rng.randint(4, 9))
    raise AssertionError(f"no W, H fill whole CBUF banks with {channels} channels at {config.name}")


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


__all__ = ["DST", "SRC", "WEIGHTS", "ConfigError", "cbuf_limit_layer", "describe", "layer_steps",
           "output_check", "random_layer"]
