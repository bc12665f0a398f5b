"""NVDLA's two-level hybrid LUT (LE: 65 entries, linear or exponential; LO: 257 entries, linear), shared by
SDP (EW block, 32-bit input) and CDP (LRN, square sums with 38-bit start/end registers).

Behaviour follows NVIDIA's C model (cmod/cdp/NV_NVDLA_cdp.cpp lookup_lut_int8 for CDP; cmod/hls/sdp/
sdp_y_idx.cpp + sdp_y_inp.cpp and the LUT glue of the SDP HLS wrapper for SDP). Both units share the
index logic and differ in the interpolation arithmetic and in how the statistics are counted:

index (both units), per table, d = x - START:
- d <= 0 underflows (x == START included);
- CDP at INT8 forms d as NVIDIA's LUT control does (NV_NVDLA_CDP_DP_LUT_CTRL_unit.v; docs/lut.md, "START
  width"), per lane (`lut_lookup`'s `lanes`): NARROW lanes use START[21:0] as a 22-bit signed number
  (nv_small's and the master branch's RTL, and the odd channels of nvdlav1's), PAIRED_LOW lanes (the even
  channels of nvdlav1's INT8 pairs) the whole START but only the low 23 (LE, linear) or 22 (LO) bits of d for
  the index and fraction; INT16 and SDP lanes (FULL) use all of it. The under/overflow slopes always measure
  from the whole START/END registers (NV_NVDLA_CDP_DP_intp.v);
- linear: index = d >> INDEX_SELECT (a negative select shifts left), fraction = the low INDEX_SELECT bits of
  d scaled to the unit's fraction width (0 for a negative select); index >= entries-1 overflows;
- exponential (LE only): p = position of d's leading one, index = p - LE_INDEX_OFFSET (< 0 underflows),
  fraction = the bits of d below the leading one scaled to the fraction width.
table choice: both underflow -> UFLOW_PRIORITY; both overflow -> OFLOW_PRIORITY; exactly one hits -> it;
otherwise (both hit, or one under- and one overflow) -> HYBRID_PRIORITY.

CDP (16-bit fraction, 16-bit output):
  hit:  y = sat16(T[i] + rnd((T[i+1] - T[i]) * f / 2^16))
  flow: y = sat16(T[0|last] + sat56(rnd((x - P) * SCALE / 2^SHIFT)))   (SHIFT signed 5 bits: < 0 shifts left)
  counts: uflow/oflow when both tables under/overflow, le_hit/lo_hit when only that table hits,
  hybrid for everything else (both hit, or mixed miss).
SDP (35-bit fraction, 32-bit output):
  hit:  y = sat32(rnd((T[i] * (2^35 - f) + T[i+1] * f) / 2^35))
  flow: y = sat32(T[0|last] + sat32(rnd((x - P) * SCALE / 2^SHIFT)))
  counts: uflow/oflow when the chosen table under/overflows, le_hit/lo_hit when that table hits (both may
  count), hybrid when the chosen table does not flow.
P is START for underflow and END for overflow; an exponential LE underflow measures from
START + 2^LE_INDEX_OFFSET (CDP: offset >= 0; SDP: offset > 0), where its first entry sits.
rnd() is round half away from zero (models/common/precision.py). All arithmetic is exact integer arithmetic;
NVIDIA's
C model evaluates the CDP slope product in double precision, which could differ only beyond 2^53.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray

from models.common.precision import as_signed, rshift_round, saturate
from models.errors import ConfigError

IntArray = NDArray[np.int64]

LE_ENTRIES, LO_ENTRIES = 65, 257
EXPONENT, LINEAR = 0, 1
TABLE_LE, TABLE_LO = 0, 1
HIT, UFLOW, OFLOW = 0, 1, 2
UNITS = ("CDP", "SDP")
# How a lane forms x - START for its index (module docstring): the whole registers; START[21:0]; the whole
# START with 23 (LE, linear) / 22 (LO) bits of the difference kept.
FULL, NARROW, PAIRED_LOW = 0, 1, 2
NARROW_START_BITS = 22
PAIRED_LOW_KEEP = {"le": 23, "lo": 22}

# Per unit: fraction width, output width, width of the saturation after the out-of-range slope shift,
# width of the START/END registers (the LUT input precision).
_FRAC_BITS = {"CDP": 16, "SDP": 35}
_OUT_BITS = {"CDP": 16, "SDP": 32}
_SLOPE_BITS = {"CDP": 56, "SDP": 32}
INPUT_BITS = {"CDP": 38, "SDP": 32}

# Seed 001, Limitation / LUT, per (unit, precision): the INT16 rows widen CDP's (its square sums of 17-bit
# values need more index bits); SDP's are the same at INT8 and INT16.
# The FP16 rows are the same for both units (START/END are FP32 there: models/lut/fp16.py).
_LE_SELECT_RANGE = {("SDP", "INT8"): (-6, 25), ("CDP", "INT8"): (-6, 15),
                    ("SDP", "INT16"): (-6, 25), ("CDP", "INT16"): (-6, 31),
                    ("SDP", "FP16"): (-128, 121), ("CDP", "FP16"): (-128, 121)}
_LO_SELECT_RANGE = {("SDP", "INT8"): (-8, 23), ("CDP", "INT8"): (-8, 13),
                    ("SDP", "INT16"): (-8, 23), ("CDP", "INT16"): (-8, 29),
                    ("SDP", "FP16"): (-128, 119), ("CDP", "FP16"): (-128, 119)}
_LE_OFFSET_RANGE = {("SDP", "INT8"): (-64, 31), ("CDP", "INT8"): (-64, 20),
                    ("SDP", "INT16"): (-64, 31), ("CDP", "INT16"): (-64, 36),
                    ("SDP", "FP16"): (-126, 127), ("CDP", "FP16"): (-126, 127)}


def _empty_table(n: int) -> NDArray[np.int16]:
    return np.zeros(n, dtype=np.int16)


@dataclass(frozen=True)
class LutConfig:
    """The LUT registers as signed values, plus the two tables (raw 16-bit entries read as int16).

    At FP16 (precision "FP16") START/END hold FP32 bit patterns (0 .. 2^32-1), the slope scales and the
    entries FP16 bit patterns (read as int16), and the slope shifts are unused."""

    le_function: int = LINEAR
    le_index_offset: int = 0
    le_index_select: int = 0
    lo_index_select: int = 0
    le_start: int = 0
    le_end: int = 64
    lo_start: int = 0
    lo_end: int = 256
    le_uflow_scale: int = 0
    le_uflow_shift: int = 0
    le_oflow_scale: int = 0
    le_oflow_shift: int = 0
    lo_uflow_scale: int = 0
    lo_uflow_shift: int = 0
    lo_oflow_scale: int = 0
    lo_oflow_shift: int = 0
    uflow_priority: int = 0
    oflow_priority: int = 0
    hybrid_priority: int = 0
    unit: str = "CDP"
    precision: str = "INT8"   # of the data the unit looks up (the Limitation ranges depend on it)
    le: NDArray[np.int16] = field(default_factory=lambda: _empty_table(LE_ENTRIES), compare=False)
    lo: NDArray[np.int16] = field(default_factory=lambda: _empty_table(LO_ENTRIES), compare=False)

    def __post_init__(self) -> None:
        if self.unit not in UNITS:
            raise ValueError(f"unit must be one of {UNITS}, got {self.unit!r}")
        for name, n in (("le", LE_ENTRIES), ("lo", LO_ENTRIES)):
            table = as_signed(np.asarray(getattr(self, name)), 16).astype(np.int16)
            if table.shape != (n,):
                raise ValueError(f"the {name.upper()} table needs {n} entries, got shape {table.shape}")
            table.setflags(write=False)
            object.__setattr__(self, name, table)

    @property
    def input_bits(self) -> int:
        """Width of START/END (and of the widest input): 32 for SDP, 38 for CDP."""
        return INPUT_BITS[self.unit]

    @property
    def frac_bits(self) -> int:
        return _FRAC_BITS[self.unit]

    @property
    def out_bits(self) -> int:
        """Width of the value the unit's pipeline takes after the LUT (CDP 16, SDP 32)."""
        return _OUT_BITS[self.unit]

    @classmethod
    def from_fields(cls, fields: Mapping[str, Mapping[str, int]], unit: str,
                    tables: tuple[ArrayLike, ArrayLike] | None = None, precision: str = "INT8") -> LutConfig:
        """Decode S_LUT_* fields of `unit` ("CDP" or "SDP"); validates the seed's LUT Limitation rules for
        the unit's data `precision`."""
        if unit not in UNITS:
            raise ValueError(f"unit must be one of {UNITS}, got {unit!r}")
        f = fields.get(unit, {})

        def g(name: str, default: int = 0) -> int:
            return int(f.get(name, default))

        def wide(reg: str) -> int:
            if precision == "FP16":   # FP32 bits; CDP's HIGH part is not used
                return g(f"S_LUT_{reg}.LUT_{reg}" if unit == "SDP" else f"S_LUT_{reg}_LOW.LUT_{reg}_LOW") \
                    & 0xFFFFFFFF
            if unit == "SDP":
                return int(as_signed(g(f"S_LUT_{reg}.LUT_{reg}"), 32))
            low = g(f"S_LUT_{reg}_LOW.LUT_{reg}_LOW") & 0xFFFFFFFF
            high = g(f"S_LUT_{reg}_HIGH.LUT_{reg}_HIGH") & 0x3F
            return int(as_signed((high << 32) | low, 38))

        def slope(table: str, flow: str) -> tuple[int, int]:
            scale = g(f"S_LUT_{table}_SLOPE_SCALE.LUT_{table}_SLOPE_{flow}_SCALE")
            shift = g(f"S_LUT_{table}_SLOPE_SHIFT.LUT_{table}_SLOPE_{flow}_SHIFT")
            return int(as_signed(scale, 16)), int(as_signed(shift, 5))

        le_table, lo_table = tables if tables is not None else (_empty_table(LE_ENTRIES),
                                                                _empty_table(LO_ENTRIES))
        (leus, leush), (leos, leosh) = slope("LE", "UFLOW"), slope("LE", "OFLOW")
        (lous, loush), (loos, loosh) = slope("LO", "UFLOW"), slope("LO", "OFLOW")
        cfg = cls(
            le_function=g("S_LUT_CFG.LUT_LE_FUNCTION"),
            le_index_offset=int(as_signed(g("S_LUT_INFO.LUT_LE_INDEX_OFFSET"), 8)),
            le_index_select=int(as_signed(g("S_LUT_INFO.LUT_LE_INDEX_SELECT"), 8)),
            lo_index_select=int(as_signed(g("S_LUT_INFO.LUT_LO_INDEX_SELECT"), 8)),
            le_start=wide("LE_START"), le_end=wide("LE_END"),
            lo_start=wide("LO_START"), lo_end=wide("LO_END"),
            le_uflow_scale=leus, le_uflow_shift=leush, le_oflow_scale=leos, le_oflow_shift=leosh,
            lo_uflow_scale=lous, lo_uflow_shift=loush, lo_oflow_scale=loos, lo_oflow_shift=loosh,
            uflow_priority=g("S_LUT_CFG.LUT_UFLOW_PRIORITY"),
            oflow_priority=g("S_LUT_CFG.LUT_OFLOW_PRIORITY"),
            hybrid_priority=g("S_LUT_CFG.LUT_HYBRID_PRIORITY"),
            unit=unit, precision=precision, le=np.asarray(le_table), lo=np.asarray(lo_table),
        )
        validate(cfg)
        return cfg


def validate(cfg: LutConfig) -> None:
    """The LUT rules of seed 001's Limitation section (the rows of the LUT's precision) that the hardware
    depends on."""
    u, prec = cfg.unit, cfg.precision
    key = (u, prec)
    if key not in _LO_SELECT_RANGE:
        raise ConfigError(f"{u} LUT: no Limitation rows for precision {prec}", {"precision": prec})
    lo_min, lo_max = _LO_SELECT_RANGE[key]
    if not lo_min <= cfg.lo_index_select <= lo_max:
        raise ConfigError(f"{u} LUT: LO_INDEX_SELECT must be in [{lo_min}, {lo_max}] ({prec})",
                          {"LO_INDEX_SELECT": cfg.lo_index_select})
    if prec == "FP16":
        _validate_fp16(cfg)
        return
    if cfg.lo_end - cfg.lo_start != 1 << (cfg.lo_index_select + 8):
        raise ConfigError(f"{u} LUT: LO_END-LO_START == 1<<(LO_INDEX_SELECT+8)",
                          {"LO_START": cfg.lo_start, "LO_END": cfg.lo_end,
                           "LO_INDEX_SELECT": cfg.lo_index_select})
    if cfg.le_function == LINEAR:
        le_min, le_max = _LE_SELECT_RANGE[key]
        if not le_min <= cfg.le_index_select <= le_max:
            raise ConfigError(f"{u} LUT: LE_INDEX_SELECT must be in [{le_min}, {le_max}] "
                              f"({prec}, linear mode)",
                              {"LE_INDEX_SELECT": cfg.le_index_select})
        if cfg.le_end - cfg.le_start != 1 << (cfg.le_index_select + 6):
            raise ConfigError(f"{u} LUT: LE_END-LE_START == 1<<(LE_INDEX_SELECT+6) (linear mode)",
                              {"LE_START": cfg.le_start, "LE_END": cfg.le_end,
                               "LE_INDEX_SELECT": cfg.le_index_select})
    elif cfg.le_function == EXPONENT:
        off_min, off_max = _LE_OFFSET_RANGE[key]
        if not off_min <= cfg.le_index_offset <= off_max:
            raise ConfigError(f"{u} LUT: LE_INDEX_OFFSET must be in [{off_min}, {off_max}] "
                              f"({prec}, exponential mode)", {"LE_INDEX_OFFSET": cfg.le_index_offset})
    else:
        raise ConfigError(f"{u} LUT: LE_FUNCTION must be EXPONENT (0) or LINEAR (1)",
                          {"LE_FUNCTION": cfg.le_function})


def _fp32(bits: int) -> float:
    return float(np.uint32(bits & 0xFFFFFFFF).view(np.float32))


def _validate_fp16(cfg: LutConfig) -> None:
    """Seed 001's FP16 rows: START/END are FP32 with END = START + 2^(SELECT + 6|8) exactly, which needs
    START < 2^(SELECT + 30|32) (NaN starts are refused: NVIDIA's RTL asserts against them)."""
    u = cfg.unit
    tables = [("LO", cfg.lo_start, cfg.lo_end, cfg.lo_index_select, 8)]
    if cfg.le_function == LINEAR:
        le_min, le_max = _LE_SELECT_RANGE[(u, "FP16")]
        if not le_min <= cfg.le_index_select <= le_max:
            raise ConfigError(f"{u} LUT: LE_INDEX_SELECT must be in [{le_min}, {le_max}] (FP16, linear mode)",
                              {"LE_INDEX_SELECT": cfg.le_index_select})
        tables.append(("LE", cfg.le_start, cfg.le_end, cfg.le_index_select, 6))
    elif cfg.le_function == EXPONENT:
        off_min, off_max = _LE_OFFSET_RANGE[(u, "FP16")]
        if not off_min <= cfg.le_index_offset <= off_max:
            raise ConfigError(f"{u} LUT: LE_INDEX_OFFSET must be in [{off_min}, {off_max}] "
                              "(FP16, exponential mode)", {"LE_INDEX_OFFSET": cfg.le_index_offset})
    else:
        raise ConfigError(f"{u} LUT: LE_FUNCTION must be EXPONENT (0) or LINEAR (1)",
                          {"LE_FUNCTION": cfg.le_function})
    if np.isnan(_fp32(cfg.le_start)) or np.isnan(_fp32(cfg.lo_start)):
        raise ConfigError(f"{u} LUT: LE_START and LO_START must not be NaN (FP16)",
                          {"LE_START": cfg.le_start, "LO_START": cfg.lo_start})
    for name, start, end, select, log_steps in tables:
        s, e = _fp32(start), _fp32(end)
        if not s < 2.0 ** (select + 24 + log_steps):
            raise ConfigError(f"{u} LUT: {name}_START < pow(2, {name}_INDEX_SELECT+{24 + log_steps}) (FP16)",
                              {f"{name}_START": s, f"{name}_INDEX_SELECT": select})
        if e - s != 2.0 ** (select + log_steps):
            raise ConfigError(f"{u} LUT: {name}_END = {name}_START + pow(2, {name}_INDEX_SELECT+{log_steps}) "
                              "(FP16, FP32 values)", {f"{name}_START": s, f"{name}_END": e,
                                                      f"{name}_INDEX_SELECT": select})


def advisories(cfg: LutConfig) -> list[str]:
    """Rules the seed states but hardware does not depend on, so they are reported instead of raised.

    Exponential mode: "LE_END-LE_START == 1<<(LE_INDEX_OFFSET+64)" (capped at the largest representable
    value). LE_END only anchors the overflow slope, and NVIDIA's own trace cdp_8x8x64_lrn3_int8_0 programs an
    exponential LE table with LE_END-LE_START = 18, LE_INDEX_OFFSET = 0.
    """
    if cfg.le_function != EXPONENT:
        return []
    if cfg.precision == "FP16":
        big = float(np.finfo(np.float32).max)
        span = min(2.0 ** (cfg.le_index_offset + 64), big)
        if _fp32(cfg.le_end) - _fp32(cfg.le_start) != span:
            return [f"{cfg.unit} LUT: LE_END-LE_START == 1<<(LE_INDEX_OFFSET+64) in exponential mode (FP16: "
                    f"FP32 values, FP32_MAX when larger; LE_START={_fp32(cfg.le_start)}, "
                    f"LE_END={_fp32(cfg.le_end)}, LE_INDEX_OFFSET={cfg.le_index_offset})"]
        return []
    cap = (1 << (cfg.input_bits - 1)) - 1
    span = min(1 << max(cfg.le_index_offset + 64, 0), cap)
    if cfg.le_end - cfg.le_start != span:
        return [f"{cfg.unit} LUT: LE_END-LE_START == 1<<(LE_INDEX_OFFSET+64) in exponential mode "
                f"(LE_START={cfg.le_start}, LE_END={cfg.le_end}, LE_INDEX_OFFSET={cfg.le_index_offset})"]
    return []


@dataclass(frozen=True)
class LutResult:
    """Per-element output and debug arrays, plus the five statistics counts of the lookup."""

    output: IntArray
    """The value the pipeline takes downstream: int16 range for CDP, int32 range for SDP."""
    table: NDArray[np.int8]
    """Table whose output was taken (TABLE_LE / TABLE_LO)."""
    index: IntArray
    """Entry index in that table (0 on underflow, the last entry on overflow)."""
    fraction: IntArray
    """Interpolation fraction in that table, cfg.frac_bits wide (0 on under/overflow)."""
    uflow: NDArray[np.bool_]
    """The chosen table underflowed."""
    oflow: NDArray[np.bool_]
    """The chosen table overflowed."""
    le_state: NDArray[np.int8]
    """HIT / UFLOW / OFLOW of the LE table."""
    lo_state: NDArray[np.int8]
    """HIT / UFLOW / OFLOW of the LO table."""
    le_hit: int
    lo_hit: int
    uflow_count: int
    oflow_count: int
    hybrid: int

    @property
    def counts(self) -> dict[str, int]:
        """The statistics keyed like the D_PERF_LUT_* registers (lower case)."""
        return {"le_hit": self.le_hit, "lo_hit": self.lo_hit, "uflow": self.uflow_count,
                "oflow": self.oflow_count, "hybrid": self.hybrid}


@dataclass(frozen=True)
class Side:
    """One table's view of every element: state (HIT/UFLOW/OFLOW), raw index and fraction.

    index and fraction are only meaningful where the table hits.
    """

    state: NDArray[np.int8]
    index: IntArray
    fraction: IntArray


def _scale_fraction(raw: IntArray, width: IntArray | int, frac_bits: int) -> IntArray:
    """The `width` low bits of an offset as a frac_bits-wide fraction (truncating extra bits)."""
    if isinstance(width, int):
        return raw >> (width - frac_bits) if width > frac_bits else raw << (frac_bits - width)
    w = np.asarray(width, dtype=np.int64)
    down = np.right_shift(raw, np.clip(w - frac_bits, 0, 63))
    return np.left_shift(down, np.clip(frac_bits - w, 0, 63))


def state_of(uflow: NDArray[np.bool_], oflow: NDArray[np.bool_]) -> NDArray[np.int8]:
    """HIT (0), UFLOW (1) or OFLOW (2); oflow never overlaps uflow."""
    state = uflow.view(np.int8) + oflow.view(np.int8)
    state += oflow.view(np.int8)
    return state


def _linear(d: IntArray, select: int, entries: int, frac_bits: int, keep: IntArray | int = -1) -> Side:
    """`keep`: a mask of the bits of d (per element) the index and fraction are formed from."""
    uflow = d <= 0
    d = np.where(uflow, d, d & keep)
    if select >= 0:
        sel = min(select, 62)
        index = d >> sel
        frac = _scale_fraction(d & ((1 << sel) - 1), sel, frac_bits)
    else:
        # A negative select shifts left; capping the operand keeps int64 exact (anything above overflows).
        index = np.minimum(d, 1 << 40) << min(-select, 22)
        frac = np.zeros_like(d)
    oflow = index >= entries - 1
    oflow &= ~uflow
    return Side(state_of(uflow, oflow), index, frac)


def _exponent(d: IntArray, offset: int, entries: int, frac_bits: int) -> Side:
    positive = d > 0
    dpos = np.where(positive, d, 1)
    # frexp is exact here: |d| < 2**53.
    lead = np.frexp(dpos.astype(np.float64))[1].astype(np.int64)
    lead -= 1
    index = lead - offset
    uflow = ~positive | (index < 0)
    oflow = index >= entries - 1
    oflow &= ~uflow
    below = dpos - np.left_shift(np.int64(1), lead)
    return Side(state_of(uflow, oflow), index, _scale_fraction(below, lead, frac_bits))


def _slope_term(delta: IntArray, scale: int, shift: int, bits: int) -> IntArray:
    """sat_bits(rnd(delta * scale / 2^shift)); a negative shift is a left shift."""
    product = delta * np.int64(scale)
    if shift >= 0:
        return saturate(rshift_round(product, shift), bits)[0]
    # Clipping first keeps the left shift inside int64; whatever is clipped saturates anyway.
    lim = 1 << (bits - 1 + shift)
    return saturate(np.left_shift(np.clip(product, -lim, lim), -shift), bits)[0]


def _flow_params(cfg: LutConfig, is_lo: bool, flow: int) -> tuple[int, int, int, int]:
    """(anchor P, table entry, slope scale, slope shift) of one table's under- or overflow."""
    name = "lo" if is_lo else "le"
    table = cfg.lo if is_lo else cfg.le
    kind = "uflow" if flow == UFLOW else "oflow"
    scale, shift = getattr(cfg, f"{name}_{kind}_scale"), getattr(cfg, f"{name}_{kind}_shift")
    if flow == OFLOW:
        return getattr(cfg, f"{name}_end"), int(table[-1]), scale, shift
    bias = 0
    if not is_lo and cfg.le_function == EXPONENT:
        # The exponential table's entry 0 sits at START + 2^LE_INDEX_OFFSET (CDP counts offset 0 too).
        off = cfg.le_index_offset
        bias = (1 << off) if (off >= 0 if cfg.unit == "CDP" else off > 0) else 0
    return getattr(cfg, f"{name}_start") + bias, int(table[0]), scale, shift


def _interpolate(y0: IntArray, y1: IntArray, f: IntArray, cfg: LutConfig) -> IntArray:
    """Linear interpolation between two entries (the result lies between them: no saturation needed)."""
    fb = cfg.frac_bits
    if cfg.unit == "CDP":
        return y0 + rshift_round((y1 - y0) * f, fb)
    return rshift_round(y0 * ((1 << fb) - f) + y1 * f, fb)


def choose_lo(le: Side, lo: Side, cfg: LutConfig) -> NDArray[np.bool_]:
    """True where the LO table's output is taken (the priority rules)."""
    le_hit, lo_hit = le.state == HIT, lo.state == HIT
    both_u = (le.state == UFLOW) & (lo.state == UFLOW)
    both_o = (le.state == OFLOW) & (lo.state == OFLOW)
    take = lo_hit & ~le_hit
    if cfg.uflow_priority:
        take |= both_u
    if cfg.oflow_priority:
        take |= both_o
    if cfg.hybrid_priority:
        take |= ~(both_u | both_o | (le_hit ^ lo_hit))
    return take


def count_states(le: Side, lo: Side, state: NDArray[np.int8],
                 cfg: LutConfig) -> tuple[int, int, int, int, int]:
    """(le_hit, lo_hit, uflow, oflow, hybrid) as the unit's statistics counters count them."""
    le_hit, lo_hit = le.state == HIT, lo.state == HIT
    n = int(state.size)
    if cfg.unit == "SDP":
        n_u = int(np.count_nonzero(state == UFLOW))
        n_o = int(np.count_nonzero(state == OFLOW))
        return int(np.count_nonzero(le_hit)), int(np.count_nonzero(lo_hit)), n_u, n_o, n - n_u - n_o
    both_u = int(np.count_nonzero((le.state == UFLOW) & (lo.state == UFLOW)))
    both_o = int(np.count_nonzero((le.state == OFLOW) & (lo.state == OFLOW)))
    le_only = int(np.count_nonzero(le_hit & ~lo_hit))
    lo_only = int(np.count_nonzero(lo_hit & ~le_hit))
    return le_only, lo_only, both_u, both_o, n - both_u - both_o - le_only - lo_only


# Elements per pass: the temporaries of a pass stay in cache, about twice as fast as one pass over 1M.
_CHUNK = 1 << 16
_ARRAYS = ("output", "table", "index", "fraction", "uflow", "oflow", "le_state", "lo_state")
_COUNTS = ("le_hit", "lo_hit", "uflow_count", "oflow_count", "hybrid")


def lut_lookup(x: ArrayLike, cfg: LutConfig, lanes: ArrayLike = FULL) -> LutResult:
    """Look every element of x (integers of at most cfg.input_bits bits) up in the hybrid LUT. `lanes`
    (FULL, NARROW or PAIRED_LOW, broadcast to x): how each element's lane forms x - START (see the module
    docstring)."""
    xa = np.asarray(x, dtype=np.int64)
    kinds = np.broadcast_to(np.asarray(lanes, dtype=np.int8), xa.shape)
    if xa.size <= _CHUNK:
        return _lookup(xa, cfg, kinds)
    flat, kflat = xa.reshape(-1), kinds.reshape(-1)
    parts = [_lookup(flat[i:i + _CHUNK], cfg, kflat[i:i + _CHUNK]) for i in range(0, flat.size, _CHUNK)]
    arrays = {name: np.concatenate([getattr(p, name) for p in parts]).reshape(xa.shape) for name in _ARRAYS}
    counts = {name: sum(getattr(p, name) for p in parts) for name in _COUNTS}
    return LutResult(**arrays, **counts)


def _starts(start: int, kinds: NDArray[np.int8]) -> IntArray:
    """START as each lane's index logic reads it."""
    return np.where(kinds == NARROW, as_signed(start, NARROW_START_BITS), np.int64(start))


def _keep(kinds: NDArray[np.int8], table: str) -> IntArray:
    return np.where(kinds == PAIRED_LOW, np.int64((1 << PAIRED_LOW_KEEP[table]) - 1), np.int64(-1))


def _lookup(xa: NDArray[np.int64], cfg: LutConfig, lanes: NDArray[np.int8]) -> LutResult:
    shape = xa.shape
    flat = xa.reshape(-1)
    kinds = lanes.reshape(-1)
    fb = cfg.frac_bits
    d_le = flat - _starts(cfg.le_start, kinds)
    if cfg.le_function == EXPONENT:
        le = _exponent(d_le, cfg.le_index_offset, LE_ENTRIES, fb)
    else:
        le = _linear(d_le, cfg.le_index_select, LE_ENTRIES, fb, _keep(kinds, "le"))
    lo = _linear(flat - _starts(cfg.lo_start, kinds), cfg.lo_index_select, LO_ENTRIES, fb, _keep(kinds, "lo"))
    take_lo = choose_lo(le, lo, cfg)
    state = np.where(take_lo, lo.state, le.state)
    hit = state == HIT
    # Both tables in one array: LE entries 0..64, LO entries 65..321.
    both = np.concatenate([cfg.le, cfg.lo]).astype(np.int64)
    index = np.where(take_lo, lo.index, le.index)
    last = LE_ENTRIES - 1 + take_lo * (LO_ENTRIES - LE_ENTRIES)
    index = np.where(hit, index, np.where(state == OFLOW, last, 0))
    fraction = np.where(hit, np.where(take_lo, lo.fraction, le.fraction), 0)
    slot = index + take_lo * LE_ENTRIES
    y0 = both[slot]
    out = _interpolate(y0, both[np.minimum(slot + 1, both.size - 1)], fraction, cfg)
    code = state + take_lo.view(np.int8) * 3
    for is_lo in (False, True):
        for flow in (UFLOW, OFLOW):
            sel = np.flatnonzero(code == flow + 3 * is_lo)
            if sel.size:
                anchor, base, scale, shift = _flow_params(cfg, is_lo, flow)
                term = _slope_term(flat[sel] - anchor, scale, shift, _SLOPE_BITS[cfg.unit])
                out[sel] = saturate(base + term, cfg.out_bits)[0]
    le_hit, lo_hit, n_u, n_o, n_h = count_states(le, lo, state, cfg)
    return LutResult(
        output=out.reshape(shape), table=take_lo.view(np.int8).reshape(shape),
        index=index.reshape(shape), fraction=fraction.reshape(shape),
        uflow=(state == UFLOW).reshape(shape), oflow=(state == OFLOW).reshape(shape),
        le_state=le.state.reshape(shape), lo_state=lo.state.reshape(shape),
        le_hit=le_hit, lo_hit=lo_hit, uflow_count=n_u, oflow_count=n_o, hybrid=n_h,
    )


class LutRam:
    """The LUT programming port S_LUT_ACCESS_CFG / S_LUT_ACCESS_DATA and the two tables behind it.

    saturating=True (CDP): a CFG write loads the pointer; each DATA access whose direction matches the
    CFG type reads or writes LUT[table][ptr] and advances the pointer, which stops at the last entry; a DATA
    access of the other direction does nothing. CFG reads return the current pointer.
    saturating=False (SDP): every DATA access (read or write) advances a 10-bit wrapping address; the RAM is
    written only with TYPE=WRITE; CFG reads return the value written.
    Entries outside a table (address >= 65 / 257) are neither written nor read (reads give 0).
    """

    def __init__(self, saturating: bool, present: bool = True) -> None:
        self.saturating = saturating
        # a configuration without the LUT (SDP on nv_medium_512) keeps the access registers and their
        # pointer, but there is no RAM behind them: data writes are lost and data reads give 0
        self.present = present
        self.le = _empty_table(LE_ENTRIES)
        self.lo = _empty_table(LO_ENTRIES)
        self._cfg = 0
        self._ptr = 0

    @property
    def _table(self) -> NDArray[np.int16]:
        return self.lo if (self._cfg >> 16) & 1 else self.le

    @property
    def _writing(self) -> bool:
        return bool((self._cfg >> 17) & 1)

    @property
    def pointer(self) -> int:
        return self._ptr

    def write_cfg(self, value: int) -> None:
        self._cfg = value & 0x303FF
        self._ptr = value & 0x3FF

    def read_cfg(self) -> int:
        if self.saturating:
            return (self._cfg & 0x30000) | self._ptr
        return self._cfg

    def _advance(self) -> None:
        if self.saturating:
            if self._ptr < self._table.size:
                self._ptr = min(self._ptr + 1, self._table.size - 1)
        else:
            self._ptr = (self._ptr + 1) & 0x3FF

    def write_data(self, value: int) -> None:
        if self.saturating and not self._writing:
            return
        if self._writing and self._ptr < self._table.size and self.present:
            self._table[self._ptr] = int(as_signed(value & 0xFFFF, 16))
        self._advance()

    def read_data(self) -> int:
        if self.saturating and self._writing:
            return 0
        inside = self._ptr < self._table.size and self.present
        value = int(self._table[self._ptr]) & 0xFFFF if inside else 0
        self._advance()
        return value

    def load(self, le: Sequence[int] | ArrayLike, lo: Sequence[int] | ArrayLike) -> None:
        """Set both tables directly (a test shortcut for the 65 + 257 DATA writes)."""
        self.le[:] = as_signed(np.asarray(le), 16)
        self.lo[:] = as_signed(np.asarray(lo), 16)

    def tables(self) -> tuple[NDArray[np.int16], NDArray[np.int16]]:
        """Copies of (LE, LO) as int16."""
        return self.le.copy(), self.lo.copy()
