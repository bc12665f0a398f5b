"""Random deconvolutions for the top (tb/tests/test_top_deconv.py): a layer description the driver
(models/rubik/driver.py deconv_layer) accepts, its input cube and kernels, the replay steps (load the input
and the split kernels' images, every convolution hardware layer waiting for its SDP done, the contract waiting
for RUBIK's), and a transposed convolution computed from the definition, independently of the model.

Ranges: W, H 1..5, C 1..80, K 1..40 (across nv_full's atomic C 64 and K 32), kernels 1..5 x 1..5, strides
1..4 each way, CACC truncate 0..10, operands over the whole INT8 range."""

from __future__ import annotations

import random

import numpy as np

from models import configs
from models.common.cube import CubeLayout
from models.common.driver import Surface
from models.common.memory import Memory
from models.rubik.driver import DeconvLayer, DeconvProgram, deconv_layer
from models.steps import MemWrite, Step

SRC, WEIGHTS, MID, DST = 0x10000, 0x80000, 0x200000, 0x800000


def random_deconv(rng: random.Random) -> DeconvLayer:
    atom = configs.load().atom_bytes
    w, h, c, k = rng.randint(1, 5), rng.randint(1, 5), rng.randint(1, 80), rng.randint(1, 40)
    kw, kh, sx, sy = rng.randint(1, 5), rng.randint(1, 5), rng.randint(1, 4), rng.randint(1, 4)
    line = (w + rng.randint(0, 1)) * atom
    src = Surface(SRC, line, line * h + atom * rng.randint(0, 2))
    if (w, h) == (1, 1):   # a 1x1 cube is line and surface packed (CV12)
        src = Surface(SRC, atom, atom)
    out_w, out_h = (w + -(-kw // sx) - 1) * sx, (h + -(-kh // sy) - 1) * sy
    dline = (out_w + rng.randint(0, 1)) * atom
    dst = Surface(DST, dline, dline * out_h + atom * rng.randint(0, 2))
    return DeconvLayer(w, h, c, k, kw, kh, (sx, sy), src=src, weight_base=WEIGHTS, mid_base=MID, dst=dst,
                       truncate=rng.randint(0, 10))


def deconv_steps(rng: random.Random, layer: DeconvLayer
                 ) -> tuple[DeconvProgram, np.ndarray, np.ndarray, list[Step]]:
    """(the driver's program, the input [C, H, W], the kernels [K, C, R, S], the steps that run it)."""
    config = configs.load()
    prog = deconv_layer(layer)
    data = np.array([rng.randint(-128, 127) for _ in range(layer.channels * layer.height * layer.width)],
                    dtype=np.int64).reshape(layer.channels, layer.height, layer.width)
    weights = np.array([rng.randint(-128, 127) for _ in range(layer.kernels * layer.channels * layer.kernel_h
                                                               * layer.kernel_w)],
                       dtype=np.int64).reshape(layer.kernels, layer.channels, layer.kernel_h, layer.kernel_w)
    mem = Memory()
    src = CubeLayout(layer.src.base, layer.src.line_stride, layer.src.surface_stride, layer.width,
                     layer.height, layer.channels, config.atom_bytes)
    src.write(mem, data)
    lo, hi = src.extent()
    return prog, data, weights, [MemWrite(0, lo, mem.read(lo, hi - lo)), *prog.steps(weights)]


def _cacc_round(v: int, t: int) -> int:
    """CACC's output stage (NV_NVDLA_CACC_CALC_int8.v): floor shift, +1 when the guide bit is set and the
    value is positive or one of the 15 bits below the guide is set; INT32 saturation."""
    if t:
        guide = (v >> (t - 1)) & 1
        window = (v >> max(t - 16, 0)) & ((1 << min(t - 1, 15)) - 1)
        v = (v >> t) + (1 if guide and (v >= 0 or window) else 0)
    return max(-(1 << 31), min((1 << 31) - 1, v))


def transposed_conv(layer: DeconvLayer, data: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """[K, out_h, out_w] of the contracted cube: every kernel tap (r, s) adds its products with the whole
    input at rows r + iy*sy, columns s + ix*sx; then CACC's rounding and SDP's INT8 saturation."""
    sx, sy = layer.stride
    ow, oh = layer.out_size
    acc = np.zeros((layer.kernels, oh, ow), dtype=np.int64)
    for r in range(layer.kernel_h):
        for s in range(layer.kernel_w):
            taps = np.einsum("kc,chw->khw", weights[:, :, r, s], data)
            acc[:, r:r + (layer.height - 1) * sy + 1:sy, s:s + (layer.width - 1) * sx + 1:sx] += taps
    rounded = np.vectorize(lambda v: _cacc_round(int(v), layer.truncate), otypes=[np.int64])(acc)
    return np.clip(rounded, -128, 127)


def describe(layer: DeconvLayer) -> str:
    return (f"{layer.width}x{layer.height}x{layer.channels} -> {layer.kernels} kernels "
            f"{layer.kernel_w}x{layer.kernel_h} stride {layer.stride} truncate {layer.truncate}")


__all__ = ["DST", "MID", "SRC", "WEIGHTS", "deconv_steps", "describe", "random_deconv", "transposed_conv"]
