"""Limitation-rule cases of SDP: valid baselines, one broken rule a case, advisories."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from models.common.memory import Memory
from models.sdp import model as sdp
from models.sdp.datapath import ALU_EQL, ALU_MAX, ALU_SUM
from tests.model.limitation_cases.common import (
    LUT_TABLES,
    Case,
    Spec,
    lut_fields,
    u,
    with_changes,
)


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


def sdp_simple_spec(w: int, h: int, c: int, **extra: int) -> dict[str, dict[str, int]]:
    """Every block bypassed (their reset values), identity output convertor; `extra` SDP fields."""
    sdp_fields = {**_sdp_cube(w, h, c), "D_DST_BASE_ADDR_LOW.DST_BASE_ADDR_LOW": 0x10000,
                  "D_DST_LINE_STRIDE.DST_LINE_STRIDE": 0x40, "D_DST_SURFACE_STRIDE.DST_SURFACE_STRIDE": 0x100,
                  "D_CVT_SCALE.CVT_SCALE": 1, **extra}
    return {"SDP": sdp_fields, "SDP_RDMA": _sdp_rdma(w, h, c)}


def _sdp_eql() -> dict[str, dict[str, int]]:
    """EQL compare of the input cube with an ERDMA cube: Y ALU convertor, LUT and output convertor off."""
    spec = sdp_simple_spec(4, 3, 12, **{
        "D_DP_EW_CFG.EW_BYPASS": 0, "D_DP_EW_CFG.EW_ALU_BYPASS": 0, "D_DP_EW_CFG.EW_ALU_ALGO": ALU_EQL,
        "D_DP_EW_ALU_CFG.EW_ALU_SRC": 1, "D_DP_EW_ALU_CFG.EW_ALU_CVT_BYPASS": 1})
    spec["SDP_RDMA"].update({
        "D_ERDMA_CFG.ERDMA_DISABLE": 0, "D_ERDMA_CFG.ERDMA_DATA_USE": sdp.USE_ALU,
        "D_ERDMA_CFG.ERDMA_DATA_MODE": sdp.PER_ELEMENT, "D_EW_BASE_ADDR_LOW.EW_BASE_ADDR_LOW": 0x4000,
        "D_EW_LINE_STRIDE.EW_LINE_STRIDE": 0x40, "D_EW_SURFACE_STRIDE.EW_SURFACE_STRIDE": 0x100})
    return spec


def _sdp_lut() -> dict[str, dict[str, int]]:
    """EW = the LUT alone (linear LE over [0, 64), LO over [-128, 128)); the LUT registers are valid."""
    return sdp_simple_spec(4, 3, 12, **{
        "D_DP_EW_CFG.EW_BYPASS": 0, "D_DP_EW_CFG.EW_LUT_BYPASS": 0, **lut_fields("SDP")})


SDP_BASELINES: dict[str, Spec] = {
    "sdp_main": _sdp_main(),
    "sdp_fly": _sdp_main(flying=1),
    "sdp_to_pdp": sdp_simple_spec(4, 3, 12, **{"D_FEATURE_MODE_CFG.OUTPUT_DST": 1}),
    "sdp_eql": _sdp_eql(),
    "sdp_eql_fly": with_changes(_sdp_eql(), {"SDP:D_FEATURE_MODE_CFG.FLYING_MODE": 1,
                                             "SDP_RDMA:D_FEATURE_MODE_CFG.FLYING_MODE": 1}),
    "sdp_lut": _sdp_lut(),
    "sdp_1x1": sdp_simple_spec(1, 1, 16),
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
