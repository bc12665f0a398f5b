"""The register-file model (models/regfile.py): the behaviour of the RTL register blocks, from the tables."""

from __future__ import annotations

import pytest

from models import registers
from models.regfile import (
    GLB_IMPLEMENTED,
    HOLD,
    LATCH,
    Glb,
    RegisterFile,
    intr_bit,
    intr_bits,
    intr_mask,
    lut_pointer,
    stat_style,
)
from models.steps import RegWrite


def test_rw_masking_keeps_only_rw_bits() -> None:
    rf = RegisterFile("PDP")
    # CUBE_IN_WIDTH is 13 bits wide: the reserved bits above are not stored
    rf.write("D_DATA_CUBE_IN_WIDTH", 0xFFFF_FFFF)
    assert rf.read("D_DATA_CUBE_IN_WIDTH") == 0x1FFF
    # S_POINTER: PRODUCER is RW, CONSUMER is RO
    rf.write("S_POINTER", 0xFFFF_FFFF)
    assert rf.read("S_POINTER") == 1 and rf.producer == 1 and rf.consumer == 0
    # a read-only register ignores writes
    rf.write("D_PERF_WRITE_STALL", 0x1234)
    assert rf.read("D_PERF_WRITE_STALL") == 0


def test_groups_op_enable_handshake_and_write_protection() -> None:
    rf = RegisterFile("CDP")
    rf.write("D_DST_BASE_ADDR_LOW", 0x100)
    assert rf.write("D_OP_ENABLE", 1)                 # arms group 0
    assert not rf.write("D_OP_ENABLE", 1)             # already armed: dropped
    rf.write("D_DST_BASE_ADDR_LOW", 0x200)            # dropped: group 0 is armed
    assert rf.read("D_DST_BASE_ADDR_LOW") == 0x100
    rf.write("S_POINTER", 1)
    rf.write("D_DST_BASE_ADDR_LOW", 0x300)
    assert not rf.write("D_OP_ENABLE", 0)             # bit 0 clear: nothing armed
    assert rf.write("D_OP_ENABLE", 1)
    assert rf.status() == 0x20001                     # group 0 running, group 1 pending
    assert rf.fields(rf.consumer)["D_DST_BASE_ADDR_LOW.DST_BASE_ADDR_LOW"] == 0x100
    assert rf.done({}) == 0
    assert rf.status() == 0x10000 and rf.consumer == 1
    assert rf.consumer_value("D_DST_BASE_ADDR_LOW") == 0x300
    rf.done({})
    assert rf.status() == 0 and rf.read("S_POINTER") == 1


def test_latched_statistics_clear_on_arm_and_latch_when_op_en_falls() -> None:
    rf = RegisterFile("SDP")
    assert stat_style("SDP", "D_PERF_OUT_SATURATION") == LATCH
    rf.write("D_OP_ENABLE", 1)
    rf.done({"D_PERF_OUT_SATURATION": 7})
    assert rf.read("D_PERF_OUT_SATURATION") == 7
    rf.done({"D_PERF_OUT_SATURATION": 9})             # group 1 was not armed: nothing latched there
    rf.write("S_POINTER", 1)
    assert rf.read("D_PERF_OUT_SATURATION") == 0
    rf.done({"D_PERF_OUT_SATURATION": 5})             # a done with group 0 idle keeps its value
    rf.write("S_POINTER", 0)
    assert rf.read("D_PERF_OUT_SATURATION") == 7
    rf.write("D_OP_ENABLE", 1)                        # arming clears it
    assert rf.read("D_PERF_OUT_SATURATION") == 0


def test_held_statistics_load_at_every_done_and_are_never_cleared() -> None:
    rf = RegisterFile("CDP")
    assert stat_style("CDP", "D_OUT_SATURATION") == HOLD
    assert stat_style("CDP", "D_NAN_INPUT_NUM") == LATCH
    rf.done({"D_OUT_SATURATION": 3, "D_NAN_INPUT_NUM": 4})   # nothing armed: only the held one loads
    assert rf.read("D_OUT_SATURATION") == 3 and rf.read("D_NAN_INPUT_NUM") == 0
    rf.write("S_POINTER", 1)
    rf.write("D_OP_ENABLE", 1)
    rf.write("S_POINTER", 0)
    rf.done({})
    rf.write("S_POINTER", 0)
    rf.write("D_OP_ENABLE", 1)                        # arming group 0 keeps its held statistic
    assert rf.read("D_OUT_SATURATION") == 3


def test_statistic_styles_and_lut_pointer_come_from_the_description() -> None:
    for unit in registers.UNITS:
        for name, reg in registers.registers(unit).items():
            assert stat_style(unit, name) == reg.get("stat")
    assert lut_pointer("CDP") == "saturate" and lut_pointer("SDP") == "wrap" and lut_pointer("PDP") is None


@pytest.mark.parametrize("unit", ["CDP", "SDP"])
def test_lut_port_pointer_styles(unit: str) -> None:
    rf = RegisterFile(unit)
    cfg = registers.encode_fields(unit, {"S_LUT_ACCESS_CFG.LUT_ADDR": 63, "S_LUT_ACCESS_CFG.LUT_TABLE_ID": 0,
                                         "S_LUT_ACCESS_CFG.LUT_ACCESS_TYPE": 1})["S_LUT_ACCESS_CFG"]
    assert not rf.lut_used
    rf.write("S_LUT_ACCESS_CFG", cfg)
    for value in (10, 11, 12):
        rf.write("S_LUT_ACCESS_DATA", value)
    le, _lo = rf.lut.tables()
    if unit == "CDP":   # saturates at the last LE entry (64): the third write rewrites it
        assert le[63:65].tolist() == [10, 12] and rf.read("S_LUT_ACCESS_CFG") & 0x3FF == 64
    else:               # wraps at 10 bits; entry 65 is outside the LE table
        assert le[63:65].tolist() == [10, 11] and rf.read("S_LUT_ACCESS_CFG") == cfg
    assert rf.lut_used


def test_glb_bit_map_is_the_status_field_names() -> None:
    assert intr_bits("SDP") == (0, 1) and intr_bits("CDP") == (2, 3) and intr_bits("PDP") == (4, 5)
    assert intr_bit("CACC", 1) == 21
    assert intr_mask(("SDP", "CDP", "PDP")) == 0x3F
    with pytest.raises(KeyError):
        intr_bits("SDP_RDMA")


def test_glb_w1s_w1c_mask_and_absent_units() -> None:
    glb = Glb()
    glb.write("S_INTR_SET", 0xFFFF_FFFF)
    assert glb.read("S_INTR_STATUS") == GLB_IMPLEMENTED == 0x3F003F   # no BDMA, no RUBIK
    assert glb.read("S_INTR_SET") == 0
    glb.write("S_INTR_STATUS", 1 << 4)
    assert glb.read("S_INTR_STATUS") == 0x3F002F
    glb.write("S_INTR_STATUS", 0xFFFF_FFFF)
    assert glb.read("S_INTR_STATUS") == 0 and not glb.intr
    glb.write("S_INTR_MASK", 0xFFFF_FFFF)
    assert glb.read("S_INTR_MASK") == 0x3F03FF        # every RW mask field, reserved bits not stored
    glb.unit_done("PDP", 1)
    assert glb.read("S_INTR_STATUS") == 1 << 5 and not glb.intr   # a masked done still sets status
    glb.write("S_INTR_MASK", 0)
    assert glb.intr


def test_reg_write_is_a_tuple_and_a_record() -> None:
    w = RegWrite("PDP", "D_OP_ENABLE", 1)
    unit, reg, value = w
    assert (unit, reg, value) == ("PDP", "D_OP_ENABLE", 1) == w and w.reg == "D_OP_ENABLE"
