"""Random Rubik programs (models/rubik/driver.py): contract, split and merge at INT8, INT16 and FP16 over the
legal register ranges: odd sizes, deconvolution strides 1..32 (around 8, where NVIDIA's write sequencer
changes its way: seq_gen `|x_stride[4:3]`), contract strides with slack, planes at the 64-byte alignment
limit with minimal or padded strides, widths across the 64-element chunks of split and merge, either memory.
A draw the driver refuses is drawn again. The bytes are random whatever the precision: Rubik only moves them.
"""

from __future__ import annotations

import numpy as np

from models.errors import ConfigError
from models.rubik.driver import RubikLayer, Side, rubik_layer
from scripts.ref_programs.common import CVSRAM, DRAM, REGION, Program

ATOM = 32
_MAX_IN_ATOMS = 800        # input atoms a program reads: images of some 25 KB at most
_MAX_OUT_BYTES = 40 * 1024
PRECISIONS = ("INT8", "INT16", "FP16")
MODES = ("CONTRACT", "SPLIT", "MERGE")


def _slack(rng: np.random.Generator, unit: int, most: int = 2) -> int:
    """0 (packed) half of the time, else 1..most units."""
    return 0 if rng.random() < 0.5 else int(rng.integers(1, most + 1)) * unit


def _base(rng: np.random.Generator, slot: int, cv: bool, align: int) -> int:
    return (CVSRAM if cv else DRAM) + slot * REGION + int(rng.integers(0, 64)) * align


def _stride(rng: np.random.Generator) -> int:
    r = rng.random()
    if r < 0.5:
        return int(rng.integers(1, 5))
    if r < 0.7:
        return int(rng.choice((7, 8, 9, 15, 16, 17)))
    if r < 0.8:
        return int(rng.choice((24, 31, 32)))
    return int(rng.integers(1, 33))


def _contract(rng: np.random.Generator, precision: str,
              strides: tuple[int | None, int | None]) -> RubikLayer | None:
    bpe = 1 if precision == "INT8" else 2
    epa = ATOM // bpe
    sx, sy = (_stride(rng) if s is None else s for s in strides)
    cout = int(rng.integers(1, 2 * epa + 8)) if rng.random() < 0.8 else int(rng.integers(1, 5 * epa))
    surfs = -(-cout // epa)
    width = int(rng.integers(1, 20)) if rng.random() < 0.8 else int(rng.integers(20, 70))
    height = int(rng.integers(1, 5))
    out_bytes = width * sx * height * sy * surfs * ATOM
    if sx * sy * surfs * width * height > _MAX_IN_ATOMS or out_bytes > _MAX_OUT_BYTES:
        return None
    cv_in, cv_out = rng.random() < 0.2, rng.random() < 0.2
    src_line = (width * ATOM) + _slack(rng, ATOM)
    src_surf = height * src_line + _slack(rng, ATOM)
    cs0 = surfs * src_surf + _slack(rng, ATOM, 3)
    dst_line = width * sx * ATOM + _slack(rng, ATOM)
    dst_surf = height * sy * dst_line + _slack(rng, ATOM)
    return RubikLayer("CONTRACT", precision, width, height, cout * sx * sy,
                      Side(_base(rng, 0, cv_in, ATOM), src_line, src_surf, ram_mc=not cv_in),
                      Side(_base(rng, 1, cv_out, ATOM), dst_line, dst_surf, ram_mc=not cv_out),
                      x_stride=sx, y_stride=sy, contract_stride0=cs0, perf=bool(rng.random() < 0.5))


def _planar(rng: np.random.Generator, mode: str, precision: str) -> RubikLayer | None:
    bpe = 1 if precision == "INT8" else 2
    epa = ATOM // bpe
    r = rng.random()
    # widths inside one 64-element chunk, at its edges, and across several
    edges = (16, 31, 32, 33, 63, 64, 65, 127, 128, 129)
    width = (int(rng.integers(1, 40)) if r < 0.5 else int(rng.choice(edges)) if r < 0.8
             else int(rng.integers(40, 300)))
    height = int(rng.integers(1, 5))
    channels = int(rng.integers(1, 2 * epa + 6)) if rng.random() < 0.8 else int(rng.integers(1, 4 * epa + 1))
    surfs = -(-channels // epa)
    if width * height * surfs > _MAX_IN_ATOMS:
        return None
    plane_line = -(-width * bpe // ATOM) * ATOM
    # planar side: 64-byte aligned, minimal (rounded up to 64) or with slack in 64-byte steps
    p_line = -(-plane_line // 64) * 64 + _slack(rng, 64)
    p_planar = height * p_line + _slack(rng, 64)
    f_line = width * ATOM + _slack(rng, ATOM)
    f_surf = height * f_line + _slack(rng, ATOM)
    if channels * p_planar > _MAX_OUT_BYTES or surfs * f_surf > _MAX_OUT_BYTES:
        return None
    cv_in, cv_out = rng.random() < 0.2, rng.random() < 0.2
    planes_in = mode == "MERGE"
    src = (Side(_base(rng, 0, cv_in, 64), p_line, planar=p_planar, ram_mc=not cv_in) if planes_in
           else Side(_base(rng, 0, cv_in, ATOM), f_line, f_surf, ram_mc=not cv_in))
    dst = (Side(_base(rng, 1, cv_out, ATOM), f_line, f_surf, ram_mc=not cv_out) if planes_in
           else Side(_base(rng, 1, cv_out, 64), p_line, planar=p_planar, ram_mc=not cv_out))
    return RubikLayer(mode, precision, width, height, channels, src, dst, perf=bool(rng.random() < 0.5))


def _side(side: Side) -> str:
    ram = "MC" if side.ram_mc else "CV"
    return f"{side.base:#x} line {side.line} surf {side.surf} planar {side.planar} {ram}"


def rubik_program(rng: np.random.Generator, name: str, mode: str | None = None,
                  precision: str | None = None, strides: tuple[int | None, int | None] = (None, None)
                  ) -> Program:
    """One random Rubik layer (mode and precision drawn unless given; a contract's strides too)."""
    mode = mode or str(rng.choice(MODES))
    precision = precision or str(rng.choice(PRECISIONS))
    while True:
        layer = _contract(rng, precision, strides) if mode == "CONTRACT" else _planar(rng, mode, precision)
        if layer is None:
            continue
        try:
            writes = rubik_layer(layer, group=0)
        except ConfigError:
            continue
        break
    lo, hi = layer.src_span()
    data = rng.integers(0, 256, size=hi - lo, dtype=np.uint8)
    d_lo, d_hi = layer.dst_span()
    about = {"unit": "RUBIK", "mode": mode, "precision": precision,
             "cube": f"{layer.width}x{layer.height}x{layer.channels}",
             "src": _side(layer.src), "dst": _side(layer.dst)}
    if mode == "CONTRACT":
        cs0, cs1 = layer.strides()
        about.update({"deconv_stride": f"{layer.x_stride}x{layer.y_stride}",
                      "contract_stride": f"{cs0},{cs1}"})
    return Program(name, writes, [(lo, "input.dat", data)], (d_lo, d_hi - d_lo), about)
