"""Random SDP programs (memory to memory): BS and BN (ALU max/min/sum with shift, MUL with truncate, PReLU,
ReLU), EW (ALU, MUL, PReLU, memory operands through their convertors), operands from registers or memory
(per element or per kernel, one or two bytes), the output convertor, and the precisions INT16 -> INT16,
INT16 -> INT8 and INT8 -> INT16; with `lut`, the EW LUT too (linear or exponential LE table, LO table, slopes,
priorities, random 16-bit entries, placed where the data falls).
Legality is the driver's: a draw it refuses is drawn again."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

import numpy as np

from models.common.cube import CubeLayout
from models.common.memory import Memory
from models.errors import ConfigError
from models.lut.model import EXPONENT, LE_ENTRIES, LINEAR, LO_ENTRIES, LutConfig, lut_lookup
from models.sdp.datapath import sdp_datapath
from models.sdp.driver import (
    EwBlock,
    EwConverter,
    OperandDma,
    OutputCvt,
    SdpProgram,
    XBlock,
    operand_dma,
    sdp_layer,
)
from models.sdp.model import SdpConfig, read_inputs
from scripts.ref_programs.common import Program, extent, image_of, surface

PRECISIONS = (("INT16", "INT16"), ("INT16", "INT16"), ("INT16", "INT8"), ("INT8", "INT16"))
_ELEM = {"INT8": 1, "INT16": 2, "FP16": 2}
# The output convertor's width the generator plans with: FP16 takes its 17-bit result (sdp_c.cpp)
_CVT_BITS = {"INT8": 8, "INT16": 16, "FP16": 17}
_MAX_ATOMS = 64


def _signed(rng: np.random.Generator, bits: int, small: int | None = None, full: float = 0.5) -> int:
    """A signed value of `bits` bits: full range with probability `full`, else within +-2^(small-1) (values
    that keep the datapath clear of saturation more often)."""
    b = bits if small is None or rng.random() < full else min(small, bits)
    return int(rng.integers(-(1 << (b - 1)), 1 << (b - 1)))


# Memory operands hold int8-range values (in one or two bytes): the width the generator plans with.
_OP_BITS = 8


def _shift_near(rng: np.random.Generator, bits: int, limit: int) -> int:
    """A right shift that undoes about `bits` bits of a product (some off by a few), now and then any."""
    if rng.random() < 0.05:
        return int(rng.integers(0, limit + 1))
    return int(np.clip(bits - 1 + rng.integers(-3, 3), 0, limit))


def _near(rng: np.random.Generator, b: int, top: int) -> int:
    """Bits of an ALU operand: about the data's (a MAX/MIN constant far outside it makes every output
    the same), now and then anything up to top."""
    if rng.random() < 0.1:
        return int(rng.integers(2, top + 1))
    return int(np.clip(b - rng.integers(0, 4), 2, top))


def _mul_operand(rng: np.random.Generator, bits: int) -> int:
    """Mostly positive (a negative factor before ReLU zeroes everything that passed it)."""
    return abs(_signed(rng, bits)) if rng.random() < 0.7 else _signed(rng, bits)


def _xblock(rng: np.random.Generator, b: int) -> tuple[XBlock, bool, bool, int]:
    """(block, ALU operand from memory, MUL operand from memory, the data's width after it): operands and
    shifts drawn so the data keeps some 8..24 significant bits most of the time instead of saturating."""
    if rng.random() < 0.3:
        return XBlock(), False, False, b
    alu_bypass, mul_bypass = bool(rng.random() < 0.3), bool(rng.random() < 0.4)
    prelu = not mul_bypass and alu_bypass and bool(rng.random() < 0.4)
    alu_mem, mul_mem = bool(rng.random() < 0.4), bool(rng.random() < 0.4)
    alu_bits, mul_bits = _near(rng, b, 16), int(rng.integers(2, 17))
    alu_shift = int(rng.integers(0, 3)) if rng.random() < 0.9 else int(rng.integers(0, 64))
    # the truncate after the MUL shifts even when the MUL is bypassed (models/sdp/datapath.py x_block)
    mul_shift = (_shift_near(rng, _OP_BITS if mul_mem else mul_bits, 63) if not mul_bypass
                 else int(rng.integers(0, 3)) if rng.random() < 0.9 else int(rng.integers(0, 64)))
    algo = int(rng.integers(0, 3))
    blk = XBlock(bypass=False, alu_bypass=alu_bypass, alu_algo=algo, alu_from_mem=alu_mem,
                 alu_shift=alu_shift, alu_operand=_signed(rng, alu_bits), mul_bypass=mul_bypass,
                 mul_prelu=prelu, mul_from_mem=mul_mem, mul_shift=mul_shift,
                 mul_operand=_mul_operand(rng, mul_bits), relu_bypass=bool(rng.random() < 0.7))
    if not alu_bypass:
        b = max(b, (_OP_BITS if alu_mem else alu_bits) + alu_shift) + (algo == 2)
    b += (0 if mul_bypass else _OP_BITS if mul_mem else mul_bits) - mul_shift
    return blk, alu_mem and not alu_bypass, mul_mem and not mul_bypass, int(np.clip(b, 1, 33))


def _ew_cvt(rng: np.random.Generator) -> EwConverter:
    """A memory operand's convertor: int8-range operands scaled back to about 8 bits, or bypassed."""
    if rng.random() < 0.4:
        return EwConverter()
    scale_bits = int(rng.integers(1, 16))
    return EwConverter(bypass=False, offset=_signed(rng, 32, 6, 0.1), scale=_signed(rng, scale_bits),
                       truncate=_shift_near(rng, scale_bits, 63))


def _ew(rng: np.random.Generator, b: int, force: bool = False) -> tuple[EwBlock, bool, bool, int]:
    if not force and rng.random() < 0.5:
        return EwBlock(), False, False, b
    alu_bypass, mul_bypass = bool(rng.random() < 0.3), bool(rng.random() < 0.4)
    prelu = not mul_bypass and alu_bypass and bool(rng.random() < 0.4)
    alu_mem, mul_mem = bool(rng.random() < 0.5), bool(rng.random() < 0.5)
    alu_bits, mul_bits = _near(rng, b, 32), int(rng.integers(2, 17))
    blk = EwBlock(bypass=False, alu_bypass=alu_bypass, alu_algo=int(rng.integers(0, 3)), alu_from_mem=alu_mem,
                  alu_operand=_signed(rng, alu_bits), alu_cvt=_ew_cvt(rng) if alu_mem else EwConverter(),
                  mul_bypass=mul_bypass, mul_prelu=prelu, mul_from_mem=mul_mem,
                  mul_operand=_mul_operand(rng, mul_bits), mul_cvt=_ew_cvt(rng) if mul_mem else EwConverter(),
                  truncate=_shift_near(rng, _OP_BITS if mul_mem else mul_bits, 1023))
    if not mul_bypass:
        b += (_OP_BITS if mul_mem else mul_bits) - blk.truncate
    if not alu_bypass:
        b = max(b, _OP_BITS if alu_mem else alu_bits) + 1
    return blk, alu_mem and not alu_bypass, mul_mem and not mul_bypass, int(np.clip(b, 1, 33))


def _dma(rng: np.random.Generator, slot: int, width: int, height: int, alu: bool, mul: bool,
         in_precision: str) -> OperandDma:
    if not (alu or mul):
        return OperandDma()
    use = "both" if alu and mul else "alu" if alu else "mul"
    # INT16 data takes two-byte operands (an element's operand follows the input's lane layout)
    two_byte = in_precision == "INT16" or bool(rng.random() < 0.5)
    per_element = bool(rng.random() < 0.7)
    return operand_dma(surface(rng, slot, width, height, cv=rng.random() < 0.15), use, two_byte=two_byte,
                       per_element=per_element)


def _operand_layout(dma: OperandDma, width: int, height: int, channels: int, lanes: int) -> CubeLayout:
    if dma.per_element:
        return CubeLayout(dma.base, dma.line_stride, dma.surface_stride, width, height, channels, lanes,
                          dma.bytes_per_element)
    return CubeLayout.packed(dma.base, 1, 1, channels, lanes, dma.bytes_per_element)


def cube_layouts(cfg: SdpConfig, width: int, height: int, channels: int) -> tuple[CubeLayout, CubeLayout]:
    """The input cube as SDP_RDMA reads it and the output cube SDP writes (a 1x1 cube is read and written
    packed, whatever its strides say)."""
    if cfg.is_1x1:
        return (CubeLayout.packed(cfg.src_base, 1, 1, channels, cfg.src_lanes, cfg.src_elem_bytes),
                CubeLayout.packed(cfg.dst_base, 1, 1, channels, cfg.out_lanes, cfg.out_elem_bytes))
    return (CubeLayout(cfg.src_base, cfg.src_line_stride, cfg.src_surface_stride, width, height, channels,
                       cfg.src_lanes, cfg.src_elem_bytes),
            CubeLayout(cfg.dst_base, cfg.dst_line_stride, cfg.dst_surface_stride, width, height, channels,
                       cfg.out_lanes, cfg.out_elem_bytes))


def operands_about(dmas: Sequence[OperandDma]) -> str:
    """The program's description of its memory operands (or "registers" when it reads none)."""
    return ", ".join(f"{lab}:{'elem' if d.per_element else 'kernel'}/{d.bytes_per_element}B"
                     for lab, d in zip(("bs", "bn", "ew"), dmas, strict=True) if d.enabled) or "registers"


def _draw(rng: np.random.Generator, name: str, lut: bool = False,
          precisions: tuple[tuple[str, str], ...] = PRECISIONS) -> Program | None:
    in_p, out_p = precisions[int(rng.integers(0, len(precisions)))]
    width, height, channels = int(rng.integers(1, 9)), int(rng.integers(1, 9)), int(rng.integers(1, 49))
    lanes = 32 // _ELEM[in_p]
    if width * height * -(-channels // lanes) > _MAX_ATOMS:
        return None
    bits = None if rng.random() < 0.6 else int(rng.integers(4, 12))
    b = bits or 8 * _ELEM[in_p]
    bs, bs_alu, bs_mul, b = _xblock(rng, b)
    bn, bn_alu, bn_mul, b = _xblock(rng, b)
    ew, ew_alu, ew_mul, b = _ew(rng, b, force=lut)
    uses = ((bs_alu, bs_mul), (bn_alu, bn_mul), (ew_alu, ew_mul))
    dmas = [_dma(rng, slot, width, height, alu, mul, in_p) for slot, (alu, mul) in enumerate(uses, start=2)]
    src = surface(rng, 0, width, height, cv=rng.random() < 0.15)
    # an output line is `width` atoms whatever the precision (the lanes per atom follow the output's)
    dst = surface(rng, 1, width, height, cv=rng.random() < 0.15)
    table: LutConfig | None = None

    def layer(cvt: OutputCvt) -> SdpProgram:
        return sdp_layer(width, height, channels, bs=bs, bn=bn, ew=ew, cvt=cvt, brdma=dmas[0], nrdma=dmas[1],
                         erdma=dmas[2], src=src, dst=dst, in_precision=in_p, out_precision=out_p, lut=table)

    try:
        cfg = layer(OutputCvt()).config
    except ConfigError:
        return None
    # the input as SDP_RDMA reads it (INT16 -> INT8: 16 lanes of two bytes, then INT8 processing)
    src_layout = cube_layouts(cfg, width, height, channels)[0]
    addr, data = image_of(rng, src_layout, cfg.src_elem_bytes, bits)
    loads = [(addr, "input.dat", data)]
    for label, dma in zip(("bs", "bn", "ew"), dmas, strict=True):
        if dma.enabled:
            lay = _operand_layout(dma, width, height, channels, cfg.lanes)
            addr, data = image_of(rng, lay, 2 if dma.two_byte else 1, _OP_BITS)
            loads.append((addr, f"{label}.dat", data))
    data = _before_convertor(cfg, loads)
    if lut:   # the LUT placed over the data reaching it, then the data after it
        table = _lut(rng, data)
        ew = dataclasses.replace(ew, lut_bypass=False)
        try:
            cfg = layer(OutputCvt()).config
        except ConfigError:
            return None
        data = _before_convertor(cfg, loads, _lut_fn(table))
    if np.unique(data).size < 8 and rng.random() < 0.9:
        return None   # blocks that flatten the data (a MIN below it, ReLU after a negative factor): redrawn
    cvt = _cvt(rng, data, _CVT_BITS[out_p])
    prog = layer(cvt)
    out = cube_layouts(cfg, width, height, channels)[1]
    about = {"unit": "SDP", "precision": f"{in_p} -> {out_p}", "cube": f"{width}x{height}x{channels}",
             "bs": _describe(bs), "bn": _describe(bn), "ew": "bypass" if ew.bypass else "on",
             "operands": operands_about(dmas),
             "cvt": f"offset {cvt.offset} scale {cvt.scale} shift {cvt.shift}"}
    if table is not None:
        about["lut"] = (f"{'exponent' if table.le_function == EXPONENT else 'linear'} le_select "
                        f"{table.le_index_select} le_offset {table.le_index_offset} lo_select "
                        f"{table.lo_index_select}")
    return Program(name, list(prog.writes), loads, extent(out), about)


LutFn = Callable[[np.ndarray], tuple[np.ndarray, dict[str, int]]]


def _lut_fn(table: LutConfig) -> LutFn:
    def fn(x: np.ndarray) -> tuple[np.ndarray, dict[str, int]]:
        res = lut_lookup(x, table)
        return res.output, res.counts
    return fn


def _lut(rng: np.random.Generator, x: np.ndarray) -> LutConfig:
    """A random SDP LUT over data x: table spans about x's spread (some narrower or wider), starts near its
    low end, random slopes, priorities and 16-bit entries."""
    lo, hi = (int(v) for v in np.percentile(x, (2, 98)))
    bits = max(int(hi - lo).bit_length(), 1)
    top = (1 << 31) - 1
    exponent = rng.random() < 0.4
    le_sel = int(np.clip(bits - 6 + rng.integers(-2, 2), -6, 25))
    lo_sel = int(np.clip(bits - 8 + rng.integers(-2, 2), -8, 23))
    jitter = 1 << max(bits - 3, 0)

    def start(span: int) -> int:
        return int(np.clip(lo + rng.integers(-jitter, jitter + 1), -(1 << 31), top - span))

    offset = int(rng.integers(1, max(bits - 4, 1) + 1)) if exponent else 0
    le_start = start(1 << (le_sel + 6))
    le_end = top if exponent else le_start + (1 << (le_sel + 6))
    lo_start = start(1 << (lo_sel + 8))

    def slope() -> tuple[int, int]:
        return int(rng.integers(-(1 << 15), 1 << 15)), int(rng.integers(-16, 16))

    (a, b), (c, d), (e, f), (g, h) = slope(), slope(), slope(), slope()
    return LutConfig(
        le_function=EXPONENT if exponent else LINEAR, le_index_offset=offset, le_index_select=le_sel,
        lo_index_select=lo_sel, le_start=le_start, le_end=le_end, lo_start=lo_start,
        lo_end=lo_start + (1 << (lo_sel + 8)), le_uflow_scale=a, le_uflow_shift=b, le_oflow_scale=c,
        le_oflow_shift=d, lo_uflow_scale=e, lo_uflow_shift=f, lo_oflow_scale=g, lo_oflow_shift=h,
        uflow_priority=int(rng.integers(0, 2)), oflow_priority=int(rng.integers(0, 2)),
        hybrid_priority=int(rng.integers(0, 2)), unit="SDP",
        le=rng.integers(-(1 << 15), 1 << 15, size=LE_ENTRIES),
        lo=rng.integers(-(1 << 15), 1 << 15, size=LO_ENTRIES))


def _before_convertor(cfg: SdpConfig, loads: list[tuple[int, str, np.ndarray]],
                      lut: LutFn | None = None) -> np.ndarray:
    """The data reaching the output convertor for these images (the model's datapath: it only steers the
    choice of the convertor so that outputs vary; the golden output is NVIDIA's)."""
    mem = Memory()
    for addr, _name, data in loads:
        mem.write(addr, data)
    cube, ops = read_inputs(cfg, mem, mem)
    return sdp_datapath(cube, cfg.bs, cfg.bn, cfg.ew, OutputCvt(), ops, lut, out_bits=32).data[:cfg.channels]


def _cvt(rng: np.random.Generator, data: np.ndarray, out_bits: int) -> OutputCvt:
    """The output convertor: offset near the data's middle, scale and shift mapping its spread onto the
    output's width (some a few bits off either way, so some saturate), now and then any legal value."""
    if rng.random() < 0.05:
        return OutputCvt(_signed(rng, 32), _signed(rng, 16), int(rng.integers(0, 64)))
    lo, mid, hi = (int(v) for v in np.percentile(data, (5, 50, 95)))
    span_bits = max(int(hi - lo).bit_length(), 1)
    scale_bits = int(rng.integers(1, 16))
    shift = int(np.clip(span_bits + scale_bits - out_bits + rng.integers(-2, 3), 0, 63))
    offset = int(np.clip(mid + rng.integers(-(1 << max(span_bits - 3, 0)), 1 << max(span_bits - 3, 0) + 1),
                         -(1 << 31), (1 << 31) - 1))
    return OutputCvt(offset, _mul_operand(rng, scale_bits) or 1, shift)


def _describe(blk: XBlock) -> str:
    if blk.bypass:
        return "bypass"
    parts = [] if blk.alu_bypass else [f"alu{blk.alu_algo}{'(mem)' if blk.alu_from_mem else ''}"]
    if not blk.mul_bypass:
        parts.append(("prelu" if blk.mul_prelu else "mul") + ("(mem)" if blk.mul_from_mem else ""))
    if not blk.relu_bypass:
        parts.append("relu")
    return "+".join(parts) or "pass"


def sdp_program(rng: np.random.Generator, name: str, lut: bool = False,
                precisions: tuple[tuple[str, str], ...] = PRECISIONS) -> Program:
    """One legal random SDP program, with the EW LUT if `lut` (draws until the driver accepts one), its
    (input, output) precisions drawn from `precisions`."""
    while True:
        prog = _draw(rng, name, lut, precisions)
        if prog is not None:
            return prog
