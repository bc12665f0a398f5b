"""CDMA of NVDLA's convolution pipeline, direct convolution with feature input at INT8: what it reads from
memory and hands to CBUF, as data the convolution (models/conv/conv.py) computes on.

- Feature data: the input cube in NVDLA's feature layout (models/common/cube.py CubeLayout, the memory atom
of the
  configuration); a 1x1 cube with SURF_PACKED is read packed whatever the strides say (NVIDIA's
  NV_NVDLA_CDMA_dc.v `is_packed_1x1`).
- The input convertor (D_CVT_CFG.CVT_EN): each element x becomes
  sat_int8(round((x - CVT_OFFSET) * CVT_SCALE >> CVT_TRUNCATE)), offset and scale 16-bit signed, rounding half
  away from zero, a shift of 34 or more giving 0 (NV_NVDLA_CDMA_CVT_cell.v with NV_NVDLA_HLS_shiftrightsu:
  an 18-bit difference times the scale, shifted to 17 bits and saturated, then saturated to INT8).
- Weights: WEIGHT_BYTES bytes from WEIGHT_ADDR, copied as they are into CBUF. Their order is the one CSC
  reads (NVIDIA's cmod NV_NVDLA_csc.cpp SendWeightToMacSequencerDirectConvCommon): kernel groups of atomic K
  kernels; in a group, channel blocks of atomic C channels; in a block, the kernel positions r*S + s; at a
  position, each kernel of the group with the block's channels (docs/convolution.md "Weight layout").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from models.common.cube import CubeLayout
from models.common.memory import pick_memory
from models.common.precision import as_signed, rshift_round
from models.errors import ConfigError

CVT_SHIFT_ZERO = 34   # NV_NVDLA_HLS_shiftrightsu IN_WIDTH: a shift this large or larger gives 0


@dataclass(frozen=True)
class CdmaConfig:
    """CDMA's registers for a direct convolution layer with feature input."""

    width: int
    height: int
    channels: int
    base: int
    line_stride: int
    surf_stride: int
    surf_packed: bool
    ram_mc: bool
    cvt_en: bool
    cvt_offset: int      # raw 16-bit register values
    cvt_scale: int
    cvt_truncate: int
    weight_base: int
    weight_bytes: int
    weight_ram_mc: bool
    atom_bytes: int

    @classmethod
    def from_fields(cls, f: Mapping[str, int], atom_bytes: int) -> CdmaConfig:
        """From the CDMA "REG.FIELD" values of the group that runs."""
        return cls(
            width=f["D_DATAIN_SIZE_0.DATAIN_WIDTH"] + 1, height=f["D_DATAIN_SIZE_0.DATAIN_HEIGHT"] + 1,
            channels=f["D_DATAIN_SIZE_1.DATAIN_CHANNEL"] + 1,
            base=f["D_DAIN_ADDR_LOW_0.DATAIN_ADDR_LOW_0"], line_stride=f["D_LINE_STRIDE.LINE_STRIDE"],
            surf_stride=f["D_SURF_STRIDE.SURF_STRIDE"], surf_packed=bool(f["D_DAIN_MAP.SURF_PACKED"]),
            ram_mc=bool(f["D_DAIN_RAM_TYPE.DATAIN_RAM_TYPE"]),
            cvt_en=bool(f["D_CVT_CFG.CVT_EN"]), cvt_offset=f["D_CVT_OFFSET.CVT_OFFSET"],
            cvt_scale=f["D_CVT_SCALE.CVT_SCALE"], cvt_truncate=f["D_CVT_CFG.CVT_TRUNCATE"],
            weight_base=f["D_WEIGHT_ADDR_LOW.WEIGHT_ADDR_LOW"], weight_bytes=f["D_WEIGHT_BYTES.WEIGHT_BYTES"],
            weight_ram_mc=bool(f["D_WEIGHT_RAM_TYPE.WEIGHT_RAM_TYPE"]), atom_bytes=atom_bytes)

    @property
    def layout(self) -> CubeLayout:
        """The input cube in memory (the DMA drops the address bits below the atom)."""
        mask = ~(self.atom_bytes - 1)
        if self.width == 1 and self.height == 1 and self.surf_packed:
            return CubeLayout.packed(self.base & mask, 1, 1, self.channels, self.atom_bytes)
        return CubeLayout(self.base & mask, self.line_stride & mask, self.surf_stride & mask, self.width,
                          self.height, self.channels, self.atom_bytes)


def cvt_int8(x: NDArray[np.integer] | int, offset: int, scale: int, truncate: int) -> NDArray[np.int64]:
    """The convertor at INT8: offset and scale raw 16-bit register values (read as signed), truncate 0..63."""
    data = np.asarray(x, dtype=np.int64)
    if truncate >= CVT_SHIFT_ZERO:
        return np.zeros_like(data)
    product = (data - as_signed(offset, 16)) * as_signed(scale, 16)
    return np.clip(rshift_round(product, truncate), -128, 127)


def convert_input(x: NDArray[np.integer], cfg: CdmaConfig) -> NDArray[np.int64]:
    """CDMA's input convertor on INT8 feature data (identity when CVT_EN is 0)."""
    if not cfg.cvt_en:
        return np.asarray(x, dtype=np.int64)
    return cvt_int8(x, cfg.cvt_offset, cfg.cvt_scale, cfg.cvt_truncate)


def read_feature(cfg: CdmaConfig, mem: object, sec_mem: object | None = None) -> NDArray[np.int64]:
    """The input cube [C, H, W] as CBUF receives it: read, then converted."""
    raw = cfg.layout.read(pick_memory(cfg.ram_mc, mem, sec_mem))  # type: ignore[arg-type]
    return convert_input(raw, cfg)


def weight_offsets(kernels: int, channels: int, kh: int, kw: int, atomic_c: int,
                   atomic_k: int) -> NDArray[np.int64]:
    """Byte offset of every weight [K, C, R, S] in NVIDIA's direct-convolution weight image (INT8)."""
    k = np.arange(kernels).reshape(-1, 1, 1, 1)
    c = np.arange(channels).reshape(1, -1, 1, 1)
    rs = (np.arange(kh).reshape(-1, 1) * kw + np.arange(kw)).reshape(1, 1, kh, kw)
    group, kk = np.divmod(k, atomic_k)
    in_group = np.minimum(atomic_k, kernels - group * atomic_k)       # the last group may be short
    block, cc = np.divmod(c, atomic_c)
    in_block = np.minimum(atomic_c, channels - block * atomic_c)      # the last block may be short
    per_kernel = kh * kw * channels
    return (group * per_kernel * atomic_k + block * atomic_c * kh * kw * in_group + rs * in_block * in_group
            + kk * in_block + cc).astype(np.int64)


def weight_image_bytes(kernels: int, channels: int, kh: int, kw: int) -> int:
    """Bytes of the weight image: every weight once, no padding (WEIGHT_BYTES rounds it up to 128)."""
    return kernels * channels * kh * kw


def pack_weights(weights: NDArray[np.integer], atomic_c: int, atomic_k: int) -> NDArray[np.uint8]:
    """Weights [K, C, R, S] (int8 values) as the bytes of NVIDIA's weight image."""
    w = np.asarray(weights, dtype=np.int64)
    out = np.zeros(w.size, dtype=np.uint8)
    out[weight_offsets(*w.shape, atomic_c, atomic_k).ravel()] = (w.ravel() & 0xFF).astype(np.uint8)
    return out


def unpack_weights(image: NDArray[np.uint8], shape: tuple[int, int, int, int], atomic_c: int,
                   atomic_k: int) -> NDArray[np.int64]:
    """The weights [K, C, R, S] of a weight image (int8 values)."""
    offsets = weight_offsets(*shape, atomic_c, atomic_k)
    need = weight_image_bytes(*shape)
    if image.size < need:
        raise ConfigError("CDMA WEIGHT_BYTES must hold every weight (R*S*C*K bytes at INT8)",
                          {"WEIGHT_BYTES": int(image.size), "needed": need})
    return image.view(np.int8)[offsets].astype(np.int64)


def read_weights(cfg: CdmaConfig, shape: tuple[int, int, int, int], atomic_c: int, atomic_k: int,
                 mem: object, sec_mem: object | None = None) -> NDArray[np.int64]:
    """The kernels [K, C, R, S] CDMA loads (WEIGHT_BYTES from WEIGHT_ADDR)."""
    src = pick_memory(cfg.weight_ram_mc, mem, sec_mem)
    need = weight_image_bytes(*shape)
    if cfg.weight_bytes < need:
        raise ConfigError("CDMA WEIGHT_BYTES must hold every weight (R*S*C*K bytes at INT8)",
                          {"WEIGHT_BYTES": cfg.weight_bytes, "needed": need})
    base = cfg.weight_base & ~(cfg.atom_bytes - 1)   # as the feature DMA: whole atoms
    image = np.asarray(src.read(base, need), dtype=np.uint8)  # type: ignore[attr-defined]
    return unpack_weights(image, shape, atomic_c, atomic_k)
