"""Random legal FP16 SDP layers for the top-level benches (a top built with FP16, nv_full): FP16 input (every
pattern: NaNs, infinities, subnormals, the largest values, sometimes many of them), BS and BN (ALU MAX/MIN/
SUM, MUL, PReLU, ReLU) with FP16 register or memory operands, EW (MUL, PReLU, ALU) with FP32 register or
FP16 memory operands (through their convertors, which at FP16 only widen), the EW LUT at FP16 most of the time
(tables placed over the FP32 values reaching it, random legal ones, or the FP16 helper's sigmoid / tanh),
FP16 or INT16 output; as scripts/ref_programs/sdp_fp16_lut.py draws the programs
kept with NVIDIA's outputs, here scored against models.sdp.model.run_sdp like the INT layers (tb/env/sdp.py).
EQL and NAN_TO_ZERO (which the SDP driver layer leaves 0) are not drawn at FP16: no NVIDIA program checks
them on SDP."""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Mapping

import numpy as np

from models.common import nvfloat
from models.common.precision import as_signed
from models.errors import ConfigError
from models.lut import fp16_program as lfp
from models.lut.fp16 import fp32_bits
from models.lut.model import EXPONENT, LINEAR, LutConfig, validate
from models.sdp.datapath import Operands
from models.sdp.driver import EwBlock, EwConverter, OperandDma, XBlock, operand_dma, sdp_layer
from models.sdp.fp16 import x_block, y_block
from tb.stimulus.lut_fp16 import FP16_SPECIALS, fp16_table, fp16_value, random_fp16_config
from tb.stimulus.sdp_top import (
    ATOM,
    REGIONS,
    Layer,
    OperandData,
    operand_surface,
    operands_of,
    placement,
    random_dims,
)

LUT_KINDS_FP16 = ("aimed", "aimed", "random", "sigmoid", "tanh")
FP32_MAX = float(np.finfo(np.float32).max)
IntArray = np.ndarray


def fp16_data(rng: random.Random, shape: tuple[int, ...], specials: float) -> IntArray:
    """FP16 bit patterns as int16 values: magnitudes over 10^-6..10^4 of either sign, a `specials` share of
    NaNs, infinities, subnormals, zeros and the largest values."""
    g = np.random.default_rng(rng.getrandbits(64))
    with np.errstate(over="ignore"):
        bits = (g.standard_normal(shape) * 10.0 ** g.uniform(-6, 4, size=shape)).astype(np.float16)
    out = bits.view(np.uint16).astype(np.int64)
    pick = g.random(shape) < specials
    out[pick] = g.choice(np.array(FP16_SPECIALS, dtype=np.int64), size=int(pick.sum()))
    return as_signed(out, 16).astype(np.int64)


def _fp16_reg(rng: random.Random, spread: float) -> int:
    """A random FP16 register operand (signed register value) of magnitude about 10^(+-spread)."""
    v = np.float16(rng.gauss(0, 1) * 10.0 ** rng.uniform(-spread, spread))
    return int(as_signed(int(v.view(np.uint16)), 16))


def _fp32_reg(rng: random.Random, spread: float) -> int:
    v = np.float32(rng.gauss(0, 1) * 10.0 ** rng.uniform(-spread, spread))
    return int(as_signed(int(v.view(np.uint32)), 32))


def _xblock(rng: random.Random) -> XBlock:
    if rng.random() < 0.3:
        return XBlock()
    alu_bypass, mul_bypass = rng.random() < 0.3, rng.random() < 0.4
    return XBlock(bypass=False, alu_bypass=alu_bypass, alu_algo=rng.randint(0, 2),
                  alu_from_mem=rng.random() < 0.4, alu_shift=rng.randint(0, 63) if rng.random() < 0.2 else 0,
                  alu_operand=_fp16_reg(rng, 2.0), mul_bypass=mul_bypass,
                  mul_prelu=not mul_bypass and alu_bypass and rng.random() < 0.4,
                  mul_from_mem=rng.random() < 0.4, mul_shift=rng.randint(0, 63) if rng.random() < 0.2 else 0,
                  mul_operand=_fp16_reg(rng, 1.0), relu_bypass=rng.random() < 0.7)


def _ew(rng: random.Random) -> EwBlock:
    alu_bypass, mul_bypass = rng.random() < 0.4, rng.random() < 0.4
    alu_mem, mul_mem = rng.random() < 0.5, rng.random() < 0.5
    # seed 001: at FP16 a memory operand goes through its convertor (CVT_BYPASS NO: it only widens to FP32)
    return EwBlock(bypass=False, alu_bypass=alu_bypass, alu_algo=rng.randint(0, 2), alu_from_mem=alu_mem,
                   alu_operand=_fp32_reg(rng, 2.0), alu_cvt=EwConverter(bypass=not alu_mem),
                   mul_bypass=mul_bypass, mul_prelu=not mul_bypass and alu_bypass and rng.random() < 0.4,
                   mul_from_mem=mul_mem, mul_operand=_fp32_reg(rng, 1.0),
                   mul_cvt=EwConverter(bypass=not mul_mem),
                   truncate=rng.randint(0, 1023) if rng.random() < 0.2 else 0, lut_bypass=rng.random() < 0.15)


def _operand(rng: random.Random, name: str, blk: XBlock | EwBlock, dims: tuple[int, int, int], offset: int,
             lanes: int, specials: float) -> OperandData | None:
    """The DMA and FP16 data of a block that reads memory (two-byte operands only at FP16)."""
    alu, mul = blk.alu_active and blk.alu_from_mem, blk.mul_active and blk.mul_from_mem
    if not (alu or mul):
        return None
    both = (alu and mul) or rng.random() < 0.25
    per_element = rng.random() < 0.6
    surface, shape = operand_surface(rng, name, dims, offset, lanes, 4 if both else 2, per_element)
    dma = operand_dma(surface, "both" if both else "alu" if alu else "mul", two_byte=True,
                      per_element=per_element)
    return OperandData(dma, [fp16_data(rng, shape, specials) for _ in range(2 if both else 1)])


@functools.cache
def _helper(kind: str) -> LutConfig:
    """The FP16 helper's sigmoid / tanh program (SDP), computed once per run."""
    prog = lfp.sigmoid_fp16() if kind == "sigmoid" else lfp.tanh_fp16()
    return prog.lut_config()


def _linear(rng: random.Random, lo: float, span: float, steps: int, limit: int) -> tuple[int, int, int]:
    """(SELECT, START, END): 2^steps entries over about [lo, lo + span), START a multiple of the step."""
    select = int(np.clip(np.ceil(np.log2(span)) - steps + rng.randint(-2, 1), -128, limit))
    k = int(np.floor(lo / 2.0 ** select)) - rng.randint(0, 4)
    if abs(k) >= 1 << 23:
        raise ConfigError("the data's range is too far from zero for this table step", {"k": k})
    start = k * 2.0 ** select
    return select, fp32_bits(start), fp32_bits(start + 2.0 ** (select + steps))


def aimed_lut(rng: random.Random, x: np.ndarray) -> LutConfig:
    """An FP16 LUT placed over the FP32 values x (bit patterns) reaching it (scripts/ref_programs/
    sdp_fp16_lut.py's placement): LO over the bulk, LE linear over it or exponential from below it."""
    with np.errstate(invalid="ignore"):
        v = (np.asarray(x, dtype=np.int64) & 0xFFFFFFFF).astype(np.uint32).view(np.float32).astype(np.float64)
    finite = v[np.isfinite(v) & (np.abs(v) < FP32_MAX)]
    lo, hi = np.percentile(finite, (2, 98)) if finite.size else (0.0, 1.0)
    span = max(float(hi - lo), 2.0 ** -100, abs(float(lo)) * 2.0 ** -20)
    lo_sel, lo_start, lo_end = _linear(rng, float(lo), span, 8, 119)
    exponent = rng.random() < 0.4
    offset, le_sel = 0, 0
    if exponent:
        offset = int(np.clip(np.floor(np.log2(span)) - rng.randint(2, 19), -126, 127))
        start = float(np.float32(lo - 2.0 ** offset * rng.uniform(0, 2)))
        le_start = fp32_bits(start)
        with np.errstate(over="ignore"):
            le_end = fp32_bits(min(start + 2.0 ** min(offset + 64, 127), FP32_MAX))
    else:
        le_sel, le_start, le_end = _linear(rng, float(lo), span, 6, 121)
    cfg = LutConfig(le_function=EXPONENT if exponent else LINEAR, le_index_offset=offset,
                    le_index_select=le_sel, lo_index_select=lo_sel, le_start=le_start, le_end=le_end,
                    lo_start=lo_start, lo_end=lo_end,
                    le_uflow_scale=fp16_value(rng), le_oflow_scale=fp16_value(rng),
                    lo_uflow_scale=fp16_value(rng), lo_oflow_scale=fp16_value(rng),
                    uflow_priority=rng.randint(0, 1), oflow_priority=rng.randint(0, 1),
                    hybrid_priority=rng.randint(0, 1), unit="SDP", precision="FP16",
                    le=fp16_table(rng, 65), lo=fp16_table(rng, 257))
    validate(cfg)
    return cfg


def _lut_input(cube: IntArray, bs: XBlock, bn: XBlock, ew: EwBlock, ops: Operands, n2z: bool) -> IntArray:
    """The FP32 values reaching the LUT (models/sdp/fp16.py's datapath up to it)."""
    data = nvfloat.fp16_to_fp32(cube & 0xFFFF)
    if n2z:
        data = np.where(nvfloat.FP32.is_nan(data), 0, data)
    data = x_block(data, bs, ops.bs_alu, ops.bs_mul, n2z, "BS")
    data = x_block(data, bn, ops.bn_alu, ops.bn_mul, n2z, "BN")
    return y_block(data, dataclasses.replace(ew, lut_bypass=True), ops.ew_alu, ops.ew_mul, n2z)[0]


def make_fp16_layer(rng: random.Random, group: int, offset: int = 0,
                    ram_mc: Mapping[str, bool] | None = None) -> Layer:
    """A random legal FP16 layer (drawn again until the driver accepts it); ram_mc as sdp_top.make_layer."""
    while True:
        try:
            return _draw(rng, group, offset, ram_mc)
        except ConfigError:
            continue


def _draw(rng: random.Random, group: int, offset: int, ram_mc: Mapping[str, bool] | None) -> Layer:
    lanes = ATOM // 2
    w, h, c = random_dims(rng, None)
    specials = rng.choice((0.0, 0.01, 0.05, 0.3))
    cube = fp16_data(rng, (-(-c // lanes) * lanes, h, w), specials)
    blocks: dict[str, XBlock | EwBlock] = {"BS": _xblock(rng), "BN": _xblock(rng), "EW": _ew(rng)}
    data = {name: _operand(rng, name, blk, (w, h, c), offset, lanes, specials / 4)
            for name, blk in blocks.items()}
    if ram_mc is not None:
        data = {name: od if od is None or name not in ram_mc else
                dataclasses.replace(od, dma=dataclasses.replace(od.dma, ram_mc=ram_mc[name]))
                for name, od in data.items()}
    ops = operands_of(data, blocks)
    n2z = False
    bs, bn, ew = blocks["BS"], blocks["BN"], blocks["EW"]
    assert isinstance(bs, XBlock) and isinstance(bn, XBlock) and isinstance(ew, EwBlock)
    kind, lut = "bypass", None
    if not ew.lut_bypass:
        kind = rng.choice(LUT_KINDS_FP16)
        lut = (aimed_lut(rng, _lut_input(cube, bs, bn, ew, ops, n2z)) if kind == "aimed"
               else random_fp16_config("SDP", rng) if kind == "random" else _helper(kind))
    out_p = "FP16" if rng.random() < 0.8 else "INT16"
    src, dst = placement(rng, REGIONS["SRC"] + offset, w, h), placement(rng, REGIONS["DST"] + offset, w, h)
    if ram_mc is not None:
        src = dataclasses.replace(src, ram_mc=ram_mc.get("src", True))
        dst = dataclasses.replace(dst, ram_mc=ram_mc.get("dst", True))
    none = OperandDma()
    desc = {"bs": bs, "bn": bn, "ew": ew, "lut": lut, "group": group, "perf": rng.random() < 0.5, "src": src,
            "dst": dst, "brdma": data["BS"].dma if data["BS"] else none,
            "nrdma": data["BN"].dma if data["BN"] else none, "erdma": data["EW"].dma if data["EW"] else none,
            "in_precision": "FP16", "out_precision": out_p}
    prog = sdp_layer(w, h, c, **desc)  # type: ignore[arg-type]
    return Layer(prog, cube, data, ops, f"FP16 {kind}", desc={"dims": (w, h, c), **desc})
