"""The int32 accumulators of TFLite's int8 CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED, computed on the
host (numpy), without bias: what the convolution pipeline (CDMA..CACC) will hand SDP on the fly once it lands.
Until then these are the SDP requantization's inputs (tflite_nvdla/requant.py). Layout: [channels, positions]
with positions the output's (height, width) in order, or the FC batch rows."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from tflite_nvdla.reader import ModelInfo, OperatorInfo

IntArray = NDArray[np.int64]
ACCUMULATED = ("CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED")


class NotAccumulated(ValueError):
    """The operator's form is not one computed here (the message says why)."""


def _pads(size: int, out: int, kernel: int, stride: int, dilation: int, same: bool) -> int:
    """TFLite's leading padding (ComputePaddingHeightWidth): half the total, rounded down."""
    if not same:
        return 0
    effective = (kernel - 1) * dilation + 1
    return max((out - 1) * stride + effective - size, 0) // 2


def _windows(x: IntArray, kh: int, kw: int, out_hw: tuple[int, int], options: dict[str, object]
             ) -> list[tuple[int, int, IntArray]]:
    """Per filter tap (ky, kx): the input values it meets at each output position [oh, ow, c] (0 in the
    padding: inputs are already zero-point subtracted)."""
    _, h, w, c = x.shape
    sw, sh = options["stride"]  # type: ignore[misc]
    dw, dh = options["dilation"]  # type: ignore[misc]
    same = options["padding"] == "SAME"
    oh, ow = out_hw
    top, left = _pads(h, oh, kh, sh, dh, same), _pads(w, ow, kw, sw, dw, same)
    padded = np.zeros((h + 2 * kh * dh + oh * sh, w + 2 * kw * dw + ow * sw, c), dtype=np.int64)
    padded[top:top + h, left:left + w] = x[0]
    taps = []
    for ky in range(kh):
        for kx in range(kw):
            y0, x0 = ky * dh, kx * dw
            taps.append((ky, kx, padded[y0:y0 + oh * sh:sh, x0:x0 + ow * sw:sw]))
    return taps


def accumulators(model: ModelInfo, op: OperatorInfo, x: NDArray[np.integer]) -> IntArray:
    """sum((x - zp_in) * w) per output channel and position, as int64 [channels, positions]."""
    if op.name not in ACCUMULATED:
        raise NotAccumulated(f"{op.name}: not a convolution or fully connected operator")
    ti, tw, to = (model.tensors[op.inputs[0]], model.tensors[op.inputs[1]], model.tensors[op.outputs[0]])
    if tw.data is None:
        raise NotAccumulated(f"{op.name}: the filter is computed, not a constant")
    if any(z != 0 for z in tw.zero_points):
        raise NotAccumulated(f"{op.name}: filter zero points {tw.zero_points[:4]} (TFLite int8 filters are "
                             "symmetric)")
    xs = np.asarray(x, dtype=np.int64) - ti.zero_point
    w = tw.data.astype(np.int64).reshape(tw.shape)
    if op.name == "FULLY_CONNECTED":
        rows = xs.reshape(-1, w.shape[1])
        return (rows @ w.T).T
    if len(ti.shape) != 4 or ti.shape[0] != 1:
        raise NotAccumulated(f"{op.name}: input {ti.shape} (batch-1 NHWC expected)")
    oh, ow = to.shape[1], to.shape[2]
    if op.name == "CONV_2D":
        cout, kh, kw, cin = w.shape
        if cin != ti.shape[3]:
            raise NotAccumulated(f"CONV_2D: filter {w.shape} on {ti.shape[3]} input channels (grouped)")
        acc = np.zeros((oh, ow, cout), dtype=np.int64)
        for ky, kx, win in _windows(xs, kh, kw, (oh, ow), op.options):
            acc += win @ w[:, ky, kx, :].T
    else:
        _, kh, kw, cout = w.shape
        mult = int(op.options.get("depth_multiplier", 1)) or 1
        acc = np.zeros((oh, ow, cout), dtype=np.int64)
        for ky, kx, win in _windows(xs, kh, kw, (oh, ow), op.options):
            acc += np.repeat(win, mult, axis=2) * w[0, ky, kx, :]
    return acc.reshape(-1, acc.shape[-1]).T
