"""SDP settings for TFLite's int8 element-wise operators, fitted to TFLite's integer results.

Every candidate is evaluated by the project's SDP data path (models.sdp.datapath) on the operator's whole
input domain (256 int8 values, or 256 x 256 pairs for ADD and MUL; every product for MUL), and the one that
matches TFLite's arithmetic (tflite_arith) on the most inputs wins: the mapping is exact wherever the 16-bit
multipliers and 6-bit shifts can express TFLite's Q31 multipliers, and the mismatches that remain are
counted, not assumed away.

Layouts (signed values, as the SDP driver takes them):
- requantization (QUANTIZE, RELU family, LEAKY_RELU): BS ALU adds -zp_in, BS MUL by m (no truncate, exact),
  BN ALU MAX for a lower clamp, BN PReLU MUL + truncate for LEAKY_RELU's negative side, EW ALU MIN for an
  upper clamp, output convertor (x + zp_out * 2^s) >> s: one rounding, zp_out added exactly;
- PRELU: as LEAKY_RELU, BN's PReLU operand per channel (read per kernel from memory) when alphas differ;
- LOGISTIC / TANH: BS ALU adds -zp_in, the EW LUT holds TFLite's table at every integer input
  (models.lut.program, one linear 257-entry LO table of step 1), output convertor adds zp_out;
- ADD: (x1 - zp1) * m1 in BS, (x2 - zp2) * m2 by the EW ALU operand convertor, EW ALU SUM, output
  convertor as for requantization;
- MUL: (x1 - zp1) * m in BS, (x2 - zp2) by the EW MUL operand convertor, EW MUL truncated by T, output
  convertor adds zp_out.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from models.lut.model import lut_lookup
from models.lut.program import LutProgram, program_function
from models.sdp.datapath import (
    ALU_MAX,
    ALU_MIN,
    ALU_SUM,
    EwBlock,
    EwConverter,
    Operands,
    OutputCvt,
    XBlock,
    sdp_datapath,
)
from tflite_nvdla.tflite_arith import INT8_DOMAIN, IntArray, quantize_multiplier

INT16_MAX = (1 << 15) - 1
MAX_SHIFT = 31          # the output convertor's shift (6-bit field) kept where offsets stay within 32 bits
EW_TRUNCATE_MAX = 40    # EW_TRUNCATE is 10 bits; products here never need more than this


def _key(value: object) -> object:
    """A hashable stand-in for a fitting argument (arrays by dtype, shape and bytes)."""
    if isinstance(value, np.ndarray):
        return (value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, (tuple, list)):
        return tuple(_key(v) for v in value)
    return value


def _memo(fit: Callable[..., SdpSetting]) -> Callable[..., SdpSetting]:
    """Fitting is a pure function of the quantization (and constants) and takes up to seconds (ADD walks
    256 x 256 inputs per candidate): an operator run again on new values, as a delegate does every invoke,
    reuses the setting it fitted once. A NotExpressible is cached the same way."""
    cache: dict[object, SdpSetting | NotExpressible] = {}

    @functools.wraps(fit)
    def wrapper(*args: object) -> SdpSetting:
        key = _key(args)
        if key not in cache:
            try:
                cache[key] = fit(*args)
            except NotExpressible as err:
                cache[key] = err
        hit = cache[key]
        if isinstance(hit, NotExpressible):
            raise NotExpressible(str(hit))
        return hit
    return wrapper


class NotExpressible(ValueError):
    """The quantization needs a value outside an NVDLA register's range (the message says which)."""


@dataclass(frozen=True)
class SdpSetting:
    bs: XBlock = XBlock()
    bn: XBlock = XBlock()
    ew: EwBlock = EwBlock()
    cvt: OutputCvt = OutputCvt()
    lut: LutProgram | None = None
    operand: str | None = None
    """The EW memory operand's use: None, "alu" (ADD) or "mul" (MUL)."""
    exact_fraction: float = 1.0
    """Share of the fitted domain where the setting equals TFLite's arithmetic."""
    bn_operand: tuple[int, ...] | None = None
    """BN MUL's per-channel operand (PRELU's alphas), read per kernel from memory by the NRDMA."""

    def run(self, x: NDArray[np.integer], operand: NDArray[np.integer] | None = None) -> IntArray:
        """The SDP data path on int8 inputs (and the EW operand) of any shape; with a per-channel BN operand,
        x's first axis is the channel."""
        bn_mul = None
        if self.bn_operand is not None:
            bn_mul = np.asarray(self.bn_operand, dtype=np.int64).reshape(-1, *(1,) * (np.ndim(x) - 1))
        ops = Operands(bn_mul=bn_mul)
        if self.operand == "alu":
            ops = Operands(bn_mul=bn_mul, ew_alu=np.asarray(operand, dtype=np.int64))
        elif self.operand == "mul":
            ops = Operands(bn_mul=bn_mul, ew_mul=np.asarray(operand, dtype=np.int64))
        lut_fn = None
        if self.lut is not None:
            cfg = self.lut.lut_config()

            def lut_fn(v: IntArray) -> tuple[IntArray, dict[str, int]]:
                return lut_lookup(v, cfg).output, {}
        return sdp_datapath(np.asarray(x, dtype=np.int64), self.bs, self.bn, self.ew, self.cvt, ops,
                            lut_fn).data


def _candidates(real: float, limit: int = INT16_MAX, max_shift: int = MAX_SHIFT) -> Iterator[tuple[int, int]]:
    """(m, s) with m / 2^s near `real`, |m| <= limit, largest shifts (most precision) first."""
    if real == 0.0:
        yield 0, 0
        return
    for s in range(max_shift, -1, -1):
        centre = round(real * (1 << s))
        if abs(centre) > limit:
            continue
        for m in (centre, centre - 1, centre + 1):
            if 0 < abs(m) <= limit:
                yield m, s


def _best(settings: Iterator[SdpSetting], target: IntArray, evaluate: Callable[[SdpSetting], IntArray],
          what: str) -> SdpSetting:
    best: tuple[int, SdpSetting] | None = None
    for setting in settings:
        misses = int(np.count_nonzero(evaluate(setting) != target))
        if best is None or misses < best[0]:
            best = (misses, setting)
        if misses == 0:
            break
    if best is None:
        raise NotExpressible(f"{what}: no 16-bit multiplier / shift reaches the scale ratio")
    misses, setting = best
    return dataclasses.replace(setting, exact_fraction=1.0 - misses / target.size)


def _check_zero_points(**zps: int) -> None:
    for name, zp in zps.items():
        if not -128 <= zp <= 127:
            raise NotExpressible(f"{name} {zp} is outside int8 (the ALU operands take int8 zero points)")


def _output_cvt(out_zp: int, shift: int) -> OutputCvt:
    return OutputCvt(offset=-out_zp << shift, scale=1, shift=shift)


def _double_rounding(ratio: float) -> Iterator[tuple[int, int, int]]:
    """(m, t, s): round(round(d * m / 2^t) / 2^s), TFLite's two roundings (SaturatingRoundingDoublingHighMul,
    then RoundingDivideByPOT by its right shift s) with the Q31 multiplier cut to 16 bits."""
    multiplier, shift = quantize_multiplier(ratio)
    left, right = max(shift, 0), max(-shift, 0)
    if right > MAX_SHIFT:
        return
    for m, t in _candidates(multiplier / (1 << 31) * (1 << left), max_shift=30):
        yield m, t, right


def _requant_candidates(ratio: float) -> Iterator[tuple[int, int, int]]:
    yield from _double_rounding(ratio)
    for m, s in _candidates(ratio, max_shift=22):
        yield m, 0, s


@_memo
def requantization(in_zp: int, out_zp: int, ratio: float, clamp: tuple[int, int], target: IntArray,
                   negative_ratio: float | None = None) -> SdpSetting:
    """QUANTIZE / RELU family / LEAKY_RELU: `target` is TFLite's output for every int8 input. LEAKY_RELU
    takes its negative side through BN's PReLU multiplier. Where no X-block setting equals TFLite's two
    roundings on every input, the layer becomes a LUT layer holding TFLite's table (lut_function): exact."""
    _check_zero_points(input_zero_point=in_zp, output_zero_point=out_zp)
    lo, hi = clamp[0] - out_zp, clamp[1] - out_zp

    def settings() -> Iterator[SdpSetting]:
        for m, t, s in _requant_candidates(ratio):
            bs = XBlock(bypass=False, alu_bypass=False, alu_algo=ALU_SUM, alu_operand=-in_zp,
                        mul_bypass=False, mul_operand=m, mul_shift=t)
            ew = EwBlock()
            if hi < 127 - out_zp:
                ew = EwBlock(bypass=False, alu_bypass=False, alu_algo=ALU_MIN, alu_operand=hi << s)
            if negative_ratio is None:
                bn = XBlock()
                if lo > -128 - out_zp:
                    bn = XBlock(bypass=False, alu_bypass=False, alu_algo=ALU_MAX, alu_operand=lo, alu_shift=s)
                yield SdpSetting(bs, bn, ew, _output_cvt(out_zp, s))
                continue
            for r, tn in _candidates(negative_ratio / ratio, max_shift=30):
                bn = XBlock(bypass=False, mul_bypass=False, mul_prelu=True, mul_operand=r, mul_shift=tn)
                yield SdpSetting(bs, bn, ew, _output_cvt(out_zp, s))
    best = _best(settings(), target, lambda st: st.run(INT8_DOMAIN), "requantization")
    if best.exact_fraction < 1.0:
        return lut_function(in_zp, out_zp, target)
    return best


@_memo
def prelu(in_zp: int, out_zp: int, ratio: float, negative_ratios: NDArray[np.float64],
          target: IntArray) -> SdpSetting:
    """PRELU: `target` [C, 256] is TFLite's output for every int8 input in each channel, `negative_ratios`
    [C] the real factor of the negative side (s_in * s_alpha * (alpha_c - zp_alpha) / s_out). Layout as
    LEAKY_RELU's (BS: -zp_in, * m, truncate t; BN PReLU: * r_c, truncate tn; output convertor >> s), with
    r_c per channel from memory when the alphas differ, else a register operand. The positive side (shared
    by every channel) picks (m, t, s); then each channel picks its r_c for a common tn. A single alpha that
    no setting makes exact becomes the exact LUT layer (its table is the same in every channel); per-channel
    alphas have no such fallback (the LUT is one function), so their misses are counted."""
    _check_zero_points(input_zero_point=in_zp, output_zero_point=out_zp)
    channels = target.shape[0]
    grid = np.broadcast_to(INT8_DOMAIN, target.shape)
    positive = (INT8_DOMAIN - in_zp) >= 0
    per_channel = bool(np.any(negative_ratios != negative_ratios[0]))

    def negative_side(bs: XBlock, s: int) -> Iterator[SdpSetting]:
        for tn in range(30, -1, -1):
            centre = np.round(negative_ratios / ratio * (1 << tn)).astype(np.int64)
            if np.any(np.abs(centre) + 1 > INT16_MAX):
                continue
            # every channel takes its best of centre - 1, centre, centre + 1 (one model run per offset)
            misses, picks = [], []
            for off in (0, -1, 1):
                r = centre + off
                bn = XBlock(bypass=False, mul_bypass=False, mul_prelu=True, mul_from_mem=True, mul_shift=tn)
                trial = SdpSetting(bs, bn, cvt=_output_cvt(out_zp, s), bn_operand=tuple(int(v) for v in r))
                misses.append(np.count_nonzero(trial.run(grid) != target, axis=1))
                picks.append(r)
            best = np.argmin(np.stack(misses), axis=0)
            r = np.stack(picks)[best, np.arange(channels)]
            if per_channel:
                bn = XBlock(bypass=False, mul_bypass=False, mul_prelu=True, mul_from_mem=True, mul_shift=tn)
                yield SdpSetting(bs, bn, cvt=_output_cvt(out_zp, s), bn_operand=tuple(int(v) for v in r))
            else:
                bn = XBlock(bypass=False, mul_bypass=False, mul_prelu=True, mul_operand=int(r[0]),
                            mul_shift=tn)
                yield SdpSetting(bs, bn, cvt=_output_cvt(out_zp, s))

    def settings() -> Iterator[SdpSetting]:
        # the positive side first: only (m, t, s) exact on it (or all, if none is) go on to the alphas;
        # BS without truncate (t = 0) first, so the negative side keeps d * m exact until BN's truncate
        scored = []
        for m, t, s in _requant_candidates(ratio):
            bs = XBlock(bypass=False, alu_bypass=False, alu_algo=ALU_SUM, alu_operand=-in_zp,
                        mul_bypass=False, mul_operand=m, mul_shift=t)
            out = SdpSetting(bs, cvt=_output_cvt(out_zp, s)).run(INT8_DOMAIN)
            scored.append((int(np.count_nonzero((out != target[0])[positive])), t > 0, len(scored), bs, s))
        scored.sort(key=lambda c: c[:3])
        for _, _, _, bs, s in [c for c in scored if c[0] == scored[0][0]][:4]:
            yield from negative_side(bs, s)

    best = _best(settings(), target, lambda st: st.run(grid), "PRELU")
    if best.exact_fraction < 1.0 and not per_channel:
        return lut_function(in_zp, out_zp, target[0])
    return best


@_memo
def lut_function(in_zp: int, out_zp: int, table: IntArray) -> SdpSetting:
    """LOGISTIC / TANH: the EW LUT holds TFLite's table (minus zp_out) at every integer input."""
    _check_zero_points(input_zero_point=in_zp, output_zero_point=out_zp)
    d_min, d_max = -128 - in_zp, 127 - in_zp

    def entries(d: NDArray[np.float64]) -> NDArray[np.float64]:
        # the table at integer d (the LUT helper samples only its entries' positions, all integers here)
        index = np.clip(np.round(d).astype(np.int64) - d_min, 0, table.size - 1)
        return (table[index] - out_zp).astype(np.float64)

    lut = program_function(entries, d_min, d_max, unit="SDP", in_scale=1.0, out_scale=1.0, layout="lo_only")
    setting = SdpSetting(
        bs=XBlock(bypass=False, alu_bypass=False, alu_algo=ALU_SUM, alu_operand=-in_zp),
        ew=EwBlock(bypass=False, lut_bypass=False), cvt=_output_cvt(out_zp, 0), lut=lut)
    return _best(iter([setting]), table, lambda st: st.run(INT8_DOMAIN), "LUT")


@_memo
def add(zp1: int, zp2: int, out_zp: int, ratio1: float, ratio2: float, target: IntArray,
        second: IntArray = INT8_DOMAIN) -> SdpSetting:
    """ADD: `target` is TFLite's output on the grid of every int8 x1 (axis 0) by `second`, the x2 values
    (all 256, or a constant operand's own values)."""
    _check_zero_points(input1_zero_point=zp1, input2_zero_point=zp2, output_zero_point=out_zp)
    x1, x2 = np.meshgrid(INT8_DOMAIN, second, indexing="ij")

    def settings() -> Iterator[SdpSetting]:
        for m1, s in _candidates(ratio1, max_shift=22):
            centre = round(ratio2 * (1 << s))
            for m2 in (centre, centre - 1, centre + 1):
                if abs(m2) > INT16_MAX:
                    continue
                bs = XBlock(bypass=False, alu_bypass=False, alu_algo=ALU_SUM, alu_operand=-zp1,
                            mul_bypass=False, mul_operand=m1)
                ew = EwBlock(bypass=False, alu_bypass=False, alu_algo=ALU_SUM, alu_from_mem=True,
                             alu_cvt=EwConverter(bypass=False, offset=zp2, scale=m2))
                yield SdpSetting(bs, XBlock(), ew, _output_cvt(out_zp, s), operand="alu")
    return _best(settings(), target, lambda st: st.run(x1, x2), "ADD")


def upper_clamp_lut(hi: int) -> LutProgram:
    """An EW LUT computing min(v, hi) on integers: a 257-entry step-1 LO table over [hi - 254, hi + 2], whose
    last three entries are flat (overflow slope 0: every larger v gives hi) and first three the identity
    (underflow slope 1: every smaller v passes unchanged)."""
    return program_function(lambda v: np.minimum(v, hi), hi - 254, hi + 2, unit="SDP", in_scale=1.0,
                            out_scale=1.0, layout="lo_only")


@_memo
def mul(zp1: int, zp2: int, out_zp: int, ratio: float, target: IntArray,
        clamp: tuple[int, int] = (-128, 127), second: IntArray = INT8_DOMAIN) -> SdpSetting:
    """MUL: `target` is TFLite's output on the grid of every int8 x1 by `second` (as for add). A fused
    activation's clamp follows the EW MUL, in output LSBs (the output convertor only adds zp_out): lower
    bound in the EW ALU (MAX), upper bound in the EW LUT (upper_clamp_lut): the operator stays one layer."""
    _check_zero_points(input1_zero_point=zp1, input2_zero_point=zp2, output_zero_point=out_zp)
    x1, x2 = np.meshgrid(INT8_DOMAIN, second, indexing="ij")
    lo, hi = clamp[0] - out_zp, clamp[1] - out_zp
    lut = upper_clamp_lut(hi) if clamp[1] < 127 else None
    clamp_ew = {"lut_bypass": lut is None}
    if clamp[0] > -128:
        clamp_ew |= {"alu_bypass": False, "alu_algo": ALU_MAX, "alu_operand": lo}

    def settings() -> Iterator[SdpSetting]:
        for m, t in _candidates(ratio, max_shift=EW_TRUNCATE_MAX):
            bs = XBlock(bypass=False, alu_bypass=False, alu_algo=ALU_SUM, alu_operand=-zp1,
                        mul_bypass=False, mul_operand=m)
            ew = EwBlock(bypass=False, mul_bypass=False, mul_from_mem=True, truncate=t,
                         mul_cvt=EwConverter(bypass=False, offset=zp2, scale=1), **clamp_ew)
            yield SdpSetting(bs, XBlock(), ew, _output_cvt(out_zp, 0), lut=lut, operand="mul")
    return _best(settings(), target, lambda st: st.run(x1, x2), "MUL")
