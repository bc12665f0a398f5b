"""Driver layer for one CDP (LRN) hardware layer: a layer description in, validated register writes out.

`cdp_layer(...)` takes what a compiler knows about an LRN layer (cube size, local size, bypass modes, the
input and output convertors as signed values, the LUT, where the cubes live) and returns a `CdpProgram`:
the register fields, the model configuration built from them and the register writes [(unit, register,
value)] in the order NVIDIA's KMD issues them (kmd/firmware/cdp.c): producer pointers, the CDP_RDMA group,
the LUT (tables through S_LUT_ACCESS_CFG/DATA, then the S_LUT_* registers), the CDP group, then
D_OP_ENABLE of the RDMA and of CDP.

Everything is validated before a single write is returned, so a rejected layer never reaches the hardware:
- the description: sizes >= 1, local size 3/5/7/9, register group 0/1, convertor values in the ranges the
  nv_small INT8 datapath uses (DATIN_OFFSET int8, scales int16, DATOUT_OFFSET 25-bit signed, shifters
  5 / 6 bits), a CDP LUT;
- register fields must fit (ConfigError naming the field);
- seed 001's Limitation rules (format, alignment, strides, LUT rules) through `CdpConfig.from_fields`;
- cubes inside the 32-bit address space, and source and destination not overlapping (CDP reads and writes
  at the same time, so an in-place layer would read its own output).

Signed values are written sign-extended to the whole register field, as the KMD's shifts of its signed
descriptor fields do (NVIDIA's traces hold 0xff80 for DATIN_OFFSET -128 and 0xffffffdf for DATOUT_OFFSET
-33); the datapath uses the low bits only.

The LUT RAM and the S_LUT_* registers are shared by both register groups: the caller must not load a LUT
while a CDP layer of the other group runs (the KMD waits, dla_cdp_is_ready). `load_lut=False` leaves the
LUT writes out for a layer that uses the LUT already loaded.

`precision` ("INT8" default, or "INT16" where the run's configuration has it) sets D_DATA_FORMAT of both
units and the convertor ranges of that precision's datapath (models/cdp/model.py WIDTHS: INT16 takes an int16
DATIN_OFFSET and a 32-bit DATOUT_OFFSET); the LUT is checked against the Limitation rows of that precision.
"""

from __future__ import annotations

from dataclasses import dataclass

from models import configs, registers
from models.cdp.model import PRECISION_NAMES, WIDTHS, CdpConfig, cube_layouts
from models.common.driver import (
    RegWrite,
    Surface,
    check_fits,
    check_placement,
    lut_unit_writes,
    program_fields,
    run_atom_bytes,
    surface_registers,
)
from models.errors import ConfigError
from models.lut.model import LutConfig
from models.lut.program import LutProgram
from models.lut.regs import lut_fields

__all__ = ["CdpProgram", "Convertor", "Surface", "cdp_layer", "lut_fields", "program_fields"]

LOCAL_SIZES = (3, 5, 7, 9)
PRECISIONS = {name: code for code, name in PRECISION_NAMES.items()}
PERF_ALL = 3             # D_PERF_ENABLE: DMA_EN | LUT_EN

# Register order within each unit, as NVIDIA's KMD writes them (processor_cdp_program).
_RDMA_ORDER = (
    "D_DATA_CUBE_WIDTH", "D_DATA_CUBE_HEIGHT", "D_DATA_CUBE_CHANNEL", "D_SRC_BASE_ADDR_LOW",
    "D_SRC_BASE_ADDR_HIGH", "D_SRC_LINE_STRIDE", "D_SRC_SURFACE_STRIDE", "D_SRC_DMA_CFG", "D_DATA_FORMAT",
)
_CDP_ORDER = (
    "D_DST_BASE_ADDR_LOW", "D_DST_BASE_ADDR_HIGH", "D_DST_LINE_STRIDE", "D_DST_SURFACE_STRIDE",
    "D_DST_DMA_CFG", "D_DATA_FORMAT", "D_LRN_CFG", "D_DATIN_OFFSET", "D_DATIN_SCALE", "D_DATIN_SHIFTER",
    "D_DATOUT_OFFSET", "D_DATOUT_SCALE", "D_DATOUT_SHIFTER", "D_FUNC_BYPASS", "D_PERF_ENABLE",
)
# The S_LUT_* registers after the tables, in address order (S_LUT_CFG .. S_LUT_LO_SLOPE_SHIFT).
_LUT_ORDER = tuple(r for r in registers.registers("CDP") if r.startswith("S_LUT_") and "ACCESS" not in r)


@dataclass(frozen=True)
class Convertor:
    """One CDP convertor as signed values: y = (x - offset) * scale >> shifter (rounded, saturated)."""

    offset: int = 0
    scale: int = 1
    shifter: int = 0


@dataclass(frozen=True)
class CdpProgram:
    """A validated CDP layer: fields per unit, the model's configuration, and the writes in issue order."""

    group: int
    fields: dict[str, dict[str, int]]
    config: CdpConfig
    writes: tuple[RegWrite, ...]



def _check_range(name: str, value: int, bits: int, signed: bool, rule: str) -> None:
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    if not lo <= value <= hi:
        raise ConfigError(f"CDP driver: {rule}", {name: value, "min": lo, "max": hi})


def _check_description(width: int, height: int, channels: int, local_size: int, datin: Convertor,
                       datout: Convertor, lut: LutConfig, group: int, precision: str) -> None:
    if min(width, height, channels) < 1:
        raise ConfigError("CDP driver: cube width, height and channels must be >= 1",
                          {"width": width, "height": height, "channels": channels})
    if local_size not in LOCAL_SIZES:
        raise ConfigError("CDP driver: local_size must be 3, 5, 7 or 9 (NORMALZ_LEN)",
                          {"local_size": local_size})
    if group not in (0, 1):
        raise ConfigError("CDP driver: register group must be 0 or 1", {"group": group})
    if lut.unit != "CDP":
        raise ConfigError("CDP driver: the LUT must be a CDP LUT (38-bit START/END)", {"unit": lut.unit})
    if precision not in PRECISIONS or precision not in configs.load().precisions:
        raise ConfigError("CDP driver: the precision must be one the configuration's CDP computes",
                          {"precision": precision, "configuration": configs.load().name})
    w = WIDTHS[PRECISIONS[precision]]
    _check_range("DATIN_OFFSET", datin.offset, w.in_offset_bits, True,
                 f"DATIN_OFFSET is a signed {w.in_offset_bits}-bit value at {precision}")
    _check_range("DATIN_SCALE", datin.scale, 16, True, "DATIN_SCALE is a signed 16-bit value")
    _check_range("DATIN_SHIFTER", datin.shifter, 5, False, "DATIN_SHIFTER is 0..31")
    _check_range("DATOUT_OFFSET", datout.offset, w.out_offset_bits, True,
                 f"DATOUT_OFFSET is a signed {w.out_offset_bits}-bit value at {precision}")
    _check_range("DATOUT_SCALE", datout.scale, 16, True, "DATOUT_SCALE is a signed 16-bit value")
    _check_range("DATOUT_SHIFTER", datout.shifter, 6, False, "DATOUT_SHIFTER is 0..63")


def _fields(width: int, height: int, channels: int, local_size: int, sqsum_bypass: bool, mul_bypass: bool,
            datin: Convertor, datout: Convertor, lut: LutConfig, src: Surface, dst: Surface,
            perf: bool, precision: int, nan_to_zero: bool) -> dict[str, dict[str, int]]:
    rdma = {
        "D_DATA_CUBE_WIDTH.WIDTH": width - 1, "D_DATA_CUBE_HEIGHT.HEIGHT": height - 1,
        "D_DATA_CUBE_CHANNEL.CHANNEL": channels - 1,
        **surface_registers("src", src),
        "D_SRC_DMA_CFG.SRC_RAM_TYPE": int(src.ram_mc), "D_DATA_FORMAT.INPUT_DATA": precision,
    }
    cdp = {
        **surface_registers("dst", dst),
        "D_DST_DMA_CFG.DST_RAM_TYPE": int(dst.ram_mc), "D_DATA_FORMAT.INPUT_DATA_TYPE": precision,
        # the KMD's map_local_size: 3/5/7/9 -> 0/1/2/3
        "D_LRN_CFG.NORMALZ_LEN": (local_size - 1) // 2 - 1,
        # signed values sign-extended to the register width (see the module docstring)
        "D_DATIN_OFFSET.DATIN_OFFSET": datin.offset & 0xFFFF,
        "D_DATIN_SCALE.DATIN_SCALE": datin.scale & 0xFFFF,
        "D_DATIN_SHIFTER.DATIN_SHIFTER": datin.shifter,
        "D_DATOUT_OFFSET.DATOUT_OFFSET": datout.offset & 0xFFFFFFFF,
        "D_DATOUT_SCALE.DATOUT_SCALE": datout.scale & 0xFFFF,
        "D_DATOUT_SHIFTER.DATOUT_SHIFTER": datout.shifter,
        "D_FUNC_BYPASS.SQSUM_BYPASS": int(sqsum_bypass), "D_FUNC_BYPASS.MUL_BYPASS": int(mul_bypass),
        "D_PERF_ENABLE.DMA_EN": int(perf), "D_PERF_ENABLE.LUT_EN": int(perf),
        **lut_fields(lut),
    }
    if PRECISION_NAMES[precision] == "FP16":
        cdp["D_NAN_FLUSH_TO_ZERO.NAN_TO_ZERO"] = int(nan_to_zero)
    return {"CDP": cdp, "CDP_RDMA": rdma}



def _check_placement(cfg: CdpConfig) -> None:
    src, dst = cube_layouts(cfg)
    check_placement("CDP", {"SRC": src, "DST": dst})



def cdp_layer(width: int, height: int, channels: int, *, local_size: int = 5, sqsum_bypass: bool = False,
              mul_bypass: bool = False, datin: Convertor = Convertor(), datout: Convertor = Convertor(),
              lut: LutConfig | LutProgram, src: Surface, dst: Surface, group: int = 0, load_lut: bool = True,
              perf: bool = True, precision: str = "INT8", nan_to_zero: bool = False) -> CdpProgram:
    """Validate one LRN layer and return its register program (see the module docstring).

    `lut` is the LUT the layer uses, tables included (a LutConfig, or a models.lut.program LutProgram);
    its tables and S_LUT_* registers are written unless load_lut=False. `perf` sets D_PERF_ENABLE
    (DMA_EN, LUT_EN) as the KMD does with statistics enabled; the LUT counters count either way.
    `nan_to_zero` (FP16 only: D_NAN_FLUSH_TO_ZERO, written at FP16) flushes NaN inputs to +0.
    """
    if nan_to_zero and precision != "FP16":
        raise ConfigError("CDP driver: NaN flush to zero is an FP16 setting", {"precision": precision})
    lut_cfg = lut.lut_config() if isinstance(lut, LutProgram) else lut
    _check_description(width, height, channels, local_size, datin, datout, lut_cfg, group, precision)
    fields = _fields(width, height, channels, local_size, sqsum_bypass, mul_bypass, datin, datout, lut_cfg,
                     src, dst, perf, PRECISIONS[precision], nan_to_zero)
    for unit, unit_fields in fields.items():
        check_fits(unit, unit_fields)
    cfg = CdpConfig.from_fields(fields, run_atom_bytes(), (lut_cfg.le, lut_cfg.lo), configs.load().precisions,
                                configs.load().cdp_int8_lut)
    _check_placement(cfg)
    order = _CDP_ORDER + (("D_NAN_FLUSH_TO_ZERO",) if precision == "FP16" else ())
    writes = lut_unit_writes("CDP", fields, group, rdma_order=_RDMA_ORDER, unit_order=order,
                             lut_order=_LUT_ORDER, lut=lut_cfg if load_lut else None)
    return CdpProgram(group, fields, cfg, tuple(writes))
