"""PDP pooling at FP16, as NVIDIA's hardware computes it (nvdlav1 cmod/hls_wrapper/pdp_hls_wrapper.cpp).

- max/min: FP16 comparisons (models/common/nvfloat.py: +0 beats -0, a NaN wins), along the width first (the
line
  buffer is the first operand) then along the height (the new row is the first operand);
- average: each element widened to FP17 (6-bit exponent, so FP16 subnormals are exact), summed in FP17 one
  element at a time in the order the hardware streams them (left to right, then top to bottom), then
  multiplied by RECIP_KERNEL_WIDTH and by RECIP_KERNEL_HEIGHT (FP17 register values) and narrowed to FP16;
- padding: seed 002 says the pad values are ignored at FP16 ("we assume there's no offset"), but NVIDIA's RTL
  adds them (nv_full programs with non-zero PAD_VALUE_{n}X differ otherwise): PAD_VALUE_{n}X read as FP17
  (its low 17 bits) is added after a window's real columns, and PAD_VALUE_{n}X times the kernel width (an
  FP17 product) after its real rows; n is the run of padded positions as at INT (models/pdp/pad.py).
  A driver that follows the seed programs 0, and adding +0 changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from models.common import nvfloat
from models.common.nvfloat import FP16, FP17
from models.pdp.pad import pad_terms

if TYPE_CHECKING:
    from models.pdp.model import PdpBand, PdpConfig

Bits = NDArray[np.int64]
Op = Callable[[Bits, Bits], Bits]
AVERAGE, MAX = 0, 1   # POOLING_METHOD (models/pdp/model.py)


def _pool_axis(x: Bits, axis: int, n_out: int, kernel: int, stride: int, pad_before: int, op: Op,
               acc_first: bool) -> Bits:
    """Fold each window's real elements of `axis` in order with `op` (acc_first: op(acc, new))."""
    in_size = x.shape[axis]
    starts = np.arange(n_out, dtype=np.int64) * stride - pad_before
    shape = list(x.shape)
    shape[axis] = n_out
    acc = np.zeros(shape, dtype=np.int64)
    started = np.zeros(n_out, dtype=bool)
    bshape = [1] * x.ndim
    bshape[axis] = n_out
    for kk in range(kernel):
        idx = starts + kk
        valid = (idx >= 0) & (idx < in_size)
        if not valid.any():
            continue
        new = np.take(x, np.clip(idx, 0, in_size - 1), axis=axis)
        folded = op(acc, new) if acc_first else op(new, acc)
        acc = np.where(valid.reshape(bshape), np.where(started.reshape(bshape), folded, new), acc)
        started |= valid
    return acc


def _pad_terms(n_out: int, in_size: int, kernel: int, stride: int, pad_before: int, values: Bits) -> Bits:
    """Per output position, the FP17 pad term of its run of padded positions along one axis (+0 if none)."""
    return pad_terms(n_out, in_size, kernel, stride, pad_before, tuple(int(v) for v in values))


def _fold_operator(method: int, x: Bits) -> tuple[Op, Bits]:
    """The fold of a pooling method and its operands: average adds in FP17 (x widened), max/min pick in
    FP16."""
    if method == AVERAGE:
        def add(a: Bits, b: Bits) -> Bits:
            return nvfloat.add(FP17, a, b)
        return add, nvfloat.fp16_to_fp17(x)
    pick = nvfloat.maximum if method == MAX else nvfloat.minimum

    def op(a: Bits, b: Bits) -> Bits:
        return pick(FP16, a, b)
    return op, x


def fold_window(x: Bits, method: int, pad: int) -> Bits:
    """One window's horizontal result per lane, as pool_band_fp16 forms each: x[lanes, columns] the FP16
    patterns of its real columns, oldest first; average: their FP17 sum plus `pad` (the FP17 pad term of its
    padded columns, +0 for none), max/min: the FP16 pick."""
    op, xs = _fold_operator(method, np.asarray(x, dtype=np.int64))
    out = _pool_axis(xs, 1, 1, xs.shape[1], 1, 0, op, True)[:, 0]
    return nvfloat.add(FP17, out, np.int64(pad)) if method == AVERAGE else out


def pool_band_fp16(x: Bits, cfg: PdpConfig, band: PdpBand) -> Bits:
    """Pool one band of FP16 bit patterns x[c, h, band columns] into FP16 bit patterns."""
    op, x = _fold_operator(cfg.method, x)
    rows = _pool_axis(x, 2, band.out_width, cfg.kernel_width, cfg.stride_width, band.pad_left, op, True)
    if cfg.method == AVERAGE:
        pads = np.array(cfg.pad_values, dtype=np.int64) & 0x1FFFF
        rows = nvfloat.add(FP17, rows, _pad_terms(band.out_width, band.in_width, cfg.kernel_width,
                                                  cfg.stride_width, band.pad_left, pads)[None, None, :])
    out = _pool_axis(rows, 1, cfg.out_height, cfg.kernel_height, cfg.stride_height, cfg.pad_top, op, False)
    if cfg.method != AVERAGE:
        return out
    row_pads = nvfloat.mul(FP17, pads, nvfloat.fp17_of(cfg.kernel_width))
    out = nvfloat.add(FP17, out, _pad_terms(cfg.out_height, cfg.in_height, cfg.kernel_height,
                                            cfg.stride_height, cfg.pad_top, row_pads)[None, :, None])
    out = nvfloat.mul(FP17, out, cfg.recip_width)
    return nvfloat.fp17_to_fp16(nvfloat.mul(FP17, out, cfg.recip_height))
