"""PReLU in BS/BN forwards x >= 0 untruncated, keeping only the low 32 bits of the 33-bit ALU sum.

NVDLA's RTL (NV_NVDLA_SDP_HLS_X_int_trt, PReLU bypass: mul_data_out[31:0]) and the C model (assignment to
a 32-bit int) both wrap; the truncate path, by contrast, saturates.
"""

from __future__ import annotations

import numpy as np

from models.sdp.datapath import ALU_SUM, XBlock, x_block
from models.sdp.model import sdp_compute
from tests.model.sdp_regs import bs_regs, cfg_of

INT32_MAX = (1 << 31) - 1


def prelu_block(alu: int, alu_shift: int, mul: int = 3, mul_shift: int = 0) -> XBlock:
    return XBlock(bypass=False, alu_bypass=False, alu_algo=ALU_SUM, alu_operand=alu & 0xFFFF,
                  alu_shift=alu_shift, mul_bypass=False, mul_prelu=True, mul_operand=mul & 0xFFFF,
                  mul_shift=mul_shift)


def test_prelu_bypass_wraps_alu_sum_to_32_bits() -> None:
    # 0x7FFF << 17 saturates to 2^31 - 1; + 100 is 2^31 + 99, which wraps to -2^31 + 99.
    x = np.array([100, 0, -1, -128], dtype=np.int64)
    out = x_block(x, prelu_block(0x7FFF, 17), None, None, "BS")
    assert out[0] == 100 + INT32_MAX - (1 << 32)
    assert out[1] == INT32_MAX           # sum fits: passed unchanged
    assert out[2] == INT32_MAX - 1
    assert out[3] == INT32_MAX - 128


def test_truncate_path_still_saturates() -> None:
    # Same sum without PReLU: the truncate (shift 0) saturates to 2^31 - 1 instead of wrapping.
    blk = XBlock(bypass=False, alu_bypass=False, alu_algo=ALU_SUM, alu_operand=0x7FFF, alu_shift=17)
    assert x_block(np.array([100], dtype=np.int64), blk, None, None, "BS")[0] == INT32_MAX


def test_relu_after_wrapped_prelu_sees_the_negative_value() -> None:
    blk = XBlock(**{**prelu_block(0x7FFF, 17).__dict__, "relu_bypass": False})
    assert x_block(np.array([100], dtype=np.int64), blk, None, None, "BS")[0] == 0


def test_sdp_compute_bs_prelu_overflow_reaches_output_as_negative() -> None:
    cfg = cfg_of(**bs_regs(alu=0x7FFF, alu_shift=17, algo=ALU_SUM, mul=3, prelu=True))
    cube = np.full((8, 1, 1), 100, dtype=np.int64)
    res = sdp_compute(cube, cfg)
    # Wrapped to -2^31 + 99, the identity convertor saturates it to -128 (it was +127 before the fix).
    assert np.all(res.data == -128)
