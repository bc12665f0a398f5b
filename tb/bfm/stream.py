"""Valid/ready stream BFMs: a source with send() and a sink with recv(), each throttled by a pause generator.

Handshakes are sampled in the ReadOnly phase before each rising edge, so the BFMs behave the same on
Verilator and Icarus whatever the order of edge and flop updates.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence

from cocotb.handle import SimHandleBase
from cocotb.triggers import ReadOnly, RisingEdge


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


class StreamSource:
    """Drives valid/data; a beat is sent at each edge where valid and ready were both high."""

    def __init__(self, clk: SimHandleBase, valid: SimHandleBase, ready: SimHandleBase, data: SimHandleBase,
                 pause: Iterator[bool] | None = None) -> None:
        self.clk, self.valid, self.ready, self.data = clk, valid, ready, data
        self.pause = pause or never_pause()
        self.valid.value = 0

    async def send(self, beats: Iterable[int]) -> int:
        """Send every beat in order; returns the number of clock cycles it took."""
        cycles = 0
        for beat in beats:
            while True:
                active = not next(self.pause)
                self.valid.value = int(active)
                if active:
                    self.data.value = beat
                await ReadOnly()
                fired = active and bool(self.ready.value)
                await RisingEdge(self.clk)
                cycles += 1
                if fired:
                    break
        self.valid.value = 0
        return cycles


class StreamSink:
    """Drives ready; collects data (and optional side-band signals) of each accepted beat."""

    def __init__(self, clk: SimHandleBase, valid: SimHandleBase, ready: SimHandleBase, data: SimHandleBase,
                 pause: Iterator[bool] | None = None, sideband: Sequence[SimHandleBase] = ()) -> None:
        self.clk, self.valid, self.ready, self.data = clk, valid, ready, data
        self.sideband = list(sideband)
        self.pause = pause or never_pause()
        self.ready.value = 0

    async def recv(self, count: int, idle_limit: int = 20000) -> list[tuple[int, ...]]:
        """Receive `count` beats; each is (data, *sideband) as unsigned ints. Fails, rather than hangs,
        when no beat arrives for `idle_limit` cycles."""
        beats: list[tuple[int, ...]] = []
        idle = 0
        while len(beats) < count:
            idle += 1
            if idle > idle_limit:
                raise AssertionError(f"stream stalled: {len(beats)} of {count} beats received, "
                                     f"none in the last {idle_limit} cycles")
            ready = not next(self.pause)
            self.ready.value = int(ready)
            await ReadOnly()
            if ready and bool(self.valid.value):
                idle = 0
                beats.append((int(self.data.value), *(int(s.value) for s in self.sideband)))
            await RisingEdge(self.clk)
        self.ready.value = 0
        return beats
