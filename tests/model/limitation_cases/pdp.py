"""Limitation-rule cases of PDP: valid baselines, one broken rule a case, advisories."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from models.common.memory import Memory
from models.pdp import model as pdp
from tests.model.limitation_cases.common import (
    Case,
    Spec,
    u,
)


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
