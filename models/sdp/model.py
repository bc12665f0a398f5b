"""Bit-exact model of NVDLA's SDP (BS, BN, EW, output convertor), INT8, INT16 and FP16 (models/sdp/fp16.py).

INT16 (nvdlav1 cmod/hls/sdp): the input elements are two bytes (an atom holds atom_bytes / 2), sign-extended
into the same 32-bit datapath as INT8; the output convertor's 17-bit result saturates to the output
precision's width (INT8 or INT16, either input precision). The EW LUT is the same at INT8 and INT16 (the
cmod's Y path tells only FP16 apart: sdp_y_idx.cpp, sdp_y_inp.cpp; its INT16 Limitation rows are INT8's).
INT16 -> INT8 is the MRDMA's 16to8 mode (nvdlav1 vmod NV_NVDLA_SDP_MRDMA_EG_cmd.v): SDP_RDMA IN_PRECISION
INT16 with PROC_PRECISION INT8. The input is read as INT16 (16 lanes of two bytes), its values enter the
datapath whole, and everything after the read is INT8 processing: 32-lane channel padding (the lanes past
the input's last 16-lane surface compute on 0), operands laid out per INT8 lanes, INT8 output (NVIDIA's
nv_full RTL, checked by the traces/nv_full_ref programs). PROC INT16 with OUT INT8 never completes on that
RTL (traces/nv_full_ref/not_stored.tsv): `advisories` reports it.
Conversions to and from FP16 (seed 002): FP16 -> INT16 (models/sdp/fp16.py) and INT16 -> FP16 (the output
convertor's 17-bit result rounded to FP16, nvdlav1 cmod sdp_c.cpp) are modelled and checked on NVIDIA's
nv_full RTL; FP16 -> INT8 never completes there and INT8 -> FP16 writes its output to the wrong places:
`advisories` reports both (the driver refuses them).

`SdpConfig.from_fields` decodes and validates the registers, `sdp_compute` is the pure array function,
`run_sdp` reads the input and operands from memory and writes the output (or hands it to PDP on the fly).
The arithmetic lives in models/sdp/datapath.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from models.common.cube import AtomLanes, CubeLayout, check_layout, surface_fields
from models.common.memory import pick_memory
from models.configs import SdpFeatures
from models.errors import ConfigError
from models.lut.model import LutConfig, lut_lookup
from models.sdp.datapath import (
    ALU_EQL,
    DatapathResult,
    EwBlock,
    EwConverter,
    LutFn,
    Operands,
    OutputCvt,
    XBlock,
    sdp_datapath,
)

IntArray = NDArray[np.int64]

USE_MUL, USE_ALU, USE_BOTH = 0, 1, 2
PER_KERNEL, PER_ELEMENT = 0, 1
INT8, INT16, FP16 = 0, 1, 2
PRECISION_NAMES = {INT8: "INT8", INT16: "INT16", FP16: "FP16"}
MODELLED = (INT8, INT16, FP16)


@dataclass(frozen=True)
class OperandDma:
    """One operand read DMA (BRDMA, NRDMA or ERDMA)."""

    enabled: bool = False
    data_use: int = USE_MUL
    two_byte: bool = False
    per_element: bool = False
    base: int = 0
    line_stride: int = 0
    surface_stride: int = 0
    ram_mc: bool = True
    """RAM_TYPE: MC is the primary memory, CV the secondary one (a trace's sec_mem)."""

    @property
    def bytes_per_element(self) -> int:
        return (2 if self.data_use == USE_BOTH else 1) * (2 if self.two_byte else 1)


@dataclass(frozen=True)
class SdpConfig(AtomLanes):
    width: int
    height: int
    channels: int
    src_base: int
    src_line_stride: int
    src_surface_stride: int
    flying_in: bool
    dst_base: int
    dst_line_stride: int
    dst_surface_stride: int
    to_pdp: bool
    bs: XBlock
    bn: XBlock
    ew: EwBlock
    cvt: OutputCvt
    brdma: OperandDma
    nrdma: OperandDma
    erdma: OperandDma
    lut_fields: Mapping[str, int] = field(default_factory=dict, compare=False)
    atom_bytes: int = 8
    src_ram_mc: bool = True   # SDP_RDMA SRC_RAM_TYPE (MRDMA): MC, the primary memory (else CV, the CV SRAM)
    dst_ram_mc: bool = True   # SDP DST_RAM_TYPE
    in_precision: int = INT8  # the processing precision (SDP PROC_PRECISION)
    out_precision: int = INT8
    src_precision: int | None = None  # SDP_RDMA IN_PRECISION when it differs (the 16to8 mode), else None
    nan_to_zero: bool = False  # D_FEATURE_MODE_CFG.NAN_TO_ZERO at PROC_PRECISION FP16

    @classmethod
    def from_fields(cls, fields: Mapping[str, Mapping[str, int]], atom_bytes: int = 8,
                    precisions: tuple[str, ...] = ("INT8",),
                    features: SdpFeatures | None = None) -> SdpConfig:
        """The configuration the registers describe; `precisions`: those the NVDLA configuration has;
        `features`: its SDP (without EW the Y block is bypassed whatever EW_BYPASS says, and ERDMA never
        read; without the LUT, EW_LUT_BYPASS likewise: NVIDIA's cfg_ew_en / LUT enables are constants
        then)."""
        sdp = dict(fields.get("SDP", {}))
        rdma = fields.get("SDP_RDMA", {})
        if features is not None and not features.ew:
            sdp["D_DP_EW_CFG.EW_BYPASS"] = 1
        if features is not None and not features.lut:
            sdp["D_DP_EW_CFG.EW_LUT_BYPASS"] = 1
        fields = {**fields, "SDP": sdp}

        def s(name: str, default: int = 0) -> int:
            return int(sdp.get(name, default))

        def r(name: str, default: int = 0) -> int:
            return int(rdma.get(name, default))

        def xblock(p: str) -> XBlock:
            cfg = f"D_DP_{p}_CFG.{p}_"
            return XBlock(
                bypass=bool(s(cfg + "BYPASS", 1)),
                alu_bypass=bool(s(cfg + "ALU_BYPASS", 1)),
                alu_algo=s(cfg + "ALU_ALGO"),
                alu_from_mem=bool(s(f"D_DP_{p}_ALU_CFG.{p}_ALU_SRC")),
                alu_shift=s(f"D_DP_{p}_ALU_CFG.{p}_ALU_SHIFT_VALUE"),
                alu_operand=s(f"D_DP_{p}_ALU_SRC_VALUE.{p}_ALU_OPERAND"),
                mul_bypass=bool(s(cfg + "MUL_BYPASS", 1)),
                mul_prelu=bool(s(cfg + "MUL_PRELU", 1 if p == "BS" else 0)),
                mul_from_mem=bool(s(f"D_DP_{p}_MUL_CFG.{p}_MUL_SRC")),
                mul_shift=s(f"D_DP_{p}_MUL_CFG.{p}_MUL_SHIFT_VALUE"),
                mul_operand=s(f"D_DP_{p}_MUL_SRC_VALUE.{p}_MUL_OPERAND"),
                relu_bypass=bool(s(cfg + "RELU_BYPASS", 1)),
            )

        def ew_cvt(op: str) -> EwConverter:
            return EwConverter(
                bypass=bool(s(f"D_DP_EW_{op}_CFG.EW_{op}_CVT_BYPASS", 1)),
                offset=s(f"D_DP_EW_{op}_CVT_OFFSET_VALUE.EW_{op}_CVT_OFFSET"),
                scale=s(f"D_DP_EW_{op}_CVT_SCALE_VALUE.EW_{op}_CVT_SCALE"),
                truncate=s(f"D_DP_EW_{op}_CVT_TRUNCATE_VALUE.EW_{op}_CVT_TRUNCATE"),
            )

        def dma(p: str, addr: str) -> OperandDma:
            c = f"D_{p}RDMA_CFG.{p}RDMA_"
            return OperandDma(
                enabled=not r(c + "DISABLE", 1),
                data_use=r(c + "DATA_USE"),
                two_byte=bool(r(c + "DATA_SIZE")),
                per_element=r(c + "DATA_MODE") == PER_ELEMENT,
                base=r(f"D_{addr}_BASE_ADDR_LOW.{addr}_BASE_ADDR_LOW"),
                line_stride=r(f"D_{addr}_LINE_STRIDE.{addr}_LINE_STRIDE"),
                surface_stride=r(f"D_{addr}_SURFACE_STRIDE.{addr}_SURFACE_STRIDE"),
                ram_mc=bool(r(c + "RAM_TYPE", 1)),
            )

        ew = EwBlock(
            bypass=bool(s("D_DP_EW_CFG.EW_BYPASS", 1)),
            alu_bypass=bool(s("D_DP_EW_CFG.EW_ALU_BYPASS", 1)),
            alu_algo=s("D_DP_EW_CFG.EW_ALU_ALGO"),
            alu_from_mem=bool(s("D_DP_EW_ALU_CFG.EW_ALU_SRC")),
            alu_operand=s("D_DP_EW_ALU_SRC_VALUE.EW_ALU_OPERAND"),
            alu_cvt=ew_cvt("ALU"),
            mul_bypass=bool(s("D_DP_EW_CFG.EW_MUL_BYPASS", 1)),
            mul_prelu=bool(s("D_DP_EW_CFG.EW_MUL_PRELU")),
            mul_from_mem=bool(s("D_DP_EW_MUL_CFG.EW_MUL_SRC")),
            mul_operand=s("D_DP_EW_MUL_SRC_VALUE.EW_MUL_OPERAND"),
            mul_cvt=ew_cvt("MUL"),
            truncate=s("D_DP_EW_TRUNCATE_VALUE.EW_TRUNCATE"),
            lut_bypass=bool(s("D_DP_EW_CFG.EW_LUT_BYPASS", 1)),
        )
        cfg = cls(
            width=s("D_DATA_CUBE_WIDTH.WIDTH") + 1,
            height=s("D_DATA_CUBE_HEIGHT.HEIGHT") + 1,
            channels=s("D_DATA_CUBE_CHANNEL.CHANNEL") + 1,
            **surface_fields(r, "src"),
            flying_in=bool(s("D_FEATURE_MODE_CFG.FLYING_MODE")),
            **surface_fields(s, "dst"),
            to_pdp=bool(s("D_FEATURE_MODE_CFG.OUTPUT_DST")),
            bs=xblock("BS"),
            bn=xblock("BN"),
            ew=ew,
            cvt=OutputCvt(s("D_CVT_OFFSET.CVT_OFFSET"), s("D_CVT_SCALE.CVT_SCALE"),
                          s("D_CVT_SHIFT.CVT_SHIFT")),
            brdma=dma("B", "BS"),
            nrdma=dma("N", "BN"),
            erdma=dma("E", "EW"),
            lut_fields={k: int(v) for k, v in sdp.items() if k.startswith("S_LUT_")},
            atom_bytes=atom_bytes,
            src_ram_mc=bool(r("D_SRC_DMA_CFG.SRC_RAM_TYPE", 1)),
            dst_ram_mc=bool(s("D_DST_DMA_CFG.DST_RAM_TYPE", 1)),
            in_precision=s("D_DATA_FORMAT.PROC_PRECISION"),
            out_precision=s("D_DATA_FORMAT.OUT_PRECISION"),
            src_precision=_src_precision(sdp, rdma),
            # the C model gates the flush with PROC_PRECISION FP16 (NVIDIA's INT8 traces set it to 1)
            nan_to_zero=bool(s("D_FEATURE_MODE_CFG.NAN_TO_ZERO"))
            and s("D_DATA_FORMAT.PROC_PRECISION") == FP16,
        )
        validate(cfg, fields, precisions)
        return cfg

    @property
    def in_elem_bytes(self) -> int:
        return 2 if self.in_precision != INT8 else 1

    @property
    def out_elem_bytes(self) -> int:
        return 2 if self.out_precision != INT8 else 1

    @property
    def src_elem_bytes(self) -> int:
        """Bytes of an input element in memory (two in the 16to8 mode, else the processing precision's)."""
        return self.in_elem_bytes if self.src_precision is None else 2

    @property
    def src_lanes(self) -> int:
        """Input elements per memory atom as SDP_RDMA reads them."""
        return self.atom_bytes // self.src_elem_bytes

    @property
    def lanes(self) -> int:
        """Elements per atom of the processing precision (the operands' per-element layout follows it)."""
        return self.atom_bytes // self.in_elem_bytes

    @property
    def out_lanes(self) -> int:
        return self.atom_bytes // self.out_elem_bytes


    @property
    def is_1x1(self) -> bool:
        return self.width == 1 and self.height == 1


def _src_precision(sdp: Mapping[str, int], rdma: Mapping[str, int]) -> int | None:
    """SDP_RDMA IN_PRECISION in the 16to8 mode (INT16 read, INT8 processing), else None."""
    rdma_in = int(rdma.get("D_FEATURE_MODE_CFG.IN_PRECISION", 0))
    proc = int(sdp.get("D_DATA_FORMAT.PROC_PRECISION", 0))
    flying = bool(sdp.get("D_FEATURE_MODE_CFG.FLYING_MODE", 0))
    return INT16 if (rdma_in, proc) == (INT16, INT8) and not flying else None


def advisories(cfg: SdpConfig) -> list[str]:
    """Limitation rules whose violation still has a defined result, so they are reported, not raised.

    "If PReLU is enabled for one sub-unit, the ALU in that unit MUST be bypassed": NVIDIA's own trace
    sdp_3x3x33_bn_int8_reg_2 breaks it and its golden output is ALU -> PReLU, which this model computes.
    """
    found = []
    for name, alu, mul, prelu in (("BS", cfg.bs.alu_active, cfg.bs.mul_active, cfg.bs.mul_prelu),
                                  ("BN", cfg.bn.alu_active, cfg.bn.mul_active, cfg.bn.mul_prelu),
                                  ("EW", cfg.ew.alu_active, cfg.ew.mul_active, cfg.ew.mul_prelu)):
        if mul and prelu and alu:
            found.append(f"SDP {name}: if PReLU is enabled for one sub-unit, the ALU in that unit MUST be "
                         "bypassed")
    if (cfg.in_precision, cfg.out_precision) == (INT16, INT8) and not cfg.flying_in:
        found.append("SDP: NVIDIA's nv_full RTL never completes PROC_PRECISION INT16 with OUT_PRECISION "
                     "INT8; INT16 -> INT8 is SDP_RDMA IN_PRECISION INT16 with PROC_PRECISION INT8 "
                     "(16to8 mode)")
    if (cfg.in_precision, cfg.out_precision) == (FP16, INT8):
        found.append("SDP: NVIDIA's nv_full RTL never completes PROC_PRECISION FP16 with OUT_PRECISION INT8 "
                     "(7 of 7 programs hung; its C model has no FP16 -> INT8 conversion either)")
    if (cfg.in_precision, cfg.out_precision) == (INT8, FP16):
        found.append("SDP: INT8 -> FP16 misplaces the output on NVIDIA's nv_full RTL (its WDMA packs the "
                     "data 8to16 for any 16-bit output, NV_NVDLA_SDP_WDMA_DAT_in, but addresses it 8to16 "
                     "only for INT16, NV_NVDLA_SDP_WDMA_DAT_out/_cmd); INT8 -> INT16 works")
    return found


def _check_precisions(cfg: SdpConfig, sdp: Mapping[str, int], rdma: Mapping[str, int],
                      have: tuple[str, ...]) -> None:
    """Each precision field names one the configuration has and the model computes; SDP_RDMA's copies agree
    with SDP's (IN = PROC for integers: no conversion before the datapath)."""
    fields = {
        "SDP PROC_PRECISION": int(sdp.get("D_DATA_FORMAT.PROC_PRECISION", 0)),
        "SDP OUT_PRECISION": int(sdp.get("D_DATA_FORMAT.OUT_PRECISION", 0)),
        "SDP_RDMA IN_PRECISION": int(rdma.get("D_FEATURE_MODE_CFG.IN_PRECISION", 0)),
        "SDP_RDMA PROC_PRECISION": int(rdma.get("D_FEATURE_MODE_CFG.PROC_PRECISION", 0)),
        "SDP_RDMA OUT_PRECISION": int(rdma.get("D_FEATURE_MODE_CFG.OUT_PRECISION", 0)),
    }
    usable = [p for p in MODELLED if PRECISION_NAMES[p] in have]
    # on the fly with no operand read SDP_RDMA takes no part (the convolution traces leave it at reset)
    idle = cfg.flying_in and all(rdma.get(f"D_{b}_CFG.{b}_DISABLE", 1) for b in ("BRDMA", "NRDMA", "ERDMA"))
    for name, value in fields.items():
        if idle and name.startswith("SDP_RDMA"):
            continue
        if value not in usable:
            raise ConfigError(f"SDP: {name} {PRECISION_NAMES.get(value, value)} is not a precision of this "
                              f"configuration's SDP (it has {', '.join(PRECISION_NAMES[p] for p in usable)}; "
                              "invalid precision conversion)", {name: value})
    proc = fields["SDP PROC_PRECISION"]
    rdma_in = (fields["SDP_RDMA IN_PRECISION"], fields["SDP_RDMA PROC_PRECISION"])
    if not cfg.flying_in and rdma_in != (proc, proc) and cfg.src_precision is None:
        raise ConfigError("SDP: SDP_RDMA IN_PRECISION and PROC_PRECISION must equal SDP's PROC_PRECISION "
                          "(invalid precision conversion)",
                          {k: v for k, v in fields.items() if "IN_" in k or "PROC" in k})
    if not cfg.flying_in and fields["SDP_RDMA OUT_PRECISION"] != fields["SDP OUT_PRECISION"]:
        raise ConfigError("SDP: SDP_RDMA OUT_PRECISION must equal SDP's OUT_PRECISION",
                          {k: v for k, v in fields.items() if "OUT" in k})


def validate(cfg: SdpConfig, fields: Mapping[str, Mapping[str, int]],
             precisions: tuple[str, ...] = ("INT8",)) -> None:
    """SDP rules of seed 001's Limitation section (the precisions: those of the configuration)."""
    sdp = fields.get("SDP", {})
    rdma = fields.get("SDP_RDMA", {})
    _check_precisions(cfg, sdp, rdma, precisions)
    winograd = int(sdp.get("D_FEATURE_MODE_CFG.WINOGRAD", 0))
    batch = int(sdp.get("D_FEATURE_MODE_CFG.BATCH_NUMBER", 0))
    if winograd or batch:
        if not cfg.flying_in:
            raise ConfigError("SDP Winograd/Batch: SDP has to work on the fly with CC",
                              {"WINOGRAD": winograd, "BATCH_NUMBER": batch})
        if cfg.ew.eql:
            # The compare-mode chapter states the same rule from the EQL side, so one check names both.
            raise ConfigError("SDP Winograd/Batch: SDP_Y can't work at EQL mode (EQL: WINOGRAD has to be OFF "
                              "and BATCH_NUMBER has to be 0)",
                              {"EW_ALU_ALGO": ALU_EQL, "WINOGRAD": winograd, "BATCH_NUMBER": batch})
    uses = (
        ("BS", cfg.bs.alu_active and cfg.bs.alu_from_mem, cfg.bs.mul_active and cfg.bs.mul_from_mem,
         cfg.bs.alu_active and not cfg.bs.alu_from_mem, cfg.bs.mul_active and not cfg.bs.mul_from_mem,
         cfg.brdma),
        ("BN", cfg.bn.alu_active and cfg.bn.alu_from_mem, cfg.bn.mul_active and cfg.bn.mul_from_mem,
         cfg.bn.alu_active and not cfg.bn.alu_from_mem, cfg.bn.mul_active and not cfg.bn.mul_from_mem,
         cfg.nrdma),
        ("EW", cfg.ew.alu_active and cfg.ew.alu_from_mem, cfg.ew.mul_active and cfg.ew.mul_from_mem,
         cfg.ew.alu_active and not cfg.ew.alu_from_mem, cfg.ew.mul_active and not cfg.ew.mul_from_mem,
         cfg.erdma),
    )
    for name, alu_mem, mul_mem, alu_reg, mul_reg, dma in uses:
        if (alu_mem or mul_mem) and not dma.enabled:
            raise ConfigError(f"SDP {name}: an operand from memory needs its read DMA enabled",
                              {"ALU_SRC_MEM": int(alu_mem), "MUL_SRC_MEM": int(mul_mem)})
        if dma.enabled and not (alu_mem or mul_mem) and (alu_reg or mul_reg):
            raise ConfigError(f"SDP {name}: when SRC is configured as REG, corresponding RDMA shouldn't be "
                              "enabled", {"ALU_SRC_REG": int(alu_reg), "MUL_SRC_REG": int(mul_reg)})
        if dma.enabled and (alu_mem or mul_mem):
            need = USE_BOTH if (alu_mem and mul_mem) else (USE_ALU if alu_mem else USE_MUL)
            if dma.data_use != need and dma.data_use != USE_BOTH:
                raise ConfigError(f"SDP {name}: RDMA DATA_USE must match the operands taken from memory",
                                  {"DATA_USE": dma.data_use, "needed": need})
    ew = cfg.ew
    fp16 = cfg.in_precision == FP16
    if ew.eql:
        if ew.alu_from_mem and not ew.alu_cvt.bypass and not fp16:
            raise ConfigError("SDP EQL: Y ALU convertor must be bypassed (except FP16)",
                              {"EW_ALU_CVT_BYPASS": 0})
        if not ew.lut_bypass:
            raise ConfigError("SDP EQL: all the operations after ALU should be bypassed",
                              {"EW_LUT_BYPASS": 0})
    for op, active, from_mem, cvt in (("ALU", ew.alu_active, ew.alu_from_mem, ew.alu_cvt),
                                      ("MUL", ew.mul_active, ew.mul_from_mem, ew.mul_cvt)):
        if fp16 and active and from_mem and cvt.bypass:
            raise ConfigError(f"SDP: for PROC_PRECISION==FP16, if EW_{op}_BYPASS==NO && EW_{op}_SRC==MEM, "
                              f"then EW_{op}_CVT_BYPASS must be NO", {f"EW_{op}_CVT_BYPASS": 1})
    identity = (cfg.cvt.offset, cfg.cvt.scale, cfg.cvt.shift) == (0, 1, 0)
    converts = cfg.in_precision != cfg.out_precision and cfg.src_precision is None
    if (cfg.to_pdp or ew.eql) and (converts or not identity):
        raise ConfigError("SDP: precision conversion is not allowed if SDP output to PDP or EQL mode",
                          {"CVT_OFFSET": cfg.cvt.offset, "CVT_SCALE": cfg.cvt.scale,
                           "CVT_SHIFT": cfg.cvt.shift, "PROC_PRECISION": cfg.in_precision,
                           "OUT_PRECISION": cfg.out_precision, "OUTPUT_DST_PDP": int(cfg.to_pdp),
                           "EQL": int(ew.eql)})
    if batch:
        _check_batch_alignment(cfg)
    if winograd or batch:
        raise ConfigError("SDP: nv_small has no Winograd and no multi-batch",
                          {"WINOGRAD": winograd, "BATCH_NUMBER": batch})
    if not cfg.flying_in:
        for name, value in (("WIDTH", cfg.width), ("HEIGHT", cfg.height), ("CHANNEL", cfg.channels)):
            got = int(rdma.get(f"D_DATA_CUBE_{name}.{name}", value - 1)) + 1
            if got != value:
                raise ConfigError(f"SDP_RDMA D_DATA_CUBE_{name} must equal SDP's",
                                  {"SDP_RDMA": got, "SDP": value})


BATCH_ALIGN = 64


def _check_batch_alignment(cfg: SdpConfig) -> None:
    """Seed 001, SDP Winograd/Batch: with multi-batch the output and operand addresses are 64-byte aligned."""
    regs = {"DST_BASE_ADDR": cfg.dst_base, "DST_LINE_STRIDE": cfg.dst_line_stride,
            "DST_SURFACE_STRIDE": cfg.dst_surface_stride, "BS_BASE_ADDR": cfg.brdma.base,
            "BN_BASE_ADDR": cfg.nrdma.base, "EW_BASE_ADDR": cfg.erdma.base}
    misaligned = {name: value for name, value in regs.items() if value % BATCH_ALIGN}
    if misaligned:
        raise ConfigError("SDP: if multi-batch is enabled, DST_BASE_ADDR, DST_LINE_STRIDE, "
                          "DST_SURFACE_STRIDE and BS/BN/EW_BASE_ADDR have to be 64 bytes aligned", misaligned)


def check_memory_layout(cfg: SdpConfig) -> None:
    """Data-format rules (alignment, line/surface strides) on every cube the SDP DMAs touch.

    run_sdp checks them before it touches memory; from_fields does not, because sdp_compute (the pure array
    function benches score streams with) needs no memory layout. Checked: the input when it comes from
    memory, the output when it goes to memory (not to PDP, not in EQL mode), and each operand read from
    memory (per element: a cube of 1, 2 or 4 bytes per element; per kernel: one block from its base).
    A 1x1 input, output or per-element operand cube is read and written packed whatever its strides say
    (NVIDIA's C model reads a 1x1 input as one per-kernel block; the operand RDMAs of nvdlav1's RTL read a
    1x1 cube in one request), so only its base address counts.
    """
    atom, lanes = cfg.atom_bytes, cfg.lanes
    cube = {"width": cfg.width, "height": cfg.height, "channels": cfg.channels, "atom_bytes": lanes,
            "align": atom}
    packed = {"width": 1, "height": 1, "channels": 1, "atom_bytes": lanes, "align": atom}
    feature = packed if cfg.is_1x1 else cube
    if not cfg.flying_in:
        check_layout("SDP", "SRC", cfg.src_base, cfg.src_line_stride, cfg.src_surface_stride,
                     elem_bytes=cfg.src_elem_bytes, **{**feature, "atom_bytes": cfg.src_lanes})
    if not (cfg.ew.eql or cfg.to_pdp):
        check_layout("SDP", "DST", cfg.dst_base, cfg.dst_line_stride, cfg.dst_surface_stride,
                     elem_bytes=cfg.out_elem_bytes, **{**feature, "atom_bytes": cfg.out_lanes})
    for name, blk, dma in (("BS", cfg.bs, cfg.brdma), ("BN", cfg.bn, cfg.nrdma), ("EW", cfg.ew, cfg.erdma)):
        from_mem = (blk.alu_active and blk.alu_from_mem) or (blk.mul_active and blk.mul_from_mem)
        if not (from_mem and dma.enabled):
            continue
        dims = cube if dma.per_element and not cfg.is_1x1 else packed
        check_layout("SDP", name, dma.base, dma.line_stride, dma.surface_stride,
                     elem_bytes=dma.bytes_per_element, **dims)


@dataclass(frozen=True)
class SdpResult:
    output: NDArray[np.int64]
    """[padded channels, h, w]: int8 values, or the EQL compare result (0/1)."""
    saturation_count: int
    status_unequal: bool
    lut_stats: dict[str, int]
    written: bool
    """False when nothing goes to memory (EQL mode, or output to PDP)."""
    status: dict[str, int] = field(default_factory=dict)
    """FP16's D_STATUS_NAN_INPUT_NUM, D_STATUS_INF_INPUT_NUM, D_STATUS_NAN_OUTPUT_NUM."""

    @property
    def flying_output(self) -> NDArray[np.int8] | None:
        """The cube handed to PDP when OUTPUT_DST is PDP."""
        return None if self.written else self.output.astype(np.int8)


def _lut_config(cfg: SdpConfig,
                tables: tuple[NDArray[np.integer], NDArray[np.integer]] | None) -> LutConfig | None:
    """The EW LUT's configuration (S_LUT_* decoded and checked against its Limitation rows), or None when
    the LUT is not used or no tables were given."""
    if cfg.ew.bypass or cfg.ew.lut_bypass or tables is None:
        return None
    return LutConfig.from_fields({"SDP": cfg.lut_fields}, "SDP", tables, PRECISION_NAMES[cfg.in_precision])


def _lut_fn(cfg: SdpConfig,
            tables: tuple[NDArray[np.integer], NDArray[np.integer]] | None) -> LutFn | None:
    """The EW LUT as a function of the 32-bit data, or None (then the EW LUT path raises).

    The S_LUT_* registers are decoded (and checked against the LUT Limitation rules, raising ConfigError)
    by models/lut/model.py; the function returns the 32-bit LUT output and the D_PERF_LUT_* counts.
    """
    lut_cfg = _lut_config(cfg, tables)
    if lut_cfg is None:
        return None

    def fn(x: NDArray[np.int64]) -> tuple[NDArray[np.int64], dict[str, int]]:
        res = lut_lookup(x, lut_cfg)
        return res.output, res.counts

    return fn


def sdp_compute(cube: NDArray[np.integer], cfg: SdpConfig, ops: Operands | None = None,
                lut: LutFn | None = None,
                lut_tables: tuple[NDArray[np.integer], NDArray[np.integer]] | None = None) -> DatapathResult:
    """The SDP data path on an input cube [c, h, w] with memory operands broadcastable to it."""
    if cfg.in_precision == FP16:
        from models.sdp.fp16 import sdp_fp16
        r = sdp_fp16(cube, cfg.bs, cfg.bn, cfg.ew, ops, cfg.nan_to_zero, out_int16=cfg.out_precision == INT16,
                     lut=_lut_config(cfg, lut_tables))
        return DatapathResult(r.data, r.saturation_count, r.unequal, r.lut_stats, r.status)
    fn = lut if lut is not None else _lut_fn(cfg, lut_tables)
    if cfg.out_precision == FP16:   # INT -> FP16: the convertor's 17-bit result rounded to FP16 (sdp_c.cpp)
        return sdp_datapath(cube, cfg.bs, cfg.bn, cfg.ew, cfg.cvt, ops, fn, out_bits=17, out_fp16=True)
    return sdp_datapath(cube, cfg.bs, cfg.bn, cfg.ew, cfg.cvt, ops, fn, out_bits=8 * cfg.out_elem_bytes)


def _read_feature(mem: object, base: int, line_stride: int, surface_stride: int, width: int, height: int,
                  surfaces: int, atom: int, elem_bytes: int, contiguous: bool) -> NDArray[np.uint8]:
    """Read [surfaces, height, width, atom * elem_bytes] bytes (contiguous: a packed cube)."""
    channels = surfaces * atom
    layout = (CubeLayout.packed(base, width, height, channels, atom, elem_bytes) if contiguous
              else CubeLayout(base, line_stride, surface_stride, width, height, channels, atom, elem_bytes))
    return layout.read_atoms(mem)  # type: ignore[arg-type]


def dst_layout(cfg: SdpConfig) -> CubeLayout:
    """The output cube in memory: a 1x1 cube is written packed (surfaces back to back from the base)."""
    if cfg.is_1x1:
        return CubeLayout.packed(cfg.dst_base, cfg.width, cfg.height, cfg.channels, cfg.out_lanes,
                                 cfg.out_elem_bytes)
    return CubeLayout(cfg.dst_base, cfg.dst_line_stride, cfg.dst_surface_stride, cfg.width, cfg.height,
                      cfg.channels, cfg.out_lanes, cfg.out_elem_bytes)


def _to_cube(raw: NDArray[np.uint8], two_byte: bool, ways: int, atom: int) -> list[IntArray]:
    """Bytes [s, h, w, atom*bpe] -> per component int arrays [s*atom, h, w] (sign-extended)."""
    s, h, w, _ = raw.shape
    if two_byte:
        vals = raw.reshape(s, h, w, atom * ways, 2).copy().view("<i2")[..., 0].astype(np.int64)
    else:
        vals = raw.view(np.int8).astype(np.int64)
    # Both components of an element are adjacent (ALU first, then MUL), an assumption no trace checks.
    vals = vals.reshape(s, h, w, atom, ways)
    return [vals[..., k].transpose(0, 3, 1, 2).reshape(s * atom, h, w) for k in range(ways)]


def _read_operands(cfg: SdpConfig, mem: object, sec_mem: object | None) -> Operands:
    found: dict[str, IntArray] = {}
    blocks = (("bs", cfg.bs, cfg.brdma), ("bn", cfg.bn, cfg.nrdma), ("ew", cfg.ew, cfg.erdma))
    for name, blk, dma in blocks:
        alu_mem = blk.alu_active and blk.alu_from_mem
        mul_mem = blk.mul_active and blk.mul_from_mem
        if not (alu_mem or mul_mem) or not dma.enabled:
            continue
        ways = 2 if dma.data_use == USE_BOTH else 1
        src = pick_memory(dma.ram_mc, mem, sec_mem)
        if dma.per_element:
            # A 1x1 cube's per-element operand is one packed block like its input (nvdlav1 vmod
            # NV_NVDLA_SDP_{B,N,E}RDMA_ig: cfg_mode_1x1_pack ends the cube at the first request).
            raw = _read_feature(src, dma.base, dma.line_stride, dma.surface_stride, cfg.width, cfg.height,
                                cfg.surfaces, cfg.lanes, dma.bytes_per_element, cfg.is_1x1)
        else:
            # Per kernel: one contiguous block of per-channel values, strides unused.
            raw = _read_feature(src, dma.base, 0, 0, 1, 1, cfg.surfaces, cfg.lanes,
                                dma.bytes_per_element, True)
        comps = _to_cube(raw, dma.two_byte, ways, cfg.lanes)
        if ways == 2:
            found[f"{name}_alu"], found[f"{name}_mul"] = comps
        elif dma.data_use == USE_ALU:
            found[f"{name}_alu"] = comps[0]
        else:
            found[f"{name}_mul"] = comps[0]
    return Operands(**found)


def read_inputs(cfg: SdpConfig, mem: object, sec_mem: object | None = None) -> tuple[IntArray, Operands]:
    """What a layer from memory reads: the input cube [padded channels, h, w] and the memory operands."""
    lanes = cfg.src_lanes
    surfaces = -(-cfg.channels // lanes)
    raw = _read_feature(pick_memory(cfg.src_ram_mc, mem, sec_mem), cfg.src_base, cfg.src_line_stride,
                        cfg.src_surface_stride, cfg.width, cfg.height, surfaces, lanes,
                        cfg.src_elem_bytes, cfg.is_1x1)
    cube = _to_cube(raw, cfg.src_elem_bytes == 2, 1, lanes)[0]
    # 16to8: the INT8 processing pads to 32 lanes; the lanes past the last 16-lane surface read nothing (0)
    padded = np.zeros((cfg.padded_channels, *cube.shape[1:]), dtype=np.int64)
    padded[:cube.shape[0]] = cube
    return padded, _read_operands(cfg, mem, sec_mem)


def run_sdp(cfg: SdpConfig, mem: object, flying_input: NDArray[np.integer] | None = None,
            sec_mem: object | None = None,
            lut_tables: tuple[NDArray[np.integer], NDArray[np.integer]] | None = None) -> SdpResult:
    """Run one SDP hardware layer.

    Every DMA side whose RAM_TYPE is CV (the input, each operand, the output) uses `sec_mem` when one is given
    (a trace's second memory; models.common.memory.pick_memory), else `mem`.
    `lut_tables` holds the LE (65) and LO (257) raw 16-bit entries programmed through S_LUT_ACCESS_*.
    """
    check_memory_layout(cfg)
    if cfg.flying_in:
        if flying_input is None:
            raise ValueError("SDP input is on the fly from the convolution pipeline: pass flying_input")
        cube, ops = np.asarray(flying_input, dtype=np.int64), _read_operands(cfg, mem, sec_mem)
    else:
        cube, ops = read_inputs(cfg, mem, sec_mem)
    res = sdp_compute(cube, cfg, ops, lut_tables=lut_tables)
    written = not (cfg.ew.eql or cfg.to_pdp)
    if written:
        out = dst_layout(cfg)
        # INT8 in -> INT16 out: the input's 32-lane padding can exceed the output's 16-lane surfaces; the
        # channels past the output's last surface are not written.
        data = res.data[:out.surfaces * out.atom_bytes]
        out.write(pick_memory(cfg.dst_ram_mc, mem, sec_mem),  # type: ignore[arg-type]
                  data.astype(np.int8 if cfg.out_elem_bytes == 1 else np.int16))
    return SdpResult(res.data, res.saturation_count, res.unequal, res.lut_stats, written, res.status)
