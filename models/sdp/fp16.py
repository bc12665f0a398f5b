"""SDP at FP16, as NVIDIA's C model computes it (nvdlav1 cmod/hls/sdp, cmod/sdp/NV_NVDLA_sdp.cpp).

Everything between the input and the output is FP32 (models/common/nvfloat.py's rules: truncating alignment,
one
round to nearest even, flush below the normals, saturate on overflow, NaN operand wins):
- input: FP16 -> FP32 (exact; an infinity becomes FP32's largest finite value); with NAN_TO_ZERO a NaN
  becomes +0 (the flush looks at the FP32 value, so it sees the NaNs only);
- BS, BN: ALU (operand FP16 -> FP32; SUM: FP32 add with the data first, MAX/MIN: FP32 compares, algo 3:
  1 where data != operand, else 0 - the C model's FpAlu), MUL (operand FP16 -> FP32; PReLU passes data whose
  sign bit is 0, NaNs included), no truncate (the MUL/ALU shift values are ignored at FP16), ReLU (a
  negative number, -0 included, becomes +0; a NaN passes);
  with NAN_TO_ZERO a NaN operand is +0 first;
- EW: MUL then ALU as BS, but a register operand is the 32-bit register read as FP32 bits, a memory operand
  goes through its convertor, which at FP16 is only NaN flush + FP16 -> FP32 (offset, scale and truncate
  ignored); EW_TRUNCATE is ignored; ALU EQL gives 0/1 and the data are not converted; the LUT, last, at
  FP16 (models/lut/fp16.py: FP32 START/END, FP16 entries, FP17 interpolation) widened back to FP32;
- output: FP32 -> FP16 (round to nearest even, saturate to +-65504, flush below the subnormals; a NaN keeps
  the low 10 bits of its payload), then FP16 -> INT16 if OUT_PRECISION is INT16 (round half away from zero,
  saturate, NaN -> -32768). The output convertor registers are ignored.
Statistics (checked against NVIDIA's nv_full RTL by the traces/nv_full_ref programs): NaN and infinite inputs
over every lane SDP_RDMA reads, channel padding included (nv_full keeps them in SDP_RDMA's D_STATUS_*
registers, counted while its PERF_NAN_INF_COUNT_EN is set, and ties SDP's two to 0: models/subsystem.py),
NaN outputs (FP16 output only), and D_PERF_OUT_SATURATION counts FP16 outputs of magnitude 65504. Not modelled
bit for bit
(so not read back by those programs): nv_full's LUT counters add the flags of whatever sits in the LUT
pipeline's input register on every clock while enabled (NV_NVDLA_SDP_CORE_Y_lut.v), a matter of timing, and
its D_STATUS ORs every non-zero output word in any mode (NV_NVDLA_SDP_WDMA_DAT_out.v), where the model and
this project's RTL flag only EQL differences.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from models.common import nvfloat
from models.common.nvfloat import FP16, FP32
from models.lut.fp16 import lookup_fp16
from models.lut.model import LutConfig
from models.sdp.datapath import ALU_EQL, ALU_MAX, ALU_MIN, ALU_SUM, EwBlock, Operands, XBlock

Bits = NDArray[np.int64]
FP16_LARGEST = 0x7BFF


@dataclass(frozen=True)
class Fp16Result:
    data: Bits
    """FP16 bit patterns (or INT16 values), or the EW ALU's 0/1 in EQL mode."""
    saturation_count: int
    unequal: bool
    status: dict[str, int]
    lut_stats: dict[str, int]


def _nan_to_zero(fmt: nvfloat.Format, bits: ArrayLike, on: bool) -> Bits:
    b = np.asarray(bits, dtype=np.int64)
    return np.where(fmt.is_nan(b), 0, b) if on else b


def alu(algo: int, a: Bits, b: Bits) -> Bits:
    """FP32 ALU (the C model's FpAlu): the data is the first operand."""
    if algo == ALU_SUM:
        return nvfloat.add(FP32, a, b)
    if algo == ALU_MAX:
        return nvfloat.maximum(FP32, a, b)
    if algo == ALU_MIN:
        return nvfloat.minimum(FP32, a, b)
    a, b = np.broadcast_arrays(a, b)
    return (a != b).astype(np.int64)


def _mul(x: Bits, op: Bits, prelu: bool) -> Bits:
    product = nvfloat.mul(FP32, x, op)
    return np.where(((x >> 31) & 1) == 0, x, product) if prelu else product


def _operand(from_mem: bool, mem: ArrayLike | None, reg: int, what: str) -> Bits:
    if not from_mem:
        return np.asarray(reg, dtype=np.int64)
    if mem is None:
        raise ValueError(f"{what} comes from memory but no memory operand was given")
    return np.asarray(mem, dtype=np.int64) & 0xFFFF


def relu(x: Bits) -> Bits:
    """FpRelu: a NaN or a number with sign bit 0 passes, everything else (-0 too) is +0."""
    return np.where(FP32.is_nan(x) | (((x >> 31) & 1) == 0), x, 0)


def x_block(x: Bits, blk: XBlock, alu_mem: ArrayLike | None, mul_mem: ArrayLike | None, nan_to_zero: bool,
            name: str) -> Bits:
    if blk.bypass:
        return x
    if not blk.alu_bypass:
        op = _operand(blk.alu_from_mem, alu_mem, blk.alu_operand & 0xFFFF, f"{name} ALU operand")
        x = alu(blk.alu_algo, x, nvfloat.fp16_to_fp32(_nan_to_zero(FP16, op, nan_to_zero)))
    if not blk.mul_bypass:
        op = _operand(blk.mul_from_mem, mul_mem, blk.mul_operand & 0xFFFF, f"{name} MUL operand")
        x = _mul(x, nvfloat.fp16_to_fp32(_nan_to_zero(FP16, op, nan_to_zero)), blk.mul_prelu)
    return x if blk.relu_bypass else relu(x)


def y_block(x: Bits, blk: EwBlock, alu_mem: ArrayLike | None, mul_mem: ArrayLike | None,
            nan_to_zero: bool, lut: LutConfig | None = None) -> tuple[Bits, dict[str, int]]:
    """The Y block: its output (FP32) and the LUT's counts (empty when the LUT is bypassed)."""
    if blk.bypass:
        return x, {}

    def op(from_mem: bool, mem: ArrayLike | None, reg: int, what: str) -> Bits:
        if not from_mem:   # the register is FP32 bits; no convertor, no NaN flush
            return np.asarray(reg & 0xFFFFFFFF, dtype=np.int64)
        return nvfloat.fp16_to_fp32(_nan_to_zero(FP16, _operand(True, mem, 0, what), nan_to_zero))

    if not blk.mul_bypass:
        x = _mul(x, op(blk.mul_from_mem, mul_mem, blk.mul_operand, "EW MUL operand"), blk.mul_prelu)
    if not blk.alu_bypass:
        x = alu(blk.alu_algo, x, op(blk.alu_from_mem, alu_mem, blk.alu_operand, "EW ALU operand"))
    if blk.lut_bypass:
        return x, {}
    if lut is None:
        raise ValueError("SDP: the EW LUT is on but no LUT configuration was given")
    looked = lookup_fp16(x, lut)
    return nvfloat.fp17_to_fp32(looked.output), looked.counts


def fp16_to_int16(h: ArrayLike) -> Bits:
    """FpFloatToInt<16,5,10>: |x| rounded half away from zero (the implied 1 is set even on exponent 0, so
    a subnormal or zero rounds to 0), saturated to INT16; a NaN is -32768."""
    s, e, m = FP16.split(h)
    full = m | (1 << FP16.mant)
    shift = FP16.mant + FP16.bias - e                 # right shift of the 11-bit significand
    right = np.clip(shift, 1, 62)
    rounded = (full + (np.int64(1) << (right - 1))) >> right
    mag = np.where(shift <= 0, full << np.clip(-shift, 0, 20), np.where(shift > 40, 0, rounded))
    out = np.where(mag > 0x7FFF, np.where(s == 1, -0x8000, 0x7FFF), np.where(s == 1, -mag, mag))
    return np.where(FP16.is_nan(h), -0x8000, out)


def sdp_fp16(x: ArrayLike, bs: XBlock, bn: XBlock, ew: EwBlock, ops: Operands | None = None,
             nan_to_zero: bool = False, out_int16: bool = False, lut: LutConfig | None = None) -> Fp16Result:
    """BS -> BN -> EW -> output on a cube of FP16 bit patterns (as read: int16 or uint16 values)."""
    ops = ops if ops is not None else Operands()
    h = np.asarray(x, dtype=np.int64) & 0xFFFF
    status = {"D_STATUS_NAN_INPUT_NUM": int(np.count_nonzero(FP16.is_nan(h))),
              "D_STATUS_INF_INPUT_NUM": int(np.count_nonzero(FP16.is_inf(h)))}
    data = _nan_to_zero(FP32, nvfloat.fp16_to_fp32(h), nan_to_zero)
    data = x_block(data, bs, ops.bs_alu, ops.bs_mul, nan_to_zero, "BS")
    data = x_block(data, bn, ops.bn_alu, ops.bn_mul, nan_to_zero, "BN")
    data, lut_stats = y_block(data, ew, ops.ew_alu, ops.ew_mul, nan_to_zero, lut)
    if ew.alu_active and ew.alu_algo == ALU_EQL:
        return Fp16Result(data, 0, bool(np.any(data != 0)), {**status, "D_STATUS_NAN_OUTPUT_NUM": 0},
                          lut_stats)
    out = nvfloat.fp32_to_fp16(data)
    if out_int16:
        return Fp16Result(fp16_to_int16(out), 0, False, {**status, "D_STATUS_NAN_OUTPUT_NUM": 0}, lut_stats)
    status["D_STATUS_NAN_OUTPUT_NUM"] = int(np.count_nonzero(FP16.is_nan(out)))
    saturated = int(np.count_nonzero((out & 0x7FFF) == FP16_LARGEST))
    return Fp16Result(out, saturated, False, status, lut_stats)
