"""The LUT table port of a datapath core, driven through its configuration bundle.

The register block sends LUT accesses in the cfg bundle (LUT_ACCESS_ADDR / _WDATA / _WE / _RE with
S_LUT_ACCESS_CFG.LUT_TABLE_ID, scripts/regdesc.py) and takes the answer from the stat bundle
(LUT_ACCESS_RDATA, the word at [table][addr] in the same cycle); a core bench has no register block, so this
driver plays its part with addresses of its own choosing. The pointer styles (CDP saturating, SDP wrapping)
belong to the register block and are checked there (tb/tests/test_regs.py) and end to end (tb/lut_access.py).

One implementation for tb/tests/test_cdp_core.py and tb/tests/test_sdp_core.py; the driver keeps one
CfgBundle, so
configuration and LUT accesses share the vector the way the register block's outputs do.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

import numpy as np
from cocotb.handle import SimHandleBase
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge
from numpy.typing import NDArray

from models.lut.model import LE_ENTRIES, LO_ENTRIES
from tb.bundle import LUT_PORT, CfgBundle, read_stat
from tb.stimulus.lut import random_table

TABLE_ID = "S_LUT_ACCESS_CFG.LUT_TABLE_ID"

# The tables' clear sweep after reset (rtl/lut/nvdla_lut_ram.v): one entry of both tables a cycle
CLEAR_CYCLES = max(LE_ENTRIES, LO_ENTRIES)


async def wait_tables_cleared(clk: SimHandleBase, busy: SimHandleBase) -> int:
    """Wait, from just after reset, for the LUT tables' clear sweep to end (`busy` low); returns the cycles
    waited (on a falling edge, so the caller may drive inputs). A sweep longer than CLEAR_CYCLES fails, so a
    busy that never falls cannot hang a bench."""
    for n in range(CLEAR_CYCLES + 2):
        await ReadOnly()
        if not int(busy.value):
            await FallingEdge(clk)
            return n
        await RisingEdge(clk)
    raise AssertionError(f"LUT busy still high {CLEAR_CYCLES + 2} cycles after reset (the clear sweep takes "
                         f"{CLEAR_CYCLES})")


class LutPortDriver:
    """The cfg bundle of a core (configuration and LUT accesses, one access per clock) and its stat."""

    def __init__(self, dut: SimHandleBase, unit: str) -> None:
        self.dut, self.unit = dut, unit
        self.clk = dut.clk
        self.cfg = CfgBundle(dut.cfg, unit)

    async def _strobe(self, signal: SimHandleBase) -> None:
        signal.value = 1
        await RisingEdge(self.clk)
        signal.value = 0

    async def wait_cleared(self) -> None:
        """After reset: wait for the core's LUT tables to be cleared (lut_busy) before any access."""
        await wait_tables_cleared(self.clk, self.dut.lut_busy)

    def clear_access(self) -> None:
        """The bundle to all zeros (no access, no configuration): what a register block shows after reset."""
        self.cfg.fields.clear()
        self.cfg.apply()

    def apply_fields(self, fields: Mapping[str, int]) -> None:
        """A layer's configuration: exactly these fields, the rest 0 (no LUT access under way)."""
        self.cfg.fields = dict(fields)
        self.cfg.apply()

    async def write_entry(self, table: int, addr: int, value: int) -> None:
        table_before = self.cfg[TABLE_ID]
        self.cfg.update({TABLE_ID: table, f"{LUT_PORT}ADDR": addr, f"{LUT_PORT}WDATA": value & 0xFFFF,
                         f"{LUT_PORT}WE": 1})
        self.cfg.apply()
        await RisingEdge(self.clk)
        self.cfg.update({TABLE_ID: table_before, f"{LUT_PORT}WE": 0})
        self.cfg.apply()

    async def read_entry(self, table: int, addr: int) -> int:
        table_before = self.cfg[TABLE_ID]
        # as the register block does: the pointer's next value a cycle ahead (the RAM registers its read
        # address from LUT_ACCESS_NEXT, rtl/lut/nvdla_lut_ram.v)
        self.cfg.update({f"{LUT_PORT}NEXT": addr})
        self.cfg.apply()
        await RisingEdge(self.clk)
        self.cfg.update({TABLE_ID: table, f"{LUT_PORT}ADDR": addr, f"{LUT_PORT}RE": 1})
        self.cfg.apply()
        await ReadOnly()
        value = read_stat(self.dut.stat, self.unit, port=True)[f"{LUT_PORT}RDATA"]
        await FallingEdge(self.clk)
        self.cfg.update({TABLE_ID: table_before, f"{LUT_PORT}RE": 0})
        self.cfg.apply()
        return value

    async def load_tables(self, le: NDArray[np.integer], lo: NDArray[np.integer]) -> None:
        for table, values in ((0, le), (1, lo)):
            for addr, v in enumerate(values.tolist()):
                await self.write_entry(table, addr, int(v))

    async def read_table(self, table: int, n: int) -> list[int]:
        return [await self.read_entry(table, addr) for addr in range(n)]


async def check_readback(drv: LutPortDriver, rng: random.Random) -> None:
    """Random tables written through the port and read back entry by entry, and past each table's end
    (stores nothing, reads 0)."""
    le = np.array(random_table(rng, LE_ENTRIES), dtype=np.int64)
    lo = np.array(random_table(rng, LO_ENTRIES), dtype=np.int64)
    await drv.load_tables(le, lo)
    for table, values in ((0, le), (1, lo)):
        await drv.write_entry(table, len(values) + rng.randrange(1024 - len(values)), rng.getrandbits(16))
        got = await drv.read_table(table, len(values) + 2)
        want = [int(v) & 0xFFFF for v in values] + [0, 0]
        bad = [i for i, (g, w) in enumerate(zip(got, want, strict=True)) if g != w]
        assert not bad, (f"{drv.unit} {'LO' if table else 'LE'} entry {bad[0]}: read {got[bad[0]]:#06x}, "
                         f"expected {want[bad[0]]:#06x} ({len(bad)} wrong)")
