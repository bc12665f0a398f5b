"""Bench of the AXI4 read and write DMA engines (rtl/dma/) through a loopback harness: random copies
between regions of an AXI memory model with random latency and backpressure on every channel.

Checks: every copied byte, bytes next to the destination untouched, 4 KiB boundaries never crossed,
bursts within MAX_BURST, outstanding reads within MAX_OUTSTANDING, and idle only after the last write
response."""

from __future__ import annotations

import cocotb
from cocotb.triggers import ClockCycles, ReadOnly, RisingEdge, Timer
from cocotbext.axi import AxiBus, AxiRam

from tb import outcome
from tb.bfm.axi_ram import set_memory_pauses
from tb.bfm.stream import StreamBus, StreamSource, pick_pause
from tb.common import bench_params, make_rng, scaled, start_clock_and_reset

BEAT = 8


async def watch_bursts(dut, violations: list[str], max_burst: int, max_outstanding: int) -> None:
    """AXI rules the engines must keep, and idle only once every write response is back. Handshakes are
    sampled in the ReadOnly phase before each edge, like the stream BFMs."""
    reads_in_flight = 0
    writes_in_flight = 0
    while True:
        await ReadOnly()
        for ch in ("ar", "aw"):
            if int(getattr(dut, f"m_axi_{ch}valid").value) and int(getattr(dut, f"m_axi_{ch}ready").value):
                addr = int(getattr(dut, f"m_axi_{ch}addr").value)
                beats = int(getattr(dut, f"m_axi_{ch}len").value) + 1
                if beats > max_burst:
                    violations.append(f"{ch} burst of {beats} beats at {addr:#x}")
                if (addr % 4096) + beats * BEAT > 4096:
                    violations.append(f"{ch} burst at {addr:#x} of {beats} beats crosses 4 KiB")
                if ch == "ar":
                    reads_in_flight += 1
                else:
                    writes_in_flight += 1
        if int(dut.wr_idle.value) and writes_in_flight:
            violations.append(f"write DMA idle with {writes_in_flight} write responses missing")
        if int(dut.m_axi_rvalid.value) and int(dut.m_axi_rready.value) and int(dut.m_axi_rlast.value):
            reads_in_flight -= 1
        if int(dut.m_axi_bvalid.value) and int(dut.m_axi_bready.value):
            writes_in_flight -= 1
        if reads_in_flight > max_outstanding:
            violations.append(f"{reads_in_flight} reads outstanding")
        await RisingEdge(dut.clk)


@cocotb.test()
async def random_copies(dut) -> None:
    p = bench_params()
    rng = make_rng("random_copies")
    dut.rd_cmd_valid.value = 0
    dut.wr_cmd_valid.value = 0
    # In reset before the AxiRam starts: on Icarus its monitors would otherwise sample X valids at time 0.
    dut.rst_n.value = 0
    await Timer(1, "ns")
    ram = AxiRam(AxiBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst_n, reset_active_level=False, size=2**32)
    await start_clock_and_reset(dut.clk, dut.rst_n)
    violations: list[str] = []
    cocotb.start_soon(watch_bursts(dut, violations, p["MAX_BURST"], p["MAX_OUTSTANDING"]))
    for copy in range(scaled(12, 150)):
        set_memory_pauses(ram, rng)
        beats = rng.choice([1, 2, rng.randint(1, 40), rng.randint(100, 700)])
        src = rng.randrange(0, 1 << 20) * BEAT | rng.choice([0x80000000, 0x00100000])
        # sometimes start just before a 4 KiB page ends
        src = rng.choice([src, (src & ~0xFFF) + 4096 - BEAT * rng.randint(1, 3)])
        # the destination and its guard beats never overlap the source
        dst = src + rng.choice([1, -1]) * (beats * BEAT + BEAT * rng.randrange(1, 4096))
        payload = bytes(rng.getrandbits(8) for _ in range(beats * BEAT))
        ram.write(src, payload)
        guard = bytes(rng.getrandbits(8) for _ in range(BEAT))
        ram.write(dst - BEAT, guard)
        ram.write(dst + beats * BEAT, guard)
        # one command each side, split into pieces to exercise back-to-back commands
        cuts = sorted(rng.sample(range(1, beats), min(beats - 1, rng.randint(0, 3)))) if beats > 1 else []
        pieces = list(zip([0, *cuts], [*cuts, beats], strict=True))
        rd = StreamSource(StreamBus(dut, "rd_cmd"), dut.clk, pick_pause(rng))
        wr = StreamSource(StreamBus(dut, "wr_cmd"), dut.clk, pick_pause(rng))
        rd_task = cocotb.start_soon(rd.send(((src + a * BEAT) << 16) | (b - a) for a, b in pieces))
        wr_task = cocotb.start_soon(wr.send(((dst + a * BEAT) << 16) | (b - a) for a, b in pieces))
        await rd_task
        await wr_task
        for _ in range(200000):
            await RisingEdge(dut.clk)
            if int(dut.wr_idle.value) and not int(dut.rd_busy.value):
                break
        else:
            raise AssertionError(f"copy {copy}: DMA never went idle ({beats} beats {src:#x} -> {dst:#x})")
        got = ram.read(dst, beats * BEAT)
        if got != payload:
            first = next(i for i in range(len(payload)) if got[i] != payload[i])
            raise AssertionError(f"copy {copy} ({beats} beats {src:#x} -> {dst:#x}): byte {first} "
                                 f"expected {payload[first]:#04x}, got {got[first]:#04x}")
        if ram.read(dst - BEAT, BEAT) != guard or ram.read(dst + beats * BEAT, BEAT) != guard:
            raise AssertionError(f"copy {copy}: bytes next to the destination were written")
        assert not violations, f"copy {copy}: AXI rule broken: {violations[:5]}"
        outcome.checked(copy + 1, "copies")
    await ClockCycles(dut.clk, 2)
