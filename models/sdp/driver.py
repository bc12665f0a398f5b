"""Driver layer for one SDP hardware layer: a layer description in, validated register writes out.

`sdp_layer(...)` takes what a compiler knows about an SDP layer (cube size; the BS and BN blocks, the EW
block and the output convertor as signed values, reusing models.sdp.datapath's XBlock / EwBlock /
OutputCvt; the operand read DMAs as models.sdp.model.OperandDma; the EW LUT; where the cubes live) and
returns an
`SdpProgram`: the register fields, the model configuration built from them and the register writes
[(unit, register, value)] in the order NVIDIA's KMD issues them (kmd/firmware/sdp.c): producer pointers,
the SDP_RDMA group (feature mode, cube, source, then BRDMA/NRDMA/ERDMA each with its surface), the LUT
(tables through S_LUT_ACCESS_CFG/DATA, then the S_LUT_* registers), the SDP group (cube, destination, BS,
BN, EW, feature mode, format, output convertor), D_PERF_ENABLE, then D_OP_ENABLE of SDP_RDMA and of SDP.
The KMD writes some registers twice (scratch values first) and skips registers of unused parts; this driver
writes each register once with its final value, and writes every register the model reads, so that nothing
an earlier layer left in the same register group changes this one.

Everything is validated before a single write is returned, so a rejected layer never reaches the hardware:
- the description: sizes >= 1, register group 0/1, input from memory (src) or on the fly from the
  convolution pipeline (flying_in, which models/conv/driver.py uses), an output surface unless nothing is
  written (EQL mode, output to PDP), every signed value in the range of the datapath it feeds, ALU
  algorithms that exist in their block, DATA_USE MUL/ALU/BOTH, operands in external memory (no secondary
  memory here), an SDP LUT;
- register fields must fit (ConfigError naming the field);
- seed 001's SDP rules through `SdpConfig.from_fields` (models/sdp.validate) and the data-format rules through
  `check_memory_layout`; the rules the model only reports (`sdp.advisories`: PReLU with its block's ALU)
  are refused too, since a driver issues only programs that keep every rule;
- the EW LUT, when it runs: present, and valid (`LutConfig.from_fields`, the LUT Limitation rules);
- an enabled operand DMA must feed an active ALU or MUL of its block (the KMD never enables one otherwise);
- every cube (input, output, operands) inside the 32-bit address space, and the output not overlapping the
  input or any operand cube (SDP reads and writes at the same time).

Signed values are written two's complement in their whole register field (operands, convertor offsets and
scales), as NVIDIA's traces hold them; `signed_blocks(cfg)` reads a configuration back as signed values.
The LUT RAM and the S_LUT_* registers are shared by both register groups: the caller must not load a LUT
while an SDP layer of the other group runs (the KMD waits, dla_sdp_is_ready). `load_lut=False` leaves the
LUT writes out for a layer that uses the LUT already loaded (the LUT given must then describe it).

`in_precision` / `out_precision` ("INT8" default, "INT16" where the run's configuration has it) set every
precision field of both units: for integers IN = PROC (no conversion before the datapath), except INT16 ->
INT8, which NVIDIA's hardware does as SDP_RDMA IN_PRECISION INT16 with PROC_PRECISION INT8 (the MRDMA's
16to8 mode; PROC INT16 with OUT INT8 never completes on its RTL). The cubes' element sizes follow them
(models/sdp/model.py SdpConfig src_lanes, lanes, out_lanes).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from models import configs, registers
from models.common.cube import CubeLayout
from models.common.driver import (
    RegWrite,
    Surface,
    check_fits,
    check_placement,
    lut_unit_writes,
    program_fields,
    run_atom_bytes,
    surface_registers,
)
from models.common.precision import as_signed
from models.errors import ConfigError
from models.lut.model import LutConfig
from models.lut.program import LutProgram
from models.lut.regs import lut_fields, lut_writes
from models.sdp.datapath import ALU_EQL, EwBlock, EwConverter, OutputCvt, XBlock
from models.sdp.model import (
    PRECISION_NAMES,
    USE_ALU,
    USE_BOTH,
    USE_MUL,
    OperandDma,
    SdpConfig,
    advisories,
    check_memory_layout,
)

__all__ = ["EwBlock", "EwConverter", "OperandDma", "OutputCvt", "SdpProgram", "Surface", "XBlock",
           "lut_fields", "lut_writes", "operand_dma", "program_fields", "sdp_layer", "signed_blocks"]

INT8 = 0
PRECISIONS = {name: code for code, name in PRECISION_NAMES.items()}
USES = {"mul": USE_MUL, "alu": USE_ALU, "both": USE_BOTH}
_DMAS = (("B", "BS"), ("N", "BN"), ("E", "EW"))   # (RDMA letter, operand block) of BRDMA, NRDMA, ERDMA

# Register order within each unit, as NVIDIA's KMD writes them (processor_sdp_program, dla_sdp_enable).
_RDMA_ORDER = (
    "D_FEATURE_MODE_CFG", "D_DATA_CUBE_WIDTH", "D_DATA_CUBE_HEIGHT", "D_DATA_CUBE_CHANNEL",
    "D_SRC_BASE_ADDR_LOW", "D_SRC_BASE_ADDR_HIGH", "D_SRC_LINE_STRIDE", "D_SRC_SURFACE_STRIDE",
    "D_SRC_DMA_CFG",
    *(r for letter, blk in _DMAS for r in (f"D_{letter}RDMA_CFG", f"D_{blk}_BASE_ADDR_LOW",
                                           f"D_{blk}_BASE_ADDR_HIGH", f"D_{blk}_LINE_STRIDE",
                                           f"D_{blk}_SURFACE_STRIDE")),
)
_SDP_ORDER = (
    "D_DATA_CUBE_WIDTH", "D_DATA_CUBE_HEIGHT", "D_DATA_CUBE_CHANNEL", "D_DST_BASE_ADDR_HIGH",
    "D_DST_BASE_ADDR_LOW", "D_DST_LINE_STRIDE", "D_DST_SURFACE_STRIDE",
    *(f"D_DP_{blk}_{r}" for blk in ("BS", "BN")
      for r in ("CFG", "ALU_CFG", "ALU_SRC_VALUE", "MUL_SRC_VALUE", "MUL_CFG")),
    "D_DP_EW_CFG",
    *(r for op in ("ALU", "MUL") for r in (f"D_DP_EW_{op}_CFG", f"D_DP_EW_{op}_SRC_VALUE",
                                           f"D_DP_EW_{op}_CVT_OFFSET_VALUE", f"D_DP_EW_{op}_CVT_SCALE_VALUE",
                                           f"D_DP_EW_{op}_CVT_TRUNCATE_VALUE")),
    "D_DP_EW_TRUNCATE_VALUE", "D_FEATURE_MODE_CFG", "D_DST_DMA_CFG", "D_DATA_FORMAT", "D_CVT_OFFSET",
    "D_CVT_SCALE", "D_CVT_SHIFT", "D_PERF_ENABLE",
)
# The S_LUT_* registers after the tables, in address order (S_LUT_CFG .. S_LUT_LO_SLOPE_SHIFT).
_LUT_ORDER = tuple(r for r in registers.registers("SDP") if r.startswith("S_LUT_") and "ACCESS" not in r)


@dataclass(frozen=True)
class SdpProgram:
    """A validated SDP layer: fields per unit, the model's configuration, the writes in issue order, and the
    LUT the layer uses (tables included; None when the EW LUT does not run and none was given)."""

    group: int
    fields: dict[str, dict[str, int]]
    config: SdpConfig
    writes: tuple[RegWrite, ...]
    lut: LutConfig | None = None

    @property
    def lut_tables(self) -> tuple[np.ndarray, np.ndarray] | None:
        """(LE, LO) as models.sdp.model.run_sdp takes them."""
        return None if self.lut is None else (self.lut.le, self.lut.lo)


def operand_dma(surface: Surface, use: str, *, two_byte: bool = False,
                per_element: bool = False) -> OperandDma:
    """An enabled operand read DMA: `use` "alu", "mul" or "both" (ALU then MUL value per element); it reads
    the memory the surface names (`ram_mc`)."""
    if use not in USES:
        raise ConfigError("SDP driver: an operand DMA's use is 'alu', 'mul' or 'both'", {"use": use})
    return OperandDma(enabled=True, data_use=USES[use], two_byte=two_byte, per_element=per_element,
                      base=surface.base, line_stride=surface.line_stride,
                      surface_stride=surface.surface_stride, ram_mc=surface.ram_mc)


# ---- signed values <-> register values --------------------------------------------------------------------

def _x_signed(blk: XBlock) -> XBlock:
    return dataclasses.replace(blk, alu_operand=int(as_signed(blk.alu_operand, 16)),
                               mul_operand=int(as_signed(blk.mul_operand, 16)))


def _cvt_signed(cvt: EwConverter) -> EwConverter:
    return dataclasses.replace(cvt, offset=int(as_signed(cvt.offset, 32)),
                               scale=int(as_signed(cvt.scale, 16)))


def signed_blocks(cfg: SdpConfig) -> tuple[XBlock, XBlock, EwBlock, OutputCvt]:
    """(BS, BN, EW, output convertor) of a configuration with every operand, offset and scale signed: the
    driver's description of the layer (SdpConfig.from_fields keeps the raw register values)."""
    ew = dataclasses.replace(cfg.ew, alu_operand=int(as_signed(cfg.ew.alu_operand, 32)),
                             mul_operand=int(as_signed(cfg.ew.mul_operand, 32)),
                             alu_cvt=_cvt_signed(cfg.ew.alu_cvt), mul_cvt=_cvt_signed(cfg.ew.mul_cvt))
    cvt = OutputCvt(int(as_signed(cfg.cvt.offset, 32)), int(as_signed(cfg.cvt.scale, 16)), cfg.cvt.shift)
    return _x_signed(cfg.bs), _x_signed(cfg.bn), ew, cvt


# ---- the description --------------------------------------------------------------------------------------

def _check_range(name: str, value: int, bits: int, signed: bool) -> None:
    """value in the signed / unsigned range of `bits` bits; the rule names the value and its range."""
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    if not lo <= int(value) <= hi:
        what = f"a signed {bits}-bit value" if signed else f"{lo}..{hi}"
        raise ConfigError(f"SDP driver: {name} is {what}", {name: int(value), "min": lo, "max": hi})


def _check_xblock(name: str, blk: XBlock) -> None:
    if blk.alu_algo not in (0, 1, 2):
        # The X blocks' ALU has MAX, MIN and SUM; EQL (3) exists in the EW block only.
        raise ConfigError(f"SDP driver: {name}_ALU_ALGO must be MAX, MIN or SUM (EQL is the EW block's)",
                          {f"{name}_ALU_ALGO": blk.alu_algo})
    _check_range(f"{name}_ALU_OPERAND", blk.alu_operand, 16, True)
    _check_range(f"{name}_MUL_OPERAND", blk.mul_operand, 16, True)
    _check_range(f"{name}_ALU_SHIFT_VALUE", blk.alu_shift, 6, False)
    # The register field has 8 bits; the datapath's truncate takes 6 of them.
    _check_range(f"{name}_MUL_SHIFT_VALUE", blk.mul_shift, 6, False)


def _check_features(ew: EwBlock) -> None:
    """The configuration's SDP must have what the layer uses (configs/<name>.json "sdp": NVIDIA's
    SDP_EW_ENABLE / SDP_LUT_ENABLE; without them the hardware bypasses EW or the LUT whatever is
    programmed)."""
    config = configs.load()
    if not ew.bypass and not config.sdp.ew:
        raise ConfigError(f"SDP EW: configuration {config.name} has no EW (SDP_EW_DISABLE)", {"EW_BYPASS": 0})
    if not ew.bypass and not ew.lut_bypass and not config.sdp.lut:
        raise ConfigError(f"SDP LUT: configuration {config.name} has no SDP LUT (SDP_LUT_DISABLE)",
                          {"EW_LUT_BYPASS": 0})


def _check_ew(ew: EwBlock) -> None:
    if ew.alu_algo not in (0, 1, 2, ALU_EQL):
        raise ConfigError("SDP driver: EW_ALU_ALGO must be MAX, MIN, SUM or EQL",
                          {"EW_ALU_ALGO": ew.alu_algo})
    _check_range("EW_ALU_OPERAND", ew.alu_operand, 32, True)
    _check_range("EW_MUL_OPERAND", ew.mul_operand, 32, True)
    for op, cvt in (("ALU", ew.alu_cvt), ("MUL", ew.mul_cvt)):
        _check_range(f"EW_{op}_CVT_OFFSET", cvt.offset, 32, True)
        _check_range(f"EW_{op}_CVT_SCALE", cvt.scale, 16, True)
        _check_range(f"EW_{op}_CVT_TRUNCATE", cvt.truncate, 6, False)
    _check_range("EW_TRUNCATE", ew.truncate, 10, False)


def _check_cvt(cvt: OutputCvt) -> None:
    _check_range("CVT_OFFSET", cvt.offset, 32, True)
    _check_range("CVT_SCALE", cvt.scale, 16, True)
    _check_range("CVT_SHIFT", cvt.shift, 6, False)


def _check_dma(letter: str, dma: OperandDma) -> None:
    if not dma.enabled:
        return
    if dma.data_use not in (USE_MUL, USE_ALU, USE_BOTH):
        raise ConfigError(f"SDP driver: {letter}RDMA_DATA_USE must be MUL (0), ALU (1) or BOTH (2)",
                          {f"{letter}RDMA_DATA_USE": dma.data_use})


def _check_lut(lut: LutConfig) -> None:
    if lut.unit != "SDP":
        raise ConfigError("SDP driver: the LUT must be an SDP LUT (32-bit START/END)", {"unit": lut.unit})
    for reg in ("le_start", "le_end", "lo_start", "lo_end"):   # FP32 bit patterns at FP16
        _check_range(f"LUT_{reg.upper()}", getattr(lut, reg), 32, lut.precision != "FP16")
    for reg in ("le_index_offset", "le_index_select", "lo_index_select"):
        _check_range(f"LUT_{reg.upper()}", getattr(lut, reg), 8, True)
    for table in ("le", "lo"):
        for flow in ("uflow", "oflow"):
            name = f"{table}_{flow}"
            _check_range(f"LUT_{name.upper()}_SCALE", getattr(lut, f"{name}_scale"), 16, True)
            _check_range(f"LUT_{name.upper()}_SHIFT", getattr(lut, f"{name}_shift"), 5, True)
    for name in ("le_function", "uflow_priority", "oflow_priority", "hybrid_priority"):
        _check_range(f"LUT_{name.upper()}", getattr(lut, name), 1, False)


def _check_description(width: int, height: int, channels: int, group: int, src: Surface | None,
                       dst: Surface | None, writes_output: bool, flying_in: bool = False) -> None:
    if min(width, height, channels) < 1:
        raise ConfigError("SDP driver: cube width, height and channels must be >= 1",
                          {"width": width, "height": height, "channels": channels})
    if group not in (0, 1):
        raise ConfigError("SDP driver: register group must be 0 or 1", {"group": group})
    if (src is None) != flying_in:
        raise ConfigError("SDP driver: the input comes from memory (src) or on the fly from the convolution "
                          "pipeline (flying_in=True, no src: models/conv/driver.py), one of the two",
                          {"FLYING_MODE": int(flying_in), "src": int(src is not None)})
    if dst is None and writes_output:
        raise ConfigError("SDP driver: an output to memory needs its dst surface (only EQL mode and "
                          "output to PDP write nothing)", {"OUTPUT_DST_PDP": 0})


# ---- fields -----------------------------------------------------------------------------------------------

def _xblock_fields(p: str, blk: XBlock) -> dict[str, int]:
    return {
        f"D_DP_{p}_CFG.{p}_BYPASS": int(blk.bypass), f"D_DP_{p}_CFG.{p}_ALU_BYPASS": int(blk.alu_bypass),
        f"D_DP_{p}_CFG.{p}_ALU_ALGO": blk.alu_algo, f"D_DP_{p}_CFG.{p}_MUL_BYPASS": int(blk.mul_bypass),
        f"D_DP_{p}_CFG.{p}_MUL_PRELU": int(blk.mul_prelu),
        f"D_DP_{p}_CFG.{p}_RELU_BYPASS": int(blk.relu_bypass),
        f"D_DP_{p}_ALU_CFG.{p}_ALU_SRC": int(blk.alu_from_mem),
        f"D_DP_{p}_ALU_CFG.{p}_ALU_SHIFT_VALUE": blk.alu_shift,
        f"D_DP_{p}_ALU_SRC_VALUE.{p}_ALU_OPERAND": blk.alu_operand & 0xFFFF,
        f"D_DP_{p}_MUL_CFG.{p}_MUL_SRC": int(blk.mul_from_mem),
        f"D_DP_{p}_MUL_CFG.{p}_MUL_SHIFT_VALUE": blk.mul_shift,
        f"D_DP_{p}_MUL_SRC_VALUE.{p}_MUL_OPERAND": blk.mul_operand & 0xFFFF,
    }


def _ew_fields(ew: EwBlock) -> dict[str, int]:
    f = {"D_DP_EW_CFG.EW_BYPASS": int(ew.bypass), "D_DP_EW_CFG.EW_ALU_BYPASS": int(ew.alu_bypass),
         "D_DP_EW_CFG.EW_ALU_ALGO": ew.alu_algo, "D_DP_EW_CFG.EW_MUL_BYPASS": int(ew.mul_bypass),
         "D_DP_EW_CFG.EW_MUL_PRELU": int(ew.mul_prelu), "D_DP_EW_CFG.EW_LUT_BYPASS": int(ew.lut_bypass),
         "D_DP_EW_TRUNCATE_VALUE.EW_TRUNCATE": ew.truncate}
    for op, src, operand, cvt in (("ALU", ew.alu_from_mem, ew.alu_operand, ew.alu_cvt),
                                  ("MUL", ew.mul_from_mem, ew.mul_operand, ew.mul_cvt)):
        f |= {f"D_DP_EW_{op}_CFG.EW_{op}_SRC": int(src),
              f"D_DP_EW_{op}_CFG.EW_{op}_CVT_BYPASS": int(cvt.bypass),
              f"D_DP_EW_{op}_SRC_VALUE.EW_{op}_OPERAND": operand & 0xFFFFFFFF,
              f"D_DP_EW_{op}_CVT_OFFSET_VALUE.EW_{op}_CVT_OFFSET": cvt.offset & 0xFFFFFFFF,
              f"D_DP_EW_{op}_CVT_SCALE_VALUE.EW_{op}_CVT_SCALE": cvt.scale & 0xFFFF,
              f"D_DP_EW_{op}_CVT_TRUNCATE_VALUE.EW_{op}_CVT_TRUNCATE": cvt.truncate}
    return f


def _dma_fields(letter: str, blk: str, dma: OperandDma) -> dict[str, int]:
    c = f"D_{letter}RDMA_CFG.{letter}RDMA_"
    return {c + "DISABLE": int(not dma.enabled), c + "DATA_USE": dma.data_use,
            c + "DATA_SIZE": int(dma.two_byte),
            c + "DATA_MODE": int(dma.per_element), c + "RAM_TYPE": int(dma.ram_mc),
            f"D_{blk}_BASE_ADDR_LOW.{blk}_BASE_ADDR_LOW": dma.base,
            f"D_{blk}_BASE_ADDR_HIGH.{blk}_BASE_ADDR_HIGH": 0,
            f"D_{blk}_LINE_STRIDE.{blk}_LINE_STRIDE": dma.line_stride,
            f"D_{blk}_SURFACE_STRIDE.{blk}_SURFACE_STRIDE": dma.surface_stride}


@dataclass(frozen=True)
class _Parts:
    """Everything of the description that becomes register fields."""

    bs: XBlock
    bn: XBlock
    ew: EwBlock
    cvt: OutputCvt
    dmas: tuple[OperandDma, OperandDma, OperandDma]
    to_pdp: bool
    perf: bool
    in_precision: int = INT8
    out_precision: int = INT8

    @property
    def proc_precision(self) -> int:
        """INT16 in, INT8 out is processed at INT8 (the 16to8 mode); otherwise at the input's precision."""
        sixteen_to_eight = (self.in_precision, self.out_precision) == (PRECISIONS["INT16"], INT8)
        return INT8 if sixteen_to_eight else self.in_precision


def _fields(width: int, height: int, channels: int, parts: _Parts, lut: LutConfig | None, src: Surface | None,
            dst: Surface | None, flying_in: bool = False) -> dict[str, dict[str, int]]:
    out = dst if dst is not None else Surface(0, 0, 0)
    src = src if src is not None else Surface(0, 0, 0)   # on the fly: no source cube
    rdma = {
        "D_FEATURE_MODE_CFG.FLYING_MODE": int(flying_in), "D_FEATURE_MODE_CFG.WINOGRAD": 0,
        "D_FEATURE_MODE_CFG.IN_PRECISION": parts.in_precision,
        "D_FEATURE_MODE_CFG.PROC_PRECISION": parts.proc_precision,
        "D_FEATURE_MODE_CFG.OUT_PRECISION": parts.out_precision, "D_FEATURE_MODE_CFG.BATCH_NUMBER": 0,
        "D_DATA_CUBE_WIDTH.WIDTH": width - 1, "D_DATA_CUBE_HEIGHT.HEIGHT": height - 1,
        "D_DATA_CUBE_CHANNEL.CHANNEL": channels - 1,
        **surface_registers("src", src),
        "D_SRC_DMA_CFG.SRC_RAM_TYPE": int(src.ram_mc),
    }
    for (letter, blk), dma in zip(_DMAS, parts.dmas, strict=True):
        rdma |= _dma_fields(letter, blk, dma)
    if parts.in_precision == PRECISIONS["FP16"]:
        # the FP16 input's NaN and infinity counters are SDP_RDMA's (MRDMA), enabled there
        rdma |= {"D_PERF_ENABLE.PERF_DMA_EN": int(parts.perf),
                 "D_PERF_ENABLE.PERF_NAN_INF_COUNT_EN": int(parts.perf)}
    sdp = {
        "D_DATA_CUBE_WIDTH.WIDTH": width - 1, "D_DATA_CUBE_HEIGHT.HEIGHT": height - 1,
        "D_DATA_CUBE_CHANNEL.CHANNEL": channels - 1,
        **surface_registers("dst", out),
        **_xblock_fields("BS", parts.bs), **_xblock_fields("BN", parts.bn), **_ew_fields(parts.ew),
        "D_FEATURE_MODE_CFG.FLYING_MODE": int(flying_in), "D_FEATURE_MODE_CFG.OUTPUT_DST": int(parts.to_pdp),
        "D_FEATURE_MODE_CFG.WINOGRAD": 0, "D_FEATURE_MODE_CFG.NAN_TO_ZERO": 0,
        "D_FEATURE_MODE_CFG.BATCH_NUMBER": 0, "D_DST_DMA_CFG.DST_RAM_TYPE": int(out.ram_mc),
        "D_DATA_FORMAT.PROC_PRECISION": parts.proc_precision,
        "D_DATA_FORMAT.OUT_PRECISION": parts.out_precision,
        "D_CVT_OFFSET.CVT_OFFSET": parts.cvt.offset & 0xFFFFFFFF,
        "D_CVT_SCALE.CVT_SCALE": parts.cvt.scale & 0xFFFF, "D_CVT_SHIFT.CVT_SHIFT": parts.cvt.shift,
        **{f"D_PERF_ENABLE.PERF_{k}_EN": int(parts.perf) for k in ("DMA", "LUT", "SAT", "NAN_INF_COUNT")},
    }
    if lut is not None:
        sdp |= lut_fields(lut)
    return {"SDP": sdp, "SDP_RDMA": rdma}



# ---- rules on the configuration ---------------------------------------------------------------------------

def _blocks(cfg: SdpConfig) -> tuple[tuple[str, XBlock | EwBlock, OperandDma], ...]:
    return (("BS", cfg.bs, cfg.brdma), ("BN", cfg.bn, cfg.nrdma), ("EW", cfg.ew, cfg.erdma))


def _reads_memory(blk: XBlock | EwBlock) -> bool:
    return (blk.alu_active and blk.alu_from_mem) or (blk.mul_active and blk.mul_from_mem)


def _check_dma_use(cfg: SdpConfig) -> None:
    for (letter, _blk), (name, blk, dma) in zip(_DMAS, _blocks(cfg), strict=True):
        if dma.enabled and not _reads_memory(blk):
            raise ConfigError(f"SDP driver: {letter}RDMA is enabled but no active ALU or MUL of {name} takes "
                              "its operand from memory", {f"{letter}RDMA_DISABLE": 0, f"{name}_BYPASS":
                                                          int(blk.bypass)})


def _check_lut_use(cfg: SdpConfig, lut: LutConfig | None) -> None:
    if cfg.ew.bypass or cfg.ew.lut_bypass:
        return
    if lut is None:
        raise ConfigError("SDP driver: the EW LUT is not bypassed, so the layer needs a LUT (lut=...)",
                          {"EW_LUT_BYPASS": 0})
    precision = PRECISION_NAMES[cfg.in_precision]
    if (lut.precision == "FP16") != (precision == "FP16"):
        raise ConfigError(f"SDP driver: the LUT must be made for the layer's {precision} data (FP16 and the "
                          "integers interpret START/END, the slopes and the entries differently)",
                          {"lut": lut.precision, "PROC_PRECISION": precision})
    # The seed's LUT rules, on the fields as written (the model checks them only when the LUT runs).
    LutConfig.from_fields({"SDP": lut_fields(lut)}, "SDP", (lut.le, lut.lo), precision)


def _cubes(cfg: SdpConfig) -> dict[str, CubeLayout]:
    """The cubes this layer reads and writes (an output only when it goes to memory); a 1x1 cube and
    per-kernel operands are packed."""
    s, w, h = cfg.surfaces, cfg.width, cfg.height
    lanes = cfg.lanes   # the input's elements per atom; the operands' per-element layout follows it
    c = s * lanes

    def cube(base: int, line: int, surf: int, elem: int, packed: bool, atom: int = lanes) -> CubeLayout:
        if packed:
            return CubeLayout.packed(base, w, h, c, atom, elem)
        return CubeLayout(base, line, surf, w, h, c, atom, elem)

    cubes = {} if cfg.flying_in else {
        "SRC": cube(cfg.src_base, cfg.src_line_stride, cfg.src_surface_stride, cfg.src_elem_bytes, cfg.is_1x1,
                    cfg.src_lanes)}
    for name, blk, dma in _blocks(cfg):
        if dma.enabled and _reads_memory(blk):
            bpe = dma.bytes_per_element
            cubes[name] = (cube(dma.base, dma.line_stride, dma.surface_stride, bpe, cfg.is_1x1)
                           if dma.per_element else CubeLayout.packed(dma.base, 1, 1, c, lanes, bpe))
    if not (cfg.ew.eql or cfg.to_pdp):
        cubes["DST"] = cube(cfg.dst_base, cfg.dst_line_stride, cfg.dst_surface_stride, cfg.out_elem_bytes,
                            cfg.is_1x1, cfg.out_lanes)
    return cubes


def _check_placement(cfg: SdpConfig) -> None:
    check_placement("SDP", _cubes(cfg))


# Defaults of sdp_layer: a block bypassed, the identity output convertor, a disabled operand DMA.
BYPASSED_X = XBlock()
BYPASSED_EW = EwBlock()
IDENTITY_CVT = OutputCvt()
NO_DMA = OperandDma()


def sdp_layer(width: int, height: int, channels: int, *, bs: XBlock = BYPASSED_X, bn: XBlock = BYPASSED_X,
              ew: EwBlock = BYPASSED_EW, cvt: OutputCvt = IDENTITY_CVT, brdma: OperandDma = NO_DMA,
              nrdma: OperandDma = NO_DMA, erdma: OperandDma = NO_DMA,
              lut: LutConfig | LutProgram | None = None, src: Surface | None, dst: Surface | None = None,
              to_pdp: bool = False, group: int = 0, load_lut: bool = True, perf: bool = True,
              in_precision: str = "INT8", out_precision: str = "INT8", flying_in: bool = False) -> SdpProgram:
    """Validate one SDP layer and return its register program (see the module docstring).

    bs/bn/ew/cvt hold signed values (operands, convertor offsets and scales); brdma/nrdma/erdma are the
    operand DMAs (`operand_dma(...)`, disabled by default). `lut` is the LUT the layer uses, tables
    included (a LutConfig, or a models.lut.program LutProgram, both SDP); when given, its tables and S_LUT_*
    registers are written unless load_lut=False. flying_in=True (with src=None): the input comes on the fly
    from CACC (models/conv/driver.py programs the convolution pipeline); SDP_RDMA is then written and enabled
    only when an operand DMA is, as NVIDIA's convolution traces leave it alone otherwise. dst may be None
    only when nothing is written (EQL mode, or to_pdp: the output goes to PDP on the fly). `perf` sets
    D_PERF_ENABLE (DMA, LUT, SAT, NAN_INF) as the KMD does with statistics enabled.
    """
    lut_cfg = lut.lut_config() if isinstance(lut, LutProgram) else lut
    _check_description(width, height, channels, group, src, dst, not (to_pdp or ew.eql), flying_in)
    _check_xblock("BS", bs)
    _check_xblock("BN", bn)
    _check_ew(ew)
    _check_features(ew)
    _check_cvt(cvt)
    for (letter, _blk), dma in zip(_DMAS, (brdma, nrdma, erdma), strict=True):
        _check_dma(letter, dma)
    if lut_cfg is not None:
        _check_lut(lut_cfg)
    precisions = configs.load().precisions
    for name, value in (("in_precision", in_precision), ("out_precision", out_precision)):
        if value not in PRECISIONS or value not in precisions:
            raise ConfigError(f"SDP driver: {name} must be a precision of the configuration "
                              f"({', '.join(precisions)})", {name: value})
    parts = _Parts(bs, bn, ew, cvt, (brdma, nrdma, erdma), to_pdp, perf, PRECISIONS[in_precision],
                   PRECISIONS[out_precision])
    fields = _fields(width, height, channels, parts, lut_cfg, src, dst, flying_in)
    for unit, unit_fields in fields.items():
        check_fits(unit, unit_fields)
    cfg = SdpConfig.from_fields(fields, run_atom_bytes(), precisions)
    found = advisories(cfg)
    if found:
        raise ConfigError(found[0], {"advisory": "the model tolerates it (NVIDIA's traces break it); the "
                                                 "driver keeps the rule"})
    _check_dma_use(cfg)
    _check_lut_use(cfg, lut_cfg)
    check_memory_layout(cfg)
    _check_placement(cfg)
    rdma_order = _RDMA_ORDER + (("D_PERF_ENABLE",) if in_precision == "FP16" else ())
    writes = lut_unit_writes("SDP", fields, group, rdma_order=rdma_order, unit_order=_SDP_ORDER,
                             lut_order=_LUT_ORDER, lut=lut_cfg if load_lut else None)
    if flying_in and not any(d.enabled for d in (brdma, nrdma, erdma)):
        writes = [w for w in writes if w.unit != "SDP_RDMA"]
    return SdpProgram(group, fields, cfg, tuple(writes), lut_cfg)
