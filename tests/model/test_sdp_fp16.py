"""SDP at FP16 (models/sdp/fp16.py) and its float conversions (models/common/nvfloat.py), rule by rule; the
whole
datapath is checked against NVIDIA's RTL by the sdpfp16 programs (tests/model/test_ref_programs.py)."""

from __future__ import annotations

import numpy as np

from models.common import nvfloat
from models.common.nvfloat import FP16, FP32
from models.sdp.datapath import ALU_EQL, ALU_MAX, ALU_SUM, EwBlock, Operands, XBlock
from models.sdp.fp16 import fp16_to_int16, sdp_fp16

ALL16 = np.arange(1 << 16, dtype=np.int64)
FINITE16 = ALL16[~(FP16.is_nan(ALL16) | FP16.is_inf(ALL16))]
ONE16, TWO16, NAN16, INF16, NEG_INF16, MAX16 = 0x3C00, 0x4000, 0x7E00, 0x7C00, 0xFC00, 0x7BFF


def _f32(v: float) -> int:
    return int(np.float32(v).view(np.uint32))


def test_fp16_to_fp32_is_exact_for_every_finite_value_and_round_trips() -> None:
    ieee = FINITE16.astype(np.uint16).view(np.float16).astype(np.float32).view(np.uint32).astype(np.int64)
    wide = nvfloat.fp16_to_fp32(FINITE16)
    assert np.array_equal(wide, ieee)
    assert np.array_equal(nvfloat.fp32_to_fp16(wide), FINITE16)


def test_infinity_widens_to_the_largest_fp32_and_nan_keeps_its_payload() -> None:
    assert nvfloat.fp16_to_fp32(INF16) == 0x7F7FFFFF
    assert nvfloat.fp16_to_fp32(NEG_INF16) == 0xFF7FFFFF
    nans = ALL16[FP16.is_nan(ALL16)]
    assert np.array_equal(nvfloat.fp32_to_fp16(nvfloat.fp16_to_fp32(nans)), nans)


def test_fp32_to_fp16_rounds_to_nearest_even_like_ieee_below_the_overflow() -> None:
    x = np.random.default_rng(3).integers(0, 1 << 32, 50_000)
    x = x[(((x >> 23) & 0xFF) < 0x8F)]                  # below 65536: no overflow, no NaN
    ieee = x.astype(np.uint32).view(np.float32).astype(np.float16).view(np.uint16).astype(np.int64)
    assert np.array_equal(nvfloat.fp32_to_fp16(x), ieee)


def test_fp32_to_fp16_saturates_and_flushes() -> None:
    assert nvfloat.fp32_to_fp16(_f32(65520.0)) == MAX16            # IEEE rounds this to infinity
    assert nvfloat.fp32_to_fp16(0xFF800000) == 0x8000 | MAX16      # -inf -> -65504
    assert nvfloat.fp32_to_fp16(_f32(2.0 ** -25)) == 0             # half the smallest subnormal: to even
    assert nvfloat.fp32_to_fp16(_f32(2.0 ** -24)) == 1
    assert nvfloat.fp32_to_fp16(0x7FC00000) == INF16               # payload only in high bits: NVIDIA's


def _x(**kw: object) -> XBlock:
    return XBlock(bypass=False, **kw)  # type: ignore[arg-type]


def test_nan_input_propagates_and_is_counted() -> None:
    blk = _x(alu_bypass=False, alu_algo=ALU_SUM, alu_operand=ONE16, mul_bypass=False, mul_operand=TWO16)
    res = sdp_fp16(np.array([NAN16, ONE16, INF16]), blk, XBlock(), EwBlock())
    assert res.data.tolist() == [NAN16, 0x4400, MAX16]   # (1 + 1) * 2 = 4; inf -> 65504 + 1, * 2 -> 65504
    assert res.status == {"D_STATUS_NAN_INPUT_NUM": 1, "D_STATUS_INF_INPUT_NUM": 1,
                          "D_STATUS_NAN_OUTPUT_NUM": 1}
    assert res.saturation_count == 1


def test_nan_to_zero_flushes_the_input_and_the_operands() -> None:
    blk = _x(alu_bypass=False, alu_algo=ALU_MAX, alu_operand=NAN16)
    res = sdp_fp16(np.array([NAN16, 0xC000]), blk, XBlock(), EwBlock(), nan_to_zero=True)
    assert res.data.tolist() == [0, 0]                   # max(+0, +0), max(-2, +0)
    assert sdp_fp16(np.array([0xC000]), blk, XBlock(), EwBlock()).data.tolist() == [NAN16]


def test_relu_zeroes_negatives_and_minus_zero_but_passes_nan() -> None:
    res = sdp_fp16(np.array([0x8000, 0xC000, 0xFE00, 0x0001]), _x(relu_bypass=False), XBlock(), EwBlock())
    assert res.data.tolist() == [0, 0, 0xFE00, 0x0001]   # a subnormal input is exact and comes back


def test_prelu_passes_sign_zero_data_and_scales_the_rest() -> None:
    blk = _x(mul_bypass=False, mul_prelu=True, mul_operand=0x3800)   # 0.5
    res = sdp_fp16(np.array([0x4000, 0xC000, 0x7E00]), blk, XBlock(), EwBlock())
    assert res.data.tolist() == [0x4000, 0xBC00, 0x7E00]


def test_products_below_the_normals_flush_to_zero() -> None:
    blk = _x(mul_bypass=False, mul_operand=0x0400)       # 2^-14, the smallest normal FP16
    res = sdp_fp16(np.array([0x3800, 0x0400]), blk, XBlock(), EwBlock())   # 2^-15 (subnormal), 2^-28
    assert res.data.tolist() == [0x0200, 0]


def test_ew_register_operand_is_fp32_and_memory_operand_fp16() -> None:
    ew = EwBlock(bypass=False, mul_bypass=False, mul_operand=_f32(1.5), alu_bypass=False, alu_algo=ALU_SUM,
                 alu_from_mem=True)
    res = sdp_fp16(np.array([TWO16]), XBlock(), XBlock(), ew, Operands(ew_alu=np.array([-0x4000])))
    assert res.data.tolist() == [0x3C00]                 # 2 * 1.5 + (-2) = 1 (0xC000 read as int16)


def test_eql_compares_without_converting() -> None:
    ew = EwBlock(bypass=False, alu_bypass=False, alu_algo=ALU_EQL, alu_operand=_f32(1.0))
    res = sdp_fp16(np.array([ONE16, TWO16]), XBlock(), XBlock(), ew)
    assert res.data.tolist() == [0, 1] and res.unequal


def test_fp16_to_int16_rounds_half_away_saturates_and_maps_nan() -> None:
    vals = np.array([0x3800, 0xB800, 0x3E00, 0x0001, MAX16, 0xFBFF, NAN16, INF16], dtype=np.int64)
    assert fp16_to_int16(vals).tolist() == [1, -1, 2, 0, 32767, -32768, -32768, 32767]
    res = sdp_fp16(np.array([0x3E00]), XBlock(), XBlock(), EwBlock(), out_int16=True)
    assert res.data.tolist() == [2] and res.saturation_count == 0


def test_fp32_helpers_keep_the_first_nan() -> None:
    assert nvfloat.add(FP32, 0x7FC00001, 0x7FC00002) == 0x7FC00001
