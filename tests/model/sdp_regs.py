"""SDP register fields for the model's hand-computed tests (tests/model/test_sdp*.py): every block bypassed
and an identity output convertor unless a test overrides a field; an X block (BS or BN) with register
operands.
"""

from __future__ import annotations

from typing import Any

from models.sdp.datapath import ALU_SUM
from models.sdp.model import SdpConfig


def sdp_fields(w: int = 1, h: int = 1, c: int = 8, **regs: int) -> dict[str, dict[str, int]]:
    """SDP fields with every block bypassed and an identity output convertor; `regs` override.

    Keys in `regs` use '__' for '.', and a 'RDMA__' prefix for SDP_RDMA fields.
    """
    sdp = {
        "D_DATA_CUBE_WIDTH.WIDTH": w - 1, "D_DATA_CUBE_HEIGHT.HEIGHT": h - 1,
        "D_DATA_CUBE_CHANNEL.CHANNEL": c - 1,
        "D_DST_BASE_ADDR_LOW.DST_BASE_ADDR_LOW": 0x8000, "D_DST_LINE_STRIDE.DST_LINE_STRIDE": 0x100,
        "D_DST_SURFACE_STRIDE.DST_SURFACE_STRIDE": 0x1000,
        "D_CVT_OFFSET.CVT_OFFSET": 0, "D_CVT_SCALE.CVT_SCALE": 1, "D_CVT_SHIFT.CVT_SHIFT": 0,
    }
    rdma = {
        "D_SRC_BASE_ADDR_LOW.SRC_BASE_ADDR_LOW": 0x1000, "D_SRC_LINE_STRIDE.SRC_LINE_STRIDE": 0x100,
        "D_SRC_SURFACE_STRIDE.SRC_SURFACE_STRIDE": 0x1000,
    }
    for key, value in regs.items():
        if key.startswith("RDMA__"):
            rdma[key[6:].replace("__", ".")] = value
        else:
            sdp[key.replace("__", ".")] = value
    return {"SDP": sdp, "SDP_RDMA": rdma}


def cfg_of(**regs: Any) -> SdpConfig:
    return SdpConfig.from_fields(sdp_fields(**regs))


def bs_regs(*, alu: int | None = None, alu_shift: int = 0, algo: int = ALU_SUM, mul: int | None = None,
            mul_shift: int = 0, prelu: bool = False, relu: bool = False,
            prefix: str = "BS") -> dict[str, int]:
    """Registers of an X block (BS or BN) with register operands."""
    p = prefix
    return {
        f"D_DP_{p}_CFG__{p}_BYPASS": 0,
        f"D_DP_{p}_CFG__{p}_ALU_BYPASS": int(alu is None),
        f"D_DP_{p}_CFG__{p}_ALU_ALGO": algo,
        f"D_DP_{p}_ALU_CFG__{p}_ALU_SHIFT_VALUE": alu_shift,
        f"D_DP_{p}_ALU_SRC_VALUE__{p}_ALU_OPERAND": (alu or 0) & 0xFFFF,
        f"D_DP_{p}_CFG__{p}_MUL_BYPASS": int(mul is None),
        f"D_DP_{p}_CFG__{p}_MUL_PRELU": int(prelu),
        f"D_DP_{p}_MUL_CFG__{p}_MUL_SHIFT_VALUE": mul_shift,
        f"D_DP_{p}_MUL_SRC_VALUE__{p}_MUL_OPERAND": (mul or 0) & 0xFFFF,
        f"D_DP_{p}_CFG__{p}_RELU_BYPASS": int(not relu),
    }
