"""NVDLA trace replay on the RTL top level: CSB master, AXI memory with random latency and backpressure.

Started by tb/trace_rtl.py, which passes the trace folders in TRACE_FOLDERS and collects the results from
TRACE_RESULTS. The model replays each trace alongside, to name the first wrong element of a failed CRC.
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

import cocotb
import numpy as np
from cocotb.triggers import ClockCycles, ReadOnly, RisingEdge
from cocotbext.axi import AxiBus, AxiRam

from models import registers as regmap
from models.replay import (
    INTR_BIT,
    CheckCrc,
    MemFill,
    MemWrite,
    ModelTarget,
    RegWrite,
    TraceResult,
    WaitInterrupt,
    crc_failure,
    locate_against,
    trace_steps,
)
from models.trace import TraceError, default_trace_folders, trace_roots
from tb import outcome
from tb.bfm.csb import CsbMaster
from tb.common import make_rng, start_clock_and_reset
from tb.test_dma import set_memory_pauses
from tb.trace_rtl import RTL_UNITS, units_needed

# A layer of nv_small size finishes in far fewer cycles; this only bounds a hang.
INTERRUPT_TIMEOUT_CYCLES = 2_000_000


class RtlTarget:
    """The RTL under the replay's step interface (async), plus the model fed the same steps."""

    def __init__(self, dut, ram: AxiRam) -> None:
        self.dut = dut
        self.ram = ram
        self.csb = CsbMaster(dut.clk, dut)
        self.model = ModelTarget()
        self.written: list[tuple[int, int]] = []

    def new_trace(self) -> None:
        """Forget the last trace: its memory writes are zeroed, the model starts from reset."""
        for lo, hi in self.written:
            self.ram.write(lo, bytes(hi - lo))
        self.written = []
        self.model = ModelTarget()

    async def run(self, name: str, folder: Path) -> TraceResult:
        checks = 0
        try:
            steps = trace_steps(folder)
        except TraceError as err:
            return TraceResult(name, False, 0, str(err))
        for step in steps:
            if isinstance(step, RegWrite):
                self.model.reg_write(step.unit, step.reg, step.value)
                nposted = step.reg == "D_OP_ENABLE"
                await self.csb.write(regmap.address(step.unit, step.reg), step.value, nposted=nposted)
            elif isinstance(step, MemFill | MemWrite):
                try:
                    self._memory(step)
                except TraceError as err:
                    return TraceResult(name, False, checks, str(err))
            elif isinstance(step, WaitInterrupt):
                if not await self._wait_interrupt(step.unit, step.group):
                    return TraceResult(name, False, checks, f"{step.where}: {step.unit}_{step.group} never "
                                       f"raised within {INTERRUPT_TIMEOUT_CYCLES} cycles")
                self.model.wait_interrupt(step.unit, step.group)
            elif isinstance(step, CheckCrc):
                checks += 1
                if step.mem != 0:
                    return TraceResult(name, False, checks, f"{step.where}: the RTL has no secondary memory")
                actual = np.frombuffer(self.ram.read(step.base, step.size), dtype=np.uint8)
                msg = crc_failure(step, actual, locate_against(self.model))
                if msg:
                    return TraceResult(name, False, checks, msg)
        return TraceResult(name, True, checks)

    def _memory(self, step: MemFill | MemWrite) -> None:
        if step.mem != 0:
            raise TraceError("the RTL top has one memory interface; this trace uses a second memory")
        if isinstance(step, MemWrite):
            self.model.mem_write(0, step.addr, step.data)
            self.ram.write(step.addr, step.data.tobytes())
            self.written.append((step.addr, step.addr + step.data.size))
            return
        self.model.mem_fill(0, step.addr, step.size, 0)
        # A fresh RAM reads zero: clear only what this trace wrote before (regions can be 100+ MB).
        for lo, hi in self.written:
            a, b = max(lo, step.addr), min(hi, step.addr + step.size)
            if a < b:
                self.ram.write(a, bytes(b - a))

    async def track_dma_writes(self) -> None:
        """Record every AXI write burst, so the next trace starts from zeros where this one's RTL wrote."""
        dut = self.dut
        while True:
            await RisingEdge(dut.clk)
            if int(dut.m_axi_awvalid.value) and int(dut.m_axi_awready.value):
                addr = int(dut.m_axi_awaddr.value)
                size = (int(dut.m_axi_awlen.value) + 1) << int(dut.m_axi_awsize.value)
                self.written.append((addr, addr + size))

    async def _wait_interrupt(self, unit: str, group: int) -> bool:
        bit = 1 << (INTR_BIT[unit] + group)
        status_addr = regmap.address("GLB", "S_INTR_STATUS")
        for _ in range(INTERRUPT_TIMEOUT_CYCLES // 64):
            await ReadOnly()
            if int(self.dut.intr.value):
                await RisingEdge(self.dut.clk)
                status = await self.csb.read(status_addr)
                if status & bit:
                    await self.csb.write(status_addr, bit, nposted=True)  # write 1 to clear
                    return True
            await ClockCycles(self.dut.clk, 64)
        return False


@cocotb.test()
async def replay_traces(dut) -> None:
    # From `make traces TARGET=rtl` the folders come in TRACE_FOLDERS; in the regression, every trace under
    # the default folder that the RTL can run.
    folders = [Path(p) for p in os.environ.get("TRACE_FOLDERS", "").split(os.pathsep) if p]
    noun = "traces"
    if not folders:
        found = default_trace_folders()
        folders = [f for f in found if units_needed(f) <= RTL_UNITS]
        if not folders:
            roots = ", ".join(map(str, trace_roots())) or "traces/nv_small*"
            outcome.skip(f"no NVDLA trace the RTL can run under {roots} ({len(found)} trace folders found)")
        noun = f"traces of {len(found)}"  # the others need what the RTL lacks (make traces TARGET=rtl: why)
    out = Path(os.environ.get("TRACE_RESULTS", "trace_results.json"))
    running = out.with_suffix(".running")
    rng = make_rng("traces")
    results: list[TraceResult] = []
    await start_clock_and_reset(dut.clk, dut.rst_n, idle=[dut.csb_req_valid])
    ram = AxiRam(AxiBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst_n, reset_active_level=False, size=2**32)
    set_memory_pauses(ram, rng)
    target = RtlTarget(dut, ram)
    cocotb.start_soon(target.track_dma_writes())
    for folder in folders:
        # Each trace starts from reset with an empty memory, as NVIDIA's player does (and whatever the last
        # trace left behind, a hung unit included, is gone).
        target.new_trace()
        dut.rst_n.value = 0
        await ClockCycles(dut.clk, 3)
        dut.rst_n.value = 1
        await ClockCycles(dut.clk, 2)
        # The interrupt output is a level: leave every done bit unmasked so the harness sees it.
        await target.csb.write(regmap.address("GLB", "S_INTR_MASK"), 0, nposted=True)
        running.write_text(folder.name)  # names the trace to blame if the simulator dies during it
        try:
            res = await target.run(folder.name, folder)
        except Exception as err:  # noqa: BLE001 - a model ConfigError, a driver error: this trace only
            res = TraceResult(folder.name, False, 0, f"{type(err).__name__}: {err}")
        dut._log.info("%s %s %s", folder.name, "PASS" if res.passed else "FAIL", res.message)
        results.append(res)
        out.write_text(json.dumps([dataclasses.asdict(r) for r in results]))
        outcome.checked(len(results), noun)
    running.unlink(missing_ok=True)
    failed = [r.name for r in results if not r.passed]
    assert not failed, f"traces failed on the RTL: {failed}"
