"""The register blocks of a design as the one register-file model sees them (models/regfile.py): every CSB
write mirrored, every read compared. Used by the register bench (tb/tests/test_regs.py) and the top-level
benches
(tb/env/top.py `Top`), so both score register behaviour against the same model.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from models.regfile import INTR_UNITS, Glb, RegisterFile

# Registers whose read has a side effect (moves the LUT pointer): whole-unit comparisons skip them.
SIDE_EFFECT_READS = ("S_LUT_ACCESS_DATA",)


class RegShadow:
    def __init__(self, units: Iterable[str]) -> None:
        self.glb = Glb()
        self.units: dict[str, RegisterFile] = {u: self.glb if u == "GLB" else RegisterFile(u) for u in units}

    def __getitem__(self, unit: str) -> RegisterFile:
        return self.units[unit]

    def write(self, unit: str, reg: str, value: int) -> None:
        self.units[unit].write(reg, value)

    def expect(self, unit: str, reg: str, got: int, what: str = "") -> None:
        """A read of `unit`.`reg` returned `got`: fail unless the model reads the same."""
        want = self.units[unit].read(reg)
        where = f"{unit}.{reg} {what}".rstrip()
        assert got == want, f"{where}: read {got:#010x}, the register-file model reads {want:#010x}"

    def readable(self, unit: str) -> list[str]:
        """The unit's registers a whole-unit comparison reads (no side effects)."""
        return [reg for reg in self.units[unit].regs if reg not in SIDE_EFFECT_READS]

    def done(self, unit: str, stats: Mapping[str, int]) -> None:
        """The unit's layer finished with statistics `stats` (register -> value): the GLB bit of the group
        that ran (its CONSUMER), then the unit's own state."""
        if unit in INTR_UNITS and "GLB" in self.units:
            self.glb.unit_done(unit, self.units[unit].consumer)
        self.units[unit].done(stats)
