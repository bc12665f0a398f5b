"""BDMA driver layer: copy descriptions -> BDMA register writes, rejecting what NVDLA forbids.

A copy (`BdmaCopy`) is in bytes: source and destination, bytes per line, lines per surface, surfaces, the
four strides and the two memories (MC: the external memory; CVSRAM: the second memory). A group is 1..20
copies closed by CFG_LAUNCH<g>; a program is one or two groups submitted together. Each rule broken raises
ConfigError naming it (seed 001: "BDMA programming", its buffer-allocation table, and the Limitation
section's "Data Format" and "BDMA" rules), or naming the hardware limit it comes from:
- CFG_LINE = valid_bytes_per_line/32 - 1: a line is 1..8192 whole 32-byte units;
- alignment: addresses and strides are 32-byte multiples (BDMA's registers drop bits [4:0]);
- LINE_STRIDE at least the bytes of a line, SURF stride at least a surface's lines (buffer allocation:
  "padding included"), when there is more than one line / surface;
- nvdlav1 RTL: the store side carries 13 bits of LINE_REPEAT and SURF_REPEAT (NV_NVDLA_BDMA_store.v
  ld2st_wr_pd[120:108], [160:148]) while the load side counts 24, so 8192 or more lines or surfaces copy
  wrongly on NVIDIA's hardware;
- this subsystem: 32-bit AXI addresses (ADDR_HIGH 0, the copy below 4 GiB); source and destination do not
  overlap (a line's read and an earlier line's write are in flight together);
- "There're totally 20 slots thus we can support 20 BDMA operations in one group as maximum", and a group
  ends with its last operation, so it holds at least one;
- "All operations in one BDMA HWL should has the same destination memory type (DST_RAM_TYPE)";
- "When both group0 and group1 are both busy, no more command is allowed even if there are free slot": a
  program launches at most two groups, one of each, and their operations share the 20 slots.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from models import registers
from models.bdma.model import ADDR_SHIFT, LAUNCH, LINE_UNIT, QUEUE_DEPTH, RAM_CVSRAM, RAM_MC, UNIT
from models.common.driver import ADDRESS_SPACE, check_fits
from models.errors import ConfigError
from models.steps import RegWrite

RAM_TYPES = {"MC": RAM_MC, "CVSRAM": RAM_CVSRAM}
MAX_LINE_UNITS = 1 << 13  # CFG_LINE.SIZE is 13 bits
NV_STORE_REPEAT = 1 << 13  # NVIDIA's store side: 13-bit repeat counts
# NVIDIA's trace order (traceplayer sanity1/2): strides, repeats, line, command, addresses, then CFG_OP
WRITE_ORDER = ("CFG_DST_SURF", "CFG_DST_LINE", "CFG_SRC_SURF", "CFG_SRC_LINE", "CFG_SURF_REPEAT",
               "CFG_LINE_REPEAT", "CFG_LINE", "CFG_CMD", "CFG_SRC_ADDR_HIGH", "CFG_SRC_ADDR_LOW",
               "CFG_DST_ADDR_HIGH", "CFG_DST_ADDR_LOW")


def _ram(value: str | int) -> int:
    if isinstance(value, str):
        if value.upper() not in RAM_TYPES:
            raise ConfigError("BDMA driver: a RAM type is MC or CVSRAM", {"ram_type": value})
        return RAM_TYPES[value.upper()]
    if value not in (RAM_MC, RAM_CVSRAM):
        raise ConfigError("BDMA driver: a RAM type is MC (1) or CVSRAM (0)", {"ram_type": value})
    return value


@dataclass(frozen=True)
class BdmaCopy:
    """One BDMA operation in bytes. Strides left at None pack the cube (line stride = line bytes, surface
    stride = lines * line stride)."""

    src: int
    dst: int
    line_bytes: int
    lines: int = 1
    surfaces: int = 1
    src_line: int | None = None
    dst_line: int | None = None
    src_surf: int | None = None
    dst_surf: int | None = None
    src_ram: str | int = "MC"
    dst_ram: str | int = "MC"

    def strides(self) -> tuple[int, int, int, int]:
        """(src line, dst line, src surface, dst surface) in bytes, packed where not given."""
        sl = self.line_bytes if self.src_line is None else self.src_line
        dl = self.line_bytes if self.dst_line is None else self.dst_line
        ss = self.lines * sl if self.src_surf is None else self.src_surf
        ds = self.lines * dl if self.dst_surf is None else self.dst_surf
        return sl, dl, ss, ds

    def span(self, side: str) -> tuple[int, int]:
        """[first byte, end) of the source or destination footprint (its lines' bounding range)."""
        sl, dl, ss, ds = self.strides()
        base, line, surf = (self.src, sl, ss) if side == "SRC" else (self.dst, dl, ds)
        return base, base + (self.surfaces - 1) * surf + (self.lines - 1) * line + self.line_bytes


def check_copy(c: BdmaCopy) -> None:
    """Every rule one operation must keep (ConfigError naming the rule otherwise)."""
    if c.line_bytes % LINE_UNIT or not LINE_UNIT <= c.line_bytes <= MAX_LINE_UNITS * LINE_UNIT:
        raise ConfigError("BDMA: CFG_LINE = valid_bytes_per_line/32-1: a line is 1..8192 whole 32-byte units",
                          {"line_bytes": c.line_bytes})
    if c.lines < 1 or c.surfaces < 1:
        raise ConfigError("BDMA driver: a copy has at least one line and one surface",
                          {"lines": c.lines, "surfaces": c.surfaces})
    if c.lines > NV_STORE_REPEAT or c.surfaces > NV_STORE_REPEAT:
        raise ConfigError("nvdlav1 RTL: BDMA's store side keeps 13 bits of LINE_REPEAT and SURF_REPEAT "
                          "(at most 8192 lines and 8192 surfaces copy right)",
                          {"lines": c.lines, "surfaces": c.surfaces})
    sl, dl, ss, ds = c.strides()
    named = {"src": c.src, "dst": c.dst, "src_line": sl, "dst_line": dl, "src_surf": ss, "dst_surf": ds}
    for name, value in named.items():
        if value < 0 or value % LINE_UNIT:
            raise ConfigError("Limitation, Data Format: the alignment for address/line_stride/surf_stride "
                              "should be satisfied (BDMA: 32 bytes, its registers drop bits [4:0])",
                              {name: value})
    if c.lines > 1 and min(sl, dl) < c.line_bytes:
        raise ConfigError("Limitation, Data Format: LINE_STRIDE has to be at least the actual size per line",
                          {"src_line": sl, "dst_line": dl, "line_bytes": c.line_bytes})
    if c.surfaces > 1 and min(ss - (c.lines - 1) * sl, ds - (c.lines - 1) * dl) < c.line_bytes:
        raise ConfigError("BDMA buffer allocation: CFG_SRC/DST_SURF is the bytes per surface, line padding "
                          "included (a surface stride holds the surface's lines)",
                          {"src_surf": ss, "dst_surf": ds, "lines": c.lines, "src_line": sl, "dst_line": dl})
    for side in ("SRC", "DST"):
        lo, hi = c.span(side)
        if hi > ADDRESS_SPACE:
            raise ConfigError("BDMA driver: this subsystem's AXI address is 32 bits (CFG_*_ADDR_HIGH = 0, "
                              "the copy below 4 GiB)", {f"{side}_first": lo, f"{side}_end": hi})
    (s_lo, s_hi), (d_lo, d_hi) = c.span("SRC"), c.span("DST")
    if _ram(c.src_ram) == _ram(c.dst_ram) and s_lo < d_hi and d_lo < s_hi:
        raise ConfigError("BDMA driver: source and destination must not overlap (a line is read while "
                          "earlier lines are still being written)",
                          {"src": s_lo, "src_end": s_hi, "dst": d_lo, "dst_end": d_hi})


def copy_fields(c: BdmaCopy) -> dict[str, int]:
    """"REG.FIELD" -> value of one operation's CFG_ registers (checked)."""
    check_copy(c)
    sl, dl, ss, ds = c.strides()
    fields = {
        "CFG_SRC_ADDR_LOW.V32": (c.src & 0xFFFFFFFF) >> ADDR_SHIFT, "CFG_SRC_ADDR_HIGH.V8": c.src >> 32,
        "CFG_DST_ADDR_LOW.V32": (c.dst & 0xFFFFFFFF) >> ADDR_SHIFT, "CFG_DST_ADDR_HIGH.V8": c.dst >> 32,
        "CFG_LINE.SIZE": c.line_bytes // LINE_UNIT - 1,
        "CFG_CMD.SRC_RAM_TYPE": _ram(c.src_ram), "CFG_CMD.DST_RAM_TYPE": _ram(c.dst_ram),
        "CFG_LINE_REPEAT.NUMBER": c.lines - 1, "CFG_SURF_REPEAT.NUMBER": c.surfaces - 1,
        "CFG_SRC_LINE.STRIDE": sl >> ADDR_SHIFT, "CFG_DST_LINE.STRIDE": dl >> ADDR_SHIFT,
        "CFG_SRC_SURF.STRIDE": ss >> ADDR_SHIFT, "CFG_DST_SURF.STRIDE": ds >> ADDR_SHIFT,
    }
    check_fits(UNIT, fields)
    return fields


def group_writes(copies: Sequence[BdmaCopy], group: int) -> list[RegWrite]:
    """One group: each operation's CFG_ registers and CFG_OP.EN, then CFG_LAUNCH<group>.GRP<group>_LAUNCH."""
    if group not in LAUNCH:
        raise ConfigError("BDMA driver: the group is 0 or 1", {"group": group})
    if not 1 <= len(copies) <= QUEUE_DEPTH:
        raise ConfigError("BDMA: 20 slots, so 1..20 operations in one group (the last one launches it)",
                          {"operations": len(copies)})
    dst_types = {_ram(c.dst_ram) for c in copies}
    if len(dst_types) > 1:
        raise ConfigError("Limitation, BDMA: all operations in one BDMA HWL should have the same destination "
                          "memory type (DST_RAM_TYPE)", {"dst_ram_types": len(dst_types)})
    writes = []
    for c in copies:
        regs = registers.encode_fields(UNIT, copy_fields(c))
        writes += [RegWrite(UNIT, name, regs[name]) for name in WRITE_ORDER]
        writes.append(RegWrite(UNIT, "CFG_OP", 1))
    writes.append(RegWrite(UNIT, LAUNCH[group][0], 1))
    return writes


def program_writes(groups: Sequence[tuple[int, Sequence[BdmaCopy]]]) -> list[RegWrite]:
    """One or two groups submitted before waiting for their interrupts."""
    numbers = [g for g, _copies in groups]
    total = sum(len(copies) for _g, copies in groups)
    if not 1 <= len(groups) <= 2 or len(set(numbers)) != len(numbers) or total > QUEUE_DEPTH:
        raise ConfigError("Limitation, BDMA: when both group0 and group1 are busy, no more command is "
                          "allowed (at most one group of each number in flight, their operations in the 20 "
                          "slots)", {"groups": len(groups), "operations": total})
    return [w for g, copies in groups for w in group_writes(copies, g)]
