"""NVDLA's convolution pipeline, direct convolution with feature input at INT8: CDMA -> CBUF -> CSC -> CMAC ->
CACC, bit-exact, as one numpy function of the registers and the memory. SDP takes CACC's output on the fly
(models/subsystem.py); docs/convolution.md describes the arithmetic and where each rule comes from.

- CDMA (models/conv/cdma.py): the input cube, through the input convertor, and the weights in NVIDIA's layout
for
  the configuration's atomic C and K.
- CSC: output position (x, y), kernel tap (r, s) reads input (x*SX + s*DX - PL, y*SY + r*DY - PT); a tap
  outside the input cube reads CSC's D_ZERO_PADDING_VALUE, its low byte as INT8, as it is (NV_NVDLA_CSC_dl.v
  `pad_value[7:0]`: CDMA's copy of the value only pads images). Right and bottom padding are whatever the
  output size makes the last taps reach.
- CMAC: exact products summed over an atomic C of channels (one stripe operation: a channel block at one
  kernel position).
- CACC (NV_NVDLA_CACC_CALC_int8.v): each partial sum is added to the 34-bit accumulator and the sum saturated
  to 34 bits, channel block by block and, in a block, tap r*S + s by tap; at the end the sum is shifted right
  by CLIP_TRUNCATE, rounded half away from zero (the sticky bits below the guide bit are its 15 next bits
  only), saturated to INT32, and each saturated output counted in D_OUT_SATURATION. NVIDIA's nvdlav1 C model
  accumulates in 48 bits instead: they differ only where a sum passes 34 bits; the RTL decides.

The sums are exact in float64 (at most 8192 channels x 32 x 32 taps of 2^14 products, far below 2^53), so the
convolution runs as BLAS matrix products of the kernels by the im2col columns (in chunks of output rows);
where 34 bits could overflow (C*R*S >= 2^19) the accumulation runs in CACC's order with its saturation.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from models.common.precision import as_signed
from models.configs import Configuration
from models.conv.cdma import CdmaConfig, read_feature, read_weights
from models.errors import ConfigError

ACC_BITS = 34            # CACC's INT8 accumulator
STICKY_BITS = 15         # CACC's rounding looks at 15 bits below the guide bit
INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1
PRODUCT_MAX = 128 * 128  # the largest |INT8 x INT8| product


@dataclass(frozen=True)
class ConvConfig:
    """One direct-convolution hardware layer, from the registers of CDMA, CSC, CMAC_A/B and CACC."""

    cdma: CdmaConfig
    width: int            # input cube as CSC sees it
    height: int
    channels: int
    kernel_w: int
    kernel_h: int
    kernels: int
    stride_x: int
    stride_y: int
    dilation_x: int
    dilation_y: int
    pad_left: int
    pad_top: int
    pad_value: int        # INT8
    out_width: int
    out_height: int
    clip_truncate: int
    atomic_c: int
    atomic_k: int

    @classmethod
    def from_fields(cls, fields: Mapping[str, Mapping[str, int]], config: Configuration) -> ConvConfig:
        """From "REG.FIELD" values per unit (CDMA, CSC, CACC; CMAC_A/B only checked); raises ConfigError for
        what this model does not compute (Winograd, image input, INT16/FP16, compressed weights, batches)."""
        cdma, csc, cacc = fields["CDMA"], fields["CSC"], fields["CACC"]
        _check_mode(fields)
        c = cls(
            cdma=CdmaConfig.from_fields(cdma, config.atom_bytes),
            width=csc["D_DATAIN_SIZE_EXT_0.DATAIN_WIDTH_EXT"] + 1,
            height=csc["D_DATAIN_SIZE_EXT_0.DATAIN_HEIGHT_EXT"] + 1,
            channels=csc["D_DATAIN_SIZE_EXT_1.DATAIN_CHANNEL_EXT"] + 1,
            kernel_w=csc["D_WEIGHT_SIZE_EXT_0.WEIGHT_WIDTH_EXT"] + 1,
            kernel_h=csc["D_WEIGHT_SIZE_EXT_0.WEIGHT_HEIGHT_EXT"] + 1,
            kernels=csc["D_WEIGHT_SIZE_EXT_1.WEIGHT_KERNEL"] + 1,
            stride_x=csc["D_CONV_STRIDE_EXT.CONV_X_STRIDE_EXT"] + 1,
            stride_y=csc["D_CONV_STRIDE_EXT.CONV_Y_STRIDE_EXT"] + 1,
            dilation_x=csc["D_DILATION_EXT.X_DILATION_EXT"] + 1,
            dilation_y=csc["D_DILATION_EXT.Y_DILATION_EXT"] + 1,
            pad_left=csc["D_ZERO_PADDING.PAD_LEFT"], pad_top=csc["D_ZERO_PADDING.PAD_TOP"],
            pad_value=int(as_signed(csc["D_ZERO_PADDING_VALUE.PAD_VALUE"], 8)),
            out_width=csc["D_DATAOUT_SIZE_0.DATAOUT_WIDTH"] + 1,
            out_height=csc["D_DATAOUT_SIZE_0.DATAOUT_HEIGHT"] + 1,
            clip_truncate=cacc["D_CLIP_CFG.CLIP_TRUNCATE"],
            atomic_c=config.conv.atomic_c, atomic_k=config.conv.atomic_k)
        _check_sizes(c, fields)
        return c

    @property
    def weight_shape(self) -> tuple[int, int, int, int]:
        return self.kernels, self.channels, self.kernel_h, self.kernel_w

    @property
    def output_shape(self) -> tuple[int, int, int]:
        return self.kernels, self.out_height, self.out_width


def _check_mode(fields: Mapping[str, Mapping[str, int]]) -> None:
    """What this model computes: direct convolution of a feature cube, INT8, uncompressed weights, 1 batch."""
    for unit in ("CDMA", "CSC", "CMAC_A", "CMAC_B", "CACC"):
        f = fields[unit]
        if f["D_MISC_CFG.CONV_MODE"] != 0:
            raise ConfigError(f"{unit} CONV_MODE Winograd is not modelled (direct convolution only)",
                              {"CONV_MODE": f["D_MISC_CFG.CONV_MODE"]})
        for name in ("IN_PRECISION", "PROC_PRECISION"):
            if f.get(f"D_MISC_CFG.{name}", 0) != 0:
                raise ConfigError(f"{unit} {name} other than INT8 is not modelled in convolution",
                                  {name: f[f"D_MISC_CFG.{name}"]})
    for unit in ("CDMA", "CSC"):
        f = fields[unit]
        if f["D_DATAIN_FORMAT.DATAIN_FORMAT"] != 0:
            raise ConfigError(f"{unit} DATAIN_FORMAT pixel (image input) is not modelled (feature input)",
                              {"DATAIN_FORMAT": f["D_DATAIN_FORMAT.DATAIN_FORMAT"]})
        if f["D_WEIGHT_FORMAT.WEIGHT_FORMAT"] != 0:
            raise ConfigError(f"{unit} compressed weights are not modelled",
                              {"WEIGHT_FORMAT": f["D_WEIGHT_FORMAT.WEIGHT_FORMAT"]})
        if f["D_BATCH_NUMBER.BATCHES"] != 0:
            raise ConfigError(f"{unit} multi-batch is not modelled", {"BATCHES": f["D_BATCH_NUMBER.BATCHES"]})


def _check_sizes(c: ConvConfig, fields: Mapping[str, Mapping[str, int]]) -> None:
    """The units' copies of one size must agree (NVIDIA's units each act on their own copy)."""
    csc, cacc = fields["CSC"], fields["CACC"]
    pairs = {
        "CDMA DATAIN_WIDTH / CSC DATAIN_WIDTH_EXT": (c.cdma.width, c.width),
        "CDMA DATAIN_HEIGHT / CSC DATAIN_HEIGHT_EXT": (c.cdma.height, c.height),
        "CDMA DATAIN_CHANNEL / CSC DATAIN_CHANNEL_EXT": (c.cdma.channels, c.channels),
        "CSC WEIGHT_CHANNEL_EXT / DATAIN_CHANNEL_EXT": (csc["D_WEIGHT_SIZE_EXT_1.WEIGHT_CHANNEL_EXT"] + 1,
                                                        c.channels),
        "CSC DATAOUT_CHANNEL / WEIGHT_KERNEL": (csc["D_DATAOUT_SIZE_1.DATAOUT_CHANNEL"] + 1,
                                                c.kernels),
        "CACC DATAOUT_WIDTH / CSC DATAOUT_WIDTH": (cacc["D_DATAOUT_SIZE_0.DATAOUT_WIDTH"] + 1, c.out_width),
        "CACC DATAOUT_HEIGHT / CSC DATAOUT_HEIGHT": (cacc["D_DATAOUT_SIZE_0.DATAOUT_HEIGHT"] + 1,
                                                     c.out_height),
        "CACC DATAOUT_CHANNEL / CSC DATAOUT_CHANNEL": (cacc["D_DATAOUT_SIZE_1.DATAOUT_CHANNEL"] + 1,
                                                       csc["D_DATAOUT_SIZE_1.DATAOUT_CHANNEL"] + 1),
    }
    for what, (a, b) in pairs.items():
        if a != b:
            raise ConfigError(f"{what} must be equal in a direct convolution", {"first": a, "second": b})


@dataclass(frozen=True)
class ConvResult:
    output: NDArray[np.int64]     # [K, H', W'] CACC's INT32 outputs
    saturation_count: int         # CACC D_OUT_SATURATION


def padded_input(data: NDArray[np.integer], c: ConvConfig) -> NDArray[np.int64]:
    """The input as CSC's taps see it: PL/PT columns/rows of pad value before it, and after it as many as
    the output's last taps reach (fewer input rows/columns than the cube has when they reach less far)."""
    need_w = (c.out_width - 1) * c.stride_x + (c.kernel_w - 1) * c.dilation_x + 1
    need_h = (c.out_height - 1) * c.stride_y + (c.kernel_h - 1) * c.dilation_y + 1
    out = np.full((data.shape[0], max(need_h, c.pad_top + c.height), max(need_w, c.pad_left + c.width)),
                  c.pad_value, dtype=np.int64)
    out[:, c.pad_top:c.pad_top + c.height, c.pad_left:c.pad_left + c.width] = data
    return out[:, :need_h, :need_w]


def _tap(padded: NDArray[np.int64], c: ConvConfig, r: int, s: int) -> NDArray[np.int64]:
    """The inputs [C, H', W'] kernel tap (r, s) multiplies, over every output position."""
    y0, x0 = r * c.dilation_y, s * c.dilation_x
    return padded[:, y0:y0 + (c.out_height - 1) * c.stride_y + 1:c.stride_y,
                  x0:x0 + (c.out_width - 1) * c.stride_x + 1:c.stride_x]


COLUMN_ELEMENTS = 1 << 24   # im2col chunk: at most this many float64 elements (128 MiB) at once


def _exact_sum(padded: NDArray[np.int64], w: NDArray[np.int64], c: ConvConfig) -> NDArray[np.int64]:
    """The whole sum as one matrix product per chunk of output rows: [K, R*S*C] by the im2col columns
    [R*S*C, rows*W'] (float64, exact: every sum stays below 2^53)."""
    k, ch, kh, kw = w.shape
    wmat = w.transpose(0, 2, 3, 1).reshape(k, kh * kw * ch).astype(np.float64)   # (r, s, c) order
    src = padded.astype(np.float64)
    out = np.empty((k, c.out_height, c.out_width), dtype=np.int64)
    rows = max(1, min(c.out_height, COLUMN_ELEMENTS // max(1, kh * kw * ch * c.out_width)))
    for y0 in range(0, c.out_height, rows):
        y1 = min(y0 + rows, c.out_height)
        band = dataclasses.replace(c, out_height=y1 - y0)
        part = src[:, y0 * c.stride_y:]
        cols = np.empty((kh, kw, ch, (y1 - y0) * c.out_width))
        for r in range(kh):
            for s in range(kw):
                cols[r, s] = _tap(part, band, r, s).reshape(ch, -1)
        out[:, y0:y1] = (wmat @ cols.reshape(kh * kw * ch, -1)).astype(np.int64).reshape(k, y1 - y0, -1)
    return out


def accumulate(data: NDArray[np.integer], weights: NDArray[np.integer], c: ConvConfig) -> NDArray[np.int64]:
    """CACC's accumulator [K, H', W'] after the last stripe operation (34 bits, saturating)."""
    padded = padded_input(np.asarray(data, dtype=np.int64), c)
    w = np.asarray(weights, dtype=np.int64)
    k, ch, kh, kw = w.shape
    positions = c.out_height * c.out_width
    limit = 1 << (ACC_BITS - 1)
    if ch * kh * kw * PRODUCT_MAX < limit:   # no partial sum can reach 34 bits: one exact sum
        return _exact_sum(padded, w, c)
    acc_i = np.zeros((k, positions), dtype=np.int64)
    for b in range(0, ch, c.atomic_c):         # CSC's order: channel blocks, then taps r*S + s
        for r in range(kh):
            for s in range(kw):
                part = (w[:, b:b + c.atomic_c, r, s].astype(np.float64)
                        @ _tap(padded[b:b + c.atomic_c], c, r, s).reshape(min(c.atomic_c, ch - b), -1))
                acc_i = np.clip(acc_i + part.astype(np.int64), -limit, limit - 1)
    return acc_i.reshape(k, c.out_height, c.out_width)


def partial_sums(data: NDArray[np.integer], weights: NDArray[np.integer], c: ConvConfig) -> NDArray[np.int64]:
    """CMAC's outputs, one per stripe operation, in CSC's order: [channel block, r, s, K, H', W'], each the
    exact sum over the block's atomic C channels at tap (r, s) (what CACC adds, 34-bit saturating; for the
    unit benches of CMAC and CACC: accumulate() is their saturating sum)."""
    padded = padded_input(np.asarray(data, dtype=np.int64), c)
    w = np.asarray(weights, dtype=np.int64)
    k, ch, kh, kw = w.shape
    blocks = -(-ch // c.atomic_c)
    out = np.empty((blocks, kh, kw, k, c.out_height, c.out_width), dtype=np.int64)
    for b in range(blocks):
        lo, hi = b * c.atomic_c, min(ch, (b + 1) * c.atomic_c)
        for r in range(kh):
            for s in range(kw):
                taps = _tap(padded[lo:hi], c, r, s).reshape(hi - lo, -1)
                out[b, r, s] = np.einsum("kc,cp->kp", w[:, lo:hi, r, s], taps).reshape(k, c.out_height, -1)
    return out


def cacc_output(acc: NDArray[np.integer], truncate: int) -> tuple[NDArray[np.int64], NDArray[np.bool_]]:
    """CACC's final stage (NV_NVDLA_CACC_CALC_int8.v): shift right by `truncate`, round half away from zero
    with a guide bit and 15 sticky bits, saturate to INT32; (outputs, saturated mask)."""
    a = np.asarray(acc, dtype=np.int64)
    if truncate == 0:
        value = a
    else:
        guide = (a >> (truncate - 1)) & 1
        low = max(truncate - 1 - STICKY_BITS, 0)
        sticky_mask = ((1 << (truncate - 1)) - 1) & ~((1 << low) - 1)
        point5 = (guide == 1) & ((a >= 0) | ((a & sticky_mask) != 0))
        value = (a >> truncate) + point5
    saturated = (value < INT32_MIN) | (value > INT32_MAX)
    return np.clip(value, INT32_MIN, INT32_MAX), saturated


def conv_compute(data: NDArray[np.integer], weights: NDArray[np.integer], c: ConvConfig) -> ConvResult:
    """The convolution of a converted input cube [C, H, W] with kernels [K, C, R, S]: CACC's outputs."""
    out, sat = cacc_output(accumulate(data, weights, c), c.clip_truncate)
    return ConvResult(out, int(np.count_nonzero(sat)))


def run_conv(c: ConvConfig, mem: object, sec_mem: object | None = None) -> ConvResult:
    """One hardware layer: CDMA's reads from memory, then the computation up to CACC's output."""
    data = read_feature(c.cdma, mem, sec_mem)
    weights = read_weights(c.cdma, c.weight_shape, c.atomic_c, c.atomic_k, mem, sec_mem)
    return conv_compute(data, weights, c)
