"""Random SDP configurations against a scalar reference written with plain Python integers."""

from __future__ import annotations

from typing import Any

import numpy as np

from models.sdp.datapath import Operands
from models.sdp.model import SdpConfig, sdp_compute


def _signed(v: int, bits: int) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def _sat(v: int, bits: int) -> int:
    return max(-(1 << (bits - 1)), min((1 << (bits - 1)) - 1, v))


def _shift_round(v: int, s: int) -> int:
    if s == 0:
        return v
    q = (abs(v) + (1 << (s - 1))) >> s
    return q if v >= 0 else -q


def _alu(a: int, b: int, algo: int) -> int:
    return max(a, b) if algo == 0 else min(a, b) if algo == 1 else int(a != b) if algo == 3 else a + b


def _x_ref(x: int, b: dict[str, int], alu_op: int, mul_op: int) -> int:
    if b["bypass"]:
        return x
    if not b["alu_bypass"]:
        x = _alu(x, _sat(_signed(alu_op, 16) << b["alu_shift"], 32), b["algo"] if b["algo"] != 3 else 2)
    truncate = True
    if not b["mul_bypass"]:
        if b["prelu"] and x >= 0:
            truncate = False
        else:
            x = x * _signed(mul_op, 16)
    if truncate:
        x = _sat(_shift_round(x, b["mul_shift"] & 63), 32)
    else:
        x = _signed(x, 32)  # the PReLU bypass forwards the low 32 bits (NVDLA X_int_trt)
    if not b["relu_bypass"]:
        x = max(x, 0)
    return x


def _ew_ref(x: int, e: dict[str, int]) -> int:
    if e["bypass"]:
        return x
    if not e["mul_bypass"] and not (e["prelu"] and x >= 0):
        x = _sat(_shift_round(x * _signed(e["mul_op"], 32), e["truncate"]), 32)
    if not e["alu_bypass"]:
        x = _sat(_alu(x, _signed(e["alu_op"], 32), e["algo"]), 32)
    return x


def _rand_block(rng: np.random.Generator) -> dict[str, int]:
    bits = rng.integers(0, 2, size=6)
    return dict(bypass=int(bits[0] & bits[1]), alu_bypass=int(bits[2]), algo=int(rng.integers(0, 4)),
                alu_shift=int(rng.integers(0, 64)), alu_op=int(rng.integers(0, 1 << 16)),
                mul_bypass=int(bits[3]), prelu=int(bits[4]), mul_shift=int(rng.integers(0, 256)),
                mul_op=int(rng.integers(0, 1 << 16)), relu_bypass=int(bits[5]))


def _block_fields(p: str, b: dict[str, int], alu_mem: bool, mul_mem: bool) -> dict[str, int]:
    return {
        f"D_DP_{p}_CFG.{p}_BYPASS": b["bypass"], f"D_DP_{p}_CFG.{p}_ALU_BYPASS": b["alu_bypass"],
        f"D_DP_{p}_CFG.{p}_ALU_ALGO": b["algo"], f"D_DP_{p}_ALU_CFG.{p}_ALU_SHIFT_VALUE": b["alu_shift"],
        f"D_DP_{p}_ALU_SRC_VALUE.{p}_ALU_OPERAND": b["alu_op"],
        f"D_DP_{p}_ALU_CFG.{p}_ALU_SRC": int(alu_mem),
        f"D_DP_{p}_CFG.{p}_MUL_BYPASS": b["mul_bypass"], f"D_DP_{p}_CFG.{p}_MUL_PRELU": b["prelu"],
        f"D_DP_{p}_MUL_CFG.{p}_MUL_SHIFT_VALUE": b["mul_shift"],
        f"D_DP_{p}_MUL_CFG.{p}_MUL_SRC": int(mul_mem),
        f"D_DP_{p}_MUL_SRC_VALUE.{p}_MUL_OPERAND": b["mul_op"],
        f"D_DP_{p}_CFG.{p}_RELU_BYPASS": b["relu_bypass"],
    }


def _random_case(rng: np.random.Generator) -> tuple[dict[str, dict[str, int]], dict[str, Any]]:
    bs, bn = _rand_block(rng), _rand_block(rng)
    ew = dict(bypass=int(rng.integers(0, 2)), alu_bypass=int(rng.integers(0, 2)),
              algo=int(rng.integers(0, 3)),
              alu_op=int(rng.integers(0, 1 << 32)), mul_bypass=int(rng.integers(0, 2)),
              prelu=int(rng.integers(0, 2)), mul_op=int(rng.integers(0, 1 << 32)),
              truncate=int(rng.choice([0, 1, 5, 17, 40, 62, 63, 64, 1023])))
    cvt = dict(offset=int(rng.integers(0, 1 << 32)), scale=int(rng.integers(0, 1 << 16)),
               shift=int(rng.integers(0, 64)))
    # Memory operands for BS (per element, ALU and MUL) and BN (per channel, MUL) when those units run.
    bs_alu_mem = not bs["bypass"] and not bs["alu_bypass"]
    bs_mul_mem = not bs["bypass"] and not bs["mul_bypass"]
    bn_mul_mem = not bn["bypass"] and not bn["mul_bypass"]
    sdp = {"D_DATA_CUBE_WIDTH.WIDTH": 2, "D_DATA_CUBE_HEIGHT.HEIGHT": 1, "D_DATA_CUBE_CHANNEL.CHANNEL": 15,
           "D_CVT_OFFSET.CVT_OFFSET": cvt["offset"], "D_CVT_SCALE.CVT_SCALE": cvt["scale"],
           "D_CVT_SHIFT.CVT_SHIFT": cvt["shift"],
           "D_DP_EW_CFG.EW_BYPASS": ew["bypass"], "D_DP_EW_CFG.EW_ALU_BYPASS": ew["alu_bypass"],
           "D_DP_EW_CFG.EW_ALU_ALGO": ew["algo"], "D_DP_EW_ALU_SRC_VALUE.EW_ALU_OPERAND": ew["alu_op"],
           "D_DP_EW_CFG.EW_MUL_BYPASS": ew["mul_bypass"], "D_DP_EW_CFG.EW_MUL_PRELU": ew["prelu"],
           "D_DP_EW_MUL_SRC_VALUE.EW_MUL_OPERAND": ew["mul_op"],
           "D_DP_EW_TRUNCATE_VALUE.EW_TRUNCATE": ew["truncate"],
           "D_DP_EW_CFG.EW_LUT_BYPASS": 1,
           **_block_fields("BS", bs, bs_alu_mem, bs_mul_mem), **_block_fields("BN", bn, False, bn_mul_mem)}
    use = {(True, True): 2, (True, False): 1, (False, True): 0}
    rdma: dict[str, int] = {}
    if bs_alu_mem or bs_mul_mem:
        rdma.update({"D_BRDMA_CFG.BRDMA_DISABLE": 0,
                     "D_BRDMA_CFG.BRDMA_DATA_USE": use[(bs_alu_mem, bs_mul_mem)],
                     "D_BRDMA_CFG.BRDMA_DATA_MODE": 1})
    if bn_mul_mem:
        rdma.update({"D_NRDMA_CFG.NRDMA_DISABLE": 0, "D_NRDMA_CFG.NRDMA_DATA_USE": 0,
                     "D_NRDMA_CFG.NRDMA_DATA_SIZE": 1})
    return {"SDP": sdp, "SDP_RDMA": rdma}, dict(bs=bs, bn=bn, ew=ew, cvt=cvt)


def test_random_configurations_match_the_scalar_reference() -> None:
    rng = np.random.default_rng(99)
    for _ in range(120):
        fields, p = _random_case(rng)
        cfg = SdpConfig.from_fields(fields)
        x = rng.integers(-128, 128, size=(16, 2, 3))
        ops = Operands(bs_alu=rng.integers(-128, 128, size=(16, 2, 3)),
                       bs_mul=rng.integers(-128, 128, size=(16, 2, 3)),
                       bn_mul=rng.integers(-(1 << 15), 1 << 15, size=(16, 1, 1)))
        got = sdp_compute(x, cfg, ops)
        sat = 0
        for c, h, w in np.ndindex(x.shape):
            v = _x_ref(int(x[c, h, w]), p["bs"], int(ops.bs_alu[c, h, w]) & 0xFFFF,  # type: ignore[index]
                       int(ops.bs_mul[c, h, w]) & 0xFFFF)  # type: ignore[index]
            # BN's ALU operand is its register; its MUL operand comes from memory (per channel).
            v = _x_ref(v, p["bn"], p["bn"]["alu_op"], int(ops.bn_mul[c, 0, 0]) & 0xFFFF)  # type: ignore[index]
            v = _ew_ref(v, p["ew"])
            cvt = p["cvt"]
            product = (v - _signed(cvt["offset"], 32)) * _signed(cvt["scale"], 16)
            exact = _shift_round(product, cvt["shift"])
            out = _sat(exact, 8)
            # Counted: the 17-bit stage saturates (judged on the floor for negative values, as the RTL does).
            sat += (product >> cvt["shift"]) < -(1 << 16) or exact > (1 << 16) - 1
            assert int(got.data[c, h, w]) == out, (p, c, h, w)
        assert got.saturation_count == sat
