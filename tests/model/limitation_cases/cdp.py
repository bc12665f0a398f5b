"""Limitation-rule cases of CDP: valid baselines, one broken rule a case, advisories."""

from __future__ import annotations

from collections.abc import Mapping

from models.cdp import model as cdp
from models.common.memory import Memory
from tests.model.limitation_cases.common import (
    LUT_TABLES,
    Case,
    Spec,
    lut_fields,
)


def cdp_spec(w: int, h: int, c: int, *, line: int = 0x40, surf: int = 0x100,
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
    "cdp_main": cdp_spec(5, 3, 12),                 # two surfaces; a line is 40 bytes, a surface 168
    "cdp_1x1": cdp_spec(1, 1, 12, line=8, surf=8),  # line_packed and surf_packed
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
