"""LUT programming helper at FP16 (seed 000 "LUT programming" with the FP16 encodings): from a function and an
input range, the tables (FP16 entries), START/END (FP32), the out-of-range slopes (FP16) and the priorities
of the hybrid LUT, validated with the FP16 Limitation rows (models/lut/model.py) and measured with the
model's FP16
LUT (models/lut/fp16.py).

At FP16 the LUT sees the data itself (FP32 values of FP16 inputs): no input scaling, and each entry is
f(position) rounded to the nearest FP16. Tables are linear (entry step 2^SELECT from START, START a multiple
of the step so that END = START + 2^(SELECT + 6|8) is exact in FP32, as seed 001 asks). Layouts as the
integer helper's (models/lut/program.py): "lo_only" (one 257-entry LO over the range, the LE mirroring it),
"le_density" (the LO over the range, a finer LE density table inside it), "lo_density" (the LE over the
range, a finer LO density table inside it), each density table placed where the error is smallest, and
"hybrid", the better of the two density layouts. The slopes are f' at the table ends (FP16).

The error is measured on the unit's FP16 output: SDP widens the LUT's FP17 result to FP32 and rounds it to
FP16 at its output; CDP rounds the FP17 straight to FP16. LutProgram.out_scale is 2^15 so that its "LSB" is
the INT16 helper's (the report puts both side by side).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
from numpy.typing import NDArray

from models.common import nvfloat
from models.common.nvfloat import FP16
from models.errors import ConfigError
from models.lut.fp16 import fp32_bits, lookup_fp16
from models.lut.model import LE_ENTRIES, LINEAR, LO_ENTRIES, LutConfig
from models.lut.program import ErrorReport, Fn, LutProgram, lrn_fn, sigmoid_fn, tanh_fn
from models.lut.regs import lut_fields

OUT_SCALE = 2.0 ** 15              # the report's LSB: the INT16 helper's output LSB
_LAYOUTS = ("hybrid", "le_density", "lo_density", "lo_only")
# priorities: the density table wins where both hit, the raw table (reaching further) where both flow
_LE_DENSITY = {"uflow": 1, "oflow": 1, "hybrid": 0}
_LO_DENSITY = {"uflow": 0, "oflow": 0, "hybrid": 1}
_SEARCH_STARTS = 12
_SEARCH_SELECTS = 5


def fp16_inputs(lo: float, hi: float) -> NDArray[np.float64]:
    """Every finite FP16 value in [lo, hi], ascending."""
    bits = np.arange(1 << 16, dtype=np.int64)
    v = bits.astype(np.uint16).view(np.float16).astype(np.float64)
    keep = np.isfinite(v) & (v >= lo) & (v <= hi) & (bits != 0x8000)   # -0 and +0 are one input
    return np.sort(v[keep])


def _f16_bits(values: NDArray[np.float64]) -> NDArray[np.int64]:
    with np.errstate(over="ignore"):
        return np.asarray(values, dtype=np.float64).astype(np.float16).view(np.uint16).astype(np.int64)


def _table(start: float, select: int, entries: int, fn: Fn) -> tuple[int, int, NDArray[np.int64]]:
    """(START bits, END bits, FP16 entries) of a linear table of `entries` from `start` step 2^select."""
    step = 2.0 ** select
    pos = start + np.arange(entries) * step
    with np.errstate(all="ignore"):
        y = np.asarray(fn(pos), dtype=np.float64)
    if not np.all(np.isfinite(y)):
        raise ValueError("the function is not finite at a table entry")
    end = start + step * (entries - 1)
    return fp32_bits(start), fp32_bits(end), _f16_bits(y)


def _slope(fn: Fn, x: float, h: float, inward: int) -> int:
    """f'(x) looking `inward` (+1 right, -1 left), as an FP16 bit pattern."""
    pts = x + inward * h * np.array([0.0, 1.0, 2.0])
    with np.errstate(all="ignore"):
        y = np.asarray(fn(pts), dtype=np.float64)
    d = inward * (-3 * y[0] + 4 * y[1] - y[2]) / (2 * h)
    return int(_f16_bits(np.array([d if math.isfinite(d) else 0.0]))[0])


def _program(fn: Fn, unit: str, x_min: float, x_max: float, le: tuple[float, int], lo: tuple[float, int],
             prio: Mapping[str, int], layout: str, domain: tuple[float | None, float | None]) -> LutProgram:
    le_start, le_end, le_t = _table(le[0], le[1], LE_ENTRIES, fn)
    lo_start, lo_end, lo_t = _table(lo[0], lo[1], LO_ENTRIES, fn)
    cfg = LutConfig(
        le_function=LINEAR, le_index_select=le[1], lo_index_select=lo[1], le_start=le_start, le_end=le_end,
        lo_start=lo_start, lo_end=lo_end,
        le_uflow_scale=_slope(fn, le[0], 2.0 ** le[1] / 64, +1),
        le_oflow_scale=_slope(fn, le[0] + 2.0 ** (le[1] + 6), 2.0 ** le[1] / 64, -1),
        lo_uflow_scale=_slope(fn, lo[0], 2.0 ** lo[1] / 64, +1),
        lo_oflow_scale=_slope(fn, lo[0] + 2.0 ** (lo[1] + 8), 2.0 ** lo[1] / 64, -1),
        uflow_priority=prio["uflow"], oflow_priority=prio["oflow"], hybrid_priority=prio["hybrid"],
        unit=unit, precision="FP16", le=le_t, lo=lo_t)
    prog = LutProgram(unit=unit, field_values=lut_fields(cfg), le=cfg.le, lo=cfg.lo, in_scale=1.0,
                      out_scale=OUT_SCALE, x_min=x_min, x_max=x_max, layout=layout, domain=domain,
                      precision="FP16")
    prog.lut_config()   # the FP16 Limitation rules (ConfigError)
    return prog


def _raw(x_min: float, x_max: float, steps: int) -> tuple[float, int]:
    """(START, SELECT) of a linear table of 2^steps steps from x_min (rounded down to a step) that reaches
    x_max."""
    select = math.ceil(math.log2(x_max - x_min)) - steps
    start = math.floor(x_min / 2.0 ** select) * 2.0 ** select
    if start + 2.0 ** (select + steps) < x_max:
        select += 1
        start = math.floor(x_min / 2.0 ** select) * 2.0 ** select
    return start, select


def lut_inputs(prog: LutProgram, lo: float, hi: float, n: int = 1 << 18) -> NDArray[np.float64]:
    """The inputs an error report samples in [lo, hi]: every FP16 value for SDP (its LUT sees FP16 data
    widened), for CDP (FP32 square sums) n evenly spaced FP32 values plus n/64 log-spaced ones from lo."""
    if prog.unit == "SDP":
        return fp16_inputs(lo, hi)
    grid = np.concatenate([np.linspace(lo, hi, n), lo + np.geomspace(2.0 ** -20, hi - lo, n // 64)])
    return np.unique(grid.astype(np.float32).astype(np.float64))


def lut_output(prog: LutProgram, x: NDArray[np.float64]) -> NDArray[np.float64]:
    """The unit's FP16 output of the LUT alone for inputs x (SDP: FP16 data, FP17 -> FP32 -> FP16; CDP:
    FP32 square sums, FP17 -> FP16)."""
    if prog.unit == "SDP":
        bits = nvfloat.fp16_to_fp32(_f16_bits(x))
    else:
        bits = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.int64)
    res = lookup_fp16(bits, prog.lut_config())
    if prog.unit == "SDP":
        out = nvfloat.fp32_to_fp16(nvfloat.fp17_to_fp32(res.output))
    else:
        out = nvfloat.fp17_to_fp16(res.output)
    return out.astype(np.uint16).view(np.float16).astype(np.float64)


def _errors(prog: LutProgram, fn: Fn, x: NDArray[np.float64]) -> NDArray[np.float64]:
    with np.errstate(all="ignore"):
        ref = np.asarray(fn(x), dtype=np.float64)
    return np.abs(lut_output(prog, x) - ref) * prog.out_scale


def error_report(prog: LutProgram, fn: Fn, margin: float = 0.25) -> ErrorReport:
    """|LUT - f| in units of 2^-15 over the range and `margin` of its width beyond (lut_inputs)."""
    width = prog.x_max - prog.x_min
    lo, hi = prog.x_min - margin * width, prog.x_max + margin * width
    dmin, dmax = prog.domain
    x = lut_inputs(prog, lo if dmin is None else max(lo, dmin), hi if dmax is None else min(hi, dmax))
    err = _errors(prog, fn, x)
    inside = (x >= prog.x_min) & (x <= prog.x_max)
    e_in = err[inside]
    worst = int(np.argmax(e_in))
    beyond = float(np.max(err[~inside])) if np.any(~inside) else math.nan
    return ErrorReport(max_lsb=float(e_in[worst]), mean_lsb=float(np.mean(e_in)),
                       worst_input=int(_f16_bits(x[inside][worst : worst + 1])[0]), beyond_max_lsb=beyond,
                       samples=int(x.size))


def _search(fn: Fn, unit: str, x_min: float, x_max: float, raw: tuple[float, int], dense_steps: int,
            layout: str, domain: tuple[float | None, float | None]) -> LutProgram:
    """The density table (2^dense_steps steps, finer than the raw table) with the smallest maximum error
    over the range (every other FP16 input: the search's grid)."""
    grid = lut_inputs(_probe(unit), x_min, x_max, 1 << 13)[::2]
    raw_steps = 6 if dense_steps == 8 else 8
    prio = _LE_DENSITY if dense_steps == 6 else _LO_DENSITY
    top = raw[1] + raw_steps - dense_steps - 1        # one step finer than the raw table
    best: tuple[float, LutProgram] | None = None
    for select in range(top, top - _SEARCH_SELECTS, -1):
        room = (x_max - x_min) - 2.0 ** (select + dense_steps)
        if room < 0:
            continue
        for k in range(_SEARCH_STARTS + 1):
            start = math.floor((x_min + room * k / _SEARCH_STARTS) / 2.0 ** select) * 2.0 ** select
            dense = (start, select)
            le, lo = (dense, raw) if dense_steps == 6 else (raw, dense)
            try:
                prog = _program(fn, unit, x_min, x_max, le, lo, prio, layout, domain)
            except ConfigError:
                continue
            score = float(np.max(_errors(prog, fn, grid)))
            if best is None or score < best[0]:
                best = (score, prog)
    if best is None:
        raise ConfigError(f"LUT: no FP16 {layout} placement fits the range", {"x_min": x_min, "x_max": x_max})
    return best[1]


def _probe(unit: str) -> LutProgram:
    """A stand-in carrying only the unit (lut_inputs looks at nothing else)."""
    return LutProgram(unit=unit, field_values={}, le=np.zeros(LE_ENTRIES, np.int16),
                      lo=np.zeros(LO_ENTRIES, np.int16))


def program_fp16(fn: Fn, x_min: float, x_max: float, *, unit: str = "SDP", layout: str = "hybrid",
                 density: tuple[float, float] | None = None,
                 domain: tuple[float | None, float | None] = (None, None)) -> LutProgram:
    """Program the LUT at FP16 to approximate fn over [x_min, x_max] (module docstring for the layouts).
    density=(a, b) fixes the density table's range instead of searching it ("le_density" or "lo_density");
    domain=(lo, hi) is where fn is defined (error reports sample nothing outside it). Raises ConfigError
    when no placement satisfies the FP16 Limitation rules."""
    if layout not in _LAYOUTS:
        raise ValueError(f"layout must be one of {_LAYOUTS}, got {layout!r}")
    if not x_max > x_min:
        raise ValueError("need x_max > x_min")
    lo_raw, le_raw = _raw(x_min, x_max, 8), _raw(x_min, x_max, 6)
    if layout == "lo_only":   # LE spans the same range 4x coarser: only-LE hits never happen
        return _program(fn, unit, x_min, x_max, (lo_raw[0], lo_raw[1] + 2), lo_raw,
                        {"uflow": 1, "oflow": 1, "hybrid": 1}, layout, domain)
    if density is not None:
        if layout == "lo_density":
            return _program(fn, unit, x_min, x_max, le_raw, _raw(*density, 8), _LO_DENSITY, layout, domain)
        return _program(fn, unit, x_min, x_max, _raw(*density, 6), lo_raw, _LE_DENSITY, "le_density", domain)
    found = []
    if layout in ("hybrid", "le_density"):
        found.append(_search(fn, unit, x_min, x_max, lo_raw, 6, "le_density", domain))
    if layout in ("hybrid", "lo_density"):
        found.append(_search(fn, unit, x_min, x_max, le_raw, 8, "lo_density", domain))
    return min(found, key=lambda p: error_report(p, fn, margin=0.0).max_lsb)


def sigmoid_fp16(*, unit: str = "SDP", x_range: tuple[float, float] = (-16.0, 16.0),
                 layout: str = "hybrid") -> LutProgram:
    """Sigmoid over [-16, 16] at FP16 (beyond it, the slopes keep it on its asymptotes)."""
    return program_fp16(sigmoid_fn, *x_range, unit=unit, layout=layout)


def tanh_fp16(*, unit: str = "SDP", x_range: tuple[float, float] = (-8.0, 8.0),
              layout: str = "hybrid") -> LutProgram:
    return program_fp16(tanh_fn, *x_range, unit=unit, layout=layout)


def lrn_fp16(*, k: float = 1.0, alpha: float = 1e-4, beta: float = 0.75, size: int = 5,
             s_max: float = 2.0 ** 24, layout: str = "hybrid") -> LutProgram:
    """CDP LRN at FP16: (k + alpha/size * s)^-beta over FP32 square sums s in [0, s_max] (the integer
    helper's range); the error on CDP's FP16 output of the LUT."""
    return program_fp16(lrn_fn(k, alpha, beta, size), 0.0, s_max, unit="CDP", layout=layout,
                        domain=(0.0, None))


__all__ = ["FP16", "error_report", "fp16_inputs", "lrn_fp16", "lut_output", "program_fp16", "sigmoid_fp16",
           "tanh_fp16"]
