"""Requantization of a convolution's INT32 accumulators on SDP on the fly, with the bias exact.

TFLite's bias (int32) plus the input zero-point term folded into it (bias_c - zp_in * sum(w_c), see
tflite_nvdla/conv_map.py) reaches 2^20 on the shipped models: one 16-bit BS operand (shifted) would round it
(tflite_nvdla/requant.py does, for the host-accumulator report). Here the bias is split exactly:

    BS ALU  SUM  hi_c << sb      hi_c = bias_c >> sb (16-bit, per channel from memory: BRDMA)
    BS      (MUL bypassed, truncate 0: the sum saturated to 32 bits)
    BN ALU  SUM  lo_c            lo_c = bias_c - (hi_c << sb), 0 <= lo_c < 2^sb <= 2^15 (NRDMA, "both")
    BN MUL       m_c             16-bit, per channel (NRDMA, the same element's second value)
    BN truncate  t               one rounding right shift for the layer
    BN ReLU      when the fused activation's lower clamp is the output zero point (RELU, RELU6)
    EW ALU  MAX  lo - zp_out     another lower clamp (register operand)
    CVT          + zp_out        saturates to int8; an upper clamp below 127 is a second SDP layer

The fit (m_c, t) is requant.py's: for t near the largest that keeps every m_c in 16 bits, the m_c around
M_c * 2^t matching TFLite on the most accumulators of the channel's unsaturated range, evaluated by the
project's SDP data path (models.sdp.datapath).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from models.sdp.datapath import ALU_MAX, ALU_SUM, EwBlock, Operands, OutputCvt, XBlock
from tflite_nvdla import tflite_arith as ta
from tflite_nvdla.requant import INT16_MAX, Quant, fit_multipliers, on_datapath, unsaturated

# The fit's sample per channel: the whole unsaturated range up to this many accumulators, else a seeded
# sample of this many (the delegate fits once per operator at prepare; the drift table measures the rest).
FIT_DOMAIN = 1 << 14


class BiasRange(ValueError):
    """A bias the two 16-bit ALU operands cannot hold exactly."""


@dataclass(frozen=True)
class ConvRequant:
    bias_hi: NDArray[np.int64]
    bias_lo: NDArray[np.int64]
    bias_shift: int
    multipliers: NDArray[np.int64]
    truncate: int
    out_zp: int
    clamp: tuple[int, int]

    @property
    def relu(self) -> bool:
        return self.clamp[0] == self.out_zp

    @property
    def upper_clamp(self) -> bool:
        """Whether the upper clamp needs a second SDP layer."""
        return self.clamp[1] < ta.INT8_MAX

    def blocks(self) -> tuple[XBlock, XBlock, EwBlock, OutputCvt]:
        bs = XBlock(bypass=False, alu_bypass=False, alu_algo=ALU_SUM, alu_from_mem=True,
                    alu_shift=self.bias_shift)
        bn = XBlock(bypass=False, alu_bypass=False, alu_algo=ALU_SUM, alu_from_mem=True, mul_bypass=False,
                    mul_from_mem=True, mul_shift=self.truncate, relu_bypass=not self.relu)
        lo = self.clamp[0]
        ew = (EwBlock(bypass=False, alu_bypass=False, alu_algo=ALU_MAX, alu_operand=lo - self.out_zp)
              if lo > ta.INT8_MIN and not self.relu else EwBlock())
        return bs, bn, ew, OutputCvt(offset=-self.out_zp, scale=1, shift=0)

    def run(self, acc: NDArray[np.integer], sel: slice | None = None) -> NDArray[np.int64]:
        """The SDP data path on accumulators [channels, positions] (the channels `sel`), before the
        upper-clamp layer: min(result, clamp[1]) is the operator's output."""
        sel = sel if sel is not None else slice(None)
        ops = Operands(bs_alu=self.bias_hi[sel, None, None], bn_alu=self.bias_lo[sel, None, None],
                       bn_mul=self.multipliers[sel, None, None])
        return on_datapath(acc, self.blocks(), ops)


def split_bias(bias: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64], int]:
    """(hi, lo, sb): bias = (hi << sb) + lo exactly, hi a signed 16-bit value, 0 <= lo < 2^sb <= 2^15."""
    for sb in range(16):
        hi = bias >> sb
        if np.all(hi >= -INT16_MAX - 1) and np.all(hi <= INT16_MAX):
            return hi, bias - (hi << sb), sb
    raise BiasRange(f"a bias of {int(np.abs(bias).max())} needs more than 31 bits: two 16-bit SDP operands "
                    "cannot hold it exactly")


def _sample(q: Quant, c: int) -> NDArray[np.int64]:
    """requant.domain's range for channel c: all of it up to FIT_DOMAIN values, else its ends and a seeded
    sample."""
    lo, hi = unsaturated(q, c)
    if hi - lo + 1 <= FIT_DOMAIN:
        return np.arange(lo, hi + 1, dtype=np.int64)
    rng = np.random.default_rng(c)
    ends = np.concatenate([np.arange(lo, lo + 64), np.arange(hi - 63, hi + 1)])
    return np.unique(np.concatenate([ends, rng.integers(lo, hi + 1, FIT_DOMAIN)]))


def fit_conv(q: Quant) -> tuple[ConvRequant, float, int]:
    """(setting, exact fraction on the channels' samples, max LSB there)."""
    hi, lo, sb = split_bias(q.bias)
    samples = [_sample(q, c) for c in range(q.scales.size)]

    def run(c: int, t: int, cand: NDArray[np.int64]) -> NDArray[np.int64]:
        """The candidates as channels of one data path run."""
        n_c = cand.size
        trial = ConvRequant(np.repeat(hi[c], n_c), np.repeat(lo[c], n_c), sb, cand, t, q.out_zp, q.clamp)
        return np.minimum(trial.run(np.broadcast_to(samples[c], (n_c, samples[c].size))), q.clamp[1])

    t, mults, misses, worst = fit_multipliers(q, samples, run)
    total = sum(s.size for s in samples)
    return ConvRequant(hi, lo, sb, mults, t, q.out_zp, q.clamp), 1.0 - misses / total, worst
