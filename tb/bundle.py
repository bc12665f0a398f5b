"""Drive a unit's packed configuration bundle from a bench (layout: models/registers.py BUNDLES).

A bench that instantiates a unit or core without its register block sets fields by register name and writes
the whole vector at once, as the register block would present it:

    cfg = CfgBundle(dut.cfg, "PDP")
    cfg["D_POOLING_KERNEL_CFG.KERNEL_WIDTH"] = 2
    cfg.apply()
"""

from __future__ import annotations

from collections.abc import Mapping

from cocotb.handle import SimHandleBase

from models import registers as regs


class CfgBundle:
    def __init__(self, handle: SimHandleBase, unit: str, bundle: str = "cfg") -> None:
        self.handle, self.unit, self.bundle = handle, unit, bundle
        self.layout = regs.BUNDLES[unit][bundle]
        self.fields: dict[str, int] = {}

    def __setitem__(self, key: str, value: int) -> None:
        if key not in self.layout:
            raise KeyError(f"{self.unit} has no {self.bundle} field {key!r}")
        self.fields[key] = value

    def __getitem__(self, key: str) -> int:
        return self.fields.get(key, 0)

    def update(self, fields: Mapping[str, int]) -> None:
        for key, value in fields.items():
            self[key] = value

    def apply(self) -> None:
        self.handle.value = regs.pack_bundle(self.unit, self.bundle, self.fields)


# The LUT access port's slices in cfg and stat: an external register, not a field
LUT_PORT = regs.LUT_PORT


def read_stat(handle: SimHandleBase, unit: str, port: bool = False) -> dict[str, int]:
    """A unit's statistics bundle as "REG.FIELD" -> count (with port=True also the LUT port's read data)."""
    values = regs.unpack_bundle(unit, "stat", int(handle.value))
    return values if port else {k: v for k, v in values.items() if not k.startswith(LUT_PORT)}


def statistics(unit: str) -> list[str]:
    """The statistics fields of a unit's stat bundle (without the LUT port)."""
    return [k for k in regs.BUNDLES[unit]["stat"] if not k.startswith(LUT_PORT)]
