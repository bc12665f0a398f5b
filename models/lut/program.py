"""LUT programming helper: from a function, an input range and the input/output scaling, derive the hybrid
LUT's table contents and S_LUT_* register values (seed 000 "LUT programming", seed 002 "Activation" and
"CDP convertors"), validate them with the model's Limitation rules (models/lut/model.py) and measure the
error of
the programmed LUT against the float function.

Scaling (seed 000): the LUT input is the integer X = x * in_scale (the upstream convertor's job), every
entry is round(f(x) * out_scale) saturated to int16, so one output LSB is 1 / out_scale.

- linear table covering [min, max]: START = min * in_scale, END - START = 2^(SELECT + log2(entries - 1)),
  so the input span must be a power of two (we round it up; the table then reaches past max);
- exponential LE: entry i sits at X = START + 2^(LE_INDEX_OFFSET + i); we put entry 0 on the range's start;
- out-of-range: y = T[0|last] + (X - edge) * SCALE / 2^SHIFT, so SCALE / 2^SHIFT is the function's slope at
  the edge in output LSBs per input LSB (seed 000 "Out-of-range control");
- priorities: the denser table wins where both hit; the table reaching further wins a shared under/overflow.

Layouts: "lo_only" (one 257-entry linear LO table over the range; LE mirrors it and is never selected),
"le_density" (LO raw over the range, LE linear density table inside: the seeds' activation recommendation),
"lo_density" (LE raw over the range, linear or exponential, LO density table inside: the seeds' LRN
recommendation with an exponential LE), "hybrid" (the best of the density layouts the LE mode allows,
density placement searched for the smallest maximum error).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray

from models.common.precision import rshift_round, saturate
from models.errors import ConfigError
from models.lut.model import (
    EXPONENT,
    INPUT_BITS,
    LE_ENTRIES,
    LINEAR,
    LO_ENTRIES,
    UNITS,
    LutConfig,
    advisories,
    lut_lookup,
)
from models.lut.regs import table_writes, wide_fields
from models.registers import encode_fields

Fn = Callable[[NDArray[np.float64]], ArrayLike]
FloatArray = NDArray[np.float64]

LE_MODES = ("linear", "exponent", "auto")
LAYOUTS = ("hybrid", "le_density", "lo_density", "lo_only")
PRIORITY_NAMES = ("uflow", "oflow", "hybrid")

# Slope registers: SCALE is a signed 16-bit value, SHIFT a signed 5-bit value (seed 000).
_SCALE_BITS, _SHIFT_MIN, _SHIFT_MAX = 16, -16, 15
# Float -> integer rounding goes through rshift_round on a fixed-point value with this many fraction bits.
_ROUND_FRAC_BITS = 20
# Most points an error evaluation or a placement search looks up.
_MAX_SAMPLES = 1 << 20
_SEARCH_SAMPLES = 4096
_SEARCH_STARTS = 32
_SEARCH_SELECTS = 6
_LO_SELECT_MIN = -8  # seed 001 Limitation, both units (INT8)


@dataclass(frozen=True)
class Placement:
    """Where one table sits on the integer LUT input axis."""

    start: int
    select: int
    """Linear: INDEX_SELECT (entry step 2^select). Exponential: LE_INDEX_OFFSET."""
    exponent: bool = False


@dataclass(frozen=True)
class LutProgram:
    """A programmed LUT: register fields (unsigned, as stored), the two tables and how they were derived."""

    unit: str
    field_values: Mapping[str, int]
    le: NDArray[np.int16]
    lo: NDArray[np.int16]
    in_scale: float = 1.0
    out_scale: float = 1.0
    x_min: float = 0.0
    x_max: float = 0.0
    layout: str = "lo_only"
    domain: tuple[float | None, float | None] = (None, None)
    """Where the function is defined (an error report samples nothing outside it)."""
    notes: tuple[str, ...] = field(default=())
    precision: str = "INT8"
    """The data the LUT looks up ("FP16": FP32 START/END, FP16 entries and slopes; models/lut/fp16_program.py
    programs those)."""

    def fields(self) -> dict[str, int]:
        """{"REG.FIELD": value} of every S_LUT_* field this program sets."""
        return dict(self.field_values)

    def register_values(self) -> dict[str, int]:
        """{register: 32-bit value}, through models.registers.encode_fields."""
        return encode_fields(self.unit, self.field_values)

    def lut_config(self) -> LutConfig:
        """The model's LutConfig (LutConfig.from_fields: raises ConfigError on a broken Limitation rule)."""
        return LutConfig.from_fields({self.unit: self.field_values}, self.unit, (self.le, self.lo),
                                     self.precision)

    def access_writes(self) -> list[tuple[str, int]]:
        """(register, value) writes that load both tables through S_LUT_ACCESS_CFG/DATA (seed 000)."""
        return table_writes(self.unit, self.le, self.lo)


@dataclass(frozen=True)
class ErrorReport:
    """|LUT output - f(x) * out_scale| in output LSBs over integer LUT inputs."""

    max_lsb: float
    """Largest error over the inputs inside [x_min, x_max]."""
    mean_lsb: float
    worst_input: int
    """The integer LUT input of max_lsb."""
    beyond_max_lsb: float
    """Largest error over the inputs outside [x_min, x_max] (nan when none was sampled)."""
    samples: int


# --- helpers -----------------------------------------------------------------------------------------------

def round_to_int(values: ArrayLike) -> NDArray[np.int64]:
    """Float -> nearest integer, half away from zero, through models.common.precision (values within
    +-2^42)."""
    v = np.clip(np.asarray(values, dtype=np.float64), -(2.0 ** 42), 2.0 ** 42)
    fixed = np.trunc(v * (1 << _ROUND_FRAC_BITS)).astype(np.int64)
    return rshift_round(fixed, _ROUND_FRAC_BITS)


def _unique(x: NDArray[np.int64]) -> NDArray[np.int64]:
    """Sorted distinct values (np.unique's hashing is slow on large int64 arrays)."""
    a = np.sort(x)
    return a[np.concatenate([[True], a[1:] != a[:-1]])] if a.size else a


def _ceil_log2(n: int) -> int:
    """Smallest p with 2^p >= n (n >= 1)."""
    return max(int(n) - 1, 0).bit_length()


def _eval(fn: Fn, x: FloatArray) -> FloatArray:
    with np.errstate(all="ignore"):
        return np.asarray(fn(x), dtype=np.float64) * np.ones_like(x)


def _entries(fn: Fn, positions: NDArray[np.float64], in_scale: float, out_scale: float,
             reach: float) -> NDArray[np.int16]:
    """round(f(X / in_scale) * out_scale) saturated to int16 at integer-axis positions.

    Entries placed beyond `reach` (the largest input the unit can present) are never interpolated from, so
    they repeat the last reachable one instead of evaluating f where it may not be defined.
    """
    pos = np.minimum(positions, reach)
    y = _eval(fn, pos / in_scale) * out_scale
    if not np.all(np.isfinite(y)):
        bad = float(pos[~np.isfinite(y)][0]) / in_scale
        raise ValueError(f"the function is not finite at x = {bad} (a table entry)")
    return saturate(round_to_int(y), 16)[0].astype(np.int16)


def _positions(p: Placement, entries: int) -> FloatArray:
    i = np.arange(entries, dtype=np.float64)
    if p.exponent:
        return p.start + np.exp2(p.select + i)
    return p.start + i * 2.0 ** p.select


def _linear_span_log2(entries: int) -> int:
    return (entries - 1).bit_length() - 1


def _end(p: Placement, entries: int, unit: str) -> int:
    """END register: linear START + 2^(select + log2(entries-1)); exponential per seed 001 (capped)."""
    if not p.exponent:
        return p.start + (1 << (p.select + _linear_span_log2(entries)))
    cap = (1 << (INPUT_BITS[unit] - 1)) - 1
    span = min(1 << max(p.select + 64, 0), cap)
    return min(p.start + span, cap)


def _derivative(fn: Fn, x: float, h: float, inward: int) -> float:
    """One-sided second-order difference looking `inward` (+1 right, -1 left): the table's own side."""
    pts = x + inward * h * np.array([0.0, 1.0, 2.0])
    y = _eval(fn, pts)
    d = inward * (-3 * y[0] + 4 * y[1] - y[2]) / (2 * h)
    return float(d) if math.isfinite(float(d)) else 0.0


def quantize_slope(k: float) -> tuple[int, int]:
    """(SCALE, SHIFT) with SCALE / 2^SHIFT closest to k (output LSBs per input LSB), SCALE 16-bit signed.

    The largest SHIFT that keeps SCALE in range gives the finest slope; a slope too steep for SHIFT = -16
    saturates SCALE.
    """
    if k == 0 or not math.isfinite(k):
        return 0, 0
    lim = (1 << (_SCALE_BITS - 1)) - 1
    for shift in range(_SHIFT_MAX, _SHIFT_MIN - 1, -1):
        scale = int(round_to_int(k * 2.0 ** shift))
        if -lim - 1 <= scale <= lim:
            return scale, shift
    return int(saturate(round_to_int(k * 2.0 ** _SHIFT_MIN), _SCALE_BITS)[0]), _SHIFT_MIN


def _slopes(fn: Fn, p: Placement, entries: int, unit: str, in_scale: float,
            out_scale: float) -> tuple[tuple[int, int], tuple[int, int]]:
    """((uflow scale, shift), (oflow scale, shift)) from f' at the table's first and last entries."""
    pos = _positions(p, entries)
    first, last = float(pos[0]), float(min(pos[-1], _end(p, entries, unit)))
    step_lo = float(pos[1] - pos[0])
    step_hi = float(pos[-1] - pos[-2])
    k_u = _derivative(fn, first / in_scale, step_lo / in_scale / 64, +1) * out_scale / in_scale
    k_o = _derivative(fn, last / in_scale, step_hi / in_scale / 64, -1) * out_scale / in_scale
    return quantize_slope(k_u), quantize_slope(k_o)


def _signed_field(value: int, bits: int, name: str) -> int:
    if not -(1 << (bits - 1)) <= value < (1 << (bits - 1)):
        raise ConfigError(f"LUT: {name} must fit a signed {bits}-bit register", {name: value})
    return value & ((1 << bits) - 1)


def _wide_fields(unit: str, reg: str, value: int) -> dict[str, int]:
    """START/END: one 32-bit register on SDP, LOW (32) + HIGH (6) on CDP; out of range is an error here."""
    return wide_fields(unit, reg, _signed_field(value, INPUT_BITS[unit], f"LUT_{reg}"))


def _priority_bit(value: int | str) -> int:
    if value in ("LE", 0):
        return 0
    if value in ("LO", 1):
        return 1
    raise ValueError(f"a priority is 'LE'/0 or 'LO'/1, got {value!r}")


@dataclass(frozen=True)
class _Spec:
    """Everything program_function needs besides the placements."""

    fn: Fn
    unit: str
    in_scale: float
    out_scale: float
    x_min: float
    x_max: float
    domain: tuple[float | None, float | None]


def _build(spec: _Spec, le: Placement, lo: Placement, layout: str, prio: Mapping[str, int],
           notes: tuple[str, ...] = ()) -> LutProgram:
    """Tables, slopes and fields of one placement; validated through the model (ConfigError)."""
    u = spec.unit
    reach = float(1 << (INPUT_BITS[u] - 1))
    le_t = _entries(spec.fn, _positions(le, LE_ENTRIES), spec.in_scale, spec.out_scale, reach)
    lo_t = _entries(spec.fn, _positions(lo, LO_ENTRIES), spec.in_scale, spec.out_scale, reach)
    (leus, leush), (leos, leosh) = _slopes(spec.fn, le, LE_ENTRIES, u, spec.in_scale, spec.out_scale)
    (lous, loush), (loos, loosh) = _slopes(spec.fn, lo, LO_ENTRIES, u, spec.in_scale, spec.out_scale)
    f: dict[str, int] = {
        "S_LUT_CFG.LUT_LE_FUNCTION": EXPONENT if le.exponent else LINEAR,
        "S_LUT_CFG.LUT_UFLOW_PRIORITY": prio["uflow"],
        "S_LUT_CFG.LUT_OFLOW_PRIORITY": prio["oflow"],
        "S_LUT_CFG.LUT_HYBRID_PRIORITY": prio["hybrid"],
        "S_LUT_INFO.LUT_LE_INDEX_OFFSET": _signed_field(le.select * le.exponent, 8, "LE_INDEX_OFFSET"),
        "S_LUT_INFO.LUT_LE_INDEX_SELECT": _signed_field(le.select * (not le.exponent), 8, "LE_INDEX_SELECT"),
        "S_LUT_INFO.LUT_LO_INDEX_SELECT": _signed_field(lo.select, 8, "LO_INDEX_SELECT"),
        "S_LUT_LE_SLOPE_SCALE.LUT_LE_SLOPE_UFLOW_SCALE": leus & 0xFFFF,
        "S_LUT_LE_SLOPE_SCALE.LUT_LE_SLOPE_OFLOW_SCALE": leos & 0xFFFF,
        "S_LUT_LE_SLOPE_SHIFT.LUT_LE_SLOPE_UFLOW_SHIFT": leush & 0x1F,
        "S_LUT_LE_SLOPE_SHIFT.LUT_LE_SLOPE_OFLOW_SHIFT": leosh & 0x1F,
        "S_LUT_LO_SLOPE_SCALE.LUT_LO_SLOPE_UFLOW_SCALE": lous & 0xFFFF,
        "S_LUT_LO_SLOPE_SCALE.LUT_LO_SLOPE_OFLOW_SCALE": loos & 0xFFFF,
        "S_LUT_LO_SLOPE_SHIFT.LUT_LO_SLOPE_UFLOW_SHIFT": loush & 0x1F,
        "S_LUT_LO_SLOPE_SHIFT.LUT_LO_SLOPE_OFLOW_SHIFT": loosh & 0x1F,
    }
    f.update(_wide_fields(u, "LE_START", le.start))
    f.update(_wide_fields(u, "LE_END", _end(le, LE_ENTRIES, u)))
    f.update(_wide_fields(u, "LO_START", lo.start))
    f.update(_wide_fields(u, "LO_END", _end(lo, LO_ENTRIES, u)))
    prog = LutProgram(unit=u, field_values=f, le=le_t, lo=lo_t, in_scale=spec.in_scale,
                      out_scale=spec.out_scale, x_min=spec.x_min, x_max=spec.x_max, layout=layout,
                      domain=spec.domain, notes=notes)
    cfg = prog.lut_config()
    extra = tuple(advisories(cfg))
    return prog if not extra else _with_notes(prog, extra)


def _with_notes(prog: LutProgram, extra: tuple[str, ...]) -> LutProgram:
    return LutProgram(unit=prog.unit, field_values=prog.field_values, le=prog.le, lo=prog.lo,
                      in_scale=prog.in_scale, out_scale=prog.out_scale, x_min=prog.x_min, x_max=prog.x_max,
                      layout=prog.layout, domain=prog.domain, notes=prog.notes + extra)


# --- error measurement -------------------------------------------------------------------------------------

def default_samples(program: LutProgram, margin: float = 0.25) -> NDArray[np.int64]:
    """Integer LUT inputs across the range and `margin` of its width beyond either end (inside the domain
    and the unit's input width): every integer when that is at most 2^20 of them, else 2^20 evenly spaced."""
    width = program.x_max - program.x_min
    lo_x, hi_x = program.x_min - margin * width, program.x_max + margin * width
    dmin, dmax = program.domain
    if dmin is not None:
        lo_x = max(lo_x, dmin)
    if dmax is not None:
        hi_x = min(hi_x, dmax)
    limit = (1 << (INPUT_BITS[program.unit] - 1)) - 1
    a = max(math.ceil(lo_x * program.in_scale), -limit - 1)
    b = min(math.floor(hi_x * program.in_scale), limit)
    if b - a + 1 <= _MAX_SAMPLES:
        return np.arange(a, b + 1, dtype=np.int64)
    # The grid plus the integers next to both range ends and log-spaced ones from them: the edges are where
    # the table choice changes and, for exponential tables and LRN-like curves, where the detail is.
    return _unique(np.concatenate([round_to_int(np.linspace(a, b, _MAX_SAMPLES)),
                                   _edge_grid(program, a, b, 4096)]))


def _edge_grid(program: LutProgram, a: int, b: int, n: int) -> NDArray[np.int64]:
    lo = math.floor(program.x_min * program.in_scale)
    hi = math.ceil(program.x_max * program.in_scale)
    steps = round_to_int(np.geomspace(1.0, max(hi - lo, 1), n)) - 1
    pts = np.concatenate([lo + steps, hi - steps])
    return pts[(pts >= a) & (pts <= b)]


def lut_error(program: LutProgram, fn: Fn, x: ArrayLike,
              cfg: LutConfig | None = None) -> tuple[NDArray[np.int64], FloatArray, FloatArray]:
    """(LUT output, float reference f(X / in_scale) * out_scale, |error| in LSBs) at integer inputs X."""
    xi = np.asarray(x, dtype=np.int64)
    out = lut_lookup(xi, cfg if cfg is not None else program.lut_config()).output
    ref = _eval(fn, xi / program.in_scale) * program.out_scale
    return out, ref, np.abs(out - ref)


def error_report(program: LutProgram, fn: Fn, samples: ArrayLike | None = None) -> ErrorReport:
    """Max and mean |LUT - f| in output LSBs over integer inputs (default: default_samples), running the
    model's lut_lookup; inputs where f is not finite are skipped."""
    x = default_samples(program) if samples is None else np.asarray(samples, dtype=np.int64)
    _, ref, err = lut_error(program, fn, x)
    keep = np.isfinite(ref)
    x, err = x[keep], err[keep]
    inside = (x >= program.x_min * program.in_scale) & (x <= program.x_max * program.in_scale)
    if not np.any(inside):
        raise ValueError("no sample inside [x_min, x_max]")
    e_in = err[inside]
    worst = int(np.argmax(e_in))
    beyond = float(np.max(err[~inside])) if np.any(~inside) else math.nan
    return ErrorReport(max_lsb=float(e_in[worst]), mean_lsb=float(np.mean(e_in)),
                       worst_input=int(x[inside][worst]), beyond_max_lsb=beyond, samples=int(x.size))


# --- placement -------------------------------------------------------------------------------------------

def _raw_linear(start: int, span: int, entries: int) -> Placement:
    """A linear table from `start` whose power-of-two coverage reaches at least `span`."""
    return Placement(start, _ceil_log2(max(span, 1)) - _linear_span_log2(entries))


def _density_candidates(start: int, span: int, raw_select: int, entries: int,
                        density: tuple[int, int] | None, selects: int = _SEARCH_SELECTS,
                        starts_per_select: int = _SEARCH_STARTS, geometric: bool = False) -> list[Placement]:
    """Linear density placements inside [start, start + span]: `selects` finer selects below raw_select,
    each at up to `starts_per_select` evenly spaced starts (plus the centred one); `geometric` adds starts
    at start + 2^j, for an exponential raw table that is finer than any density table near its start."""
    if density is not None:
        return [_raw_linear(density[0], density[1] - density[0], entries)]
    out: list[Placement] = []
    for sel in range(raw_select - 1, raw_select - 1 - selects, -1):
        cover = 2.0 ** (sel + _linear_span_log2(entries))
        room = span - cover
        if room < 0:
            continue
        n = min(starts_per_select, int(room) + 1)
        starts = {start + int(round_to_int(room * k / max(n - 1, 1))) for k in range(n)}
        starts.add(start + int(round_to_int(room / 2)))
        if geometric:
            starts.update(start + (1 << j) for j in range(int(room).bit_length()) if (1 << j) <= room)
        out.extend(Placement(s, sel) for s in sorted(starts))
    return out


def _search(spec: _Spec, layout: str, make: Callable[[Placement], tuple[Placement, Placement]],
            candidates: list[Placement], prio: Mapping[str, int]) -> LutProgram:
    """The candidate with the smallest (max, mean) error on a coarse grid over the range.

    Raises the first candidate's ConfigError when none satisfies the Limitation rules.
    """
    xs = np.empty(0, dtype=np.int64)
    ref = np.empty(0)
    best: tuple[tuple[float, float], LutProgram] | None = None
    first_error: ConfigError | None = None
    for cand in candidates:
        le, lo = make(cand)
        try:
            prog = _build(spec, le, lo, layout, prio)
        except ConfigError as exc:
            first_error = first_error or exc
            continue  # e.g. a select outside the unit's Limitation range: not a candidate
        if xs.size == 0:
            a, b = math.floor(spec.x_min * spec.in_scale), math.ceil(spec.x_max * spec.in_scale)
            xs = _unique(np.concatenate([round_to_int(np.linspace(a, b, _SEARCH_SAMPLES)),
                                         _edge_grid(prog, a, b, _SEARCH_SAMPLES // 4)]))
            # the float reference is the same for every candidate: evaluate it once
            ref = _eval(spec.fn, xs / spec.in_scale) * spec.out_scale
            xs, ref = xs[np.isfinite(ref)], ref[np.isfinite(ref)]
        err = np.abs(lut_lookup(xs, prog.lut_config()).output - ref)
        score = (round(float(np.max(err)), 3), float(np.mean(err)))
        if best is None or score < best[0]:
            best = (score, prog)
    if best is not None:
        return best[1]
    if first_error is not None:
        raise first_error
    raise ConfigError(f"LUT: no {layout} placement fits the range", {"CANDIDATES": 0})


def _priorities(default: Mapping[str, int], override: Mapping[str, int | str] | None) -> dict[str, int]:
    prio = dict(default)
    for key, value in (override or {}).items():
        if key not in PRIORITY_NAMES:
            raise ValueError(f"priority keys are {PRIORITY_NAMES}, got {key!r}")
        prio[key] = _priority_bit(value)
    return prio


def program_function(fn: Fn, x_min: float, x_max: float, *, unit: str, in_scale: float, out_scale: float,
                     le_mode: str = "linear", layout: str = "hybrid",
                     priorities: Mapping[str, int | str] | None = None,
                     density: tuple[float, float] | None = None, exp_offset: int = 0,
                     domain: tuple[float | None, float | None] = (None, None)) -> LutProgram:
    """Program the LUT to approximate fn over [x_min, x_max] (real input units).

    in_scale: LUT input LSBs per input unit (X = x * in_scale); out_scale: entry LSBs per output unit.
    le_mode "linear": "hybrid" is the better (smaller maximum error) of "le_density" and "lo_density" with a
    linear LE raw table. le_mode "exponent" makes the LE an exponential raw table from x_min
    (LE_INDEX_OFFSET = exp_offset) and the LO a linear density table ("lo_density"; "hybrid" means the
    same). le_mode "auto": "hybrid" is the best of all three. density=(a, b) fixes the density table's
    range instead of searching it. priorities: {"uflow"|"oflow"|"hybrid": "LE"|"LO"} overrides.
    domain=(lo, hi) (None: unbounded) is where fn is defined: error reports sample nothing outside it.
    Raises ConfigError when the derived registers break a Limitation rule (e.g. an index select outside the
    unit's range, START outside its register), ValueError on bad arguments.
    """
    if unit not in UNITS:
        raise ValueError(f"unit must be one of {UNITS}, got {unit!r}")
    if le_mode not in LE_MODES or layout not in LAYOUTS:
        raise ValueError(f"le_mode in {LE_MODES}, layout in {LAYOUTS}; got {le_mode!r}, {layout!r}")
    if not (x_max > x_min and in_scale > 0 and out_scale > 0):
        raise ValueError("need x_max > x_min, in_scale > 0 and out_scale > 0")
    spec = _Spec(fn, unit, float(in_scale), float(out_scale), float(x_min), float(x_max), domain)
    start = math.floor(x_min * in_scale)
    span = math.ceil(x_max * in_scale) - start
    dens = None if density is None else (math.floor(density[0] * in_scale), math.ceil(density[1] * in_scale))
    lo_raw = _raw_linear(start, span, LO_ENTRIES)
    if layout == "lo_only":
        # The LE covers exactly the LO's range (4x coarser): only-LE hits never happen, every priority is LO.
        le = Placement(start, lo_raw.select + 2)
        prio = _priorities({"uflow": 1, "oflow": 1, "hybrid": 1}, priorities)
        return _build(spec, le, lo_raw, layout, prio)
    results: list[LutProgram] = []
    if le_mode in ("linear", "auto") and layout in ("hybrid", "le_density"):
        prio = _priorities({"uflow": 1, "oflow": 1, "hybrid": 0}, priorities)
        cands = _density_candidates(start, span, lo_raw.select, LE_ENTRIES, dens)
        results.append(_search(spec, "le_density", lambda c: (c, lo_raw), cands, prio))
    if layout in ("hybrid", "lo_density"):
        modes = ("linear", "exponent") if le_mode == "auto" else (le_mode,)
        prio = _priorities({"uflow": 0, "oflow": 0, "hybrid": 1}, priorities)
        results.extend(_lo_density(spec, start, span, dens, mode == "exponent", exp_offset, prio)
                       for mode in modes)
    if not results:
        raise ValueError(f"layout {layout!r} needs le_mode 'linear' or 'auto'")
    if len(results) == 1:
        return results[0]
    scored = [(error_report(p, fn).max_lsb, i) for i, p in enumerate(results)]
    return results[min(scored)[1]]


def _lo_density(spec: _Spec, start: int, span: int, dens: tuple[int, int] | None, exponent: bool,
                exp_offset: int, prio: Mapping[str, int]) -> LutProgram:
    """LE raw table over the range (linear, or exponential from its start), LO density table searched."""
    if exponent:
        le_raw = Placement(start - (1 << exp_offset) if exp_offset >= 0 else start, exp_offset, True)
        # An exponential table is fine near its start and coarse far from it, so the density table may
        # need any select down to the smallest: search them all, with fewer starts each.
        raw_select = _ceil_log2(max(span, 1)) - _linear_span_log2(LO_ENTRIES) + 1
        selects, starts = raw_select - _LO_SELECT_MIN, _SEARCH_STARTS // 4
    else:
        le_raw = _raw_linear(start, span, LE_ENTRIES)
        raw_select, selects, starts = le_raw.select - 1, _SEARCH_SELECTS, _SEARCH_STARTS
    cands = _density_candidates(start, span, raw_select, LO_ENTRIES, dens, selects, starts,
                                geometric=le_raw.exponent)
    return _search(spec, "lo_density", lambda c: (le_raw, c), cands, prio)


# --- ready-made functions ----------------------------------------------------------------------------------

def sigmoid_fn(x: FloatArray) -> FloatArray:
    return 0.5 * (1.0 + np.tanh(0.5 * np.asarray(x, dtype=np.float64)))


def tanh_fn(x: FloatArray) -> FloatArray:
    return np.tanh(np.asarray(x, dtype=np.float64))


def lrn_fn(k: float = 1.0, alpha: float = 1e-4, beta: float = 0.75, size: int = 5) -> Fn:
    """s -> (k + alpha / size * s)^-beta: the LRN scale as a function of the square sum s."""
    def f(s: FloatArray) -> FloatArray:
        return np.power(k + alpha / size * np.asarray(s, dtype=np.float64), -beta)
    return f


def sigmoid(*, unit: str = "SDP", x_range: tuple[float, float] = (-16.0, 16.0), in_scale: float = 2.0 ** 12,
            out_scale: float = 2.0 ** 15, layout: str = "hybrid") -> LutProgram:
    """Sigmoid with a 16-bit output (out_scale 2^15); [-16, 16] reaches the asymptotes within 1 LSB."""
    return program_function(sigmoid_fn, *x_range, unit=unit, in_scale=in_scale, out_scale=out_scale,
                            layout=layout)


def tanh(*, unit: str = "SDP", x_range: tuple[float, float] = (-8.0, 8.0), in_scale: float = 2.0 ** 12,
         out_scale: float = 2.0 ** 15, layout: str = "hybrid") -> LutProgram:
    """Tanh with a 16-bit output (out_scale 2^15); [-8, 8] reaches the asymptotes within 1 LSB."""
    return program_function(tanh_fn, *x_range, unit=unit, in_scale=in_scale, out_scale=out_scale,
                            layout=layout)


def lrn(*, k: float = 1.0, alpha: float = 1e-4, beta: float = 0.75, size: int = 5, s_max: float = 2.0 ** 24,
        in_scale: float = 1.0 / 16, out_scale: float = 2.0 ** 15, layout: str = "hybrid",
        le_mode: str = "auto") -> LutProgram:
    """CDP LRN: (k + alpha/size * s)^-beta over square sums s in [0, s_max], a 16-bit output.

    Defaults: Caffe's LRN (k 1, alpha 1e-4, beta 0.75, 5 channels) on int8 activations of 4 units per code,
    so the LUT input is the square sum of the codes (in_scale 1/16) and s_max = 2^24 is its 2^20 reach
    (nine 9-bit squares). le_mode "exponent" with "hybrid" is the seeds' LRN recommendation: an exponential
    LE raw table with a linear LO density table. The default "auto" takes whichever hybrid layout has the
    smallest maximum error; for these defaults that is a linear LE raw table with a LO density table
    (32 LSB against 116 for the exponential LE, see docs/lut.md). "lo_only" is one linear 257-entry table.
    """
    if layout in ("lo_only", "le_density"):
        le_mode = "linear"
    return program_function(lrn_fn(k, alpha, beta, size), 0.0, s_max, unit="CDP", in_scale=in_scale,
                            out_scale=out_scale, le_mode=le_mode, layout=layout, domain=(0.0, None))
