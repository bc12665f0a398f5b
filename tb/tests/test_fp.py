"""Bench of the float primitives (rtl/fp/) against models/common/nvfloat.py, bit for bit.

The DUTs are combinational; tb/hdl wrappers put LANES copies side by side (nvdla_fp_ops_tb: add, sub, mul,
max, min of one format; nvdla_fp_cvt_tb: widen and narrow between two formats), so each simulation step
scores LANES operand pairs. Operands: the format's corners (zeros of both signs, subnormals, the smallest
normal, the largest finite value, infinities, NaNs) crossed with each other; random operands drawn to hit
exact cancellations, huge and small exponent differences, rounding ties (sparse mantissas), the flush and
overflow boundaries; and exhaustive sweeps where cheap (every FP16/FP17 pattern against a sample, every
FP32 exponent pair). A mismatch reports the format, operation, operands, expected and actual in hex.
"""

from __future__ import annotations

from collections.abc import Callable

import cocotb
import numpy as np
from cocotb.triggers import Timer

from models.common import nvfloat
from models.common.nvfloat import Format
from tb import outcome
from tb.common import bench_params, make_rng, scaled

Bits = np.ndarray
Op = Callable[[Bits, Bits], Bits]
MAX_REPORTED = 8    # mismatches listed before the test fails


def _pack(values: Bits, width: int) -> int:
    """Lane i of `values` in bits [i*width, (i+1)*width) of one integer (vectorised: bit matrices)."""
    bits = (values.astype(np.uint64)[:, None] >> np.arange(width, dtype=np.uint64)) & np.uint64(1)
    flat = np.packbits(bits.astype(np.uint8).reshape(-1), bitorder="little")
    return int.from_bytes(flat.tobytes(), "little")


def _unpack(word: int, width: int, lanes: int) -> Bits:
    raw = np.frombuffer(word.to_bytes((lanes * width + 7) // 8, "little"), dtype=np.uint8)
    bits = np.unpackbits(raw, bitorder="little")[:lanes * width].reshape(lanes, width).astype(np.int64)
    return bits @ (np.int64(1) << np.arange(width, dtype=np.int64))


def _fill(values: Bits, lanes: int) -> Bits:
    """Pad to a whole number of lanes (the padding repeats the first value; its results are dropped)."""
    extra = (-len(values)) % lanes
    return np.concatenate([values, np.full(extra, values[0], dtype=np.int64)])


def _fmt_hex(fmt: Format, v: int) -> str:
    return f"0x{v:0{(fmt.expo + fmt.mant + 4) // 4}x}"


async def _drive(dut, inputs: dict[str, tuple[Bits, int]], outputs: dict[str, int]) -> dict[str, Bits]:
    """Drive every input vector (name -> values, lane width) a wrapper's LANES at a time; the outputs'
    values."""
    first = next(iter(inputs))
    lanes = len(getattr(dut, first)) // inputs[first][1]
    n = len(inputs[first][0])
    padded = {k: (_fill(v, lanes), w) for k, (v, w) in inputs.items()}
    got: dict[str, list[Bits]] = {k: [] for k in outputs}
    for start in range(0, len(padded[first][0]), lanes):
        for name, (values, width) in padded.items():
            getattr(dut, name).value = _pack(values[start:start + lanes], width)
        await Timer(1, unit="ns")
        for name, width in outputs.items():
            got[name].append(_unpack(int(getattr(dut, name).value), width, lanes))
    return {k: np.concatenate(v)[:n] for k, v in got.items()}


def _compare(what: str, fmt_in: Format, fmt_out: Format, operands: list[Bits], expected: Bits,
             actual: Bits) -> None:
    bad = np.nonzero(expected != actual)[0]
    if len(bad) == 0:
        return
    lines = []
    for i in bad[:MAX_REPORTED]:
        ops = ", ".join(_fmt_hex(fmt_in, int(o[i])) for o in operands)
        lines.append(f"  {what}({ops}): expected {_fmt_hex(fmt_out, int(expected[i]))}, "
                     f"got {_fmt_hex(fmt_out, int(actual[i]))}")
    raise AssertionError(f"{what} E{fmt_out.expo}M{fmt_out.mant}: {len(bad)} of {len(expected)} results "
                         "differ from models/common/nvfloat.py:\n" + "\n".join(lines))


# ---------------------------------------------------------------- operands

def corners(fmt: Format) -> Bits:
    """Both signs of: 0, subnormals, the smallest normals, around 1, the largest finite values, infinity,
    NaNs (quiet, payload 1, all ones) and the exponents next to the top and the bottom."""
    e, m, em = fmt.emax, fmt.mmask, fmt.mant
    pairs = [(0, 0), (0, 1), (0, 2), (0, m), (0, 1 << (em - 1)), (1, 0), (1, 1), (1, m), (2, 0), (2, m),
             (fmt.bias, 0), (fmt.bias, 1), (fmt.bias, 1 << (em - 1)), (fmt.bias - 1, m), (fmt.bias + 1, 0),
             (fmt.bias, m), (e - 1, m), (e - 1, m - 1), (e - 1, 0), (e - 2, m), (e - 2, 0),
             (e, 0), (e, 1), (e, 1 << (em - 1)), (e, m), (fmt.bias - em - 2, 0), (fmt.bias + em + 2, 3)]
    out = [int(fmt.join(s, x, y)) for s in (0, 1) for x, y in pairs]
    return np.array(sorted(set(out)), dtype=np.int64)


def random_operands(fmt: Format, rng: np.random.Generator, n: int) -> tuple[Bits, Bits]:
    """Pairs drawn in kinds that each aim at a rule: uniform bit patterns; exponents close together with
    sparse mantissas (alignment and rounding ties); exact and near cancellations; huge exponent differences;
    the flush and overflow boundaries of add and of mul; operands from the corners."""
    window = 2 * fmt.mant + 3
    k = n // 8
    sign = lambda size: rng.integers(0, 2, size)                       # noqa: E731
    mant = lambda size: rng.integers(0, 1 << fmt.mant, size)           # noqa: E731
    expo = lambda size: rng.integers(0, fmt.emax + 1, size)            # noqa: E731

    def sparse(size: int) -> Bits:
        bits = rng.integers(0, fmt.mant, (size, 3))
        keep = rng.random((size, 3)) < 0.6
        return ((np.int64(1) << bits) * keep).sum(axis=1) & fmt.mmask

    def clip(x: Bits) -> Bits:
        return np.clip(x, 0, fmt.emax)

    a_parts, b_parts = [], []
    # uniform patterns
    a_parts.append(fmt.join(sign(k), expo(k), mant(k)))
    b_parts.append(fmt.join(sign(k), expo(k), mant(k)))
    # close exponents, sparse mantissas: the alignment window and ties
    ea = rng.integers(0, fmt.emax, k)
    a_parts.append(fmt.join(sign(k), ea, sparse(k)))
    b_parts.append(fmt.join(sign(k), clip(ea + rng.integers(-window - 2, window + 3, k)), sparse(k)))
    # cancellations: -a exactly, or a few ulps away
    a = fmt.join(sign(k), rng.integers(0, fmt.emax, k), mant(k))
    a_parts.append(a)
    ulps = rng.integers(-2, 3, k) * (rng.random(k) < 0.5)
    b_parts.append((a ^ (np.int64(1) << (fmt.expo + fmt.mant))) + ulps)
    # huge exponent differences
    ea = rng.integers(0, fmt.emax, k)
    a_parts.append(fmt.join(sign(k), ea, mant(k)))
    b_parts.append(fmt.join(sign(k), rng.integers(0, fmt.emax, k), mant(k)))
    # add near the bottom (flush) and the top (overflow)
    low, high = rng.integers(0, 4, k), fmt.emax - rng.integers(1, 4, k)
    top = rng.random(k) < 0.5
    a_parts.append(fmt.join(sign(k), np.where(top, high, low), mant(k)))
    b_parts.append(fmt.join(sign(k), np.where(top, high, low) + rng.integers(-1, 1, k) * top, mant(k)))
    # mul: exponent sums near the bias (flush) and near emax + bias (overflow)
    ea = rng.integers(1, fmt.emax, k)
    target = np.where(rng.random(k) < 0.5, fmt.bias, fmt.emax - 1 + fmt.bias)
    a_parts.append(fmt.join(sign(k), ea, np.where(rng.random(k) < 0.5, sparse(k), mant(k))))
    b_parts.append(fmt.join(sign(k), clip(target - ea + rng.integers(-2, 3, k)),
                            np.where(rng.random(k) < 0.5, sparse(k), mant(k))))
    # mul ties: products of sparse mantissas, exponents anywhere
    a_parts.append(fmt.join(sign(k), expo(k), sparse(k)))
    b_parts.append(fmt.join(sign(k), expo(k), sparse(k)))
    # corners against anything
    c = corners(fmt)
    rest = n - 7 * k
    a_parts.append(np.where(rng.random(rest) < 0.5, rng.choice(c, rest), fmt.join(sign(rest), expo(rest),
                                                                                   mant(rest))))
    b_parts.append(rng.choice(c, rest))
    mask = (np.int64(1) << (1 + fmt.expo + fmt.mant)) - 1
    return np.concatenate(a_parts) & mask, np.concatenate(b_parts) & mask


# ---------------------------------------------------------------- fp_ops

def _ops_format() -> Format:
    p = bench_params()
    return Format(p["E"], p["M"])


def _model_ops(fmt: Format) -> dict[str, Op]:
    return {"sum": lambda a, b: nvfloat.add(fmt, a, b), "diff": lambda a, b: nvfloat.sub(fmt, a, b),
            "prod": lambda a, b: nvfloat.mul(fmt, a, b), "max": lambda a, b: nvfloat.maximum(fmt, a, b),
            "min": lambda a, b: nvfloat.minimum(fmt, a, b)}


async def score_ops(dut, fmt: Format, a: Bits, b: Bits) -> int:
    width = 1 + fmt.expo + fmt.mant
    ops = _model_ops(fmt)
    got = await _drive(dut, {"a": (a, width), "b": (b, width)}, {name: width for name in ops})
    for name, op in ops.items():
        _compare(name, fmt, fmt, [a, b], op(a, b), got[name])
    return len(a)


@cocotb.test()
async def ops_corners(dut) -> None:
    """Every pair of the format's corner values, both orders."""
    fmt = _ops_format()
    c = corners(fmt)
    a, b = np.repeat(c, len(c)), np.tile(c, len(c))
    outcome.checked(await score_ops(dut, fmt, a, b) * 5, "results")


@cocotb.test()
async def ops_random(dut) -> None:
    """Random operands aimed at each rule (random_operands), both orders."""
    fmt = _ops_format()
    rng = np.random.default_rng(make_rng("ops_random").getrandbits(64))
    a, b = random_operands(fmt, rng, scaled(40_000, 1_000_000))
    n = await score_ops(dut, fmt, np.concatenate([a, b]), np.concatenate([b, a]))
    outcome.checked(n * 5, "results")


@cocotb.test()
async def ops_exhaustive(dut) -> None:
    """FP16/FP17: every bit pattern as a, then as b, against a sample of the other operand (corners and
    random). FP32: every pair of exponents (both signs, random mantissas, sparse ones half the time)."""
    fmt = _ops_format()
    rng = np.random.default_rng(make_rng("ops_exhaustive").getrandbits(64))
    width = 1 + fmt.expo + fmt.mant
    total = 0
    if width <= 17:
        every = np.arange(1 << width, dtype=np.int64)
        c = corners(fmt)
        sample = np.concatenate([rng.choice(c, scaled(2, 8), replace=False),
                                 rng.integers(0, 1 << width, scaled(2, 24))])
        for v in sample:
            other = np.full_like(every, v)
            total += await score_ops(dut, fmt, every, other)
            total += await score_ops(dut, fmt, other, every)
    else:
        ea, eb = np.meshgrid(np.arange(fmt.emax + 1), np.arange(fmt.emax + 1))
        ea, eb = ea.reshape(-1), eb.reshape(-1)
        n = len(ea)
        for _ in range(scaled(1, 8)):
            ma, mb = (np.where(rng.random(n) < 0.5, rng.integers(0, 1 << fmt.mant, n),
                               np.int64(1) << rng.integers(0, fmt.mant, n)) for _ in "ab")
            a = fmt.join(rng.integers(0, 2, n), ea, ma)
            b = fmt.join(rng.integers(0, 2, n), eb, mb)
            total += await score_ops(dut, fmt, a, b)
    outcome.checked(total * 5, "results")


# ---------------------------------------------------------------- fp_cvt

_WIDEN = {(5, 10, 6, 10): nvfloat.fp16_to_fp17, (5, 10, 8, 23): nvfloat.fp16_to_fp32,
          (6, 10, 8, 23): nvfloat.fp17_to_fp32}
_NARROW = {(5, 10, 6, 10): nvfloat.fp17_to_fp16, (5, 10, 8, 23): nvfloat.fp32_to_fp16,
           (6, 10, 8, 23): nvfloat.fp32_to_fp17}


def _cvt_formats() -> tuple[Format, Format]:
    p = bench_params()
    return Format(p["EN"], p["MN"]), Format(p["EW"], p["MW"])


def _key(narrow: Format, wide: Format) -> tuple[int, int, int, int]:
    return narrow.expo, narrow.mant, wide.expo, wide.mant


async def score_cvt(dut, narrow: Format, wide: Format, n_in: Bits, w_in: Bits) -> int:
    """Widen n_in and narrow w_in (the same count: the shorter one is cycled); both scored."""
    count = max(len(n_in), len(w_in))
    n_in, w_in = np.resize(n_in, count), np.resize(w_in, count)
    nw, ww = 1 + narrow.expo + narrow.mant, 1 + wide.expo + wide.mant
    got = await _drive(dut, {"narrow_in": (n_in, nw), "wide_in": (w_in, ww)}, {"widened": ww, "narrowed": nw})
    key = _key(narrow, wide)
    _compare("widen", narrow, wide, [n_in], _WIDEN[key](n_in), got["widened"])
    _compare("narrow", wide, narrow, [w_in], _NARROW[key](w_in), got["narrowed"])
    return 2 * count


@cocotb.test()
async def cvt_sweep(dut) -> None:
    """Widen every narrow pattern; narrow every wide pattern (FP17), or for FP32 every exponent with the
    mantissas that decide rounding (0, all ones, every one- and two-bit pattern: ties at each shift)."""
    narrow, wide = _cvt_formats()
    every_narrow = np.arange(1 << (1 + narrow.expo + narrow.mant), dtype=np.int64)
    if 1 + wide.expo + wide.mant <= 17:
        wide_in = np.arange(1 << (1 + wide.expo + wide.mant), dtype=np.int64)
    else:
        m = wide.mant
        single = [1 << i for i in range(m)]
        double = [(1 << i) | (1 << j) for i in range(m) for j in range(i)]
        mants = np.array([0, wide.mmask, *single, *double], dtype=np.int64)
        e, mm, s = np.meshgrid(np.arange(wide.emax + 1), mants, (0, 1))
        wide_in = wide.join(s.reshape(-1), e.reshape(-1), mm.reshape(-1))
    outcome.checked(await score_cvt(dut, narrow, wide, every_narrow, wide_in), "conversions")


@cocotb.test()
async def cvt_random(dut) -> None:
    """Random patterns both ways, with the wide side's exponents concentrated on the narrow format's
    subnormal range, its top and the flush boundary."""
    narrow, wide = _cvt_formats()
    rng = np.random.default_rng(make_rng("cvt_random").getrandbits(64))
    n = scaled(20_000, 400_000)
    delta = wide.bias - narrow.bias
    n_in = rng.integers(0, 1 << (1 + narrow.expo + narrow.mant), n)
    near = np.concatenate([np.arange(delta - narrow.mant - 2, delta + 3),
                           np.arange(narrow.emax + delta - 3, narrow.emax + delta + 2), [0, 1, wide.emax]])
    e = np.where(rng.random(n) < 0.7, rng.choice(near, n), rng.integers(0, wide.emax + 1, n))
    w_in = wide.join(rng.integers(0, 2, n), e, rng.integers(0, 1 << wide.mant, n))
    outcome.checked(await score_cvt(dut, narrow, wide, n_in, w_in), "conversions")
