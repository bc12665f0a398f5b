"""Random INT8 direct-convolution programs for nv_full (NVIDIA's nvdlav1 RTL with its convolution core, run on
nvdla-ref built with CONV=1): feature data from memory through CDMA, CBUF, CSC, CMAC_A/B and CACC into SDP on
the fly, SDP writing the INT8 output cube.

The register values are computed here from a layer description, the way seed 001 ("Convolution pipeline
programming") and NVIDIA's KMD (nvdla/sw kmd/firmware/conv.c) describe them, with nv_full's CBUF geometry:
16 banks of 256 entries of 128 bytes, four 32-byte atoms an entry (docs/conv_configs.md). The SDP stage comes
from the SDP driver (models/sdp/driver.py, register operands only) switched to FLYING_MODE. Shapes are drawn
per `kind` (KINDS) so that the series covers C and K not multiples of the atoms, wide lines (W up to 8192),
deep cubes (C up to 8192), padding up to the fields' limits (left/top 31, right/bottom 63), strides 1..8,
dilation 1..32, CACC truncation 0..31, the CDMA input convertor, independent CDMA and CSC pad values,
skip-release bits, data and weights in the CV SRAM; every program stays small (COST_LIMIT) because NVIDIA's
RTL simulates convolution at under 1000 cycles a second.

The weights in memory are random bytes: NVIDIA's hardware reads them in its own kernel-group order and the
model reads the same bytes the same way, so neither the generator nor the golden output depends on a reading
of that order. What NVIDIA's RTL wrote is the golden output (gen_ref_programs.py run).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from models.common.cube import CubeLayout
from models.common.driver import Surface
from models.errors import ConfigError
from models.registers import encode_fields, registers
from models.sdp.driver import EwBlock, OutputCvt, XBlock, sdp_layer
from models.steps import RegWrite
from scripts.ref_programs.common import ATOM, CVSRAM, DRAM, REGION, Program, extent, random_image
from scripts.ref_programs.sdp import _cvt, _ew, _xblock

# nv_full's convolution buffer (nvdlav1 vmod/nvdla/cbuf/NV_NVDLA_cbuf.v: 4096 entries of 1024 bits) and MAC
# array (64 channels x 32 kernels at INT8: nvdlav1 cmod/csc/NV_NVDLA_csc.h KERNEL_PER_GROUP_INT8)
CBUF_BANKS, BANK_ENTRIES, ENTRY_BYTES = 16, 256, 128
ATOMIC_C, ATOMIC_K = 64, 32
WEIGHT_ALIGN = 128           # D_WEIGHT_BYTES counts 128-byte units in nvdlav1's RTL (NV_NVDLA_CDMA_wt.v)
# Field limits (regmap): pads left/top 5 bits, right/bottom 6 bits; stride 3 bits; dilation 5 bits;
# truncation 5 bits; the CSC kernel width and height 5 bits.
PAD_LT, PAD_RB, STRIDE, DILATION, TRUNCATE, KERNEL = 31, 63, 8, 32, 31, 32
# A program's size in atomic operations and atom moves; about 1.5 simulated cycles each on nvdla-ref.
COST_LIMIT = 3500
KINDS = ("basic", "odd", "wide", "deep", "pad", "stride", "dilation", "kernel")
# GLB.S_INTR_MASK: every done interrupt masked but SDP's (as NVIDIA's nv_large traces), so that the `.txn`
# wait (any interrupt) ends with the layer and not with CDMA's data or weight done
GLB_UNMASK_SDP = 0x3F03FC


@dataclass(frozen=True)
class ConvLayer:
    """One direct convolution, INT8, as the generator draws it (kernel R rows x S columns)."""

    width: int
    height: int
    channels: int
    kernels: int
    r: int
    s: int
    stride: tuple[int, int] = (1, 1)          # x, y
    dilation: tuple[int, int] = (1, 1)
    pad: tuple[int, int, int, int] = (0, 0, 0, 0)   # left, right, top, bottom
    truncate: int = 0
    cdma_pad: int = 0
    csc_pad: int = 0
    cvt: tuple[int, int, int, int] = (0, 0, 1, 0)   # enable, offset, scale, truncate
    skip_data_rls: int = 0
    skip_weight_rls: int = 0
    fetch_grain: int = 0
    data_cv: bool = False
    weight_cv: bool = False

    @property
    def out_width(self) -> int:
        eff = (self.s - 1) * self.dilation[0] + 1
        return (self.pad[0] + self.width + self.pad[1] - eff) // self.stride[0] + 1

    @property
    def out_height(self) -> int:
        eff = (self.r - 1) * self.dilation[1] + 1
        return (self.pad[2] + self.height + self.pad[3] - eff) // self.stride[1] + 1

    @property
    def entries_per_slice(self) -> int:
        return entries_per_slice(self.width, self.channels)

    @property
    def weight_bytes(self) -> int:
        return -(-self.r * self.s * self.channels * self.kernels // WEIGHT_ALIGN) * WEIGHT_ALIGN

    @property
    def data_banks(self) -> int:
        return -(-self.entries_per_slice * self.height // BANK_ENTRIES)

    @property
    def weight_banks(self) -> int:
        """All the weights, and at least one kernel group plus 128 bytes (seed 001 Limitation)."""
        group = self.r * self.s * self.channels * min(self.kernels, ATOMIC_K)
        bank = BANK_ENTRIES * ENTRY_BYTES
        return max(-(-self.weight_bytes // bank), -(-(group + WEIGHT_ALIGN) // bank))

    @property
    def cost(self) -> int:
        ops = (self.out_width * self.out_height * self.r * self.s * -(-self.channels // ATOMIC_C)
               * -(-self.kernels // ATOMIC_K))
        moves = (self.width * self.height * -(-self.channels // ATOM) + self.weight_bytes // 64
                 + self.out_width * self.out_height * -(-self.kernels // ATOM))
        return ops + moves


def entries_per_slice(width: int, channels: int, elem_bytes: int = 1) -> int:
    """CBUF entries one input line takes at nv_full: four 32-byte atoms an entry, a pixel's atoms never split
    over two entries except by whole groups of four (nvdlav1 cmod/cdma/NV_NVDLA_cdma.cpp)."""
    atoms = -(-channels * elem_bytes // ATOM)
    per_entry = ENTRY_BYTES // ATOM
    entries = atoms // per_entry * width
    rest = atoms % per_entry
    if rest:
        pixels = per_entry // rest if per_entry % rest == 0 else 1
        entries += -(-width // pixels)
    return entries


def _exact_pad(size: int, kernel: int, dil: int, stride: int, lead: int, trail_max: int,
               rng: np.random.Generator, big: bool, limit: bool = False) -> tuple[int, int] | None:
    """(output size, trailing pad) with the input consumed exactly (seed 001 Limitation: (out-1)*stride +
    kernel' == lead + size + trail), the trailing pad drawn below the dilated kernel, or (big) up to
    trail_max, or (limit) exactly trail_max; None if none fits."""
    eff = (kernel - 1) * dil + 1
    span = lead + size
    lo = max(0, eff - span)           # the kernel must fit at least once
    if limit:
        trail = trail_max
    elif not big:
        trail = int(rng.integers(lo, max(lo, eff - 1) + 1))
    elif rng.random() < 0.8:
        trail = int(rng.integers(lo, max(lo, min(trail_max, lo + 2 * eff + 4)) + 1))
    else:
        trail = int(rng.integers(lo, trail_max + 1)) if lo <= trail_max else lo
    out = (span + trail - eff) // stride + 1
    if out < 1:
        return None
    trail = (out - 1) * stride + eff - span
    if not 0 <= trail <= trail_max:
        return None
    return out, trail


def _shape(rng: np.random.Generator, kind: str, big: bool) -> dict[str, object]:
    """Kind-specific draws of the layer's shape (`big`: W or C exactly 8192 for the wide and deep kinds)."""
    ri = rng.integers
    if kind == "wide":        # one or two long lines (W up to 8192), few channels, a short kernel row
        w = 8192 if big else int(ri(64, 2049))
        return dict(width=w, height=1 if big else int(ri(1, 3)), channels=int(ri(1, 9 if big else 33)),
                    kernels=int(ri(1, 9 if big else 20)), r=1, s=int(ri(1, 4)))
    if kind == "deep":        # a 1x1 or 2x1 cube of up to 8192 channels
        return dict(width=1 if big else int(ri(1, 3)), height=1, channels=8192 if big else int(ri(65, 4097)),
                    kernels=int(ri(1, 9)), r=1, s=1)
    if kind == "odd":         # C and K just off the atoms (63, 65, 31, 33, ...)
        c = int(rng.choice([1, 2, 31, 33, 63, 65, 95, 97, 127, 129, 191]))
        k = int(rng.choice([1, 3, 15, 17, 31, 33, 47, 63, 65, 95, 97, 127, 129, 255, 257]))
        return dict(width=int(ri(1, 7)), height=int(ri(1, 6)), channels=c, kernels=k, r=int(ri(1, 4)),
                    s=int(ri(1, 4)))
    if kind == "kernel":      # large kernels (the CSC fields hold 32x32)
        return dict(width=int(ri(4, 40)), height=int(ri(4, 40)), channels=int(ri(1, 40)),
                    kernels=int(ri(1, 34)),
                    r=int(ri(4, KERNEL + 1)), s=int(ri(4, KERNEL + 1)))
    return dict(width=int(ri(1, 12)), height=int(ri(1, 10)), channels=int(ri(1, 160)), kernels=int(ri(1, 70)),
                r=int(ri(1, 6)), s=int(ri(1, 6)))


def draw_layer(rng: np.random.Generator, kind: str, big: bool = False, index: int = 0) -> ConvLayer | None:
    """A random legal layer of this kind within its cost limit and the CBUF, or None (draw again)."""
    ri = rng.integers
    shape = _shape(rng, kind, big)
    width, height = int(shape["width"]), int(shape["height"])  # type: ignore[call-overload]
    r, s = int(shape["r"]), int(shape["s"])  # type: ignore[call-overload]
    stride = (int(ri(1, 4)), int(ri(1, 4))) if rng.random() < 0.5 else (1, 1)
    dilation = (1, 1)
    if kind == "stride" or (kind == "wide" and big):
        stride = (int(ri(1, STRIDE + 1)), int(ri(1, STRIDE + 1)))
    if kind == "dilation":
        dilation = (int(ri(1, DILATION + 1)), int(ri(1, DILATION + 1)))
        r, s = int(ri(1, 4)), int(ri(1, 4))
    elif rng.random() < 0.15:
        dilation = (int(ri(1, 4)), int(ri(1, 4)))
    big_pad = kind in ("pad", "dilation")
    lead_x = int(ri(0, PAD_LT + 1)) if big_pad and rng.random() < 0.7 else int(ri(0, min(s, 3)))
    lead_y = int(ri(0, PAD_LT + 1)) if big_pad and rng.random() < 0.7 else int(ri(0, min(r, 3)))
    # the pad kind's `big` programs: one axis's pads at the fields' limits (31 before, 63 after), the x axis
    # in one of two, the other axis's pads small
    edge_x = kind == "pad" and big and index // 32 % 2 == 0
    edge_y = kind == "pad" and big and not edge_x
    if edge_x or edge_y:
        stride, dilation = (1, 1), (1, 1)
        lead_x, lead_y = (PAD_LT, int(ri(0, min(r, 3)))) if edge_x else (int(ri(0, min(s, 3))), PAD_LT)
    ox = _exact_pad(width, s, dilation[0], stride[0], lead_x, PAD_RB, rng, big_pad and not edge_y, edge_x)
    oy = _exact_pad(height, r, dilation[1], stride[1], lead_y, PAD_RB, rng, big_pad and not edge_x, edge_y)
    if ox is None or oy is None:
        return None
    # CDMA input convertor: enabled in a quarter of the programs, values over their fields
    cvt = (0, 0, 1, 0)
    if rng.random() < 0.25:
        tr = int(ri(0, 64)) if rng.random() < 0.2 else int(ri(0, 8))
        offset = int(ri(-(1 << 15), 1 << 15)) if rng.random() < 0.1 else int(ri(-64, 65))
        scale = int(ri(-(1 << 15), 1 << 15)) if rng.random() < 0.1 else int(ri(1, (1 << min(tr + 1, 15)) + 1))
        cvt = (1, offset, scale, tr)
    pad_values = int(ri(0, 1 << 16)) if rng.random() < 0.3 else int(ri(-8, 9)) & 0xFFFF
    csc_pad = pad_values if rng.random() < 0.6 else int(ri(0, 1 << 16))
    layer = ConvLayer(width=width, height=height, channels=int(shape["channels"]),  # type: ignore[call-overload]
                      kernels=int(shape["kernels"]), r=r, s=s, stride=stride, dilation=dilation,  # type: ignore[call-overload]
                      pad=(lead_x, ox[1], lead_y, oy[1]), truncate=0, cdma_pad=pad_values, csc_pad=csc_pad,
                      cvt=cvt, skip_data_rls=int(rng.random() < 0.1), skip_weight_rls=int(rng.random() < 0.1),
                      data_cv=bool(rng.random() < 0.1), weight_cv=bool(rng.random() < 0.1))
    limit = COST_LIMIT * (4 if kind == "wide" and big else 1)
    if layer.cost > limit or layer.data_banks + layer.weight_banks > CBUF_BANKS:
        return None
    grains = max(1, layer.data_banks * BANK_ENTRIES // layer.entries_per_slice)
    return dataclasses.replace(layer, fetch_grain=int(ri(0, min(height, grains)))
                               if rng.random() < 0.5 else 0)


def _strides(rng: np.random.Generator, slot: int, width: int, height: int, channels: int,
             cv: bool) -> Surface:
    """A cube's place: packed for a 1x1 cube (seed 001 Limitation), else strides with 0..2 atoms of slack."""
    base = (CVSRAM if cv else DRAM) + slot * REGION
    if width == 1 and height == 1:
        return Surface(base, ATOM, ATOM, ram_mc=not cv)
    line = (width + int(rng.integers(0, 3))) * ATOM
    surf = height * line + int(rng.integers(0, 3)) * ATOM
    return Surface(base, line, surf, ram_mc=not cv)


def conv_fields(layer: ConvLayer, src: Surface, weights: int, dst: Surface) -> dict[str, dict[str, int]]:
    """Register fields of CDMA, CSC, CMAC_A/B and CACC for the layer (INT8, direct convolution, group 0)."""
    w, h, c, k = layer.width, layer.height, layer.channels, layer.kernels
    wo, ho = layer.out_width, layer.out_height
    (sx, sy), (dx, dy) = layer.stride, layer.dilation
    pl, pr, pt, pb = layer.pad
    eps = layer.entries_per_slice - 1
    bank = {"D_BANK.DATA_BANK": layer.data_banks - 1, "D_BANK.WEIGHT_BANK": layer.weight_banks - 1}
    misc = {"D_MISC_CFG.CONV_MODE": 0, "D_MISC_CFG.IN_PRECISION": 0, "D_MISC_CFG.PROC_PRECISION": 0,
            "D_MISC_CFG.DATA_REUSE": 0, "D_MISC_CFG.WEIGHT_REUSE": 0,
            "D_MISC_CFG.SKIP_DATA_RLS": layer.skip_data_rls,
            "D_MISC_CFG.SKIP_WEIGHT_RLS": layer.skip_weight_rls}
    en, off, scale, tr = layer.cvt
    cdma = {
        **misc, "D_DATAIN_FORMAT.DATAIN_FORMAT": 0, "D_DATAIN_FORMAT.PIXEL_FORMAT": 0,
        "D_DATAIN_FORMAT.PIXEL_MAPPING": 0, "D_DATAIN_FORMAT.PIXEL_SIGN_OVERRIDE": 0,
        "D_DATAIN_SIZE_0.DATAIN_WIDTH": w - 1, "D_DATAIN_SIZE_0.DATAIN_HEIGHT": h - 1,
        "D_DATAIN_SIZE_1.DATAIN_CHANNEL": c - 1,
        "D_DATAIN_SIZE_EXT_0.DATAIN_WIDTH_EXT": w - 1, "D_DATAIN_SIZE_EXT_0.DATAIN_HEIGHT_EXT": h - 1,
        "D_PIXEL_OFFSET.PIXEL_X_OFFSET": 0, "D_PIXEL_OFFSET.PIXEL_Y_OFFSET": 0,
        "D_DAIN_RAM_TYPE.DATAIN_RAM_TYPE": int(src.ram_mc),
        "D_DAIN_ADDR_HIGH_0.DATAIN_ADDR_HIGH_0": 0, "D_DAIN_ADDR_LOW_0.DATAIN_ADDR_LOW_0": src.base,
        "D_DAIN_ADDR_HIGH_1.DATAIN_ADDR_HIGH_1": 0, "D_DAIN_ADDR_LOW_1.DATAIN_ADDR_LOW_1": 0,
        "D_LINE_STRIDE.LINE_STRIDE": src.line_stride, "D_LINE_UV_STRIDE.UV_LINE_STRIDE": 0,
        "D_SURF_STRIDE.SURF_STRIDE": src.surface_stride,
        "D_DAIN_MAP.LINE_PACKED": int(src.line_stride == w * ATOM),
        "D_DAIN_MAP.SURF_PACKED": int(src.surface_stride == src.line_stride * h),
        "D_BATCH_NUMBER.BATCHES": 0, "D_BATCH_STRIDE.BATCH_STRIDE": 0,
        "D_ENTRY_PER_SLICE.ENTRIES": eps, "D_FETCH_GRAIN.GRAINS": layer.fetch_grain,
        "D_WEIGHT_FORMAT.WEIGHT_FORMAT": 0,
        "D_WEIGHT_SIZE_0.BYTE_PER_KERNEL": layer.r * layer.s * c - 1, "D_WEIGHT_SIZE_1.WEIGHT_KERNEL": k - 1,
        "D_WEIGHT_RAM_TYPE.WEIGHT_RAM_TYPE": int(not layer.weight_cv),
        "D_WEIGHT_ADDR_HIGH.WEIGHT_ADDR_HIGH": 0, "D_WEIGHT_ADDR_LOW.WEIGHT_ADDR_LOW": weights,
        "D_WEIGHT_BYTES.WEIGHT_BYTES": layer.weight_bytes, "D_MEAN_FORMAT.MEAN_FORMAT": 0,
        "D_CVT_CFG.CVT_EN": en, "D_CVT_CFG.CVT_TRUNCATE": tr, "D_CVT_OFFSET.CVT_OFFSET": off & 0xFFFF,
        "D_CVT_SCALE.CVT_SCALE": scale & 0xFFFF,
        "D_CONV_STRIDE.CONV_X_STRIDE": sx - 1, "D_CONV_STRIDE.CONV_Y_STRIDE": sy - 1,
        "D_ZERO_PADDING.PAD_LEFT": pl, "D_ZERO_PADDING.PAD_RIGHT": pr, "D_ZERO_PADDING.PAD_TOP": pt,
        "D_ZERO_PADDING.PAD_BOTTOM": pb, "D_ZERO_PADDING_VALUE.PAD_VALUE": layer.cdma_pad, **bank,
        "D_NAN_FLUSH_TO_ZERO.NAN_TO_ZERO": 0, "D_PERF_ENABLE.DMA_EN": 0,
    }
    csc = {
        **misc, "D_DATAIN_FORMAT.DATAIN_FORMAT": 0,
        "D_DATAIN_SIZE_EXT_0.DATAIN_WIDTH_EXT": w - 1, "D_DATAIN_SIZE_EXT_0.DATAIN_HEIGHT_EXT": h - 1,
        "D_DATAIN_SIZE_EXT_1.DATAIN_CHANNEL_EXT": c - 1, "D_BATCH_NUMBER.BATCHES": 0,
        "D_POST_Y_EXTENSION.Y_EXTENSION": 0, "D_ENTRY_PER_SLICE.ENTRIES": eps,
        "D_WEIGHT_FORMAT.WEIGHT_FORMAT": 0,
        "D_WEIGHT_SIZE_EXT_0.WEIGHT_WIDTH_EXT": layer.s - 1,
        "D_WEIGHT_SIZE_EXT_0.WEIGHT_HEIGHT_EXT": layer.r - 1,
        "D_WEIGHT_SIZE_EXT_1.WEIGHT_CHANNEL_EXT": c - 1, "D_WEIGHT_SIZE_EXT_1.WEIGHT_KERNEL": k - 1,
        "D_WEIGHT_BYTES.WEIGHT_BYTES": layer.weight_bytes, "D_WMB_BYTES.WMB_BYTES": 0,
        "D_DATAOUT_SIZE_0.DATAOUT_WIDTH": wo - 1, "D_DATAOUT_SIZE_0.DATAOUT_HEIGHT": ho - 1,
        "D_DATAOUT_SIZE_1.DATAOUT_CHANNEL": k - 1, "D_ATOMICS.ATOMICS": wo * ho - 1,
        "D_RELEASE.RLS_SLICES": h - 1,
        "D_CONV_STRIDE_EXT.CONV_X_STRIDE_EXT": sx - 1, "D_CONV_STRIDE_EXT.CONV_Y_STRIDE_EXT": sy - 1,
        "D_DILATION_EXT.X_DILATION_EXT": dx - 1, "D_DILATION_EXT.Y_DILATION_EXT": dy - 1,
        "D_ZERO_PADDING.PAD_LEFT": pl, "D_ZERO_PADDING.PAD_TOP": pt,
        "D_ZERO_PADDING_VALUE.PAD_VALUE": layer.csc_pad, **bank, "D_PRA_CFG.PRA_TRUNCATE": 0,
    }
    mac = {"D_MISC_CFG.CONV_MODE": 0, "D_MISC_CFG.PROC_PRECISION": 0}
    cacc = {
        "D_MISC_CFG.CONV_MODE": 0, "D_MISC_CFG.PROC_PRECISION": 0,
        "D_DATAOUT_SIZE_0.DATAOUT_WIDTH": wo - 1, "D_DATAOUT_SIZE_0.DATAOUT_HEIGHT": ho - 1,
        "D_DATAOUT_SIZE_1.DATAOUT_CHANNEL": k - 1, "D_DATAOUT_ADDR.DATAOUT_ADDR": dst.base,
        "D_BATCH_NUMBER.BATCHES": 0, "D_LINE_STRIDE.LINE_STRIDE": dst.line_stride,
        "D_SURF_STRIDE.SURF_STRIDE": dst.surface_stride,
        "D_DATAOUT_MAP.LINE_PACKED": int(wo == 1 and ho == 1),
        "D_DATAOUT_MAP.SURF_PACKED": int(wo == 1 and ho == 1),
        "D_CLIP_CFG.CLIP_TRUNCATE": layer.truncate,
    }
    return {"CDMA": cdma, "CSC": csc, "CMAC_A": mac, "CMAC_B": dict(mac), "CACC": cacc}


def _register_only(rng: np.random.Generator, blk: XBlock) -> XBlock:
    """Operands from registers; a bypassed MUL's truncate (it still shifts) kept at 0..2, the ALU operand's
    shift mostly: sdp.py's draws allow any shift now and then, which too often flattens a whole output."""
    shift = blk.mul_shift if not blk.mul_bypass or blk.mul_shift <= 2 else int(rng.integers(0, 3))
    alu_shift = blk.alu_shift if blk.alu_shift <= 2 or rng.random() < 0.2 else int(rng.integers(0, 3))
    return dataclasses.replace(blk, alu_from_mem=False, mul_from_mem=False, mul_shift=shift,
                               alu_shift=alu_shift)


def _sdp_writes(rng: np.random.Generator, layer: ConvLayer, dst: Surface,
                bits: int) -> tuple[list[RegWrite], str]:
    """SDP on the fly from CACC: BS, BN, EW with register operands (or bypassed) and the output convertor,
    INT8 out; the SDP driver's program with FLYING_MODE on and without SDP_RDMA (nothing read from memory)."""
    k, wo, ho = layer.kernels, layer.out_width, layer.out_height
    bs, bn, ew = XBlock(), XBlock(), EwBlock()
    if rng.random() < 0.5:
        bs, _a, _m, bits = _xblock(rng, bits)
        bn, _a, _m, bits = _xblock(rng, bits)
        if rng.random() < 0.3:
            ew, _a, _m, bits = _ew(rng, bits)
        bs, bn = _register_only(rng, bs), _register_only(rng, bn)
        ew = dataclasses.replace(ew, alu_from_mem=False, mul_from_mem=False)
    if rng.random() < 0.4:
        cvt = OutputCvt()
    else:
        sample = rng.normal(0.0, float(1 << min(bits, 40)), 2048).astype(np.int64)
        cvt = _cvt(rng, sample, 8)
    # a stand-in input surface (never read: the input is on the fly)
    src = Surface(DRAM + 7 * REGION, dst.line_stride, dst.surface_stride)
    prog = sdp_layer(wo, ho, k, bs=bs, bn=bn, ew=ew, cvt=cvt, src=src, dst=dst, perf=True)
    writes = []
    for wr in prog.writes:
        if wr.unit != "SDP" or wr.reg == "D_OP_ENABLE":
            continue
        if wr.reg == "D_FEATURE_MODE_CFG":   # the input from CACC
            wr = RegWrite("SDP", wr.reg, wr.value | 1 << registers("SDP")[wr.reg]["fields"]["FLYING_MODE"][1])
        writes.append(wr)
    about = (f"bs {_describe(bs)}, bn {_describe(bn)}, ew {'bypass' if ew.bypass else 'on'}, "
             f"cvt offset {cvt.offset} scale {cvt.scale} shift {cvt.shift}")
    return writes, about


def _describe(blk: XBlock) -> str:
    if blk.bypass:
        return "bypass"
    parts = [] if blk.alu_bypass else [f"alu{blk.alu_algo}"]
    if not blk.mul_bypass:
        parts.append("prelu" if blk.mul_prelu else "mul")
    if not blk.relu_bypass:
        parts.append("relu")
    return "+".join(parts) or "pass"


def _truncate(rng: np.random.Generator, layer: ConvLayer, data_bits: int,
              weight_bits: int) -> tuple[int, int]:
    """(CACC truncation, bits the truncated sums keep): planned from the sums' spread so most outputs are
    neither 0 nor saturated, some drawn over the whole field 0..31."""
    taps = layer.r * layer.s * layer.channels
    spread = data_bits + weight_bits - 2 + 0.5 * np.log2(max(taps, 1))
    if rng.random() < 0.15:
        t = int(rng.integers(0, TRUNCATE + 1))
    else:
        t = int(np.clip(round(spread) - 7 + rng.integers(-2, 3), 0, TRUNCATE))
    return t, max(int(round(spread)) - t, 1)


def _distinct_outputs(prog: Program) -> int:
    """Distinct byte values of the output region the model computes for the program: a draw whose blocks
    flatten the output (SDP's MIN below the data then ReLU, a truncation past every sum, pads only) is drawn
    again, as sdp.py does with its data path. The model only screens the draws; the golden output is what
    NVIDIA's RTL writes."""
    from models import configs
    from models.subsystem import ModelTarget

    target = ModelTarget(configs.load("nv_full"))
    for addr, _fname, data in prog.loads:
        target.mem_write(1 if addr & 0xF0000000 == CVSRAM else 0, addr, data)
    for unit, reg, value in prog.writes:
        target.reg_write(unit, reg, value)
    addr, size = prog.dump
    return int(np.unique(np.asarray(target.mem_read(0, addr, size))).size)


def conv_program(rng: np.random.Generator, name: str, index: int) -> Program:
    """Program `index` of the series: its kind is KINDS[index % len(KINDS)], the rest drawn from rng; drawn
    again (up to 50 times) while the output would hold fewer than 8 distinct values."""
    for _ in range(50):
        prog = _conv_program(rng, name, index)
        if index % 26 == 5 or _distinct_outputs(prog) >= 8 or rng.random() < 0.05:
            return prog
    return prog


def _conv_program(rng: np.random.Generator, name: str, index: int) -> Program:
    kind = KINDS[index % len(KINDS)]
    for _ in range(1000):
        layer = draw_layer(rng, kind, big=index // len(KINDS) % 4 == 0, index=index)
        if layer is not None:
            break
    else:
        raise RuntimeError(f"{name}: no {kind} layer within the limits after 1000 draws")
    data_bits = 8 if rng.random() < 0.6 else int(rng.integers(2, 8))
    weight_bits = 8 if rng.random() < 0.6 else int(rng.integers(2, 8))
    truncate, bits = _truncate(rng, layer, data_bits, weight_bits)
    if index % 26 == 5:      # CACC's truncation at the field's top (29..31): outputs of a few values
        truncate = TRUNCATE - index // 26 % 3
    layer = dataclasses.replace(layer, truncate=truncate)
    src = _strides(rng, 0, layer.width, layer.height, layer.channels, layer.data_cv)
    if src.line_stride != layer.width * ATOM:
        # an unpacked line is fetched one slice at a time: FETCH_GRAIN 0 (seed 001; NVIDIA's C model
        # refuses any other value, its RTL ignores it)
        layer = dataclasses.replace(layer, fetch_grain=0)
    dst = _strides(rng, 2, layer.out_width, layer.out_height, layer.kernels, False)
    weights = (CVSRAM if layer.weight_cv else DRAM) + 1 * REGION
    fields = conv_fields(layer, src, weights, dst)
    try:
        sdp, sdp_about = _sdp_writes(rng, layer, dst, bits)
    except ConfigError:
        sdp, sdp_about = _sdp_writes(rng, layer, dst, 8)
    src_layout = CubeLayout(src.base, src.line_stride, src.surface_stride, layer.width, layer.height,
                            layer.channels)
    s_lo, s_size = extent(src_layout)
    loads = [(s_lo, "input.dat", random_image(rng, s_size, 1, data_bits)),
             (weights, "weight.dat", random_image(rng, layer.weight_bytes, 1, weight_bits))]
    out = CubeLayout(dst.base, dst.line_stride, dst.surface_stride, layer.out_width, layer.out_height,
                     layer.kernels)
    writes = [RegWrite("GLB", "S_INTR_MASK", GLB_UNMASK_SDP)]
    for unit in ("CACC", "CMAC_A", "CMAC_B", "CSC", "CDMA"):
        writes += [RegWrite(unit, reg, value) for reg, value in encode_fields(unit, fields[unit]).items()]
    writes += sdp
    # op_enable from SDP back to CDMA (seed 001 Limitation)
    writes += [RegWrite(u, "D_OP_ENABLE", 1) for u in ("SDP", "CACC", "CMAC_A", "CMAC_B", "CSC", "CDMA")]
    about = {
        "unit": "CONV", "kind": kind, "precision": "INT8 -> INT8",
        "input": f"{layer.width}x{layer.height}x{layer.channels}{' (CV SRAM)' if layer.data_cv else ''}",
        "kernels": f"{layer.kernels} of {layer.s}x{layer.r}x{layer.channels}"
                   f"{' (CV SRAM)' if layer.weight_cv else ''}",
        "output": f"{layer.out_width}x{layer.out_height}x{layer.kernels}",
        "stride": f"{layer.stride[0]}x{layer.stride[1]}",
        "dilation": f"{layer.dilation[0]}x{layer.dilation[1]}",
        "pad": "left {} right {} top {} bottom {}".format(*layer.pad),
        "pad_values": f"CDMA {layer.cdma_pad:#06x} CSC {layer.csc_pad:#06x}",
        "cdma_cvt": "off" if not layer.cvt[0] else "offset {} scale {} truncate {}".format(*layer.cvt[1:]),
        "truncate": layer.truncate, "data_bits": data_bits, "weight_bits": weight_bits,
        "cbuf": f"entries/slice {layer.entries_per_slice}, banks data {layer.data_banks} weight "
                f"{layer.weight_banks}, fetch grain {layer.fetch_grain}",
        "skip_release": f"data {layer.skip_data_rls} weight {layer.skip_weight_rls}",
        "sdp": sdp_about, "cost": layer.cost,
    }
    prog = Program(name, writes, loads, extent(out), about,
                   reads=[("CACC", "D_OUT_SATURATION"), ("SDP", "D_PERF_OUT_SATURATION")])
    prog.polls = [("CDMA", "S_CBUF_FLUSH_STATUS", 1)]
    # the CBUF flush (4096 entries after reset) ends within the harness's 4096 idle cycles or a few polls;
    # more retries would cost each UNREAD statistic read as many CSB reads
    prog.plusargs = "+read_reg_poll_retries=20"
    return prog
