"""Random SDP programs at FP16 with the EW LUT (memory to memory): BS/BN/EW blocks as scripts/ref_programs/
sdp_fp16.py draws them, then a LUT at FP16 placed over the FP32 values reaching it (linear or exponential LE,
LO, FP32 starts, FP16 entries and slopes, priorities), FP16 or INT16 output. Each program runs a second
layer, the top left part of the first from register group 1, and reads back SDP's and SDP_RDMA's
saturation, NaN and infinity counters after each. A draw the driver refuses is drawn
again."""

from __future__ import annotations

import dataclasses

import numpy as np
from numpy.typing import NDArray

from models.common import nvfloat
from models.common.memory import Memory
from models.errors import ConfigError
from models.lut.fp16 import fp32_bits
from models.lut.model import EXPONENT, LE_ENTRIES, LINEAR, LO_ENTRIES, LutConfig
from models.sdp.driver import EwBlock, OutputCvt, SdpProgram, sdp_layer
from models.sdp.fp16 import x_block, y_block
from models.sdp.model import SdpConfig, read_inputs
from scripts.ref_programs.cdp_fp16 import _slope, _table
from scripts.ref_programs.common import Program, extent, surface
from scripts.ref_programs.sdp import _describe, cube_layouts, operands_about
from scripts.ref_programs.sdp_fp16 import READS as fp16_reads
from scripts.ref_programs.sdp_fp16 import _dma, _ew, _xblock, fp16_loads

_MAX_ATOMS = 64
_FP32_MAX = float(np.finfo(np.float32).max)
READS = fp16_reads


def _linear(rng: np.random.Generator, lo: float, span: float, steps: int, limit: int) -> tuple[int, int, int]:
    """(SELECT, START, END) of a linear table of 2^steps entries over about [lo, lo + span): START a multiple
    of 2^SELECT a little below lo, so that START + 2^(SELECT + steps) is exact in FP32."""
    select = int(np.clip(np.ceil(np.log2(span)) - steps + rng.integers(-2, 2), -128, limit))
    k = int(np.floor(lo / 2.0 ** select)) - int(rng.integers(0, 5))
    if abs(k) >= 1 << 23:
        raise ConfigError("the data's range is too far from zero for this table step", {"k": k})
    start = k * 2.0 ** select
    return select, fp32_bits(start), fp32_bits(start + 2.0 ** (select + steps))


def _lut(rng: np.random.Generator, x: NDArray[np.float64]) -> LutConfig:
    """A random FP16 LUT over the FP32 values x reaching it."""
    finite = x[np.isfinite(x)]
    lo, hi = np.percentile(finite, (2, 98)) if finite.size else (0.0, 1.0)
    span = max(float(hi - lo), 2.0 ** -100, abs(float(lo)) * 2.0 ** -20)
    lo_sel, lo_start, lo_end = _linear(rng, float(lo), span, 8, 119)
    exponent = rng.random() < 0.4
    if exponent:
        offset = int(np.clip(np.floor(np.log2(span)) - rng.integers(2, 20), -126, 127))
        start = float(np.float32(lo - 2.0 ** offset * rng.uniform(0, 2)))
        le_end = fp32_bits(min(start + 2.0 ** (offset + 64), _FP32_MAX))
        le_sel, le_start = 0, fp32_bits(start)
    else:
        offset = 0
        le_sel, le_start, le_end = _linear(rng, float(lo), span, 6, 121)
    return LutConfig(
        le_function=EXPONENT if exponent else LINEAR, le_index_offset=offset, le_index_select=le_sel,
        lo_index_select=lo_sel, le_start=le_start, le_end=le_end, lo_start=lo_start, lo_end=lo_end,
        le_uflow_scale=_slope(rng), le_oflow_scale=_slope(rng), lo_uflow_scale=_slope(rng),
        lo_oflow_scale=_slope(rng), uflow_priority=int(rng.integers(0, 2)),
        oflow_priority=int(rng.integers(0, 2)), hybrid_priority=int(rng.integers(0, 2)), unit="SDP",
        precision="FP16", le=_table(rng, LE_ENTRIES), lo=_table(rng, LO_ENTRIES))


def _before_lut(cfg: SdpConfig, loads: list[tuple[int, str, NDArray[np.uint8]]]) -> NDArray[np.float64]:
    """The FP32 values reaching the LUT (the model's datapath: it only places the tables; the golden output
    is NVIDIA's)."""
    mem = Memory()
    for addr, _name, data in loads:
        mem.write(addr, data)
    cube, ops = read_inputs(cfg, mem, mem)
    data = nvfloat.fp16_to_fp32(cube & 0xFFFF)
    data = x_block(data, cfg.bs, ops.bs_alu, ops.bs_mul, cfg.nan_to_zero, "BS")
    data = x_block(data, cfg.bn, ops.bn_alu, ops.bn_mul, cfg.nan_to_zero, "BN")
    data, _ = y_block(data, dataclasses.replace(cfg.ew, lut_bypass=True), ops.ew_alu, ops.ew_mul,
                      cfg.nan_to_zero)
    with np.errstate(invalid="ignore"):   # NaN payloads widen to NaN
        return data[:cfg.channels].astype(np.uint32).view(np.float32).astype(np.float64)


def _draw(rng: np.random.Generator, name: str) -> Program | None:
    out_p = "FP16" if rng.random() < 0.85 else "INT16"
    width, height, channels = int(rng.integers(1, 9)), int(rng.integers(1, 9)), int(rng.integers(1, 49))
    if width * height * -(-channels // 16) > _MAX_ATOMS:
        return None
    bs, bs_alu, bs_mul = _xblock(rng)
    bn, bn_alu, bn_mul = _xblock(rng)
    ew, ew_alu, ew_mul = _ew(rng)
    if ew.bypass:
        ew = EwBlock(bypass=False)
    uses = ((bs_alu, bs_mul), (bn_alu, bn_mul), (ew_alu, ew_mul))
    dmas = [_dma(rng, slot, width, height, alu, mul) for slot, (alu, mul) in enumerate(uses, start=2)]
    src = surface(rng, 0, width, height, cv=rng.random() < 0.15)
    dst = surface(rng, 1, width, height, cv=rng.random() < 0.15)

    def layer(w: int, h: int, group: int, table: LutConfig | None) -> SdpProgram:
        return sdp_layer(w, h, channels, bs=bs, bn=bn, ew=dataclasses.replace(ew, lut_bypass=table is None),
                         cvt=OutputCvt(), brdma=dmas[0], nrdma=dmas[1], erdma=dmas[2], src=src, dst=dst,
                         in_precision="FP16", out_precision=out_p, lut=table, group=group,
                         load_lut=group == 0)

    try:
        cfg = layer(width, height, 0, None).config
    except ConfigError:
        return None
    loads, specials = fp16_loads(rng, cfg, dmas, width, height, channels)
    # the second layer: a part of the first (not 1x1 unless the first is: a 1x1 cube is read packed)
    w2, h2 = int(rng.integers(1, width + 1)), int(rng.integers(1, height + 1))
    if w2 * h2 == 1 and width * height > 1:
        w2 = width
    try:
        table = _lut(rng, _before_lut(cfg, loads))
        prog, again = layer(width, height, 0, table), layer(w2, h2, 1, table)
    except ConfigError:
        return None
    out = cube_layouts(cfg, width, height, channels)[1]
    about = {"unit": "SDP", "precision": f"FP16 -> {out_p}", "cube": f"{width}x{height}x{channels}",
             "bs": _describe(bs), "bn": _describe(bn),
             "ew": f"alu {'bypass' if ew.alu_bypass else ew.alu_algo} "
                   f"mul {'bypass' if ew.mul_bypass else 'on'}",
             "operands": operands_about(dmas), "specials": int(specials),
             "lut": f"{'exponent' if table.le_function == EXPONENT else 'linear'} le_select "
                    f"{table.le_index_select} le_offset {table.le_index_offset} "
                    f"lo_select {table.lo_index_select}",
             "again": f"{w2}x{h2}x{channels}"}
    return Program(name, list(prog.writes), loads, extent(out), about, list(READS), [list(again.writes)])


def sdp_fp16_lut_program(rng: np.random.Generator, name: str) -> Program:
    """One legal random FP16 SDP program with the EW LUT (draws until the driver accepts one)."""
    while True:
        prog = _draw(rng, name)
        if prog is not None:
            return prog
