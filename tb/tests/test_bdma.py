"""Bench of BDMA (rtl/bdma/nvdla_bdma.v behind rtl/gen/nvdla_bdma_regs.v, harness tb/hdl/nvdla_bdma_top.v):
random copy programs over both AXI masters (MC and CV SRAM, one cocotbext-axi AxiRam each, random stalls on
every channel), scored byte for byte against models/bdma/model.py, which sees the same register writes.

Each round queues one or two groups (1..6 operations each, launch order random, the second group's
operations programmed while the first runs), waits for each group's done pulse, and compares every
destination line and the 32 bytes either side in both memories with the model's. Register values cover the
legal range: line sizes 1..256 units (up to 8192, rarely, in the nightly), 1..6 lines and 1..3 surfaces,
strides 0, packed, random and huge (up to 1 GiB apart), low address bits set (the hardware drops them),
both RAM types. Also: register read-back, STATUS against the model at every quiet point, the 21st push
dropped, a group of no operation that stays busy, and (axi_errors) SLVERR/DECERR answers on parts of the
source and destination lines, which must not keep a group from its done (docs/perf_counters.md).
"""

from __future__ import annotations

import random

import cocotb
import numpy as np
from cocotb.triggers import ClockCycles, ReadOnly, RisingEdge, Timer
from cocotbext.axi import AxiBus
from cocotbext.axi.constants import AxiResp

from models import registers as regmap
from models.bdma.model import QUEUE_DEPTH, Bdma, BdmaOp
from models.common.memory import Memory
from tb import outcome
from tb.bfm.axi_ram import ErrorRam, junk, set_memory_pauses
from tb.common import bench_params, make_rng, nightly, scaled, start_clock_and_reset

REGS = regmap.registers("BDMA")
PREFIX = {0: "m_axi", 1: "c_axi"}  # model memory index -> AXI master (MC is memory 0)
HALF = 1 << 31  # sources in the low half of each memory, destinations in the high half: never overlapping


class Env:
    def __init__(self, dut, rng: random.Random) -> None:
        self.dut, self.rng = dut, rng
        # ErrorRam: cocotbext-axi's AxiRam, answering errors on the windows axi_errors gives it
        self.rams = {m: ErrorRam(AxiBus.from_prefix(dut, p), dut.clk, dut.rst_n, reset_active_level=False,
                                 size=2**32) for m, p in PREFIX.items()}
        self.model = Bdma([Memory(), Memory()])
        self.done = [0, 0]
        cocotb.start_soon(self._count_done())

    async def _count_done(self) -> None:
        while True:
            await RisingEdge(self.dut.clk)
            await ReadOnly()
            for g in (0, 1):
                self.done[g] += int(self.dut.done_intr.value) >> g & 1

    async def write(self, reg: str, value: int) -> None:
        d = self.dut
        await RisingEdge(d.clk)
        d.reg_sel.value, d.reg_write.value = 1, 1
        d.reg_offset.value, d.reg_wdata.value = REGS[reg]["offset"] // 4, value
        await RisingEdge(d.clk)
        d.reg_sel.value, d.reg_write.value = 0, 0
        self.model.write(reg, value)

    async def read(self, reg: str) -> int:
        d = self.dut
        await RisingEdge(d.clk)
        d.reg_sel.value, d.reg_write.value, d.reg_offset.value = 1, 0, REGS[reg]["offset"] // 4
        await ReadOnly()
        value = int(d.reg_rdata.value)
        await RisingEdge(d.clk)
        d.reg_sel.value = 0
        return value

    async def check_reads(self, *regs: str) -> None:
        for reg in regs:
            got, want = await self.read(reg), self.model.read(reg)
            assert got == want, f"{reg} reads {got:#010x}, the model says {want:#010x}"

    async def wait_done(self, group: int, count: int, limit: int = 400_000) -> None:
        for _ in range(limit):
            if self.done[group] >= count:
                return
            await RisingEdge(self.dut.clk)
        raise AssertionError(f"group {group}: done {count} never came (queued {len(self.model.queue)})")

    def put(self, mem: int, addr: int, data: bytes) -> None:
        self.rams[mem].write(addr, data)
        self.model.memories[mem].write(addr, np.frombuffer(data, dtype=np.uint8))

    def compare(self, op: BdmaOp, what: str) -> None:
        mem = 0 if op.dst_ram == 1 else 1
        for _src, dst in op.line_pairs():
            lo = max(dst - 32, 0)
            got = self.rams[mem].read(lo, op.line_bytes + 64)
            want = bytes(self.model.memories[mem].read(lo, op.line_bytes + 64))
            if got != want:
                i = next(k for k in range(len(got)) if got[k] != want[k])
                raise AssertionError(f"{what}: {PREFIX[mem]} byte {lo + i:#x} is {got[i]:#04x}, the model "
                                     f"says {want[i]:#04x} (line at {dst:#x}, {op})")


def random_op(rng: random.Random) -> dict[str, int]:
    """One operation's register values (whole 32-bit writes; the low 5 address bits random)."""
    size = rng.choice([0, 1, rng.randrange(0, 16), rng.randrange(0, 64), rng.randrange(0, 256)])
    if nightly() and rng.random() < 0.03:
        size = rng.choice([2047, 8191])  # the largest lines (64 and 256 KiB), alone: nightly only (slow)
    lines = 1 if size > 255 else rng.choice([1, 2, rng.randint(1, 6)])
    surfs = 1 if size > 255 else rng.choice([1, rng.randint(1, 3)])
    nbytes = (size + 1) * 32

    def strides() -> tuple[int, int]:
        packed = rng.random() < 0.5
        line = rng.choice([0, nbytes, nbytes + 32 * rng.randrange(0, 64), rng.randrange(1, 1 << 25) * 32])
        line = nbytes if packed else line
        surf = rng.choice([0, lines * max(line, nbytes), rng.randrange(1, 1 << 25) * 32])
        if rng.random() < 0.15:  # huge: far apart in the 4 GiB space
            line, surf = (rng.randrange(1, 1 << 25) * 32, rng.randrange(1 << 24, 1 << 25) * 32)
        # the whole footprint in a quarter of the space, so that it fits its half with room to place it
        lmax, smax = (HALF // 4) // max(lines - 1, 1), (HALF // 4) // max(surfs - 1, 1)
        return (line % lmax) & ~31, (surf % smax) & ~31

    regs: dict[str, int] = {}
    for side, lo in (("SRC", 0), ("DST", HALF)):
        line, surf = strides()
        extent = (lines - 1) * line + (surfs - 1) * surf + nbytes
        base = lo + 64 + rng.randrange(0, (HALF - extent - 128) >> 5) * 32  # guard bytes stay inside
        regs[f"CFG_{side}_ADDR_LOW"] = base | rng.randrange(0, 32)
        regs[f"CFG_{side}_ADDR_HIGH"] = 0
        regs[f"CFG_{side}_LINE"] = line | rng.randrange(0, 32)
        regs[f"CFG_{side}_SURF"] = surf | rng.randrange(0, 32)
    regs.update(regmap.encode_fields("BDMA", {
        "CFG_LINE.SIZE": size, "CFG_LINE_REPEAT.NUMBER": lines - 1, "CFG_SURF_REPEAT.NUMBER": surfs - 1,
        "CFG_CMD.SRC_RAM_TYPE": rng.randint(0, 1), "CFG_CMD.DST_RAM_TYPE": rng.randint(0, 1)}))
    return regs


def _src_span(op: BdmaOp) -> tuple[int, int, int]:
    """(memory, first byte, end) of an operation's source lines."""
    ends = [src for src, _d in op.line_pairs()]
    return (0 if op.src_ram == 1 else 1), min(ends), max(ends) + op.line_bytes


def fresh_op(rng: random.Random, taken: list[tuple[int, int, int]]) -> dict[str, int]:
    """A random operation whose source overlaps no source of the round: a group may still be reading
    those while the bench stores this one's data (the model copied at its launch)."""
    while True:
        regs = random_op(rng)
        mem, lo, hi = _src_span(BdmaOp.from_registers(regs))
        if all(m != mem or hi <= a or b <= lo for m, a, b in taken):
            taken.append((mem, lo, hi))
            return regs


async def program(env: Env, regs: dict[str, int]) -> BdmaOp:
    """Source data in place (both memories: RTL and model), then the registers and CFG_OP.EN."""
    op = BdmaOp.from_registers(regs)
    mem = 0 if op.src_ram == 1 else 1
    for src, _dst in op.line_pairs():
        env.put(mem, src, env.rng.randbytes(op.line_bytes))
    order = list(regs)
    env.rng.shuffle(order)
    for reg in order:
        await env.write(reg, regs[reg])
    await env.check_reads(*env.rng.sample(order, 3))
    await env.write("CFG_OP", 1)
    return op


async def setup(dut, salt: str) -> Env:
    rng = make_rng(salt)
    dut.reg_sel.value, dut.reg_write.value, dut.reg_offset.value, dut.reg_wdata.value = 0, 0, 0, 0
    dut.rst_n.value = 0
    await Timer(1, "ns")  # AxiRam after the inputs are driven (4-state simulators)
    env = Env(dut, rng)
    await start_clock_and_reset(dut.clk, dut.rst_n)
    return env


@cocotb.test()
async def random_programs(dut) -> None:
    env = await setup(dut, "random_programs")
    rng, ops_checked = env.rng, 0
    await env.check_reads("STATUS", "STATUS_GRP0_READ_STALL")
    # an 8-byte atom moves a line in 4x the beats: fewer rounds keep the default run near 20 s a set
    for rnd in range(scaled(10 if bench_params().get("ATOM", 32) == 32 else 4, 120)):
        for ram in env.rams.values():
            set_memory_pauses(ram, rng)
        await env.write("CFG_STATUS", rng.randint(0, 1))
        groups = rng.sample([0, 1], rng.randint(1, 2))
        launched: list[tuple[int, list[BdmaOp], int]] = []
        taken: list[tuple[int, int, int]] = []
        for g in groups:
            ops = [await program(env, fresh_op(rng, taken)) for _ in range(rng.randint(1, 6))]
            expect = env.done[g] + 1  # every round waits for its groups, so no done is on its way
            await env.write(f"CFG_LAUNCH{g}", 1)
            launched.append((g, ops, expect))
            if rng.random() < 0.3:
                await env.wait_done(g, expect)
        for g, ops, expect in launched:
            await env.wait_done(g, expect)
            for k, op in enumerate(ops):
                env.compare(op, f"round {rnd} group {g} operation {k}")
                ops_checked += 1
        await ClockCycles(dut.clk, 3)
        await env.check_reads("STATUS", "CFG_OP", "CFG_LAUNCH0", "CFG_LAUNCH1")
        outcome.checked(ops_checked, "copies")


@cocotb.test()
async def queue_limits(dut) -> None:
    """The 21st push is dropped, FREE_SLOT counts down, a launch runs the 20; an empty launch stays busy."""
    env = await setup(dut, "queue_limits")
    regs = {"CFG_SRC_ADDR_LOW": 0x1000, "CFG_DST_ADDR_LOW": 0x8000_0000, "CFG_LINE": 0, "CFG_CMD": 3,
            "CFG_LINE_REPEAT": 0, "CFG_SURF_REPEAT": 0, "CFG_SRC_LINE": 0, "CFG_DST_LINE": 0}
    ops = []
    for k in range(QUEUE_DEPTH + 1):
        regs["CFG_SRC_ADDR_LOW"], regs["CFG_DST_ADDR_LOW"] = 0x1000 + 64 * k, 0x8000_0000 + 64 * k
        ops.append(await program(env, regs))
        await ClockCycles(dut.clk, 2)
        await env.check_reads("STATUS")
    assert env.model.dropped == 1
    await env.write("CFG_LAUNCH0", 1)
    await env.wait_done(0, 1)
    for k, op in enumerate(ops):
        env.compare(op, f"operation {k}")
    await env.write("CFG_LAUNCH1", 1)  # no operation: busy, never done
    await ClockCycles(dut.clk, 200)
    assert env.done[1] == 0, "a group of no operation finished"
    await env.check_reads("STATUS")
    await program(env, regs)
    await env.write("CFG_LAUNCH1", 1)
    await env.wait_done(1, 1)
    await ClockCycles(dut.clk, 3)
    await env.check_reads("STATUS")
    outcome.checked(len(ops) + 1, "copies")


def error_window(rng: random.Random, line: int, line_bytes: int) -> tuple[int, int]:
    """[lo, hi) of whole 32-byte units inside one line of `line_bytes` bytes at `line`."""
    units = line_bytes // 32
    first = rng.randrange(units)
    return line + 32 * first, line + 32 * rng.randint(first + 1, units)


@cocotb.test()
async def axi_errors(dut) -> None:
    """Rounds of one group (1..2 operations) whose memories answer SLVERR or DECERR on a window of a source
    line and of a destination line of each operation. Every group must still end with its done; a read
    error beat's data (the ErrorRam's junk) is copied as it came and a refused write leaves the destination
    as it was (NVIDIA's MCIF ignores the response codes): the model, given the junk and the kept bytes,
    must equal both memories. A clean round follows."""
    env = await setup(dut, "axi_errors")
    rng, checked = env.rng, 0
    responses = (AxiResp.SLVERR, AxiResp.DECERR)
    # an 8-byte atom moves a line in 4x the beats: fewer rounds keep the default run short
    rounds = scaled(3 if bench_params().get("ATOM", 32) == 32 else 2, 40)
    for rnd in range(rounds + 1):
        clean = rnd == rounds
        for ram in env.rams.values():
            set_memory_pauses(ram, rng)
        group, taken = rnd % 2, []
        ops = [await program(env, fresh_op(rng, taken)) for _ in range(rng.randint(1, 2))]
        kept: list[tuple[int, int, bytes]] = []
        for k, op in enumerate(ops if not clean else []):
            src_mem, dst_mem = (0 if op.src_ram == 1 else 1), (0 if op.dst_ram == 1 else 1)
            src, dst = rng.choice(list(op.line_pairs()))
            (rlo, rhi) = error_window(rng, src, op.line_bytes)
            (wlo, whi) = error_window(rng, dst, op.line_bytes)
            env.model.memories[src_mem].write(rlo, np.frombuffer(junk(rlo, rhi - rlo), dtype=np.uint8))
            kept.append((dst_mem, wlo, env.rams[dst_mem].read(wlo, whi - wlo)))
            env.rams[src_mem].errors.windows.append((rlo, rhi, responses[(rnd + k) % 2]))
            env.rams[dst_mem].errors.windows.append((wlo, whi, responses[(rnd + k + 1) % 2]))
        expect = env.done[group] + 1
        await env.write(f"CFG_LAUNCH{group}", 1)   # the model copies here
        for mem, lo, data in kept:
            env.model.memories[mem].write(lo, np.frombuffer(data, dtype=np.uint8))
        await env.wait_done(group, expect)   # raises if the errors hung the group
        for ram in env.rams.values():
            ram.errors.windows.clear()
        what = "clean round after the errors" if clean else f"round {rnd} with AXI error responses"
        for k, op in enumerate(ops):
            env.compare(op, f"{what}: operation {k}")
            checked += 1
        await ClockCycles(dut.clk, 3)
        await env.check_reads("STATUS", "CFG_OP", "CFG_LAUNCH0", "CFG_LAUNCH1")
        outcome.checked(checked, "copies")
    answered = {key for ram in env.rams.values() for key, n in ram.errors.answered.items() if n}
    missing = {(kind, r) for kind in ("read", "write") for r in responses} - answered
    assert not missing, f"error responses never answered: {missing}"
