"""Hand-computed cases for the SDP model: BS/BN order, ALU/MUL/PReLU/ReLU/truncate, EW, convertor, EQL."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from models.errors import ConfigError
from models.sdp.datapath import ALU_EQL, ALU_MAX, ALU_MIN, ALU_SUM, Operands
from models.sdp.model import SdpConfig, advisories, run_sdp, sdp_compute
from tests.model.sdp_regs import bs_regs, cfg_of, sdp_fields


def run1(values: list[int], **regs: Any) -> list[int]:
    """The data path on one row of inputs (channel 0..n-1 of a 1x1 cube) -> int list."""
    x = np.zeros((8, 1, 1), dtype=np.int64)
    x[:len(values), 0, 0] = values
    return sdp_compute(x, cfg_of(**regs)).data[:len(values), 0, 0].tolist()


# ---- X blocks ------------------------------------------------------------------------------------------

def test_alu_sum_with_operand_shift() -> None:
    assert run1([10, -10], **bs_regs(alu=3, alu_shift=2)) == [22, 2]   # x + (3 << 2)


@pytest.mark.parametrize(("algo", "expected"), [(ALU_MAX, [5, -2]), (ALU_MIN, [-2, -9])])
def test_alu_max_min(algo: int, expected: list[int]) -> None:
    assert run1([5, -9], **bs_regs(alu=-2, algo=algo)) == expected


def test_alu_operand_is_signed_16_bit() -> None:
    assert run1([0], **bs_regs(alu=0xFFFF)) == [-1]


def test_alu_operand_shift_saturates_to_32_bits_then_convertor_saturates() -> None:
    # 0x7fff << 20 saturates to 2**31 - 1; +100 fits the 33-bit ALU; the truncate saturates to 32 bits;
    # the output convertor then clamps to 127 and counts one saturation per element.
    cfg = cfg_of(**bs_regs(alu=0x7FFF, alu_shift=20))
    res = sdp_compute(np.full((8, 1, 1), 100), cfg)
    assert res.data[:, 0, 0].tolist() == [127] * 8
    assert res.saturation_count == 8


def test_mul_then_truncate_rounds_half_away_from_zero() -> None:
    assert run1([-7, 7, 1], **bs_regs(mul=3, mul_shift=1)) == [-11, 11, 2]   # -10.5, 10.5, 1.5


def test_truncate_applies_when_mul_is_bypassed() -> None:
    assert run1([5, -5, 4], **bs_regs(mul_shift=1)) == [3, -3, 2]


def test_mul_shift_uses_six_bits() -> None:
    # BS_MUL_SHIFT_VALUE is an 8-bit field but the data path takes 6 bits: 0x41 shifts by 1.
    assert run1([6], **bs_regs(mul=1, mul_shift=0x41)) == [3]


def test_alu_runs_before_mul() -> None:
    assert run1([2], **bs_regs(alu=3, mul=4)) == [20]   # (2 + 3) * 4, not 2 * 4 + 3


def test_prelu_passes_non_negative_without_truncate() -> None:
    # x >= 0 passes unchanged (the shift is not applied); x < 0: -5 * 3 / 2 = -7.5 -> -8
    assert run1([5, 0, -5], **bs_regs(mul=3, mul_shift=1, prelu=True)) == [5, 0, -8]


def test_relu_after_truncate() -> None:
    assert run1([-5, 5, -1], **bs_regs(mul=1, mul_shift=1, relu=True)) == [0, 3, 0]   # -1/2 -> -1 -> 0


def test_bs_then_bn() -> None:
    regs = {**bs_regs(alu=1), **bs_regs(mul=-2, prefix="BN")}
    assert run1([3], **regs) == [-8]   # (3 + 1) * -2


def test_block_bypass_ignores_the_rest_of_its_config() -> None:
    regs = bs_regs(alu=50, mul=3)
    regs["D_DP_BS_CFG__BS_BYPASS"] = 1
    assert run1([7], **regs) == [7]


def test_prelu_with_alu_is_an_advisory_not_an_error() -> None:
    cfg = cfg_of(**bs_regs(alu=1, algo=ALU_MIN, mul=2, prelu=True, prefix="BN"))
    assert advisories(cfg) == ["SDP BN: if PReLU is enabled for one sub-unit, the ALU in that unit MUST be "
                               "bypassed"]
    x = np.zeros((8, 1, 1))
    x[:3, 0, 0] = [5, 0, -3]
    # min(x, 1) then PReLU: 1 passes; 0 passes; -3 -> -6
    assert sdp_compute(x, cfg).data[:3, 0, 0].tolist() == [1, 0, -6]


# ---- output convertor ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("x", "offset", "scale", "shift", "expected"), [
    (5, 0, 1, 1, 3), (-5, 0, 1, 1, -3),        # ties away from zero
    (10, 4, 3, 2, 5),                          # (10 - 4) * 3 / 4 = 4.5 -> 5
    (10, 0xFFFFFFFC, 1, 0, 14),                # offset is signed 32-bit: 10 - (-4)
    (3, 0, 0xFFFE, 0, -6),                     # scale is signed 16-bit
    (100, 0, 4, 0, 127), (-100, 0, 4, 0, -128),
])
def test_output_convertor(x: int, offset: int, scale: int, shift: int, expected: int) -> None:
    regs = {"D_CVT_OFFSET__CVT_OFFSET": offset, "D_CVT_SCALE__CVT_SCALE": scale,
            "D_CVT_SHIFT__CVT_SHIFT": shift}
    assert run1([x], **regs) == [expected]


def test_saturation_count_counts_the_17_bit_stage_only() -> None:
    # scale 1, shift 3: x / 8. NVDLA counts the 49 -> 17-bit rounding shift saturating, not the int8 clamp.
    cfg = cfg_of(D_CVT_SHIFT__CVT_SHIFT=3)
    x = np.array([524280, 524284, -524288, -524291, -524300, 1000, 1020, 0]).reshape(8, 1, 1)
    res = sdp_compute(x, cfg)
    assert res.data[:, 0, 0].tolist() == [127, 127, -128, -128, -128, 125, 127, 0]
    # 65535 no; 65535.5 -> 65536 yes; -65536 no; -65536.375 yes (its floor, -65537, is out of range);
    # -65537.5 yes; 125 no; 127.5 -> 128 clamps to 127 but is not counted.
    assert res.saturation_count == 3


# ---- EW (Y) block ----------------------------------------------------------------------------------------

def ew_regs(*, alu: int | None = None, algo: int = ALU_SUM, mul: int | None = None, truncate: int = 0,
            prelu: bool = False) -> dict[str, int]:
    return {
        "D_DP_EW_CFG__EW_BYPASS": 0, "D_DP_EW_CFG__EW_ALU_BYPASS": int(alu is None),
        "D_DP_EW_CFG__EW_ALU_ALGO": algo, "D_DP_EW_ALU_SRC_VALUE__EW_ALU_OPERAND": (alu or 0) & 0xFFFFFFFF,
        "D_DP_EW_CFG__EW_MUL_BYPASS": int(mul is None), "D_DP_EW_CFG__EW_MUL_PRELU": int(prelu),
        "D_DP_EW_MUL_SRC_VALUE__EW_MUL_OPERAND": (mul or 0) & 0xFFFFFFFF,
        "D_DP_EW_TRUNCATE_VALUE__EW_TRUNCATE": truncate, "D_DP_EW_CFG__EW_LUT_BYPASS": 1,
    }


def test_ew_runs_mul_before_alu() -> None:
    assert run1([3], **ew_regs(mul=4, alu=5)) == [17]   # 3 * 4 + 5, not (3 + 5) * 4


def test_ew_mul_truncate_and_32_bit_operand() -> None:
    # operand -3 as a 32-bit register value; 7 * -3 = -21, truncate 2: -5.25 -> -5; 10 * -3 / 4 = -7.5 -> -8
    assert run1([7, 10], **ew_regs(mul=-3, truncate=2)) == [-5, -8]


def test_ew_truncate_beyond_63_bits_gives_zero() -> None:
    assert run1([100, -100], **ew_regs(mul=0x7FFFFFFF, truncate=0x3FF)) == [0, 0]


def test_ew_prelu() -> None:
    assert run1([9, -3], **ew_regs(mul=5, truncate=1, prelu=True)) == [9, -8]   # -15/2 -> -8


def test_ew_alu_max_min() -> None:
    assert run1([5, -5], **ew_regs(alu=0, algo=ALU_MAX)) == [5, 0]
    assert run1([5, -5], **ew_regs(alu=0, algo=ALU_MIN)) == [0, -5]


# ---- EQL compare mode ------------------------------------------------------------------------------------

def test_eql_mode_reports_difference_and_writes_nothing() -> None:
    fields = sdp_fields(w=2, c=8, **ew_regs(alu=0, algo=ALU_EQL))
    ew = {"D_DP_EW_ALU_CFG.EW_ALU_SRC": 1, "D_DP_EW_ALU_CFG.EW_ALU_CVT_BYPASS": 1}
    fields["SDP"].update(ew)
    fields["SDP_RDMA"].update({"D_ERDMA_CFG.ERDMA_DISABLE": 0, "D_ERDMA_CFG.ERDMA_DATA_USE": 1,
                               "D_ERDMA_CFG.ERDMA_DATA_MODE": 1,
                               "D_EW_BASE_ADDR_LOW.EW_BASE_ADDR_LOW": 0x4000,
                               "D_EW_LINE_STRIDE.EW_LINE_STRIDE": 0x100,
                               "D_EW_SURFACE_STRIDE.EW_SURFACE_STRIDE": 0x1000})
    cfg = SdpConfig.from_fields(fields)
    data = np.arange(16, dtype=np.uint8)
    same = DictMemory()
    same.write(0x1000, data)
    same.write(0x4000, data)
    res = run_sdp(cfg, same)
    assert not res.status_unequal and not res.written
    assert int(res.output.sum()) == 0
    assert not any(a >= 0x8000 for a in same.data)
    other = DictMemory()
    other.write(0x1000, data)
    changed = data.copy()
    changed[13] ^= 1
    other.write(0x4000, changed)
    res = run_sdp(cfg, other)
    assert res.status_unequal
    assert res.output.reshape(-1).tolist().count(1) == 1


# ---- memory operands -------------------------------------------------------------------------------------

class DictMemory:
    def __init__(self, fill: int = 0xA5) -> None:
        self.data: dict[int, int] = {}
        self.fill = fill

    def read(self, addr: int, n: int) -> np.ndarray:
        return np.array([self.data.get(addr + i, self.fill) for i in range(n)], dtype=np.uint8)

    def write(self, addr: int, data: np.ndarray) -> None:
        for i, b in enumerate(np.asarray(data, dtype=np.uint8).tolist()):
            self.data[addr + i] = b


def test_per_channel_alu_operand_from_memory() -> None:
    regs = {**bs_regs(alu=0), "D_DP_BS_ALU_CFG__BS_ALU_SRC": 1,
            "RDMA__D_BRDMA_CFG__BRDMA_DISABLE": 0, "RDMA__D_BRDMA_CFG__BRDMA_DATA_USE": 1,
            "RDMA__D_BRDMA_CFG__BRDMA_DATA_MODE": 0, "RDMA__D_BS_BASE_ADDR_LOW__BS_BASE_ADDR_LOW": 0x3000}
    cfg = SdpConfig.from_fields(sdp_fields(w=2, c=8, **regs))
    mem = DictMemory()
    mem.write(0x1000, np.full(16, 10, dtype=np.uint8))                     # input: 10 everywhere
    mem.write(0x3000, np.array([0, 1, 2, 3, -1, -2, -3, -128], dtype=np.int8).view(np.uint8))
    res = run_sdp(cfg, mem)
    expected = [10, 11, 12, 13, 9, 8, 7, -118]
    assert res.output[:, 0, 0].tolist() == expected and res.output[:, 0, 1].tolist() == expected
    assert mem.read(0x8000, 8).view(np.int8).tolist() == expected
    assert mem.read(0x8008, 8).view(np.int8).tolist() == expected


def test_per_element_two_byte_mul_operand_from_memory() -> None:
    regs = {**bs_regs(mul=0), "D_DP_BS_MUL_CFG__BS_MUL_SRC": 1,
            "RDMA__D_BRDMA_CFG__BRDMA_DISABLE": 0, "RDMA__D_BRDMA_CFG__BRDMA_DATA_USE": 0,
            "RDMA__D_BRDMA_CFG__BRDMA_DATA_SIZE": 1, "RDMA__D_BRDMA_CFG__BRDMA_DATA_MODE": 1,
            "RDMA__D_BS_BASE_ADDR_LOW__BS_BASE_ADDR_LOW": 0x3000,
            "RDMA__D_BS_LINE_STRIDE__BS_LINE_STRIDE": 0x40,
            "RDMA__D_BS_SURFACE_STRIDE__BS_SURFACE_STRIDE": 0x400}
    cfg = SdpConfig.from_fields(sdp_fields(w=1, h=2, c=8, **regs))
    mem = DictMemory()
    mem.write(0x1000, np.full(8, 2, dtype=np.uint8))          # line 0
    mem.write(0x1100, np.full(8, 3, dtype=np.uint8))          # line 1
    mem.write(0x3000, np.arange(8, dtype="<i2").view(np.uint8))
    mem.write(0x3040, np.array([-300] * 8, dtype="<i2").view(np.uint8))
    res = run_sdp(cfg, mem)
    assert res.output[:, 0, 0].tolist() == [2 * c for c in range(8)]
    assert res.output[:, 1, 0].tolist() == [-128] * 8       # 3 * -300 clamps to int8...
    assert res.saturation_count == 0                          # ...but fits the counted 17-bit stage


def test_per_element_operand_of_a_1x1_cube_is_read_packed() -> None:
    # nvdlav1 RTL (operand RDMAs, cfg_mode_1x1_pack): a 1x1 cube's per-element operand is one block, its
    # surfaces back to back whatever BS_SURFACE_STRIDE says (NVIDIA's nv_full RTL on sdp_s16_009)
    regs = {**bs_regs(alu=0), "D_DP_BS_ALU_CFG__BS_ALU_SRC": 1,
            "RDMA__D_BRDMA_CFG__BRDMA_DISABLE": 0, "RDMA__D_BRDMA_CFG__BRDMA_DATA_USE": 1,
            "RDMA__D_BRDMA_CFG__BRDMA_DATA_MODE": 1, "RDMA__D_BS_BASE_ADDR_LOW__BS_BASE_ADDR_LOW": 0x3000,
            "RDMA__D_BS_LINE_STRIDE__BS_LINE_STRIDE": 0x40,
            "RDMA__D_BS_SURFACE_STRIDE__BS_SURFACE_STRIDE": 0x400}
    cfg = SdpConfig.from_fields(sdp_fields(w=1, h=1, c=16, **regs))
    mem = DictMemory()
    mem.write(0x1000, np.zeros(16, dtype=np.uint8))             # the input, 0 (a 1x1 input is packed too)
    mem.write(0x3000, np.arange(16, dtype=np.uint8))            # both surfaces, packed
    mem.write(0x3400, np.full(8, 100, dtype=np.uint8))          # where the stride would put surface 1
    assert run_sdp(cfg, mem).output[:, 0, 0].tolist() == list(range(16))


def test_ew_memory_operand_goes_through_its_convertor() -> None:
    # operand 7 from memory: (7 - 1) * 3 >> 1 = 9; then x + 9
    regs = {**ew_regs(alu=0), "D_DP_EW_ALU_CFG__EW_ALU_SRC": 1, "D_DP_EW_ALU_CFG__EW_ALU_CVT_BYPASS": 0,
            "D_DP_EW_ALU_CVT_OFFSET_VALUE__EW_ALU_CVT_OFFSET": 1,
            "D_DP_EW_ALU_CVT_SCALE_VALUE__EW_ALU_CVT_SCALE": 3,
            "D_DP_EW_ALU_CVT_TRUNCATE_VALUE__EW_ALU_CVT_TRUNCATE": 1,
            "RDMA__D_ERDMA_CFG__ERDMA_DISABLE": 0, "RDMA__D_ERDMA_CFG__ERDMA_DATA_USE": 1}
    cfg = SdpConfig.from_fields(sdp_fields(**regs))
    x = np.full((8, 1, 1), 4)
    res = sdp_compute(x, cfg, Operands(ew_alu=np.full((8, 1, 1), 7)))
    assert res.data[:, 0, 0].tolist() == [13] * 8


def test_output_to_pdp_is_handed_over_not_written() -> None:
    cfg = cfg_of(D_FEATURE_MODE_CFG__OUTPUT_DST=1, **bs_regs(alu=1))
    mem = DictMemory()
    mem.write(0x1000, np.arange(8, dtype=np.uint8))
    res = run_sdp(cfg, mem)
    assert not res.written
    assert res.flying_output is not None and res.flying_output[:, 0, 0].tolist() == list(range(1, 9))
    assert not any(a >= 0x8000 for a in mem.data)


def test_padding_lanes_are_converted_and_written() -> None:
    # 3 channels: lanes 3..7 of the atom are processed too (cvt of whatever the memory holds).
    cfg = cfg_of(c=3, D_CVT_OFFSET__CVT_OFFSET=0xFFFFFFFF)   # offset -1: y = x + 1
    mem = DictMemory()
    mem.write(0x1000, np.zeros(8, dtype=np.uint8))
    run_sdp(cfg, mem)
    assert mem.read(0x8000, 8).tolist() == [1] * 8


# ---- Limitation rules ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("regs", "rule"), [
    ({**bs_regs(alu=1), "RDMA__D_BRDMA_CFG__BRDMA_DISABLE": 0},
     "when SRC is configured as REG, corresponding RDMA shouldn't be enabled"),
    ({**bs_regs(alu=1), "D_DP_BS_ALU_CFG__BS_ALU_SRC": 1}, "needs its read DMA enabled"),
    ({**bs_regs(alu=1), "D_DP_BS_ALU_CFG__BS_ALU_SRC": 1, "RDMA__D_BRDMA_CFG__BRDMA_DISABLE": 0,
      "RDMA__D_BRDMA_CFG__BRDMA_DATA_USE": 0}, "DATA_USE must match"),
    ({"D_FEATURE_MODE_CFG__OUTPUT_DST": 1, "D_CVT_SCALE__CVT_SCALE": 2},
     "precision conversion is not allowed if SDP output to PDP or EQL mode"),
    ({**ew_regs(alu=0, algo=ALU_EQL), "D_CVT_SHIFT__CVT_SHIFT": 1},
     "precision conversion is not allowed if SDP output to PDP or EQL mode"),
    ({**ew_regs(alu=0, algo=ALU_EQL), "D_DP_EW_CFG__EW_LUT_BYPASS": 0},
     "all the operations after ALU should be bypassed"),
    ({**ew_regs(alu=0, algo=ALU_EQL), "D_DP_EW_ALU_CFG__EW_ALU_SRC": 1,
      "D_DP_EW_ALU_CFG__EW_ALU_CVT_BYPASS": 0,
      "RDMA__D_ERDMA_CFG__ERDMA_DISABLE": 0, "RDMA__D_ERDMA_CFG__ERDMA_DATA_USE": 1},
     "Y ALU convertor must be bypassed"),
    ({"D_FEATURE_MODE_CFG__WINOGRAD": 1}, "SDP has to work on the fly with CC"),
    ({"D_FEATURE_MODE_CFG__BATCH_NUMBER": 1, "D_FEATURE_MODE_CFG__FLYING_MODE": 1,
      **ew_regs(alu=0, algo=ALU_EQL)}, "SDP_Y can't work at EQL mode"),
    ({"D_FEATURE_MODE_CFG__BATCH_NUMBER": 2, "D_FEATURE_MODE_CFG__FLYING_MODE": 1}, "no multi-batch"),
    ({"RDMA__D_DATA_CUBE_HEIGHT__HEIGHT": 3}, "SDP_RDMA D_DATA_CUBE_HEIGHT must equal SDP's"),
    ({"D_DATA_FORMAT__OUT_PRECISION": 1}, "not a precision of this configuration"),
    ({"RDMA__D_FEATURE_MODE_CFG__IN_PRECISION": 2}, "not a precision of this configuration"),
])
def test_limitation_rules_raise(regs: dict[str, int], rule: str) -> None:
    with pytest.raises(ConfigError, match=rule.replace("(", r"\(").replace(")", r"\)")):
        cfg_of(**regs)


def test_config_error_names_the_values() -> None:
    with pytest.raises(ConfigError) as err:
        cfg_of(D_FEATURE_MODE_CFG__OUTPUT_DST=1, D_CVT_SCALE__CVT_SCALE=2)
    assert err.value.values["CVT_SCALE"] == 2


def test_sdp_output_on_the_fly_feeds_pdp() -> None:
    # SDP adds 1 and hands a 2x1x3-channel cube to PDP (max 2x1); only PDP writes memory.
    from models.pdp.model import PdpConfig, run_pdp

    sdp_cfg = cfg_of(w=2, c=3, D_FEATURE_MODE_CFG__OUTPUT_DST=1, **bs_regs(alu=1))
    mem = DictMemory()
    atoms = np.array([5, -7, 0, 0, 0, 0, 0, 0, -3, 9, 0, 0, 0, 0, 0, 0], dtype=np.int8)
    mem.write(0x1000, atoms.view(np.uint8))
    handed = run_sdp(sdp_cfg, mem).flying_output
    assert handed is not None
    pdp = {"D_DATA_CUBE_IN_WIDTH.CUBE_IN_WIDTH": 1, "D_DATA_CUBE_IN_CHANNEL.CUBE_IN_CHANNEL": 2,
           "D_DATA_CUBE_OUT_CHANNEL.CUBE_OUT_CHANNEL": 2, "D_OPERATION_MODE_CFG.POOLING_METHOD": 1,
           "D_POOLING_KERNEL_CFG.KERNEL_WIDTH": 1, "D_DST_BASE_ADDR_LOW.DST_BASE_ADDR_LOW": 0x9000}
    res = run_pdp(PdpConfig.from_fields({"PDP": pdp}), mem, flying_input=handed)
    # lanes: max(5+1, -3+1) = 6, max(-7+1, 9+1) = 10, padding lanes max(1, 1) = 1
    assert mem.read(0x9000, 8).view(np.int8).tolist() == [6, 10, 1, 1, 1, 1, 1, 1]
    assert res.output[:, 0, 0].tolist() == [6, 10, 1, 1, 1, 1, 1, 1]
    assert not any(0x8000 <= a < 0x9000 for a in mem.data)


# --- INT16 (nv_full-like configuration) -----------------------------------------------------------------

NV_FULL_PRECISIONS = ("INT8", "INT16", "FP16")


def int16_cfg(c: int = 16, out_int16: bool = True, **regs: Any) -> SdpConfig:
    """An SDP layer with INT16 input (and INT16 or INT8 output) at nv_full's 32-byte atom."""
    out = 1 if out_int16 else 0
    fields = sdp_fields(c=c, D_DATA_FORMAT__PROC_PRECISION=1, D_DATA_FORMAT__OUT_PRECISION=out,
                        RDMA__D_FEATURE_MODE_CFG__IN_PRECISION=1, RDMA__D_FEATURE_MODE_CFG__PROC_PRECISION=1,
                        RDMA__D_FEATURE_MODE_CFG__OUT_PRECISION=out, **regs)
    return SdpConfig.from_fields(fields, 32, NV_FULL_PRECISIONS)


def test_int16_runs_the_int8_datapath_on_wider_inputs() -> None:
    """The same 32-bit datapath: int8-range data with an INT8-range result gives the INT8 answer."""
    rng = np.random.default_rng(2)
    x = rng.integers(-128, 128, (16, 1, 1))
    regs = {**bs_regs(alu=-3, mul=5, mul_shift=2, relu=True), "D_CVT_SCALE__CVT_SCALE": 3,
            "D_CVT_SHIFT__CVT_SHIFT": 4}
    i8 = SdpConfig.from_fields(sdp_fields(c=16, **regs), 32)
    assert np.array_equal(sdp_compute(x, i8).data, sdp_compute(x, int16_cfg(**regs)).data)


def test_int16_output_saturates_at_16_bits_and_int8_output_at_8() -> None:
    x = np.array([20000, -20000, 300, -300, 40]).reshape(5, 1, 1)
    scaled = {"D_CVT_SCALE__CVT_SCALE": 2}
    assert sdp_compute(x, int16_cfg(c=5, **scaled)).data.ravel().tolist() == [32767, -32768, 600, -600, 80]
    assert sdp_compute(x, int16_cfg(c=5, out_int16=False, **scaled)).data.ravel().tolist() == [
        127, -128, 127, -128, 80]


def test_int16_in_memory_two_bytes_per_element_and_int8_out() -> None:
    """INT16 in, INT8 out (seed 002 allows the conversion): the input atom holds 16 elements, the output
    atom 32; the values go through the convertor (scale 1, shift 8: /256, rounded)."""
    from models.common.cube import CubeLayout
    from models.common.memory import Memory

    rng = np.random.default_rng(3)
    mem = Memory()
    x = rng.integers(-32768, 32768, (32, 2, 3))
    CubeLayout(0x1000, 0x100, 0x1000, 3, 2, 32, 16, 2).write(mem, x)
    fields = sdp_fields(w=3, h=2, c=32, D_CVT_SHIFT__CVT_SHIFT=8, D_DATA_FORMAT__PROC_PRECISION=1,
                        RDMA__D_FEATURE_MODE_CFG__IN_PRECISION=1, RDMA__D_FEATURE_MODE_CFG__PROC_PRECISION=1)
    cfg = SdpConfig.from_fields(fields, 32, NV_FULL_PRECISIONS)
    run_sdp(cfg, mem)
    out = CubeLayout(0x8000, 0x100, 0x1000, 3, 2, 32, 32, 1).read(mem)
    expected = np.clip(np.sign(x) * ((np.abs(x) + 128) >> 8), -128, 127)  # round half away from zero
    assert np.array_equal(out, expected)


def test_int16_needs_the_configuration_and_agreeing_rdma_copies() -> None:
    with pytest.raises(ConfigError, match="not a precision of this configuration"):
        SdpConfig.from_fields(sdp_fields(D_DATA_FORMAT__PROC_PRECISION=1,
                                         RDMA__D_FEATURE_MODE_CFG__IN_PRECISION=1,
                                         RDMA__D_FEATURE_MODE_CFG__PROC_PRECISION=1), 8)  # nv_small: INT8
    with pytest.raises(ConfigError, match="must equal SDP's PROC_PRECISION"):
        SdpConfig.from_fields(sdp_fields(D_DATA_FORMAT__PROC_PRECISION=1), 32, NV_FULL_PRECISIONS)
