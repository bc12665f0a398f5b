"""Random legal CDP layers for the top-level benches, programmed through the CDP driver layer
(models/cdp/driver.py): window lengths, bypass modes, convertors and LUT kinds (the LUT helper's programs,
random, aimed, narrow and one-table LUTs), cube sizes and strided placements; INT8, or INT16 where the top
computes it (make_layer's `precision`); FP16 where the top computes it (make_fp16_layer: FP16 data with
specials, NaN flush, the FP16 LUT programs and random FP16 LUTs, tb/stimulus/cdp_fp16.py).
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from models.cdp.driver import CdpProgram, Convertor, Surface, cdp_layer
from models.cdp.model import CdpResult, cdp_compute, input_convert, square_sum
from models.common.cube import run_atom_bytes
from models.common.precision import as_signed
from models.lut import program as lut_program
from models.lut.model import EXPONENT, LutConfig
from tb.common import nightly
from tb.stimulus.cdp_core import (
    aimed_lut,
    input_convertor,
    linear_lut,
    narrow_lut,
    output_convertor,
    random_cube_data,
)
from tb.stimulus.cdp_fp16 import FP16_LUT_KINDS, fp16_lut, fp16_lut_inputs
from tb.stimulus.fp16_values import fp16_values
from tb.stimulus.lut import Shape, random_config

ATOM = run_atom_bytes()  # the configuration's memory atom: bases, strides and channel counts follow it
CHUNK = 8          # the top's CDP width chunk (rtl/top/nvdla_pp_top.v: nvdla_cdp #(.CHUNK(8)))
SRC_REGION, DST_REGION = 0x2000_0000, 0x9000_0000
LUT_KINDS = ("lrn exp", "lrn default", "sigmoid", "random", "aimed", "narrow", "one table")



# ---- layers -------------------------------------------------------------------------------------------

@functools.cache
def programs() -> dict[str, lut_program.LutProgram]:
    """The LUT helper's CDP programs (their search takes seconds: built once per simulation)."""
    return {"lrn exp": lut_program.lrn(le_mode="exponent"), "lrn default": lut_program.lrn(),
            "sigmoid": lut_program.sigmoid(unit="CDP")}


@dataclass
class Layer:
    desc: dict[str, object]
    prog: CdpProgram
    cube: NDArray[np.int8] | NDArray[np.int16]
    """[padded channels, h, w] written at the source (the padding lanes random, as memory would hold)."""
    kind: str
    label: str = ""
    res: CdpResult | None = field(default=None, repr=False)


def random_dims(rng: random.Random, big: bool) -> tuple[int, int, int]:
    """(W, H, C): W mostly not a multiple of 8 (the chunk), C mostly not one of the atom (edges around one and
    two atoms: channels count in atoms, one INT8 lane per byte), sometimes exactly at the edges."""
    scale = 3 if big else 1
    w = rng.choice([1, 7, 8, 9, 15, 17, rng.randint(1, 24 * scale)])
    h = rng.choice([1, 2, rng.randint(1, 3 * scale)])
    c = rng.choice([1, 3, ATOM - 1, ATOM, ATOM + 1, 2 * ATOM + 1, rng.randint(1, 5 * ATOM * scale)])
    return w, h, c


def placement(rng: random.Random, region: int, width: int, height: int) -> Surface:
    """Random atom-aligned base in a 2^17-atom window, line/surface strides packed or with random gaps."""
    line = width * ATOM + ATOM * rng.choice([0, 0, 1, rng.randint(2, 16)])
    surf = line * height + ATOM * rng.choice([0, 0, 1, rng.randint(2, 64)])
    return Surface(region + ATOM * rng.randrange(1 << 17), line, surf)


def signed_datin(raw: Mapping[str, int], bits: int = 8) -> Convertor:
    """tb/stimulus/cdp_core.py's random input convertor (raw fields) as the driver's signed values (`bits`:
    the offset's, the element's)."""
    return Convertor(int(as_signed(raw["D_DATIN_OFFSET.DATIN_OFFSET"] & ((1 << bits) - 1), bits)),
                     int(as_signed(raw["D_DATIN_SCALE.DATIN_SCALE"], 16)),
                     raw["D_DATIN_SHIFTER.DATIN_SHIFTER"])


def signed_datout(raw: Mapping[str, int], bits: int = 25) -> Convertor:
    return Convertor(int(as_signed(raw["D_DATOUT_OFFSET.DATOUT_OFFSET"] & ((1 << bits) - 1), bits)),
                     int(as_signed(raw["D_DATOUT_SCALE.DATOUT_SCALE"], 16)),
                     raw["D_DATOUT_SHIFTER.DATOUT_SHIFTER"])


def one_table_lut(rng: random.Random, values: NDArray[np.int64]) -> LutConfig:
    """One table (LE or LO, linear) over the middle of the layer's LUT inputs, the other entirely above
    them: inputs that hit count as that table's hits alone (the LO-only hit is rare otherwise)."""
    lo_v, hi_v = (int(np.percentile(values, q)) for q in (10, 90))
    span = max(hi_v - lo_v, 1)
    above = int(values.max()) + 1 + rng.randint(0, 1000)
    lo_on_data = rng.random() < 0.7    # the LO-only hit is the rarer one elsewhere
    lo_sel = max(-8, min(13, span.bit_length() - 8)) if lo_on_data else rng.randint(-8, 4)
    le_sel = rng.randint(-6, 4) if lo_on_data else max(-6, min(15, span.bit_length() - 6))
    lo_start, le_start = (lo_v, above) if lo_on_data else (above, lo_v)
    return linear_lut(rng, le_start, le_sel, lo_start, lo_sel)


def choose_lut(rng: random.Random, kind: str, lut_in: NDArray[np.int64],
               precision: str = "INT8") -> LutConfig:
    if kind in programs():
        return programs()[kind].lut_config()
    if kind == "random":
        return random_config(Shape(ATOM, 37, 38, False), rng)
    if kind == "aimed":
        return aimed_lut(rng, lut_in.reshape(-1), precision)
    makers = {"narrow": narrow_lut, "one table": one_table_lut}
    return makers[kind](rng, lut_in.reshape(-1))


def make_layer(rng: random.Random, index: int, group: int, *, kind: str | None = None,
               dims: tuple[int, int, int] | None = None, src_region: int = SRC_REGION,
               dst_region: int = DST_REGION, ram_mc: Mapping[str, bool] | None = None,
               precision: str = "INT8") -> Layer:
    """A random legal layer through the driver. The first layers walk the window lengths, the bypass modes
    and the LUT kinds, so that even a short run has them all. ram_mc: the memory of the "src" and "dst"
    sides (RAM_TYPE MC True, CV False); MC when not named. precision: INT8, or INT16 where the
    configuration has it (int16 elements, ATOM/2 a memory atom)."""
    bits = 16 if precision == "INT16" else 8
    w, h, c = dims or random_dims(rng, nightly())
    modes = [(0, 0), (1, 0), (0, 1), (1, 1), (0, 0), (0, 0)]
    sqsum_bypass, mul_bypass = modes[index] if index < len(modes) else rng.choice(modes + [(0, 0)] * 3)
    kind = kind or (LUT_KINDS[index] if index < len(LUT_KINDS) else rng.choice(LUT_KINDS))
    # the LRN programs expect the square sums of int8 codes: often an identity input convertor for them
    identity = kind.startswith("lrn") and rng.random() < 0.5
    datin = Convertor() if identity else signed_datin(input_convertor(rng, bits), bits)
    desc: dict[str, object] = {
        "local_size": 2 * (index % 4) + 3 if index < 8 else rng.choice([3, 5, 7, 9]),
        "sqsum_bypass": bool(sqsum_bypass), "mul_bypass": bool(mul_bypass), "datin": datin,
        "src": placement(rng, src_region, w, h), "dst": placement(rng, dst_region, w, h),
        "perf": rng.random() < 0.5, **({"precision": precision} if precision != "INT8" else {})}
    for side in ("src", "dst"):
        if ram_mc is not None and side in ram_mc:
            desc[side] = dataclasses.replace(desc[side], ram_mc=ram_mc[side])  # type: ignore[type-var]
    lanes = ATOM * 8 // bits   # elements per memory atom
    surfaces = -(-c // lanes)
    cube = random_cube_data(rng, w, h, surfaces * lanes, bits)
    # a provisional program (default LUT and output convertor) gives the LUT inputs and products of the data,
    # so that the LUT and the output convertor can be aimed at them
    base = cdp_layer(w, h, c, lut=LutConfig(unit="CDP"), group=group, **desc)  # type: ignore[arg-type]
    x9 = input_convert(cube, base.config)
    lut = choose_lut(rng, kind, x9 if sqsum_bypass else square_sum(x9, base.config.local_size), precision)
    with_lut = cdp_layer(w, h, c, lut=lut, group=group, **desc)  # type: ignore[arg-type]
    looked = cdp_compute(cube, with_lut.config).lut
    assert looked is not None
    v = looked.output if mul_bypass else looked.output * x9
    desc["datout"] = signed_datout(output_convertor(rng, v, bits), 25 if bits == 8 else 32)
    prog = cdp_layer(w, h, c, lut=lut, group=group, **desc)  # type: ignore[arg-type]
    return Layer({"dims": (w, h, c), **desc}, prog, cube, kind)


def make_fp16_layer(rng: random.Random, index: int, group: int, *, dims: tuple[int, int, int] | None = None,
                    ram_mc: Mapping[str, bool] | None = None) -> Layer:
    """A random legal FP16 layer through the driver (models/cdp/fp16.py): FP16 data around a random power of
    two with a share of specials (NaN, infinities, subnormals, 65504), NaN flush on or off, the bypass modes,
    an FP16 LUT (FP16_LUT_KINDS) around the layer's LUT inputs, random convertor registers (not used)."""
    w, h, c = dims or random_dims(rng, nightly())
    modes = [(0, 0), (1, 0), (0, 1), (1, 1)]
    sqsum_bypass, mul_bypass = modes[index] if index < len(modes) else rng.choice(modes + [(0, 0)] * 3)
    desc: dict[str, object] = {
        "local_size": rng.choice([3, 5, 7, 9]), "sqsum_bypass": bool(sqsum_bypass),
        "mul_bypass": bool(mul_bypass), "precision": "FP16", "nan_to_zero": rng.random() < 0.5,
        "datin": signed_datin(input_convertor(rng, 16), 16),
        "datout": Convertor(rng.randint(-(1 << 31), (1 << 31) - 1), rng.randint(-(1 << 15), (1 << 15) - 1),
                            rng.randint(0, 63)),
        "src": placement(rng, SRC_REGION, w, h), "dst": placement(rng, DST_REGION, w, h),
        "perf": rng.random() < 0.5}
    for side in ("src", "dst"):
        if ram_mc is not None and side in ram_mc:
            desc[side] = dataclasses.replace(desc[side], ram_mc=ram_mc[side])  # type: ignore[type-var]
    lanes = ATOM // 2
    surfaces = -(-c // lanes)
    log2 = rng.uniform(-10, 10) if rng.random() < 0.85 else rng.choice([-16.0, 14.0])
    cube = fp16_values(rng, surfaces * lanes * h * w, log2, rng.choice([0.0, 0.0, 0.02, 0.1]))
    cube = cube.reshape(surfaces * lanes, h, w)
    lut_in = fp16_lut_inputs(cube, c, int(desc["local_size"]), bool(sqsum_bypass),  # type: ignore[call-overload]
                             bool(desc["nan_to_zero"]))
    kind = FP16_LUT_KINDS[index] if index < len(FP16_LUT_KINDS) else rng.choice(FP16_LUT_KINDS)
    prog = cdp_layer(w, h, c, lut=fp16_lut(rng, kind, lut_in), group=group, **desc)  # type: ignore[arg-type]
    return Layer({"dims": (w, h, c), **desc}, prog, cube.astype(np.uint16).view(np.int16), kind)


def describe(layer: Layer) -> str:
    cfg, lut = layer.prog.config, layer.prog.config.lut
    mode = "EXP" if lut.le_function == EXPONENT else "LIN"
    src = (cfg.src_base, cfg.src_line_stride, cfg.src_surface_stride)
    dst = (cfg.dst_base, cfg.dst_line_stride, cfg.dst_surface_stride)
    prec = {"INT16": "INT16 ", "FP16": f"FP16 nan_flush={int(bool(layer.desc.get('nan_to_zero')))} "}.get(
        str(layer.desc.get("precision")), "")
    return (f"group {layer.prog.group}: {prec}{cfg.width}x{cfg.height}x{cfg.channels} LRN{cfg.local_size} "
            f"bypass sqsum={int(cfg.sqsum_bypass)} mul={int(cfg.mul_bypass)}; "
            f"in cvt {layer.desc['datin']}, out cvt {layer.desc.get('datout')}; LUT {layer.kind}: LE {mode} "
            f"[{lut.le_start}, {lut.le_end}] sel={lut.le_index_select} off={lut.le_index_offset}, LO "
            f"[{lut.lo_start}, {lut.lo_end}] sel={lut.lo_index_select}, priorities u/o/h="
            f"{lut.uflow_priority}/{lut.oflow_priority}/{lut.hybrid_priority}; "
            f"src (base, line, surface) {tuple(hex(v) for v in src)}, dst {tuple(hex(v) for v in dst)}; "
            f"RAM types src {'MC' if cfg.src_ram_mc else 'CV'}, dst {'MC' if cfg.dst_ram_mc else 'CV'}")
