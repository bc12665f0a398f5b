"""Random CDP (LRN) programs: local sizes 3..9, square sum and multiplier bypasses, the input and output
convertors, and a random LUT (linear or exponential LE table, LO table, slopes, priorities, random 16-bit
entries) placed where the square sums fall, at INT16. Legality is the driver's: a draw it refuses is drawn
again."""

from __future__ import annotations

import numpy as np

from models.cdp.driver import Convertor, cdp_layer
from models.cdp.model import cube_layouts
from models.errors import ConfigError
from models.lut.model import EXPONENT, LE_ENTRIES, LINEAR, LO_ENTRIES, LutConfig
from scripts.ref_programs.common import Program, extent, image_of, surface

_MAX_ATOMS = 64
_WIDE = 1 << 37                    # the 38-bit START/END registers


def _start(rng: np.random.Generator, span_bits: int, signed_input: bool) -> int:
    """A table start: 0, or a random point below the values the table should cover."""
    if rng.random() < 0.3:
        return 0
    lo = -(1 << 17) if signed_input else -(1 << max(span_bits - 2, 0))
    return int(rng.integers(lo, 1 << max(span_bits - 1, 1)))


def _lut(rng: np.random.Generator, in_bits: int, signed_input: bool) -> LutConfig:
    """A random LUT whose tables span inputs of about `in_bits` bits (the square sums or, bypassed, x17)."""
    exponent = rng.random() < 0.4
    le_sel = int(np.clip(in_bits - 6 + rng.integers(-3, 3), -6, 31))
    lo_sel = int(np.clip(in_bits - 8 + rng.integers(-3, 3), -8, 29))
    le_start = 0 if exponent and rng.random() < 0.5 else _start(rng, le_sel + 6, signed_input)
    lo_start = _start(rng, lo_sel + 8, signed_input)
    offset = int(rng.integers(-2, max(in_bits - 8, 0) + 1)) if exponent else 0
    le_end = le_start + (min(1 << max(offset + 64, 0), _WIDE - 1 - max(le_start, 0)) if exponent
                         else 1 << (le_sel + 6))

    def slope() -> tuple[int, int]:
        return int(rng.integers(-(1 << 15), 1 << 15)), int(rng.integers(-16, 16))

    (a, b), (c, d), (e, f), (g, h) = slope(), slope(), slope(), slope()
    return LutConfig(
        le_function=EXPONENT if exponent else LINEAR, le_index_offset=offset,
        le_index_select=le_sel, lo_index_select=lo_sel, le_start=le_start, le_end=le_end,
        lo_start=lo_start, lo_end=lo_start + (1 << (lo_sel + 8)),
        le_uflow_scale=a, le_uflow_shift=b, le_oflow_scale=c, le_oflow_shift=d,
        lo_uflow_scale=e, lo_uflow_shift=f, lo_oflow_scale=g, lo_oflow_shift=h,
        uflow_priority=int(rng.integers(0, 2)), oflow_priority=int(rng.integers(0, 2)),
        hybrid_priority=int(rng.integers(0, 2)), unit="CDP", precision="INT16",
        le=rng.integers(-(1 << 15), 1 << 15, size=LE_ENTRIES),
        lo=rng.integers(-(1 << 15), 1 << 15, size=LO_ENTRIES))


def _datout(rng: np.random.Generator, v_bits: int) -> Convertor:
    """An output convertor that maps values of about v_bits bits into int16 most of the time (scale and
    shift matched, some off by a few bits either way), and now and then anything legal."""
    if rng.random() < 0.15:
        return Convertor(int(rng.integers(-(1 << 31), 1 << 31)), int(rng.integers(-(1 << 15), 1 << 15)),
                         int(rng.integers(0, 64)))
    scale_bits = int(rng.integers(1, 16))
    scale = int(rng.integers(1 << (scale_bits - 1), 1 << scale_bits)) * (1 if rng.random() < 0.8 else -1)
    shift = int(np.clip(v_bits + scale_bits - 16 + rng.integers(-3, 4), 0, 63))
    return Convertor(int(rng.integers(-(1 << max(v_bits - 4, 1)), 1 << max(v_bits - 4, 1))), scale, shift)


def _draw(rng: np.random.Generator, name: str) -> Program | None:
    width, height, channels = int(rng.integers(1, 9)), int(rng.integers(1, 7)), int(rng.integers(1, 49))
    if width * height * -(-channels // 16) > _MAX_ATOMS:
        return None
    local_size = int(rng.choice((3, 5, 7, 9)))
    sqsum_bypass, mul_bypass = bool(rng.random() < 0.15), bool(rng.random() < 0.2)
    data_bits = 16 if rng.random() < 0.6 else int(rng.integers(4, 13))
    shifter = int(rng.integers(0, 8)) if rng.random() < 0.8 else int(rng.integers(0, 32))
    scale = int(rng.integers(1, 64)) * (1 if rng.random() < 0.8 else -1) if rng.random() < 0.8 else 1
    datin = Convertor(int(rng.integers(-(1 << (data_bits - 1)), 1 << (data_bits - 1))) // 4, scale, shifter)
    # x17's magnitude after the input convertor, roughly, and so the LUT input's
    x_bits = int(np.clip(data_bits + int(np.log2(abs(scale))) - shifter + 1, 2, 17))
    in_bits = x_bits if sqsum_bypass else 2 * x_bits + int(np.log2(local_size))
    datout = _datout(rng, 16 if mul_bypass else 16 + x_bits)
    lut = _lut(rng, in_bits, sqsum_bypass)
    src = surface(rng, 0, width, height, cv=rng.random() < 0.15)
    dst = surface(rng, 1, width, height, cv=rng.random() < 0.15)
    try:
        prog = cdp_layer(width, height, channels, local_size=local_size, sqsum_bypass=sqsum_bypass,
                         mul_bypass=mul_bypass, datin=datin, datout=datout, lut=lut, src=src, dst=dst,
                         precision="INT16")
    except ConfigError:
        return None
    src_layout, dst_layout = cube_layouts(prog.config)
    addr, data = image_of(rng, src_layout, 2, None if data_bits == 16 else data_bits)
    about = {"unit": "CDP", "precision": "INT16", "cube": f"{width}x{height}x{channels}",
             "local_size": local_size, "sqsum_bypass": int(sqsum_bypass), "mul_bypass": int(mul_bypass),
             "datin": f"offset {datin.offset} scale {datin.scale} shift {datin.shifter}",
             "datout": f"offset {datout.offset} scale {datout.scale} shift {datout.shifter}",
             "lut": f"{'exponent' if lut.le_function == EXPONENT else 'linear'} "
                    f"le_select {lut.le_index_select} le_offset {lut.le_index_offset} "
                    f"lo_select {lut.lo_index_select}"}
    return Program(name, list(prog.writes), [(addr, "input.dat", data)], extent(dst_layout), about)


def cdp_program(rng: np.random.Generator, name: str) -> Program:
    """One legal random CDP program (draws until the driver accepts one)."""
    while True:
        prog = _draw(rng, name)
        if prog is not None:
            return prog


# ---- the "LUT range" family: LUT registers over their whole legal ranges -----------------------------------

_START_BITS = 38
_LE_SELECT = {"INT8": (-6, 15), "INT16": (-6, 31)}      # models/lut/model.py (seed 001's Limitation rows)
_LO_SELECT = {"INT8": (-8, 13), "INT16": (-8, 29)}
_LE_OFFSET = {"INT8": (-64, 20), "INT16": (-64, 36)}


def _wide_start(rng: np.random.Generator, in_bits: int, span: int) -> int:
    """A START anywhere in the 38-bit register with room for END = START + span: near the data, with bits
    above bit 21 set around a small low part, near the register's limits, or uniform."""
    top = (1 << (_START_BITS - 1)) - 1 - span
    pick = rng.random()
    if pick < 0.25:
        value = int(rng.integers(-(1 << max(in_bits - 2, 1)), 1 << in_bits))
    elif pick < 0.55:
        high = int(rng.integers(-(1 << 15), 1 << 15)) << int(rng.choice((22, 23, 24, 30, 32)))
        value = high + int(rng.integers(-(1 << min(in_bits, 21)), 1 << min(in_bits, 21)))
    elif pick < 0.75:
        value = (top if rng.random() < 0.5 else -(1 << (_START_BITS - 1))) - int(rng.integers(-64, 65))
    else:
        value = int(rng.integers(-(1 << (_START_BITS - 1)), top + 1))
    return int(np.clip(value, -(1 << (_START_BITS - 1)), top))


def _range_lut(rng: np.random.Generator, in_bits: int, signed_input: bool, precision: str) -> LutConfig:
    """A LUT whose selects, index offset, START and END take any value the Limitation rules allow."""
    exponent = rng.random() < 0.5
    le_sel = int(rng.integers(_LE_SELECT[precision][0], _LE_SELECT[precision][1] + 1))
    lo_sel = int(rng.integers(_LO_SELECT[precision][0], _LO_SELECT[precision][1] + 1))
    offset = int(rng.integers(_LE_OFFSET[precision][0], _LE_OFFSET[precision][1] + 1)) if exponent else 0
    le_span = 1 << (le_sel + 6)
    le_start = _wide_start(rng, in_bits, 0 if exponent else le_span)
    if exponent:   # END only anchors the overflow slope: anything, near 2^31 or the register's top too
        pick = rng.random()
        le_end = (int(rng.integers(-(1 << 37), 1 << 37)) if pick < 0.4 else
                  0x7FFFFFFF - int(rng.integers(0, 256)) if pick < 0.7 else
                  le_start + int(rng.integers(0, 1 << int(rng.integers(1, 37)))))
        le_end = int(np.clip(le_end, -(1 << 37), (1 << 37) - 1))
    else:
        le_end = le_start + le_span
    lo_span = 1 << (lo_sel + 8)
    lo_start = _wide_start(rng, in_bits, lo_span)

    def slope() -> tuple[int, int]:
        return int(rng.integers(-(1 << 15), 1 << 15)), int(rng.integers(-16, 16))

    (a, b), (c, d), (e, f), (g, h) = slope(), slope(), slope(), slope()
    return LutConfig(
        le_function=EXPONENT if exponent else LINEAR, le_index_offset=offset,
        le_index_select=le_sel, lo_index_select=lo_sel, le_start=le_start, le_end=le_end,
        lo_start=lo_start, lo_end=lo_start + lo_span,
        le_uflow_scale=a, le_uflow_shift=b, le_oflow_scale=c, le_oflow_shift=d,
        lo_uflow_scale=e, lo_uflow_shift=f, lo_oflow_scale=g, lo_oflow_shift=h,
        uflow_priority=int(rng.integers(0, 2)), oflow_priority=int(rng.integers(0, 2)),
        hybrid_priority=int(rng.integers(0, 2)), unit="CDP", precision=precision,
        le=rng.integers(-(1 << 15), 1 << 15, size=LE_ENTRIES),
        lo=rng.integers(-(1 << 15), 1 << 15, size=LO_ENTRIES))


def _draw_range(rng: np.random.Generator, name: str, precision: str) -> Program | None:
    elem = 2 if precision == "INT16" else 1
    lanes = 32 // elem
    width, height = int(rng.integers(1, 7)), int(rng.integers(1, 5))
    channels = int(rng.integers(1, 2 * lanes))
    if width * height * -(-channels // lanes) > _MAX_ATOMS:
        return None
    local_size = int(rng.choice((3, 5, 7, 9)))
    sqsum_bypass, mul_bypass = bool(rng.random() < 0.2), bool(rng.random() < 0.3)
    elem_bits = 8 * elem
    shifter = int(rng.integers(0, 4))
    datin = Convertor(0, 1, shifter)
    x_bits = elem_bits + 1 - shifter
    in_bits = x_bits if sqsum_bypass else 2 * x_bits + 3
    datout = _datout(rng, 16 if mul_bypass else 16 + x_bits)
    lut = _range_lut(rng, in_bits, sqsum_bypass, precision)
    src = surface(rng, 0, width, height)
    dst = surface(rng, 1, width, height)
    try:
        prog = cdp_layer(width, height, channels, local_size=local_size, sqsum_bypass=sqsum_bypass,
                         mul_bypass=mul_bypass, datin=datin, datout=datout, lut=lut, src=src, dst=dst,
                         precision=precision)
    except ConfigError:
        return None
    src_layout, dst_layout = cube_layouts(prog.config)
    addr, data = image_of(rng, src_layout, elem)
    about = {"unit": "CDP", "precision": precision, "cube": f"{width}x{height}x{channels}",
             "local_size": local_size, "sqsum_bypass": int(sqsum_bypass), "mul_bypass": int(mul_bypass),
             "datin": f"offset {datin.offset} scale {datin.scale} shift {datin.shifter}",
             "datout": f"offset {datout.offset} scale {datout.scale} shift {datout.shifter}",
             "lut": f"{'exponent' if lut.le_function == EXPONENT else 'linear'} "
                    f"le_select {lut.le_index_select} le_offset {lut.le_index_offset} "
                    f"lo_select {lut.lo_index_select} le_start {lut.le_start:#x} le_end {lut.le_end:#x} "
                    f"lo_start {lut.lo_start:#x}"}
    return Program(name, list(prog.writes), [(addr, "input.dat", data)], extent(dst_layout), about)


def cdp_range_program(rng: np.random.Generator, name: str, precision: str) -> Program:
    """One legal random CDP program whose LUT registers range over all legal values (draws until the driver
    accepts one)."""
    while True:
        prog = _draw_range(rng, name, precision)
        if prog is not None:
            return prog
