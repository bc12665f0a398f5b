"""Random PDP programs (memory to memory): methods, kernels, strides, paddings with pad values, split widths,
strided cubes in either memory. Legality is the driver's: a draw it refuses is drawn again.

The "pad value" family (`pdp_pad_program`) is average pooling with padding whose PAD_VALUE_{n}X and, in
some programs, RECIP_KERNEL_{WIDTH,HEIGHT} are raw register values over their whole fields (not what a
driver writes): they show how NVIDIA's hardware keeps its sums and products (models/pdp/model.py WIDTHS)."""

from __future__ import annotations

import numpy as np

from models.configs import pdp_rows_in_flight
from models.errors import ConfigError
from models.pdp.driver import SplitWidths, pdp_layer, with_raw_fields
from models.pdp.model import dst_layout, max_band_width, src_layout
from scripts.ref_programs.common import Program, extent, image_of, surface

METHODS = ("average", "max", "min")
_MAX_ATOMS = 96          # input atoms (width x height x surfaces): keeps each image a few KB
_ELEM = {"INT8": 1, "INT16": 2, "FP16": 2}


def _size(rng: np.random.Generator, kernel: int, stride: int, pads: tuple[int, int],
          out_max: int) -> int | None:
    """An input size whose pooled size is whole (seed 001: (P0 + W + P1 - K) % S == 0), or None."""
    out = int(rng.integers(1, out_max + 1))
    size = (out - 1) * stride + kernel - pads[0] - pads[1]
    return size if size >= 1 else None


def _draw(rng: np.random.Generator, name: str, precision: str,
          padded_average: bool = False) -> Program | None:
    method = str(rng.choice(METHODS))
    if padded_average:      # (the draw above stays, so the other families' programs are unchanged)
        method = "average"
    kw, kh = (int(k) for k in rng.integers(1, 9, size=2))
    # strides up to the kernel + 1 mostly (some windows skip columns), now and then anything to 16
    sw, sh = (int(rng.integers(1, k + 2)) if rng.random() < 0.85 else int(rng.integers(1, 17))
              for k in (kw, kh))
    pl, pr = (int(rng.integers(0, min(kw, 8))) for _ in range(2))
    pt, pb = (int(rng.integers(0, min(kh, 8))) for _ in range(2))
    want_split = rng.random() < 0.3
    width = _size(rng, kw, sw, (pl, pr), 12 if want_split else 6)
    height = _size(rng, kh, sh, (pt, pb), 5)
    if width is None or height is None or (padded_average and pl + pr + pt + pb == 0):
        return None
    channels = int(rng.integers(1, 49))
    lanes = 32 // _ELEM[precision]
    if width * height * -(-channels // lanes) > _MAX_ATOMS:
        return None
    # FP16: the pad values are programmed all the same (the hardware should ignore them: seed 002)
    lo, hi = (-128, 127) if precision == "INT8" else (-32768, 32767)
    pad_value = int(rng.integers(lo, hi + 1)) if rng.random() < 0.6 else int(rng.integers(-100, 101))
    src = surface(rng, 0, width, height, cv=rng.random() < 0.2)
    out_w = (pl + width + pr - kw) // sw + 1
    out_h = (pt + height + pb - kh) // sh + 1
    dst = surface(rng, 1, out_w, out_h, cv=rng.random() < 0.2)
    split = int(rng.integers(1, out_w)) if want_split and out_w > 1 else None
    try:
        prog = pdp_layer(width, height, channels, method=method, kernel=(kw, kh), stride=(sw, sh),
                         pads=(pl, pr, pt, pb), pad_value=pad_value, src=src, dst=dst, split=split,
                         precision=precision)
    except ConfigError:
        return None
    if padded_average:
        prog = with_raw_fields(prog, _raw_pad_fields(rng, precision))
    cfg = prog.config
    bits = None if rng.random() < 0.7 else int(rng.integers(4, 12))
    # FP16: `bits` drawn (30%) means some special values in the image instead
    addr, data = image_of(rng, src_layout(cfg), _ELEM[precision], bits, fp16=precision == "FP16")
    about = {"unit": "PDP", "precision": precision, "method": method, "cube": f"{width}x{height}x{channels}",
             "kernel": f"{kw}x{kh}", "stride": f"{sw}x{sh}", "pads": f"{pl},{pr},{pt},{pb}",
             "pad_value": pad_value, "bands": cfg.passes, "src_ram": "CV" if not src.ram_mc else "MC",
             "dst_ram": "CV" if not dst.ram_mc else "MC"}
    if padded_average:
        del about["pad_value"]      # the driver's, replaced by the raw fields
        about["pad_value_fields"] = ",".join(f"{v:#x}" for v in cfg.pad_values)
        about["recip"] = f"{cfg.recip_width:#x},{cfg.recip_height:#x}"
    return Program(name, list(prog.writes), [(addr, "input.dat", data)], extent(dst_layout(cfg)), about)


_PAD_BITS, _RECIP_BITS = 19, 17


def _raw_pad_value(rng: np.random.Generator, n: int, elem_bits: int, extreme: bool) -> int:
    """One PAD_VALUE_{n}X field: anything in 19 bits, a value near a power of two the datapath could cut it
    at (either sign), or what a driver writes (n x an element) give or take a little; `extreme`: near the
    field's largest magnitudes (the sums that reach the widest widths)."""
    pick = rng.random()
    if extreme:
        value = ((1 << (_PAD_BITS - 1)) - int(rng.integers(0, 1 << 12))) * (1 if rng.random() < 0.5 else -1)
    elif pick < 0.4:
        value = int(rng.integers(0, 1 << _PAD_BITS))
    elif pick < 0.7:
        edge = 1 << int(rng.integers(elem_bits - 2, _PAD_BITS))
        value = (edge + int(rng.integers(-3, 4))) * (1 if rng.random() < 0.5 else -1)
    else:
        element = int(rng.integers(-(1 << (elem_bits - 1)), 1 << (elem_bits - 1)))
        value = n * element + int(rng.integers(-2, 3))
    return value & ((1 << _PAD_BITS) - 1)


def _raw_pad_fields(rng: np.random.Generator, precision: str) -> dict[str, int]:
    """Raw PAD_VALUE_{1..7}X (in 20% of the programs all of them extreme) and, in 40%, raw
    RECIP_KERNEL_{WIDTH,HEIGHT} (17 bits)."""
    elem_bits = 8 * _ELEM[precision]
    extreme = rng.random() < 0.2
    fields = {f"D_POOLING_PADDING_VALUE_{n}_CFG.PAD_VALUE_{n}X": _raw_pad_value(rng, n, elem_bits, extreme)
              for n in range(1, 8)}
    if rng.random() < 0.4:
        for reg, field in (("D_RECIP_KERNEL_WIDTH", "RECIP_KERNEL_WIDTH"),
                           ("D_RECIP_KERNEL_HEIGHT", "RECIP_KERNEL_HEIGHT")):
            fields[f"{reg}.{field}"] = int(rng.integers(0, 1 << _RECIP_BITS))
    return fields


def pdp_pad_program(rng: np.random.Generator, name: str, precision: str = "INT16") -> Program:
    """One random average-pooling program with padding and raw pad values (and sometimes reciprocals)."""
    while True:
        prog = _draw(rng, name, precision, padded_average=True)
        if prog is not None:
            return prog


def pdp_program(rng: np.random.Generator, name: str, precision: str = "INT16") -> Program:
    """One legal random PDP program (draws until the driver accepts one)."""
    while True:
        prog = _draw(rng, name, precision)
        if prog is not None:
            return prog


# ---- the "split" family: bands narrower than the kernel overlap ---------------------------------------

def _draw_split(rng: np.random.Generator, name: str, precision: str) -> Program | None:
    """Split width with 2-4 bands cut so that, mostly, the last band is narrower than kernel - stride (or,
    with stride > kernel, the first band no wider than stride - kernel): seed 001's P10 read for every band
    count (docs/limitations.md)."""
    overlap_case = rng.random() < 0.6
    if overlap_case:
        kw = int(rng.integers(2, 9))
        sw = int(rng.integers(1, kw))
    else:
        kw = int(rng.integers(1, 8))
        sw = int(rng.integers(kw + 1, min(kw + 9, 17)))
    kh, sh = int(rng.integers(1, 4)), int(rng.integers(1, 3))
    pl, pr = int(rng.integers(0, kw)), int(rng.integers(0, kw))
    pt, pb = int(rng.integers(0, kh)), int(rng.integers(0, kh))
    bands = int(rng.integers(2, 5))
    first_out, mid_out, last_out = (int(v) for v in rng.integers(1, 4, size=3))
    overlap = kw - sw
    first_in = (first_out - 1) * sw + kw - pl
    mid_in = (mid_out - 1) * sw + kw - overlap if bands > 2 else 0
    last_in = (last_out - 1) * sw + kw - pr - overlap
    narrow = last_in < overlap if overlap_case else first_in <= sw - kw
    if min(first_in, last_in, mid_in if bands > 2 else 1) < 1 or (rng.random() < 0.8 and not narrow):
        return None
    width = first_in + mid_in * (bands - 2) + last_in
    out_h = int(rng.integers(1, 4))
    height = (out_h - 1) * sh + kh - pt - pb
    channels = int(rng.integers(1, 33))
    if height < 1 or width * height * -(-channels // (32 // _ELEM[precision])) > _MAX_ATOMS:
        return None
    out_w = first_out + mid_out * (bands - 2) + last_out
    src = surface(rng, 0, width, height, cv=rng.random() < 0.2)
    dst = surface(rng, 1, out_w, out_h, cv=rng.random() < 0.2)
    split = SplitWidths(bands, first_in, mid_in, last_in, first_out, mid_out, last_out)
    method = str(rng.choice(METHODS))
    pad_value = int(rng.integers(-100, 101))
    try:
        prog = pdp_layer(width, height, channels, method=method, kernel=(kw, kh), stride=(sw, sh),
                         pads=(pl, pr, pt, pb), pad_value=pad_value, src=src, dst=dst, split=split,
                         precision=precision)
    except ConfigError:
        return None
    addr, data = image_of(rng, src_layout(prog.config), _ELEM[precision])
    about = {"unit": "PDP", "precision": precision, "method": method, "cube": f"{width}x{height}x{channels}",
             "kernel": f"{kw}x{kh}", "stride": f"{sw}x{sh}", "pads": f"{pl},{pr},{pt},{pb}",
             "pad_value": pad_value, "bands": bands,
             "band_widths": f"in {first_in},{mid_in},{last_in} out {first_out},{mid_out},{last_out}",
             "narrow_band": int(narrow)}
    return Program(name, list(prog.writes), [(addr, "input.dat", data)], extent(dst_layout(prog.config)),
                   about)


def pdp_split_program(rng: np.random.Generator, name: str, precision: str = "INT16") -> Program:
    """One legal random split-width PDP program, mostly with a band narrower than the kernel overlap."""
    while True:
        prog = _draw_split(rng, name, precision)
        if prog is not None:
            return prog


# ---- the "width" family: bands exactly as wide as NVIDIA's line buffer holds ------------------------------

# (kernel_w, kernel_h, stride_x, stride_y, output width or None for one band at the limit): every
# rows-in-flight class (1, 2, 3, 4, 5-8 output rows: 128, 64, 32, 32, 16 columns, models/configs.py
# pdp_band_width), then split-width layers whose full bands are at the limit (the remainder last).
# The line buffer holds output columns, so the horizontal stride does not change the limit: stride_x 1
# (but in 2x2/2) keeps an input line near the output width and the images small.
WIDTH_CASES: tuple[tuple[int, int, int, int, int | None], ...] = (
    (2, 2, 2, 2, None), (3, 3, 1, 3, None),                         # 1 row: 128
    (2, 2, 1, 1, None), (1, 2, 1, 1, None), (3, 3, 1, 2, None),     # 2 rows: 64
    (3, 3, 1, 1, None),                                             # 3 rows: 32
    (4, 4, 1, 1, None), (7, 7, 1, 2, None),                         # 4 rows: 32
    (5, 5, 1, 1, None), (8, 8, 1, 1, None),                         # 5, 8 rows: 16
    (2, 2, 1, 2, 200), (2, 2, 1, 1, 150), (3, 3, 1, 1, 80),         # split: 128+72, 64+64+22, 32+32+16
    (4, 4, 1, 2, 100), (6, 6, 1, 1, 40), (7, 7, 1, 1, 48),          # 64+36, 16+16+8, 16+16+16
)
WIDTH_PRECISIONS = ("INT8", "INT16", "FP16")
_WHOLE = sum(1 for case in WIDTH_CASES if case[4] is None)
WIDTH_PROGRAMS = _WHOLE * 9 + (len(WIDTH_CASES) - _WHOLE) * 3


def width_case(index: int) -> tuple[tuple[int, int, int, int, int | None], str, str]:
    """Program `index` of the width family: (case, precision, method). One-band cases at every precision
    with every method; then the split cases once at each precision, the method turning with the case."""
    index %= WIDTH_PROGRAMS
    if index < _WHOLE * 9:
        return WIDTH_CASES[index // 9], WIDTH_PRECISIONS[index // 3 % 3], METHODS[index % 3]
    j = index - _WHOLE * 9
    return WIDTH_CASES[_WHOLE + j // 3], WIDTH_PRECISIONS[j % 3], METHODS[(j + j // 3) % 3]


def pdp_width_program(rng: np.random.Generator, name: str, index: int) -> Program:
    """One PDP layer whose bands are exactly the maximum flying width for its kernel (NVIDIA's 16 columns
    per bank, 8 banks shared by the output rows in flight: docs/limitations.md P3), with enough output rows
    that every in-flight row slot is used and the first one again, random full-range data (FP16: over
    1e-6..1e4, specials in some programs), one or two surfaces, paddings in some. The driver must accept
    it (a wider band it refuses: NVIDIA's RTL hangs or aliases columns, traces/PROVENANCE.md)."""
    (kw, kh, sw, sh, wide), precision, method = width_case(index)
    rows = pdp_rows_in_flight(kh, sh)
    limit = max_band_width(kh, sh)
    out_w = wide or limit
    out_h = rows + 1 + (int(rng.integers(0, 2)) if rows > 1 else 0)
    pads = (0, 0, 0, 0)
    if rng.random() < 0.4:
        pads = (int(rng.integers(0, kw)), int(rng.integers(0, kw)), int(rng.integers(0, kh)),
                int(rng.integers(0, kh)))
    pl, pr, pt, pb = pads
    width = (out_w - 1) * sw + kw - pl - pr
    height = (out_h - 1) * sh + kh - pt - pb
    lanes = 32 // _ELEM[precision]
    channels = int(rng.integers(1, lanes + 1)) + (lanes if rng.random() < 0.3 else 0)
    lo, hi = (-128, 127) if precision == "INT8" else (-32768, 32767)
    pad_value = int(rng.integers(lo, hi + 1))
    src = surface(rng, 0, width, height, cv=rng.random() < 0.2)
    dst = surface(rng, 1, out_w, out_h, cv=rng.random() < 0.2)
    prog = pdp_layer(width, height, channels, method=method, kernel=(kw, kh), stride=(sw, sh), pads=pads,
                     pad_value=pad_value, src=src, dst=dst, split=limit if wide else None,
                     precision=precision)
    cfg = prog.config
    if max(band.out_width for band in cfg.bands()) != limit:
        raise ValueError(f"{name}: no band at the limit ({limit}): {cfg.partial_out}")
    specials = None if rng.random() < 0.7 else 8     # FP16: some specials (the INT images stay full range)
    addr, data = image_of(rng, src_layout(cfg), _ELEM[precision], specials if precision == "FP16" else None,
                          fp16=precision == "FP16")
    about = {"unit": "PDP", "precision": precision, "method": method, "cube": f"{width}x{height}x{channels}",
             "kernel": f"{kw}x{kh}", "stride": f"{sw}x{sh}", "pads": f"{pl},{pr},{pt},{pb}",
             "pad_value": pad_value, "rows_in_flight": rows, "max_band_width": limit,
             "out": f"{out_w}x{out_h}", "bands": cfg.passes,
             "band_out_widths": ",".join(str(band.out_width) for band in cfg.bands()),
             "src_ram": "CV" if not src.ram_mc else "MC", "dst_ram": "CV" if not dst.ram_mc else "MC"}
    return Program(name, list(prog.writes), [(addr, "input.dat", data)], extent(dst_layout(cfg)), about)


# ---- the "band3" family: one padded shape split into three bands -----------------------------------------

BAND3 = {"cube": (32, 4, 16), "kernel": (6, 6), "stride": (2, 1), "pads": (4, 4, 4, 2)}  # pads l, r, t, b


def pdp_band3_program(rng: np.random.Generator, name: str, precision: str = "INT16") -> Program:
    """Average pooling of a 32x4x16 cube, kernel 6x6, stride 2x1, padding left 4 top 4 right 4 bottom 2,
    split into three bands of drawn widths, with raw pad values (and sometimes reciprocals): the shape where
    an independent NVIDIA-RTL program showed the first band's right edge (docs/pdp_arithmetic.md)."""
    (w, h, c), (kw, kh), (sw, sh) = BAND3["cube"], BAND3["kernel"], BAND3["stride"]
    pads = BAND3["pads"]
    out_w = (pads[0] + w + pads[1] - kw) // sw + 1
    out_h = (pads[2] + h + pads[3] - kh) // sh + 1
    while True:
        first, last = (int(v) for v in rng.integers(1, out_w - 1, size=2))
        mid = out_w - first - last
        if mid < 1:
            continue
        src = surface(rng, 0, w, h, cv=rng.random() < 0.2)
        dst = surface(rng, 1, out_w, out_h, cv=rng.random() < 0.2)
        first_in = (first - 1) * sw + kw - pads[0]
        mid_in = (mid - 1) * sw + kw - (kw - sw)
        last_in = w - first_in - mid_in
        split = SplitWidths(3, first_in, mid_in, last_in, first, mid, last)
        try:
            prog = pdp_layer(w, h, c, method="average", kernel=(kw, kh), stride=(sw, sh), pads=pads,
                             src=src, dst=dst, split=split, precision=precision)
        except ConfigError:
            continue
        break
    prog = with_raw_fields(prog, _raw_pad_fields(rng, precision))
    cfg = prog.config
    addr, data = image_of(rng, src_layout(cfg), _ELEM[precision], None, fp16=precision == "FP16")
    about = {"unit": "PDP", "precision": precision, "method": "average", "cube": f"{w}x{h}x{c}",
             "kernel": f"{kw}x{kh}", "stride": f"{sw}x{sh}", "pads": ",".join(map(str, pads)),
             "bands": f"{first},{mid},{last}", "band_in": f"{first_in},{mid_in},{last_in}",
             "pad_value_fields": ",".join(f"{v:#x}" for v in cfg.pad_values),
             "recip": f"{cfg.recip_width:#x},{cfg.recip_height:#x}"}
    return Program(name, list(prog.writes), [(addr, "input.dat", data)], extent(dst_layout(cfg)), about)
