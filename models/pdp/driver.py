"""Driver layer for one PDP hardware layer: a layer description in, validated register writes out.

`pdp_layer(...)` takes what a compiler knows about a pooling layer (cube size, method, kernel, stride,
padding, pad value, where the cubes live in memory, optionally the split-width bands) and returns a
`PdpProgram`: the register fields, the model configuration built from them and the register writes
[(unit, register, value)] in the order NVIDIA's KMD issues them (kmd/firmware/pdp.c: producer pointers,
PDP_RDMA group, PDP group, then D_OP_ENABLE of the RDMA and of PDP).

Everything is validated before a single write is returned, so a rejected layer never reaches the hardware:
- register fields must fit (ConfigError naming the field);
- seed 001's Limitation rules, through `PdpConfig.from_fields` (the one implementation of them);
- the data-format rules on both cubes (`check_memory_layout`);
- this RTL's own limit: each band's output width <= `max_out_width`, the band the core's line buffer holds
  for the layer's kernel (MAX_W words / 1, 2, 4 or 8 rows in flight: tb/env/pdp.py band_limit);
- cubes inside the 32-bit address space, and source and destination not overlapping (PDP reads and writes
  at the same time, so an in-place layer would read its own output).

Values computed the way NVIDIA's software does:
- D_RECIP_KERNEL_{WIDTH,HEIGHT}: 2^16 / kernel truncated (the KMD's INT8 table 0x10000, 0x8000, 0x5555, ...);
- D_POOLING_PADDING_VALUE_{n}_CFG: n * pad_value in the 19-bit field (two's complement): the hardware adds
  PAD_VALUE_{n}X for a run of n padded elements, so it must be the pad value added n times (seed 002: the
  pad value compensates the input offset). NVIDIA's PDP traces program exactly these multiples.

`precision` ("INT8" default, or "INT16" where the run's configuration has it) sets D_DATA_FORMAT of both
units; the pad value is then an element of that precision (7 x an int16 still fits the 19-bit field, and
the widths the hardware sign-extends PAD_VALUE_{n}X from: models/pdp/model.py pad_value).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from models import configs, registers
from models.common.driver import (
    RegWrite,
    Surface,
    check_fits,
    check_placement,
    run_atom_bytes,
    surface_registers,
)
from models.common.nvfloat import fp17_of
from models.errors import ConfigError
from models.pdp.model import (
    AVERAGE,
    MAX,
    MIN,
    PRECISION_NAMES,
    PdpConfig,
    check_memory_layout,
    dst_layout,
    max_band_width,
    src_layout,
)

__all__ = ["PdpProgram", "RegWrite", "SplitWidths", "Surface", "band_inputs", "pdp_layer", "plan_split",
           "recip_kernel", "with_raw_fields"]

METHODS: dict[str, int] = {"average": AVERAGE, "max": MAX, "min": MIN}
PAD_VALUE_BITS = 19
RECIP_ONE = 1 << 16
FLYING_OFF = 1           # D_OPERATION_MODE_CFG.FLYING_MODE / D_FLYING_MODE: 1 = input from memory
_SPLIT_SEARCH_LIMIT = 4096  # candidate band cuts plan_split tries before it gives up
PRECISIONS = {name: code for code, name in PRECISION_NAMES.items()}
# the element range of a pad value per precision (the value added for each padded element)
# FP16: the hardware ignores the pad values (seed 002), any int16 is written as it is for INT16.
_PAD_RANGE = {"INT8": (-128, 127), "INT16": (-32768, 32767), "FP16": (-32768, 32767)}

# Register order within each unit, as NVIDIA's KMD writes them (processor_pdp_program).
_RDMA_ORDER = (
    "D_DATA_CUBE_IN_WIDTH", "D_DATA_CUBE_IN_HEIGHT", "D_DATA_CUBE_IN_CHANNEL", "D_FLYING_MODE",
    "D_SRC_BASE_ADDR_HIGH", "D_SRC_BASE_ADDR_LOW", "D_SRC_LINE_STRIDE", "D_SRC_SURFACE_STRIDE",
    "D_DATA_FORMAT", "D_SRC_RAM_CFG", "D_OPERATION_MODE_CFG", "D_POOLING_KERNEL_CFG",
    "D_POOLING_PADDING_CFG", "D_PARTIAL_WIDTH_IN",
)
_PDP_ORDER = (
    "D_DATA_CUBE_IN_WIDTH", "D_DATA_CUBE_IN_HEIGHT", "D_DATA_CUBE_IN_CHANNEL", "D_DATA_CUBE_OUT_WIDTH",
    "D_DATA_CUBE_OUT_HEIGHT", "D_DATA_CUBE_OUT_CHANNEL", "D_OPERATION_MODE_CFG", "D_PARTIAL_WIDTH_IN",
    "D_PARTIAL_WIDTH_OUT", "D_POOLING_KERNEL_CFG", "D_RECIP_KERNEL_WIDTH", "D_RECIP_KERNEL_HEIGHT",
    "D_POOLING_PADDING_CFG", *(f"D_POOLING_PADDING_VALUE_{n}_CFG" for n in range(1, 8)),
    "D_SRC_LINE_STRIDE", "D_SRC_SURFACE_STRIDE", "D_DST_BASE_ADDR_LOW", "D_DST_BASE_ADDR_HIGH",
    "D_DST_LINE_STRIDE", "D_DST_SURFACE_STRIDE", "D_DST_RAM_CFG", "D_DATA_FORMAT",
)


@dataclass(frozen=True)
class SplitWidths:
    """Split-width bands in elements (NVIDIA's hwSplitWidthInfo): `bands` >= 2 passes over the width."""

    bands: int
    first_in: int
    mid_in: int
    last_in: int
    first_out: int
    mid_out: int
    last_out: int


@dataclass(frozen=True)
class PdpProgram:
    """A validated PDP layer: fields per unit, the model's configuration, and the writes in issue order."""

    group: int
    fields: dict[str, dict[str, int]]
    config: PdpConfig
    writes: tuple[RegWrite, ...]


def recip_kernel(kernel: int, precision: str = "INT8") -> int:
    """D_RECIP_KERNEL_* for INT8/INT16: 2^16 / kernel truncated, as the KMD's recip_kernel_size table holds
    (0x10000, 0x8000, 0x5555, 0x4000, 0x3333, 0x2aaa, 0x2492, 0x2000; 1/6 is 0x2aaa, not the rounded 0x2aab).
    NVIDIA's average-pooling traces agree for the kernels they use (1, 2, 3, 8).
    FP16: 1/kernel as an FP17 number rounded to nearest (the KMD's FP16 row: 0x7c00, 0x7800, 0x7555, ...)."""
    if precision == "FP16":
        return fp17_of(1 / kernel)
    return RECIP_ONE // kernel


def pad_value_field(pad_value: int, n: int) -> int:
    """D_POOLING_PADDING_VALUE_{n}_CFG: the int8 pad value added n times, as a 19-bit two's complement."""
    return (n * pad_value) & ((1 << PAD_VALUE_BITS) - 1)


def _method(method: str | int) -> int:
    if isinstance(method, str):
        if method not in METHODS:
            raise ConfigError("PDP: POOLING_METHOD must be AVERAGE, MAX or MIN", {"method": method})
        return METHODS[method]
    return method


def _partial(split: SplitWidths | None, which: str) -> dict[str, int]:
    """PARTIAL_WIDTH_{IN,OUT} fields: value-1 per band kind, 0 where unused (as the KMD writes them)."""
    kind = "IN" if which == "in" else "OUT"
    widths = (0, 0, 0)
    if split is not None:
        widths = ((split.first_in, split.mid_in, split.last_in) if which == "in"
                  else (split.first_out, split.mid_out, split.last_out))
        if split.bands == 2:
            widths = (widths[0], 0, widths[2])
    reg = f"D_PARTIAL_WIDTH_{kind}"
    # A width of 0 marks an unused band kind; negative widths stay negative so _check_fits rejects them.
    return {f"{reg}.PARTIAL_WIDTH_{kind}_{pos}": w - 1 if w else 0
            for pos, w in zip(("FIRST", "MID", "LAST"), widths, strict=True)}


def _pooled(size: int, kernel: int, stride: int, pad_before: int, pad_after: int) -> int:
    """Output size; at least 1 so an impossible layer still encodes and the model names the broken rule."""
    return max((pad_before + size + pad_after - kernel) // stride + 1, 1)


def _fields(width: int, height: int, channels: int, method: int, kernel: tuple[int, int],
            stride: tuple[int, int], pads: tuple[int, int, int, int], pad_value: int,
            src: Surface | None, dst: Surface, split: SplitWidths | None,
            precision: str = "INT8") -> dict[str, dict[str, int]]:
    (kw, kh), (sw, sh), (pl, pr, pt, pb) = kernel, stride, pads
    fmt = PRECISIONS[precision]
    split_num = 0 if split is None else split.bands - 1
    pdp: dict[str, int] = {
        "D_DATA_CUBE_IN_WIDTH.CUBE_IN_WIDTH": width - 1,
        "D_DATA_CUBE_IN_HEIGHT.CUBE_IN_HEIGHT": height - 1,
        "D_DATA_CUBE_IN_CHANNEL.CUBE_IN_CHANNEL": channels - 1,
        "D_DATA_CUBE_OUT_WIDTH.CUBE_OUT_WIDTH": _pooled(width, kw, sw, pl, pr) - 1,
        "D_DATA_CUBE_OUT_HEIGHT.CUBE_OUT_HEIGHT": _pooled(height, kh, sh, pt, pb) - 1,
        "D_DATA_CUBE_OUT_CHANNEL.CUBE_OUT_CHANNEL": channels - 1,
        "D_OPERATION_MODE_CFG.POOLING_METHOD": method,
        "D_OPERATION_MODE_CFG.FLYING_MODE": 0 if src is None else FLYING_OFF,
        "D_OPERATION_MODE_CFG.SPLIT_NUM": split_num,
        **_partial(split, "in"), **_partial(split, "out"),
        "D_POOLING_KERNEL_CFG.KERNEL_WIDTH": kw - 1, "D_POOLING_KERNEL_CFG.KERNEL_HEIGHT": kh - 1,
        "D_POOLING_KERNEL_CFG.KERNEL_STRIDE_WIDTH": sw - 1,
        "D_POOLING_KERNEL_CFG.KERNEL_STRIDE_HEIGHT": sh - 1,
        "D_RECIP_KERNEL_WIDTH.RECIP_KERNEL_WIDTH": recip_kernel(kw, precision),
        "D_RECIP_KERNEL_HEIGHT.RECIP_KERNEL_HEIGHT": recip_kernel(kh, precision),
        "D_POOLING_PADDING_CFG.PAD_LEFT": pl, "D_POOLING_PADDING_CFG.PAD_RIGHT": pr,
        "D_POOLING_PADDING_CFG.PAD_TOP": pt, "D_POOLING_PADDING_CFG.PAD_BOTTOM": pb,
        **{f"D_POOLING_PADDING_VALUE_{n}_CFG.PAD_VALUE_{n}X": pad_value_field(pad_value, n)
           for n in range(1, 8)},
        **surface_registers("dst", dst),
        "D_DST_RAM_CFG.DST_RAM_TYPE": int(dst.ram_mc), "D_DATA_FORMAT.INPUT_DATA": fmt,
    }
    if src is None:
        return {"PDP": pdp, "PDP_RDMA": {}}
    # PDP keeps its own copy of the source strides (the KMD writes them for memory input).
    pdp["D_SRC_LINE_STRIDE.SRC_LINE_STRIDE"] = src.line_stride
    pdp["D_SRC_SURFACE_STRIDE.SRC_SURFACE_STRIDE"] = src.surface_stride
    rdma = {
        "D_DATA_CUBE_IN_WIDTH.CUBE_IN_WIDTH": width - 1,
        "D_DATA_CUBE_IN_HEIGHT.CUBE_IN_HEIGHT": height - 1,
        "D_DATA_CUBE_IN_CHANNEL.CUBE_IN_CHANNEL": channels - 1,
        "D_FLYING_MODE.FLYING_MODE": FLYING_OFF,
        **surface_registers("src", src),
        "D_DATA_FORMAT.INPUT_DATA": fmt, "D_SRC_RAM_CFG.SRC_RAM_TYPE": int(src.ram_mc),
        "D_OPERATION_MODE_CFG.SPLIT_NUM": split_num,
        "D_POOLING_KERNEL_CFG.KERNEL_WIDTH": kw - 1, "D_POOLING_KERNEL_CFG.KERNEL_STRIDE_WIDTH": sw - 1,
        "D_POOLING_PADDING_CFG.PAD_WIDTH": pl,
        **_partial(split, "in"),
    }
    return {"PDP": pdp, "PDP_RDMA": rdma}


def _check_placement(cfg: PdpConfig) -> None:
    cubes = {"DST": dst_layout(cfg)}
    if not cfg.flying:
        cubes["SRC"] = src_layout(cfg)
    check_placement("PDP", cubes)


def _check_rtl_limit(cfg: PdpConfig, max_out_width: int) -> None:
    for index, band in enumerate(cfg.bands()):
        if band.out_width > max_out_width:
            raise ConfigError("PDP RTL: each band's output width must fit the core's line buffer (MAX_W)",
                              {"band": index, "out_width": band.out_width, "MAX_W": max_out_width})


def _ordered_writes(fields: Mapping[str, Mapping[str, int]], group: int, flying: bool) -> list[RegWrite]:
    pdp = registers.encode_fields("PDP", fields["PDP"])
    writes = [RegWrite("PDP", "S_POINTER", group), RegWrite("PDP_RDMA", "S_POINTER", group)]
    if not flying:
        rdma = registers.encode_fields("PDP_RDMA", fields["PDP_RDMA"])
        writes += [RegWrite("PDP_RDMA", name, rdma[name]) for name in _RDMA_ORDER]
    writes += [RegWrite("PDP", name, pdp[name]) for name in _PDP_ORDER if name in pdp]
    if not flying:
        writes.append(RegWrite("PDP_RDMA", "D_OP_ENABLE", 1))
    writes.append(RegWrite("PDP", "D_OP_ENABLE", 1))
    return writes


def _check_description(width: int, height: int, channels: int, kernel: tuple[int, int],
                       stride: tuple[int, int], pads: Sequence[int], pad_value: int, group: int,
                       precision: str) -> None:
    if min(width, height, channels) < 1:
        raise ConfigError("PDP driver: cube width, height and channels must be >= 1",
                          {"width": width, "height": height, "channels": channels})
    if min(*kernel, *stride) < 1:
        raise ConfigError("PDP driver: kernel and stride sizes must be >= 1",
                          {"kernel_w": kernel[0], "kernel_h": kernel[1], "stride_x": stride[0],
                           "stride_y": stride[1]})
    if len(pads) != 4 or min(pads) < 0:
        raise ConfigError("PDP driver: pads are (left, right, top, bottom), each >= 0",
                          {f"pad{i}": p for i, p in enumerate(pads)})
    if precision not in _PAD_RANGE or precision not in configs.load().precisions:
        raise ConfigError("PDP driver: the precision must be one the configuration's PDP computes",
                          {"precision": precision, "configuration": configs.load().name})
    lo, hi = _PAD_RANGE[precision]
    if not lo <= pad_value <= hi:
        raise ConfigError(f"PDP driver: the pad value is an {precision.lower()} ({lo}..{hi})",
                          {"pad_value": pad_value})
    if group not in (0, 1):
        raise ConfigError("PDP driver: register group must be 0 or 1", {"group": group})


def _check_split(split: SplitWidths) -> None:
    used = {"first_in": split.first_in, "last_in": split.last_in, "first_out": split.first_out,
            "last_out": split.last_out}
    if split.bands > 2:
        used |= {"mid_in": split.mid_in, "mid_out": split.mid_out}
    if split.bands < 2 or min(used.values()) < 1:
        raise ConfigError("PDP driver: split mode needs >= 2 bands, each band width >= 1",
                          {"bands": split.bands, **used})


def pdp_layer(width: int, height: int, channels: int, *, method: str | int = "average",
              kernel: tuple[int, int] = (1, 1), stride: tuple[int, int] = (1, 1),
              pads: tuple[int, int, int, int] = (0, 0, 0, 0), pad_value: int = 0,
              src: Surface | None, dst: Surface, split: SplitWidths | int | None = None,
              group: int = 0, max_out_width: int | None = None, precision: str = "INT8") -> PdpProgram:
    """Validate one pooling layer and return its register program (see the module docstring).

    kernel = (width, height), stride = (x, y), pads = (left, right, top, bottom), all in elements;
    src=None means on-the-fly input from SDP (no PDP_RDMA writes). `split` gives the split-width bands, or
    an int to have `plan_split` cut the output into bands of at most that width. `max_out_width` is the
    line-buffer limit of the RTL core for this layer (its MAX_W over the rows in flight; by default NVDLA's
    widest band); NVDLA's own limit for the kernel (models/pdp/model.py max_band_width) is checked whatever
    it is.
    """
    _check_description(width, height, channels, kernel, stride, pads, pad_value, group, precision)
    limit = max_band_width() if max_out_width is None else max_out_width
    m = _method(method)
    if isinstance(split, int):
        out_w = _pooled(width, kernel[0], stride[0], pads[0], pads[1])
        split = plan_split(width, height, channels, method=m, kernel=kernel, stride=stride, pads=pads,
                           src=src, dst=dst, band_out_width=split,
                           precision=precision) if out_w > split else None
    if split is not None:
        _check_split(split)
    fields = _fields(width, height, channels, m, kernel, stride, pads, pad_value, src, dst, split, precision)
    for unit, unit_fields in fields.items():
        check_fits(unit, unit_fields)
    cfg = PdpConfig.from_fields(fields, run_atom_bytes(), configs.load().precisions)
    check_memory_layout(cfg)
    _check_rtl_limit(cfg, limit)
    _check_placement(cfg)
    return PdpProgram(group, fields, cfg, tuple(_ordered_writes(fields, group, cfg.flying)))


def with_raw_fields(prog: PdpProgram, pdp_fields: Mapping[str, int]) -> PdpProgram:
    """The same layer with some PDP fields set to raw register values a driver would not choose (test
    programs: PAD_VALUE_{n}X over all 19 bits, any RECIP_KERNEL_*), which the hardware computes with as they
    are (models/pdp/model.py). Only fields that are not geometry: the layer stays legal, so it is
    re-validated."""
    allowed = ("D_POOLING_PADDING_VALUE_", "D_RECIP_KERNEL_")
    if any(not key.startswith(allowed) for key in pdp_fields):
        raise ConfigError("PDP driver: only pad values and reciprocals may be set raw", dict(pdp_fields))
    fields = {"PDP": {**prog.fields["PDP"], **pdp_fields}, "PDP_RDMA": dict(prog.fields["PDP_RDMA"])}
    check_fits("PDP", fields["PDP"])
    cfg = PdpConfig.from_fields(fields, run_atom_bytes(), configs.load().precisions)
    return PdpProgram(prog.group, fields, cfg, tuple(_ordered_writes(fields, prog.group, cfg.flying)))


def band_inputs(outs: tuple[int, int, int], bands: int, kernel_w: int, stride_w: int, pad_left: int,
                 pad_right: int) -> tuple[int, int, int]:
    """Input widths of the first, mid and last bands for the given output widths (seed 001's split rules,
    with overlap = kernel - stride, negative when the stride skips columns between windows)."""
    first_out, mid_out, last_out = outs
    overlap = kernel_w - stride_w
    first_in = (first_out - 1) * stride_w + kernel_w - pad_left
    mid_in = (mid_out - 1) * stride_w + kernel_w - overlap if bands > 2 else 0
    last_in = (last_out - 1) * stride_w + kernel_w - pad_right - overlap
    return first_in, mid_in, last_in


def _split_candidates(out_w: int, band_out_width: int) -> Iterator[tuple[int, int, int, int]]:
    """(bands, first_out, mid_out, last_out) in the order NVIDIA's compiler prefers: the fewest bands, full
    bands first and the remainder last; then smaller first and mid bands, then one or two more bands."""
    fewest = -(-out_w // band_out_width)
    for bands in range(fewest, min(out_w, fewest + 2) + 1):
        mids = range(band_out_width, 0, -1) if bands > 2 else range(0, -1, -1)
        for mid_out in mids:
            for first_out in range(band_out_width, 0, -1):
                last_out = out_w - first_out - mid_out * (bands - 2)
                if 1 <= last_out <= band_out_width:
                    yield bands, first_out, mid_out, last_out


def plan_split(width: int, height: int, channels: int, *, method: int, kernel: tuple[int, int],
               stride: tuple[int, int], pads: tuple[int, int, int, int], src: Surface | None,
               dst: Surface, band_out_width: int, precision: str = "INT8") -> SplitWidths:
    """Split-width bands of at most `band_out_width` outputs, cut the way NVIDIA's compiler does
    (pdpHWSplitWidth: full bands first, the remainder last) and, when that breaks a split rule (a first or
    mid band narrower than the kernel overlap, say; a narrow last band is legal, docs/limitations.md P10),
    the nearest cut that keeps them. The first candidate the
    model's Limitation rules accept wins; the search is bounded, so an impossible request fails fast."""
    out_w = _pooled(width, kernel[0], stride[0], pads[0], pads[1])
    if band_out_width < 1 or out_w <= band_out_width:
        raise ConfigError("PDP driver: split needs an output wider than one band",
                          {"out_width": out_w, "band_out_width": band_out_width})
    last_error: ConfigError | None = None
    for tried, (bands, first_out, mid_out, last_out) in enumerate(_split_candidates(out_w, band_out_width)):
        if tried >= _SPLIT_SEARCH_LIMIT:
            break
        ins = band_inputs((first_out, mid_out, last_out), bands, kernel[0], stride[0], pads[0], pads[1])
        split = SplitWidths(bands, ins[0], ins[1], ins[2], first_out, mid_out, last_out)
        try:
            _check_split(split)
            fields = _fields(width, height, channels, method, kernel, stride, pads, 0, src, dst, split,
                             precision)
            for unit, unit_fields in fields.items():
                check_fits(unit, unit_fields)
            PdpConfig.from_fields(fields, run_atom_bytes(), configs.load().precisions)
        except ConfigError as err:
            last_error = err
            continue
        return split
    raise ConfigError("PDP driver: no split-width bands satisfy the split rules",
                      {"out_width": out_w, "band_out_width": band_out_width,
                       "last_error": str(last_error) if last_error else "no candidate"})
