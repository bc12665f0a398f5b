"""The FP16 LUT helper's tables on NVIDIA's RTL (models/lut/fp16_program.py): program i runs sigmoid, tanh
(SDP, the EW LUT alone) or LRN (CDP, local size 5) with the helper's single-table or default hybrid layout,
on FP16 inputs spread over the function's range and a quarter beyond it (LRN: activations whose square sums
cover its range), and reads back the unit's statistics. What `make lut-report` measures on the model is then
what NVIDIA's hardware computes."""

from __future__ import annotations

import numpy as np

from models.cdp.driver import cdp_layer
from models.cdp.model import cube_layouts
from models.lut import fp16_program as fp
from models.sdp.driver import EwBlock, sdp_layer
from scripts.ref_programs.cdp_fp16 import READS as CDP_READS
from scripts.ref_programs.common import Program, extent, surface
from scripts.ref_programs.sdp_fp16 import READS as SDP_READS

CASES = (("sigmoid", "lo_only"), ("sigmoid", "hybrid"), ("tanh", "lo_only"), ("tanh", "hybrid"),
         ("lrn", "lo_only"), ("lrn", "hybrid"))
_W, _H, _C = 8, 8, 48


def _bits(values: np.ndarray) -> np.ndarray:
    return values.astype(np.float16).view(np.uint16).astype(np.int64)


def lut_fn_program(rng: np.random.Generator, name: str, index: int) -> Program:
    fn, layout = CASES[index % len(CASES)]
    src, dst = surface(rng, 0, _W, _H), surface(rng, 1, _W, _H)
    if fn == "lrn":
        lut = fp.lrn_fp16(layout=layout)
        prog = cdp_layer(_W, _H, _C, local_size=5, lut=lut, src=src, dst=dst, precision="FP16")
        # activations of a few magnitudes: the sums of 5 squares reach from 0 past 2^24
        x = rng.standard_normal(_W * _H * _C) * 2.0 ** rng.uniform(-4, 11, size=_W * _H * _C)
        reads = list(CDP_READS)
        layout_in = cube_layouts(prog.config)[0]
        layout_out = cube_layouts(prog.config)[1]
    else:
        lut = fp.sigmoid_fp16(layout=layout) if fn == "sigmoid" else fp.tanh_fp16(layout=layout)
        prog = sdp_layer(_W, _H, _C, ew=EwBlock(bypass=False, lut_bypass=False), lut=lut, src=src, dst=dst,
                         in_precision="FP16", out_precision="FP16")
        width = lut.x_max - lut.x_min
        x = rng.uniform(lut.x_min - width / 4, lut.x_max + width / 4, size=_W * _H * _C)
        reads = list(SDP_READS)
        cfg = prog.config
        from models.common.cube import CubeLayout
        layout_in = CubeLayout(cfg.src_base, cfg.src_line_stride, cfg.src_surface_stride, _W, _H, _C,
                               cfg.src_lanes, 2)
        layout_out = CubeLayout(cfg.dst_base, cfg.dst_line_stride, cfg.dst_surface_stride, _W, _H, _C,
                                cfg.out_lanes, 2)
    base, size = extent(layout_in)
    values = np.resize(x, -(-size // 2))
    data = _bits(values).astype("<u2").view(np.uint8)[:size]
    about = {"unit": prog.config.__class__.__name__.removesuffix("Config").upper(), "precision": "FP16",
             "function": fn, "layout": lut.layout, "cube": f"{_W}x{_H}x{_C}"}
    return Program(name, list(prog.writes), [(base, "input.dat", data)], extent(layout_out), about, reads)
