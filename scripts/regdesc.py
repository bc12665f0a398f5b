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
  trigger   "RW-trigger" outside the LUT registers (BDMA's CFG_OP.EN, CFG_LAUNCH0/1): stored and read back
            like rw, and the cfg bundle also carries `<FIELD>_TRIGGER` (key "REG.FIELD@TRIGGER"), high in the
            cycle the register is written whatever the value, as NVIDIA's register generator's _trigger
            outputs: the unit decides what the written value means (BDMA: a command push, a group launch)
  live      "RO" field of an S_ register of a unit without register groups (BDMA's STATUS*): no flop, the
            read returns the unit's `stat` bundle as it is this cycle (the unit holds the value)

Bundles (in the spirit of OpenTitan's reg2hw/hw2reg): per unit one configuration vector `cfg` holding every
rw field (S_ fields and the CONSUMER group's D_ fields) and one statistics vector `stat` holding every stat
field, packed in description order from bit 0. Each field's slice has a generated name, `<UNIT>_<FIELD>`
(`<UNIT>_<REG>_<FIELD>` for a field name the unit repeats; parse() checks the names are unique), so RTL
writes cfg[`PDP_KERNEL_WIDTH] and Python reads BUNDLES["PDP"]["cfg"]["D_POOLING_KERNEL_CFG.KERNEL_WIDTH"]
(models/registers.py). A unit without
register groups has bundles too when all its fields are plain (rw, trigger, live, const: BDMA); GLB, whose
w1s/w1c registers are pulses and set inputs, has none: its registers reach hardware as 32-bit images, bits
where software sees them (reserved bits 0).

Sub-bundles: a group of cfg fields that a shared block takes as one packed vector (LUT_CFG: nvdla_lut's
configuration, the same layout for CDP and SDP; DMA_SURF: one DMA side's base and strides, the same for
CDP_RDMA's source and CDP's destination; X_CFG: one SDP X block, BS and BN). The description's top-level
"sub_bundles" defines each one:
"members" in packing order from bit 0 and optionally "param": {"name", "members"}, the members whose width
is a parameter of the consumer (LUT_CFG's BOUND_W: START/END, 38 bits in CDP, 32 in SDP), listed last so
every other member has a fixed position. A unit's "sub_bundles" maps each member to a cfg field
"REG.FIELD" or a list of them concatenated msb first (CDP's {HIGH, LOW}); a unit holding the group twice
names each copy, "X_CFG@BS" and "X_CFG@BN" (SDP's BS and BN X blocks: `SDP_X_CFG_BS(cfg)). parse()
checks that every member is mapped to existing rw fields, that fixed members have the same
width in every unit and that a unit's param members share one width (the unit's parameter value).
SubBundle.layout(w) is the one packing rule: the generators turn it into rtl/gen/nvdla_<sub>.vh
(`LUT_CFG_LE_FUNCTION, `LUT_CFG_LE_START(w), `LUT_CFG_W(w); `DMA_SURF_W without a parameter), per unit
`<UNIT>_<SUB>_<PARAM> and `<UNIT>_<SUB>(cfg) (the sub-vector assembled from the unit's cfg) and
models/registers.py BUNDLES[unit][sub] ("MEMBER" -> (msb, lsb) at the unit's parameter value).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

WINDOW_WORDS = 1024  # every unit owns a 4 KiB CSB window
CSB_SPACE = 0x40000  # NVDLA's CSB byte space: 64 windows (the csb master compares address bits [17:12])
DEFAULT_MAP = "nv_small"  # the CSB map of NVIDIA's master branch: the units' base
LUT_LAST = {0: 64, 1: 256}  # last entry per LUT_TABLE_ID: LE has 65 entries, LO 257
LUT_WRITE = 1  # LUT_ACCESS_TYPE enum value WRITE (READ = 0); parse() checks it against the description
LUT_POINTERS = ("saturate", "wrap")
SPECIAL_REGS = ("S_STATUS", "S_POINTER", "D_OP_ENABLE")
WRITABLE = ("rw", "producer", "op_en", "w1s", "w1c", "lut_ptr", "lut_data", "trigger")
STORED = ("rw", "trigger")  # kinds whose value is a flop in the cfg bundle
TRIGGER = "_TRIGGER"  # the macro suffix of a trigger field's write pulse in cfg; its key ends in "@TRIGGER"


@dataclass(frozen=True)
class Field:
    reg: str
    name: str
    msb: int
    lsb: int
    reset: int
    kind: str  # rw const stat status producer consumer op_en w1s w1c lut_ptr lut_data trigger live

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
LUT_PORT = "LUT_ACCESS"  # the port's slices: macro <UNIT>_LUT_ACCESS_<SIGNAL>, key "LUT_ACCESS.<SIGNAL>"
LUT_ACCESS_CFG = (("ADDR", 10), ("WDATA", 16), ("WE", 1), ("RE", 1), ("NEXT", 10))
LUT_ACCESS_STAT = (("RDATA", 16),)


@dataclass(frozen=True)
class SubBundle:
    """A packed vector of members shared by units; members of width None take the parameter's width."""
    name: str
    param: str
    members: tuple[tuple[str, int | None], ...]
    desc: str = ""

    @property
    def fixed_w(self) -> int:
        return sum(w for _m, w in self.members if w is not None)

    def layout(self, param: int) -> tuple[Slice, ...]:
        return _pack([(m, m, param if w is None else w, None) for m, w in self.members])

    def position(self, member: str) -> str:
        """The member's slice as Verilog: msb:lsb, or for a param member a part-select in the parameter w
        (param members come last, so layout(0) places every fixed member)."""
        params = [m for m, w in self.members if w is None]
        if member in params:
            return f"({self.fixed_w} + {params.index(member)}*(w)) +: (w)"
        s = next(s for s in self.layout(0) if s.name == member)
        return f"{s.msb}:{s.lsb}"

    def width_expr(self) -> str:
        params = sum(1 for _m, w in self.members if w is None)
        return f"({self.fixed_w} + {params}*(w))" if params else str(self.fixed_w)


@dataclass(frozen=True)
class UnitSub:
    """A unit's mapping of a sub-bundle: member -> its cfg fields, msb first. A unit that holds the group
    more than once (SDP's BS and BN X blocks) names each copy: "X_CFG@BS" -> instance "BS"."""
    bundle: SubBundle
    sources: tuple[tuple[str, tuple[Field, ...]], ...]
    instance: str = ""

    @property
    def tag(self) -> str:
        """The macro suffix: `<UNIT>_<tag>(cfg)`, e.g. SDP_X_CFG_BS."""
        return f"{self.bundle.name}_{self.instance}" if self.instance else self.bundle.name

    @property
    def key(self) -> str:
        """The description's and BUNDLES' name of this copy: "X_CFG@BS", or the bundle's name."""
        return f"{self.bundle.name}@{self.instance}" if self.instance else self.bundle.name

    @property
    def param(self) -> int:
        """The unit's value of the bundle's width parameter (its param members' common width), 0 without."""
        widths = dict(self.bundle.members)
        return next((sum(f.width for f in fs) for m, fs in self.sources if widths[m] is None), 0)

    def layout(self) -> tuple[Slice, ...]:
        return self.bundle.layout(self.param)


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
    subs: tuple[UnitSub, ...] = ()

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

    def _layout(self, kinds: tuple[str, ...], port: tuple[tuple[str, int], ...]) -> tuple[Slice, ...]:
        items = [(self.slice_name(f), f.key, f.width, f) for f in self.fields(*kinds)]
        # write pulses after every field, so adding a trigger moves no field of a unit without one
        items += [(self.slice_name(f) + TRIGGER, f.key + "@TRIGGER", 1, None)
                  for f in self.fields("trigger") if "trigger" in kinds]
        if self.lut:
            items += [(f"{LUT_PORT}_{sig}", f"{LUT_PORT}.{sig}", width, None) for sig, width in port]
        return _pack(items)

    def slice_name(self, f: Field) -> str:
        """A field's bundle name: the field's, or REG_FIELD where the unit repeats the field's name (BDMA's
        V32, STRIDE, NUMBER, COUNT: `BDMA_CFG_SRC_LINE_STRIDE)."""
        repeated = sum(1 for g in self.fields(*STORED, "stat", "live") if g.name == f.name) > 1
        return f"{f.reg}_{f.name}" if repeated else f.name

    @property
    def bundled(self) -> bool:
        """The unit has cfg/stat bundles: grouped, or every field plain (not GLB's w1s/w1c images)."""
        return self.grouped or not self.fields("w1s", "w1c")

    @property
    def cfg(self) -> tuple[Slice, ...]:
        # GLB shows its registers as 32-bit images instead
        return self._layout(STORED, LUT_ACCESS_CFG) if self.bundled else ()

    def images(self) -> list[Reg]:
        """Registers of an unbundled unit that hardware sees whole (bit positions as software sees them)."""
        if self.bundled:
            return []
        return [r for r in self.regs if any(f.kind in ("rw", "w1s", "w1c") for f in r.fields)]

    @property
    def stat(self) -> tuple[Slice, ...]:
        return self._layout(("stat", "live"), LUT_ACCESS_STAT) if self.bundled else ()

    def trigger_reg(self, s: Slice) -> Reg | None:
        """The register whose write a cfg slice pulses on, None for any other slice."""
        reg, _dot, rest = s.key.partition(".")
        return self.reg(reg) if s.field is None and rest.endswith("@TRIGGER") else None

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
    if access == "RW-trigger":
        return "trigger"
    if access == "RO" and reg["group"] == "single" and not reg.get("stat"):
        return "live"
    raise ValueError(f"{unit['name']}.{name}.{field['name']}: no RTL for access {access!r}")


# a sub-bundle definition: param name, members, param members, desc
_Def = tuple[str, list[str], list[str], str]


def _sub_bundles(rm: dict[str, Any]) -> dict[str, _Def]:
    """The top-level definitions: name -> (param name, members, param members); checked for shape."""
    out = {}
    for name, d in rm.get("sub_bundles", {}).items():
        members, param = list(d["members"]), d.get("param", {"name": "", "members": []})
        pm = list(param["members"])
        if len(set(members)) != len(members) or not set(pm) <= set(members):
            raise ValueError(f"sub_bundles.{name}: members must be unique and hold the param members {pm}")
        if members[len(members) - len(pm):] != pm:
            raise ValueError(f"sub_bundles.{name}: the param members {pm} must be the last members, in order")
        if "W" in members:
            raise ValueError(f"sub_bundles.{name}: no member may be called W (`{name}_W(w) is the width)")
        out[name] = (param["name"], members, pm, d.get("desc", ""))
    return out


def _unit_subs(u: dict[str, Any], regs: list[Reg], defs: dict[str, _Def]
               ) -> list[tuple[str, dict[str, tuple[Field, ...]]]]:
    """A unit's "sub_bundles": member -> its rw fields, msb first (an unknown name is an error)."""
    fields = {f.key: f for r in regs for f in r.fields}
    out = []
    for key, mapping in u.get("sub_bundles", {}).items():
        where = f"{u['name']}.sub_bundles.{key}"
        name, _at, instance = key.partition("@")
        if _at and not re.fullmatch(r"[A-Z][A-Z0-9_]*", instance):
            raise ValueError(f"{where}: the copy's name after @ must be an upper-case identifier")
        if name not in defs:
            raise ValueError(f"{where}: no top-level sub_bundles.{name} (known: {sorted(defs)})")
        members = defs[name][1]
        if set(mapping) != set(members):
            raise ValueError(f"{where}: unknown members {sorted(set(mapping) - set(members))}, "
                             f"missing members {sorted(set(members) - set(mapping))}")
        sources = {}
        for m in members:
            keys = [mapping[m]] if isinstance(mapping[m], str) else list(mapping[m])
            for k in keys:
                if k not in fields:
                    raise ValueError(f"{where}.{m}: {u['name']} has no field {k!r}")
                if fields[k].kind != "rw":
                    raise ValueError(f"{where}.{m}: {k} is {fields[k].kind}, not an rw (cfg) field")
            sources[m] = tuple(fields[k] for k in keys)
        out.append((key, sources))
    return out


def _resolve(defs: dict[str, _Def],
             raw: list[tuple[str, list[tuple[str, dict[str, tuple[Field, ...]]]]]]) -> dict[str, SubBundle]:
    """Fixed member widths from the units' fields; they must agree in every unit, param members per unit."""
    widths: dict[str, dict[str, int]] = {n: {} for n in defs}
    first: dict[str, dict[str, str]] = {n: {} for n in defs}  # the unit that set each width
    for unit, subs in raw:
        for key, sources in subs:
            name = key.partition("@")[0]
            pm = defs[name][2]
            pw = {sum(f.width for f in sources[m]) for m in pm}
            if len(pw) > 1:
                raise ValueError(f"{unit}.sub_bundles.{name}: the param members {pm} differ in width "
                                 f"{sorted(pw)}")
            for m, fs in sources.items():
                w = sum(f.width for f in fs)
                if m in pm:
                    continue
                first[name].setdefault(m, unit)
                if widths[name].setdefault(m, w) != w:
                    raise ValueError(f"{unit}.sub_bundles.{name}.{m}: {w} bits, {first[name][m]}'s is "
                                     f"{widths[name][m]} (a fixed member has one width)")
    out = {}
    for name, (param, members, pm, desc) in defs.items():
        if any(m not in widths[name] for m in members if m not in pm):
            raise ValueError(f"sub_bundles.{name}: no unit maps it")
        sized = tuple((m, None if m in pm else widths[name][m]) for m in members)
        out[name] = SubBundle(name, param, sized, desc)
    return out


def csb_maps(rm: dict[str, Any]) -> dict[str, dict[str, int]]:
    """The description's CSB maps (map -> unit -> byte base), checked: whole windows inside NVDLA's CSB space,
    no two units in one window, every described unit placed in every map (a map may also place units this
    subsystem lacks, so a trace writing them can be named)."""
    maps = {k: v for k, v in rm.get("csb_maps", {}).items() if k != "desc"}
    if DEFAULT_MAP not in maps:
        raise ValueError(f"csb_maps: the default map {DEFAULT_MAP!r} is missing")
    described = [u["name"] for u in rm["units"]]
    for name, bases in maps.items():
        for unit, base in bases.items():
            if not isinstance(base, int) or base % (WINDOW_WORDS * 4) or not 0 <= base < CSB_SPACE:
                raise ValueError(f"csb_maps.{name}.{unit}: {base!r}: not a 4 KiB window below {CSB_SPACE:#x}")
        if len(set(bases.values())) != len(bases):
            raise ValueError(f"csb_maps.{name}: two units share a window")
        missing = [u for u in described if u not in bases]
        if missing:
            raise ValueError(f"csb_maps.{name}: no window for {missing}")
    return maps


def parse(rm: dict[str, Any]) -> list[Unit]:
    bases = csb_maps(rm)[DEFAULT_MAP]
    delay = rm.get("op_en_delay")
    if not isinstance(delay, int) or delay < 1:
        raise ValueError(f"op_en_delay must be a positive number of cycles, not {delay!r}")
    defs = _sub_bundles(rm)
    raw = []
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
        rdma = u.get("rdma")
        if rdma is not None and not any(o["name"] == rdma for o in rm["units"]):
            raise ValueError(f"{u['name']}: rdma names no unit of the description: {rdma!r}")
        unit = Unit(u["name"], bases[u["name"]], tuple(regs), lut)
        _check(unit)
        units.append(unit)
        raw.append((unit.name, _unit_subs(u, regs, defs)))
    bundles = _resolve(defs, raw)
    out = []
    for unit, (_name, subs) in zip(units, raw, strict=True):
        usubs = tuple(UnitSub(bundles[k.partition("@")[0]],
                              tuple((m, src[m]) for m, _w in bundles[k.partition("@")[0]].members),
                              k.partition("@")[2]) for k, src in subs)
        out.append(Unit(unit.name, unit.base, unit.regs, unit.lut, usubs))
        _check_subs(out[-1], set(defs))
    return out


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
        if any(f.kind in ("live", "trigger") for f in r.fields) and unit.grouped:
            raise ValueError(f"{unit.name}.{r.name}: trigger and live fields belong to units without groups")
    if unit.lut and {"S_LUT_ACCESS_CFG", "S_LUT_ACCESS_DATA"} - names:
        raise ValueError(f"{unit.name}: LUT access needs S_LUT_ACCESS_CFG and S_LUT_ACCESS_DATA")
    seen: dict[str, str] = {}
    for s in unit.slices():
        macro = unit.macro(s)
        if macro in seen:
            raise ValueError(f"{unit.name}: {seen[macro]} and {s.key} share the bundle name {macro}")
        seen[macro] = s.key


def _check_subs(unit: Unit, names: set[str]) -> None:
    if unit.name in names:
        raise ValueError(f"{unit.name}: a unit and a sub-bundle share the name (macro prefixes would clash)")
    if unit.subs and not unit.grouped:
        raise ValueError(f"{unit.name}: sub-bundles are slices of cfg, which a unit without groups lacks")
    slices = {s.name for s in unit.slices()}
    for sub in unit.subs:
        b = sub.bundle
        clash = {sub.tag, f"{sub.tag}_{b.param}" if b.param else sub.tag} & slices
        if clash:
            raise ValueError(f"{unit.name}: the sub-bundle macros {sorted(clash)} clash with bundle slices")
