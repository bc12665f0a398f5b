"""The SDP data path (INT8 processing), as pure array functions.

Order and widths follow NVIDIA's C model (cmod/hls/sdp) and were checked against the golden trace CRCs:
- X blocks (BS, BN): ALU (16-bit operand << shift, saturated to 32 bits; max/min/sum on 33 bits)
  -> MUL (33 x 16 bits) -> truncate (round half away from zero, saturate to 32 bits) -> ReLU.
  The truncate runs even when MUL is bypassed; PReLU passes x >= 0 without truncate, wrapped to 32 bits.
- Y block (EW): MUL (32 x 32 bits, truncate by the 10-bit EW_TRUNCATE) -> ALU (saturated to 32 bits,
  EQL gives 0/1) -> LUT. Memory operands go through the EW input convertors first.
- C: output convertor y = sat8(rnd((x - offset) * scale >> shift)); in EQL mode the data passes unconverted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from models.common.nvfloat import int_to_fp16
from models.common.precision import (
    ConvertorParams,
    as_signed,
    convert,
    saturate,
    shift_left_saturate,
    truncate,
)

IntArray = NDArray[np.int64]

ALU_MAX, ALU_MIN, ALU_SUM, ALU_EQL = 0, 1, 2, 3


@dataclass(frozen=True)
class XBlock:
    """BS or BN. Operands are raw register values (16-bit); shifts are the 6 bits the data path uses."""

    bypass: bool = True
    alu_bypass: bool = True
    alu_algo: int = ALU_MAX
    alu_from_mem: bool = False
    alu_shift: int = 0
    alu_operand: int = 0
    mul_bypass: bool = True
    mul_prelu: bool = False
    mul_from_mem: bool = False
    mul_shift: int = 0
    mul_operand: int = 0
    relu_bypass: bool = True

    @property
    def alu_active(self) -> bool:
        return not self.bypass and not self.alu_bypass

    @property
    def mul_active(self) -> bool:
        return not self.bypass and not self.mul_bypass


@dataclass(frozen=True)
class EwConverter:
    """EW input convertor for a memory operand: 32-bit offset, 16-bit scale, 6-bit truncate."""

    bypass: bool = True
    offset: int = 0
    scale: int = 0
    truncate: int = 0


@dataclass(frozen=True)
class EwBlock:
    """Y block. Register operands are 32 bits; memory operands pass through their convertor."""

    bypass: bool = True
    alu_bypass: bool = True
    alu_algo: int = ALU_MAX
    alu_from_mem: bool = False
    alu_operand: int = 0
    alu_cvt: EwConverter = EwConverter()
    mul_bypass: bool = True
    mul_prelu: bool = False
    mul_from_mem: bool = False
    mul_operand: int = 0
    mul_cvt: EwConverter = EwConverter()
    truncate: int = 0
    lut_bypass: bool = True

    @property
    def alu_active(self) -> bool:
        return not self.bypass and not self.alu_bypass

    @property
    def mul_active(self) -> bool:
        return not self.bypass and not self.mul_bypass

    @property
    def eql(self) -> bool:
        return self.alu_active and self.alu_algo == ALU_EQL


@dataclass(frozen=True)
class OutputCvt:
    offset: int = 0
    scale: int = 1
    shift: int = 0


@dataclass(frozen=True)
class Operands:
    """Memory operands as signed integers, broadcastable to the [c, h, w] cube (None: not fetched)."""

    bs_alu: IntArray | None = None
    bs_mul: IntArray | None = None
    bn_alu: IntArray | None = None
    bn_mul: IntArray | None = None
    ew_alu: IntArray | None = None
    ew_mul: IntArray | None = None


@dataclass(frozen=True)
class DatapathResult:
    data: IntArray
    """int8 output values, or the EW ALU result (0/1) in EQL mode."""
    saturation_count: int
    unequal: bool
    lut_stats: dict[str, int]
    status: dict[str, int] = field(default_factory=dict)
    """FP16's NaN/infinity counters (D_STATUS_NAN_INPUT_NUM, ...), empty at INT8/INT16."""


def _operand(from_mem: bool, mem: IntArray | None, reg: IntArray, what: str) -> IntArray:
    if not from_mem:
        return reg
    if mem is None:
        raise ValueError(f"{what} comes from memory but no memory operand was given")
    return np.asarray(mem, dtype=np.int64)


def _alu(a: IntArray, b: IntArray, algo: int) -> IntArray:
    if algo == ALU_MAX:
        return np.maximum(a, b)
    if algo == ALU_MIN:
        return np.minimum(a, b)
    if algo == ALU_EQL:
        return (a != b).astype(np.int64)
    return a + b


def x_block(x: IntArray, blk: XBlock, alu_mem: IntArray | None, mul_mem: IntArray | None,
            name: str) -> IntArray:
    """One BS/BN block on 32-bit data; returns 32-bit data."""
    if blk.bypass:
        return x
    if not blk.alu_bypass:
        reg = as_signed(blk.alu_operand, 16)
        op = _operand(blk.alu_from_mem, alu_mem, reg, f"{name} ALU operand")
        shifted = shift_left_saturate(as_signed(op, 16), blk.alu_shift & 0x3F, 32).value
        # BS/BN ALU algo 3 is not defined; the C model treats anything but MAX/MIN as SUM.
        x = _alu(x, shifted, blk.alu_algo if blk.alu_algo != ALU_EQL else ALU_SUM)
    skip_truncate = np.zeros(x.shape, dtype=bool)
    if not blk.mul_bypass:
        reg = as_signed(blk.mul_operand, 16)
        op = as_signed(_operand(blk.mul_from_mem, mul_mem, reg, f"{name} MUL operand"), 16)
        product = x * op
        if blk.mul_prelu:
            skip_truncate = x >= 0
            x = np.where(skip_truncate, x, product)
        else:
            x = product
    truncated = truncate(x, blk.mul_shift & 0x3F, 32).value
    # The PReLU bypass of the truncate forwards only the low 32 bits of the (up to 33-bit) ALU sum
    # (NV_NVDLA_SDP_HLS_X_int_trt takes mul_data_out[31:0]; the C model assigns to a 32-bit int).
    x = np.where(skip_truncate, as_signed(x, 32), truncated)
    if not blk.relu_bypass:
        x = np.maximum(x, 0)
    return x


def _rshift_round_wide(x: IntArray, shift: int) -> IntArray:
    """Round-half-away right shift for products up to 2**62 and shifts up to 1023 (10-bit EW_TRUNCATE)."""
    if shift <= 62:
        return truncate(x, shift, 64).value
    # Only |x| = 2**62 with shift 63 reaches one half; everything else rounds to zero.
    return np.where((np.abs(x) >= (1 << 62)) & (shift == 63), np.sign(x), 0)


def ew_convert(raw: IntArray, cvt: EwConverter) -> IntArray:
    """EW input convertor: 16-bit memory operand -> 32-bit operand."""
    x = as_signed(raw, 16)
    if cvt.bypass:
        return x
    return convert(x, ConvertorParams(cvt.offset, cvt.scale, cvt.truncate & 0x3F, out_bits=32)).value


LutFn = Callable[[IntArray], tuple[IntArray, dict[str, int]]]


def y_block(x: IntArray, blk: EwBlock, alu_mem: IntArray | None, mul_mem: IntArray | None,
            lut: LutFn | None) -> tuple[IntArray, dict[str, int]]:
    """The EW block on 32-bit data: MUL, then ALU, then LUT."""
    stats: dict[str, int] = {}
    if blk.bypass:
        return x, stats
    if not blk.mul_bypass:
        if blk.mul_from_mem:
            op = ew_convert(_operand(True, mul_mem, np.int64(0), "EW MUL operand"), blk.mul_cvt)
        else:
            op = as_signed(blk.mul_operand, 32)
        product = _rshift_round_wide(x * op, blk.truncate & 0x3FF)
        product = saturate(product, 32)[0]
        x = np.where(x >= 0, x, product) if blk.mul_prelu else product
    if not blk.alu_bypass:
        if blk.alu_from_mem:
            op = ew_convert(_operand(True, alu_mem, np.int64(0), "EW ALU operand"), blk.alu_cvt)
        else:
            op = as_signed(blk.alu_operand, 32)
        x = saturate(_alu(x, op, blk.alu_algo), 32)[0]
    if not blk.lut_bypass:
        if lut is None:
            raise NotImplementedError("the EW LUT needs models.lut.model (lut_lookup, LutConfig)")
        x, stats = lut(x)
    return x, stats


def sdp_datapath(x: NDArray[np.integer], bs: XBlock, bn: XBlock, ew: EwBlock, cvt: OutputCvt,
                 ops: Operands | None = None, lut: LutFn | None = None, out_bits: int = 8,
                 out_fp16: bool = False) -> DatapathResult:
    """BS -> BN -> EW -> output convertor on a cube of int8, int16 (or 32-bit flying) inputs; the 17-bit
    convertor result saturates to out_bits (8 for INT8, 16 for INT16 output: nvdlav1 cmod sdp_c.cpp), or with
    out_fp16 (out_bits 17) becomes FP16 bit patterns (models/common/nvfloat.py int_to_fp16)."""
    ops = ops if ops is not None else Operands()
    data = np.asarray(x, dtype=np.int64)
    data = x_block(data, bs, ops.bs_alu, ops.bs_mul, "BS")
    data = x_block(data, bn, ops.bn_alu, ops.bn_mul, "BN")
    data, stats = y_block(data, ew, ops.ew_alu, ops.ew_mul, lut)
    if ew.eql:
        # Compare mode: no conversion, nothing written; D_STATUS flags any difference.
        return DatapathResult(data, 0, bool(np.any(data != 0)), stats)
    out = convert(data, ConvertorParams(cvt.offset, cvt.scale, cvt.shift & 0x3F, out_bits=out_bits)).value
    if out_fp16:   # INT -> FP16 output: FP16 bit patterns of the convertor's result
        out = int_to_fp16(out)
    return DatapathResult(out, int(np.count_nonzero(output_saturation(data, cvt))), False, stats)


def output_saturation(x: IntArray, cvt: OutputCvt) -> NDArray[np.bool_]:
    """Elements D_PERF_OUT_SATURATION counts: the 49 -> 17-bit rounding shift saturated.

    NVDLA's RTL (and C model) flag only that stage, not the final clamp to the output width: a result of 200
    is written as 127 (INT8) without being counted. The flag looks at the floor of the shift for negative
    values, so -65536.4 (which rounds to -65536) is counted too.
    """
    shift = cvt.shift & 0x3F
    product = (np.asarray(x, dtype=np.int64) - as_signed(cvt.offset, 32)) * as_signed(cvt.scale, 16)
    floor = np.right_shift(product, shift)
    rounded = truncate(product, shift, 64).value
    return ((floor < -(1 << 16)) | (rounded > (1 << 16) - 1)) & (shift < 49)
