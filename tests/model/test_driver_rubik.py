"""Rubik's driver and model (models/rubik/driver.py, models/rubik/model.py): seed 001's Limitation rules
refused by
name (docs/limitations.md, Rubik section), and the model's three modes against numpy rearrangements written
here independently of it (contract: a transpose of the sx*sy cubes; split: one plane per channel; merge:
split's inverse). NVIDIA's RTL is the reference for the exact bytes: traces/nv_full_ref/rubik
(tests/model/test_ref_programs.py)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from models import registers
from models.common.memory import Memory
from models.errors import ConfigError
from models.rubik.driver import RubikLayer, Side, check_layer, layer_fields, rubik_layer
from models.rubik.model import RubikConfig, run_rubik

SEED = 31
ATOM = 32


def _config(layer: RubikLayer) -> RubikConfig:
    """The model's view of the driver's program: encoded to registers and decoded again."""
    regs = registers.encode_fields("RUBIK", layer_fields(layer))
    return RubikConfig.from_fields(registers.decode_fields("RUBIK", regs))


def _contract_layer(rng: np.random.Generator, precision: str) -> RubikLayer:
    sx, sy = (int(v) for v in rng.integers(1, 12, size=2))
    epa = 32 if precision == "INT8" else 16
    cout = int(rng.integers(1, 2 * epa + 5))
    w, h = int(rng.integers(1, 9)), int(rng.integers(1, 4))
    surfs = -(-cout // epa)
    line = (w + int(rng.integers(0, 2))) * ATOM
    surf = h * line + int(rng.integers(0, 2)) * ATOM
    dline = (w * sx + int(rng.integers(0, 2))) * ATOM
    return RubikLayer("CONTRACT", precision, w, h, cout * sx * sy, Side(0x10000, line, surf),
                      Side(0x800000, dline, h * sy * dline + ATOM), x_stride=sx, y_stride=sy,
                      contract_stride0=surfs * surf + int(rng.integers(0, 2)) * ATOM)


@pytest.mark.parametrize("precision", ["INT8", "INT16", "FP16"])
def test_contract_is_the_transpose_of_the_stride_cubes(precision: str) -> None:
    rng = np.random.default_rng([SEED, 1, len(precision)])
    print(f"seed {SEED}")
    for _ in range(20):
        layer = _contract_layer(rng, precision)
        cfg = _config(layer)
        mem = Memory()
        lo, hi = layer.src_span()
        mem.write(lo, rng.integers(0, 256, size=hi - lo, dtype=np.uint8))
        sx, sy, w, h = layer.x_stride, layer.y_stride, layer.width, layer.height
        surfs = cfg.out_surfaces
        cubes = np.zeros((sy, sx, surfs, h, w, ATOM), dtype=np.uint8)
        for dy in range(sy):
            for dx in range(sx):
                for s in range(surfs):
                    for y in range(h):
                        cube = lo + (dy * sx + dx) * cfg.contract_stride0
                        a = cube + s * layer.src.surf + y * layer.src.line
                        cubes[dy, dx, s, y] = mem.read(a, w * ATOM).reshape(w, ATOM)
        expected = cubes.transpose(2, 3, 0, 4, 1, 5).reshape(surfs, h * sy, w * sx, ATOM)
        run_rubik(cfg, mem)
        for s in range(surfs):
            for y in range(h * sy):
                got = mem.read(layer.dst.base + s * layer.dst.surf + y * layer.dst.line, w * sx * ATOM)
                assert np.array_equal(got, expected[s, y].reshape(-1)), (layer, s, y)


@pytest.mark.parametrize("precision", ["INT8", "INT16", "FP16"])
def test_split_then_merge_gives_the_cube_back(precision: str) -> None:
    rng = np.random.default_rng([SEED, 2, len(precision)])
    bpe = 1 if precision == "INT8" else 2
    epa = ATOM // bpe
    for _ in range(20):
        w, h, c = int(rng.integers(1, 150)), int(rng.integers(1, 4)), int(rng.integers(1, 3 * epa))
        surfs = -(-c // epa)
        pline = -(-w * bpe // 64) * 64 + int(rng.integers(0, 2)) * 64
        planar = h * pline + int(rng.integers(0, 2)) * 64
        line = w * ATOM
        cube = Side(0x100000, line, h * line)
        planes = Side(0x1000000, pline, planar=planar)
        back = Side(0x2000000, line, h * line)
        mem = Memory()
        data = rng.integers(0, 256, size=(surfs, h, w, epa, bpe), dtype=np.uint8)
        mem.write(cube.base, data.reshape(-1))
        run_rubik(_config(RubikLayer("SPLIT", precision, w, h, c, cube, planes)), mem)
        for p in range(c):
            for y in range(h):
                got = mem.read(planes.base + p * planar + y * pline, -(-w * bpe // ATOM) * ATOM)
                want = np.zeros_like(got)
                want[:w * bpe] = data[p // epa, y, :, p % epa].reshape(-1)
                assert np.array_equal(got, want), (w, h, c, p, y)
        run_rubik(_config(RubikLayer("MERGE", precision, w, h, c, planes, back)), mem)
        merged = mem.read(back.base, data.size).reshape(data.shape)
        expected = data.copy()
        channel = np.arange(surfs)[:, None] * epa + np.arange(epa)[None, :]      # (surface, lane)
        expected[(channel >= c)[:, None, None, :].repeat(h, 1).repeat(w, 2)] = 0   # merge: 0 past C
        assert np.array_equal(merged, expected), (w, h, c)


def _valid(mode: str) -> RubikLayer:
    if mode == "CONTRACT":
        return RubikLayer("CONTRACT", "INT16", 4, 2, 2 * 3 * 20, Side(0x10000, 4 * ATOM, 8 * ATOM),
                          Side(0x100000, 8 * ATOM, 48 * ATOM), x_stride=2, y_stride=3)
    if mode == "SPLIT":
        return RubikLayer("SPLIT", "INT8", 40, 2, 5, Side(0x10000, 40 * ATOM, 80 * ATOM),
                          Side(0x100000, 64, planar=128))
    return RubikLayer("MERGE", "FP16", 40, 2, 5, Side(0x10000, 128, planar=256),
                      Side(0x100000, 40 * ATOM, 80 * ATOM))


RULE_CASES = {
    "RB1-mode": ("SPLIT", {"mode": "ROTATE"}),
    "RB1-precision": ("MERGE", {"precision": "INT4"}),
    "RB1-width": ("SPLIT", {"width": 8193}),
    "RB1-stride": ("CONTRACT", {"x_stride": 33, "channels": 33 * 3 * 20}),
    "RB2-contract-dst": ("CONTRACT", {"dst": Side(0x100010, 8 * ATOM, 48 * ATOM)}),
    "RB2-contract-stride0": ("CONTRACT", {"contract_stride0": 8 * ATOM + 16}),
    "RB2-split-cube": ("SPLIT", {"src": Side(0x10000, 40 * ATOM + 8, 81 * ATOM)}),
    "RB3-split-planar-base": ("SPLIT", {"dst": Side(0x100020, 64, planar=128)}),
    "RB3-merge-line": ("MERGE", {"src": Side(0x10000, 96, planar=256)}),
    "RB3-merge-planar": ("MERGE", {"src": Side(0x10000, 128, planar=288)}),
    "RB4": ("CONTRACT", {"width": 2731, "x_stride": 3, "y_stride": 1, "channels": 60,
                         "src": Side(0x10000, 2731 * ATOM, 2 * 2731 * ATOM),
                         "dst": Side(0x1000000, 8193 * ATOM, 2 * 8193 * ATOM)}),
    "RB5-channels": ("CONTRACT", {"channels": 121}),
    "RB5-stride1": ("CONTRACT", {"contract_stride1": 16 * ATOM}),
    "RB7-line": ("SPLIT", {"src": Side(0x10000, 39 * ATOM, 80 * ATOM)}),
    "RB7-planar": ("SPLIT", {"dst": Side(0x100000, 64, planar=64)}),
    "RB7-overlap": ("MERGE", {"dst": Side(0x10100, 40 * ATOM, 80 * ATOM)}),
    "RB7-address-space": ("SPLIT", {"dst": Side(0xFFFFFF00, 64, planar=128)}),
}


@pytest.mark.parametrize("case", sorted(RULE_CASES))
def test_driver_refuses_naming_the_rule(case: str) -> None:
    mode, change = RULE_CASES[case]
    check_layer(_valid(mode))           # the starting layer is legal
    with pytest.raises(ConfigError, match=rf"^Rubik {case.split('-')[0]}:"):
        rubik_layer(replace(_valid(mode), **change))


def test_model_refuses_what_the_rtl_does_not_carry_out() -> None:
    """RB4 and RB6 on raw register values (a program not made by the driver)."""
    fields = registers.decode_fields("RUBIK", registers.encode_fields("RUBIK", layer_fields(_valid("SPLIT"))))
    with pytest.raises(ConfigError, match="^Rubik RB6:"):
        run_rubik(RubikConfig.from_fields({**fields, "D_DATAOUT_SIZE_1.DATAOUT_CHANNEL": 40}), Memory())
    fields = registers.decode_fields("RUBIK",
                                     registers.encode_fields("RUBIK", layer_fields(_valid("CONTRACT"))))
    wide = {**fields, "D_DATAIN_SIZE_0.DATAIN_WIDTH": 4096, "D_DECONV_STRIDE.DECONV_X_STRIDE": 1}
    with pytest.raises(ConfigError, match="^Rubik RB4:"):
        run_rubik(RubikConfig.from_fields(wide), Memory())
    with pytest.raises(ConfigError, match="^Rubik RB1:"):
        RubikConfig.from_fields({**fields, "D_MISC_CFG.RUBIK_MODE": 3})


def test_program_order_ends_with_op_enable() -> None:
    writes = rubik_layer(_valid("CONTRACT"), group=1)
    assert writes[0] == ("RUBIK", "S_POINTER", 1) and writes[-1] == ("RUBIK", "D_OP_ENABLE", 1)
    assert len({w.reg for w in writes}) == len(writes)


def test_every_rubik_rule_has_a_test() -> None:
    """docs/limitations.md's Rubik rows: RB1.. in order, each with a case here, each case's id documented."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "limitations.md").read_text()
    ids = [m.group(1) for m in re.finditer(r"^\| (RB\d+) \|", doc, re.M)]
    assert ids == [f"RB{i}" for i in range(1, len(ids) + 1)] and len(ids) >= 7
    tested = {c.split("-")[0] for c in RULE_CASES} | {"RB6"}   # RB6: test_model_refuses_...
    assert set(ids) == tested, (ids, sorted(tested))
