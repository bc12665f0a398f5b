"""The register description and everything generated from it."""

from __future__ import annotations

import pytest

from models import registers as regs
from scripts import gen_regs


def test_generated_files_are_up_to_date() -> None:
    stale = [str(p.relative_to(gen_regs.ROOT)) for p, text in gen_regs.outputs(gen_regs.load()).items()
             if not p.exists() or p.read_text() != text]
    assert not stale, f"run `make regs`: {stale} differ from regmap/nvdla_regs.json"


def test_unit_bases_and_known_addresses() -> None:
    assert regs.address("GLB", "S_NVDLA_HW_VERSION") == 0x1000
    assert regs.reset_values("GLB")["S_NVDLA_HW_VERSION"] == 0x00303031
    assert regs.address("PDP", "D_OP_ENABLE") == 0xB008
    assert regs.address("CDP", "S_LUT_ACCESS_CFG") == 0xD008
    assert regs.lookup_address(0xB008) == ("PDP", "D_OP_ENABLE")
    assert regs.lookup_address(0xB004 + 0xFF0) is None
    assert regs.unit_at(0xBFFC) == "PDP"


def test_field_positions_from_the_seed() -> None:
    # S_LUT_ACCESS_CFG: LUT_ADDR[9:0], LUT_TABLE_ID[16], LUT_ACCESS_TYPE[17] (NVDLA programming guide)
    f = regs.decode_fields("CDP", {"S_LUT_ACCESS_CFG": 0x30000 | 5})
    assert f == {"S_LUT_ACCESS_CFG.LUT_ADDR": 5, "S_LUT_ACCESS_CFG.LUT_TABLE_ID": 1,
                 "S_LUT_ACCESS_CFG.LUT_ACCESS_TYPE": 1}


def test_encode_is_decode_inverse() -> None:
    values = {"D_POOLING_KERNEL_CFG.KERNEL_WIDTH": 2, "D_POOLING_KERNEL_CFG.KERNEL_HEIGHT": 7,
              "D_POOLING_KERNEL_CFG.KERNEL_STRIDE_WIDTH": 1, "D_POOLING_KERNEL_CFG.KERNEL_STRIDE_HEIGHT": 15}
    encoded = regs.encode_fields("PDP", values)
    assert regs.decode_fields("PDP", encoded) == values
    with pytest.raises(ValueError, match="does not fit"):
        regs.encode_fields("PDP", {"D_POOLING_KERNEL_CFG.KERNEL_WIDTH": 16})


def test_trace_names() -> None:
    assert regs.lookup_trace_name("NVDLA_SDP_RDMA.D_FEATURE_MODE_CFG_0") == ("SDP_RDMA", "D_FEATURE_MODE_CFG")
    with pytest.raises(KeyError):
        regs.lookup_trace_name("NVDLA_PDP.D_NO_SUCH_0")


def test_fields_do_not_overlap_and_fit() -> None:
    for unit, u in regs.UNITS.items():
        for name, r in u["registers"].items():
            used = 0
            for fname, (msb, lsb, _acc) in r["fields"].items():
                mask = ((1 << (msb - lsb + 1)) - 1) << lsb
                assert msb < 32 and not used & mask, f"{unit}.{name}.{fname} overlaps or exceeds 32 bits"
                used |= mask
            assert r["offset"] % 4 == 0 and r["offset"] < 0x1000
