"""Bit-exact model of NVDLA's CDP (cross-channel data processor: local response normalization), INT8 and
INT16.

Data path per element (NVIDIA's C model cmod/cdp/NV_NVDLA_cdp.cpp lookup_lut_int8 with the HLS convertors
cmod/hls/cdp_libs/cdp_icvt.cpp and cdp_ocvt.cpp; notes/nvdla-arithmetic.md):
1. input convertor: x9 = sat9(rnd((x - int8(DATIN_OFFSET)) * DATIN_SCALE >> DATIN_SHIFTER)); channels
   outside [0, C) (the window's reach past either end, and the padding lanes of the last atom) read as
   DATIN_OFFSET, so they convert to 0;
2. square sum over NORMALZ_LEN = 3/5/7/9 channels centred on the element (SQSUM_BYPASS: x9 itself);
3. the hybrid LUT (models/lut/model.py, CDP flavour) on that sum: a 16-bit result;
4. multiply by x9 (MUL_BYPASS: the LUT result alone), 25 bits;
5. output convertor: sat8(rnd((v - DATOUT_OFFSET[24:0]) * DATOUT_SCALE >> DATOUT_SHIFTER)).
Every lane of every output atom is written. The saturation count follows the HLS convertor's flag: an
output counts when floor(v' / 2^shift) differs from the int8 result by more than one (so 128 -> 127 does not
count); nv_small's D_OUT_SATURATION register itself reads 0 (the regmap README), the count is the
datapath's. The LUT counts do not depend on D_PERF_ENABLE.LUT_EN (the CDP RTL leaves it unused and the C
model counts unconditionally).

INT16 (nvdlav1 cmod/cdp/NV_NVDLA_cdp.cpp lookup_lut, cdp_icvt/cdp_ocvt at INT16) is the same path at wider
widths (`Widths`): two-byte elements (an atom holds atom_bytes / 2), DATIN_OFFSET int16, a 17-bit input
convertor result, squares of 33 bits summed in the 38-bit LUT input, the LUT result times x17 (33 bits),
DATOUT_OFFSET 32 bits and the output saturated to int16. The LUT's INDEX_SELECT/OFFSET ranges are the
INT16 rows of seed 001 (models/lut/model.py). The interpolator carries 8 lanes, of which a 16-bit layer uses
4: the
other 4 look "both hit" and D_PERF_LUT_HYBRID counts them too, one more per element (NVIDIA's nv_full RTL,
NV_NVDLA_CDP_DP_intp.v both_hybrid_flag; checked by the traces/nv_full_ref programs).

FP16 is models/cdp/fp16.py (floats from the input to the output, the LUT at FP16: models/lut/fp16.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from models.cdp.fp16 import cdp_fp16
from models.common.cube import AtomLanes, CubeLayout, check_layout, surface_fields
from models.common.memory import pick_memory
from models.common.nvfloat import FP16 as FP16_FORMAT
from models.common.precision import ConvertorParams, as_signed, convert
from models.errors import ConfigError
from models.lut.model import FULL, NARROW, PAIRED_LOW, LutConfig, LutResult, lut_lookup
from models.lut.model import advisories as lut_advisories

IntArray = NDArray[np.int64]

INT8, INT16, FP16 = 0, 1, 2
PRECISION_NAMES = {INT8: "INT8", INT16: "INT16", FP16: "FP16"}


@dataclass(frozen=True)
class Widths:
    """The bit widths of one precision's integer path (cmod lookup_lut_int8 / lookup_lut)."""

    elem_bytes: int
    in_offset_bits: int    # DATIN_OFFSET as the input convertor takes it
    in_cvt_bits: int       # the input convertor's saturated result
    out_offset_bits: int   # DATOUT_OFFSET as the output convertor takes it
    out_bits: int          # the output element


# FP16 (models/cdp/fp16.py) uses none of the convertor widths; its registers have INT16's.
WIDTHS = {INT8: Widths(1, 8, 9, 25, 8), INT16: Widths(2, 16, 17, 32, 16), FP16: Widths(2, 16, 17, 32, 16)}


def _field(fields: Mapping[str, Mapping[str, int]], unit: str, name: str, default: int = 0) -> int:
    return int(fields.get(unit, {}).get(name, default))


@dataclass(frozen=True)
class CdpConfig(AtomLanes):
    """CDP configuration; sizes in elements (register value + 1 applied), converter fields raw."""

    width: int
    height: int
    channels: int
    src_base: int
    src_line_stride: int
    src_surface_stride: int
    dst_base: int
    dst_line_stride: int
    dst_surface_stride: int
    local_size: int
    sqsum_bypass: bool
    mul_bypass: bool
    datin_offset: int
    datin_scale: int
    datin_shifter: int
    datout_offset: int
    datout_scale: int
    datout_shifter: int
    lut: LutConfig
    atom_bytes: int = 8
    src_ram_mc: bool = True   # CDP_RDMA SRC_RAM_TYPE: MC, the primary memory (else CV, the CV SRAM)
    dst_ram_mc: bool = True   # CDP DST_RAM_TYPE
    precision: int = INT8     # D_DATA_FORMAT.INPUT_DATA_TYPE (= CDP_RDMA INPUT_DATA)
    int8_lut: str = "narrow"  # the configuration's cdp_int8_lut (lut_lanes)
    nan_to_zero: bool = False  # D_NAN_FLUSH_TO_ZERO (FP16 only)

    @classmethod
    def from_fields(cls, fields: Mapping[str, Mapping[str, int]], atom_bytes: int = 8,
                    tables: tuple[ArrayLike, ArrayLike] | None = None,
                    precisions: tuple[str, ...] = ("INT8",), int8_lut: str = "narrow") -> CdpConfig:
        """Decode CDP and CDP_RDMA fields; `tables` are the (LE, LO) entries programmed into the LUT RAM;
        `precisions` and `int8_lut`: those of the NVDLA configuration (configs.py)."""
        def c(name: str, default: int = 0) -> int:
            return _field(fields, "CDP", name, default)

        def r(name: str, default: int = 0) -> int:
            return _field(fields, "CDP_RDMA", name, default)

        formats = {"CDP INPUT_DATA_TYPE": c("D_DATA_FORMAT.INPUT_DATA_TYPE", 1),
                   "CDP_RDMA INPUT_DATA": r("D_DATA_FORMAT.INPUT_DATA")}
        usable = [p for p, name in PRECISION_NAMES.items() if name in precisions]
        for name, value in formats.items():
            if value not in usable:
                raise ConfigError(f"CDP: {name} {PRECISION_NAMES.get(value, value)} is not a precision of "
                                  f"this configuration's CDP (it has "
                                  f"{', '.join(PRECISION_NAMES[p] for p in usable)}; invalid precision "
                                  "conversion)", {name: value})
        precision = formats["CDP INPUT_DATA_TYPE"]
        if formats["CDP_RDMA INPUT_DATA"] != precision:
            raise ConfigError("CDP: CDP_RDMA INPUT_DATA must equal CDP's INPUT_DATA_TYPE (invalid precision "
                              "conversion)", formats)
        normalz = c("D_LRN_CFG.NORMALZ_LEN")
        if not 0 <= normalz <= 3:
            raise ConfigError("CDP: maximum supported local_size is 9", {"NORMALZ_LEN": normalz})
        cfg = cls(
            width=r("D_DATA_CUBE_WIDTH.WIDTH") + 1,
            height=r("D_DATA_CUBE_HEIGHT.HEIGHT") + 1,
            channels=r("D_DATA_CUBE_CHANNEL.CHANNEL") + 1,
            **surface_fields(r, "src"),
            **surface_fields(c, "dst"),
            local_size=2 * normalz + 3,
            sqsum_bypass=bool(c("D_FUNC_BYPASS.SQSUM_BYPASS")),
            mul_bypass=bool(c("D_FUNC_BYPASS.MUL_BYPASS")),
            datin_offset=c("D_DATIN_OFFSET.DATIN_OFFSET"),
            datin_scale=c("D_DATIN_SCALE.DATIN_SCALE", 1),
            datin_shifter=c("D_DATIN_SHIFTER.DATIN_SHIFTER"),
            datout_offset=c("D_DATOUT_OFFSET.DATOUT_OFFSET"),
            datout_scale=c("D_DATOUT_SCALE.DATOUT_SCALE", 1),
            datout_shifter=c("D_DATOUT_SHIFTER.DATOUT_SHIFTER"),
            lut=LutConfig.from_fields(fields, "CDP", tables, PRECISION_NAMES[precision]),
            atom_bytes=atom_bytes,
            src_ram_mc=bool(r("D_SRC_DMA_CFG.SRC_RAM_TYPE", 1)),
            dst_ram_mc=bool(c("D_DST_DMA_CFG.DST_RAM_TYPE", 1)),
            precision=precision,
            int8_lut=int8_lut,
            nan_to_zero=bool(c("D_NAN_FLUSH_TO_ZERO.NAN_TO_ZERO")) and precision == FP16,
        )
        validate(cfg)
        return cfg

    @property
    def widths(self) -> Widths:
        return WIDTHS[self.precision]


def validate(cfg: CdpConfig) -> None:
    """Seed 001's Limitation rules that a CDP layer can break (the LUT's are checked by LutConfig)."""
    dims = {"width": cfg.width, "height": cfg.height, "channels": cfg.channels, "atom_bytes": cfg.lanes,
            "elem_bytes": cfg.widths.elem_bytes, "align": cfg.atom_bytes}
    check_layout("CDP", "SRC", cfg.src_base, cfg.src_line_stride, cfg.src_surface_stride, **dims)
    check_layout("CDP", "DST", cfg.dst_base, cfg.dst_line_stride, cfg.dst_surface_stride, **dims)


def advisories(cfg: CdpConfig) -> list[str]:
    """Rules the seed states whose violation still has a defined result: reported, not raised.

    "For 1x1xC cube, it should always be line_packed and surf_packed": NVIDIA's trace cdp_1x1x1_lrn3_int8_0
    uses a 1x1x1 cube with 256-byte line and 2 KB surface strides, and its golden output is the plain
    strided layout this model writes.
    """
    found = lut_advisories(cfg.lut)
    if cfg.width == 1 and cfg.height == 1:
        packed = cfg.atom_bytes
        for side, line, surf in (("SRC", cfg.src_line_stride, cfg.src_surface_stride),
                                 ("DST", cfg.dst_line_stride, cfg.dst_surface_stride)):
            if line != packed or (cfg.surfaces > 1 and surf != packed):
                found.append(f"CDP: for 1x1xC cube, it should always be line_packed and surf_packed "
                             f"({side}_LINE_STRIDE={line}, {side}_SURFACE_STRIDE={surf})")
    return found


@dataclass(frozen=True)
class CdpResult:
    output: NDArray[np.int8] | NDArray[np.int16]
    """[padded channels, h, w] int8 or int16 (the precision's), every lane of every atom."""
    out_saturation: int
    le_hit: int
    lo_hit: int
    uflow: int
    oflow: int
    hybrid: int
    lut: LutResult | None = None
    """The LUT lookup with its per-element debug arrays."""
    nan_input: int = 0
    inf_input: int = 0
    nan_output: int = 0
    """FP16: NaN and infinite lanes read (padding lanes included) and NaN lanes written, this layer's."""

    @property
    def lut_counts(self) -> dict[str, int]:
        return {"le_hit": self.le_hit, "lo_hit": self.lo_hit, "uflow": self.uflow, "oflow": self.oflow,
                "hybrid": self.hybrid}


def input_convert(cube: ArrayLike, cfg: CdpConfig) -> IntArray:
    """cdp_in_cvt on a cube [c, h, w] of the precision; lanes at or beyond CHANNEL convert as DATIN_OFFSET
    (to 0)."""
    x = np.asarray(cube, dtype=np.int64)
    w = cfg.widths
    params = ConvertorParams(cfg.datin_offset, cfg.datin_scale, cfg.datin_shifter & 0x1F,
                             out_bits=w.in_cvt_bits, offset_bits=w.in_offset_bits, scale_bits=16)
    x9 = convert(x, params).value
    x9[cfg.channels:] = 0
    return x9


def square_sum(x9: IntArray, local_size: int) -> IntArray:
    """Sum of squares over local_size channels centred on each channel; channels outside the cube are 0."""
    half = local_size // 2
    sq = x9 * x9
    padded = np.concatenate([np.zeros((half, *sq.shape[1:]), dtype=np.int64), sq,
                             np.zeros((half, *sq.shape[1:]), dtype=np.int64)])
    csum = np.concatenate([np.zeros((1, *sq.shape[1:]), dtype=np.int64), np.cumsum(padded, axis=0)])
    n = sq.shape[0]
    return csum[local_size:local_size + n] - csum[:n]


def output_convert(v: IntArray, cfg: CdpConfig) -> tuple[IntArray, int]:
    """cdp_out_cvt: (values of the precision, saturation count as the HLS convertor flags it)."""
    shift = cfg.datout_shifter & 0x3F
    w = cfg.widths
    params = ConvertorParams(cfg.datout_offset, cfg.datout_scale, shift, out_bits=w.out_bits,
                             offset_bits=w.out_offset_bits, scale_bits=16)
    out = convert(v, params).value
    product = (v - as_signed(cfg.datout_offset, w.out_offset_bits)) * as_signed(cfg.datout_scale, 16)
    floor = np.right_shift(product, shift)
    flagged = np.abs(floor - out) > 1
    return out, int(np.count_nonzero(flagged))


def lut_lanes(cfg: CdpConfig, channels: int) -> IntArray:
    """Per channel (first axis), how its LUT lane forms x - START (models/lut/model.py): INT16 the whole
    START;
    INT8 START[21:0] (NARROW) on the master branch's designs, and on nvdlav1's (configuration key
    cdp_int8_lut = "paired") the whole START with a cut difference on even channels (PAIRED_LOW), the
    narrow one on odd channels: its LUT control pairs two INT8 channels in one INT16 lane."""
    if cfg.precision != INT8:
        return np.full((channels, 1, 1), FULL, dtype=np.int8)
    kinds = np.full((channels, 1, 1), NARROW, dtype=np.int8)
    if cfg.int8_lut == "paired":
        kinds[0::2] = PAIRED_LOW
    return kinds


def cdp_compute(cube: ArrayLike, cfg: CdpConfig) -> CdpResult:
    """LRN on a cube [c, h, w] of the precision (c: at least CHANNEL; normally the padded channel count)."""
    if cfg.precision == FP16:
        return cdp_fp16_result(cube, cfg)
    x9 = input_convert(cube, cfg)
    lut_in = x9 if cfg.sqsum_bypass else square_sum(x9, cfg.local_size)
    looked = lut_lookup(lut_in, cfg.lut, lut_lanes(cfg, lut_in.shape[0]))
    v = looked.output if cfg.mul_bypass else looked.output * x9
    out, sat = output_convert(v, cfg)
    dtype = np.int8 if cfg.widths.out_bits == 8 else np.int16
    # at INT16 the interpolator's 4 unused lanes of 8 count as hybrid too (one per element)
    hybrid = looked.hybrid + (looked.output.size if cfg.widths.elem_bytes == 2 else 0)
    return CdpResult(out.astype(dtype), sat, looked.le_hit, looked.lo_hit, looked.uflow_count,
                     looked.oflow_count, hybrid, looked)


def run_cdp(cfg: CdpConfig, mem: object, sec_mem: object | None = None) -> CdpResult:
    """Run one CDP layer: read the cube through CDP_RDMA, normalize, write every lane of every atom.
    A side whose RAM_TYPE is CV uses `sec_mem` when one is given (models.common.memory.pick_memory)."""
    src, dst = cube_layouts(cfg)
    res = cdp_compute(src.read_lanes(pick_memory(cfg.src_ram_mc, mem, sec_mem)), cfg)  # type: ignore[arg-type]
    dst.write(pick_memory(cfg.dst_ram_mc, mem, sec_mem), res.output)  # type: ignore[arg-type]
    return res


def cube_layouts(cfg: CdpConfig) -> tuple[CubeLayout, CubeLayout]:
    """(source, destination) cubes of a CDP layer (same size: LRN runs across channels)."""
    dims = (cfg.width, cfg.height, cfg.channels, cfg.lanes, cfg.widths.elem_bytes)
    return (CubeLayout(cfg.src_base, cfg.src_line_stride, cfg.src_surface_stride, *dims),
            CubeLayout(cfg.dst_base, cfg.dst_line_stride, cfg.dst_surface_stride, *dims))


def cdp_fp16_result(cube: ArrayLike, cfg: CdpConfig) -> CdpResult:
    """cdp_compute at FP16 (models/cdp/fp16.py): the output, the LUT counts and this layer's NaN/infinity
    counts."""
    h = np.asarray(cube, dtype=np.int64) & 0xFFFF
    out16, looked = cdp_fp16(h, cfg.channels, cfg.local_size, cfg.sqsum_bypass, cfg.mul_bypass,
                             cfg.nan_to_zero, cfg.lut)
    # magnitude 65504 is cvtout's FP16 saturation flag; the hybrid count: see cdp_compute (INT16)
    saturated = int(np.count_nonzero((out16 & 0x7FFF) == 0x7BFF))
    nans_in = int(np.count_nonzero(FP16_FORMAT.is_nan(h)))
    infs_in = int(np.count_nonzero(FP16_FORMAT.is_inf(h)))
    nans_out = int(np.count_nonzero(FP16_FORMAT.is_nan(out16)))
    return CdpResult(out16.astype(np.uint16).view(np.int16), saturated, looked.le_hit, looked.lo_hit,
                     looked.uflow_count, looked.oflow_count, looked.hybrid + looked.output.size, looked,
                     nans_in, infs_in, nans_out)
