"""Python side of the simulation AXI memory (tb/hdl/nvdla_sim_axi_mem.v): load, read back and clear its
contents and set its timing, without simulating a bus cycle.

The storage is a public Verilog array of bus words; this module reads and writes it through simulator handles
with immediate (no-delay) writes, so `write` then `read` in the same time step see each other, as on
cocotbext-axi's AxiRam, whose `read(addr, n)` / `write(addr, data)` it mirrors. Pages the Python side
allocates come
from the highest free slot (`py_used`), pages write bursts allocate from the lowest (`used`), so the two never
race for a slot. Clearing (zeroing every used page) runs in Verilog on the `mem_clear` strobe: one clock edge,
not a handle write per word.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from cocotb.triggers import RisingEdge

_NO_DELAY = 3   # cocotb's GPI set action "no delay": the value is visible at once
CHANNELS = ("ar", "r", "aw", "w", "b")


@dataclass(frozen=True)
class MemTiming:
    """Memory timing of one run: latencies in cycles, stalls as a probability per channel (0..1)."""

    seed: int = 1
    rd_lat: int = 0          # AR handshake to the first R beat offered
    rd_jit: int = 0          # plus a random 0..rd_jit
    wr_lat: int = 0          # last W beat to B offered
    wr_jit: int = 0
    stall: tuple[float, float, float, float, float] = (0.0, 0.0, 0.0, 0.0, 0.0)   # AR, R, AW, W, B

    @classmethod
    def fixed(cls, latency: int) -> MemTiming:
        """A fixed read and write latency, no stalls."""
        return cls(rd_lat=latency, wr_lat=latency)

    @classmethod
    def random(cls, rng: random.Random) -> MemTiming:
        """Random latency and backpressure on every channel, drawn from rng (the run's seed)."""
        return cls(seed=rng.getrandbits(32) | 1, rd_lat=rng.randint(0, 8), rd_jit=rng.choice((0, 4, 16, 40)),
                   wr_lat=rng.randint(0, 8), wr_jit=rng.choice((0, 4, 16)),
                   stall=tuple(rng.choice((0.0, 0.1, 0.3, 0.6)) for _ in CHANNELS))  # type: ignore[arg-type]

    def describe(self) -> str:
        stalls = " ".join(f"{c}={p:.2f}" for c, p in zip(CHANNELS, self.stall, strict=True))
        return (f"seed {self.seed:#x}, read latency {self.rd_lat}+0..{self.rd_jit}, write latency "
                f"{self.wr_lat}+0..{self.wr_jit}, stalls {stalls}")


class SimMemory:
    """A memory of tb/hdl/nvdla_pp_top_mem.v (`dut.u_mem` on m_axi, or `dut.u_cmem`, the CV SRAM on c_axi:
    `instance`), configured by the wrapper's mem_* inputs, which both memories share (the strobe on
    mem_clear clears both: each memory's `clear` must still run, to forget this side's page table)."""

    def __init__(self, dut: Any, clk: Any = None, instance: str = "u_mem") -> None:
        self.dut = dut
        self.clk = clk if clk is not None else dut.clk
        mem = getattr(dut, instance)
        self._mem = mem
        self.bytes = len(mem.store[0]) // 8
        self.slots = len(mem.tag)
        self.page_bytes = len(mem.store) // self.slots * self.bytes
        self._store = mem.store._handle        # raw simulator objects: no cocotb handle per word
        self._tag = mem.tag._handle
        # word handles by store index: a slot's words keep their index whatever page it holds, so they stay
        # valid across clears (creating a handle costs ~20x reading it; write bursts reuse the low slots)
        self._words: dict[int, Any] = {}
        self._pages: dict[int, int] = {}       # page number -> slot, as far as known
        # blocks written since the last clear, per slot, as bit masks: by W beats (the Verilog `dirty` map)
        # and by this side (kept here); every other block of a page reads 0 without a handle read
        self._dirty = mem.dirty._handle
        self.block_bytes = self.page_bytes // len(mem.dirty[0])
        self._py_blocks: dict[int, int] = {}

    # ---- configuration -----------------------------------------------------------------------------------
    def configure(self, timing: MemTiming) -> None:
        """Set the timing; the memory samples it while rst_n is low, so call this before a reset."""
        d = self.dut
        d.mem_seed.value = timing.seed & 0xFFFFFFFF
        d.mem_rd_lat.value, d.mem_rd_jit.value = timing.rd_lat, timing.rd_jit
        d.mem_wr_lat.value, d.mem_wr_jit.value = timing.wr_lat, timing.wr_jit
        stall = 0
        for i, p in enumerate(timing.stall):
            stall |= min(255, round(p * 256)) << (8 * i)
        d.mem_stall.value = stall
        d.mem_clear.value = 0

    # ---- statistics ----------------------------------------------------------------------------------------
    @property
    def read_bytes(self) -> int:
        """Bytes served on R since the last clear."""
        return int(self._mem.rd_bytes.value)

    @property
    def write_bytes(self) -> int:
        """Bytes written (strobed) on W since the last clear."""
        return int(self._mem.wr_bytes.value)

    @property
    def error(self) -> bool:
        """A WRAP burst, a misplaced WLAST or a full memory since the last clear."""
        return bool(int(self._mem.error.value))

    # ---- contents ----------------------------------------------------------------------------------------
    async def clear(self) -> None:
        """Every byte reads 0 again (the Verilog side zeroes the used pages on one clock edge)."""
        self.dut.mem_clear.value = 1
        await RisingEdge(self.clk)
        await RisingEdge(self.clk)
        self.dut.mem_clear.value = 0
        self._mem.py_used._handle.set_signal_val_binstr(_NO_DELAY, "0" * self.slots)
        self._pages.clear()
        self._py_blocks.clear()

    def write(self, addr: int, data: bytes | bytearray | memoryview) -> None:
        data = bytes(data)
        pos = 0
        while pos < len(data):
            a = addr + pos
            page_off = a % self.page_bytes
            n = min(len(data) - pos, self.page_bytes - page_off)
            chunk = data[pos:pos + n]
            if any(chunk) or self._slot(a // self.page_bytes) is not None:
                self._write_page(a, chunk)
            pos += n

    def fill_zero(self, addr: int, size: int) -> None:
        """Zero a region (as large as the address space): only its pages in use cost handle writes."""
        pos = 0
        while pos < size:
            a = addr + pos
            n = min(size - pos, self.page_bytes - a % self.page_bytes)
            if self._slot(a // self.page_bytes) is not None:
                self._write_page(a, bytes(n))
            pos += n

    def read(self, addr: int, length: int) -> bytes:
        out = bytearray()
        pos = 0
        while pos < length:
            a = addr + pos
            page_off = a % self.page_bytes
            n = min(length - pos, self.page_bytes - page_off)
            slot = self._slot(a // self.page_bytes)
            out += bytes(n) if slot is None else self._read_written(slot, page_off, n)
            pos += n
        return bytes(out)

    # ---- internals -------------------------------------------------------------------------------------
    def _word(self, index: int) -> Any:
        handle = self._words.get(index)
        if handle is None:
            handle = self._words[index] = self._store.get_handle_by_index(index)
        return handle

    def _get(self, index: int) -> int:
        text = self._word(index).get_signal_val_binstr()
        return int(text, 2) if text.isdigit() else int(text.replace("x", "0").replace("z", "0"), 2)

    def _set(self, index: int, value: int) -> None:
        self._word(index).set_signal_val_binstr(_NO_DELAY, format(value, f"0{self.bytes * 8}b"))

    def _taken(self) -> tuple[int, int]:
        used = int(self._mem.used._handle.get_signal_val_binstr().replace("x", "0"), 2)
        py_used = int(self._mem.py_used._handle.get_signal_val_binstr().replace("x", "0"), 2)
        return used, py_used

    def _slot(self, page: int, allocate: bool = False) -> int | None:
        """The slot holding `page` (looked up in the Verilog page table), or a new one when allocating."""
        if page in self._pages:
            return self._pages[page]
        used, py_used = self._taken()
        taken = used | py_used
        for s in range(self.slots):
            if taken >> s & 1 and int(self._tag.get_handle_by_index(s).get_signal_val_binstr(), 2) == page:
                self._pages[page] = s
                return s
        if not allocate:
            return None
        free = [s for s in range(self.slots) if not taken >> s & 1]
        if len(free) < 2:   # keep one slot for write bursts, and never race them for the last
            raise MemoryError(f"simulation memory full ({self.slots} pages of {self.page_bytes} bytes)")
        s = free[-1]
        tag_bits = 32 - (self.page_bytes.bit_length() - 1)
        self._tag.get_handle_by_index(s).set_signal_val_binstr(_NO_DELAY, format(page, f"0{tag_bits}b"))
        self._mem.py_used._handle.set_signal_val_binstr(
            _NO_DELAY, format(py_used | 1 << s, f"0{self.slots}b"))
        self._pages[page] = s
        return s

    def _write_page(self, addr: int, chunk: bytes) -> None:
        slot = self._slot(addr // self.page_bytes, allocate=True)
        assert slot is not None
        nb = self.bytes
        base = slot * (self.page_bytes // nb)
        off = addr % self.page_bytes
        first, last = off // self.block_bytes, (off + len(chunk) - 1) // self.block_bytes
        self._py_blocks[slot] = self._py_blocks.get(slot, 0) | ((1 << (last + 1)) - (1 << first))
        pos = 0
        while pos < len(chunk):
            word, lane = divmod(off + pos, nb)
            n = min(nb - lane, len(chunk) - pos)
            if n == nb:
                self._set(base + word, int.from_bytes(chunk[pos:pos + nb], "little"))
            else:   # a partial word: read, modify, write
                cur = bytearray(self._get(base + word).to_bytes(nb, "little"))
                cur[lane:lane + n] = chunk[pos:pos + n]
                self._set(base + word, int.from_bytes(cur, "little"))
            pos += n

    def _read_written(self, slot: int, off: int, n: int) -> bytes:
        """Bytes [off, off + n) of a slot's page: the blocks written since the last clear read through
        handles, the others are 0 (clear zeroed them)."""
        text = self._dirty.get_handle_by_index(slot).get_signal_val_binstr()
        written = int(text.replace("x", "0").replace("z", "0"), 2) | self._py_blocks.get(slot, 0)
        out = bytearray()
        pos = off
        while pos < off + n:
            block = pos // self.block_bytes
            m = min(off + n - pos, (block + 1) * self.block_bytes - pos)
            out += self._read_page(slot, pos, m) if written >> block & 1 else bytes(m)
            pos += m
        return bytes(out)

    def _read_page(self, slot: int, off: int, n: int) -> bytes:
        nb = self.bytes
        base = slot * (self.page_bytes // nb)
        first, last = off // nb, (off + n - 1) // nb
        raw = b"".join(self._get(base + w).to_bytes(nb, "little") for w in range(first, last + 1))
        return raw[off - first * nb:off - first * nb + n]
