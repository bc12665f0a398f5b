"""The stream BFMs (tb/bfm/stream.py) checked on a skid buffer (rtl/common/nvdla_skid.v), which passes every
beat through unchanged and keeps the protocol:
  back_to_back              no pause: one beat per cycle in, one per cycle out, in order
  random_pauses             random pause generators on both sides: every beat, in order; monitors agree
  monitor_flags_violations  the test breaks the protocol on the input itself (valid falls, data changes,
                            while the skid is full): the monitor names each violation, and a correct
                            stall of the same length is not flagged
  sink_fails_when_stalled   a sink waiting for a beat that never comes fails after idle_limit cycles
"""

from __future__ import annotations

from typing import Any

import cocotb
from cocotb.triggers import ReadOnly, RisingEdge
from cocotb.utils import get_sim_time

from tb import outcome
from tb.bfm.stream import StreamBus, StreamMonitor, StreamSink, StreamSource, never_pause, pick_pause
from tb.common import make_rng, scaled, start_clock_and_reset

CLOCK_NS = 10
WIDTH = 16


async def reset(dut: Any) -> None:
    await start_clock_and_reset(dut.clk, dut.rst_n, idle=[dut.in_valid, dut.out_ready])


def cycle() -> int:
    return int(get_sim_time("ns") // CLOCK_NS)


@cocotb.test(timeout_time=5, timeout_unit="ms")   # a BFM that hangs fails here instead
async def back_to_back(dut: Any) -> None:
    await reset(dut)
    rng = make_rng("back_to_back")
    count = scaled(500, 5000)
    words = [rng.getrandbits(WIDTH) for _ in range(count)]
    source = StreamSource(StreamBus(dut, "in"), dut.clk)
    sink = StreamSink(StreamBus(dut, "out"), dut.clk)
    monitors = [StreamMonitor(StreamBus(dut, side), dut.clk, reset=dut.rst_n) for side in ("in", "out")]
    start = cycle()
    recv = cocotb.start_soon(sink.recv(count))
    sent_cycles = await source.send(words)
    got = await recv
    total = cycle() - start
    assert [w for (w,) in got] == words, "beats lost, changed or reordered"
    assert sent_cycles == count, f"{count} beats took {sent_cycles} cycles to send (want one per cycle)"
    # the skid's output is a register: the last beat leaves one cycle after it entered
    assert total == count + 1, f"{count} beats took {total} cycles end to end (want {count + 1})"
    for m in monitors:
        assert [w for (w,) in m.queue] == words, f"monitor {m.bus.prefix} recorded other beats"
    outcome.checked(count, "beats")


@cocotb.test(timeout_time=5, timeout_unit="ms")
async def random_pauses(dut: Any) -> None:
    await reset(dut)
    rng = make_rng("random_pauses")
    source = StreamSource(StreamBus(dut, "in"), dut.clk)
    sink = StreamSink(StreamBus(dut, "out"), dut.clk)
    monitor = StreamMonitor(StreamBus(dut, "out"), dut.clk, reset=dut.rst_n)
    total = 0
    for _ in range(scaled(8, 40)):
        words = [rng.getrandbits(WIDTH) for _ in range(rng.randint(1, 200))]
        source.set_pause_generator(pick_pause(rng))
        sink.set_pause_generator(pick_pause(rng))
        # queue first, collect later: the sink's credit, not the caller, decides when ready rises
        source.send_nowait(words)
        got = await sink.recv(len(words))
        await source.wait()
        assert source.idle(), "source not idle after its last beat was taken"
        assert [w for (w,) in got] == words, "beats lost, changed or reordered"
        total += len(words)
        outcome.checked(total, "beats")
    assert monitor.beats == total, f"monitor saw {monitor.beats} handshakes, sink took {total}"


async def drive(dut: Any, valid: int, data: int) -> bool:
    """Drive the input for one cycle; whether it was taken."""
    dut.in_valid.value, dut.in_data.value = valid, data
    await ReadOnly()
    taken = bool(valid) and bool(dut.in_ready.value)
    await RisingEdge(dut.clk)
    return taken


@cocotb.test(timeout_time=100, timeout_unit="us")
async def monitor_flags_violations(dut: Any) -> None:
    await reset(dut)
    monitor = StreamMonitor(StreamBus(dut, "in"), dut.clk, reset=dut.rst_n, fail=False)
    # out_ready stays low: two beats fill the skid, then in_ready is low
    for word in (0x11, 0x22):
        assert await drive(dut, 1, word), "the empty skid refused a beat"
    for _ in range(5):                          # a correct stall: valid and data held
        assert not await drive(dut, 1, 0x33), "the full skid took a beat"
    assert not monitor.errors, f"a correct stall was flagged: {monitor.errors}"
    await drive(dut, 0, 0x33)                   # valid falls while not ready
    await drive(dut, 1, 0x44)
    await drive(dut, 1, 0x45)                   # data changes while not ready
    await drive(dut, 0, 0)                      # and that beat is withdrawn too
    await ReadOnly()
    want = ("valid fell", "changed data 0x44 -> 0x45", "valid fell")
    assert len(monitor.errors) == len(want), f"want {len(want)} violations, got {monitor.errors}"
    for err, what in zip(monitor.errors, want, strict=True):
        assert what in err and "stream in" in err, f"want {what!r}, got {err!r}"
    outcome.checked(len(want), "violations")


@cocotb.test(timeout_time=5, timeout_unit="us")
async def sink_fails_when_stalled(dut: Any) -> None:
    await reset(dut)
    sink = StreamSink(StreamBus(dut, "out"), dut.clk, never_pause())
    limit, start = 50, cycle()
    try:
        await sink.recv(1, idle_limit=limit)
    except AssertionError as e:
        assert "stalled: 0 of 1 beats" in str(e), f"unexpected error: {e}"
    else:
        raise AssertionError("recv returned a beat nobody sent")
    waited = cycle() - start
    assert limit <= waited <= limit + 1, f"recv gave up after {waited} cycles (idle_limit {limit})"
