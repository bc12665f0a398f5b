"""CSB master BFM for NVDLA's host-side register protocol (regmap README, "CSB protocol").

One transaction with a response outstanding at a time, as NVIDIA's own CSB driver does: a read waits for
its data pulse, a non-posted write for its write-complete pulse; a posted write returns once accepted.
Callers in concurrent coroutines (a test and a background task) queue on a lock, as cocotbext-axi's masters
queue their operations, so two transactions never drive the request port at once.
Addresses are byte addresses; the bus carries word addresses (byte >> 2).
"""

from __future__ import annotations

from cocotb.handle import SimHandleBase
from cocotb.triggers import Lock, ReadOnly, RisingEdge


class CsbTimeout(AssertionError):
    pass


class CsbMaster:
    def __init__(self, clk: SimHandleBase, dut: SimHandleBase, prefix: str = "csb",
                 timeout: int = 1000) -> None:
        self.clk = clk
        self.timeout = timeout
        sig = lambda name: getattr(dut, f"{prefix}_{name}")  # noqa: E731
        self.req_valid, self.req_ready = sig("req_valid"), sig("req_ready")
        self.req_addr, self.req_wdat = sig("req_addr"), sig("req_wdat")
        self.req_write, self.req_nposted = sig("req_write"), sig("req_nposted")
        self.resp_valid, self.resp_data = sig("resp_valid"), sig("resp_data")
        self.wr_complete = sig("wr_complete")
        self.req_valid.value = 0
        self._busy = Lock()

    async def _request(self, byte_addr: int, data: int, write: bool, nposted: bool) -> None:
        if byte_addr & 3:
            raise ValueError(f"CSB address {byte_addr:#x} is not word aligned")
        self.req_addr.value = (byte_addr >> 2) & 0xFFFF
        self.req_wdat.value = data & 0xFFFFFFFF
        self.req_write.value = int(write)
        self.req_nposted.value = int(nposted)
        self.req_valid.value = 1
        for _ in range(self.timeout):
            await ReadOnly()
            accepted = bool(self.req_ready.value)
            await RisingEdge(self.clk)
            if accepted:
                self.req_valid.value = 0
                return
        raise CsbTimeout(f"CSB request to {byte_addr:#x} never accepted")

    async def _wait(self, signal: SimHandleBase, what: str) -> None:
        for _ in range(self.timeout):
            await ReadOnly()
            if int(signal.value):
                await RisingEdge(self.clk)
                return
            await RisingEdge(self.clk)
        raise CsbTimeout(f"no CSB {what} within {self.timeout} cycles")

    async def write(self, byte_addr: int, data: int, nposted: bool = False) -> None:
        async with self._busy:
            await self._request(byte_addr, data, True, nposted)
            if nposted:
                await self._wait(self.wr_complete, f"write-complete for {byte_addr:#x}")

    async def read(self, byte_addr: int) -> int:
        async with self._busy:
            return await self._read(byte_addr)

    async def _read(self, byte_addr: int) -> int:
        await self._request(byte_addr, 0, False, False)
        for _ in range(self.timeout):
            await ReadOnly()
            if int(self.resp_valid.value):
                data = int(self.resp_data.value)
                await RisingEdge(self.clk)
                return data
            await RisingEdge(self.clk)
        raise CsbTimeout(f"no CSB read data for {byte_addr:#x} within {self.timeout} cycles")
