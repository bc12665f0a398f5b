"""The LUT access port of a datapath core (acc_* ports, passed to nvdla_lut unchanged), driven directly.

One implementation for tb/test_cdp_core.py and tb/test_sdp_core.py: both cores expose the same acc_* ports
(docs/CONTRACTS.md); the pointer style (CDP saturating, SDP wrapping) does not matter to a table loaded
from address 0 and read back from address 0, which is all the core benches do.
"""

from __future__ import annotations

import random

import numpy as np
from cocotb.handle import SimHandleBase
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge
from numpy.typing import NDArray

from models.lut import LE_ENTRIES, LO_ENTRIES
from tb.stimulus.lut import random_table

ACC_STROBES = ("acc_cfg_we", "acc_data_we", "acc_data_re")
ACC_VALUES = ("acc_cfg_addr", "acc_cfg_table", "acc_cfg_write", "acc_data_wdata")


class LutPortDriver:
    """The acc_* inputs of a core: CFG writes, table loads and read-backs, one access per clock."""

    def __init__(self, dut: SimHandleBase) -> None:
        self.dut = dut
        self.clk = dut.clk

    def access_strobes(self) -> list[SimHandleBase]:
        """The access port's strobes, to be driven low before reset (no X clocked in)."""
        return [getattr(self.dut, name) for name in ACC_STROBES]

    def clear_access(self) -> None:
        """The access port's address and data inputs to 0 (after reset)."""
        for name in ACC_VALUES:
            getattr(self.dut, name).value = 0

    async def _strobe(self, signal: SimHandleBase) -> None:
        signal.value = 1
        await RisingEdge(self.clk)
        signal.value = 0

    async def write_cfg(self, addr: int, table: int, write: int) -> None:
        d = self.dut
        d.acc_cfg_addr.value, d.acc_cfg_table.value, d.acc_cfg_write.value = addr, table, write
        await self._strobe(d.acc_cfg_we)

    async def load_tables(self, le: NDArray[np.integer], lo: NDArray[np.integer]) -> None:
        """As NVIDIA's traces do it: CFG(table, WRITE, 0), then one DATA write per entry."""
        for table, values in ((0, le), (1, lo)):
            await self.write_cfg(0, table, 1)
            self.dut.acc_data_we.value = 1
            for v in values.tolist():
                self.dut.acc_data_wdata.value = int(v) & 0xFFFF
                await RisingEdge(self.clk)
            self.dut.acc_data_we.value = 0

    async def read_table(self, table: int, n: int) -> list[int]:
        """The first n entries of a table: CFG(table, READ, 0), then n DATA reads."""
        await self.write_cfg(0, table, 0)
        out = []
        for _ in range(n):
            await self._strobe(self.dut.acc_data_re)
            await ReadOnly()
            out.append(int(self.dut.acc_data_rdata.value))
            await FallingEdge(self.clk)
        return out


async def check_readback(drv: LutPortDriver, rng: random.Random) -> None:
    """Random tables written through the access port and read back entry by entry through it."""
    le = np.array(random_table(rng, LE_ENTRIES), dtype=np.int64)
    lo = np.array(random_table(rng, LO_ENTRIES), dtype=np.int64)
    await drv.load_tables(le, lo)
    for table, values in ((0, le), (1, lo)):
        got = await drv.read_table(table, len(values))
        want = [int(v) & 0xFFFF for v in values]
        bad = [i for i, (g, w) in enumerate(zip(got, want, strict=True)) if g != w]
        assert not bad, f"table {table} entry {bad[0]}: read {got[bad[0]]:#06x}, wrote {want[bad[0]]:#06x}"
