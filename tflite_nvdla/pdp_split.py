"""TFLite pooling geometry on PDP: SAME padding, and average pooling cut into PDP layers by window size.

TFLite's int8 average divides each window's sum by the number of real inputs it covers; PDP divides by the
kernel size (padded positions add the pad value). So the output is cut into rectangles whose windows all
cover the same number of real columns and rows; each rectangle is one VALID PDP layer (kernel = that
window, no padding) reading a sub-cube of the input in place and writing its rectangle of the output in
place (both through the cubes' own strides).
"""

from __future__ import annotations

from dataclasses import dataclass

from models.common.cube import CubeLayout
from models.common.driver import Surface, run_atom_bytes
from models.pdp.driver import PdpProgram, pdp_layer


def same_pads(size_wh: tuple[int, int], kernel: tuple[int, int],
              stride: tuple[int, int]) -> tuple[int, int, int, int]:
    """(left, right, top, bottom) of TFLite's SAME padding (the smaller half before)."""
    pads = []
    for size, k, s in zip(size_wh, kernel, stride, strict=True):
        out = -(-size // s)
        total = max((out - 1) * s + k - size, 0)
        pads.append((total // 2, total - total // 2))
    return pads[0][0], pads[0][1], pads[1][0], pads[1][1]


@dataclass(frozen=True)
class Run:
    """Consecutive outputs along one axis whose windows cover `size` real inputs starting at `first_in`."""

    first_out: int
    count: int
    first_in: int
    size: int


def axis_runs(n_in: int, n_out: int, kernel: int, stride: int, pad_before: int) -> list[Run]:
    runs: list[Run] = []
    for o in range(n_out):
        start = o * stride - pad_before
        lo, hi = max(start, 0), min(start + kernel, n_in)
        last = runs[-1] if runs else None
        if last and last.size == hi - lo and last.first_in + last.count * stride == lo:
            runs[-1] = Run(last.first_out, last.count + 1, last.first_in, last.size)
        else:
            runs.append(Run(o, 1, lo, hi - lo))
    return runs


def _sub(layout: CubeLayout, row: int, col: int) -> Surface:
    return Surface(layout.base + row * layout.line_stride + col * run_atom_bytes(), layout.line_stride,
                   layout.surface_stride)


def average_pool_layers(src: CubeLayout, dst: CubeLayout, kernel: tuple[int, int], stride: tuple[int, int],
                        pads: tuple[int, int, int, int]) -> list[PdpProgram]:
    cols = axis_runs(src.width, dst.width, kernel[0], stride[0], pads[0])
    rows = axis_runs(src.height, dst.height, kernel[1], stride[1], pads[2])
    layers = []
    for r in rows:
        for c in cols:
            width = (c.count - 1) * stride[0] + c.size
            height = (r.count - 1) * stride[1] + r.size
            layers.append(pdp_layer(width, height, src.channels, method="average", kernel=(c.size, r.size),
                                    stride=stride, src=_sub(src, r.first_in, c.first_in),
                                    dst=_sub(dst, r.first_out, c.first_out),
                                    # the consumer pointer moves to the other group after each layer
                                    group=len(layers) % 2))
    return layers
