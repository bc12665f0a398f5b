"""CSB master BFM for NVDLA's host-side register protocol (regmap README, "CSB protocol").

On the cocotbext-axi AxiMaster pattern: write() and read() queue an operation and await its event; one
background coroutine serves the queue in order, one transaction with a response outstanding at a time, as
NVIDIA's own CSB driver does: a read waits for its data pulse, a non-posted write for its write-complete
pulse; a posted write completes once accepted. Callers in concurrent coroutines (a test and a background
task) are served in the order they called, and two transactions never drive the request port at once.
Addresses are byte addresses; the bus carries word addresses (byte >> 2). CsbMonitor passively records and
checks the same port (the regs benches attach one for every test).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

import cocotb
from cocotb.handle import SimHandleBase
from cocotb.task import Task
from cocotb.triggers import Event, ReadOnly, RisingEdge
from cocotb.utils import get_sim_time


class CsbTimeout(AssertionError):
    pass


@dataclass
class CsbOp:
    byte_addr: int
    data: int
    write: bool
    nposted: bool
    done: Event = field(default_factory=Event)
    result: int = 0                               # read data
    error: CsbTimeout | None = None


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
        self.queue: deque[CsbOp] = deque()
        self.active = False
        self._wake = Event()
        self._idle = Event()
        self._idle.set()
        self._task: Task[None] | None = None

    async def write(self, byte_addr: int, data: int, nposted: bool = False) -> None:
        await self._submit(CsbOp(byte_addr, data, True, nposted))

    async def read(self, byte_addr: int) -> int:
        return (await self._submit(CsbOp(byte_addr, 0, False, False))).result

    def idle(self) -> bool:
        return not self.queue and not self.active

    async def wait(self) -> None:
        """Until every queued operation has completed."""
        if not self.idle():
            await self._idle.wait()

    async def _submit(self, op: CsbOp) -> CsbOp:
        if op.byte_addr & 3:
            raise ValueError(f"CSB address {op.byte_addr:#x} is not word aligned")
        self.queue.append(op)
        self._idle.clear()
        # started on first use, not at construction: cocotb cancels it at the end of each test, and a
        # master kept from an earlier test starts a new one
        if self._task is None or self._task.done():
            self._task = cocotb.start_soon(self._run())
        self._wake.set()
        await op.done.wait()
        if op.error is not None:
            raise op.error
        return op

    async def _run(self) -> None:
        while True:
            if not self.queue:
                self.active = False
                self._idle.set()
                self._wake.clear()
                await self._wake.wait()
                continue
            self.active = True
            op = self.queue.popleft()
            try:
                await self._serve(op)
            except CsbTimeout as e:
                self.req_valid.value = 0
                op.error = e
            # the caller resumes right after the edge that ended its transaction
            op.done.set()

    async def _serve(self, op: CsbOp) -> None:
        await self._request(op)
        if op.write and op.nposted:
            await self._wait(self.wr_complete, f"write-complete for {op.byte_addr:#x}")
        elif not op.write:
            op.result = await self._wait(self.resp_valid, f"read data for {op.byte_addr:#x}", read=True)

    async def _request(self, op: CsbOp) -> None:
        self.req_addr.value = (op.byte_addr >> 2) & 0xFFFF
        self.req_wdat.value = op.data & 0xFFFFFFFF
        self.req_write.value = int(op.write)
        self.req_nposted.value = int(op.nposted)
        self.req_valid.value = 1
        for _ in range(self.timeout):
            await ReadOnly()
            accepted = bool(self.req_ready.value)
            await RisingEdge(self.clk)
            if accepted:
                self.req_valid.value = 0
                return
        raise CsbTimeout(f"CSB request to {op.byte_addr:#x} never accepted")

    async def _wait(self, signal: SimHandleBase, what: str, read: bool = False) -> int:
        """Wait for a response pulse on `signal`; returns resp_data sampled with it for a read."""
        for _ in range(self.timeout):
            await ReadOnly()
            if int(signal.value):
                data = int(self.resp_data.value) if read else 0
                await RisingEdge(self.clk)
                return data
            await RisingEdge(self.clk)
        raise CsbTimeout(f"no CSB {what} within {self.timeout} cycles")


@dataclass
class CsbTransaction:
    byte_addr: int
    write: bool
    nposted: bool
    data: int                                     # write data, or the read data once it arrives


class CsbMonitor:
    """Passive: records every accepted CSB request in `transactions` (read data filled in when it returns)
    and checks the protocol: request fields hold while valid waits for ready, and responses come in request
    order, one resp_valid per read and one wr_complete per non-posted write, never one unasked. A violation
    is kept in `errors` and, with `fail` (the default), fails the running test. With `reset` (active low) the
    outstanding responses are forgotten while reset is asserted."""

    def __init__(self, clk: SimHandleBase, dut: SimHandleBase, prefix: str = "csb",
                 reset: SimHandleBase | None = None, fail: bool = True) -> None:
        self.clk, self.reset, self.fail = clk, reset, fail
        sig = lambda name: getattr(dut, f"{prefix}_{name}")  # noqa: E731
        self.request = [sig(n) for n in ("req_addr", "req_wdat", "req_write", "req_nposted")]
        self.req_valid, self.req_ready = sig("req_valid"), sig("req_ready")
        self.resp_valid, self.resp_data = sig("resp_valid"), sig("resp_data")
        self.wr_complete = sig("wr_complete")
        self.transactions: list[CsbTransaction] = []
        self.outstanding: deque[CsbTransaction] = deque()   # reads and non-posted writes awaiting a response
        self.errors: list[str] = []
        self._task = cocotb.start_soon(self._run())

    def stop(self) -> None:
        self._task.cancel()

    def _report(self, what: str) -> None:
        msg = f"CSB at {get_sim_time('ns'):.0f} ns: {what} ({len(self.transactions)} requests before)"
        self.errors.append(msg)
        if self.fail:
            raise AssertionError(msg)

    @staticmethod
    def _high(signal: SimHandleBase) -> bool:
        value = signal.value
        return value.is_resolvable and bool(value)

    def _response(self, read: bool) -> None:
        kind = "read data" if read else "write-complete"
        if not self.outstanding:
            self._report(f"{kind} with nothing outstanding")
            return
        op = self.outstanding.popleft()
        if op.write == read:
            self._report(f"{kind} while the oldest outstanding request is a "
                         f"{'write' if op.write else 'read'} of {op.byte_addr:#x}")
        elif read:
            op.data = int(self.resp_data.value)

    async def _run(self) -> None:
        held: list[Any] | None = None          # request fields shown without ready at the last edge
        while True:
            await ReadOnly()
            if self.reset is not None and not self._high(self.reset):
                self.outstanding.clear()
                held = None
            else:
                if self._high(self.resp_valid):
                    self._response(read=True)
                if self._high(self.wr_complete):
                    self._response(read=False)
                now = [s.value for s in self.request]
                if held is not None and (not self._high(self.req_valid) or now != held):
                    self._report(f"request withdrawn or changed before it was accepted: {held} -> {now}")
                held = None
                if self._high(self.req_valid):
                    if self._high(self.req_ready):
                        addr, wdat, write, nposted = (int(v) for v in now)
                        op = CsbTransaction(addr << 2, bool(write), bool(nposted) and bool(write), wdat)
                        self.transactions.append(op)
                        if not op.write or op.nposted:
                            self.outstanding.append(op)
                    else:
                        held = now
            await RisingEdge(self.clk)
