"""Bit-exact model of NVDLA's PDP (planar pooling), INT8, INT16 and FP16 (models/pdp/fp16.py).

Arithmetic (established against NVIDIA's C model and the golden trace CRCs, see notes/nvdla-arithmetic.md):
- max/min pooling: only real input elements compete, padded positions never do;
- average pooling: the sum of the real inputs of a window, plus PAD_VALUE_{n}X once per real row for a run
  of n padded columns, plus PAD_VALUE_{n}X * kernel_width for a run of n padded rows; a window padded on
  both sides (only possible when the input is narrower than the kernel) adds the value of the combined run.
  Every step has the fixed width of NVIDIA's RTL (nvdlav1/nv_small NV_NVDLA_PDP_CORE_cal1d.v, cal2d.v; the
  table WIDTHS, docs/pdp_arithmetic.md): a row's sum plus PAD_VALUE_{n}X (19-bit signed) wraps at
  `row_bits`, the window's sum plus PAD_VALUE_{n}X * kernel_width wraps at `acc_bits`,
  then out = rnd(rnd(sum * recip_w / 2^16) * recip_h / 2^16) where each rounded product has a fixed width
  and wraps (`scale_round`). INT8 widths 11, 14, then 11 and 8; INT16 22, 22, then 19 and 16. With the
  pad values NVIDIA's driver writes (n * pad) and sums the data can reach, no step wraps.
- split width: the cube is pooled in SPLIT_NUM + 1 vertical bands; each band is an independent pooling of
  its own input columns with pad_left only on the first band and pad_right only on the last.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from models import configs
from models.common.cube import AtomLanes, CubeLayout, check_layout, surface_fields
from models.common.memory import pick_memory
from models.common.precision import as_signed
from models.errors import ConfigError
from models.pdp.fp16 import pool_band_fp16
from models.pdp.pad import pad_terms as _pad_terms

IntArray = NDArray[np.int64]

AVERAGE, MAX, MIN = 0, 1, 2
INT8, INT16, FP16 = 0, 1, 2  # D_DATA_FORMAT.INPUT_DATA
PRECISION_NAMES = {INT8: "INT8", INT16: "INT16", FP16: "FP16"}


@dataclass(frozen=True)
class Widths:
    """The bit widths of one precision's integer path (NVIDIA's RTL: cal1d.v, cal2d.v; see pdp_pool)."""

    elem_bytes: int
    row_bits: int          # a row's sum of real columns + horizontal pad term (cal1d, unit1d)
    acc_bits: int          # the window's sum of rows + vertical pad term (cal2d)
    scale_bits: tuple[int, int]   # sum * recip_w rounded, then that * recip_h rounded (the stored element)


# nvdlav1 (nv_full) and nv_small have the same INT8 widths. A lane of the row sums is element + 3 bits at INT8
# (a sum of up to 8) and two of those at INT16 (22 bits, which nothing can overflow); the window's sum gets
# 3 bits more at INT8 (14) and keeps its 22 at INT16; the first product keeps element + 3 bits, the second
# the element's (docs/pdp_arithmetic.md).
# FP16: two-byte elements like INT16; its sums are FP17 (models/pdp/fp16.py), these widths are unused.
WIDTHS = {INT8: Widths(1, 11, 14, (11, 8)), INT16: Widths(2, 22, 22, (19, 16)),
          FP16: Widths(2, 22, 22, (19, 16))}
PAD_FIELD_BITS = 19      # D_POOLING_PADDING_VALUE_{n}_CFG.PAD_VALUE_{n}X


def _field(fields: Mapping[str, Mapping[str, int]], unit: str, name: str, default: int = 0) -> int:
    return int(fields.get(unit, {}).get(name, default))


def pad_term(raw: int) -> int:
    """PAD_VALUE_{n}X as the number the sums add: the 19-bit field read as signed. A row adds it (n padded
    columns) and wraps at row_bits, so INT8 uses its bits [10:0] (cal1d.v); the window adds it times the
    kernel width (n padded rows) and wraps at acc_bits, so INT8 uses bits [13:0] of the product (cal2d.v)."""
    return int(as_signed(raw, PAD_FIELD_BITS))


def scale_round(x: IntArray, recip: int, bits: int) -> IntArray:
    """rnd(x * recip / 2^16) into a `bits`-bit result as the RTL's stage computes it (cal2d.v): a negative
    product rounds half away from zero and keeps its low `bits` bits; a non-negative one keeps only `bits`-1
    bits of its integer part before the rounding bit is added (so 2^(bits-1) - 0.5 and up wrap)."""
    p = np.asarray(x, dtype=np.int64) * np.int64(recip)
    floor, frac = p >> 16, p & 0xFFFF
    half = 1 << 15
    neg = (floor + (frac > half)) & ((1 << bits) - 1)
    pos = (floor & ((1 << (bits - 1)) - 1)) + (frac >= half)
    return as_signed(np.where(p < 0, neg, pos), bits)


@dataclass(frozen=True)
class PdpBand:
    """One split-width band: input columns [in_start, in_start + in_width), its pads and output width."""

    in_start: int
    in_width: int
    pad_left: int
    pad_right: int
    out_start: int
    out_width: int


@dataclass(frozen=True)
class PdpConfig(AtomLanes):
    """PDP configuration with every size in elements (register value + 1 already applied)."""

    in_width: int
    in_height: int
    channels: int
    out_width: int
    out_height: int
    out_channels: int
    method: int
    flying: bool
    split_num: int
    partial_in: tuple[int, int, int]
    partial_out: tuple[int, int, int]
    kernel_width: int
    kernel_height: int
    stride_width: int
    stride_height: int
    recip_width: int
    recip_height: int
    pad_left: int
    pad_right: int
    pad_top: int
    pad_bottom: int
    pad_values: tuple[int, ...]
    src_base: int
    src_line_stride: int
    src_surface_stride: int
    dst_base: int
    dst_line_stride: int
    dst_surface_stride: int
    atom_bytes: int = 8
    src_ram_mc: bool = True   # PDP_RDMA SRC_RAM_TYPE: MC, the primary memory (else CV, the CV SRAM)
    dst_ram_mc: bool = True   # PDP DST_RAM_TYPE
    precision: int = INT8     # D_DATA_FORMAT.INPUT_DATA

    @classmethod
    def from_fields(cls, fields: Mapping[str, Mapping[str, int]], atom_bytes: int = 8,
                    precisions: tuple[str, ...] = ("INT8",)) -> PdpConfig:
        """The configuration the registers describe; `precisions`: those the NVDLA configuration has."""
        def p(name: str, default: int = 0) -> int:
            return _field(fields, "PDP", name, default)

        def r(name: str, default: int = 0) -> int:
            return _field(fields, "PDP_RDMA", name, default)

        cfg = cls(
            in_width=p("D_DATA_CUBE_IN_WIDTH.CUBE_IN_WIDTH") + 1,
            in_height=p("D_DATA_CUBE_IN_HEIGHT.CUBE_IN_HEIGHT") + 1,
            channels=p("D_DATA_CUBE_IN_CHANNEL.CUBE_IN_CHANNEL") + 1,
            out_width=p("D_DATA_CUBE_OUT_WIDTH.CUBE_OUT_WIDTH") + 1,
            out_height=p("D_DATA_CUBE_OUT_HEIGHT.CUBE_OUT_HEIGHT") + 1,
            out_channels=p("D_DATA_CUBE_OUT_CHANNEL.CUBE_OUT_CHANNEL") + 1,
            method=p("D_OPERATION_MODE_CFG.POOLING_METHOD"),
            flying=p("D_OPERATION_MODE_CFG.FLYING_MODE") == 0,
            split_num=p("D_OPERATION_MODE_CFG.SPLIT_NUM"),
            partial_in=(p("D_PARTIAL_WIDTH_IN.PARTIAL_WIDTH_IN_FIRST") + 1,
                        p("D_PARTIAL_WIDTH_IN.PARTIAL_WIDTH_IN_MID") + 1,
                        p("D_PARTIAL_WIDTH_IN.PARTIAL_WIDTH_IN_LAST") + 1),
            partial_out=(p("D_PARTIAL_WIDTH_OUT.PARTIAL_WIDTH_OUT_FIRST") + 1,
                         p("D_PARTIAL_WIDTH_OUT.PARTIAL_WIDTH_OUT_MID") + 1,
                         p("D_PARTIAL_WIDTH_OUT.PARTIAL_WIDTH_OUT_LAST") + 1),
            kernel_width=p("D_POOLING_KERNEL_CFG.KERNEL_WIDTH") + 1,
            kernel_height=p("D_POOLING_KERNEL_CFG.KERNEL_HEIGHT") + 1,
            stride_width=p("D_POOLING_KERNEL_CFG.KERNEL_STRIDE_WIDTH") + 1,
            stride_height=p("D_POOLING_KERNEL_CFG.KERNEL_STRIDE_HEIGHT") + 1,
            recip_width=p("D_RECIP_KERNEL_WIDTH.RECIP_KERNEL_WIDTH"),
            recip_height=p("D_RECIP_KERNEL_HEIGHT.RECIP_KERNEL_HEIGHT"),
            pad_left=p("D_POOLING_PADDING_CFG.PAD_LEFT"),
            pad_right=p("D_POOLING_PADDING_CFG.PAD_RIGHT"),
            pad_top=p("D_POOLING_PADDING_CFG.PAD_TOP"),
            pad_bottom=p("D_POOLING_PADDING_CFG.PAD_BOTTOM"),
            pad_values=tuple(p(f"D_POOLING_PADDING_VALUE_{n}_CFG.PAD_VALUE_{n}X") for n in range(1, 8)),
            # The input is fetched by PDP_RDMA, so its addresses are the RDMA's.
            **surface_fields(r, "src"),
            **surface_fields(p, "dst"),
            atom_bytes=atom_bytes,
            src_ram_mc=bool(r("D_SRC_RAM_CFG.SRC_RAM_TYPE", 1)),
            dst_ram_mc=bool(p("D_DST_RAM_CFG.DST_RAM_TYPE", 1)),
            precision=p("D_DATA_FORMAT.INPUT_DATA"),
        )
        _check_precision(cfg.precision, "INPUT_DATA", precisions)
        if not cfg.flying:
            # The RDMA's copy of the format is what it fetches with: it must be the same precision.
            rdma_precision = r("D_DATA_FORMAT.INPUT_DATA")
            if rdma_precision != cfg.precision:
                raise ConfigError("PDP: PDP_RDMA INPUT_DATA must equal PDP's (invalid precision conversion)",
                                  {"PDP_RDMA INPUT_DATA": rdma_precision, "PDP INPUT_DATA": cfg.precision})
        validate(cfg)
        if not cfg.flying:   # after PDP's own rules: a layer breaking one names it, whatever its RDMA copy
            _check_rdma_agrees(cfg, fields)
        return cfg

    @property
    def passes(self) -> int:
        return self.split_num + 1

    @property
    def widths(self) -> Widths:
        return WIDTHS[self.precision]

    def bands(self) -> list[PdpBand]:
        """The split-width bands in the order the hardware runs them (one band when SPLIT_NUM is 0)."""
        if self.split_num == 0:
            return [PdpBand(0, self.in_width, self.pad_left, self.pad_right, 0, self.out_width)]
        first_in, mid_in, last_in = self.partial_in
        first_out, mid_out, last_out = self.partial_out
        # Bands after the first re-read the overlap (kernel - stride) columns; with stride > kernel the
        # overlap is negative and the skipped columns are never read.
        overlap = self.kernel_width - self.stride_width
        bands = [PdpBand(0, first_in, self.pad_left, 0, 0, first_out)]
        for i in range(1, self.passes):
            last = i == self.passes - 1
            start = first_in + (i - 1) * mid_in - overlap
            width = (last_in if last else mid_in) + overlap
            out_start = first_out + (i - 1) * mid_out
            bands.append(PdpBand(start, width, 0, self.pad_right if last else 0, out_start,
                                 last_out if last else mid_out))
        return bands

    def input_columns(self) -> int:
        """How many input columns the RDMA reads (the right end of the right-most band)."""
        return max(b.in_start + b.in_width for b in self.bands())


def _check_precision(value: int, field: str, precisions: tuple[str, ...]) -> None:
    """A precision the configuration has and the model computes."""
    name = PRECISION_NAMES.get(value)
    if name not in precisions or value not in WIDTHS:
        have = [p for p in precisions if p in (PRECISION_NAMES[k] for k in WIDTHS)]
        raise ConfigError(f"PDP: {field} {name or value} is not a precision of this configuration's PDP "
                          f"(it has {', '.join(have)}; invalid precision conversion)", {field: value})


def _check_rdma_agrees(cfg: PdpConfig, fields: Mapping[str, Mapping[str, int]]) -> None:
    """PDP_RDMA repeats the geometry; the data path breaks if the two copies disagree."""
    pairs = {
        "CUBE_IN_WIDTH": ("D_DATA_CUBE_IN_WIDTH.CUBE_IN_WIDTH", cfg.in_width - 1),
        "CUBE_IN_HEIGHT": ("D_DATA_CUBE_IN_HEIGHT.CUBE_IN_HEIGHT", cfg.in_height - 1),
        "CUBE_IN_CHANNEL": ("D_DATA_CUBE_IN_CHANNEL.CUBE_IN_CHANNEL", cfg.channels - 1),
        "SPLIT_NUM": ("D_OPERATION_MODE_CFG.SPLIT_NUM", cfg.split_num),
        "KERNEL_WIDTH": ("D_POOLING_KERNEL_CFG.KERNEL_WIDTH", cfg.kernel_width - 1),
        "KERNEL_STRIDE_WIDTH": ("D_POOLING_KERNEL_CFG.KERNEL_STRIDE_WIDTH", cfg.stride_width - 1),
    }
    if cfg.split_num:
        # NVIDIA's PDP_RDMA reads each band by its own PARTIAL_WIDTH_IN (nv_full RTL: the RDMA's first band
        # two columns wider than PDP's changes 2703 of 2880 output bytes); the model and the RTL read PDP's
        first_in, mid_in, last_in = cfg.partial_in
        pairs["PARTIAL_WIDTH_IN_FIRST"] = ("D_PARTIAL_WIDTH_IN.PARTIAL_WIDTH_IN_FIRST", first_in - 1)
        pairs["PARTIAL_WIDTH_IN_LAST"] = ("D_PARTIAL_WIDTH_IN.PARTIAL_WIDTH_IN_LAST", last_in - 1)
        if cfg.split_num > 1:
            pairs["PARTIAL_WIDTH_IN_MID"] = ("D_PARTIAL_WIDTH_IN.PARTIAL_WIDTH_IN_MID", mid_in - 1)
    for label, (name, expected) in pairs.items():
        got = _field(fields, "PDP_RDMA", name, expected)
        if got != expected:
            raise ConfigError(f"PDP_RDMA {label} must equal PDP's", {"PDP_RDMA": got, "PDP": expected})


def check_memory_layout(cfg: PdpConfig) -> None:
    """Data-format rules (alignment, line/surface strides) on the RDMA input and the output cube.

    run_pdp checks them before it touches memory; from_fields does not, because pdp_pool (the pure array
    function RTL benches and the model benchmark score streams with) needs no memory layout.
    """
    elem = cfg.widths.elem_bytes
    if not cfg.flying:
        check_layout("PDP", "SRC", cfg.src_base, cfg.src_line_stride, cfg.src_surface_stride,
                     width=cfg.in_width, height=cfg.in_height, channels=cfg.channels,
                     atom_bytes=cfg.lanes, elem_bytes=elem, align=cfg.atom_bytes)
    check_layout("PDP", "DST", cfg.dst_base, cfg.dst_line_stride, cfg.dst_surface_stride,
                 width=cfg.out_width, height=cfg.out_height, channels=cfg.out_channels,
                 atom_bytes=cfg.lanes, elem_bytes=elem, align=cfg.atom_bytes)


def advisories(cfg: PdpConfig) -> list[str]:
    """Rules the seed states whose violation still has a defined result: reported, not raised.

    "For 1x1xC cube, it should always be line_packed and surf_packed": NVIDIA's trace
    pdp_1x1x1_3x3_ave_int8_0 reads a 1x1x1 cube with a 0x3a0 line stride and writes its 1x1 output with a
    0x2000 one; its golden output is the plain strided layout this model uses.

    "For non-split mode, CUBE_IN_WIDTH + PL should be equals to (CUBE_OUT_WIDTH-1)*stride_x + kernel_width":
    read literally it forbids right padding without split, yet NVIDIA's traces pdp_28x28x8_2x2_max_int8_0,
    pdp_7x9x10_3x3_int8, pdp_24x16x1_8x8_ave_int8_0 and pdp_8x8x64_2x2_{ave,min}_int8_0 pool with PAD_RIGHT
    > 0 and no split, and their golden outputs are those of CUBE_IN_WIDTH + PL + PR ==
    (CUBE_OUT_WIDTH-1)*stride_x + kernel_width, the form validate() enforces (the (PL+W+PR-Kernel_W)
    %stride_x rule and the pooled width). The literal form is reported.
    """
    found = []
    if cfg.split_num == 0:
        span = (cfg.out_width - 1) * cfg.stride_width + cfg.kernel_width
        if cfg.in_width + cfg.pad_left != span:
            found.append("PDP: for non-split mode, CUBE_IN_WIDTH + PL should be equals to "
                         "(CUBE_OUT_WIDTH-1)*stride_x + kernel_width "
                         f"(CUBE_IN_WIDTH={cfg.in_width}, PL={cfg.pad_left}, CUBE_OUT_WIDTH={cfg.out_width}, "
                         f"stride_x={cfg.stride_width}, kernel_width={cfg.kernel_width})")
    sides = [("DST", cfg.out_width, cfg.out_height, cfg.dst_line_stride, cfg.dst_surface_stride)]
    if not cfg.flying:
        sides.insert(0, ("SRC", cfg.in_width, cfg.in_height, cfg.src_line_stride, cfg.src_surface_stride))
    for side, w, h, line, surf in sides:
        if w == 1 and h == 1 and (line != cfg.atom_bytes or (cfg.surfaces > 1 and surf != cfg.atom_bytes)):
            found.append(f"PDP: for 1x1xC cube, it should always be line_packed and surf_packed "
                         f"({side}_LINE_STRIDE={line}, {side}_SURFACE_STRIDE={surf})")
    return found


def max_band_width(kernel_height: int = 1, stride_height: int = 1) -> int:
    """Largest output width of one band (a whole line without split) the line buffer of the run's
    configuration holds for this kernel height and vertical stride, as NVIDIA's RTL cuts it
    (models/configs.py pdp_band_width: 128, 64, 32 or 16 columns for 1, 2, 3-4, 5-8 output rows in flight;
    the defaults: one row, the widest band)."""
    return configs.load().pdp_band_width(kernel_height, stride_height)


def validate(cfg: PdpConfig) -> None:
    """The PDP rules of seed 001's Limitation section (and the programming guide's pooled-size formula)."""
    k, s, pl, pr = cfg.kernel_width, cfg.stride_width, cfg.pad_left, cfg.pad_right
    if cfg.method not in (AVERAGE, MAX, MIN):
        raise ConfigError("PDP: POOLING_METHOD must be AVERAGE, MAX or MIN", {"POOLING_METHOD": cfg.method})
    if k > 8 or cfg.kernel_height > 8:
        raise ConfigError("PDP: maximum supported pooling kernel size is 8",
                          {"kernel_width": k, "kernel_height": cfg.kernel_height})
    if pl >= k or pr >= k:
        raise ConfigError("PDP: PL/PR should be less than kernel_width", {"PL": pl, "PR": pr, "kernel_w": k})
    if cfg.pad_top >= cfg.kernel_height or cfg.pad_bottom >= cfg.kernel_height:
        raise ConfigError("PDP: PT/PB should be less than kernel_height (height analogue of PL/PR)",
                          {"PT": cfg.pad_top, "PB": cfg.pad_bottom, "kernel_h": cfg.kernel_height})
    if (pl + cfg.in_width + pr - k) % s != 0 or pl + cfg.in_width + pr < k:
        raise ConfigError("PDP: (PL+W+PR-Kernel_W)%stride_x == 0 so that every input sample is used",
                          {"PL": pl, "W": cfg.in_width, "PR": pr, "kernel_w": k, "stride_x": s})
    pooled_w = (pl + cfg.in_width + pr - k) // s + 1
    if cfg.out_width != pooled_w:
        raise ConfigError("PDP: CUBE_OUT_WIDTH must be (W+PL+PR-kernel_w)/stride_x + 1",
                          {"CUBE_OUT_WIDTH": cfg.out_width, "expected": pooled_w})
    span_h = cfg.pad_top + cfg.in_height + cfg.pad_bottom - cfg.kernel_height
    if span_h < 0 or cfg.out_height != span_h // cfg.stride_height + 1:
        raise ConfigError("PDP: CUBE_OUT_HEIGHT must be (H+PT+PB-kernel_h)/stride_y + 1",
                          {"CUBE_OUT_HEIGHT": cfg.out_height, "H": cfg.in_height, "PT": cfg.pad_top,
                           "PB": cfg.pad_bottom, "kernel_h": cfg.kernel_height,
                           "stride_y": cfg.stride_height})
    if cfg.out_channels != cfg.channels:
        raise ConfigError("PDP: CUBE_OUT_CHANNEL must equal CUBE_IN_CHANNEL",
                          {"CUBE_OUT_CHANNEL": cfg.out_channels, "CUBE_IN_CHANNEL": cfg.channels})
    if cfg.flying and cfg.split_num != 0:
        raise ConfigError("PDP: on-the-fly mode needs SPLIT_NUM=0", {"SPLIT_NUM": cfg.split_num})
    limit = max_band_width(cfg.kernel_height, cfg.stride_height)
    if cfg.split_num == 0:
        if cfg.out_width > limit:
            raise ConfigError("PDP: output width must be less than the maximum flying width",
                              {"out_width": cfg.out_width, "max": limit, "kernel_h": cfg.kernel_height,
                               "stride_y": cfg.stride_height})
        return
    _validate_split(cfg, limit)


def _validate_split(cfg: PdpConfig, limit: int) -> None:
    k, s, pl, pr = cfg.kernel_width, cfg.stride_width, cfg.pad_left, cfg.pad_right
    first_in, mid_in, last_in = cfg.partial_in
    first_out, mid_out, last_out = cfg.partial_out
    n = cfg.passes
    overlap = k - s
    outs = {"first_out_width": first_out, "last_out_width": last_out}
    if n > 2:
        outs["mid_out_width"] = mid_out
    for name, value in outs.items():
        if value > limit:
            raise ConfigError("PDP: first/mid/last_out_width should be less than maximum flying width",
                              {name: value, "max": limit, "kernel_h": cfg.kernel_height,
                               "stride_y": cfg.stride_height})
    total_out = first_out + last_out + mid_out * (n - 2)
    if total_out != cfg.out_width:
        raise ConfigError("PDP split: first_out + last_out + mid_out*(split_num-2) == CUBE_OUT_WIDTH",
                          {"sum": total_out, "CUBE_OUT_WIDTH": cfg.out_width})
    if first_in + pl != (first_out - 1) * s + k:
        raise ConfigError("PDP split: first_in_width + PL == (first_out_width-1)*stride_x + kernel_w",
                          {"first_in_width": first_in, "PL": pl, "first_out_width": first_out})
    if n > 2 and mid_in + overlap != (mid_out - 1) * s + k:
        raise ConfigError("PDP split: mid_in_width + overlap == (mid_out_width-1)*stride_x + kernel_w",
                          {"mid_in_width": mid_in, "overlap": overlap, "mid_out_width": mid_out})
    if last_in + pr + overlap != (last_out - 1) * s + k:
        raise ConfigError("PDP split: last_in_width + PR + overlap == (last_out_width-1)*stride_x + kernel_w",
                          {"last_in_width": last_in, "PR": pr, "overlap": overlap,
                           "last_out_width": last_out})
    # Seed 001 names first_in_width (kernel >= stride) or last_in_width (kernel < stride) for two bands and
    # "_in_width" for more. Read the same way for any number of bands (docs/limitations.md, P10): the
    # kernel - stride columns a band re-reads come from the band before it, so every band that another
    # follows (first, mid) must be that wide; with stride > kernel a band that follows another (mid, last)
    # skips stride - kernel columns of its input and must be wider. The last band may be narrower than the
    # overlap (NVIDIA's nv_full RTL runs it, and the model matches its output: traces/nv_full_ref pdpsplit).
    if k >= s:
        widths = {"first_in_width": first_in, **({"mid_in_width": mid_in} if n > 2 else {})}
    else:
        widths = {**({"mid_in_width": mid_in} if n > 2 else {}), "last_in_width": last_in}
    for name, value in widths.items():
        if k >= s and not k - s <= value:
            raise ConfigError("PDP split: kernel_w - stride_x should be <= each _in_width",
                              {name: value, "kernel_w": k, "stride_x": s})
        if k < s and not s - k < value:
            raise ConfigError("PDP split: stride_x - kernel_w should be < each _in_width",
                              {name: value, "kernel_w": k, "stride_x": s})
    covered = first_in + mid_in * (n - 2) + last_in
    if covered != cfg.in_width:
        raise ConfigError("PDP split: first_in + mid_in*(split_num-2) + last_in == CUBE_IN_WIDTH",
                          {"sum": covered, "CUBE_IN_WIDTH": cfg.in_width})


def _pool_axis(x: IntArray, axis: int, n_out: int, kernel: int, stride: int, pad_before: int,
               method: int) -> IntArray:
    """Reduce `axis` of x over the kernel windows, real elements only (sum, max or min)."""
    in_size = x.shape[axis]
    starts = np.arange(n_out, dtype=np.int64) * stride - pad_before
    out_shape = list(x.shape)
    out_shape[axis] = n_out
    if method == AVERAGE:
        acc = np.zeros(out_shape, dtype=np.int64)
    else:
        # Sentinels outside int16 so a window with no real input is recognisable (never in valid configs).
        fill = -(1 << 20) if method == MAX else (1 << 20)
        acc = np.full(out_shape, fill, dtype=np.int64)
    bshape = [1] * x.ndim
    bshape[axis] = n_out
    for kk in range(kernel):
        idx = starts + kk
        valid = (idx >= 0) & (idx < in_size)
        if not valid.any():
            continue
        taken = np.take(x, np.clip(idx, 0, in_size - 1), axis=axis)
        mask = valid.reshape(bshape)
        if method == AVERAGE:
            acc += np.where(mask, taken, 0)
        elif method == MAX:
            acc = np.where(mask, np.maximum(acc, taken), acc)
        else:
            acc = np.where(mask, np.minimum(acc, taken), acc)
    return acc


def _pool_band(x: IntArray, cfg: PdpConfig, band: PdpBand) -> IntArray:
    """Pool one band x[c, h, band columns] into [c, out_height, band.out_width] int64."""
    kw, kh = cfg.kernel_width, cfg.kernel_height
    rows = _pool_axis(x, 2, band.out_width, kw, cfg.stride_width, band.pad_left, cfg.method)
    if cfg.method != AVERAGE:
        return _pool_axis(rows, 1, cfg.out_height, kh, cfg.stride_height, cfg.pad_top, cfg.method)
    w = cfg.widths
    hpads = tuple(pad_term(v) for v in cfg.pad_values)
    rows = rows + _pad_terms(band.out_width, band.in_width, kw, cfg.stride_width, band.pad_left,
                             hpads)[None, None, :]
    rows = as_signed(rows, w.row_bits)
    total = _pool_axis(rows, 1, cfg.out_height, kh, cfg.stride_height, cfg.pad_top, cfg.method)
    vpads = tuple(pad_term(v) * kw for v in cfg.pad_values)
    total = total + _pad_terms(cfg.out_height, cfg.in_height, kh, cfg.stride_height, cfg.pad_top,
                               vpads)[None, :, None]
    total = as_signed(total, w.acc_bits)
    scaled = scale_round(total, cfg.recip_width, w.scale_bits[0])
    return scale_round(scaled, cfg.recip_height, w.scale_bits[1])


def pdp_pool(cube: NDArray[np.integer], cfg: PdpConfig) -> NDArray[np.int8] | NDArray[np.int16]:
    """Pool a cube [c, h, w] (w >= cfg.input_columns()) of the configuration's precision into
    [c, out_height, out_width] of the same precision (int8 or int16)."""
    x = np.asarray(cube, dtype=np.int64)
    if x.ndim != 3 or x.shape[1] != cfg.in_height or x.shape[2] < cfg.input_columns():
        raise ValueError(f"cube shape {x.shape} does not match the configuration "
                         f"(h={cfg.in_height}, w>={cfg.input_columns()})")
    out = np.zeros((x.shape[0], cfg.out_height, cfg.out_width), dtype=np.int64)
    fp16 = cfg.precision == FP16
    if fp16:
        x = x & 0xFFFF     # FP16 bit patterns
    for band in cfg.bands():
        sub = x[:, :, band.in_start:band.in_start + band.in_width]
        pooled = pool_band_fp16(sub, cfg, band) if fp16 else _pool_band(sub, cfg, band)
        out[:, :, band.out_start:band.out_start + band.out_width] = pooled
    # The output element is stored by truncation to its width (average with recip > 1 can wrap).
    elem = cfg.widths.elem_bytes
    return as_signed(out, 8 * elem).astype(np.int8 if elem == 1 else np.int16)


@dataclass(frozen=True)
class PdpResult:
    output: NDArray[np.int8] | NDArray[np.int16]
    nan_input_num: int = 0
    inf_input_num: int = 0
    nan_output_num: int = 0


def run_pdp(cfg: PdpConfig, mem: object, flying_input: NDArray[np.integer] | None = None,
            sec_mem: object | None = None) -> PdpResult:
    """Run one PDP hardware layer: read (or take from SDP), pool, write every lane of every atom.
    A side whose RAM_TYPE is CV uses `sec_mem` when one is given (models.common.memory.pick_memory)."""
    check_memory_layout(cfg)
    if cfg.flying:
        if flying_input is None:
            raise ValueError("PDP is in on-the-fly mode: pass the SDP output cube as flying_input")
        cube = np.asarray(flying_input)
        if cube.shape[0] < cfg.padded_channels:
            pad = np.zeros((cfg.padded_channels - cube.shape[0], *cube.shape[1:]), dtype=cube.dtype)
            cube = np.concatenate([cube, pad])
        cube = cube[:cfg.padded_channels]
    else:
        cube = src_layout(cfg).read_lanes(pick_memory(cfg.src_ram_mc, mem, sec_mem))  # type: ignore[arg-type]
    out = pdp_pool(cube, cfg)
    dst_layout(cfg).write(pick_memory(cfg.dst_ram_mc, mem, sec_mem), out)  # type: ignore[arg-type]
    return PdpResult(out)


def src_layout(cfg: PdpConfig) -> CubeLayout:
    """The input cube PDP_RDMA reads (every column a band reads: input_columns())."""
    return CubeLayout(cfg.src_base, cfg.src_line_stride, cfg.src_surface_stride, cfg.input_columns(),
                      cfg.in_height, cfg.channels, cfg.lanes, cfg.widths.elem_bytes)


def dst_layout(cfg: PdpConfig) -> CubeLayout:
    return CubeLayout(cfg.dst_base, cfg.dst_line_stride, cfg.dst_surface_stride, cfg.out_width,
                      cfg.out_height, cfg.channels, cfg.lanes, cfg.widths.elem_bytes)
