"""The register description (regmap/nvdla_regs.json) parsed for the generators, with the bundle layout.

Field kinds (what the RTL block does with a field):
  rw        flops with the description's reset; D_ fields have one copy per group
  const     RO-const: the reset value, no flop
  stat      RO statistic of a D_ register: one latched copy per group ("stat": "latch" in the description:
            latched when the group's OP_EN falls, cleared when software sets OP_EN) or ("stat": "hold") loaded
            at the end of every layer into the group that ran it and never cleared, as NVDLA's DMA and CDP
            datapath holding registers do
  status / producer / consumer / op_en   S_STATUS, S_POINTER, D_OP_ENABLE (rtl/regs/nvdla_reg_groups.v)
  w1s / w1c GLB's write-1-to-set pulses and write-1-to-clear status
  lut_ptr / lut_data   the LUT access registers of a unit with "lut_pointer" (saturate: CDP, wrap: SDP)

Bundles (in the spirit of OpenTitan's reg2hw/hw2reg): per unit one configuration vector `cfg` holding every
rw field (S_ fields and the CONSUMER group's D_ fields) and one statistics vector `stat` holding every stat
field, packed in description order from bit 0. Each field's slice has a generated name, `<UNIT>_<FIELD>`
(field names are unique within a unit; parse() checks it), so RTL writes cfg[`PDP_KERNEL_WIDTH] and Python
reads BUNDLES["PDP"]["cfg"]["D_POOLING_KERNEL_CFG.KERNEL_WIDTH"] (models/registers.py). A unit without
register groups (GLB) has no bundles: its registers reach hardware as 32-bit images, bits where software
sees them (reserved bits 0).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

WINDOW_WORDS = 1024  # every unit owns a 4 KiB CSB window
LUT_LAST = {0: 64, 1: 256}  # last entry per LUT_TABLE_ID: LE has 65 entries, LO 257
LUT_WRITE = 1  # LUT_ACCESS_TYPE enum value WRITE (READ = 0); parse() checks it against the description
LUT_POINTERS = ("saturate", "wrap")
SPECIAL_REGS = ("S_STATUS", "S_POINTER", "D_OP_ENABLE")
WRITABLE = ("rw", "producer", "op_en", "w1s", "w1c", "lut_ptr", "lut_data")


@dataclass(frozen=True)
class Field:
    reg: str
    name: str
    msb: int
    lsb: int
    reset: int
    kind: str  # rw const stat status producer consumer op_en w1s w1c lut_ptr lut_data

    @property
    def width(self) -> int:
        return self.msb - self.lsb + 1

    @property
    def port(self) -> str:
        return f"{self.reg}_{self.name}".lower()

    @property
    def key(self) -> str:
        return f"{self.reg}.{self.name}"

    def decl(self) -> str:
        return "" if self.width == 1 else f"[{self.width - 1}:0] "

    def wbits(self) -> str:
        return f"reg_wdata[{self.msb}]" if self.width == 1 else f"reg_wdata[{self.msb}:{self.lsb}]"

    def literal(self, value: int) -> str:
        return f"{self.width}'h{value:x}"


@dataclass(frozen=True)
class Reg:
    name: str
    word: int
    dual: bool
    fields: tuple[Field, ...]
    hold: bool  # statistic register of the holding (DMA) style

    @property
    def hit(self) -> str:
        return f"hit_{self.name.lower()}"


@dataclass(frozen=True)
class Slice:
    """One place in a bundle: a register field, or one signal of the LUT access port (field None)."""
    name: str  # the macro is <UNIT>_<name>
    key: str  # "REG.FIELD", or "LUT_ACCESS.<SIGNAL>" for the access port
    width: int
    lsb: int
    field: Field | None = None

    @property
    def msb(self) -> int:
        return self.lsb + self.width - 1

    def verilog(self, vector: str) -> str:
        return f"{vector}[{self.msb}]" if self.width == 1 else f"{vector}[{self.msb}:{self.lsb}]"


# The LUT access registers as an external register (OpenTitan's hwext: q/qe/re out, d in). cfg carries the
# pointer, the written word and the strobes (WE: a DATA write that stores, RE: a DATA read that reads the
# LUT), stat the word the LUT answers for [LUT_TABLE_ID][ADDR] in the same cycle.
LUT_ACCESS_CFG = (("ADDR", 10), ("WDATA", 16), ("WE", 1), ("RE", 1))
LUT_ACCESS_STAT = (("RDATA", 16),)


def _pack(items: list[tuple[str, str, int, Field | None]]) -> tuple[Slice, ...]:
    out, bit = [], 0
    for name, key, width, field in items:
        out.append(Slice(name, key, width, bit, field))
        bit += width
    return tuple(out)


@dataclass(frozen=True)
class Unit:
    name: str
    base: int
    regs: tuple[Reg, ...]
    lut: str | None  # LUT pointer style, None without a LUT

    @property
    def module(self) -> str:
        return f"nvdla_{self.name.lower()}_regs"

    @property
    def grouped(self) -> bool:
        return any(r.dual for r in self.regs)

    @property
    def first_d(self) -> int:
        return min(r.word for r in self.regs if r.dual)

    def fields(self, *kinds: str) -> list[Field]:
        return [f for r in self.regs for f in r.fields if f.kind in kinds]

    def reg(self, name: str) -> Reg:
        return next(r for r in self.regs if r.name == name)

    def find(self, reg: str, field: str) -> Field:
        return next(f for f in self.reg(reg).fields if f.name == field)

    def macro(self, s: Slice) -> str:
        return f"{self.name}_{s.name}"

    def _layout(self, kind: str, port: tuple[tuple[str, int], ...]) -> tuple[Slice, ...]:
        items = [(f.name, f.key, f.width, f) for f in self.fields(kind)]
        if self.lut:
            items += [(f"LUT_ACCESS_{sig}", f"LUT_ACCESS.{sig}", width, None) for sig, width in port]
        return _pack(items)

    @property
    def cfg(self) -> tuple[Slice, ...]:
        # a unit without register groups (GLB) shows its registers as 32-bit images instead
        return self._layout("rw", LUT_ACCESS_CFG) if self.grouped else ()

    def images(self) -> list[Reg]:
        """Registers of an ungrouped unit that hardware sees whole (bit positions as software sees them)."""
        if self.grouped:
            return []
        return [r for r in self.regs if any(f.kind in ("rw", "w1s", "w1c") for f in r.fields)]

    @property
    def stat(self) -> tuple[Slice, ...]:
        return self._layout("stat", LUT_ACCESS_STAT)

    @staticmethod
    def width(layout: tuple[Slice, ...]) -> int:
        return layout[-1].msb + 1 if layout else 0

    def slices(self) -> Iterator[Slice]:
        yield from self.cfg
        yield from self.stat


def _kind(unit: dict[str, Any], reg: dict[str, Any], field: dict[str, Any]) -> str:
    access, name = field["access"], reg["name"]
    if name == "S_STATUS":
        return "status"
    if name == "S_POINTER":
        return "producer" if field["name"] == "PRODUCER" else "consumer"
    if name == "D_OP_ENABLE":
        return "op_en"
    kinds = {"RW": "rw", "RO-const": "const", "W1S/WO": "w1s", "W1C": "w1c"}
    if access in kinds:
        return kinds[access]
    if access == "RO" and reg.get("stat") and reg["group"] == "dual":
        return "stat"
    if field["name"] == "LUT_ACCESS_TYPE" and field.get("enum", {}).get("WRITE") != LUT_WRITE:
        raise ValueError(f"{unit['name']}.{name}: LUT_ACCESS_TYPE WRITE is not {LUT_WRITE}")
    if access == "RW-trigger" and unit.get("lut_pointer"):
        return "lut_ptr" if field["name"] == "LUT_ADDR" else "lut_data"
    raise ValueError(f"{unit['name']}.{name}.{field['name']}: no RTL for access {access!r}")


def parse(rm: dict[str, Any]) -> list[Unit]:
    units = []
    for u in rm["units"]:
        regs = []
        for r in u["registers"]:
            if r.get("stat") not in (None, "hold", "latch"):
                raise ValueError(f"{u['name']}.{r['name']}: stat must be hold or latch, not {r['stat']!r}")
            fields = tuple(Field(r["name"], f["name"], f["msb"], f["lsb"], f["reset"], _kind(u, r, f))
                           for f in r["fields"])
            hold = r.get("stat") == "hold"
            regs.append(Reg(r["name"], r["offset"] // 4, r["group"] == "dual", fields, hold))
        lut = u.get("lut_pointer")
        if lut not in (None, *LUT_POINTERS):
            raise ValueError(f"{u['name']}: lut_pointer must be one of {LUT_POINTERS}, not {lut!r}")
        unit = Unit(u["name"], u["base"], tuple(regs), lut)
        _check(unit)
        units.append(unit)
    return units


def _check(unit: Unit) -> None:
    """The layout rules the generated decode and the bundle names rely on."""
    names = {r.name for r in unit.regs}
    if unit.grouped:
        missing = [n for n in SPECIAL_REGS if n not in names]
        if missing:
            raise ValueError(f"{unit.name}: register groups need {missing}")
        if unit.reg("D_OP_ENABLE").word != unit.first_d:
            raise ValueError(f"{unit.name}: D_OP_ENABLE must be the first D_ register")
        if any(not r.dual and r.word >= unit.first_d for r in unit.regs):
            raise ValueError(f"{unit.name}: an S_ register lies above D_OP_ENABLE")
    for r in unit.regs:
        if not 0 <= r.word < WINDOW_WORDS:
            raise ValueError(f"{unit.name}.{r.name}: offset outside the 4 KiB window")
        if any(f.kind == "stat" for f in r.fields) and not r.dual:
            raise ValueError(f"{unit.name}.{r.name}: a statistic must be a D_ register")
    if unit.lut and {"S_LUT_ACCESS_CFG", "S_LUT_ACCESS_DATA"} - names:
        raise ValueError(f"{unit.name}: LUT access needs S_LUT_ACCESS_CFG and S_LUT_ACCESS_DATA")
    seen: dict[str, str] = {}
    for s in unit.slices():
        macro = unit.macro(s)
        if macro in seen:
            raise ValueError(f"{unit.name}: {seen[macro]} and {s.key} share the bundle name {macro}")
        seen[macro] = s.key
