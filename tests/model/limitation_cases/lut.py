"""Limitation-rule cases of the LUT: valid baselines, one broken rule a case, advisories."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from models.lut.model import EXPONENT
from tests.model.limitation_cases.cdp import CDP_BASELINES, cdp_spec, run_cdp_layer
from tests.model.limitation_cases.common import (
    Case,
    Spec,
    lut_changes,
    lut_fields,
)
from tests.model.limitation_cases.sdp import SDP_BASELINES, run_sdp_layer, sdp_simple_spec

_EXP = {"function": EXPONENT, "le_offset": -60, "le_start": 0, "le_end": 16}   # 16 == 1 << (-60 + 64)

LUT_BASELINES: dict[str, Spec] = {
    "cdp_lut": CDP_BASELINES["cdp_main"],          # linear LE and LO (lut_fields defaults)
    "cdp_exp": cdp_spec(5, 3, 12, lut=lut_fields("CDP", **_EXP)),
    "sdp_lut": SDP_BASELINES["sdp_lut"],
    "sdp_exp": sdp_simple_spec(4, 3, 12, **{"D_DP_EW_CFG.EW_BYPASS": 0, "D_DP_EW_CFG.EW_LUT_BYPASS": 0,
                                        **lut_fields("SDP", **_EXP)}),
}
_LE_SELECT = {"CDP": "[-6, 15]", "SDP": "[-6, 25]"}
_LO_SELECT = {"CDP": "[-8, 13]", "SDP": "[-8, 23]"}
_LE_OFFSET = {"CDP": "[-64, 20]", "SDP": "[-64, 31]"}


def run_lut_layer(unit: str) -> Callable[[Mapping[str, Mapping[str, int]]], object]:
    """The LUT is checked where its unit runs: CdpConfig.from_fields, or the SDP EW LUT in run_sdp."""
    return run_cdp_layer if unit == "CDP" else run_sdp_layer


def _lut_cases(unit: str) -> tuple[Case, ...]:
    b, e, lc = f"{unit.lower()}_lut", f"{unit.lower()}_exp", lambda **kw: lut_changes(unit, **kw)
    le_max, lo_max, off_max = (15, 13, 20) if unit == "CDP" else (25, 23, 31)
    # SDP's START/END are 32 bits: a span of 1 << 32 (select 26 or 24) cannot be programmed, so those two
    # cases also break L1/L2 (checked after the range).
    le_span = min(1 << (le_max + 7), (1 << 32) - 1)
    lo_span = min(1 << (lo_max + 9), (1 << 32) - 1)
    return (
        Case(f"L1-{unit}", b, lc(le_end=65), f"{unit} LUT: LE_END-LE_START == 1<<(LE_INDEX_SELECT+6)",
             {"LE_START": 0, "LE_END": 65, "LE_INDEX_SELECT": 0}),
        Case(f"L2-{unit}", b, lc(lo_end=129), f"{unit} LUT: LO_END-LO_START == 1<<(LO_INDEX_SELECT+8)",
             {"LO_START": -128, "LO_END": 129, "LO_INDEX_SELECT": 0}),
        Case(f"L3-{unit}-MIN", b, lc(le_select=-7), f"LE_INDEX_SELECT must be in {_LE_SELECT[unit]}",
             {"LE_INDEX_SELECT": -7}),
        Case(f"L3-{unit}-MAX", b,
             lc(le_select=le_max + 1, le_start=-(le_span // 2), le_end=le_span - le_span // 2),
             f"LE_INDEX_SELECT must be in {_LE_SELECT[unit]}", {"LE_INDEX_SELECT": le_max + 1}),
        Case(f"L4-{unit}-MIN", b, lc(lo_select=-9), f"LO_INDEX_SELECT must be in {_LO_SELECT[unit]}",
             {"LO_INDEX_SELECT": -9}),
        Case(f"L4-{unit}-MAX", b,
             lc(lo_select=lo_max + 1, lo_start=-(lo_span // 2), lo_end=lo_span - lo_span // 2),
             f"LO_INDEX_SELECT must be in {_LO_SELECT[unit]}", {"LO_INDEX_SELECT": lo_max + 1}),
        Case(f"L6-{unit}-MIN", e, lc(**{**_EXP, "le_offset": -65}),
             f"LE_INDEX_OFFSET must be in {_LE_OFFSET[unit]}", {"LE_INDEX_OFFSET": -65}),
        Case(f"L6-{unit}-MAX", e, lc(**{**_EXP, "le_offset": off_max + 1}),
             f"LE_INDEX_OFFSET must be in {_LE_OFFSET[unit]}", {"LE_INDEX_OFFSET": off_max + 1}),
    )


LUT_CASES = (
    *_lut_cases("CDP"), *_lut_cases("SDP"),
    # L7, the FP16 START/END constraints, cannot be set up on nv_small: FP16 is refused first, by DF1.
    Case("L7-CDP", "cdp_lut", {"CDP:D_DATA_FORMAT.INPUT_DATA_TYPE": 2},
         "not a precision of this configuration",
         {"CDP INPUT_DATA_TYPE": 2}),
    Case("L7-SDP", "sdp_lut", {"SDP:D_DATA_FORMAT.PROC_PRECISION": 2},
         "not a precision of this configuration", {"SDP PROC_PRECISION": 2}),
)

LUT_ADVISORIES = tuple(
    Case(f"L5-{unit}", f"{unit.lower()}_exp", lut_changes(unit, **{**_EXP, "le_end": 18}),
         f"{unit} LUT: LE_END-LE_START == 1<<(LE_INDEX_OFFSET+64) in exponential mode "
         "(LE_START=0, LE_END=18, LE_INDEX_OFFSET=-60)")
    for unit in ("CDP", "SDP"))
