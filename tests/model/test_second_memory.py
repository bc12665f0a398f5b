"""The second memory (NVDLA's CV SRAM) in the model: every DMA side whose RAM_TYPE is CV uses memory 1 when
the target has one (models.common.memory.pick_memory, models.subsystem.ModelTarget), memory 0 otherwise; the
drivers write each surface's RAM type."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from models import configs
from models.cdp.driver import cdp_layer
from models.common.driver import Surface
from models.common.memory import pick_memory
from models.lut.model import LutConfig
from models.pdp.driver import pdp_layer
from models.subsystem import ModelTarget

SRC = Surface(0x1000, 0x100, 0x1000)
DST = Surface(0x40000, 0x100, 0x1000)
SPAN = 0x4000


def _program(unit: str, src_mc: bool, dst_mc: bool) -> tuple[list, object, object]:
    src, dst = dataclasses.replace(SRC, ram_mc=src_mc), dataclasses.replace(DST, ram_mc=dst_mc)
    if unit == "PDP":
        prog = pdp_layer(8, 6, 16, method="max", kernel=(2, 2), stride=(2, 2), src=src, dst=dst)
    else:
        prog = cdp_layer(8, 6, 16, lut=LutConfig(unit="CDP"), src=src, dst=dst)
    return list(prog.writes), prog.config, prog


def _run(unit: str, src_mc: bool, dst_mc: bool, second: bool, data: bytes) -> ModelTarget:
    writes, cfg, _ = _program(unit, src_mc, dst_mc)
    target = ModelTarget(configs.load("nv_small_256_full" if second else "nv_small"))
    src_mem = 1 if (second and not src_mc) else 0
    target.mem_write(src_mem, SRC.base, np.frombuffer(data, dtype=np.uint8))
    for w in writes:
        target.reg_write(w.unit, w.reg, w.value)
    assert target.runs and target.runs[-1].unit == unit
    return target


@pytest.mark.parametrize("unit", ["PDP", "CDP"])
@pytest.mark.parametrize("src_mc", [True, False])
@pytest.mark.parametrize("dst_mc", [True, False])
@pytest.mark.parametrize("second", [True, False])
def test_each_side_uses_the_memory_its_ram_type_names(unit: str, src_mc: bool, dst_mc: bool,
                                                       second: bool) -> None:
    data = random.Random(7).randbytes(SPAN)
    reference = _run(unit, True, True, False, data)          # everything in memory 0
    got = _run(unit, src_mc, dst_mc, second, data)
    out = 1 if (second and not dst_mc) else 0
    assert got.runs[-1].mem == out
    expected = reference.mem_read(0, DST.base, SPAN)
    assert np.array_equal(got.mem_read(out, DST.base, SPAN), expected)
    assert not got.mem_read(1 - out, DST.base, SPAN).any(), "the other memory must stay untouched"


@pytest.mark.parametrize("unit", ["PDP", "CDP"])
def test_drivers_write_the_ram_types(unit: str) -> None:
    _, _, prog = _program(unit, False, True)
    fields = prog.fields  # type: ignore[attr-defined]
    flat = {k: v for unit_fields in fields.values() for k, v in unit_fields.items()}
    src_key = "D_SRC_RAM_CFG.SRC_RAM_TYPE" if unit == "PDP" else "D_SRC_DMA_CFG.SRC_RAM_TYPE"
    dst_key = "D_DST_RAM_CFG.DST_RAM_TYPE" if unit == "PDP" else "D_DST_DMA_CFG.DST_RAM_TYPE"
    assert flat[src_key] == 0 and flat[dst_key] == 1


def test_pick_memory() -> None:
    mem, sec = object(), object()
    assert pick_memory(True, mem, sec) is mem
    assert pick_memory(False, mem, sec) is sec
    assert pick_memory(False, mem, None) is mem
