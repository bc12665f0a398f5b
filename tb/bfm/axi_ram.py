"""cocotbext-axi's AxiRam as the benches use it: random stalls on the memory's side of every AXI channel, and
(`ErrorRam`) error responses on chosen address windows."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from cocotb.handle import SimHandleBase
from cocotbext.axi import AxiBus, AxiRam
from cocotbext.axi.axi_ram import AxiRamRead, AxiRamWrite
from cocotbext.axi.constants import AxiResp
from cocotbext.axi.memory import Memory

from tb.bfm.stream import never_pause, pick_pause, random_pause


def _channels(ram: AxiRam) -> list[Any]:
    return [ram.write_if.aw_channel, ram.write_if.w_channel, ram.write_if.b_channel,
            ram.read_if.ar_channel, ram.read_if.r_channel]


# cocotbext-axi's own queue limit of each channel (AxiSlaveRead/Write): AR, AW, W take at most this many
# requests ahead of the one being served, so a burst of requests meets a full queue even without pauses
QUEUE_LIMIT = 2


def set_memory_pauses(ram: AxiRam, rng: random.Random, stall: bool | None = None) -> None:
    """Stalls on all five AXI channels (the memory's side of the handshakes): a random shape per channel
    (stall None); each channel withholding its ready or valid about half the cycles, AW and W 19 in 20
    (True: a slower write side, so that the arbiter's write buffers fill even behind a pooling layer, which
    writes less than it reads, or a unit narrower than the atom, which writes an atom in several cycles); or
    none at all (False: no pauses and unbounded request queues, so AR, AW and W are ready every cycle)."""
    for channel in _channels(ram):
        if stall is None:
            channel.set_pause_generator(pick_pause(rng))
        elif stall:
            heavy = channel in (ram.write_if.aw_channel, ram.write_if.w_channel)
            channel.set_pause_generator(random_pause(rng, 0.95 if heavy else 0.5))
        else:
            channel.set_pause_generator(never_pause())
        channel.queue_occupancy_limit = -1 if stall is False else QUEUE_LIMIT


# ---- error responses ----------------------------------------------------------------------------------

class _Refused(Exception):
    """An access in an error window: AxiSlaveRead/Write answer it with an error response."""


@dataclass
class ErrorWindows:
    """Byte windows [lo, hi) of one memory whose beats it answers with an error response (SLVERR or DECERR)
    instead of serving them: a read beat carries `junk` (not what the memory holds, and not zeros, so that a
    DMA that used, dropped or zeroed the beat would each give a different result), a write beat is dropped.
    A real slave may do otherwise; the DMA must not care. `answered` counts the beats per (kind, response)."""

    windows: list[tuple[int, int, AxiResp]] = field(default_factory=list)
    answered: dict[tuple[str, AxiResp], int] = field(default_factory=dict)

    def refuses(self, kind: str, addr: int) -> AxiResp | None:
        for lo, hi, resp in self.windows:
            if lo <= addr < hi:
                self.answered[kind, resp] = self.answered.get((kind, resp), 0) + 1
                return resp
        return None


def junk(addr: int, length: int) -> bytes:
    """The data an error window's read beats carry at [addr, addr + length): a fixed function of the address
    (the bench puts the same bytes in the model's memory), never all zeros."""
    return bytes(((a * 151) ^ (a >> 8) ^ 0x5B) & 0xFF for a in range(addr, addr + length))


def _retag(send: Callable[[Any], Awaitable[None]], field_name: str,
           take: Callable[[], AxiResp | None]) -> Callable[[Any], Awaitable[None]]:
    """A channel's send that gives a refused access the window's response (`take`: the response owed, if any;
    None leaves the beat as it is)."""
    async def retagged(obj: Any) -> None:
        resp = take()
        if resp is not None:
            setattr(obj, field_name, resp)
        await send(obj)
    return retagged


class _ReadIf(AxiRamRead):
    def __init__(self, *args: Any, errors: ErrorWindows, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.errors = errors
        self.beat_resp: AxiResp | None = None    # the response owed for the beat being sent
        self.r_channel.send = _retag(self.r_channel.send, "rresp", self._take)

    def _take(self) -> AxiResp | None:
        resp, self.beat_resp = self.beat_resp, None
        return resp

    async def _read(self, address: int, length: int) -> bytes:
        self.beat_resp = self.errors.refuses("read", address)
        if self.beat_resp is not None:
            return junk(address, length)
        return await super()._read(address, length)


class _WriteIf(AxiRamWrite):
    def __init__(self, *args: Any, errors: ErrorWindows, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.errors = errors
        self.burst_resp: AxiResp | None = None   # one B per burst: the first refused beat's response
        self.b_channel.send = _retag(self.b_channel.send, "bresp", self._take)

    def _take(self) -> AxiResp | None:
        resp, self.burst_resp = self.burst_resp, None
        return resp

    async def _write(self, address: int, data: bytes) -> None:
        resp = self.errors.refuses("write", address)
        if resp is not None:
            self.burst_resp = self.burst_resp or resp
            raise _Refused(hex(address))
        await super()._write(address, data)


class ErrorRam(AxiRam):
    """An AxiRam (the whole bus, protocol checks, pause generators) that answers the accesses in its
    `errors` windows with error responses; with no window it is a plain AxiRam."""

    def __init__(self, bus: AxiBus, clock: SimHandleBase, reset: SimHandleBase | None = None,
                 reset_active_level: bool = True, size: int = 2**64) -> None:
        # AxiRam.__init__ without its interfaces (two would drive the bus): the storage, then ours on it
        Memory.__init__(self, size)
        self.errors = ErrorWindows()
        kw = {"mem": self.mem, "errors": self.errors}
        self.write_if = _WriteIf(bus.write, clock, reset, reset_active_level, **kw)
        self.read_if = _ReadIf(bus.read, clock, reset, reset_active_level, **kw)
