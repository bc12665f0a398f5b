"""Requantization of CONV_2D / DEPTHWISE_CONV_2D / FULLY_CONNECTED outputs as SDP does it (seed 003's
post_mult / post_shift question, NVDLA's answer): one SDP layer on the int32 accumulators.

    BS ALU  SUM  bias_c' << sb       per-channel 16-bit operand from memory (BRDMA), one shift for the layer
    BS MUL       m_c                 per-channel 16-bit operand from memory (BRDMA)
    BS truncate  t                   one rounding right shift (half away from zero) for the layer
    BN ALU  MAX  lo - zp_out         a fused activation's lower clamp (when it clamps)
    EW ALU  MIN  hi - zp_out         its upper clamp
    CVT          + zp_out            offset -zp_out, scale 1, shift 0; saturates to int8

TFLite computes clamp(zp_out + MBQM(acc + bias_c, M_c, shift_c), lo, hi) with a Q31 multiplier per channel
(M_c = s_in * s_w[c] / s_out) and two roundings (tflite_arith.multiply_by_quantized_multiplier); SDP has a
16-bit multiplier per channel, one truncate for the layer, 16 bits of bias (shifted) and one rounding.
The fit takes, for each candidate truncate t near the largest that keeps every m_c in 16 bits, the m_c
around M_c * 2^t that matches TFLite on the most accumulators of the channel's whole unsaturated range (all
of them up to 2^18 values, else a seeded sample), and keeps the t with the fewest mismatches. Every value
is evaluated by the project's SDP data path (models.sdp.datapath), not by a formula.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from models.sdp.datapath import ALU_MAX, ALU_MIN, ALU_SUM, EwBlock, Operands, OutputCvt, XBlock, sdp_datapath
from tflite_nvdla import tflite_arith as ta
from tflite_nvdla.reader import ACTIVATIONS, ModelInfo, OperatorInfo

INT16_MAX = (1 << 15) - 1
DOMAIN_MAX = 1 << 18
MAX_TRUNCATE = 63      # BS_MUL_SHIFT_VALUE is 8 bits; the data path uses 6


@dataclass(frozen=True)
class Quant:
    """What the requantization needs of an operator: per output channel the effective scale and bias."""

    scales: NDArray[np.float64]        # M_c
    bias: NDArray[np.int64]            # bias_c (0 without a bias)
    out_zp: int
    clamp: tuple[int, int]


@dataclass(frozen=True)
class RequantSetting:
    multipliers: NDArray[np.int64]     # m_c
    truncate: int                      # t
    bias_operand: NDArray[np.int64]    # bias_c'
    bias_shift: int                    # sb
    out_zp: int
    clamp: tuple[int, int]

    def blocks(self) -> tuple[XBlock, XBlock, EwBlock, OutputCvt]:
        bs = XBlock(bypass=False, alu_bypass=False, alu_algo=ALU_SUM, alu_from_mem=True,
                    alu_shift=self.bias_shift, mul_bypass=False, mul_from_mem=True, mul_shift=self.truncate)
        lo, hi = self.clamp
        bn = (XBlock(bypass=False, alu_bypass=False, alu_algo=ALU_MAX, alu_operand=lo - self.out_zp)
              if lo > ta.INT8_MIN else XBlock())
        ew = EwBlock(bypass=False, alu_bypass=False, alu_algo=ALU_MIN, alu_operand=hi - self.out_zp
                     ) if hi < ta.INT8_MAX else EwBlock()
        return bs, bn, ew, OutputCvt(offset=-self.out_zp, scale=1, shift=0)

    def run(self, acc: NDArray[np.integer], channels: slice | None = None) -> NDArray[np.int64]:
        """The SDP data path on accumulators [channels, positions] (or the channels given)."""
        sel = channels if channels is not None else slice(None)
        ops = Operands(bs_alu=self.bias_operand[sel, None, None], bs_mul=self.multipliers[sel, None, None])
        return on_datapath(acc, self.blocks(), ops)


def on_datapath(acc: NDArray[np.integer], blocks: tuple[XBlock, XBlock, EwBlock, OutputCvt],
                ops: Operands) -> NDArray[np.int64]:
    """The SDP data path (BS, BN, EW, output convertor) on accumulators [channels, positions]."""
    cube = np.asarray(acc, dtype=np.int64)[:, None, :]
    return sdp_datapath(cube, *blocks, ops).data[:, 0, :]


def quant_of(model: ModelInfo, op: OperatorInfo) -> Quant:
    ti, tw, to = model.tensors[op.inputs[0]], model.tensors[op.inputs[1]], model.tensors[op.outputs[0]]
    channels = to.shape[-1]
    w_scales = np.broadcast_to(np.asarray(tw.scales, dtype=np.float64), (channels,))
    # TFLite: effective scale in double from the float32 scales (kernel_util PopulateConvolutionQuantization)
    scales = np.float64(np.float32(ti.scale)) * w_scales.astype(np.float32).astype(np.float64) / np.float64(
        np.float32(to.scale))
    bias = np.zeros(channels, dtype=np.int64)
    if len(op.inputs) > 2 and op.inputs[2] >= 0:
        data = model.tensors[op.inputs[2]].data
        if data is not None:
            bias = data.astype(np.int64).reshape(channels)
    activation = ACTIVATIONS.get(op.options.get("activation", 0), "NONE")
    return Quant(scales, bias, to.zero_point, ta.activation_range(activation, to.scale, to.zero_point))


def tflite_requant(acc: NDArray[np.integer], q: Quant) -> NDArray[np.int64]:
    """TFLite's int8 output from accumulators [channels, positions]."""
    out = np.empty(np.shape(acc), dtype=np.int64)
    for c in range(out.shape[0]):
        m, s = ta.quantize_multiplier(float(q.scales[c]))
        out[c] = ta.multiply_by_quantized_multiplier(np.asarray(acc[c], dtype=np.int64) + q.bias[c], m, s)
    return np.clip(out + q.out_zp, *q.clamp)


def unsaturated(q: Quant, c: int) -> tuple[int, int]:
    """[lo, hi]: the accumulators of channel c (bias not added) whose TFLite output lies in int8, with a
    margin of 2."""
    scale = float(q.scales[c])
    lo = math.floor((ta.INT8_MIN - 2 - q.out_zp) / scale) - int(q.bias[c])
    hi = math.ceil((ta.INT8_MAX + 2 - q.out_zp) / scale) - int(q.bias[c])
    return lo, hi


def domain(q: Quant, c: int, seed: int = 0) -> tuple[NDArray[np.int64], bool]:
    """Accumulators (bias not added) whose TFLite output lies in int8, with a margin: (values, whole?)."""
    lo, hi = unsaturated(q, c)
    if hi - lo + 1 <= DOMAIN_MAX:
        return np.arange(lo, hi + 1, dtype=np.int64), True
    rng = np.random.default_rng(seed + c)
    return np.unique(rng.integers(lo, hi + 1, DOMAIN_MAX)), False


def _bias_operand(bias: NDArray[np.int64]) -> tuple[NDArray[np.int64], int]:
    shift = 0
    while np.abs(bias).max(initial=0) >> shift > INT16_MAX:
        shift += 1
    return ta.round_half_away(bias / (1 << shift)) if shift else bias.copy(), shift


# run(c, t, candidates): the outputs of channel c's accumulators at truncate t, one row per candidate m_c
Trial = Callable[[int, int, NDArray[np.int64]], NDArray[np.int64]]


def fit_multipliers(q: Quant, samples: list[NDArray[np.int64]], run: Trial
                    ) -> tuple[int, NDArray[np.int64], int, int]:
    """(t, m_c, mismatches, max LSB): for each truncate t of the three up to the largest that keeps every
    m_c in 16 bits, per channel the m_c among round(M_c * 2^t) and its neighbours that matches TFLite on
    the most of the channel's samples (then the smallest error, then the smallest m_c); the t with the
    fewest mismatches (then the smallest error, then the smallest t)."""
    channels = q.scales.size
    top = min(MAX_TRUNCATE, min(int(math.floor(math.log2(INT16_MAX / s))) for s in q.scales if s > 0))
    targets = [tflite_requant(s[None, :], Quant(q.scales[c:c + 1], q.bias[c:c + 1], q.out_zp, q.clamp))[0]
               for c, s in enumerate(samples)]
    best: tuple[int, int, int, NDArray[np.int64]] | None = None
    for t in range(max(top - 2, 0), top + 1):
        mults = np.zeros(channels, dtype=np.int64)
        misses = worst = 0
        for c in range(channels):
            centre = int(round(float(q.scales[c]) * (1 << t)))
            cand = np.array(sorted({max(min(centre + k, INT16_MAX), 0) for k in (-1, 0, 1)}), dtype=np.int64)
            diff = np.abs(run(c, t, cand) - targets[c][None, :])
            n, w, mults[c] = min((int(np.count_nonzero(diff[i])), int(diff[i].max(initial=0)), int(cand[i]))
                                 for i in range(cand.size))
            misses, worst = misses + n, max(worst, w)
        if best is None or (misses, worst) < best[:2]:
            best = (misses, worst, t, mults)
    assert best is not None
    return best[2], best[3], best[0], best[1]


def fit(q: Quant) -> tuple[RequantSetting, float, int, bool]:
    """(setting, exact fraction over the channels' domains, max LSB there, whole domains?)."""
    bias_op, bias_shift = _bias_operand(q.bias)
    domains = [domain(q, c) for c in range(q.scales.size)]

    def run(c: int, t: int, cand: NDArray[np.int64]) -> NDArray[np.int64]:
        return np.stack([RequantSetting(np.array([m]), t, bias_op[c:c + 1], bias_shift, q.out_zp, q.clamp)
                         .run(domains[c][0][None, :])[0] for m in cand])

    t, mults, misses, worst = fit_multipliers(q, [d for d, _ in domains], run)
    total = sum(d.size for d, _ in domains)
    return (RequantSetting(mults, t, bias_op, bias_shift, q.out_zp, q.clamp), 1.0 - misses / total, worst,
            all(full for _, full in domains))
