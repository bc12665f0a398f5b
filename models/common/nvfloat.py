"""NVIDIA's floating-point arithmetic as NVDLA's hardware computes it (FP16, FP17, FP32 bit patterns).

Written from the behaviour of NVIDIA's HLS float library (nvdlav1 cmod/hls/include/nvdla_float.h, which the
nv_full RTL's FP units were generated from); it is not IEEE 754 and these differences are the point:
- add: the smaller operand is aligned by a plain right shift inside a (2M+3)-bit window (bits shifted past
  it are lost, no sticky bit), then one round-to-nearest-even; an exact cancellation keeps the sign of the
  larger-magnitude operand (of the first one when the magnitudes are equal), so (-x) + x is -0;
- results below the smallest normal flush to zero (keeping their sign); a subnormal input is read as
  1.mant x 2^(1-bias-1) (an implied 1 on exponent 0), only a true zero has no implied 1;
- overflow, and any infinity a width conversion meets, saturates to the largest finite value ("SetToInf"
  writes exponent max-1, mantissa all ones);
- a NaN operand is returned as it is (the first operand's NaN when both are NaN).
Every function takes and returns int64 arrays of bit patterns (scalars accepted), element-wise.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

Bits = NDArray[np.int64]


@dataclass(frozen=True)
class Format:
    """A binary float format: sign, `expo` exponent bits, `mant` mantissa bits, bias 2^(expo-1) - 1."""

    expo: int
    mant: int

    @property
    def emax(self) -> int:
        return (1 << self.expo) - 1

    @property
    def mmask(self) -> int:
        return (1 << self.mant) - 1

    @property
    def bias(self) -> int:
        return (1 << (self.expo - 1)) - 1

    def split(self, bits: ArrayLike) -> tuple[Bits, Bits, Bits]:
        b = np.asarray(bits, dtype=np.int64)
        return (b >> (self.expo + self.mant)) & 1, (b >> self.mant) & self.emax, b & self.mmask

    def join(self, sign: ArrayLike, expo: ArrayLike, mant: ArrayLike) -> Bits:
        s, e, m = (np.asarray(v, dtype=np.int64) for v in (sign, expo, mant))
        return (s << (self.expo + self.mant)) | ((e & self.emax) << self.mant) | (m & self.mmask)

    def is_nan(self, bits: ArrayLike) -> NDArray[np.bool_]:
        _, e, m = self.split(bits)
        return (e == self.emax) & (m != 0)

    def is_inf(self, bits: ArrayLike) -> NDArray[np.bool_]:
        _, e, m = self.split(bits)
        return (e == self.emax) & (m == 0)

    def largest(self, sign: ArrayLike) -> Bits:
        """What the hardware writes for an overflow (and for an infinity it converts): max finite."""
        return self.join(sign, self.emax - 1, self.mmask)


FP16, FP17, FP32 = Format(5, 10), Format(6, 10), Format(8, 23)


def _bit_length(x: Bits) -> Bits:
    """Bits needed for each non-negative x < 2^62 (0 for 0), exact (no float rounding)."""
    n = np.zeros_like(x)
    v = x.copy()
    for step in (32, 16, 8, 4, 2, 1):
        big = v >= (np.int64(1) << step)
        n = np.where(big, n + step, n)
        v = np.where(big, v >> step, v)
    return n + (v > 0)


def _shift(x: Bits, left: Bits) -> Bits:
    """x << left, a negative `left` shifting right (ac_int's signed shift), never by 64 or more."""
    return np.where(left >= 0, x << np.clip(left, 0, 63), x >> np.clip(-left, 0, 63))


def _rne(value: Bits, drop: int) -> tuple[Bits, Bits]:
    """Drop the low `drop` bits of value rounding to nearest even: (kept, carry)."""
    kept = value >> drop
    guard = (value >> (drop - 1)) & 1
    sticky = (value & ((np.int64(1) << (drop - 1)) - 1)) != 0
    carry = guard & (sticky | (kept & 1)).astype(np.int64)
    return kept, carry


def _nan_first(fmt: Format, a: Bits, b: Bits, out: Bits) -> Bits:
    return np.where(fmt.is_nan(a), a, np.where(fmt.is_nan(b), b, out))


def add(fmt: Format, a: ArrayLike, b: ArrayLike) -> Bits:
    """a + b (FpAdd): see the module docstring for how it differs from IEEE."""
    a, b = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
    a, b = np.broadcast_arrays(a, b)
    m = fmt.mant
    more = m + 2                      # guard room above the smaller operand's alignment
    width = more + m + 1              # the adder's window
    sa, ea, ma = fmt.split(a)
    sb, eb, mb = fmt.split(b)
    pa = ma | (((ea != 0) | (ma != 0)).astype(np.int64) << m)
    pb = mb | (((eb != 0) | (mb != 0)).astype(np.int64) << m)
    a_big = (ea > eb) | ((ea == eb) & (ma >= mb))
    expo = np.where(a_big, ea, eb)
    wmask = (np.int64(1) << width) - 1
    ia = _shift(pa, more - np.where(a_big, 0, eb - ea)) & wmask
    ib = _shift(pb, more - np.where(a_big, ea - eb, 0)) & wmask
    big, small = np.where(a_big, ia, ib), np.where(a_big, ib, ia)
    sign = np.where(a_big, sa, sb)
    total = np.where(sa == sb, big + small, big - small)
    carry_out = (total >> width) & 1 == 1
    inf = carry_out & (expo >= fmt.emax - 1)
    # carry out of the window: one bit right; else normalise (flush to zero when below the normals)
    lead = width - _bit_length(total & wmask)
    flush = ~carry_out & ((expo <= lead) | (total == 0))
    norm = np.where(carry_out, total >> 1, np.where(flush, 0, (total << np.clip(lead, 0, 63)) & wmask))
    expo = np.where(carry_out, expo + 1, np.where(flush, 0, expo - lead))
    kept, rnd = _rne(norm, width - (m + 1))
    over = (rnd == 1) & (kept == (1 << (m + 1)) - 1)
    inf |= over & (expo >= fmt.emax - 1)
    expo = np.where(over, expo + 1, expo)
    out = np.where(inf, fmt.largest(sign), fmt.join(sign, expo, kept + rnd))
    return _nan_first(fmt, a, b, out)


def sub(fmt: Format, a: ArrayLike, b: ArrayLike) -> Bits:
    """a - b (FpSub): b's sign bit flipped, then add, so a NaN b comes back with its sign flipped."""
    return add(fmt, a, np.asarray(b, dtype=np.int64) ^ (np.int64(1) << (fmt.expo + fmt.mant)))


def mul(fmt: Format, a: ArrayLike, b: ArrayLike) -> Bits:
    """a * b (FpMul): exact product, one round to nearest even, flush below the normals, saturate above."""
    a, b = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
    a, b = np.broadcast_arrays(a, b)
    m, pm = fmt.mant, 2 * fmt.mant + 1
    sa, ea, ma = fmt.split(a)
    sb, eb, mb = fmt.split(b)
    za, zb = (ea == 0) & (ma == 0), (eb == 0) & (mb == 0)
    prod = (ma | ((~za).astype(np.int64) << m)) * (mb | ((~zb).astype(np.int64) << m))
    sign = sa ^ sb
    esum = ea + eb
    zero = za | zb | (esum < fmt.bias)
    inf = ~zero & (esum >= fmt.emax + fmt.bias)
    expo = esum - fmt.bias
    top = (prod >> pm) & 1 == 1
    inf |= ~zero & top & (expo >= fmt.emax - 1)
    expo = np.where(top, expo + 1, expo)
    frac = np.where(top, prod, prod << 1) & ((np.int64(1) << pm) - 1)
    kept, rnd = _rne(frac | (np.int64(1) << pm), pm - m)
    over = (rnd == 1) & (kept == (1 << (m + 1)) - 1)
    expo = np.where(over, expo + 1, expo) & fmt.emax
    inf |= ~zero & over & (expo == fmt.emax)
    zero |= ~inf & (expo == 0)
    out = np.where(inf, fmt.largest(sign), np.where(zero, fmt.join(sign, 0, 0),
                                                    fmt.join(sign, expo, kept + rnd)))
    return _nan_first(fmt, a, b, out)


def maximum(fmt: Format, a: ArrayLike, b: ArrayLike) -> Bits:
    """max(a, b) by sign, exponent, mantissa (FpCmp): +0 beats -0; a NaN operand wins, a's first."""
    return _pick(fmt, a, b, want_greater=True)


def minimum(fmt: Format, a: ArrayLike, b: ArrayLike) -> Bits:
    return _pick(fmt, a, b, want_greater=False)


def _pick(fmt: Format, a: ArrayLike, b: ArrayLike, want_greater: bool) -> Bits:
    a, b = np.broadcast_arrays(np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64))
    sa, ea, ma = fmt.split(a)
    sb, eb, mb = fmt.split(b)
    abs_a_greater = (ea > eb) | ((ea == eb) & (ma > mb))
    a_greater = np.where(sa == 0, (sb == 1) | abs_a_greater, (sb == 1) & ~abs_a_greater)
    out = np.where(a_greater == want_greater, a, b)
    return _nan_first(fmt, a, b, out)


def fp16_to_fp17(h: ArrayLike) -> Bits:
    """FP16 -> FP17 (exponent 5 -> 6 bits): exact for every finite value (subnormals become normals);
    an infinity becomes FP17's largest finite value; a NaN keeps its payload."""
    s, e, m = FP16.split(h)
    delta = FP17.bias - FP16.bias
    lead = FP16.mant - _bit_length(m)                 # leading zeros of a subnormal's mantissa
    sub = (e == 0) & (m != 0)
    expo = np.where(sub, delta - lead, np.where((e == 0) & (m == 0), 0, e + delta))
    mant = np.where(sub, (m << (lead + 1)) & FP16.mmask, m)
    out = FP17.join(s, expo, mant)
    out = np.where(FP16.is_inf(h), FP17.largest(s), out)
    return np.where(FP16.is_nan(h), FP17.join(s, FP17.emax, m), out)


def fp17_to_fp16(f: ArrayLike) -> Bits:
    """FP17 -> FP16: too large saturates to 65504, subnormal range rounds to nearest even, below it 0."""
    s, e, m = FP17.split(f)
    delta = FP17.bias - FP16.bias
    shift = np.clip(delta - e + 1, 1, 11)
    full = m | (1 << FP17.mant)
    kept = full >> shift
    guard = (full >> (shift - 1)) & 1
    sticky = (full & ((np.int64(1) << (shift - 1)) - 1)) != 0
    least = np.where(shift <= FP17.mant, (full >> shift) & 1, 0)
    sub = kept + (guard & (sticky | (least == 1)).astype(np.int64))
    out = np.where(e >= FP16.emax + delta, FP16.largest(s),
                   np.where(e < delta - FP16.mant, FP16.join(s, 0, 0),
                            np.where(e <= delta, FP16.join(s, sub >> FP16.mant, sub),
                                     FP16.join(s, e - delta, m))))
    return np.where(FP17.is_nan(f), FP16.join(s, FP16.emax, m), out)


def fp17_of(value: float) -> int:
    """The FP17 nearest a positive normal number (ties to even): register constants such as 1/kernel."""
    mant, expo = np.frexp(value)                      # value = mant * 2^expo, 0.5 <= mant < 1
    scaled = float(mant) * (1 << (FP17.mant + 1))
    frac = int(np.rint(scaled))                      # rint rounds half to even
    e = int(expo) - 1 + FP17.bias
    if frac == 1 << (FP17.mant + 1):
        frac, e = frac >> 1, e + 1
    if not 0 < e < FP17.emax:
        raise ValueError(f"{value} is not a normal FP17 number")
    return int(FP17.join(0, e, frac))


def fp16_to_fp32(h: ArrayLike) -> Bits:
    """FP16 -> FP32 (FpWidthInc<5,10,8,23>): exact for every finite value (subnormals become normals); an
    infinity becomes FP32's largest finite value; a NaN keeps its 10-bit payload in the LOW mantissa bits
    (the C model widens a NaN's mantissa without shifting it), so that fp32_to_fp16 gives it back."""
    s, e, m = FP16.split(h)
    delta = FP32.bias - FP16.bias
    shift = FP32.mant - FP16.mant
    lead = FP16.mant - _bit_length(m)
    sub = (e == 0) & (m != 0)
    expo = np.where(sub, delta - lead, np.where((e == 0) & (m == 0), 0, e + delta))
    mant = np.where(sub, (m << (lead + 1)) & FP16.mmask, m) << shift
    out = FP32.join(s, expo, mant)
    out = np.where(FP16.is_inf(h), FP32.largest(s), out)
    return np.where(FP16.is_nan(h), FP32.join(s, FP32.emax, m), out)


def fp32_to_fp16(f: ArrayLike) -> Bits:
    """FP32 -> FP16 (FpWidthDec<8,23,5,10>): round to nearest even; too large (an infinity too) saturates
    to the largest finite value; the subnormal range rounds to nearest even; below it 0. A NaN keeps the low
    10 bits of its mantissa: a NaN whose payload lies only in the high bits comes out as 0x7C00 (the pattern
    of an infinity) - NVIDIA's rule, kept."""
    s, e, m = FP32.split(f)
    delta = FP32.bias - FP16.bias
    drop = FP32.mant - FP16.mant
    full = m | (1 << FP32.mant)
    # normal range: one RNE on the 24-bit significand
    kept, carry = _rne(full, drop)
    norm = kept + carry                               # up to 2^11 (a carry into the exponent)
    n_expo = e - delta + (norm >> (FP16.mant + 1))
    n_out = np.where(n_expo >= FP16.emax, FP16.largest(s), FP16.join(s, n_expo, norm))
    # subnormal range: shift right by (delta - e + 1) more, RNE over everything dropped
    shift = np.clip(delta - e + 1 + drop, drop, 40)
    sk = full >> shift
    guard = (full >> (shift - 1)) & 1
    sticky = (full & ((np.int64(1) << (shift - 1)) - 1)) != 0
    sub = sk + (guard & (sticky | ((sk & 1) == 1)).astype(np.int64))
    out = np.where(e >= FP16.emax + delta, FP16.largest(s),
                   np.where(e < delta - FP16.mant, FP16.join(s, 0, 0),
                            np.where(e <= delta, FP16.join(s, sub >> FP16.mant, sub), n_out)))
    return np.where(FP32.is_nan(f), FP16.join(s, FP16.emax, m & FP16.mmask), out)


def fp17_to_fp32(f: ArrayLike) -> Bits:
    """FP17 -> FP32 (FpWidthInc<6,10,8,23> without denormals): exact for every normal; exponent 0 with a
    non-zero mantissa is read with an implied 1 (2^-31 x 1.mant); an infinity becomes FP32's largest finite
    value; a NaN keeps its payload in the low mantissa bits."""
    s, e, m = FP17.split(f)
    zero = (e == 0) & (m == 0)
    out = np.where(zero, FP32.join(s, 0, 0),
                   FP32.join(s, e + FP32.bias - FP17.bias, m << (FP32.mant - FP17.mant)))
    out = np.where(FP17.is_inf(f), FP32.largest(s), out)
    return np.where(FP17.is_nan(f), FP32.join(s, FP32.emax, m), out)


def fp32_to_fp17(f: ArrayLike) -> Bits:
    """FP32 -> FP17 (FpWidthDec<8,23,6,10> without denormals): round to nearest even; too large (an infinity
    too) saturates to the largest finite value; what would be an FP17 subnormal is 0, unless its rounding
    carries it up to the smallest normal; a NaN keeps the low 10 bits of its mantissa."""
    s, e, m = FP32.split(f)
    delta = FP32.bias - FP17.bias
    drop = FP32.mant - FP17.mant
    full = m | (1 << FP32.mant)
    kept, carry = _rne(full, drop)
    norm = kept + carry                               # up to 2^11 (a carry into the exponent)
    n_expo = e - delta + (norm >> (FP17.mant + 1))
    n_out = np.where(n_expo >= FP17.emax, FP17.largest(s), FP17.join(s, n_expo, norm))
    # the subnormal range: only a rounding up to 2^-30 survives (FpMantDecShiftRight's carry out)
    shift = np.clip(delta - e + 1 + drop, drop, 40)
    sk = full >> shift
    guard = (full >> (shift - 1)) & 1
    sticky = (full & ((np.int64(1) << (shift - 1)) - 1)) != 0
    up = (sk + (guard & (sticky | ((sk & 1) == 1)).astype(np.int64))) >> FP17.mant
    sub = np.where(up == 1, FP17.join(s, 1, 0), FP17.join(s, 0, 0))
    out = np.where(e >= FP17.emax + delta, FP17.largest(s),
                   np.where(e < delta - FP17.mant, FP17.join(s, 0, 0),
                            np.where(e <= delta, sub, n_out)))
    return np.where(FP32.is_nan(f), FP17.join(s, FP17.emax, m & FP17.mmask), out)


def fraction_to_fp17(u: ArrayLike, width: int) -> Bits:
    """u / 2^width as FP17 (FpFractionToFloat<width,6,10>): the fraction rounded to 11 significant bits
    (nearest even); 0 is +0, and so is anything below 2^-30 that does not round up to it."""
    v = np.asarray(u, dtype=np.int64) & ((np.int64(1) << width) - 1)
    zeros = width - _bit_length(v)                    # leading zeros in `width` bits
    full = np.int64(1) << width
    shifted = (v << np.clip(zeros + 1, 0, width + 1)) & (full - 1)   # the leading one shifted out
    kept, carry = _rne(shifted | full, width - FP17.mant)            # 1.mant, 11 significant bits
    total = kept + carry
    over = total >> (FP17.mant + 1)                   # 1.111..1 rounded up to 2.0
    expo = FP17.bias - zeros - 1 + over
    out = FP17.join(0, expo, np.where(over == 1, 0, total))
    return np.where((v == 0) | ((over == 0) & (zeros >= FP17.bias - 1)), 0, out)


def uint16_to_fp17(u: ArrayLike) -> Bits:
    """u / 2^16 as FP17 (HLS_uint16_to_fp17)."""
    return fraction_to_fp17(u, 16)


def int_to_fp16(i: ArrayLike) -> Bits:
    """A signed integer (17 bits: SDP's output convertor result) to FP16 (FpIntToFloat<17,5,10>): round to
    nearest even, magnitudes from 65520 up saturate to the largest finite value (+-65504)."""
    v = np.asarray(i, dtype=np.int64)
    sign = (v < 0).astype(np.int64)
    mag = np.abs(v)
    width = _bit_length(mag)                          # the leading one at bit width - 1
    drop = np.clip(width - (FP16.mant + 1), 0, 40)    # bits below the 11 significant ones
    kept = mag >> drop
    guard = np.where(drop > 0, (mag >> np.clip(drop - 1, 0, 40)) & 1, 0)
    sticky = (mag & ((np.int64(1) << np.clip(drop - 1, 0, 40)) - 1)) != 0
    total = kept + (guard & (sticky | ((kept & 1) == 1)).astype(np.int64))
    significand = total << np.clip(FP16.mant + 1 - width, 0, FP16.mant)   # short values: shifted up
    expo = width - 1 + FP16.bias + (total >> (FP16.mant + 1))
    out = np.where(expo >= FP16.emax, FP16.largest(sign), FP16.join(sign, expo, significand))
    return np.where(v == 0, 0, out)
