"""Driver layer for a direct convolution: a layer description in, validated register programs out.

`conv_layer(ConvLayer(...))` takes what a compiler knows about an INT8 convolution with feature input (input
cube, kernels, stride, dilation, padding and pad value, CACC's truncation, CDMA's input convertor, where the
cubes and weights live, the SDP stage and optionally PDP on the fly) and returns a `ConvProgram`: one or more
hardware layers (`ConvHwLayer`), each with its register fields per unit, the model's configuration and its
register writes [(unit, register, value)] in the order NVIDIA's KMD issues them: producer pointers, then the
groups of CACC, CMAC_A, CMAC_B, CSC, CDMA, then SDP's (and PDP's), then D_OP_ENABLE from the last stage back
to CDMA (seed 001 Limitation, Convolution/General: "the op_enable programming sequence has to be in reverse
order"): PDP, SDP_RDMA, SDP, CACC, CMAC_A, CMAC_B, CSC, CDMA.

CBUF (seed 001, "Working modes"): the driver gives the data DATA_BANK = ceil(ENTRY_PER_SLICE * H / entries a
bank) banks and tries, in seed 001's order of preference, "full input & weight" (all the weights, plus 128
bytes, in the other banks), then "full input, partial weight" (two kernel groups, then one, plus 128 bytes),
then "split H": several hardware layers, each on a band of output rows whose input rows fit beside the
weights (max(R' - stride_y, 0) rows overlap between bands, R' the dilated kernel height). Each hardware layer
of a split layer is a full layer of its own (no data reuse, every slice released); the caller waits for its
SDP (PDP) done interrupt before issuing the next (`ConvProgram.layers`). ENTRY_PER_SLICE follows NVIDIA's
C model (copied by NVDLA compilers): a slice's memory atoms, whole CBUF entries first, the remaining atoms of
several pixels sharing entries (docs/convolution.md "CBUF").

Everything is validated before a write is returned, every refusal a ConfigError naming the rule
(docs/limitations.md, section Convolution, ids CV1..CV20): field ranges, padding consuming the input
exactly, padding narrower than the (dilated) kernel, a 1x1 input line and surface packed, alignment, CBUF
capacity, placement in memory, and the SDP/PDP rules through their drivers.

Before the first layer after reset the host polls CDMA S_CBUF_FLUSH_STATUS until it reads 1 (`FLUSH_POLL`),
as NVIDIA's traces do. The program follows the run's configuration ($CONFIG: atomic C/K, CBUF, memory atom).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from models import configs, registers
from models.common.cube import check_layout
from models.common.driver import RegWrite, Surface, check_fits, check_placement
from models.conv.cdma import cvt_int8, weight_image_bytes
from models.conv.conv import ConvConfig
from models.errors import ConfigError
from models.lut.model import LutConfig
from models.pdp.driver import PdpProgram, pdp_layer
from models.sdp.driver import (
    BYPASSED_EW,
    BYPASSED_X,
    IDENTITY_CVT,
    NO_DMA,
    EwBlock,
    OperandDma,
    OutputCvt,
    SdpProgram,
    XBlock,
    sdp_layer,
)

__all__ = ["FLUSH_POLL", "ConvHwLayer", "ConvLayer", "ConvProgram", "InputCvt", "PdpStage", "SdpStage",
           "conv_layer", "entry_per_slice"]

FLUSH_POLL = ("CDMA", "S_CBUF_FLUSH_STATUS", 1)   # poll until the register reads this, before the first layer
WEIGHT_SLACK = 128       # "WEIGHT_BANK ... large enough to store one kernel group weight plus 128Bytes"
WEIGHT_BYTES_ALIGN = 128  # WEIGHT_BYTES is the weights' size rounded up to 128 (NVIDIA's traces, C model)
CONV_ORDER = ("CACC", "CMAC_A", "CMAC_B", "CSC", "CDMA")   # programming order; op_enable goes the same way


@dataclass(frozen=True)
class InputCvt:
    """CDMA's input convertor: x -> sat_int8(round((x - offset) * scale >> truncate)); offset and scale are
    signed 16-bit values, truncate 0..63."""

    offset: int = 0
    scale: int = 1
    truncate: int = 0


@dataclass(frozen=True)
class SdpStage:
    """SDP on the fly after CACC (models/sdp/driver.py's blocks); `dst` is where SDP writes the output cube
    (None when it goes on to PDP)."""

    dst: Surface | None = None
    bs: XBlock = BYPASSED_X
    bn: XBlock = BYPASSED_X
    ew: EwBlock = BYPASSED_EW
    cvt: OutputCvt = IDENTITY_CVT
    brdma: OperandDma = NO_DMA
    nrdma: OperandDma = NO_DMA
    erdma: OperandDma = NO_DMA
    lut: LutConfig | None = None
    perf: bool = True


@dataclass(frozen=True)
class PdpStage:
    """PDP on the fly after SDP (models/pdp/driver.py's arguments)."""

    dst: Surface
    method: str = "max"
    kernel: tuple[int, int] = (1, 1)
    stride: tuple[int, int] = (1, 1)
    pads: tuple[int, int, int, int] = (0, 0, 0, 0)
    pad_value: int = 0


@dataclass(frozen=True)
class ConvLayer:
    """One INT8 direct convolution with feature input. Sizes in elements; stride and dilation (x, y); pads
    (left, right, top, bottom); pad_value an INT8 in the input's domain (CDMA's register; CSC gets it through
    the convertor when `cvt` is given, as seed 001 describes the two copies); truncate is CACC's
    CLIP_TRUNCATE (0..31); cvt enables CDMA's input convertor. Weights [K, C, R, S] live at `weight_base` in
    NVIDIA's layout for the configuration (models/conv/cdma.py pack_weights)."""

    width: int
    height: int
    channels: int
    kernels: int
    kernel_w: int
    kernel_h: int
    src: Surface
    weight_base: int
    sdp: SdpStage
    weight_ram_mc: bool = True
    stride: tuple[int, int] = (1, 1)
    dilation: tuple[int, int] = (1, 1)
    pads: tuple[int, int, int, int] = (0, 0, 0, 0)
    pad_value: int = 0
    truncate: int = 0
    cvt: InputCvt | None = None
    pdp: PdpStage | None = None
    skip_release: tuple[bool, bool] = (False, False)   # CDMA/CSC D_MISC_CFG SKIP_DATA_RLS, SKIP_WEIGHT_RLS

    @property
    def kernel_span(self) -> tuple[int, int]:
        """(S', R'): the dilated kernel, (S-1)*dilation_x + 1 and (R-1)*dilation_y + 1."""
        return ((self.kernel_w - 1) * self.dilation[0] + 1, (self.kernel_h - 1) * self.dilation[1] + 1)

    @property
    def out_width(self) -> int:
        pl, pr = self.pads[0], self.pads[1]
        return (pl + self.width + pr - self.kernel_span[0]) // self.stride[0] + 1

    @property
    def out_height(self) -> int:
        pt, pb = self.pads[2], self.pads[3]
        return (pt + self.height + pb - self.kernel_span[1]) // self.stride[1] + 1


@dataclass(frozen=True)
class ConvHwLayer:
    """One hardware layer: output rows [rows[0], rows[1]), fields per unit, the model's view, the writes."""

    group: int
    rows: tuple[int, int]
    fields: dict[str, dict[str, int]]
    config: ConvConfig
    sdp: SdpProgram
    pdp: PdpProgram | None
    writes: tuple[RegWrite, ...]


@dataclass(frozen=True)
class ConvProgram:
    """A validated convolution: its CBUF plan and its hardware layers, issued one after the other (the host
    waits for each layer's last done: PDP's when PDP runs, else SDP's)."""

    layer: ConvLayer
    mode: str                  # "full", "partial weights" or "split H"
    data_banks: int
    weight_banks: int
    entry_per_slice: int
    layers: tuple[ConvHwLayer, ...] = field(default_factory=tuple)

    @property
    def writes(self) -> tuple[RegWrite, ...]:
        """Every layer's writes in order (a program of one layer: all of it; otherwise the host must wait
        for each layer's done before the next layer's writes)."""
        return tuple(w for hw in self.layers for w in hw.writes)


def _rule(rule_id: str, text: str, values: dict[str, int | str]) -> ConfigError:
    return ConfigError(f"Convolution {rule_id}: {text}", values)


def entry_per_slice(width: int, channels: int, geometry: configs.ConvGeometry, atom_bytes: int) -> int:
    """CBUF entries one input slice (a row of the cube) takes at INT8: its atoms per pixel, whole entries
    first, then the remaining atoms, rounded up to 1, 2, 4.. of an entry's atoms, shared by pixels."""
    per_entry = geometry.cbuf_entry_bytes // atom_bytes
    atoms = -(-channels // atom_bytes)
    whole, rest = divmod(atoms, per_entry)
    eps = whole * width
    if rest:
        share = 1 << (rest - 1).bit_length()      # 1, 2, 4, ... atoms of an entry
        eps += -(-width * share // per_entry)
    return eps


def _weight_banks(layer: ConvLayer, geometry: configs.ConvGeometry, kernels: int) -> int:
    bank_bytes = geometry.cbuf_bank_entries * geometry.cbuf_entry_bytes
    size = weight_image_bytes(kernels, layer.channels, layer.kernel_h, layer.kernel_w)
    return -(-(size + WEIGHT_SLACK) // bank_bytes)


def _plan(layer: ConvLayer, geometry: configs.ConvGeometry, eps: int) -> tuple[str, int, int, int]:
    """(mode, data banks, weight banks, output rows a hardware layer takes) as seed 001 chooses them."""
    banks, entries = geometry.cbuf_banks, geometry.cbuf_bank_entries
    group_kernels = min(layer.kernels, geometry.atomic_k)
    options = [("full", _weight_banks(layer, geometry, layer.kernels)),
               ("partial weights", _weight_banks(layer, geometry, min(layer.kernels, 2 * group_kernels))),
               ("partial weights", _weight_banks(layer, geometry, group_kernels))]
    data_banks = -(-eps * layer.height // entries)
    for mode, wbanks in options:
        if data_banks + wbanks <= banks:
            return mode, data_banks, wbanks, layer.out_height
    wbanks = options[-1][1]
    if wbanks >= banks:
        raise _rule("CV8", "WEIGHT_BANK should be allocated large enough to store one kernel group weight "
                    "plus 128Bytes (one kernel group does not fit in CBUF beside one data bank)",
                    {"weight_banks": wbanks, "banks": banks})
    data_banks = banks - wbanks
    rows_fit = data_banks * entries // eps     # input rows a layer can hold
    if _band_rows(layer, 1) > rows_fit:
        raise _rule("CV16", "the input rows of one output row must fit in CBUF beside one kernel group "
                    "(split H cannot go below one output row)",
                    {"ENTRY_PER_SLICE": eps, "rows_needed": _band_rows(layer, 1), "rows_that_fit": rows_fit})
    lo, hi = 1, layer.out_height              # the most output rows a band may take: the rows it reads fit
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if _band_rows(layer, mid) <= rows_fit else (lo, mid - 1)
    return "split H", data_banks, wbanks, lo


def _band_rows(layer: ConvLayer, out_rows: int) -> int:
    """The most input rows a hardware layer of `out_rows` output rows reads (bands from the top)."""
    most = 0
    for y0 in range(0, layer.out_height, out_rows):
        first, last, _pt, _pb = _band(layer, y0, min(y0 + out_rows, layer.out_height))
        most = max(most, last - first)
    return most


def _check_layer(layer: ConvLayer) -> None:
    sizes = {"width": layer.width, "height": layer.height, "channels": layer.channels,
             "kernels": layer.kernels, "kernel_w": layer.kernel_w, "kernel_h": layer.kernel_h}
    if min(sizes.values()) < 1 or min(*layer.stride, *layer.dilation) < 1:
        raise _rule("CV18", "sizes, strides and dilations are >= 1",
                    {**sizes, "stride_x": layer.stride[0], "stride_y": layer.stride[1],
                     "dilation_x": layer.dilation[0], "dilation_y": layer.dilation[1]})
    if len(layer.pads) != 4 or min(layer.pads) < 0:
        raise _rule("CV18", "pads are (left, right, top, bottom), each >= 0",
                    {f"pad{i}": p for i, p in enumerate(layer.pads)})
    if not -128 <= layer.pad_value <= 127:
        raise _rule("CV18", "the pad value is an INT8 (CSC pads with D_ZERO_PADDING_VALUE[7:0])",
                    {"pad_value": layer.pad_value})
    span_w, span_h = layer.kernel_span
    pl, pr, pt, pb = layer.pads
    if (layer.out_width - 1) * layer.stride[0] + span_w != pl + layer.width + pr or \
            (layer.out_height - 1) * layer.stride[1] + span_h != pt + layer.height + pb or \
            min(layer.out_width, layer.out_height) < 1:
        raise _rule("CV2", "the right/bottom padding should make all the data be used: (Output_Width - 1) * "
                    "stride_x + S == PL + Input_Width + PR, and the same in height (S, R dilated)",
                    {"PL": pl, "PR": pr, "PT": pt, "PB": pb, "S'": span_w, "R'": span_h,
                     "stride_x": layer.stride[0], "stride_y": layer.stride[1]})
    if max(pl, pr) >= span_w or max(pt, pb) >= span_h:
        raise _rule("CV13", "Left/Right padding should be less than S, Top/Bottom padding should be less "
                    "than R (the dilated kernel)", {"PL": pl, "PR": pr, "PT": pt, "PB": pb,
                                                    "S'": span_w, "R'": span_h})
    if layer.cvt is not None:
        c = layer.cvt
        if not (-32768 <= c.offset <= 32767 and -32768 <= c.scale <= 32767 and 0 <= c.truncate <= 63):
            raise _rule("CV18", "CDMA's convertor takes signed 16-bit offset and scale, a 0..63 truncate",
                        {"offset": c.offset, "scale": c.scale, "truncate": c.truncate})
    if not 0 <= layer.truncate <= 31:
        raise _rule("CV18", "CACC CLIP_TRUNCATE is 0..31", {"truncate": layer.truncate})


def _packed(surface: Surface, width: int, height: int, atom: int) -> tuple[bool, bool]:
    line = surface.line_stride == width * atom
    return line, surface.surface_stride == surface.line_stride * height


def _check_input(layer: ConvLayer, atom: int) -> None:
    if layer.width == 1 and layer.height == 1 and _packed(layer.src, 1, 1, atom) != (True, True):
        raise _rule("CV12", "For 1x1xC cube, it should always be line_packed and surf_packed",
                    {"LINE_STRIDE": layer.src.line_stride, "SURF_STRIDE": layer.src.surface_stride})
    try:
        check_layout("CDMA", "DAIN", layer.src.base, layer.src.line_stride, layer.src.surface_stride,
                     width=layer.width, height=layer.height, channels=layer.channels, atom_bytes=atom,
                     elem_bytes=1, align=atom)
    except ConfigError as err:
        raise _rule("CV14", f"address/line_stride/surf_stride alignment and line stride: {err.rule}",
                    err.values) from None
    if layer.weight_base % atom:
        raise _rule("CV14", "the weights' address is aligned to the memory atom",
                    {"WEIGHT_ADDR": layer.weight_base, "atom": atom})


def _band(layer: ConvLayer, y0: int, y1: int) -> tuple[int, int, int, int]:
    """Input rows [first, last) and top/bottom padding of the hardware layer making output rows [y0, y1)."""
    sy, dy = layer.stride[1], layer.dilation[1]
    pt = layer.pads[2]
    top = y0 * sy - pt
    bottom = (y1 - 1) * sy - pt + (layer.kernel_h - 1) * dy + 1
    first, last = max(top, 0), min(bottom, layer.height)
    return first, last, first - top, bottom - last


def _conv_fields(layer: ConvLayer, hw: tuple[int, int, int, int, int, int], eps: int, banks: tuple[int, int],
                 atom: int, dst: Surface) -> dict[str, dict[str, int]]:
    """The five units' fields of one hardware layer: hw = (input row offset, input rows, top pad, bottom pad,
    output rows, first output row)."""
    row0, rows, pt, pb, out_rows, _ = hw
    sx, sy = layer.stride
    dx, dy = layer.dilation
    pl, pr = layer.pads[0], layer.pads[1]
    src = layer.src
    line_packed, surf_packed = _packed(src, layer.width, rows, atom)
    k, c, w, r, s = layer.kernels, layer.channels, layer.width, layer.kernel_h, layer.kernel_w
    weight_bytes = -(-weight_image_bytes(k, c, r, s) // WEIGHT_BYTES_ALIGN) * WEIGHT_BYTES_ALIGN
    cvt = layer.cvt
    misc = {"D_MISC_CFG.CONV_MODE": 0, "D_MISC_CFG.IN_PRECISION": 0, "D_MISC_CFG.PROC_PRECISION": 0,
            "D_MISC_CFG.DATA_REUSE": 0, "D_MISC_CFG.WEIGHT_REUSE": 0,
            "D_MISC_CFG.SKIP_DATA_RLS": int(layer.skip_release[0]),
            "D_MISC_CFG.SKIP_WEIGHT_RLS": int(layer.skip_release[1])}
    bank = {"D_BANK.DATA_BANK": banks[0] - 1, "D_BANK.WEIGHT_BANK": banks[1] - 1}
    # seed 001: CDMA's pad value goes through its convertor, CSC's is applied as it is (and is what pads
    # the taps): the layer's pad value, in the input's domain, raw to CDMA and converted to CSC
    csc_pad = int(cvt_int8(layer.pad_value, cvt.offset, cvt.scale, cvt.truncate)) if cvt else layer.pad_value
    pad_value = layer.pad_value & 0xFFFF
    cdma = {
        **misc, "D_DATAIN_FORMAT.DATAIN_FORMAT": 0, "D_DATAIN_FORMAT.PIXEL_MAPPING": 0,
        "D_DATAIN_FORMAT.PIXEL_SIGN_OVERRIDE": 0,
        "D_DATAIN_SIZE_0.DATAIN_WIDTH": w - 1, "D_DATAIN_SIZE_0.DATAIN_HEIGHT": rows - 1,
        "D_DATAIN_SIZE_1.DATAIN_CHANNEL": c - 1,
        "D_DATAIN_SIZE_EXT_0.DATAIN_WIDTH_EXT": w - 1, "D_DATAIN_SIZE_EXT_0.DATAIN_HEIGHT_EXT": rows - 1,
        "D_PIXEL_OFFSET.PIXEL_X_OFFSET": 0, "D_PIXEL_OFFSET.PIXEL_Y_OFFSET": 0,
        "D_DAIN_RAM_TYPE.DATAIN_RAM_TYPE": int(src.ram_mc),
        "D_DAIN_ADDR_HIGH_0.DATAIN_ADDR_HIGH_0": 0,
        "D_DAIN_ADDR_LOW_0.DATAIN_ADDR_LOW_0": src.base + row0 * src.line_stride,
        "D_DAIN_ADDR_HIGH_1.DATAIN_ADDR_HIGH_1": 0, "D_DAIN_ADDR_LOW_1.DATAIN_ADDR_LOW_1": 0,
        "D_LINE_STRIDE.LINE_STRIDE": src.line_stride, "D_LINE_UV_STRIDE.UV_LINE_STRIDE": 0,
        "D_SURF_STRIDE.SURF_STRIDE": src.surface_stride,
        "D_DAIN_MAP.LINE_PACKED": int(line_packed), "D_DAIN_MAP.SURF_PACKED": int(surf_packed),
        "D_BATCH_NUMBER.BATCHES": 0, "D_BATCH_STRIDE.BATCH_STRIDE": 0,
        "D_ENTRY_PER_SLICE.ENTRIES": eps - 1, "D_FETCH_GRAIN.GRAINS": 0, "D_WEIGHT_FORMAT.WEIGHT_FORMAT": 0,
        "D_WEIGHT_SIZE_0.BYTE_PER_KERNEL": r * s * c - 1, "D_WEIGHT_SIZE_1.WEIGHT_KERNEL": k - 1,
        "D_WEIGHT_RAM_TYPE.WEIGHT_RAM_TYPE": int(layer.weight_ram_mc),
        "D_WEIGHT_ADDR_HIGH.WEIGHT_ADDR_HIGH": 0, "D_WEIGHT_ADDR_LOW.WEIGHT_ADDR_LOW": layer.weight_base,
        "D_WEIGHT_BYTES.WEIGHT_BYTES": weight_bytes,
        "D_WGS_ADDR_HIGH.WGS_ADDR_HIGH": 0, "D_WGS_ADDR_LOW.WGS_ADDR_LOW": 0,
        "D_WMB_ADDR_HIGH.WMB_ADDR_HIGH": 0, "D_WMB_ADDR_LOW.WMB_ADDR_LOW": 0, "D_WMB_BYTES.WMB_BYTES": 0,
        "D_MEAN_FORMAT.MEAN_FORMAT": 0,
        "D_CVT_CFG.CVT_EN": int(cvt is not None), "D_CVT_CFG.CVT_TRUNCATE": cvt.truncate if cvt else 0,
        "D_CVT_OFFSET.CVT_OFFSET": (cvt.offset if cvt else 0) & 0xFFFF,
        "D_CVT_SCALE.CVT_SCALE": (cvt.scale if cvt else 1) & 0xFFFF,
        "D_CONV_STRIDE.CONV_X_STRIDE": sx - 1, "D_CONV_STRIDE.CONV_Y_STRIDE": sy - 1,
        "D_ZERO_PADDING.PAD_LEFT": pl, "D_ZERO_PADDING.PAD_RIGHT": pr, "D_ZERO_PADDING.PAD_TOP": pt,
        "D_ZERO_PADDING.PAD_BOTTOM": pb, "D_ZERO_PADDING_VALUE.PAD_VALUE": pad_value, **bank,
        "D_NAN_FLUSH_TO_ZERO.NAN_TO_ZERO": 0, "D_PERF_ENABLE.DMA_EN": int(layer.sdp.perf),
    }
    csc = {
        **misc, "D_DATAIN_FORMAT.DATAIN_FORMAT": 0,
        "D_DATAIN_SIZE_EXT_0.DATAIN_WIDTH_EXT": w - 1, "D_DATAIN_SIZE_EXT_0.DATAIN_HEIGHT_EXT": rows - 1,
        "D_DATAIN_SIZE_EXT_1.DATAIN_CHANNEL_EXT": c - 1, "D_BATCH_NUMBER.BATCHES": 0,
        "D_POST_Y_EXTENSION.Y_EXTENSION": 0, "D_ENTRY_PER_SLICE.ENTRIES": eps - 1,
        "D_WEIGHT_FORMAT.WEIGHT_FORMAT": 0,
        "D_WEIGHT_SIZE_EXT_0.WEIGHT_WIDTH_EXT": s - 1, "D_WEIGHT_SIZE_EXT_0.WEIGHT_HEIGHT_EXT": r - 1,
        "D_WEIGHT_SIZE_EXT_1.WEIGHT_CHANNEL_EXT": c - 1, "D_WEIGHT_SIZE_EXT_1.WEIGHT_KERNEL": k - 1,
        "D_WEIGHT_BYTES.WEIGHT_BYTES": weight_bytes, "D_WMB_BYTES.WMB_BYTES": 0,
        "D_DATAOUT_SIZE_0.DATAOUT_WIDTH": layer.out_width - 1,
        "D_DATAOUT_SIZE_0.DATAOUT_HEIGHT": out_rows - 1,
        "D_DATAOUT_SIZE_1.DATAOUT_CHANNEL": k - 1, "D_ATOMICS.ATOMICS": layer.out_width * out_rows - 1,
        # every slice released after the layer (no data reuse): RLS_SLICES <= DATAIN_HEIGHT_EXT (CV3)
        "D_RELEASE.RLS_SLICES": rows - 1,
        "D_CONV_STRIDE_EXT.CONV_X_STRIDE_EXT": sx - 1, "D_CONV_STRIDE_EXT.CONV_Y_STRIDE_EXT": sy - 1,
        "D_DILATION_EXT.X_DILATION_EXT": dx - 1, "D_DILATION_EXT.Y_DILATION_EXT": dy - 1,
        "D_ZERO_PADDING.PAD_LEFT": pl, "D_ZERO_PADDING.PAD_TOP": pt,
        "D_ZERO_PADDING_VALUE.PAD_VALUE": csc_pad & 0xFFFF, **bank, "D_PRA_CFG.PRA_TRUNCATE": 0,
    }
    cmac = {"D_MISC_CFG.CONV_MODE": 0, "D_MISC_CFG.PROC_PRECISION": 0}
    one_by_one = layer.out_width == 1 and out_rows == 1   # seed 001: CACC D_DATAOUT_MAP packed for 1x1 only
    cacc = {
        "D_MISC_CFG.CONV_MODE": 0, "D_MISC_CFG.PROC_PRECISION": 0,
        "D_DATAOUT_SIZE_0.DATAOUT_WIDTH": layer.out_width - 1,
        "D_DATAOUT_SIZE_0.DATAOUT_HEIGHT": out_rows - 1,
        "D_DATAOUT_SIZE_1.DATAOUT_CHANNEL": k - 1, "D_DATAOUT_ADDR.DATAOUT_ADDR": dst.base,
        "D_BATCH_NUMBER.BATCHES": 0, "D_LINE_STRIDE.LINE_STRIDE": dst.line_stride & 0xFFFFFF,
        "D_SURF_STRIDE.SURF_STRIDE": dst.surface_stride & 0xFFFFFF,
        "D_DATAOUT_MAP.LINE_PACKED": int(one_by_one), "D_DATAOUT_MAP.SURF_PACKED": int(one_by_one),
        "D_CLIP_CFG.CLIP_TRUNCATE": layer.truncate,
    }
    return {"CDMA": cdma, "CSC": csc, "CMAC_A": dict(cmac), "CMAC_B": dict(cmac), "CACC": cacc}


def _shifted(surface: Surface | None, rows: int) -> Surface | None:
    """A destination moved down by `rows` lines (the band of a split-H layer)."""
    if surface is None:
        return None
    return dataclasses.replace(surface, base=surface.base + rows * surface.line_stride)


def _stages(layer: ConvLayer, out_rows: int, y0: int, group: int) -> tuple[SdpProgram, PdpProgram | None]:
    st = layer.sdp
    pdp = None
    if layer.pdp is not None:
        p = layer.pdp
        pdp = pdp_layer(layer.out_width, out_rows, layer.kernels, method=p.method, kernel=p.kernel,
                        stride=p.stride, pads=p.pads, pad_value=p.pad_value, src=None, dst=p.dst, group=group)
    sdp = sdp_layer(layer.out_width, out_rows, layer.kernels, bs=st.bs, bn=st.bn, ew=st.ew, cvt=st.cvt,
                    brdma=st.brdma, nrdma=st.nrdma, erdma=st.erdma, lut=st.lut,
                    src=None, dst=None if pdp is not None else _shifted(st.dst, y0), to_pdp=pdp is not None,
                    group=group, perf=st.perf, flying_in=True)
    return sdp, pdp


def _writes(fields: dict[str, dict[str, int]], group: int, sdp: SdpProgram,
            pdp: PdpProgram | None) -> tuple[RegWrite, ...]:
    writes = [RegWrite(u, "S_POINTER", group) for u in CONV_ORDER]
    for unit in CONV_ORDER:
        encoded = registers.encode_fields(unit, fields[unit])
        writes += [RegWrite(unit, name, encoded[name]) for name in encoded]
    enables: list[RegWrite] = []
    for prog in (sdp, pdp):
        if prog is not None:
            writes += [w for w in prog.writes if w.reg != "D_OP_ENABLE"]
            enables = [w for w in prog.writes if w.reg == "D_OP_ENABLE"] + enables  # PDP's come first
    enables += [RegWrite(u, "D_OP_ENABLE", 1) for u in CONV_ORDER]
    return tuple(writes + enables)


def conv_layer(layer: ConvLayer, *, group: int = 0) -> ConvProgram:
    """Validate a convolution and return its register program (see the module docstring). Split-H layers
    alternate register groups from `group` on."""
    config = configs.load()
    geo, atom = config.conv, config.atom_bytes
    if group not in (0, 1):
        raise _rule("CV18", "register group must be 0 or 1", {"group": group})
    _check_layer(layer)
    _check_input(layer, atom)
    eps = entry_per_slice(layer.width, layer.channels, geo, atom)
    mode, data_banks, weight_banks, band_rows = _plan(layer, geo, eps)
    if mode == "split H" and layer.pdp is not None:
        raise _rule("CV19", "PDP can't work on the fly if software splits the convolution layer into "
                    "several hardware layers (split H)", {"out_height": layer.out_height, "rows": band_rows})
    hw_layers = []
    for index, y0 in enumerate(range(0, layer.out_height, band_rows)):
        y1 = min(y0 + band_rows, layer.out_height)
        first, last, pt, pb = _band(layer, y0, y1)
        g = (group + index) % 2
        sdp, pdp = _stages(layer, y1 - y0, y0, g)
        dst = layer.sdp.dst if layer.sdp.dst is not None else Surface(0, 0, 0)
        fields = _conv_fields(layer, (first, last - first, pt, pb, y1 - y0, y0), eps,
                              (data_banks, weight_banks), atom, _shifted(dst, y0) or dst)
        for unit, unit_fields in fields.items():
            check_fits(unit, unit_fields)
        decoded = {u: {**registers.decode_fields(u, registers.reset_values(u)), **f}
                   for u, f in fields.items()}
        conv = ConvConfig.from_fields(decoded, config)
        _check_placement(layer, conv, sdp)
        hw_layers.append(ConvHwLayer(g, (y0, y1), fields, conv, sdp, pdp, _writes(fields, g, sdp, pdp)))
    return ConvProgram(layer, mode, data_banks, weight_banks, eps, tuple(hw_layers))


def _check_placement(layer: ConvLayer, conv: ConvConfig, sdp: SdpProgram) -> None:
    """The input, the weights and SDP's output inside the address space, the output overlapping neither."""
    from models.common.cube import CubeLayout

    cubes = {"SRC": conv.cdma.layout}
    size = weight_image_bytes(*conv.weight_shape)
    cubes["WEIGHT"] = CubeLayout(layer.weight_base, size, size, size, 1, 1, 1)   # a flat run of bytes
    cfg = sdp.config
    if layer.pdp is None and layer.sdp.dst is not None:
        cubes["DST"] = CubeLayout(cfg.dst_base, cfg.dst_line_stride, cfg.dst_surface_stride, cfg.width,
                                  cfg.height, cfg.channels, cfg.out_lanes, cfg.out_elem_bytes)
    try:
        check_placement("Convolution", cubes)
    except ConfigError as err:
        raise _rule("CV20", err.rule.removeprefix("Convolution driver: "), err.values) from None
