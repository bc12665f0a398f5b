"""The LUT access port of a top-level unit (CDP or SDP) over CSB, scored against models.lut.model.LutRam.

One implementation for tb/tests/test_top_cdp.py and tb/tests/test_top_sdp.py: the two ports differ only in
their unit's
registers and in the pointer (CDP saturating at a table's last entry, SDP a wrapping 10-bit address), which
LutRam models; `lut_readback` is the whole read-back test of either.
"""

from __future__ import annotations

import random
from typing import Protocol

import numpy as np

from models import configs
from models import registers as regmap
from models.lut.model import LE_ENTRIES, LO_ENTRIES, LutRam
from tb.common import scaled
from tb.stimulus.lut import random_table

HISTORY = 12        # accesses named when a read mismatches


class CsbTop(Protocol):
    """What the port needs of a top bench: register writes and reads by unit and register name."""

    async def write(self, unit: str, reg: str, value: int) -> None: ...

    async def read(self, unit: str, reg: str) -> int: ...


def access_cfg(unit: str, table: int, write: bool, addr: int = 0) -> int:
    """The S_LUT_ACCESS_CFG value selecting `table` (0 LE, 1 LO), the access type and the start address."""
    return regmap.encode_fields(unit, {"S_LUT_ACCESS_CFG.LUT_ADDR": addr,
                                       "S_LUT_ACCESS_CFG.LUT_TABLE_ID": table,
                                       "S_LUT_ACCESS_CFG.LUT_ACCESS_TYPE": int(write)})["S_LUT_ACCESS_CFG"]


class AccessPort:
    """The LUT access port of `unit` on the RTL (over CSB) and on its model, side by side; every read is
    compared, and a mismatch names the accesses that led to it."""

    def __init__(self, top: CsbTop, unit: str, ram: LutRam) -> None:
        self.top, self.unit, self.ram = top, unit, ram
        self.history: list[str] = []

    def _check(self, what: str, got: int, want: int) -> None:
        self.history.append(f"read {what} {got:#x}")
        assert got == want, f"{self.unit} {what} read {got:#x}, the access port model gives {want:#x}; the " \
                            f"last accesses (model pointer {self.ram.pointer}): " \
                            f"{'; '.join(self.history[-HISTORY:])}"

    async def do(self, op: str, value: int = 0) -> None:
        """op: "cfg" / "write" write `value` to CFG / DATA; "read" / "read_cfg" read DATA / CFG, scored."""
        if op == "cfg":
            self.history.append(f"cfg {value:#x}")
            await self.top.write(self.unit, "S_LUT_ACCESS_CFG", value)
            self.ram.write_cfg(value)
        elif op == "write":
            self.history.append(f"write {value:#x}")
            await self.top.write(self.unit, "S_LUT_ACCESS_DATA", value)
            self.ram.write_data(value)
        else:
            reg = "S_LUT_ACCESS_DATA" if op == "read" else "S_LUT_ACCESS_CFG"
            got = await self.top.read(self.unit, reg)
            self._check(reg, got, self.ram.read_data() if op == "read" else self.ram.read_cfg())


def lut_present(unit: str) -> bool:
    """The run's configuration has this unit's LUT RAM (SDP's is optional: configs/<name>.json "sdp")."""
    return unit != "SDP" or configs.load().sdp.lut


async def write_read_tables(top: CsbTop, unit: str, rng: random.Random) -> dict[int, list[int]]:
    """Both tables written with random values, read back with the pointer's auto-increment (in either
    order) and compared; the tables written (all 0 where the configuration has no LUT: nothing is kept,
    every read gives 0)."""
    tables = {0: [v & 0xFFFF for v in random_table(rng, LE_ENTRIES)],
              1: [v & 0xFFFF for v in random_table(rng, LO_ENTRIES)]}
    written = tables
    if not lut_present(unit):
        tables = {t: [0] * len(v) for t, v in tables.items()}
    for table, values in written.items():
        await top.write(unit, "S_LUT_ACCESS_CFG", access_cfg(unit, table, True))
        for v in values:
            await top.write(unit, "S_LUT_ACCESS_DATA", v)
    for table in rng.sample([0, 1], 2):
        await top.write(unit, "S_LUT_ACCESS_CFG", access_cfg(unit, table, False))
        got = [await top.read(unit, "S_LUT_ACCESS_DATA") for _ in tables[table]]
        bad = [i for i, (g, w) in enumerate(zip(got, tables[table], strict=True)) if g != w]
        assert not bad, f"{unit} {'LO' if table else 'LE'} entry {bad[0]}: read {got[bad[0]]:#06x}, wrote " \
                        f"{tables[table][bad[0]]:#06x} ({len(bad)} wrong entries)"
    return tables


def _start_address(rng: random.Random, size: int) -> int:
    # past the end too: those entries read 0; the CDP pointer stays there, the SDP address runs on
    return rng.choice([0, size - 1, size - 3, rng.randrange(size), size, rng.randrange(size, 1024), 1023])


async def lut_readback(top: CsbTop, unit: str, rng: random.Random, saturating: bool) -> None:
    """The tables written and read back, then random accesses (any start address, also past a table's end;
    reads in write mode, writes in read mode) scored against LutRam loaded with the same
    tables, then both tables read in full and two entries past their end."""
    tables = await write_read_tables(top, unit, rng)
    # the first random access is a CFG write, which puts the model's pointer and type where the RTL's are
    ram = LutRam(saturating=saturating, present=lut_present(unit))
    ram.load(*(np.array(tables[t], dtype=np.int64) for t in (0, 1)))
    port = AccessPort(top, unit, ram)
    for n in range(scaled(300, 3000)):
        op = "cfg" if n == 0 else rng.choice(["cfg", "write", "read", "read", "read_cfg"])
        if op == "cfg":
            table = rng.randint(0, 1)
            addr = _start_address(rng, LO_ENTRIES if table else LE_ENTRIES)
            await port.do("cfg", access_cfg(unit, table, rng.random() < 0.5, addr))
        else:
            await port.do(op, rng.getrandbits(16))
    # what the accesses left in the tables; past the end the CDP pointer stays on the last entry, the SDP
    # address runs on (those entries read 0)
    for table, size in ((0, LE_ENTRIES), (1, LO_ENTRIES)):
        await port.do("cfg", access_cfg(unit, table, False))
        for _ in range(size + 2):
            await port.do("read")
