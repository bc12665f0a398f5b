"""Random SDP programs (memory to memory): BS and BN (ALU max/min/sum with shift, MUL with truncate, PReLU,
ReLU), EW (ALU, MUL, PReLU, memory operands through their convertors), operands from registers or memory
(per element or per kernel, one or two bytes), the output convertor, and the precisions INT16 -> INT16,
INT16 -> INT8 and INT8 -> INT16. The EW LUT stays bypassed (the model has no SDP LUT at INT16 yet).
Legality is the driver's: a draw it refuses is drawn again."""

from __future__ import annotations

import numpy as np

from models.cube import CubeLayout
from models.driver_sdp import EwBlock, EwConverter, OperandDma, OutputCvt, XBlock, operand_dma, sdp_layer
from models.errors import ConfigError
from scripts.ref_programs.common import Program, extent, image_of, surface

PRECISIONS = (("INT16", "INT16"), ("INT16", "INT16"), ("INT16", "INT8"), ("INT8", "INT16"))
_ELEM = {"INT8": 1, "INT16": 2}
_MAX_ATOMS = 64


def _signed(rng: np.random.Generator, bits: int, small: int | None = None, full: float = 0.5) -> int:
    """A signed value of `bits` bits: full range with probability `full`, else within +-2^(small-1) (values
    that keep the datapath clear of saturation more often)."""
    b = bits if small is None or rng.random() < full else min(small, bits)
    return int(rng.integers(-(1 << (b - 1)), 1 << (b - 1)))


def _xblock(rng: np.random.Generator) -> tuple[XBlock, bool, bool]:
    """(block, ALU operand from memory, MUL operand from memory)."""
    if rng.random() < 0.3:
        return XBlock(), False, False
    alu_bypass, mul_bypass = bool(rng.random() < 0.3), bool(rng.random() < 0.4)
    prelu = not mul_bypass and alu_bypass and bool(rng.random() < 0.4)
    alu_mem, mul_mem = bool(rng.random() < 0.4), bool(rng.random() < 0.4)
    blk = XBlock(bypass=False, alu_bypass=alu_bypass, alu_algo=int(rng.integers(0, 3)),
                 alu_from_mem=alu_mem, alu_shift=int(rng.integers(0, 64)) if rng.random() < 0.3 else
                 int(rng.integers(0, 8)), alu_operand=_signed(rng, 16, 8),
                 mul_bypass=mul_bypass, mul_prelu=prelu, mul_from_mem=mul_mem,
                 mul_shift=int(rng.integers(0, 64)) if rng.random() < 0.3 else int(rng.integers(0, 16)),
                 mul_operand=_signed(rng, 16, 8), relu_bypass=bool(rng.random() < 0.6))
    return blk, alu_mem and not alu_bypass, mul_mem and not mul_bypass


def _ew_cvt(rng: np.random.Generator) -> EwConverter:
    if rng.random() < 0.4:
        return EwConverter()
    return EwConverter(bypass=False, offset=_signed(rng, 32, 12, 0.2), scale=_signed(rng, 16, 8),
                       truncate=int(rng.integers(0, 64)) if rng.random() < 0.3 else int(rng.integers(0, 12)))


def _ew(rng: np.random.Generator) -> tuple[EwBlock, bool, bool]:
    if rng.random() < 0.5:
        return EwBlock(), False, False
    alu_bypass, mul_bypass = bool(rng.random() < 0.3), bool(rng.random() < 0.4)
    prelu = not mul_bypass and alu_bypass and bool(rng.random() < 0.4)
    alu_mem, mul_mem = bool(rng.random() < 0.5), bool(rng.random() < 0.5)
    blk = EwBlock(bypass=False, alu_bypass=alu_bypass, alu_algo=int(rng.integers(0, 3)), alu_from_mem=alu_mem,
                  alu_operand=_signed(rng, 32, 16, 0.2), alu_cvt=_ew_cvt(rng) if alu_mem else EwConverter(),
                  mul_bypass=mul_bypass, mul_prelu=prelu, mul_from_mem=mul_mem,
                  mul_operand=_signed(rng, 32, 10, 0.2), mul_cvt=_ew_cvt(rng) if mul_mem else EwConverter(),
                  truncate=int(rng.integers(0, 1024)) if rng.random() < 0.2 else int(rng.integers(0, 20)))
    return blk, alu_mem and not alu_bypass, mul_mem and not mul_bypass


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


def _draw(rng: np.random.Generator, name: str) -> Program | None:
    in_p, out_p = PRECISIONS[int(rng.integers(0, len(PRECISIONS)))]
    width, height, channels = int(rng.integers(1, 9)), int(rng.integers(1, 9)), int(rng.integers(1, 49))
    lanes = 32 // _ELEM[in_p]
    if width * height * -(-channels // lanes) > _MAX_ATOMS:
        return None
    (bs, bs_alu, bs_mul), (bn, bn_alu, bn_mul), (ew, ew_alu, ew_mul) = _xblock(rng), _xblock(rng), _ew(rng)
    uses = ((bs_alu, bs_mul), (bn_alu, bn_mul), (ew_alu, ew_mul))
    dmas = [_dma(rng, slot, width, height, alu, mul, in_p) for slot, (alu, mul) in enumerate(uses, start=2)]
    cvt = OutputCvt(_signed(rng, 32, 18, 0.1), _signed(rng, 16, 6) if rng.random() < 0.8 else 1,
                    int(rng.integers(0, 32)) if rng.random() < 0.6 else int(rng.integers(0, 64)))
    src = surface(rng, 0, width, height, cv=rng.random() < 0.15)
    # an output line is `width` atoms whatever the precision (the lanes per atom follow the output's)
    dst = surface(rng, 1, width, height, cv=rng.random() < 0.15)
    try:
        prog = sdp_layer(width, height, channels, bs=bs, bn=bn, ew=ew, cvt=cvt, brdma=dmas[0], nrdma=dmas[1],
                         erdma=dmas[2], src=src, dst=dst, in_precision=in_p, out_precision=out_p)
    except ConfigError:
        return None
    cfg = prog.config
    bits = None if rng.random() < 0.6 else int(rng.integers(4, 12))
    src_layout = CubeLayout(cfg.src_base, cfg.src_line_stride, cfg.src_surface_stride, width, height,
                            channels, cfg.lanes, cfg.in_elem_bytes)
    if cfg.is_1x1:
        src_layout = CubeLayout.packed(cfg.src_base, 1, 1, channels, cfg.lanes, cfg.in_elem_bytes)
    addr, data = image_of(rng, src_layout, cfg.in_elem_bytes, bits)
    loads = [(addr, "input.dat", data)]
    for label, dma in zip(("bs", "bn", "ew"), dmas, strict=True):
        if dma.enabled:
            lay = _operand_layout(dma, width, height, channels, cfg.lanes)
            addr, data = image_of(rng, lay, 2 if dma.two_byte else 1, None if rng.random() < 0.5 else 8)
            loads.append((addr, f"{label}.dat", data))
    out = CubeLayout(cfg.dst_base, cfg.dst_line_stride, cfg.dst_surface_stride, width, height, channels,
                     cfg.out_lanes, cfg.out_elem_bytes)
    if cfg.is_1x1:
        out = CubeLayout.packed(cfg.dst_base, 1, 1, channels, cfg.out_lanes, cfg.out_elem_bytes)
    about = {"unit": "SDP", "precision": f"{in_p} -> {out_p}", "cube": f"{width}x{height}x{channels}",
             "bs": _describe(bs), "bn": _describe(bn), "ew": "bypass" if ew.bypass else "on",
             "operands": ", ".join(f"{lab}:{'elem' if d.per_element else 'kernel'}/{d.bytes_per_element}B"
                                   for lab, d in zip(("bs", "bn", "ew"), dmas, strict=True) if d.enabled)
             or "registers", "cvt": f"offset {cvt.offset} scale {cvt.scale} shift {cvt.shift}"}
    return Program(name, list(prog.writes), loads, extent(out), about)


def _describe(blk: XBlock) -> str:
    if blk.bypass:
        return "bypass"
    parts = [] if blk.alu_bypass else [f"alu{blk.alu_algo}{'(mem)' if blk.alu_from_mem else ''}"]
    if not blk.mul_bypass:
        parts.append(("prelu" if blk.mul_prelu else "mul") + ("(mem)" if blk.mul_from_mem else ""))
    if not blk.relu_bypass:
        parts.append("relu")
    return "+".join(parts) or "pass"


def sdp_program(rng: np.random.Generator, name: str) -> Program:
    """One legal random SDP program (draws until the driver accepts one)."""
    while True:
        prog = _draw(rng, name)
        if prog is not None:
            return prog
