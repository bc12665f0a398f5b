"""The register description's sub-bundles (scripts/regdesc.py): layout and the checks on the description."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

import pytest

from models import registers as regs
from scripts import gen_regs, regdesc

RegMap = dict[str, Any]


def _unit(rm: RegMap, name: str) -> dict[str, Any]:
    return next(u for u in rm["units"] if u["name"] == name)


def _subs(rm: RegMap, name: str) -> dict[str, Any]:
    subs: dict[str, Any] = _unit(rm, name)["sub_bundles"]
    return subs


def _lut(rm: RegMap, name: str) -> dict[str, Any]:
    mapping: dict[str, Any] = _unit(rm, name)["sub_bundles"]["LUT_CFG"]
    return mapping


def test_lut_cfg_layout_agrees_in_verilog_and_python() -> None:
    units = {u.name: u for u in regdesc.parse(gen_regs.load())}
    for name in ("CDP", "SDP"):
        sub = next(s for s in units[name].subs if s.bundle.name == "LUT_CFG")
        w = sub.param
        assert w == {"CDP": 38, "SDP": 32}[name]
        layout = regs.BUNDLES[name]["LUT_CFG"]
        # the generated Verilog positions, evaluated at the unit's width, are the Python ones
        for member, (msb, lsb) in layout.items():
            pos = sub.bundle.position(member)
            part = re.fullmatch(r"\((\d+) \+ (\d+)\*\(w\)\) \+: \(w\)", pos)
            got = ((int(part[1]) + int(part[2]) * w + w - 1, int(part[1]) + int(part[2]) * w) if part
                   else tuple(int(b) for b in pos.split(":")))
            assert got == (msb, lsb), f"{name}.{member}: Verilog {pos} vs Python {(msb, lsb)}"
        width = eval(sub.bundle.width_expr().replace("w", str(w)))  # noqa: S307 (generated arithmetic)
        assert width == max(msb for msb, _ in layout.values()) + 1
        # every member's fields together are exactly as wide as its slice
        for member, fields in sub.sources:
            msb, lsb = layout[member]
            assert sum(f.width for f in fields) == msb - lsb + 1


def _broken(edit: Callable[[RegMap], None]) -> RegMap:
    rm = copy.deepcopy(gen_regs.load())
    edit(rm)
    return rm


@pytest.mark.parametrize(("edit", "message"), [
    (lambda rm: _lut(rm, "CDP").update(LE_FUNCTION="S_LUT_CFG.NO_SUCH"),
     "CDP.sub_bundles.LUT_CFG.LE_FUNCTION: CDP has no field 'S_LUT_CFG.NO_SUCH'"),
    (lambda rm: _lut(rm, "SDP").update(EXTRA="S_LUT_CFG.LUT_LE_FUNCTION"),
     r"unknown members \['EXTRA'\]"),
    (lambda rm: _lut(rm, "SDP").pop("LO_END"), r"missing members \['LO_END'\]"),
    (lambda rm: _unit(rm, "SDP")["sub_bundles"].update(NO_SUCH={}), "no top-level sub_bundles.NO_SUCH"),
    (lambda rm: _lut(rm, "SDP").update(LE_FUNCTION="D_PERF_LUT_UFLOW.LUT_UFLOW"),
     "is stat, not an rw"),
    (lambda rm: _lut(rm, "SDP").update(LE_INDEX_OFFSET="S_LUT_CFG.LUT_LE_FUNCTION"),
     "CDP.sub_bundles.LUT_CFG.LE_INDEX_OFFSET: 8 bits, SDP's is 1"),
    (lambda rm: _lut(rm, "CDP").update(LE_START="S_LUT_LE_START_LOW.LUT_LE_START_LOW"),
     "param members .* differ in width"),
    (lambda rm: rm["sub_bundles"]["LUT_CFG"]["members"].reverse(), "must be the last members"),
    (lambda rm: _subs(rm, "SDP").update({"X_CFG@bs": _subs(rm, "SDP")["X_CFG@BS"]}),
     "the copy's name after @ must be an upper-case identifier"),
])
def test_bad_sub_bundles_are_named(edit: Callable[[RegMap], None], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        regdesc.parse(_broken(edit))


def test_dma_surf_is_one_layout_for_source_and_destination() -> None:
    units = {u.name: u for u in regdesc.parse(gen_regs.load())}
    subs = [next(s for s in units[n].subs if s.bundle.name == "DMA_SURF") for n in ("CDP_RDMA", "CDP")]
    assert regs.BUNDLES["CDP_RDMA"]["DMA_SURF"] == regs.BUNDLES["CDP"]["DMA_SURF"]
    assert [f.key for _m, (f,) in subs[0].sources] == [
        "D_SRC_BASE_ADDR_LOW.SRC_BASE_ADDR_LOW", "D_SRC_LINE_STRIDE.SRC_LINE_STRIDE",
        "D_SRC_SURFACE_STRIDE.SRC_SURFACE_STRIDE"]
    assert subs[1].bundle.width_expr() == "96" and subs[1].param == 0


def test_x_cfg_copies_share_one_layout_and_map_their_own_fields() -> None:
    """SDP holds the X block's group twice (BS, BN): one layout, each copy its own fields and macro."""
    sdp = next(u for u in regdesc.parse(gen_regs.load()) if u.name == "SDP")
    copies = {s.instance: s for s in sdp.subs if s.bundle.name == "X_CFG"}
    assert set(copies) == {"BS", "BN"}
    assert regs.BUNDLES["SDP"]["X_CFG@BS"] == regs.BUNDLES["SDP"]["X_CFG@BN"]
    for name, sub in copies.items():
        assert sub.tag == f"X_CFG_{name}" and sub.key == f"X_CFG@{name}"
        assert all(f.reg.startswith(f"D_DP_{name}_") for _m, fields in sub.sources for f in fields)
