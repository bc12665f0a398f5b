"""The LUT programming helper (models/lut/program.py): its programs pass the Limitation rules, its tables
hold the function at the entry points, its slopes have the function's sign and size, its error report agrees
with an independent recomputation, any callable works, and bad requests raise."""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np
import pytest

from models.errors import ConfigError
from models.lut import program as lp
from models.lut.model import EXPONENT, INPUT_BITS, LINEAR, LutConfig, LutRam
from models.lut.program import LutProgram
from models.registers import decode_fields


def _sine(x: np.ndarray) -> np.ndarray:
    return 1000.0 * np.sin(np.asarray(x, dtype=np.float64) / 200.0)


@pytest.fixture(scope="module")
def programs() -> dict[str, LutProgram]:
    """The ready-made programs in each layout, both units, both LE modes (built once: each is a search)."""
    return {
        "sigmoid": lp.sigmoid(),
        "sigmoid lo_only": lp.sigmoid(layout="lo_only"),
        "sigmoid le_density": lp.sigmoid(layout="le_density"),
        "tanh CDP": lp.tanh(unit="CDP"),
        "lrn": lp.lrn(),
        "lrn exponent": lp.lrn(le_mode="exponent"),
        "lrn linear lo_density": lp.lrn(le_mode="linear", layout="lo_density"),
        "lrn le_density": lp.lrn(layout="le_density"),
        "lrn lo_only": lp.lrn(layout="lo_only"),
    }


FUNCTIONS: dict[str, lp.Fn] = {"sigmoid": lp.sigmoid_fn, "tanh": lp.tanh_fn, "lrn": lp.lrn_fn()}


def fn_of(name: str) -> lp.Fn:
    return FUNCTIONS[name.split()[0]]


# --- Limitation rules and register encoding ----------------------------------------------------------------

def test_programs_pass_the_limitation_rules(programs: dict[str, LutProgram]) -> None:
    for name, prog in programs.items():
        # from_fields validates the seed's LUT Limitation rules and raises ConfigError on any broken one
        cfg = LutConfig.from_fields({prog.unit: prog.fields()}, prog.unit, (prog.le, prog.lo))
        assert cfg.lo_end - cfg.lo_start == 1 << (cfg.lo_index_select + 8), name
        if cfg.le_function == LINEAR:
            assert cfg.le_end - cfg.le_start == 1 << (cfg.le_index_select + 6), name
        assert cfg == prog.lut_config(), name
        # the 32-bit register values decode back to the same fields
        decoded = decode_fields(prog.unit, prog.register_values())
        assert {k: decoded[k] for k in prog.fields()} == prog.fields(), name


def test_layouts_are_what_they_say(programs: dict[str, LutProgram]) -> None:
    exp = programs["lrn exponent"].lut_config()
    assert exp.le_function == EXPONENT and programs["lrn exponent"].layout == "lo_density"
    for name in ("sigmoid", "sigmoid lo_only", "sigmoid le_density", "lrn linear lo_density"):
        assert programs[name].lut_config().le_function == LINEAR, name
    # one LO table over the range: the LE covers the same range and every priority picks the LO
    only = programs["sigmoid lo_only"].lut_config()
    assert (only.le_start, only.le_end) == (only.lo_start, only.lo_end)
    assert only.uflow_priority == only.oflow_priority == only.hybrid_priority == 1
    # density tables sit inside the raw table's range and are finer
    dens = programs["sigmoid le_density"].lut_config()
    assert only.lo_start <= dens.le_start and dens.le_end <= only.lo_end
    assert dens.le_index_select < dens.lo_index_select


def test_the_default_is_the_best_layout_found(programs: dict[str, LutProgram]) -> None:
    """The ready-made default (hybrid) has the smallest maximum error of every layout the helper builds."""
    for fn_name, default in (("sigmoid", "sigmoid"), ("lrn", "lrn")):
        fn = fn_of(fn_name)
        best = lp.error_report(programs[default], fn).max_lsb
        for name, prog in programs.items():
            if name.startswith(fn_name) and name != default:
                assert best <= lp.error_report(prog, fn).max_lsb + 1e-9, (default, name)


def test_access_writes_load_the_tables(programs: dict[str, LutProgram]) -> None:
    for prog in (programs["sigmoid"], programs["lrn"]):
        ram = LutRam(saturating=prog.unit == "CDP")
        writes = prog.access_writes()
        assert len(writes) == 2 + prog.le.size + prog.lo.size
        for reg, value in writes:
            if reg == "S_LUT_ACCESS_CFG":
                ram.write_cfg(value)
            else:
                assert reg == "S_LUT_ACCESS_DATA"
                ram.write_data(value)
        le, lo = ram.tables()
        assert np.array_equal(le, prog.le) and np.array_equal(lo, prog.lo)


# --- table contents ----------------------------------------------------------------------------------------

def _round_half_away(v: float) -> int:
    return int(math.copysign(math.floor(abs(v) + 0.5), v))


def _expected_entries(prog: LutProgram, fn: lp.Fn, table: str) -> list[int]:
    """f at each entry point (clamped to the largest input the unit takes), in LSBs, saturated to int16."""
    cfg = prog.lut_config()
    reach = 1 << (INPUT_BITS[prog.unit] - 1)
    if table == "LO":
        points = [cfg.lo_start + i * 2.0 ** cfg.lo_index_select for i in range(257)]
    elif cfg.le_function == EXPONENT:
        points = [cfg.le_start + 2.0 ** (cfg.le_index_offset + i) for i in range(65)]
    else:
        points = [cfg.le_start + i * 2.0 ** cfg.le_index_select for i in range(65)]
    out = []
    for p in points:
        y = float(np.asarray(fn(np.array([min(p, reach) / prog.in_scale])))[0]) * prog.out_scale
        out.append(max(-32768, min(32767, _round_half_away(y))))
    return out


def test_tables_hold_the_function_at_the_entry_points(programs: dict[str, LutProgram]) -> None:
    for name, prog in programs.items():
        fn = fn_of(name)
        assert prog.le.tolist() == _expected_entries(prog, fn, "LE"), name
        assert prog.lo.tolist() == _expected_entries(prog, fn, "LO"), name


def test_entries_saturate_to_int16() -> None:
    prog = lp.program_function(lambda x: 3.0 * x, -1.0, 1.0, unit="SDP", in_scale=256, out_scale=2 ** 15,
                               layout="lo_only")
    assert prog.lo[0] == -32768 and prog.lo[-1] == 32767
    assert prog.lo[128] == 0


# --- slopes -----------------------------------------------------------------------------------------------

def _slope(prog: LutProgram, table: str, flow: str) -> float:
    cfg = prog.lut_config()
    return getattr(cfg, f"{table}_{flow}_scale") / 2.0 ** getattr(cfg, f"{table}_{flow}_shift")


def test_slopes_follow_the_derivative_at_the_table_ends() -> None:
    """x^2 on [-1, 1]: f' = -2 at the start and +2 at the end, i.e. -/+ 2 * out_scale / in_scale LSB per
    input LSB (8 here); the one-sided difference is exact on a parabola, so only SCALE's rounding remains."""
    prog = lp.program_function(lambda x: x * x, -1.0, 1.0, unit="CDP", in_scale=2 ** 10, out_scale=2 ** 12,
                               layout="lo_only")
    k = 2 * 2 ** 12 / 2 ** 10
    for table in ("le", "lo"):
        assert _slope(prog, table, "uflow") == pytest.approx(-k, rel=1e-4)
        assert _slope(prog, table, "oflow") == pytest.approx(k, rel=1e-4)


def test_slope_signs_of_the_ready_made_functions(programs: dict[str, LutProgram]) -> None:
    """Sigmoid rises (slopes >= 0, and about 0 at +-16); LRN falls: its underflow slope at s = 0 is
    f'(0) = -beta * alpha / size * 2^15 LSB per unit of s, times 16 units per LUT input LSB."""
    sig = programs["sigmoid"]
    for table in ("le", "lo"):
        for flow in ("uflow", "oflow"):
            assert 0 <= _slope(sig, table, flow) < 0.01
    lrn = programs["lrn lo_only"]
    want = -0.75 * 1e-4 / 5 * 2 ** 15 * 16
    assert _slope(lrn, "lo", "uflow") == pytest.approx(want, rel=0.01)
    assert _slope(lrn, "lo", "oflow") < 0


@pytest.mark.parametrize("k", [3.0, -3.0, 0.1, -1234.5678, 1e-3, 40000.0])
def test_quantize_slope_is_the_finest_fit(k: float) -> None:
    scale, shift = lp.quantize_slope(k)
    assert -32768 <= scale <= 32767 and -16 <= shift <= 15
    # within half a step of SCALE
    assert abs(scale / 2.0 ** shift - k) <= 2.0 ** -(shift + 1)
    if shift < 15:
        # one more shift would overflow SCALE: this is the finest representation
        assert not -32768 <= _round_half_away(k * 2.0 ** (shift + 1)) <= 32767


def test_quantize_slope_edges() -> None:
    assert lp.quantize_slope(0.0) == (0, 0)
    assert lp.quantize_slope(math.inf) == (0, 0)
    assert lp.quantize_slope(1e12) == (32767, -16)
    assert lp.quantize_slope(-1e12) == (-32768, -16)
    assert lp.quantize_slope(3.0) == (24576, 13)


# --- error report ------------------------------------------------------------------------------------------

def _rnd(num: int, den: int) -> int:
    """num / den rounded half away from zero (den > 0)."""
    q = (2 * abs(num) + den) // (2 * den)
    return q if num >= 0 else -q


def _cdp_lo_only_output(prog: LutProgram, x: int) -> int:
    """The CDP output of a lo_only program at x, from the seed's formulas (independent of
    models/lut/model.py):
    hit T[i] + rnd((T[i+1] - T[i]) * frac / 2^16);
    under/overflow T[0|256] + rnd((x - P) * SCALE / 2^SHIFT)."""
    cfg = prog.lut_config()
    t, sel = [int(v) for v in prog.lo], cfg.lo_index_select
    d = x - cfg.lo_start
    if d <= 0 or (d >> sel) >= 256:
        under = d <= 0
        base, anchor = (t[0], cfg.lo_start) if under else (t[256], cfg.lo_end)
        scale = cfg.lo_uflow_scale if under else cfg.lo_oflow_scale
        shift = cfg.lo_uflow_shift if under else cfg.lo_oflow_shift
        term = Fraction((x - anchor) * scale) / Fraction(2) ** shift
        y = base + _rnd(term.numerator, term.denominator)
    else:
        i, frac = d >> sel, (d & ((1 << sel) - 1)) << (16 - sel)
        y = t[i] + _rnd((t[i + 1] - t[i]) * frac, 1 << 16)
    return max(-32768, min(32767, y))


def test_error_report_matches_an_independent_recomputation() -> None:
    prog = lp.program_function(_sine, 0.0, 1024.0, unit="CDP", in_scale=1.0, out_scale=1.0, layout="lo_only")
    assert prog.lut_config().lo_index_select == 2
    inside = list(range(0, 1025))
    beyond = list(range(-40, 0)) + list(range(1025, 1070))
    errs = {x: abs(_cdp_lo_only_output(prog, x) - 1000.0 * math.sin(x / 200.0)) for x in inside + beyond}
    rep = lp.error_report(prog, _sine, np.array(inside + beyond))
    worst = max(inside, key=lambda x: (errs[x], -x))
    assert rep.max_lsb == pytest.approx(errs[worst], abs=1e-9)
    assert rep.worst_input == worst
    assert rep.mean_lsb == pytest.approx(sum(errs[x] for x in inside) / len(inside), abs=1e-9)
    assert rep.beyond_max_lsb == pytest.approx(max(errs[x] for x in beyond), abs=1e-9)
    assert rep.samples == len(inside) + len(beyond)
    # the model's own outputs agree with the seed formulas on every sample
    out, _, _ = lp.lut_error(prog, _sine, np.array(inside + beyond))
    assert out.tolist() == [_cdp_lo_only_output(prog, x) for x in inside + beyond]
    # nothing beyond the range sampled: nan
    assert math.isnan(lp.error_report(prog, _sine, np.array(inside)).beyond_max_lsb)


def test_default_samples_cover_the_range_and_margin() -> None:
    prog = lp.program_function(_sine, 0.0, 1024.0, unit="CDP", in_scale=1.0, out_scale=1.0, layout="lo_only")
    x = lp.default_samples(prog)
    assert x[0] == -256 and x[-1] == 1280 and x.size == 1280 + 256 + 1
    # a domain stops the margin (LRN's square sums are never negative)
    assert lp.default_samples(lp.lrn(layout="lo_only"))[0] == 0


# --- any callable ----------------------------------------------------------------------------------------

def test_a_callable_works() -> None:
    def decay(x: np.ndarray) -> np.ndarray:
        return np.exp(-x)

    prog = lp.program_function(decay, 0.0, 8.0, unit="SDP", in_scale=2 ** 12, out_scale=2 ** 14,
                               density=(0.0, 2.0))
    assert prog.lo.tolist() == _expected_entries(prog, decay, "LO")
    assert prog.le.tolist() == _expected_entries(prog, decay, "LE")
    # interpolation bound h^2/8 * max|f''| (f'' = e^-x <= 1) on the finest table, plus one LSB of rounding
    cfg = prog.lut_config()
    assert prog.layout == "le_density" and (cfg.le_start, cfg.le_end) == (0, 2 * 2 ** 12)
    h = 2.0 ** cfg.le_index_select / prog.in_scale
    assert lp.error_report(prog, decay).max_lsb <= h * h / 8 * prog.out_scale + 1.0


def test_a_constant_callable_gives_a_flat_table() -> None:
    prog = lp.program_function(lambda x: 0.25, -1.0, 1.0, unit="CDP", in_scale=1000.0, out_scale=2 ** 12,
                               layout="lo_only")
    assert set(prog.lo.tolist()) == {1024} and set(prog.le.tolist()) == {1024}
    assert lp.error_report(prog, lambda x: 0.25).max_lsb == 0.0


def test_priority_overrides() -> None:
    prog = lp.program_function(lp.tanh_fn, -4.0, 4.0, unit="SDP", in_scale=2 ** 12, out_scale=2 ** 15,
                               layout="lo_density", density=(-1.0, 1.0),
                               priorities={"hybrid": "LE", "oflow": 1})
    cfg = prog.lut_config()
    assert (cfg.uflow_priority, cfg.oflow_priority, cfg.hybrid_priority) == (0, 1, 0)


# --- bad requests ----------------------------------------------------------------------------------------

BadCall = Callable[[], LutProgram]


@pytest.mark.parametrize("call", [
    lambda: lp.program_function(lp.tanh_fn, 1.0, 1.0, unit="SDP", in_scale=1.0, out_scale=1.0),
    lambda: lp.program_function(lp.tanh_fn, 2.0, 1.0, unit="SDP", in_scale=1.0, out_scale=1.0),
    lambda: lp.program_function(lp.tanh_fn, -1.0, 1.0, unit="SDP", in_scale=0.0, out_scale=1.0),
    lambda: lp.program_function(lp.tanh_fn, -1.0, 1.0, unit="SDP", in_scale=1.0, out_scale=-1.0),
    lambda: lp.program_function(lp.tanh_fn, -1.0, 1.0, unit="PDP", in_scale=1.0, out_scale=1.0),
    lambda: lp.program_function(lp.tanh_fn, -1.0, 1.0, unit="SDP", in_scale=1.0, out_scale=1.0, layout="x"),
    lambda: lp.program_function(lp.tanh_fn, -1.0, 1.0, unit="SDP", in_scale=2 ** 10, out_scale=1.0,
                                le_mode="exponent", layout="le_density"),
    lambda: lp.program_function(lp.tanh_fn, -1.0, 1.0, unit="SDP", in_scale=2 ** 10, out_scale=1.0,
                                layout="lo_only", priorities={"both": 1}),
    lambda: lp.program_function(lp.tanh_fn, -1.0, 1.0, unit="SDP", in_scale=2 ** 10, out_scale=1.0,
                                layout="lo_only", priorities={"hybrid": 2}),
    # 1/x is infinite at the first entry
    lambda: lp.program_function(lambda x: 1.0 / x, 0.0, 1.0, unit="SDP", in_scale=2 ** 10, out_scale=1.0,
                                layout="lo_only"),
], ids=["empty range", "reversed range", "zero in_scale", "negative out_scale", "unknown unit",
        "unknown layout", "le_density needs a linear LE", "unknown priority", "bad priority value",
        "not finite"])
def test_bad_arguments_raise_value_error(call: BadCall) -> None:
    with pytest.raises(ValueError):
        call()


def test_a_range_too_wide_for_the_unit_breaks_the_select_rule() -> None:
    # CDP's LO_INDEX_SELECT stops at 13 (INT8): one LO table over 2^30 input LSBs needs 22
    with pytest.raises(ConfigError) as err:
        lp.program_function(lp.tanh_fn, 0.0, 2.0 ** 30, unit="CDP", in_scale=1.0, out_scale=1.0,
                            layout="lo_only")
    assert "LO_INDEX_SELECT" in err.value.rule and err.value.values["LO_INDEX_SELECT"] == 22


def test_a_range_outside_the_start_register_raises() -> None:
    # SDP's START registers are signed 32-bit
    with pytest.raises(ConfigError) as err:
        lp.program_function(lp.tanh_fn, -2.0 ** 31 - 1.0, -2.0 ** 31 + 100.0, unit="SDP", in_scale=1.0,
                            out_scale=1.0, layout="lo_only")
    assert "START" in err.value.rule
