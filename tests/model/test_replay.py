"""The trace parser, the sparse memory and the register-group behaviour of the model target."""

from __future__ import annotations

import zlib
from pathlib import Path

import numpy as np
import pytest

from models import registers as regmap
from models.common.memory import Memory
from models.replay import replay
from models.subsystem import ModelTarget
from models.trace import TraceError, load_dat, parse_cfg


def test_memory_reads_zero_and_spans_pages() -> None:
    mem = Memory()
    assert mem.read(0xFFFF_FFF0, 16).tolist() == [0] * 16
    mem.write(0xFFFE, np.arange(6, dtype=np.uint8))
    assert mem.read(0xFFFC, 10).tolist() == [0, 0, 0, 1, 2, 3, 4, 5, 0, 0]
    mem.fill(0xFFFF, 2, 0xAA)
    assert mem.read(0xFFFE, 3).tolist() == [0, 0xAA, 0xAA]
    with pytest.raises(ValueError, match="outside the 32-bit"):
        mem.read(0xFFFF_FFFF, 2)


def test_parser_rejects_unknown_command_with_file_and_line(tmp_path: Path) -> None:
    cfg = tmp_path / "t.cfg"
    cfg.write_text("reg_write(NVDLA_PDP.D_OP_ENABLE_0, 0x1);\n\npoll_reg(NVDLA_PDP.S_STATUS_0, 0);\n")
    with pytest.raises(TraceError, match=r"t\.cfg:3: unknown command 'poll_reg'"):
        parse_cfg(cfg)


def test_dat_records_with_wrapping_braces(tmp_path: Path) -> None:
    dat = tmp_path / "x.dat"
    dat.write_text("{\n{offset:0x10, size:3, payload:0x01 0x02 0xff} ,\n"
                   "{offset:0x0, size:1, payload:0x7f},\n}\n")
    recs = load_dat(dat)
    assert [(o, d.tolist()) for o, d in recs] == [(0x10, [1, 2, 255]), (0, [127])]
    dat.write_text("{offset:0x0, size:2, payload:0x01}\n")
    with pytest.raises(TraceError, match="size 2 but has 1"):
        load_dat(dat)


def _pdp_copy_program(src: int, dst: int) -> dict[str, int]:
    """A 2x1x8 PDP max pooling with a 1x1 kernel: a copy, enough to see which group ran."""
    pdp = regmap.encode_fields("PDP", {
        "D_DATA_CUBE_IN_WIDTH.CUBE_IN_WIDTH": 1, "D_DATA_CUBE_OUT_WIDTH.CUBE_OUT_WIDTH": 1,
        "D_OPERATION_MODE_CFG.POOLING_METHOD": 1, "D_OPERATION_MODE_CFG.FLYING_MODE": 1,
        "D_DST_BASE_ADDR_LOW.DST_BASE_ADDR_LOW": dst, "D_DST_LINE_STRIDE.DST_LINE_STRIDE": 16,
        "D_DST_SURFACE_STRIDE.DST_SURFACE_STRIDE": 16, "D_SRC_LINE_STRIDE.SRC_LINE_STRIDE": 16,
        "D_SRC_SURFACE_STRIDE.SRC_SURFACE_STRIDE": 16, "D_DST_RAM_CFG.DST_RAM_TYPE": 1,
        "D_RECIP_KERNEL_WIDTH.RECIP_KERNEL_WIDTH": 0xFFFF,
        "D_RECIP_KERNEL_HEIGHT.RECIP_KERNEL_HEIGHT": 0xFFFF,
        "D_PARTIAL_WIDTH_IN.PARTIAL_WIDTH_IN_FIRST": 1, "D_PARTIAL_WIDTH_OUT.PARTIAL_WIDTH_OUT_FIRST": 1,
    })
    rdma = regmap.encode_fields("PDP_RDMA", {
        "D_DATA_CUBE_IN_WIDTH.CUBE_IN_WIDTH": 1, "D_SRC_BASE_ADDR_LOW.SRC_BASE_ADDR_LOW": src,
        "D_SRC_LINE_STRIDE.SRC_LINE_STRIDE": 16, "D_SRC_SURFACE_STRIDE.SRC_SURFACE_STRIDE": 16,
        "D_FLYING_MODE.FLYING_MODE": 1, "D_PARTIAL_WIDTH_IN.PARTIAL_WIDTH_IN_FIRST": 1,
        "D_SRC_RAM_CFG.SRC_RAM_TYPE": 1,
    })
    return {**{f"PDP.{k}": v for k, v in pdp.items()}, **{f"PDP_RDMA.{k}": v for k, v in rdma.items()}}


def _program(t: ModelTarget, regs: dict[str, int]) -> None:
    for key, value in regs.items():
        unit, reg = key.split(".")
        t.reg_write(unit, reg, value)


def test_register_groups_ping_pong_and_write_protect() -> None:
    t = ModelTarget()
    t.mem_write(0, 0x100, np.arange(16, dtype=np.uint8))
    t.mem_write(0, 0x200, np.arange(100, 116, dtype=np.uint8))
    # group 0: program and enable the PDP only (its RDMA not yet): nothing runs, the group is write-protected
    _program(t, _pdp_copy_program(0x100, 0x1000))
    t.reg_write("PDP", "D_OP_ENABLE", 1)
    assert t.reg_read("PDP", "S_STATUS") == 1            # group 0 running (waiting for its RDMA)
    t.reg_write("PDP", "D_DST_BASE_ADDR_LOW", 0x3000)     # dropped: group 0 is enabled
    assert t.reg_read("PDP", "D_DST_BASE_ADDR_LOW") == 0x1000
    # group 1 programmed while group 0 waits
    for unit in ("PDP", "PDP_RDMA"):
        t.reg_write(unit, "S_POINTER", 1)
    _program(t, _pdp_copy_program(0x200, 0x2000))
    t.reg_write("PDP_RDMA", "D_OP_ENABLE", 1)
    t.reg_write("PDP", "D_OP_ENABLE", 1)
    assert t.reg_read("PDP", "S_STATUS") == 1 | (2 << 16)  # group 1 pending behind group 0
    assert not t.wait_interrupt("PDP", 1)
    # enabling group 0's RDMA lets group 0 run, then group 1 follows
    for unit in ("PDP", "PDP_RDMA"):
        t.reg_write(unit, "S_POINTER", 0)
    t.reg_write("PDP_RDMA", "D_OP_ENABLE", 1)
    assert t.wait_interrupt("PDP", 0) and t.wait_interrupt("PDP", 1)
    assert t.mem_read(0, 0x1000, 16).tolist() == list(range(16))
    assert t.mem_read(0, 0x2000, 16).tolist() == list(range(100, 116))
    assert t.reg_read("PDP", "S_STATUS") == 0 and t.reg_read("PDP", "S_POINTER") == 0


def test_replay_reports_crc_mismatch_and_missing_interrupt(tmp_path: Path) -> None:
    folder = tmp_path / "mini"
    folder.mkdir()
    (folder / "mini_in.dat").write_text("{offset:0x0, size:16, payload:" +
                                        " ".join(f"{i:#04x}" for i in range(16)) + "}\n")
    lines = ['mem_load(pri_mem, 0x100, "mini_in.dat");']
    lines += [f"reg_write(NVDLA_{k.split('.')[0]}.{k.split('.')[1]}_0, {v:#x});"
              for k, v in _pdp_copy_program(0x100, 0x1000).items()]
    lines += ["reg_write(NVDLA_PDP_RDMA.D_OP_ENABLE_0, 0x1);", "reg_write(NVDLA_PDP.D_OP_ENABLE_0, 0x1);",
              "intr_notify(PDP_0, sync_id_0);"]
    good = zlib.crc32(bytes(range(16)))
    check = "check_crc(sync_id_0, 1, 0x1000, 0x10, {:#x});"
    (folder / "mini.cfg").write_text("\n".join([*lines, check.format(good)]))
    assert replay(folder, ModelTarget()).passed
    (folder / "mini.cfg").write_text("\n".join([*lines, check.format(good ^ 1)]))
    res = replay(folder, ModelTarget())
    assert not res.passed and "expected" in res.message
    (folder / "mini.cfg").write_text("\n".join(lines[:-3] + ["intr_notify(PDP_0, sync_id_0);"]))
    res = replay(folder, ModelTarget())
    assert not res.passed and "PDP_0 never raised" in res.message
