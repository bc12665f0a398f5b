"""Seed 001's Limitation rules for SDP, CDP, PDP and the LUT, one test case per rule of docs/limitations.md.

Every case starts from a VALID register configuration (reset values with a layer's fields encoded through
models/registers.encode_fields, then decoded again as the hardware would see them), breaks one rule, and
checks that the unit's configuration layer raises ConfigError naming that rule (the seed's wording in
`err.rule`) and the offending values (`err.values`). Rules NVIDIA's own traces break are advisories: the
case checks that advisories() reports them and that the layer still runs. The last test checks that every
rule id of docs/limitations.md has a case here and every case id is in the document.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from models.cdp import model as cdp
from models.common.memory import Memory
from models.errors import ConfigError
from models.lut import model as lut
from models.lut.model import EXPONENT, LINEAR
from models.pdp import model as pdp
from models.registers import decode_fields, encode_fields, reset_values
from models.sdp import model as sdp
from models.sdp.datapath import ALU_EQL, ALU_MAX, ALU_SUM

Spec = Mapping[str, Mapping[str, int]]
"""unit -> "REG.FIELD" -> value as stored (unsigned)."""

DOC = Path(__file__).resolve().parents[2] / "docs" / "limitations.md"
LUT_TABLES = (np.zeros(65, dtype=np.int16), np.zeros(257, dtype=np.int16))


def u(value: int, bits: int) -> int:
    """A signed value as the unsigned field that stores it."""
    return value & ((1 << bits) - 1)


def full_fields(spec: Spec) -> dict[str, dict[str, int]]:
    """Every field of every register of each unit: reset values with the spec's fields encoded into them."""
    out: dict[str, dict[str, int]] = {}
    for unit, fields in spec.items():
        regs = {**reset_values(unit), **encode_fields(unit, fields)}
        out[unit] = decode_fields(unit, regs)
    return out


def with_changes(spec: Spec, changes: Mapping[str, int]) -> dict[str, dict[str, int]]:
    """The spec with `changes` ("UNIT:REG.FIELD" -> value) applied, still one field per key."""
    out = {unit: dict(fields) for unit, fields in spec.items()}
    for key, value in changes.items():
        unit, name = key.split(":", 1)
        out.setdefault(unit, {})[name] = value
    return out


@dataclass(frozen=True)
class Case:
    """One broken rule: the baseline it starts from, the fields it changes, the error it expects."""

    id: str
    base: str
    changes: Mapping[str, int]
    rule: str
    """A piece of ConfigError.rule: the seed's wording of the rule."""
    values: Mapping[str, int] = field(default_factory=dict)
    """Entries ConfigError.values must hold (the offending values)."""
    raw: Mapping[str, int] = field(default_factory=dict)
    """"UNIT:REG.FIELD" set after decoding: values no register field can hold (wider than the field)."""


def case_fields(case: Case, baselines: Mapping[str, Spec]) -> dict[str, dict[str, int]]:
    fields = full_fields(with_changes(baselines[case.base], case.changes))
    for key, value in case.raw.items():
        unit, name = key.split(":", 1)
        fields[unit][name] = value
    return fields


def expect_error(run: Callable[[Mapping[str, Mapping[str, int]]], object], case: Case,
                 baselines: Mapping[str, Spec]) -> None:
    fields = case_fields(case, baselines)
    with pytest.raises(ConfigError) as err:
        run(fields)
    assert case.rule in err.value.rule, f"raised {err.value.rule!r}, expected a rule naming {case.rule!r}"
    assert case.rule in str(err.value)
    for name, value in case.values.items():
        assert err.value.values.get(name) == value, f"{name}: {err.value.values}"


def params(cases: tuple[Case, ...]) -> list[object]:
    return [pytest.param(c, id=c.id) for c in cases]


def lut_fields(unit: str, *, function: int = LINEAR, le_offset: int = 0, le_select: int = 0,
               lo_select: int = 0, le_start: int = 0, le_end: int = 64, lo_start: int = -128,
               lo_end: int = 128) -> dict[str, int]:
    """S_LUT_* fields of `unit` from signed values; the defaults are valid for both units (linear LE over
    [0, 64) and LO over [-128, 128), both with select 0). CDP splits START/END into 32 + 6 bits."""
    fields = {"S_LUT_CFG.LUT_LE_FUNCTION": function, "S_LUT_CFG.LUT_UFLOW_PRIORITY": 1,
              "S_LUT_CFG.LUT_OFLOW_PRIORITY": 1, "S_LUT_INFO.LUT_LE_INDEX_OFFSET": u(le_offset, 8),
              "S_LUT_INFO.LUT_LE_INDEX_SELECT": u(le_select, 8),
              "S_LUT_INFO.LUT_LO_INDEX_SELECT": u(lo_select, 8)}
    ends = (("LE_START", le_start), ("LE_END", le_end), ("LO_START", lo_start), ("LO_END", lo_end))
    for reg, value in ends:
        if unit == "SDP":
            fields[f"S_LUT_{reg}.LUT_{reg}"] = u(value, 32)
        else:
            fields[f"S_LUT_{reg}_LOW.LUT_{reg}_LOW"] = u(value, 32)
            fields[f"S_LUT_{reg}_HIGH.LUT_{reg}_HIGH"] = u(value, 38) >> 32
    return fields


def lut_changes(unit: str, **values: int) -> dict[str, int]:
    """Changes that reprogram every S_LUT_* field of `unit` (only the named values differ)."""
    return {f"{unit}:{name}": value for name, value in lut_fields(unit, **values).items()}


# ======================================================================================== SDP ============

def _sdp_cube(w: int, h: int, c: int) -> dict[str, int]:
    return {"D_DATA_CUBE_WIDTH.WIDTH": w - 1, "D_DATA_CUBE_HEIGHT.HEIGHT": h - 1,
            "D_DATA_CUBE_CHANNEL.CHANNEL": c - 1}


def _sdp_rdma(w: int, h: int, c: int, *, flying: int = 0) -> dict[str, int]:
    # SDP_RDMA resets IN/PROC_PRECISION to INT16 (reset 0x14): an INT8 layer programs them.
    return {**_sdp_cube(w, h, c),
            "D_FEATURE_MODE_CFG.FLYING_MODE": flying, "D_FEATURE_MODE_CFG.WINOGRAD": 0,
            "D_FEATURE_MODE_CFG.IN_PRECISION": 0, "D_FEATURE_MODE_CFG.PROC_PRECISION": 0,
            "D_FEATURE_MODE_CFG.OUT_PRECISION": 0, "D_FEATURE_MODE_CFG.BATCH_NUMBER": 0,
            "D_SRC_BASE_ADDR_LOW.SRC_BASE_ADDR_LOW": 0x1000, "D_SRC_LINE_STRIDE.SRC_LINE_STRIDE": 0x40,
            "D_SRC_SURFACE_STRIDE.SRC_SURFACE_STRIDE": 0x100}


def _sdp_main(*, flying: int = 0) -> dict[str, dict[str, int]]:
    """4x3x12 (two surfaces): BS = per-element ALU operand (BRDMA) then MUL by a register; BN = MUL by a
    per-channel 2-byte operand (NRDMA); EW = MUL by a register then MAX with a per-element operand through
    its convertor (ERDMA); LUT bypassed; a real output convertor; output to memory."""
    sdp_fields = {
        **_sdp_cube(4, 3, 12),
        "D_DATA_FORMAT.PROC_PRECISION": 0, "D_DATA_FORMAT.OUT_PRECISION": 0,
        "D_FEATURE_MODE_CFG.FLYING_MODE": flying, "D_FEATURE_MODE_CFG.OUTPUT_DST": 0,
        "D_FEATURE_MODE_CFG.WINOGRAD": 0, "D_FEATURE_MODE_CFG.BATCH_NUMBER": 0,
        "D_DST_BASE_ADDR_LOW.DST_BASE_ADDR_LOW": 0x10000, "D_DST_LINE_STRIDE.DST_LINE_STRIDE": 0x40,
        "D_DST_SURFACE_STRIDE.DST_SURFACE_STRIDE": 0x100,
        "D_DP_BS_CFG.BS_BYPASS": 0, "D_DP_BS_CFG.BS_ALU_BYPASS": 0, "D_DP_BS_CFG.BS_ALU_ALGO": ALU_SUM,
        "D_DP_BS_CFG.BS_MUL_BYPASS": 0, "D_DP_BS_CFG.BS_MUL_PRELU": 0, "D_DP_BS_CFG.BS_RELU_BYPASS": 0,
        "D_DP_BS_ALU_CFG.BS_ALU_SRC": 1, "D_DP_BS_ALU_CFG.BS_ALU_SHIFT_VALUE": 2,
        "D_DP_BS_MUL_CFG.BS_MUL_SRC": 0, "D_DP_BS_MUL_CFG.BS_MUL_SHIFT_VALUE": 3,
        "D_DP_BS_MUL_SRC_VALUE.BS_MUL_OPERAND": 5,
        "D_DP_BN_CFG.BN_BYPASS": 0, "D_DP_BN_CFG.BN_ALU_BYPASS": 1, "D_DP_BN_CFG.BN_MUL_BYPASS": 0,
        "D_DP_BN_CFG.BN_MUL_PRELU": 0, "D_DP_BN_CFG.BN_RELU_BYPASS": 1, "D_DP_BN_MUL_CFG.BN_MUL_SRC": 1,
        "D_DP_BN_ALU_SRC_VALUE.BN_ALU_OPERAND": u(-4, 16),
        "D_DP_EW_CFG.EW_BYPASS": 0, "D_DP_EW_CFG.EW_ALU_BYPASS": 0, "D_DP_EW_CFG.EW_ALU_ALGO": ALU_MAX,
        "D_DP_EW_CFG.EW_MUL_BYPASS": 0, "D_DP_EW_CFG.EW_MUL_PRELU": 0, "D_DP_EW_CFG.EW_LUT_BYPASS": 1,
        "D_DP_EW_ALU_CFG.EW_ALU_SRC": 1, "D_DP_EW_ALU_CFG.EW_ALU_CVT_BYPASS": 0,
        "D_DP_EW_ALU_CVT_SCALE_VALUE.EW_ALU_CVT_SCALE": 3,
        "D_DP_EW_MUL_CFG.EW_MUL_SRC": 0, "D_DP_EW_MUL_SRC_VALUE.EW_MUL_OPERAND": 3,
        "D_CVT_OFFSET.CVT_OFFSET": 2, "D_CVT_SCALE.CVT_SCALE": 3, "D_CVT_SHIFT.CVT_SHIFT": 1,
    }
    rdma = {
        **_sdp_rdma(4, 3, 12, flying=flying),
        "D_BRDMA_CFG.BRDMA_DISABLE": 0, "D_BRDMA_CFG.BRDMA_DATA_USE": sdp.USE_ALU,
        "D_BRDMA_CFG.BRDMA_DATA_MODE": sdp.PER_ELEMENT, "D_BS_BASE_ADDR_LOW.BS_BASE_ADDR_LOW": 0x2000,
        "D_BS_LINE_STRIDE.BS_LINE_STRIDE": 0x40, "D_BS_SURFACE_STRIDE.BS_SURFACE_STRIDE": 0x100,
        "D_NRDMA_CFG.NRDMA_DISABLE": 0, "D_NRDMA_CFG.NRDMA_DATA_USE": sdp.USE_MUL,
        "D_NRDMA_CFG.NRDMA_DATA_SIZE": 1, "D_NRDMA_CFG.NRDMA_DATA_MODE": sdp.PER_KERNEL,
        "D_BN_BASE_ADDR_LOW.BN_BASE_ADDR_LOW": 0x3000,
        "D_ERDMA_CFG.ERDMA_DISABLE": 0, "D_ERDMA_CFG.ERDMA_DATA_USE": sdp.USE_ALU,
        "D_ERDMA_CFG.ERDMA_DATA_MODE": sdp.PER_ELEMENT, "D_EW_BASE_ADDR_LOW.EW_BASE_ADDR_LOW": 0x4000,
        "D_EW_LINE_STRIDE.EW_LINE_STRIDE": 0x40, "D_EW_SURFACE_STRIDE.EW_SURFACE_STRIDE": 0x100,
    }
    return {"SDP": sdp_fields, "SDP_RDMA": rdma}


def _sdp_simple(w: int, h: int, c: int, **extra: int) -> dict[str, dict[str, int]]:
    """Every block bypassed (their reset values), identity output convertor; `extra` SDP fields."""
    sdp_fields = {**_sdp_cube(w, h, c), "D_DST_BASE_ADDR_LOW.DST_BASE_ADDR_LOW": 0x10000,
                  "D_DST_LINE_STRIDE.DST_LINE_STRIDE": 0x40, "D_DST_SURFACE_STRIDE.DST_SURFACE_STRIDE": 0x100,
                  "D_CVT_SCALE.CVT_SCALE": 1, **extra}
    return {"SDP": sdp_fields, "SDP_RDMA": _sdp_rdma(w, h, c)}


def _sdp_eql() -> dict[str, dict[str, int]]:
    """EQL compare of the input cube with an ERDMA cube: Y ALU convertor, LUT and output convertor off."""
    spec = _sdp_simple(4, 3, 12, **{
        "D_DP_EW_CFG.EW_BYPASS": 0, "D_DP_EW_CFG.EW_ALU_BYPASS": 0, "D_DP_EW_CFG.EW_ALU_ALGO": ALU_EQL,
        "D_DP_EW_ALU_CFG.EW_ALU_SRC": 1, "D_DP_EW_ALU_CFG.EW_ALU_CVT_BYPASS": 1})
    spec["SDP_RDMA"].update({
        "D_ERDMA_CFG.ERDMA_DISABLE": 0, "D_ERDMA_CFG.ERDMA_DATA_USE": sdp.USE_ALU,
        "D_ERDMA_CFG.ERDMA_DATA_MODE": sdp.PER_ELEMENT, "D_EW_BASE_ADDR_LOW.EW_BASE_ADDR_LOW": 0x4000,
        "D_EW_LINE_STRIDE.EW_LINE_STRIDE": 0x40, "D_EW_SURFACE_STRIDE.EW_SURFACE_STRIDE": 0x100})
    return spec


def _sdp_lut() -> dict[str, dict[str, int]]:
    """EW = the LUT alone (linear LE over [0, 64), LO over [-128, 128)); the LUT registers are valid."""
    return _sdp_simple(4, 3, 12, **{
        "D_DP_EW_CFG.EW_BYPASS": 0, "D_DP_EW_CFG.EW_LUT_BYPASS": 0, **lut_fields("SDP")})


SDP_BASELINES: dict[str, Spec] = {
    "sdp_main": _sdp_main(),
    "sdp_fly": _sdp_main(flying=1),
    "sdp_to_pdp": _sdp_simple(4, 3, 12, **{"D_FEATURE_MODE_CFG.OUTPUT_DST": 1}),
    "sdp_eql": _sdp_eql(),
    "sdp_eql_fly": with_changes(_sdp_eql(), {"SDP:D_FEATURE_MODE_CFG.FLYING_MODE": 1,
                                             "SDP_RDMA:D_FEATURE_MODE_CFG.FLYING_MODE": 1}),
    "sdp_lut": _sdp_lut(),
    "sdp_1x1": _sdp_simple(1, 1, 16),
}


def run_sdp_layer(fields: Mapping[str, Mapping[str, int]]) -> sdp.SdpResult:
    """Decode, validate and run one SDP layer on an empty memory (input on the fly when so configured)."""
    cfg = sdp.SdpConfig.from_fields(fields)
    cube = np.zeros((cfg.padded_channels, cfg.height, cfg.width), dtype=np.int8) if cfg.flying_in else None
    return sdp.run_sdp(cfg, Memory(), flying_input=cube, lut_tables=LUT_TABLES)


SDP_CASES = (
    # --- Data format -------------------------------------------------------------------------------------
    Case("DF1-SDP-PROC", "sdp_main", {"SDP:D_DATA_FORMAT.PROC_PRECISION": 1},
         "not a precision of this configuration", {"SDP PROC_PRECISION": 1}),
    Case("DF1-SDP-OUT", "sdp_main", {"SDP:D_DATA_FORMAT.OUT_PRECISION": 2},
         "not a precision of this configuration", {"SDP OUT_PRECISION": 2}),
    Case("DF1-SDP_RDMA-IN", "sdp_main", {"SDP_RDMA:D_FEATURE_MODE_CFG.IN_PRECISION": 1},
         "not a precision of this configuration", {"SDP_RDMA IN_PRECISION": 1}),
    Case("DF1-SDP_RDMA-PROC", "sdp_main", {"SDP_RDMA:D_FEATURE_MODE_CFG.PROC_PRECISION": 2},
         "not a precision of this configuration", {"SDP_RDMA PROC_PRECISION": 2}),
    Case("DF1-SDP_RDMA-OUT", "sdp_main", {"SDP_RDMA:D_FEATURE_MODE_CFG.OUT_PRECISION": 1},
         "not a precision of this configuration", {"SDP_RDMA OUT_PRECISION": 1}),
    Case("DF2-SDP-SRC", "sdp_main", {"SDP_RDMA:D_SRC_BASE_ADDR_LOW.SRC_BASE_ADDR_LOW": 0x1004},
         "alignment for SRC address/line_stride/surf_stride", {"SRC_BASE_ADDR": 0x1004}),
    Case("DF2-SDP-DST", "sdp_main", {"SDP:D_DST_SURFACE_STRIDE.DST_SURFACE_STRIDE": 0x104},
         "alignment for DST address/line_stride/surf_stride", {"DST_SURFACE_STRIDE": 0x104}),
    Case("DF2-SDP-BS", "sdp_main", {"SDP_RDMA:D_BS_LINE_STRIDE.BS_LINE_STRIDE": 0x44},
         "alignment for BS address/line_stride/surf_stride", {"BS_LINE_STRIDE": 0x44}),
    Case("DF2-SDP-BN", "sdp_main", {"SDP_RDMA:D_BN_BASE_ADDR_LOW.BN_BASE_ADDR_LOW": 0x3002},
         "alignment for BN address/line_stride/surf_stride", {"BN_BASE_ADDR": 0x3002}),
    Case("DF3-SDP-SRC", "sdp_main", {"SDP_RDMA:D_SRC_LINE_STRIDE.SRC_LINE_STRIDE": 0x18},
         "SRC_LINE_STRIDE has to be bigger than the actual size per line",
         {"SRC_LINE_STRIDE": 0x18, "bytes_per_line": 32}),
    Case("DF3-SDP-DST", "sdp_main", {"SDP:D_DST_SURFACE_STRIDE.DST_SURFACE_STRIDE": 0x80},
         "DST_SURFACE_STRIDE must hold a whole surface",
         {"DST_SURFACE_STRIDE": 0x80, "bytes_per_surface": 160}),
    Case("DF3-SDP-EW", "sdp_main", {"SDP_RDMA:D_EW_LINE_STRIDE.EW_LINE_STRIDE": 0x10},
         "EW_LINE_STRIDE has to be bigger than the actual size per line",
         {"EW_LINE_STRIDE": 0x10, "bytes_per_line": 32}),
    # --- SDP General --------------------------------------------------------------------------------------
    Case("S1-BN", "sdp_main", {"SDP:D_DP_BN_MUL_CFG.BN_MUL_SRC": 0},
         "when SRC is configured as REG, corresponding RDMA shouldn't be enabled",
         {"ALU_SRC_REG": 0, "MUL_SRC_REG": 1}),
    Case("S1-BS", "sdp_main", {"SDP:D_DP_BS_ALU_CFG.BS_ALU_SRC": 0},
         "when SRC is configured as REG, corresponding RDMA shouldn't be enabled",
         {"ALU_SRC_REG": 1, "MUL_SRC_REG": 1}),
    Case("S2", "sdp_eql", {"SDP:D_DP_EW_ALU_CFG.EW_ALU_CVT_BYPASS": 0},
         "EQL: Y ALU convertor must be bypassed", {"EW_ALU_CVT_BYPASS": 0}),
    Case("S3", "sdp_eql", {"SDP:D_DP_EW_CFG.EW_LUT_BYPASS": 0},
         "EQL: all the operations after ALU should be bypassed", {"EW_LUT_BYPASS": 0}),
    # S5 (FP16 EW convertors) and S7 (INT16->INT8 channel alignment) cannot be set up on nv_small (INT8
    # only): the precision they need is refused first, by DF1.
    Case("S5", "sdp_main", {"SDP:D_DATA_FORMAT.PROC_PRECISION": 2,
                            "SDP:D_DP_EW_ALU_CFG.EW_ALU_CVT_BYPASS": 1},
         "not a precision of this configuration", {"SDP PROC_PRECISION": 2}),
    Case("S6-PDP", "sdp_to_pdp", {"SDP:D_CVT_SCALE.CVT_SCALE": 2},
         "precision conversion is not allowed if SDP output to PDP or EQL mode",
         {"CVT_SCALE": 2, "OUTPUT_DST_PDP": 1, "EQL": 0}),
    Case("S6-EQL", "sdp_eql", {"SDP:D_CVT_SHIFT.CVT_SHIFT": 1},
         "precision conversion is not allowed if SDP output to PDP or EQL mode",
         {"CVT_SHIFT": 1, "OUTPUT_DST_PDP": 0, "EQL": 1}),
    Case("S7", "sdp_main", {"SDP_RDMA:D_FEATURE_MODE_CFG.IN_PRECISION": 1},
         "not a precision of this configuration", {"SDP_RDMA IN_PRECISION": 1}),
    # --- SDP Winograd/Batch -------------------------------------------------------------------------------
    Case("S8-WINOGRAD", "sdp_main", {"SDP:D_FEATURE_MODE_CFG.WINOGRAD": 1},
         "SDP has to work on the fly with CC", {"WINOGRAD": 1, "BATCH_NUMBER": 0}),
    Case("S8-BATCH", "sdp_main", {"SDP:D_FEATURE_MODE_CFG.BATCH_NUMBER": 3},
         "SDP has to work on the fly with CC", {"WINOGRAD": 0, "BATCH_NUMBER": 3}),
    Case("S9", "sdp_eql_fly", {"SDP:D_FEATURE_MODE_CFG.WINOGRAD": 1},
         "SDP_Y can't work at EQL mode (EQL: WINOGRAD has to be OFF and BATCH_NUMBER has to be 0)",
         {"EW_ALU_ALGO": ALU_EQL, "WINOGRAD": 1}),
    Case("S10", "sdp_fly", {"SDP:D_FEATURE_MODE_CFG.BATCH_NUMBER": 1,
                            "SDP:D_DST_LINE_STRIDE.DST_LINE_STRIDE": 0x48},
         "if multi-batch is enabled, DST_BASE_ADDR, DST_LINE_STRIDE", {"DST_LINE_STRIDE": 0x48}),
    Case("S10-EW", "sdp_fly", {"SDP:D_FEATURE_MODE_CFG.BATCH_NUMBER": 1,
                               "SDP_RDMA:D_EW_BASE_ADDR_LOW.EW_BASE_ADDR_LOW": 0x4020},
         "BS/BN/EW_BASE_ADDR have to be 64 bytes aligned", {"EW_BASE_ADDR": 0x4020}),
    Case("S11-WINOGRAD", "sdp_fly", {"SDP:D_FEATURE_MODE_CFG.WINOGRAD": 1},
         "nv_small has no Winograd and no multi-batch", {"WINOGRAD": 1, "BATCH_NUMBER": 0}),
    Case("S11-BATCH", "sdp_fly", {"SDP:D_FEATURE_MODE_CFG.BATCH_NUMBER": 1},
         "nv_small has no Winograd and no multi-batch", {"WINOGRAD": 0, "BATCH_NUMBER": 1}),
    # --- SDP programming chapter: operands from memory ------------------------------------------------------
    Case("S12", "sdp_main", {"SDP_RDMA:D_BRDMA_CFG.BRDMA_DISABLE": 1},
         "an operand from memory needs its read DMA enabled", {"ALU_SRC_MEM": 1, "MUL_SRC_MEM": 0}),
    Case("S13-ALU", "sdp_main", {"SDP_RDMA:D_BRDMA_CFG.BRDMA_DATA_USE": sdp.USE_MUL},
         "RDMA DATA_USE must match the operands taken from memory",
         {"DATA_USE": sdp.USE_MUL, "needed": sdp.USE_ALU}),
    Case("S13-BOTH", "sdp_main", {"SDP:D_DP_BS_MUL_CFG.BS_MUL_SRC": 1},
         "RDMA DATA_USE must match the operands taken from memory",
         {"DATA_USE": sdp.USE_ALU, "needed": sdp.USE_BOTH}),
    # --- model rule: SDP_RDMA repeats the cube size --------------------------------------------------------
    Case("S14", "sdp_main", {"SDP_RDMA:D_DATA_CUBE_HEIGHT.HEIGHT": 3},
         "SDP_RDMA D_DATA_CUBE_HEIGHT must equal SDP's", {"SDP_RDMA": 4, "SDP": 3}),
)

SDP_ADVISORIES = (
    Case("S4-BS", "sdp_main", {"SDP:D_DP_BS_CFG.BS_MUL_PRELU": 1},
         "SDP BS: if PReLU is enabled for one sub-unit, the ALU in that unit MUST be bypassed"),
    Case("S4-BN", "sdp_main", {"SDP:D_DP_BN_CFG.BN_ALU_BYPASS": 0, "SDP:D_DP_BN_CFG.BN_MUL_PRELU": 1},
         "SDP BN: if PReLU is enabled for one sub-unit, the ALU in that unit MUST be bypassed"),
    Case("S4-EW", "sdp_main", {"SDP:D_DP_EW_CFG.EW_MUL_PRELU": 1},
         "SDP EW: if PReLU is enabled for one sub-unit, the ALU in that unit MUST be bypassed"),
)

# The BS/BN ALU/MUL operand sources the SDP programming chapter lists as supported (S15).
SDP_SOURCE_COMBINATIONS = {
    "S15-REG-MC": {"SDP:D_DP_BS_ALU_CFG.BS_ALU_SRC": 0, "SDP:D_DP_BS_MUL_CFG.BS_MUL_SRC": 1,
                   "SDP_RDMA:D_BRDMA_CFG.BRDMA_DATA_USE": sdp.USE_MUL},
    "S15-MC-REG": {},
    "S15-MC-MC-PER-CHANNEL": {"SDP:D_DP_BS_MUL_CFG.BS_MUL_SRC": 1,
                              "SDP_RDMA:D_BRDMA_CFG.BRDMA_DATA_USE": sdp.USE_BOTH,
                              "SDP_RDMA:D_BRDMA_CFG.BRDMA_DATA_MODE": sdp.PER_KERNEL},
    "S15-MC-MC-PER-ELEMENT": {"SDP:D_DP_BS_MUL_CFG.BS_MUL_SRC": 1,
                              "SDP_RDMA:D_BRDMA_CFG.BRDMA_DATA_USE": sdp.USE_BOTH},
    "S15-REG-REG": {"SDP:D_DP_BS_ALU_CFG.BS_ALU_SRC": 0, "SDP_RDMA:D_BRDMA_CFG.BRDMA_DISABLE": 1},
}


@pytest.mark.parametrize("name", SDP_BASELINES)
def test_sdp_baseline_is_valid(name: str) -> None:
    fields = full_fields(SDP_BASELINES[name])
    run_sdp_layer(fields)
    assert sdp.advisories(sdp.SdpConfig.from_fields(fields)) == []


@pytest.mark.parametrize("case", params(SDP_CASES))
def test_sdp_rule_raises(case: Case) -> None:
    expect_error(run_sdp_layer, case, SDP_BASELINES)


@pytest.mark.parametrize("case", params(SDP_ADVISORIES))
def test_sdp_advisory(case: Case) -> None:
    fields = case_fields(case, SDP_BASELINES)
    run_sdp_layer(fields)   # reported, not raised: the layer runs
    assert sdp.advisories(sdp.SdpConfig.from_fields(fields)) == [case.rule]


@pytest.mark.parametrize("changes", [pytest.param(v, id=k) for k, v in SDP_SOURCE_COMBINATIONS.items()])
def test_sdp_supported_operand_sources(changes: Mapping[str, int]) -> None:
    run_sdp_layer(full_fields(with_changes(SDP_BASELINES["sdp_main"], changes)))


def test_sdp_1x1_cube_is_read_and_written_packed_whatever_the_strides() -> None:
    """DF4 on SDP: the strides of a 1x1xC cube are not used (NVIDIA's C model reads a 1x1 input as one
    per-kernel block), so unpacked, even overlapping, strides cannot break the layer: nothing to report."""
    spec = with_changes(SDP_BASELINES["sdp_1x1"], {
        "SDP_RDMA:D_SRC_LINE_STRIDE.SRC_LINE_STRIDE": 0x100,
        "SDP_RDMA:D_SRC_SURFACE_STRIDE.SRC_SURFACE_STRIDE": 0,
        "SDP:D_DST_LINE_STRIDE.DST_LINE_STRIDE": 0x100, "SDP:D_DST_SURFACE_STRIDE.DST_SURFACE_STRIDE": 0})
    cfg = sdp.SdpConfig.from_fields(full_fields(spec))
    mem = Memory()
    data = np.arange(1, 17, dtype=np.int8)
    mem.write(0x1000, data.view(np.uint8))
    res = sdp.run_sdp(cfg, mem)
    assert res.output[:, 0, 0].tolist() == data.tolist()
    assert mem.read(0x10000, 16).view(np.int8).tolist() == data.tolist()
    assert sdp.advisories(cfg) == []



# ======================================================================================== CDP ============

def _cdp(w: int, h: int, c: int, *, line: int = 0x40, surf: int = 0x100,
         lut: Mapping[str, int] | None = None) -> dict[str, dict[str, int]]:
    """LRN over 5 channels with real convertors; input and output in the same layout (line/surf strides)."""
    cdp_fields = {
        "D_DATA_FORMAT.INPUT_DATA_TYPE": 0, "D_LRN_CFG.NORMALZ_LEN": 1,
        "D_FUNC_BYPASS.SQSUM_BYPASS": 0, "D_FUNC_BYPASS.MUL_BYPASS": 0,
        "D_DATIN_OFFSET.DATIN_OFFSET": 2, "D_DATIN_SCALE.DATIN_SCALE": 3, "D_DATIN_SHIFTER.DATIN_SHIFTER": 1,
        "D_DATOUT_OFFSET.DATOUT_OFFSET": 5, "D_DATOUT_SCALE.DATOUT_SCALE": 7,
        "D_DATOUT_SHIFTER.DATOUT_SHIFTER": 4,
        "D_DST_BASE_ADDR_LOW.DST_BASE_ADDR_LOW": 0x8000, "D_DST_LINE_STRIDE.DST_LINE_STRIDE": line,
        "D_DST_SURFACE_STRIDE.DST_SURFACE_STRIDE": surf,
        **(lut if lut is not None else lut_fields("CDP")),
    }
    rdma = {
        "D_DATA_FORMAT.INPUT_DATA": 0, "D_DATA_CUBE_WIDTH.WIDTH": w - 1, "D_DATA_CUBE_HEIGHT.HEIGHT": h - 1,
        "D_DATA_CUBE_CHANNEL.CHANNEL": c - 1, "D_SRC_BASE_ADDR_LOW.SRC_BASE_ADDR_LOW": 0x1000,
        "D_SRC_LINE_STRIDE.SRC_LINE_STRIDE": line, "D_SRC_SURFACE_STRIDE.SRC_SURFACE_STRIDE": surf,
    }
    return {"CDP": cdp_fields, "CDP_RDMA": rdma}


CDP_BASELINES: dict[str, Spec] = {
    "cdp_main": _cdp(5, 3, 12),                 # two surfaces; a line is 40 bytes, a surface 168
    "cdp_1x1": _cdp(1, 1, 12, line=8, surf=8),  # line_packed and surf_packed
}


def run_cdp_layer(fields: Mapping[str, Mapping[str, int]]) -> cdp.CdpResult:
    """Decode, validate and run one CDP layer on an empty memory."""
    return cdp.run_cdp(cdp.CdpConfig.from_fields(fields, tables=LUT_TABLES), Memory())


CDP_CASES = (
    Case("DF1-CDP", "cdp_main", {"CDP:D_DATA_FORMAT.INPUT_DATA_TYPE": 1},
         "not a precision of this configuration",
         {"CDP INPUT_DATA_TYPE": 1}),
    Case("DF1-CDP_RDMA", "cdp_main", {"CDP_RDMA:D_DATA_FORMAT.INPUT_DATA": 2},
         "not a precision of this configuration",
         {"CDP_RDMA INPUT_DATA": 2}),
    Case("DF2-CDP-SRC", "cdp_main", {"CDP_RDMA:D_SRC_SURFACE_STRIDE.SRC_SURFACE_STRIDE": 0x10C},
         "alignment for SRC address/line_stride/surf_stride", {"SRC_SURFACE_STRIDE": 0x10C}),
    Case("DF2-CDP-DST", "cdp_main", {"CDP:D_DST_BASE_ADDR_LOW.DST_BASE_ADDR_LOW": 0x8001},
         "alignment for DST address/line_stride/surf_stride", {"DST_BASE_ADDR": 0x8001}),
    Case("DF3-CDP-SRC", "cdp_main", {"CDP_RDMA:D_SRC_LINE_STRIDE.SRC_LINE_STRIDE": 0x20},
         "SRC_LINE_STRIDE has to be bigger than the actual size per line",
         {"SRC_LINE_STRIDE": 0x20, "bytes_per_line": 40}),
    Case("DF3-CDP-DST", "cdp_main", {"CDP:D_DST_SURFACE_STRIDE.DST_SURFACE_STRIDE": 0x80},
         "DST_SURFACE_STRIDE must hold a whole surface",
         {"DST_SURFACE_STRIDE": 0x80, "bytes_per_surface": 168}),
    # NORMALZ_LEN is a 2-bit field (3, 5, 7 or 9 channels): a longer window cannot be programmed, so the
    # case hands the decoder a field value no register holds.
    Case("C1", "cdp_main", {}, "maximum supported local_size is 9", {"NORMALZ_LEN": 4},
         raw={"CDP:D_LRN_CFG.NORMALZ_LEN": 4}),
)

CDP_ADVISORIES = (
    Case("DF4-CDP-SRC", "cdp_1x1", {"CDP_RDMA:D_SRC_LINE_STRIDE.SRC_LINE_STRIDE": 0x100},
         "CDP: for 1x1xC cube, it should always be line_packed and surf_packed "
         "(SRC_LINE_STRIDE=256, SRC_SURFACE_STRIDE=8)"),
    Case("DF4-CDP-DST", "cdp_1x1", {"CDP:D_DST_SURFACE_STRIDE.DST_SURFACE_STRIDE": 0x40},
         "CDP: for 1x1xC cube, it should always be line_packed and surf_packed "
         "(DST_LINE_STRIDE=8, DST_SURFACE_STRIDE=64)"),
)


@pytest.mark.parametrize("name", CDP_BASELINES)
def test_cdp_baseline_is_valid(name: str) -> None:
    fields = full_fields(CDP_BASELINES[name])
    run_cdp_layer(fields)
    assert cdp.advisories(cdp.CdpConfig.from_fields(fields)) == []


@pytest.mark.parametrize("case", params(CDP_CASES))
def test_cdp_rule_raises(case: Case) -> None:
    expect_error(run_cdp_layer, case, CDP_BASELINES)


@pytest.mark.parametrize("case", params(CDP_ADVISORIES))
def test_cdp_advisory(case: Case) -> None:
    fields = case_fields(case, CDP_BASELINES)
    run_cdp_layer(fields)
    assert cdp.advisories(cdp.CdpConfig.from_fields(fields)) == [case.rule]


# ======================================================================================== PDP ============

def _pdp(w: int, h: int, c: int, *, k: tuple[int, int] = (3, 2), s: tuple[int, int] = (2, 2),
         pad: tuple[int, int, int, int] = (1, 0, 1, 1), out: tuple[int, int] = (4, 4), flying: bool = False,
         split: int = 0, part_in: tuple[int, int, int] = (0, 0, 0),
         part_out: tuple[int, int, int] = (0, 0, 0),
         src: tuple[int, int, int] = (0x1000, 0x100, 0x800),
         dst: tuple[int, int, int] = (0x8000, 0x100, 0x800)) -> dict[str, dict[str, int]]:
    """Average pooling of a w x h x c cube. pad = (left, right, top, bottom); part_in/part_out are the
    first/mid/last band widths of a split layer (0: unused); src/dst = (base, line stride, surface stride)."""
    pl, pr, pt, pb = pad
    fly_field = 0 if flying else 1   # FLYING_MODE: 0 = ON_FLYING (input from SDP), 1 = OFF_FLYING
    widths_in = {f"D_PARTIAL_WIDTH_IN.PARTIAL_WIDTH_IN_{n}": max(v - 1, 0)
                 for n, v in zip(("FIRST", "MID", "LAST"), part_in, strict=True)}
    widths_out = {f"D_PARTIAL_WIDTH_OUT.PARTIAL_WIDTH_OUT_{n}": max(v - 1, 0)
                  for n, v in zip(("FIRST", "MID", "LAST"), part_out, strict=True)}
    cube_in = {"D_DATA_CUBE_IN_WIDTH.CUBE_IN_WIDTH": w - 1, "D_DATA_CUBE_IN_HEIGHT.CUBE_IN_HEIGHT": h - 1,
               "D_DATA_CUBE_IN_CHANNEL.CUBE_IN_CHANNEL": c - 1}
    pdp_fields = {
        **cube_in, **widths_in, **widths_out,
        "D_DATA_CUBE_OUT_WIDTH.CUBE_OUT_WIDTH": out[0] - 1,
        "D_DATA_CUBE_OUT_HEIGHT.CUBE_OUT_HEIGHT": out[1] - 1,
        "D_DATA_CUBE_OUT_CHANNEL.CUBE_OUT_CHANNEL": c - 1, "D_DATA_FORMAT.INPUT_DATA": 0,
        "D_OPERATION_MODE_CFG.POOLING_METHOD": pdp.AVERAGE, "D_OPERATION_MODE_CFG.FLYING_MODE": fly_field,
        "D_OPERATION_MODE_CFG.SPLIT_NUM": split,
        "D_POOLING_KERNEL_CFG.KERNEL_WIDTH": k[0] - 1, "D_POOLING_KERNEL_CFG.KERNEL_HEIGHT": k[1] - 1,
        "D_POOLING_KERNEL_CFG.KERNEL_STRIDE_WIDTH": s[0] - 1,
        "D_POOLING_KERNEL_CFG.KERNEL_STRIDE_HEIGHT": s[1] - 1,
        "D_RECIP_KERNEL_WIDTH.RECIP_KERNEL_WIDTH": round(65536 / k[0]),
        "D_RECIP_KERNEL_HEIGHT.RECIP_KERNEL_HEIGHT": round(65536 / k[1]),
        "D_POOLING_PADDING_CFG.PAD_LEFT": pl, "D_POOLING_PADDING_CFG.PAD_RIGHT": pr,
        "D_POOLING_PADDING_CFG.PAD_TOP": pt, "D_POOLING_PADDING_CFG.PAD_BOTTOM": pb,
        "D_POOLING_PADDING_VALUE_1_CFG.PAD_VALUE_1X": u(-3, 19),
        "D_DST_BASE_ADDR_LOW.DST_BASE_ADDR_LOW": dst[0], "D_DST_LINE_STRIDE.DST_LINE_STRIDE": dst[1],
        "D_DST_SURFACE_STRIDE.DST_SURFACE_STRIDE": dst[2],
    }
    rdma = {
        **cube_in, **widths_in,
        "D_FLYING_MODE.FLYING_MODE": fly_field, "D_DATA_FORMAT.INPUT_DATA": 0,
        "D_OPERATION_MODE_CFG.SPLIT_NUM": split,
        "D_POOLING_KERNEL_CFG.KERNEL_WIDTH": k[0] - 1, "D_POOLING_KERNEL_CFG.KERNEL_STRIDE_WIDTH": s[0] - 1,
        "D_POOLING_PADDING_CFG.PAD_WIDTH": pl,
        "D_SRC_BASE_ADDR_LOW.SRC_BASE_ADDR_LOW": src[0], "D_SRC_LINE_STRIDE.SRC_LINE_STRIDE": src[1],
        "D_SRC_SURFACE_STRIDE.SRC_SURFACE_STRIDE": src[2],
    }
    return {"PDP": pdp_fields, "PDP_RDMA": rdma}


def pdp_changes(*args: int, **kw: object) -> dict[str, int]:
    """Changes that reprogram a whole PDP layer (`_pdp(*args, **kw)`); used where a rule ties several
    fields together, so that the new geometry meets every rule but the one a case breaks."""
    spec = _pdp(*args, **kw)  # type: ignore[arg-type]
    return {f"{unit}:{name}": value for unit, fields in spec.items() for name, value in fields.items()}


# Split geometries: W=16, kernel 4 stride 2, PL=PR=2 -> 9 outputs. Three bands (SPLIT_NUM=2): outputs
# 3/3/3, inputs 6/6/4 (bands after the first re-read kernel-stride = 2 columns). Two bands: 5/4 and 10/6.
_SPLIT = {"k": (4, 2), "s": (2, 2), "pad": (2, 2, 0, 0), "out": (9, 2), "src": (0x1000, 0x80, 0x800),
          "dst": (0x8000, 0x80, 0x800)}

PDP_BASELINES: dict[str, Spec] = {
    "pdp_main": _pdp(8, 6, 16),     # out 4x4: (1+8+0-3)/2+1 and (1+6+1-2)//2+1
    "pdp_fly": _pdp(8, 6, 16, flying=True),
    "pdp_split3": _pdp(16, 4, 8, split=2, part_in=(6, 6, 4), part_out=(3, 3, 3), **_SPLIT),  # type: ignore
    "pdp_split2": _pdp(16, 4, 8, split=1, part_in=(10, 0, 6), part_out=(5, 0, 4), **_SPLIT),  # type: ignore
    "pdp_1x1": _pdp(1, 1, 16, k=(1, 1), s=(1, 1), pad=(0, 0, 0, 0), out=(1, 1), src=(0x1000, 8, 8),
                    dst=(0x8000, 8, 8)),
}


def run_pdp_layer(fields: Mapping[str, Mapping[str, int]]) -> pdp.PdpResult:
    """Decode, validate and run one PDP layer on an empty memory (input from SDP when on the fly)."""
    cfg = pdp.PdpConfig.from_fields(fields)
    cube = np.zeros((cfg.padded_channels, cfg.in_height, cfg.in_width), dtype=np.int8) if cfg.flying else None
    return pdp.run_pdp(cfg, Memory(), flying_input=cube)


_BIG = {"src": (0x1000, 0x2000, 0x10000), "dst": (0x40000, 0x2000, 0x10000)}   # strides for wide cubes

PDP_CASES = (
    # --- Data format -------------------------------------------------------------------------------------
    # nv_small (these programs' configuration) has INT8 only; the RDMA's copy must name the same precision
    Case("DF1-PDP", "pdp_main", {"PDP:D_DATA_FORMAT.INPUT_DATA": 1},
         "not a precision of this configuration", {"INPUT_DATA": 1}),
    Case("DF1-PDP_RDMA", "pdp_main", {"PDP_RDMA:D_DATA_FORMAT.INPUT_DATA": 2}, "INPUT_DATA must equal PDP's",
         {"PDP_RDMA INPUT_DATA": 2}),
    Case("DF2-PDP-SRC", "pdp_main", {"PDP_RDMA:D_SRC_LINE_STRIDE.SRC_LINE_STRIDE": 0x104},
         "alignment for SRC address/line_stride/surf_stride", {"SRC_LINE_STRIDE": 0x104}),
    Case("DF2-PDP-DST", "pdp_main", {"PDP:D_DST_BASE_ADDR_LOW.DST_BASE_ADDR_LOW": 0x8004},
         "alignment for DST address/line_stride/surf_stride", {"DST_BASE_ADDR": 0x8004}),
    Case("DF3-PDP-SRC", "pdp_main", {"PDP_RDMA:D_SRC_SURFACE_STRIDE.SRC_SURFACE_STRIDE": 0x100},
         "SRC_SURFACE_STRIDE must hold a whole surface",
         {"SRC_SURFACE_STRIDE": 0x100, "bytes_per_surface": 0x540}),
    Case("DF3-PDP-DST", "pdp_main", {"PDP:D_DST_LINE_STRIDE.DST_LINE_STRIDE": 0x18},
         "DST_LINE_STRIDE has to be bigger than the actual size per line",
         {"DST_LINE_STRIDE": 0x18, "bytes_per_line": 32}),
    # --- PDP Limitation rules -----------------------------------------------------------------------------
    Case("P1", "pdp_main", {"PDP:D_DATA_CUBE_IN_WIDTH.CUBE_IN_WIDTH": 8,
                            "PDP_RDMA:D_DATA_CUBE_IN_WIDTH.CUBE_IN_WIDTH": 8},
         "(PL+W+PR-Kernel_W)%stride_x == 0", {"PL": 1, "W": 9, "PR": 0, "kernel_w": 3, "stride_x": 2}),
    Case("P2-PL", "pdp_main", {"PDP:D_POOLING_PADDING_CFG.PAD_LEFT": 3,
                               "PDP:D_DATA_CUBE_OUT_WIDTH.CUBE_OUT_WIDTH": 4},
         "PL/PR should be less than kernel_width", {"PL": 3, "PR": 0, "kernel_w": 3}),
    Case("P2-PR", "pdp_main", {"PDP:D_POOLING_PADDING_CFG.PAD_LEFT": 0,
                               "PDP:D_POOLING_PADDING_CFG.PAD_RIGHT": 3,
                               "PDP:D_DATA_CUBE_OUT_WIDTH.CUBE_OUT_WIDTH": 4},
         "PL/PR should be less than kernel_width", {"PL": 0, "PR": 3, "kernel_w": 3}),
    Case("P3", "pdp_main", pdp_changes(258, 6, 16, out=(129, 4), **_BIG),  # type: ignore[arg-type]
         "output width must be less than the maximum flying width",
         {"out_width": 129, "max": 128, "kernel_h": 2, "stride_y": 2}),
    Case("P3-KERNEL", "pdp_main",   # 3 output rows in flight: 2 banks a row, 32 columns
         pdp_changes(35, 6, 16, k=(3, 3), s=(1, 1), pad=(0, 0, 0, 0), out=(33, 4), **_BIG),  # type: ignore
         "output width must be less than the maximum flying width",
         {"out_width": 33, "max": 32, "kernel_h": 3, "stride_y": 1}),
    Case("P3-SPLIT", "pdp_split2",
         pdp_changes(257, 4, 8, k=(1, 2), s=(1, 2), pad=(0, 0, 0, 0), out=(257, 2), split=1,
                     part_in=(128, 0, 129), part_out=(128, 0, 129), **_BIG),  # type: ignore[arg-type]
         "first/mid/last_out_width should be less than maximum flying width",
         {"last_out_width": 129, "max": 128, "kernel_h": 2, "stride_y": 2}),
    Case("P5", "pdp_main", {"PDP:D_DATA_CUBE_OUT_WIDTH.CUBE_OUT_WIDTH": 4},
         "CUBE_OUT_WIDTH must be (W+PL+PR-kernel_w)/stride_x + 1", {"CUBE_OUT_WIDTH": 5, "expected": 4}),
    Case("P6", "pdp_split3", {"PDP:D_PARTIAL_WIDTH_OUT.PARTIAL_WIDTH_OUT_FIRST": 3},
         "first_out + last_out + mid_out*(split_num-2) == CUBE_OUT_WIDTH", {"sum": 10, "CUBE_OUT_WIDTH": 9}),
    # The band equations and the in-width sum tie the band widths together: P7/P8/P9 cases change one band
    # width, which also leaves the sum short; the band equation is checked (and named) first.
    Case("P7", "pdp_split3", {"PDP:D_PARTIAL_WIDTH_IN.PARTIAL_WIDTH_IN_FIRST": 4},
         "first_in_width + PL == (first_out_width-1)*stride_x + kernel_w",
         {"first_in_width": 5, "PL": 2, "first_out_width": 3}),
    Case("P8", "pdp_split3", {"PDP:D_PARTIAL_WIDTH_IN.PARTIAL_WIDTH_IN_LAST": 4},
         "last_in_width + PR + overlap == (last_out_width-1)*stride_x + kernel_w",
         {"last_in_width": 5, "PR": 2, "overlap": 2, "last_out_width": 3}),
    Case("P9", "pdp_split3", {"PDP:D_PARTIAL_WIDTH_IN.PARTIAL_WIDTH_IN_MID": 6},
         "mid_in_width + overlap == (mid_out_width-1)*stride_x + kernel_w",
         {"mid_in_width": 7, "overlap": 2, "mid_out_width": 3}),
    # kernel 8, stride 1, PL 2: first_in = 8 - 2 = 6 < kernel - stride = 7 (two bands name first_in_width).
    Case("P10-FIRST", "pdp_split2",
         pdp_changes(10, 4, 8, k=(8, 2), s=(1, 2), pad=(2, 0, 0, 0), out=(5, 2), split=1, part_in=(6, 0, 4),
                     part_out=(1, 0, 4), src=(0x1000, 0x80, 0x800), dst=(0x8000, 0x80, 0x800)),  # type: ignore
         "kernel_w - stride_x should be <= each _in_width",
         {"first_in_width": 6, "kernel_w": 8, "stride_x": 1}),
    # Three bands, kernel 8, stride 1: a 1-column middle band is narrower than the 7-column overlap.
    Case("P10-MID", "pdp_split3",
         pdp_changes(16, 4, 8, k=(8, 2), s=(1, 2), pad=(0, 0, 0, 0), out=(9, 2), split=2, part_in=(8, 1, 7),
                     part_out=(1, 1, 7), src=(0x1000, 0x80, 0x800), dst=(0x8000, 0x80, 0x800)),  # type: ignore
         "kernel_w - stride_x should be <= each _in_width",
         {"mid_in_width": 1, "kernel_w": 8, "stride_x": 1}),
    Case("P11-W", "pdp_main", {"PDP:D_POOLING_KERNEL_CFG.KERNEL_WIDTH": 8,
                               "PDP_RDMA:D_POOLING_KERNEL_CFG.KERNEL_WIDTH": 8,
                               "PDP:D_DATA_CUBE_OUT_WIDTH.CUBE_OUT_WIDTH": 0},
         "maximum supported pooling kernel size is 8", {"kernel_width": 9, "kernel_height": 2}),
    Case("P11-H", "pdp_main", {"PDP:D_POOLING_KERNEL_CFG.KERNEL_HEIGHT": 8,
                               "PDP:D_DATA_CUBE_IN_HEIGHT.CUBE_IN_HEIGHT": 7,
                               "PDP_RDMA:D_DATA_CUBE_IN_HEIGHT.CUBE_IN_HEIGHT": 7,
                               "PDP:D_DATA_CUBE_OUT_HEIGHT.CUBE_OUT_HEIGHT": 0},
         "maximum supported pooling kernel size is 8", {"kernel_width": 3, "kernel_height": 9}),
    # --- PDP programming chapter and model rules -----------------------------------------------------------
    Case("P12", "pdp_fly", {"PDP:D_OPERATION_MODE_CFG.SPLIT_NUM": 1},
         "on-the-fly mode needs SPLIT_NUM=0", {"SPLIT_NUM": 1}),
    Case("P13", "pdp_main", {"PDP:D_OPERATION_MODE_CFG.POOLING_METHOD": 3},
         "POOLING_METHOD must be AVERAGE, MAX or MIN", {"POOLING_METHOD": 3}),
    Case("P14", "pdp_main", {"PDP:D_POOLING_PADDING_CFG.PAD_TOP": 2},
         "PT/PB should be less than kernel_height", {"PT": 2, "PB": 1, "kernel_h": 2}),
    Case("P15", "pdp_main", {"PDP:D_DATA_CUBE_OUT_HEIGHT.CUBE_OUT_HEIGHT": 4},
         "CUBE_OUT_HEIGHT must be (H+PT+PB-kernel_h)/stride_y + 1", {"CUBE_OUT_HEIGHT": 5, "H": 6}),
    Case("P16", "pdp_main", {"PDP:D_DATA_CUBE_OUT_CHANNEL.CUBE_OUT_CHANNEL": 7},
         "CUBE_OUT_CHANNEL must equal CUBE_IN_CHANNEL", {"CUBE_OUT_CHANNEL": 8, "CUBE_IN_CHANNEL": 16}),
    Case("P17", "pdp_main", {"PDP_RDMA:D_POOLING_KERNEL_CFG.KERNEL_STRIDE_WIDTH": 0},
         "PDP_RDMA KERNEL_STRIDE_WIDTH must equal PDP's", {"PDP_RDMA": 0, "PDP": 1}),
    # split: the RDMA reads each band by its own PARTIAL_WIDTH_IN (NVIDIA's nv_full RTL)
    Case("P17-PARTIAL_IN", "pdp_split3", {"PDP_RDMA:D_PARTIAL_WIDTH_IN.PARTIAL_WIDTH_IN_FIRST": 7},
         "PDP_RDMA PARTIAL_WIDTH_IN_FIRST must equal PDP's", {"PDP_RDMA": 7, "PDP": 5}),
)

PDP_ADVISORIES = (
    # PR 2 without split: W + PL + PR = 8 + 1 + 2 = (5-1)*2 + 3, the enforced form; W + PL = 9 is not.
    Case("P4", "pdp_main", {"PDP:D_POOLING_PADDING_CFG.PAD_RIGHT": 2,
                            "PDP:D_DATA_CUBE_OUT_WIDTH.CUBE_OUT_WIDTH": 4},
         "PDP: for non-split mode, CUBE_IN_WIDTH + PL should be equals to (CUBE_OUT_WIDTH-1)*stride_x + "
         "kernel_width (CUBE_IN_WIDTH=8, PL=1, CUBE_OUT_WIDTH=5, stride_x=2, kernel_width=3)"),
    Case("DF4-PDP-SRC", "pdp_1x1", {"PDP_RDMA:D_SRC_LINE_STRIDE.SRC_LINE_STRIDE": 0x100},
         "PDP: for 1x1xC cube, it should always be line_packed and surf_packed "
         "(SRC_LINE_STRIDE=256, SRC_SURFACE_STRIDE=8)"),
    Case("DF4-PDP-DST", "pdp_1x1", {"PDP:D_DST_SURFACE_STRIDE.DST_SURFACE_STRIDE": 0x40},
         "PDP: for 1x1xC cube, it should always be line_packed and surf_packed "
         "(DST_LINE_STRIDE=8, DST_SURFACE_STRIDE=64)"),
)


@pytest.mark.parametrize("name", PDP_BASELINES)
def test_pdp_baseline_is_valid(name: str) -> None:
    fields = full_fields(PDP_BASELINES[name])
    run_pdp_layer(fields)
    assert pdp.advisories(pdp.PdpConfig.from_fields(fields)) == []


@pytest.mark.parametrize("case", params(PDP_CASES))
def test_pdp_rule_raises(case: Case) -> None:
    expect_error(run_pdp_layer, case, PDP_BASELINES)


@pytest.mark.parametrize("case", params(PDP_ADVISORIES))
def test_pdp_advisory(case: Case) -> None:
    fields = case_fields(case, PDP_BASELINES)
    run_pdp_layer(fields)
    assert pdp.advisories(pdp.PdpConfig.from_fields(fields)) == [case.rule]


# ======================================================================================== LUT ============

_EXP = {"function": EXPONENT, "le_offset": -60, "le_start": 0, "le_end": 16}   # 16 == 1 << (-60 + 64)

LUT_BASELINES: dict[str, Spec] = {
    "cdp_lut": CDP_BASELINES["cdp_main"],          # linear LE and LO (lut_fields defaults)
    "cdp_exp": _cdp(5, 3, 12, lut=lut_fields("CDP", **_EXP)),
    "sdp_lut": SDP_BASELINES["sdp_lut"],
    "sdp_exp": _sdp_simple(4, 3, 12, **{"D_DP_EW_CFG.EW_BYPASS": 0, "D_DP_EW_CFG.EW_LUT_BYPASS": 0,
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


def _unit_of(case: Case) -> str:
    return case.base.split("_", 1)[0].upper()


@pytest.mark.parametrize("name", LUT_BASELINES)
def test_lut_baseline_is_valid(name: str) -> None:
    unit = name.split("_", 1)[0].upper()
    fields = full_fields(LUT_BASELINES[name])
    run_lut_layer(unit)(fields)
    assert lut.advisories(lut.LutConfig.from_fields(fields, unit)) == []


@pytest.mark.parametrize("case", params(LUT_CASES))
def test_lut_rule_raises(case: Case) -> None:
    expect_error(run_lut_layer(_unit_of(case)), case, LUT_BASELINES)


@pytest.mark.parametrize("case", params(LUT_ADVISORIES))
def test_lut_advisory(case: Case) -> None:
    unit = _unit_of(case)
    fields = case_fields(case, LUT_BASELINES)
    run_lut_layer(unit)(fields)
    assert lut.advisories(lut.LutConfig.from_fields(fields, unit)) == [case.rule]
    if unit == "CDP":
        assert cdp.advisories(cdp.CdpConfig.from_fields(fields)) == [case.rule]


# ================================================================================ document vs tests ======

ALL_CASES = (*SDP_CASES, *SDP_ADVISORIES, *CDP_CASES, *CDP_ADVISORIES, *PDP_CASES, *PDP_ADVISORIES,
             *LUT_CASES, *LUT_ADVISORIES)
CASE_IDS = {c.id for c in ALL_CASES} | set(SDP_SOURCE_COMBINATIONS)
_RULE_ID = re.compile(r"^(DF\d+|[SCPL]\d+)(?: \((?:SDP|CDP|PDP)\))?$")
_CASE_ID = re.compile(r"^[A-Z]+\d+(?:-[A-Z0-9_]+)+$|^[SCPL]\d+$")


def _doc_rows() -> list[list[str]]:
    rows = []
    for line in DOC.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and len(cells) == 5 and _RULE_ID.match(cells[0]):
            rows.append(cells)
    return rows


def test_every_rule_id_has_a_test() -> None:
    documented = {_RULE_ID.match(row[0]).group(1) for row in _doc_rows()}  # type: ignore[union-attr]
    tested = {i.split("-", 1)[0] for i in CASE_IDS}
    assert len(documented) > 40
    assert documented - tested == set(), "rule ids in docs/limitations.md without a test case"
    assert tested - documented == set(), "test case ids missing from docs/limitations.md"
    assert len(CASE_IDS) == len(ALL_CASES) + len(SDP_SOURCE_COMBINATIONS), "duplicate case ids"


def test_case_ids_named_in_the_document_exist() -> None:
    named = set()
    for row in _doc_rows():
        for token in re.findall(r"`([^`]+)`", row[3]):
            inner = token.split("[", 1)[1].rstrip("]") if "[" in token else token
            if _CASE_ID.match(inner):
                named.add(inner)
    assert len(named) > 40
    assert named - CASE_IDS == set(), "docs/limitations.md names test ids that do not exist"
