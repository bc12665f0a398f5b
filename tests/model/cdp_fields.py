"""CDP register fields for the CDP model tests (test_cdp.py, test_cdp_int16.py): a small LRN layer whose LO
table decides."""

from __future__ import annotations

import numpy as np

LE_START = (1 << 21) - 1024
IDENTITY_LO = np.arange(257)
"""LO[i] = i over [0, 256) step 1: the LUT returns its input wherever LO alone hits."""


def cdp_fields(w: int = 1, h: int = 1, c: int = 8, *, normalz: int = 0, sqsum_bypass: int = 0,
               mul_bypass: int = 0, datin: tuple[int, int, int] = (0, 1, 0),
               datout: tuple[int, int, int] = (0, 1, 0), lo_start: int = 0, lo_select: int = 0,
               src: int = 0x1000, dst: int = 0x8000, line: int = 0x100, surf: int = 0x1000,
               **extra: int) -> dict[str, dict[str, int]]:
    """CDP/CDP_RDMA fields (sizes minus one). LE sits far above every square sum (it underflows), so the
    LO table decides; uflow/oflow priorities pick LO. LE_START is 2^21 - 1024, above the sums both as the
    whole register and as the 22 bits an INT8 lane reads of it (models/lut/model.py NARROW)."""
    lo_end = lo_start + (1 << (lo_select + 8))
    cdp = {
        "D_DATA_FORMAT.INPUT_DATA_TYPE": 0, "D_LRN_CFG.NORMALZ_LEN": normalz,
        "D_FUNC_BYPASS.SQSUM_BYPASS": sqsum_bypass, "D_FUNC_BYPASS.MUL_BYPASS": mul_bypass,
        "D_DATIN_OFFSET.DATIN_OFFSET": datin[0], "D_DATIN_SCALE.DATIN_SCALE": datin[1],
        "D_DATIN_SHIFTER.DATIN_SHIFTER": datin[2], "D_DATOUT_OFFSET.DATOUT_OFFSET": datout[0],
        "D_DATOUT_SCALE.DATOUT_SCALE": datout[1], "D_DATOUT_SHIFTER.DATOUT_SHIFTER": datout[2],
        "D_DST_BASE_ADDR_LOW.DST_BASE_ADDR_LOW": dst, "D_DST_LINE_STRIDE.DST_LINE_STRIDE": line,
        "D_DST_SURFACE_STRIDE.DST_SURFACE_STRIDE": surf,
        "S_LUT_CFG.LUT_LE_FUNCTION": 1, "S_LUT_CFG.LUT_UFLOW_PRIORITY": 1, "S_LUT_CFG.LUT_OFLOW_PRIORITY": 1,
        "S_LUT_INFO.LUT_LE_INDEX_SELECT": 0, "S_LUT_INFO.LUT_LO_INDEX_SELECT": lo_select & 0xFF,
        "S_LUT_LE_START_LOW.LUT_LE_START_LOW": LE_START, "S_LUT_LE_END_LOW.LUT_LE_END_LOW": LE_START + 64,
        "S_LUT_LO_START_LOW.LUT_LO_START_LOW": lo_start & 0xFFFFFFFF,
        "S_LUT_LO_START_HIGH.LUT_LO_START_HIGH": (lo_start >> 32) & 0x3F,
        "S_LUT_LO_END_LOW.LUT_LO_END_LOW": lo_end & 0xFFFFFFFF,
        "S_LUT_LO_END_HIGH.LUT_LO_END_HIGH": (lo_end >> 32) & 0x3F,
    }
    rdma = {
        "D_DATA_FORMAT.INPUT_DATA": 0, "D_DATA_CUBE_WIDTH.WIDTH": w - 1, "D_DATA_CUBE_HEIGHT.HEIGHT": h - 1,
        "D_DATA_CUBE_CHANNEL.CHANNEL": c - 1, "D_SRC_BASE_ADDR_LOW.SRC_BASE_ADDR_LOW": src,
        "D_SRC_LINE_STRIDE.SRC_LINE_STRIDE": line, "D_SRC_SURFACE_STRIDE.SRC_SURFACE_STRIDE": surf,
    }
    for key, value in extra.items():
        unit, name = key.split("__")
        (cdp if unit == "CDP" else rdma)[name.replace("_DOT_", ".")] = value
    return {"CDP": cdp, "CDP_RDMA": rdma}
