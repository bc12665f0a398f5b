"""Random SDP programs at FP16 (memory to memory): BS and BN (ALU max/min/sum, MUL, PReLU, ReLU) with FP16
operands, EW (MUL, PReLU, ALU) with FP32 register operands or FP16 memory operands, FP16 or INT16 output.
Inputs and operands are random FP16 numbers over many magnitudes, some with NaNs, infinities, subnormals and
the largest finite values. The output convertor is left at identity (FP16 ignores it). Each program reads back
the saturation, NaN and infinity counters of SDP and SDP_RDMA after the layer. A draw the driver refuses is
drawn again."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from models.common.precision import as_signed
from models.errors import ConfigError
from models.sdp.driver import EwBlock, EwConverter, OperandDma, OutputCvt, XBlock, operand_dma, sdp_layer
from models.sdp.model import SdpConfig
from scripts.ref_programs.common import Program, extent, fp16_image, image_of, surface
from scripts.ref_programs.sdp import _describe, _operand_layout, cube_layouts, operands_about

_MAX_ATOMS = 64
# The statistics read back after the layer (SDP's LUT counters and D_STATUS are not: on NVIDIA's nv_full
# they depend on timing, or flag any non-zero output; see models/sdp/fp16.py)
READS = (("SDP", "D_STATUS_NAN_INPUT_NUM"), ("SDP", "D_STATUS_INF_INPUT_NUM"),
         ("SDP", "D_STATUS_NAN_OUTPUT_NUM"), ("SDP", "D_PERF_OUT_SATURATION"),
         ("SDP_RDMA", "D_STATUS_NAN_INPUT_NUM"), ("SDP_RDMA", "D_STATUS_INF_INPUT_NUM"))


def _fp16(rng: np.random.Generator, spread: float = 2.0) -> int:
    """A random FP16 number (signed register value) of magnitude about 10^(+-spread)."""
    v = np.float16(rng.standard_normal() * 10.0 ** rng.uniform(-spread, spread))
    return int(as_signed(int(v.view(np.uint16)), 16))


def _fp32(rng: np.random.Generator, spread: float = 2.0) -> int:
    v = np.float32(rng.standard_normal() * 10.0 ** rng.uniform(-spread, spread))
    return int(as_signed(int(v.view(np.uint32)), 32))


def _xblock(rng: np.random.Generator) -> tuple[XBlock, bool, bool]:
    if rng.random() < 0.3:
        return XBlock(), False, False
    alu_bypass, mul_bypass = bool(rng.random() < 0.3), bool(rng.random() < 0.4)
    prelu = not mul_bypass and alu_bypass and bool(rng.random() < 0.4)
    alu_mem, mul_mem = bool(rng.random() < 0.4), bool(rng.random() < 0.4)
    blk = XBlock(bypass=False, alu_bypass=alu_bypass, alu_algo=int(rng.integers(0, 3)), alu_from_mem=alu_mem,
                 alu_shift=int(rng.integers(0, 64)) if rng.random() < 0.2 else 0, alu_operand=_fp16(rng),
                 mul_bypass=mul_bypass, mul_prelu=prelu, mul_from_mem=mul_mem,
                 mul_shift=int(rng.integers(0, 64)) if rng.random() < 0.2 else 0,
                 mul_operand=_fp16(rng, 1.0), relu_bypass=bool(rng.random() < 0.7))
    return blk, alu_mem and not alu_bypass, mul_mem and not mul_bypass


def _ew(rng: np.random.Generator) -> tuple[EwBlock, bool, bool]:
    if rng.random() < 0.4:
        return EwBlock(), False, False
    alu_bypass, mul_bypass = bool(rng.random() < 0.3), bool(rng.random() < 0.4)
    prelu = not mul_bypass and alu_bypass and bool(rng.random() < 0.4)
    alu_mem, mul_mem = bool(rng.random() < 0.5), bool(rng.random() < 0.5)
    # seed 001: at FP16 a memory operand goes through its convertor (CVT_BYPASS NO; it only widens to FP32)
    blk = EwBlock(bypass=False, alu_bypass=alu_bypass, alu_algo=int(rng.integers(0, 3)), alu_from_mem=alu_mem,
                  alu_operand=_fp32(rng), alu_cvt=EwConverter(bypass=not alu_mem), mul_bypass=mul_bypass,
                  mul_prelu=prelu, mul_from_mem=mul_mem, mul_operand=_fp32(rng, 1.0),
                  mul_cvt=EwConverter(bypass=not mul_mem),
                  truncate=int(rng.integers(0, 1024)) if rng.random() < 0.2 else 0)
    return blk, alu_mem and not alu_bypass, mul_mem and not mul_bypass


def _dma(rng: np.random.Generator, slot: int, width: int, height: int, alu: bool, mul: bool) -> OperandDma:
    if not (alu or mul):
        return OperandDma()
    use = "both" if alu and mul else "alu" if alu else "mul"
    return operand_dma(surface(rng, slot, width, height, cv=rng.random() < 0.15), use, two_byte=True,
                       per_element=bool(rng.random() < 0.7))


def fp16_loads(rng: np.random.Generator, cfg: SdpConfig, dmas: Sequence[OperandDma], width: int, height: int,
               channels: int) -> tuple[list[tuple[int, str, NDArray[np.uint8]]], bool]:
    """Random FP16 images of the input cube and of each memory operand, and whether they hold specials
    (about 30% of programs: NaN, infinities and subnormals among the values)."""
    specials = rng.random() < 0.3
    addr, data = image_of(rng, cube_layouts(cfg, width, height, channels)[0], 2, 8 if specials else None,
                          fp16=True)
    loads = [(addr, "input.dat", data)]
    for label, dma in zip(("bs", "bn", "ew"), dmas, strict=True):
        if dma.enabled:
            base, size = extent(_operand_layout(dma, width, height, channels, cfg.lanes))
            loads.append((base, f"{label}.dat", fp16_image(rng, size, 0.05 if specials else 0.0)))
    return loads, specials


def _draw(rng: np.random.Generator, name: str) -> Program | None:
    out_p = "FP16" if rng.random() < 0.8 else "INT16"
    width, height, channels = int(rng.integers(1, 9)), int(rng.integers(1, 9)), int(rng.integers(1, 49))
    if width * height * -(-channels // 16) > _MAX_ATOMS:
        return None
    bs, bs_alu, bs_mul = _xblock(rng)
    bn, bn_alu, bn_mul = _xblock(rng)
    ew, ew_alu, ew_mul = _ew(rng)
    uses = ((bs_alu, bs_mul), (bn_alu, bn_mul), (ew_alu, ew_mul))
    dmas = [_dma(rng, slot, width, height, alu, mul) for slot, (alu, mul) in enumerate(uses, start=2)]
    src = surface(rng, 0, width, height, cv=rng.random() < 0.15)
    dst = surface(rng, 1, width, height, cv=rng.random() < 0.15)
    try:
        prog = sdp_layer(width, height, channels, bs=bs, bn=bn, ew=ew, cvt=OutputCvt(), brdma=dmas[0],
                         nrdma=dmas[1], erdma=dmas[2], src=src, dst=dst, in_precision="FP16",
                         out_precision=out_p)
    except ConfigError:
        return None
    cfg = prog.config
    loads, specials = fp16_loads(rng, cfg, dmas, width, height, channels)
    out = cube_layouts(cfg, width, height, channels)[1]
    about = {"unit": "SDP", "precision": f"FP16 -> {out_p}", "cube": f"{width}x{height}x{channels}",
             "bs": _describe(bs), "bn": _describe(bn), "ew": "bypass" if ew.bypass else "on",
             "operands": operands_about(dmas), "specials": int(specials)}
    return Program(name, list(prog.writes), loads, extent(out), about, list(READS))


def sdp_fp16_program(rng: np.random.Generator, name: str) -> Program:
    """One legal random FP16 SDP program (draws until the driver accepts one)."""
    while True:
        prog = _draw(rng, name)
        if prog is not None:
            return prog
