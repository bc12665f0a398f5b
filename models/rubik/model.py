"""Rubik, nv_full's data-movement unit: contract, split and merge, as NVIDIA's nvdlav1 RTL moves the bytes.

Three modes (D_MISC_CFG.RUBIK_MODE), all in 32-byte atoms; IN_PRECISION only sets the bytes per element
(INT8: 1, so 32 channels an atom; INT16 and FP16: 2, 16 channels). Addresses and strides are registers
[31:5] (32-byte units); a 64-bit address is {ADDR_HIGH, ADDR_LOW[31:5], 5'b0}. What the RTL does, read from
vmod/nvdla/rubik/NV_NVDLA_RUBIK_seq_gen.v (address sequencer) and NV_NVDLA_RUBIK_rf_core.v (reorder RAM),
checked against NVIDIA's RTL running programs of this project (traces/nv_full_ref/rubik, docs/rubik.md):

- contract (the last phase of a deconvolution): the input holds sx*sy cubes of W x H, cube k = dy*sx + dx at
  DAIN + k*CONTRACT_STRIDE_0; surface s of the output (ceil((DATAOUT_CHANNEL+1)/epa) of them) takes atom
  (x, h) of cube k, read at + s*DAIN_SURF_STRIDE + h*DAIN_LINE_STRIDE + x*32, and writes it whole to output
  column x*sx + dx of line h*sy + dy: DAOUT + s*DAOUT_SURF_STRIDE + (h*sy + dy)*DAOUT_LINE_STRIDE
  + (x*sx + dx)*32. The RTL steps output lines by DAOUT_LINE_STRIDE alone: CONTRACT_STRIDE_1 (seed 001:
  sy * DAOUT_LINE_STRIDE) only feeds a monitor (seq_gen mon_block_stride). DATAIN_CHANNEL is not used.
- split: a feature cube of ceil((DATAIN_CHANNEL+1)/epa) surfaces into planes; plane p = s*epa + j (j below
  min(C - s*epa, epa), C = DATAIN_CHANNEL+1) line h at DAOUT + p*DAOUT_PLANAR_STRIDE + h*DAOUT_LINE_STRIDE,
  W elements packed, written in whole atoms: ceil(W*bpe/32)*32 bytes, the bytes past the line's last element
  0 (rf_core's byte mask). The number of output surfaces is counted from DATAOUT_CHANNEL (seq_gen
  wr_chn_cnt), the planes of each from DATAIN_CHANNEL.
- merge: planes into a feature cube; surface s line h at DAOUT + s*DAOUT_SURF_STRIDE + h*DAOUT_LINE_STRIDE,
  W atoms, element j of atom x = plane s*epa + j's element x (read at DAIN + p*DAIN_PLANAR_STRIDE +
  h*DAIN_LINE_STRIDE + x*bpe); the channels of the last surface past C are 0.

DAIN_RAM_TYPE / DAOUT_RAM_TYPE pick the memory as every DMA does (1 MCIF: memory 0; 0 CVIF: the CV SRAM).
Pure Python + numpy: no simulator imports.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from models.common.memory import Memory, pick_memory
from models.errors import ConfigError

UNIT = "RUBIK"
ATOM = 32                  # bytes: Rubik's atom on nv_full (RUBIK_ATOM_CUBE_SIZE)
ADDR_SHIFT = 5
MODES = {0: "CONTRACT", 1: "SPLIT", 2: "MERGE"}
PRECISIONS = {0: "INT8", 1: "INT16", 2: "FP16"}
CONTRACT, SPLIT, MERGE = 0, 1, 2
MAX_CONTRACT_LINE_ATOMS = 1 << 13   # seq_gen contract_wr_size[12:0]: W*sx atoms a write


def _get(fields: Mapping[str, int], key: str) -> int:
    return int(fields.get(key, 0))


@dataclass(frozen=True)
class RubikConfig:
    """One Rubik layer, register values decoded (sizes +1, addresses and strides in bytes)."""

    mode: int
    precision: int
    width: int
    height: int
    in_channels: int
    out_channels: int
    src: int
    src_line: int
    src_surf: int
    src_planar: int
    dst: int
    dst_line: int
    dst_surf: int
    dst_planar: int
    contract_stride0: int
    contract_stride1: int
    x_stride: int        # DECONV_X_STRIDE + 1
    y_stride: int
    src_ram_mc: bool = True
    dst_ram_mc: bool = True

    @property
    def bpe(self) -> int:
        """Bytes per element: seq_gen's m_byte_data is IN_PRECISION == 0 (INT8), any other value is 2."""
        return 1 if self.precision == 0 else 2

    @property
    def epa(self) -> int:
        return ATOM // self.bpe

    @property
    def out_surfaces(self) -> int:
        return -(-self.out_channels // self.epa)

    @property
    def in_surfaces(self) -> int:
        return -(-self.in_channels // self.epa)

    @classmethod
    def from_fields(cls, fields: Mapping[str, int]) -> RubikConfig:
        """From "REG.FIELD" -> value of the RUBIK registers (models/registers.py decode_fields)."""
        def addr(side: str) -> int:
            return (_get(fields, f"D_{side}_ADDR_HIGH.{side}_ADDR_HIGH") << 32
                    | _get(fields, f"D_{side}_ADDR_LOW.{side}_ADDR_LOW") << ADDR_SHIFT)

        def stride(reg: str) -> int:
            return _get(fields, f"D_{reg}.{reg}") << ADDR_SHIFT

        mode = _get(fields, "D_MISC_CFG.RUBIK_MODE")
        if mode not in MODES:
            raise ConfigError("Rubik RB1: RUBIK_MODE is CONTRACT (0), SPLIT (1) or MERGE (2)",
                              {"RUBIK_MODE": mode})
        precision = _get(fields, "D_MISC_CFG.IN_PRECISION")
        if precision not in PRECISIONS:
            raise ConfigError("Rubik RB1: IN_PRECISION is INT8 (0), INT16 (1) or FP16 (2)",
                              {"IN_PRECISION": precision})
        return cls(mode=mode, precision=precision,
                   width=_get(fields, "D_DATAIN_SIZE_0.DATAIN_WIDTH") + 1,
                   height=_get(fields, "D_DATAIN_SIZE_0.DATAIN_HEIGHT") + 1,
                   in_channels=_get(fields, "D_DATAIN_SIZE_1.DATAIN_CHANNEL") + 1,
                   out_channels=_get(fields, "D_DATAOUT_SIZE_1.DATAOUT_CHANNEL") + 1,
                   src=addr("DAIN"), src_line=stride("DAIN_LINE_STRIDE"),
                   src_surf=stride("DAIN_SURF_STRIDE"),
                   src_planar=stride("DAIN_PLANAR_STRIDE"),
                   dst=addr("DAOUT"), dst_line=stride("DAOUT_LINE_STRIDE"),
                   dst_surf=stride("DAOUT_SURF_STRIDE"),
                   dst_planar=stride("DAOUT_PLANAR_STRIDE"),
                   contract_stride0=stride("CONTRACT_STRIDE_0"), contract_stride1=stride("CONTRACT_STRIDE_1"),
                   x_stride=_get(fields, "D_DECONV_STRIDE.DECONV_X_STRIDE") + 1,
                   y_stride=_get(fields, "D_DECONV_STRIDE.DECONV_Y_STRIDE") + 1,
                   src_ram_mc=bool(_get(fields, "D_DAIN_RAM_TYPE.DATAIN_RAM_TYPE")),
                   dst_ram_mc=bool(_get(fields, "D_DAOUT_RAM_TYPE.DATAOUT_RAM_TYPE")))

    def check(self) -> None:
        """What the model refuses: layers NVIDIA's RTL does not carry out as the formulas above say."""
        if self.mode == CONTRACT and self.width * self.x_stride > MAX_CONTRACT_LINE_ATOMS:
            raise ConfigError("Rubik RB4: deconv_x_stride * datain_width should be <=8192",
                              {"DATAIN_WIDTH+1": self.width, "DECONV_X_STRIDE+1": self.x_stride})
        if self.mode != CONTRACT and self.in_surfaces != self.out_surfaces:
            raise ConfigError("Rubik RB6: split/merge count the read side's surfaces from DATAIN_CHANNEL and "
                              "the "
                              "write side's from DATAOUT_CHANNEL: they must be the same number",
                              {"DATAIN_CHANNEL+1": self.in_channels, "DATAOUT_CHANNEL+1": self.out_channels})


@dataclass(frozen=True)
class Region:
    """A byte range a layer writes, and its memory (for the caller's bookkeeping)."""

    addr: int
    size: int
    ram_mc: bool


def run_rubik(cfg: RubikConfig, mem: Memory, sec_mem: Memory | None = None) -> list[Region]:
    """Carry out one layer in memory, in the RTL's write order; returns the regions written."""
    cfg.check()
    src_mem = pick_memory(cfg.src_ram_mc, mem, sec_mem)
    dst_mem = pick_memory(cfg.dst_ram_mc, mem, sec_mem)
    assert isinstance(src_mem, Memory) and isinstance(dst_mem, Memory)
    run = {CONTRACT: _contract, SPLIT: _split, MERGE: _merge}[cfg.mode]
    return run(cfg, src_mem, dst_mem)


def _contract(cfg: RubikConfig, src: Memory, dst: Memory) -> list[Region]:
    w, sx, sy = cfg.width, cfg.x_stride, cfg.y_stride
    out: list[Region] = []
    for s in range(cfg.out_surfaces):
        for h in range(cfg.height):
            for dy in range(sy):
                line = np.zeros((w, sx, ATOM), dtype=np.uint8)
                for dx in range(sx):
                    a = cfg.src + s * cfg.src_surf + h * cfg.src_line + (dy * sx + dx) * cfg.contract_stride0
                    line[:, dx] = _read(src, a, w * ATOM).reshape(w, ATOM)
                a = cfg.dst + s * cfg.dst_surf + (h * sy + dy) * cfg.dst_line
                out.append(_write(dst, a, line.reshape(-1), cfg.dst_ram_mc))
    return out


def _split(cfg: RubikConfig, src: Memory, dst: Memory) -> list[Region]:
    w, bpe, epa = cfg.width, cfg.bpe, cfg.epa
    line_bytes = -(-w * bpe // ATOM) * ATOM
    out: list[Region] = []
    for s in range(cfg.out_surfaces):
        planes = min(cfg.in_channels - s * epa, epa)
        for h in range(cfg.height):
            a = cfg.src + s * cfg.src_surf + h * cfg.src_line
            atoms = _read(src, a, w * ATOM).reshape(w, epa, bpe)
            for j in range(planes):
                plane = np.zeros(line_bytes, dtype=np.uint8)
                plane[:w * bpe] = atoms[:, j, :].reshape(-1)
                a = cfg.dst + (s * epa + j) * cfg.dst_planar + h * cfg.dst_line
                out.append(_write(dst, a, plane, cfg.dst_ram_mc))
    return out


def _merge(cfg: RubikConfig, src: Memory, dst: Memory) -> list[Region]:
    w, bpe, epa = cfg.width, cfg.bpe, cfg.epa
    out: list[Region] = []
    for s in range(cfg.out_surfaces):
        planes = max(0, min(cfg.in_channels - s * epa, epa))
        for h in range(cfg.height):
            atoms = np.zeros((w, epa, bpe), dtype=np.uint8)
            for j in range(planes):
                a = cfg.src + (s * epa + j) * cfg.src_planar + h * cfg.src_line
                atoms[:, j, :] = _read(src, a, w * bpe).reshape(w, bpe)
            a = cfg.dst + s * cfg.dst_surf + h * cfg.dst_line
            out.append(_write(dst, a, atoms.reshape(-1), cfg.dst_ram_mc))
    return out


def _read(mem: Memory, addr: int, size: int) -> NDArray[np.uint8]:
    return mem.read(addr, size)


def _write(mem: Memory, addr: int, data: NDArray[np.uint8], ram_mc: bool) -> Region:
    mem.write(addr, data)
    return Region(addr, int(data.size), ram_mc)
