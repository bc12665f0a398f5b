"""What the PDP, CDP and SDP drivers (models/{pdp,cdp,sdp}/driver.py) share: where a cube lives, field checks,
placement checks, and the register writes in NVIDIA's KMD order."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from models import registers
from models.common.cube import CubeLayout, run_atom_bytes  # the drivers program the run's configuration
from models.errors import ConfigError
from models.lut.model import LutConfig
from models.lut.regs import lut_writes
from models.steps import RegWrite

__all__ = ["ADDRESS_SPACE", "run_atom_bytes", "RAM_TYPE_MC", "RegWrite", "Surface", "check_fits",
           "check_placement", "lut_unit_writes", "program_fields"]

ADDRESS_SPACE = 1 << 32
RAM_TYPE_MC = 1          # D_*_RAM_CFG: external memory (the traces' value)


@dataclass(frozen=True)
class Surface:
    """Where a cube lives (models/common/cube.py gives the layout): base address and strides in bytes."""

    base: int
    line_stride: int
    surface_stride: int
    ram_mc: bool = True   # the memory (RAM_TYPE): MC, the primary memory, or (False) CV, the CV SRAM

    def layout(self, width: int, height: int, channels: int, elem_bytes: int = 1) -> CubeLayout:
        return CubeLayout(self.base, self.line_stride, self.surface_stride, width, height, channels,
                          run_atom_bytes(), elem_bytes)


def check_fits(unit: str, fields: Mapping[str, int]) -> None:
    """Every field value fits its register field (ConfigError naming the field otherwise)."""
    regs = registers.registers(unit)
    for key, value in fields.items():
        name, fname = key.split(".", 1)
        msb, lsb, _access = regs[name]["fields"][fname]
        width = msb - lsb + 1
        if not 0 <= value < (1 << width):
            raise ConfigError(f"{unit} driver: {key} does not fit its {width}-bit register field",
                              {key: value})


def check_placement(unit: str, cubes: Mapping[str, CubeLayout]) -> None:
    """Every cube inside the 32-bit address space; the destination ("DST", when there is one) overlapping
    no cube the layer reads (the units read and write at the same time: an in-place layer would read its
    own output)."""
    spans = {side: cube.extent() for side, cube in cubes.items()}
    for side, (lo, hi) in spans.items():
        if hi > ADDRESS_SPACE:
            raise ConfigError(f"{unit} driver: the {side} cube must lie inside the 32-bit address space",
                              {f"{side}_BASE_ADDR": lo, "end": hi})
    if "DST" not in spans:
        return
    d_lo, d_hi = spans["DST"]
    for side, (lo, hi) in spans.items():
        if side != "DST" and lo < d_hi and d_lo < hi:
            raise ConfigError(f"{unit} driver: the destination must not overlap the {side} cube",
                              {side: lo, f"{side}_end": hi, "DST": d_lo, "DST_end": d_hi})


def lut_unit_writes(unit: str, fields: Mapping[str, Mapping[str, int]], group: int, *,
                    rdma_order: Sequence[str], unit_order: Sequence[str], lut_order: Sequence[str],
                    lut: LutConfig | None) -> list[RegWrite]:
    """The writes of a CDP or SDP layer in NVIDIA's KMD order: both producer pointers, the `<unit>_RDMA`
    group, the LUT (tables through the access port, then the S_LUT_* registers in `lut_order`; left out when
    `lut` is None), the unit's group, then D_OP_ENABLE of the RDMA and of the unit."""
    rdma_unit = f"{unit}_RDMA"
    main = registers.encode_fields(unit, fields[unit])
    rdma = registers.encode_fields(rdma_unit, fields[rdma_unit])
    writes = [RegWrite(unit, "S_POINTER", group), RegWrite(rdma_unit, "S_POINTER", group)]
    writes += [RegWrite(rdma_unit, name, rdma[name]) for name in rdma_order]
    if lut is not None:
        writes += lut_writes(lut)
        writes += [RegWrite(unit, name, main[name]) for name in lut_order]
    writes += [RegWrite(unit, name, main[name]) for name in unit_order]
    writes += [RegWrite(rdma_unit, "D_OP_ENABLE", 1), RegWrite(unit, "D_OP_ENABLE", 1)]
    return writes


def surface_registers(side: str, surface: Surface) -> dict[str, int]:
    """A cube's address fields (the inverse of models/common/cube.py surface_fields): D_<SIDE>_BASE_ADDR_LOW
    and _HIGH (0: 32-bit addresses), D_<SIDE>_LINE_STRIDE and D_<SIDE>_SURFACE_STRIDE."""
    reg = side.upper()
    return {f"D_{reg}_BASE_ADDR_LOW.{reg}_BASE_ADDR_LOW": surface.base,
            f"D_{reg}_BASE_ADDR_HIGH.{reg}_BASE_ADDR_HIGH": 0,
            f"D_{reg}_LINE_STRIDE.{reg}_LINE_STRIDE": surface.line_stride,
            f"D_{reg}_SURFACE_STRIDE.{reg}_SURFACE_STRIDE": surface.surface_stride}


def program_fields(writes: Sequence[RegWrite]) -> dict[str, dict[str, int]]:
    """The fields a write sequence leaves in the group it programs (for checks against the model)."""
    values: dict[str, dict[str, int]] = {}
    for unit, reg, value in writes:
        if registers.registers(unit)[reg]["group"] == "dual" and reg != "D_OP_ENABLE":
            values.setdefault(unit, {})[reg] = value
    return {unit: registers.decode_fields(unit, regs) for unit, regs in values.items()}
