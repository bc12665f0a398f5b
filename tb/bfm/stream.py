"""Valid/ready stream BFMs on the cocotbext-axi pattern: a `StreamBus` (cocotb_bus `Bus`) names the signals,
`StreamSource` and `StreamSink` each own a queue served by one background coroutine started at construction,
throttled by a pause generator (`set_pause_generator`), and `StreamMonitor` passively records every handshake
and checks the protocol.

Handshakes are sampled in the ReadOnly phase before each rising edge, so the BFMs behave the same on
Verilator and Icarus whatever the order of edge and flop updates. Pause generators are stepped by the
BFM's own loop, one value per cycle (not by a separate coroutine as in cocotbext-axi), so that a source
with no pause presents a beat every cycle back to back and the pause seen is the one of that very cycle.
A BFM belongs to one cocotb test: cocotb cancels its coroutine at the end of the test (a BFM used again
restarts it). Call send/recv/accept where a signal write is allowed (not in ReadOnly): the coroutine they
wake drives the bus in that same step, as the old inline send/recv did.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable, Iterator, Sequence

import cocotb
from cocotb.handle import SimHandleBase
from cocotb.task import Task
from cocotb.triggers import Event, ReadOnly, RisingEdge
from cocotb.utils import get_sim_time
from cocotb_bus.bus import Bus


def never_pause() -> Iterator[bool]:
    while True:
        yield False


def random_pause(rng: random.Random, probability: float) -> Iterator[bool]:
    """Pause a cycle with the given probability (independent cycles)."""
    while True:
        yield rng.random() < probability


def bursty_pause(rng: random.Random, max_run: int = 8) -> Iterator[bool]:
    """Alternating random-length runs of activity and stalls: exercises full and empty pipelines."""
    while True:
        for _ in range(rng.randint(1, max_run)):
            yield False
        for _ in range(rng.randint(0, max_run)):
            yield True


def pick_pause(rng: random.Random) -> Iterator[bool]:
    """A random choice among the pause shapes above, so each run sees a different backpressure pattern."""
    kind = rng.choice(["none", "light", "heavy", "bursty"])
    if kind == "none":
        return never_pause()
    if kind == "bursty":
        return bursty_pause(rng)
    return random_pause(rng, 0.2 if kind == "light" else 0.7)


def stalling_pause(rng: random.Random) -> Iterator[bool]:
    """Like pick_pause, but never the shape without pauses: light, heavy or bursty."""
    kind = rng.choice(["light", "heavy", "bursty"])
    if kind == "bursty":
        return bursty_pause(rng)
    return random_pause(rng, 0.2 if kind == "light" else 0.7)


class StreamBus(Bus):
    """`<prefix>_valid`, `<prefix>_ready`, `<prefix>_<data>` and side-band signals `<prefix>_<name>` of
    `entity`, or the bare names when prefix is None. A beat is (data, *sideband) in the order given."""

    def __init__(self, entity: SimHandleBase, prefix: str | None, data: str = "data",
                 sideband: Sequence[str] = ()) -> None:
        signals = {"valid": "valid", "ready": "ready", "data": data, **{f"sb_{n}": n for n in sideband}}
        super().__init__(entity, prefix, signals, case_insensitive=False)
        self.prefix = prefix or data
        self.valid: SimHandleBase
        self.ready: SimHandleBase
        self.data: SimHandleBase
        self.sideband: tuple[SimHandleBase, ...] = tuple(getattr(self, f"sb_{n}") for n in sideband)

    def beat(self) -> tuple[int, ...]:
        """The current (data, *sideband) as unsigned ints."""
        return (int(self.data.value), *(int(s.value) for s in self.sideband))


class _Driver:
    """What a source and a sink share: the bus, the clock, a pause generator and a restartable coroutine."""

    def __init__(self, bus: StreamBus, clock: SimHandleBase, pause: Iterator[bool] | None) -> None:
        self.bus, self.clock = bus, clock
        self._pause: Iterator[bool] = pause or never_pause()
        self._wake = Event()      # set when there is work for the coroutine, which sleeps on it when idle
        self._task: Task[None] | None = None

    def set_pause_generator(self, generator: Iterator[bool] | None = None) -> None:
        """One bool per cycle while the BFM has work: True holds valid (source) or ready (sink) low."""
        self._pause = generator or never_pause()

    def clear_pause_generator(self) -> None:
        self.set_pause_generator(None)

    def _kick(self) -> None:
        # a BFM kept from an earlier test finds its coroutine cancelled: start a new one
        if self._task is None or self._task.done():
            self._task = cocotb.start_soon(self._run())
        self._wake.set()

    async def _run(self) -> None:
        raise NotImplementedError


class StreamSource(_Driver):
    """Drives valid/data from a queue of beats; a beat leaves the queue at each edge where valid and ready
    were both high. Valid is low whenever the queue is empty or the pause generator says so."""

    def __init__(self, bus: StreamBus, clock: SimHandleBase, pause: Iterator[bool] | None = None) -> None:
        super().__init__(bus, clock, pause)
        self.queue: deque[int] = deque()
        self.sent = 0             # beats handshaked so far
        self.active = False       # a beat is on the bus (or paused) this cycle
        self._cycles = 0          # clock cycles spent with beats queued
        self._idle = Event()
        self._idle.set()
        bus.valid.value = 0
        self._kick()

    def send_nowait(self, beats: Iterable[int]) -> None:
        """Queue beats behind those already queued; returns at once."""
        self.queue.extend(beats)
        if self.queue:
            self._idle.clear()
            self._kick()

    async def send(self, beats: Iterable[int]) -> int:
        """Queue beats and wait until every queued beat is accepted; returns the clock cycles it took."""
        start = self._cycles
        self.send_nowait(beats)
        await self.wait()
        return self._cycles - start

    def idle(self) -> bool:
        return not self.queue and not self.active

    async def wait(self) -> None:
        """Until the queue is empty and the last beat accepted (returns right after that rising edge)."""
        if not self.idle():
            await self._idle.wait()

    async def _run(self) -> None:
        bus, edge, sample = self.bus, RisingEdge(self.clock), ReadOnly()
        while True:
            if not self.queue:
                bus.valid.value = 0
                self.active = False
                self._idle.set()
                self._wake.clear()
                await self._wake.wait()
                continue
            self.active = True
            show = not next(self._pause)
            bus.valid.value = int(show)
            if show:
                bus.data.value = self.queue[0]
            await sample
            fired = show and bool(bus.ready.value)
            await edge
            self._cycles += 1
            if fired:
                self.queue.popleft()
                self.sent += 1


class StreamSink(_Driver):
    """Drives ready and queues (data, *sideband) of each accepted beat. Ready is raised only while the bench
    still wants beats (`recv`, or credit granted with `accept`), so the DUT sees backpressure whenever the
    bench expects nothing; the pause generator lowers it further."""

    def __init__(self, bus: StreamBus, clock: SimHandleBase, pause: Iterator[bool] | None = None) -> None:
        super().__init__(bus, clock, pause)
        self.queue: deque[tuple[int, ...]] = deque()
        self.credit = 0           # beats still to accept
        self.idle_cycles = 0      # cycles with credit but no beat, since the last beat
        self._idle_limit = 0      # 0: no limit (no recv waiting)
        self._got = Event()       # set after the edge of each beat, and on a stall
        bus.ready.value = 0
        self._kick()

    def accept(self, count: int) -> None:
        """Grant credit for `count` more beats, to be collected later from `queue` or by `recv`."""
        if count > 0:
            self.credit += count
            self._kick()

    async def recv(self, count: int, idle_limit: int = 20000) -> list[tuple[int, ...]]:
        """The next `count` beats, each (data, *sideband) as unsigned ints. Fails, rather than hangs,
        when no beat arrives for `idle_limit` cycles."""
        self.accept(count - len(self.queue) - self.credit)
        self._idle_limit, self.idle_cycles = idle_limit, 0
        try:
            while len(self.queue) < count:
                self._got.clear()
                await self._got.wait()
                if len(self.queue) < count and self.idle_cycles >= idle_limit:
                    raise AssertionError(
                        f"stream {self.bus.prefix} stalled: {len(self.queue)} of {count} beats received, "
                        f"none in the last {idle_limit} cycles")
        finally:
            self._idle_limit = 0
        return [self.queue.popleft() for _ in range(count)]

    async def _run(self) -> None:
        bus, edge, sample = self.bus, RisingEdge(self.clock), ReadOnly()
        while True:
            if self.credit <= 0:
                bus.ready.value = 0
                self._wake.clear()
                await self._wake.wait()
                continue
            ready = not next(self._pause)
            bus.ready.value = int(ready)
            await sample
            beat = bus.beat() if ready and bool(bus.valid.value) else None
            await edge
            # waiters resume after the edge, as if they had driven the handshake themselves
            if beat is not None:
                self.queue.append(beat)
                self.credit -= 1
                self.idle_cycles = 0
                self._got.set()
            else:
                self.idle_cycles += 1
                if self._idle_limit and self.idle_cycles >= self._idle_limit:
                    self._got.set()


def _show(value: object) -> str:
    """A sampled value in hex when it has no X or Z, else bit by bit."""
    resolvable = getattr(value, "is_resolvable", False)
    return f"{int(value):#x}" if resolvable else str(value)


class StreamMonitor:
    """Passive: records (data, *sideband) of every handshake in `queue` and checks the valid/ready protocol
    (once valid is high it stays high, with data and side-band unchanged, until ready takes the beat). A
    violation is kept in `errors` and, with `fail` (the default), raised in the monitor's coroutine, which
    fails the running test. With `reset` (active low by default) the check restarts during reset."""

    def __init__(self, bus: StreamBus, clock: SimHandleBase, reset: SimHandleBase | None = None,
                 reset_active_level: bool = False, record: bool = True, fail: bool = True) -> None:
        self.bus, self.clock, self.reset = bus, clock, reset
        self.reset_active_level = reset_active_level
        self.record, self.fail = record, fail
        self.queue: deque[tuple[int, ...]] = deque()
        self.beats = 0            # handshakes seen
        self.errors: list[str] = []
        self._task = cocotb.start_soon(self._run())

    def stop(self) -> None:
        self._task.cancel()

    def _in_reset(self) -> bool:
        if self.reset is None:
            return False
        value = self.reset.value
        return not value.is_resolvable or bool(value) == self.reset_active_level  # X: not out of reset yet

    def _violation(self, held: tuple[object, ...], now: tuple[object, ...], valid: object) -> str | None:
        """What broke the protocol on a beat that was pending at the last edge, or None."""
        if not (getattr(valid, "is_resolvable", False) and bool(valid)):
            return f"valid fell (to {valid})"
        names = ("data", *(f"side-band {i}" for i in range(len(self.bus.sideband))))
        diff = [f"{n} {_show(old)} -> {_show(new)}" for n, old, new in zip(names, held, now, strict=True)
                if old != new]
        return "changed " + ", ".join(diff) if diff else None

    def _report(self, what: str, cycle: int, since: int) -> None:
        msg = (f"stream {self.bus.prefix}: {what} at cycle {cycle} ({get_sim_time('ns'):.0f} ns) while "
               f"ready was low, beat pending since cycle {since}; beats accepted before it: {self.beats}")
        self.errors.append(msg)
        if self.fail:
            raise AssertionError(msg)

    async def _run(self) -> None:
        bus, edge, sample = self.bus, RisingEdge(self.clock), ReadOnly()
        signals = (bus.data, *bus.sideband)
        held: tuple[object, ...] | None = None  # values of a beat shown without ready at the last edge
        since = cycle = 0
        while True:
            await sample
            if self._in_reset():
                held = None
            else:
                valid = bus.valid.value
                if held is not None:
                    what = self._violation(held, tuple(s.value for s in signals), valid)
                    if what is not None:
                        self._report(what, cycle, since)
                        held = None   # (fail=False) check the beat shown now afresh
                if valid.is_resolvable and bool(valid):
                    ready = bus.ready.value
                    if ready.is_resolvable and bool(ready):
                        self.beats += 1
                        if self.record:
                            self.queue.append(bus.beat())
                        held = None
                    elif held is None:
                        held, since = tuple(s.value for s in signals), cycle
            await edge
            cycle += 1


async def start_and_expect_commands(dut: SimHandleBase, label: str, expected: Sequence[tuple[int, int]],
                                    rng: random.Random) -> None:
    """A DMA sequencer bench's layer: pulse `start` for one cycle after the next clock edge, then take the
    command stream (`cmd`: addr, beats) behind random pauses and compare it with `expected`, failing on the
    first wrong command with its index, the expected and the actual address and beats."""
    await RisingEdge(dut.clk)
    dut.start.value = 1
    await RisingEdge(dut.clk)
    dut.start.value = 0
    sink = StreamSink(StreamBus(dut, "cmd", data="addr", sideband=["beats"]), dut.clk, pick_pause(rng))
    got = await sink.recv(len(expected))
    for i, (exp, act) in enumerate(zip(expected, got, strict=True)):
        if exp != act:
            raise AssertionError(f"{label}: command {i} of {len(expected)}: expected addr {exp[0]:#x} "
                                 f"beats {exp[1]}, got addr {act[0]:#x} beats {act[1]}")


class WaitCounter:
    """Passive: counts the cycles in which a stream holds a beat that is not taken (valid high, ready low),
    so a bench can show that backpressure reached the design's output."""

    def __init__(self, bus: StreamBus, clock: SimHandleBase) -> None:
        self.bus, self.clock = bus, clock
        self.cycles = 0
        self._task = cocotb.start_soon(self._run())

    async def _run(self) -> None:
        edge, sample = RisingEdge(self.clock), ReadOnly()
        while True:
            await edge
            await sample
            if self.bus.valid.value.is_resolvable and self.bus.ready.value.is_resolvable \
                    and int(self.bus.valid.value) and not int(self.bus.ready.value):
                self.cycles += 1
