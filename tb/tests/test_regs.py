"""Bench of the generated register blocks and the GLB interrupt block, through the generated wrappers
tb/hdl/nvdla_regs_top.v (GLB, PDP_RDMA, PDP, CDP) and tb/hdl/nvdla_regs_sdp_top.v (GLB, SDP_RDMA, SDP,
CDP_RDMA): the units behind the CSB slave, driven by the CSB master BFM and scored against the register-file
model models/regfile.py as shadow (regmap README: "Register groups", "Accesses to unmapped or reserved
addresses", "LUT access", "GLB interrupts").

A wrapper gives statistic k of unit u the live value stat_base + (u << 8) + k (u: index in the
description); dp_done / op_en / consumer bit i belongs to its i-th unit with register groups; the GLB sees
each unit's done pulse tagged with its CONSUMER group; each LUT port has a memory `<unit>_lut` indexed
{table, addr}. Units a wrapper lacks answer like any address outside every unit.
"""

from __future__ import annotations

import random

import cocotb
from cocotb.handle import SimHandleBase
from cocotb.triggers import ClockCycles, ReadOnly, RisingEdge

from models import registers as regs
from models.regfile import (
    GLB_IMPLEMENTED,
    INTR_UNITS,
    LUT_REGS,
    MASK32,
    field_mask,
    intr_bit,
    intr_mask,
    stat_style,
)
from tb import outcome
from tb.bfm.csb import CsbMaster, CsbMonitor
from tb.common import make_rng, scaled, start_clock_and_reset
from tb.funcov import Covergroup
from tb.reg_shadow import RegShadow

UNITS = list(regs.UNITS)
GROUPED = [u for u in UNITS if any(r["group"] == "dual" for r in regs.registers(u).values())]
OP_EN_DELAY = regs.OP_EN_DELAY
# the units whose done sets a GLB interrupt bit
GLB_SOURCES = tuple(u for u in UNITS if u in INTR_UNITS)


def stat_fields(unit: str) -> list[tuple[str, str]]:
    """(register, field) of every statistic, in the wrapper's numbering order."""
    return [(name, fname) for name, r in regs.registers(unit).items() if stat_style(unit, name)
            for fname, (_m, _l, acc) in r["fields"].items() if acc == "RO"]


def rw_regs(unit: str) -> list[str]:
    """Plain read/write registers: every field RW."""
    return [name for name, r in regs.registers(unit).items() if r["access"] == "RW"]


def random_fields(rng: random.Random, unit: str, reg: str) -> int:
    """A random register value built field by field through the model, with random reserved bits."""
    fields = {f"{reg}.{f}": rng.randrange(1 << (msb - lsb + 1))
              for f, (msb, lsb, acc) in regs.registers(unit)[reg]["fields"].items() if acc == "RW"}
    value = regs.encode_fields(unit, fields)[reg] if fields else 0
    reserved = ~field_mask(unit, reg, ("RW", "RO", "RO-const", "W1C", "W1S/WO", "RW-special", "RW-trigger"))
    return value | (rng.getrandbits(32) & reserved & MASK32)


class Bench:
    def __init__(self, dut: SimHandleBase, rng: random.Random) -> None:
        self.dut = dut
        self.rng = rng
        self.csb = CsbMaster(dut.clk, dut)
        self.csb_monitor = CsbMonitor(dut.clk, dut, reset=dut.rst_n)  # every test checks the protocol
        # the expected state of every register block: the one register-file model (tb/reg_shadow.py)
        self.shadow = RegShadow(UNITS)
        self.glb = self.shadow.glb
        # the units this wrapper holds, and the order of its dp_done / op_en / consumer bits
        self.units = [u for u in UNITS if hasattr(dut, f"u_{u.lower()}")]
        self.grouped = [u for u in self.units if u in GROUPED]
        self.stat_base = 0
        dut.stat_base.value = 0
        dut.dp_done.value = 0

    # --- CSB access -------------------------------------------------------------------------------------
    async def write(self, unit: str, reg: str, value: int) -> None:
        await self.csb.write(regs.address(unit, reg), value, nposted=self.rng.random() < 0.5)
        if reg not in LUT_REGS:  # the LUT tests keep their own expectations
            self.shadow[unit].write(reg, value)

    @property
    def intr_status(self) -> int:
        return self.glb.status_bits

    def intr_mask(self) -> int:
        return self.glb.mask

    async def read(self, unit: str, reg: str) -> int:
        return await self.csb.read(regs.address(unit, reg))

    async def expect(self, unit: str, reg: str, what: str = "") -> None:
        self.shadow.expect(unit, reg, await self.read(unit, reg), what)

    async def expect_all(self, unit: str, what: str = "") -> None:
        for reg in self.shadow.readable(unit):
            await self.expect(unit, reg, what)

    async def set_producer(self, unit: str, group: int) -> None:
        await self.write(unit, "S_POINTER", group)

    # --- datapath side ----------------------------------------------------------------------------------
    def live_stats(self, unit: str) -> dict[str, int]:
        ui, out = UNITS.index(unit), {}
        for k, (reg, fname) in enumerate(stat_fields(unit)):
            msb, lsb, _acc = regs.registers(unit)[reg]["fields"][fname]
            value = (self.stat_base + (ui << 8) + k) & ((1 << (msb - lsb + 1)) - 1)
            out[reg] = out.get(reg, 0) | value << lsb
        return out

    def new_stat_base(self) -> None:
        self.stat_base = self.rng.getrandbits(32)
        self.dut.stat_base.value = self.stat_base

    async def done(self, unit: str) -> None:
        """One-cycle done pulse from the unit's datapath.

        It waits one cycle first: a posted CSB write returns when its request is taken and lands in the
        register block on the next edge. A datapath's done never meets the D_OP_ENABLE write that arms
        the same group (done comes from a running layer), so the pulse must not land with it either.
        """
        await RisingEdge(self.dut.clk)
        self.dut.dp_done.value = 1 << self.grouped.index(unit)
        await RisingEdge(self.dut.clk)
        self.dut.dp_done.value = 0
        self.model_done(unit)
        await RisingEdge(self.dut.clk)

    def model_done(self, unit: str) -> None:
        """The GLB status bit of the finished group (its CONSUMER), then the unit's own state."""
        self.shadow.done(unit, self.live_stats(unit))

    def instance(self, unit: str) -> SimHandleBase:
        return self.dut.u_glb.u_regs if unit == "GLB" else getattr(self.dut, f"u_{unit.lower()}")

    def bit(self, signal: SimHandleBase, unit: str) -> int:
        return (int(signal.value) >> self.grouped.index(unit)) & 1

    async def check_outputs(self, unit: str) -> None:
        """The datapath sees S_ fields and the CONSUMER group's D_ fields, and op_en once settled."""
        await ClockCycles(self.dut.clk, OP_EN_DELAY + 1)
        await ReadOnly()
        sh, inst = self.shadow[unit], self.instance(unit)
        # grouped units: the packed cfg bundle; GLB: each register's image
        imgs = {reg: int(getattr(inst, reg.lower()).value) for reg in rw_regs(unit)} if unit == "GLB" else {}
        out = regs.decode_fields(unit, imgs) if imgs else regs.unpack_bundle(unit, "cfg", int(inst.cfg.value))
        for reg in rw_regs(unit):
            value = sh.consumer_value(reg)
            for fname, want in regs.decode_fields(unit, {reg: value}).items():
                got = out[fname]
                assert got == want, f"{unit} output {fname} = {got:#x}, expected {want:#x}"
        if unit in self.grouped:
            assert self.bit(self.dut.consumer, unit) == sh.consumer, f"{unit} consumer output"
            assert self.bit(self.dut.op_en, unit) == sh.op_en[sh.consumer], f"{unit} op_en output"
        await RisingEdge(self.dut.clk)


async def setup(dut: SimHandleBase, salt: str) -> Bench:
    await start_clock_and_reset(dut.clk, dut.rst_n, idle=[dut.csb_req_valid, dut.dp_done, dut.stat_base])
    return Bench(dut, make_rng(salt))


@cocotb.test()
async def reset_values(dut: SimHandleBase) -> None:
    """Every register of every unit, both groups, reads its reset value; outputs show the resets."""
    tb = await setup(dut, "reset")
    for unit in tb.units:
        for reg, want in regs.reset_values(unit).items():
            got = await tb.read(unit, reg)
            assert got == want, f"{unit}.{reg} after reset: {got:#010x}, expected {want:#010x}"
        if unit in tb.grouped:
            await tb.set_producer(unit, 1)
            for reg, want in regs.reset_values(unit).items():
                if regs.registers(unit)[reg]["group"] == "dual":
                    got = await tb.read(unit, reg)
                    assert got == want, f"{unit}.{reg} group 1 after reset: {got:#010x}, want {want:#010x}"
            await tb.expect(unit, "S_POINTER")
            await tb.set_producer(unit, 0)
        await tb.check_outputs(unit)


@cocotb.test()
async def rw_fields_random(dut: SimHandleBase) -> None:
    """Random values in every RW field of both groups (encoded with the model), read back after all the
    writes (no aliasing), and seen on the datapath outputs when their group is the consumer."""
    tb = await setup(dut, "rw")
    checked = 0
    for _round in range(scaled(2, 12)):
        for unit in tb.units:
            for group in ((0, 1) if unit in tb.grouped else (0,)):
                if unit in tb.grouped:
                    await tb.set_producer(unit, group)
                for reg in rw_regs(unit):
                    await tb.write(unit, reg, random_fields(tb.rng, unit, reg))
            for group in ((0, 1) if unit in tb.grouped else (0,)):
                if unit in tb.grouped:
                    await tb.set_producer(unit, group)
                await tb.expect_all(unit, f"(group {group})")
            await tb.check_outputs(unit)
            if unit in tb.grouped:  # a done with nothing armed only flips CONSUMER: show group 1
                await tb.done(unit)
                await tb.check_outputs(unit)
            checked += 1
            outcome.checked(checked, "unit programmings")


@cocotb.test()
async def read_only_ignore_writes(dut: SimHandleBase) -> None:
    """Writes to RO registers and RO fields change nothing (status, pointer CONSUMER, constants, stats)."""
    tb = await setup(dut, "ro")
    for unit in tb.units:
        if unit in tb.grouped:  # give the statistics non-zero values first
            tb.new_stat_base()
            await tb.done(unit)
            await tb.done(unit)
        for reg, r in regs.registers(unit).items():
            if r["access"] in ("RO", "RW(mixed RO fields)"):
                await tb.write(unit, reg, tb.rng.getrandbits(32))
                await tb.expect(unit, reg, "after a write")
        await tb.expect_all(unit)


@cocotb.test()
async def unmapped_addresses(dut: SimHandleBase) -> None:
    """Offsets with no register read 0 and ignore writes; so do addresses outside every unit window.
    Non-posted writes there still complete (the BFM fails on a missing write-complete)."""
    tb = await setup(dut, "unmapped")
    for unit in tb.units:  # program every group with non-reset values so that a stray write would show
        for group in ((0, 1) if unit in tb.grouped else (0,)):
            if unit in tb.grouped:
                await tb.set_producer(unit, group)
            for reg in rw_regs(unit):
                await tb.write(unit, reg, random_fields(tb.rng, unit, reg))
    samples = scaled(24, 1024)
    for unit in tb.units:
        base = regs.UNITS[unit]["base"]
        holes = [o for o in range(0, 0x1000, 4) if regs.lookup_address(base + o) is None]
        for offset in sorted(tb.rng.sample(holes, min(samples, len(holes))) + [holes[0], holes[-1]]):
            for nposted in (True, False):
                await tb.csb.write(base + offset, tb.rng.getrandbits(32), nposted=nposted)
            got = await tb.csb.read(base + offset)
            assert got == 0, f"{unit} reserved offset {offset:#05x} read {got:#010x}"
        await tb.expect_all(unit, "after writes to reserved offsets")
    windows = {regs.UNITS[u]["base"] >> 12 for u in tb.units}
    outside = [w << 12 | o for w in range(64) if w not in windows for o in (0, 0xFFC)]
    for addr in tb.rng.sample(outside, min(len(outside), scaled(16, 128))):
        await tb.csb.write(addr, tb.rng.getrandbits(32), nposted=True)
        got = await tb.csb.read(addr)
        assert got == 0, f"address {addr:#07x} outside every unit read {got:#010x}"
    for unit in tb.units:
        await tb.expect_all(unit, "after writes outside every unit")


@cocotb.test()
async def group_handover(dut: SimHandleBase) -> None:
    """Program group 1 while group 0 runs, both run in turn: status, pointer, dropped writes, the
    datapath's op_en (low for OP_EN_DELAY cycles after done, then the pending group) and its D_ fields;
    then group 0 armed again (latched statistics cleared, held ones kept)."""
    tb = await setup(dut, "groups")
    for unit in tb.grouped:
        sh = tb.shadow[unit]
        cfg = rw_regs(unit)
        for reg in cfg:
            await tb.write(unit, reg, random_fields(tb.rng, unit, reg))
        await tb.write(unit, "D_OP_ENABLE", 1)
        await tb.expect(unit, "S_STATUS", "group 0 running")
        assert sh.status() == 0x1
        await tb.check_outputs(unit)
        for reg in tb.rng.sample(cfg, min(4, len(cfg))) + ["D_OP_ENABLE"]:  # dropped: group 0 is running
            await tb.write(unit, reg, random_fields(tb.rng, unit, reg) if reg != "D_OP_ENABLE" else 0)
            await tb.expect(unit, reg, "written while group 0 runs")
        await tb.set_producer(unit, 1)
        await tb.expect(unit, "S_POINTER")
        for reg in cfg:
            await tb.write(unit, reg, random_fields(tb.rng, unit, reg))
        await tb.expect_all(unit, "group 1 programmed while group 0 runs")
        await tb.check_outputs(unit)  # the datapath still sees group 0
        await tb.write(unit, "D_OP_ENABLE", 1)
        await tb.expect(unit, "S_STATUS", "group 0 running, group 1 pending")
        assert sh.status() == 0x20001
        tb.new_stat_base()
        low = await done_and_count_op_en_low(tb, unit)
        assert low == OP_EN_DELAY, f"{unit}: op_en low {low} cycles between groups, expected {OP_EN_DELAY}"
        await tb.expect_all(unit, "group 1 running")
        assert sh.status() == 0x10000 and sh.consumer == 1
        await tb.check_outputs(unit)
        await tb.set_producer(unit, 0)
        await tb.expect_all(unit, "group 0 done, statistics latched")
        tb.new_stat_base()
        await tb.done(unit)
        await tb.check_outputs(unit)
        assert sh.status() == 0 and not tb.bit(dut.op_en, unit)
        await tb.expect_all(unit, "both idle")
        # group 0 again: arming clears its latched statistics, its held ones stay
        assert sh.producer == 0 and sh.consumer == 0
        await tb.write(unit, "D_OP_ENABLE", 1)
        await tb.expect_all(unit, "group 0 armed again")
        await tb.done(unit)


async def done_and_count_op_en_low(tb: Bench, unit: str) -> int:
    """Pulse done while op_en is high; count the cycles op_en stays low before it rises again."""
    assert tb.bit(tb.dut.op_en, unit), f"{unit}: op_en should be high before done"
    tb.dut.dp_done.value = 1 << tb.grouped.index(unit)
    await RisingEdge(tb.dut.clk)
    tb.dut.dp_done.value = 0
    tb.model_done(unit)
    low = 0
    for _ in range(4 * OP_EN_DELAY):
        await ReadOnly()
        if tb.bit(tb.dut.op_en, unit):
            break
        low += 1
        await RisingEdge(tb.dut.clk)
    await RisingEdge(tb.dut.clk)
    return low


@cocotb.test()
async def groups_random_walk(dut: SimHandleBase) -> None:
    """Random interleaving of pointer writes, programming, arming, done pulses, RO writes and reads in every
    unit with groups, each read compared with the shadow; statistics latch per NVDLA's two styles."""
    tb = await setup(dut, "walk")
    steps = scaled(150, 3000)
    states = ("programmed", "running", "pending", "done")
    cov = Covergroup("regs", "REGS", {f"{u} register groups": tuple(f"{u} group {g} {s}" for g in (0, 1)
                                                                     for s in states) for u in tb.grouped})
    for step in range(steps):
        unit = tb.rng.choice(tb.grouped)
        sh = tb.shadow[unit]
        status = sh.status()
        for g in (0, 1):
            cov.hit(f"{unit} group {g} {('idle', 'running', 'pending')[(status >> 16 * g) & 3]}")
        names = [n for n in tb.shadow[unit].regs if n not in LUT_REGS]
        op = tb.rng.random()
        if op < 0.15:
            await tb.write(unit, "S_POINTER", tb.rng.getrandbits(32))
        elif op < 0.25:
            await tb.write(unit, "D_OP_ENABLE", tb.rng.getrandbits(32))
        elif op < 0.35:
            tb.new_stat_base()
            cov.hit(f"{unit} group {sh.consumer} done", bool(sh.op_en[sh.consumer]))
            await tb.done(unit)
        elif op < 0.60:
            reg = tb.rng.choice(rw_regs(unit))
            cov.hit(f"{unit} group {sh.producer} programmed", not sh.op_en[sh.producer])
            await tb.write(unit, reg, random_fields(tb.rng, unit, reg))
        elif op < 0.65:
            await tb.write(unit, tb.rng.choice(names), tb.rng.getrandbits(32))
        else:
            await tb.expect(unit, tb.rng.choice(names), f"(step {step})")
        if step % 25 == 24:
            await tb.expect_all(unit, f"(step {step})")
            await tb.check_outputs(unit)
            outcome.checked(step + 1, "steps")
            cov.write("groups_random_walk")
    outcome.checked(steps, "steps")
    cov.write("groups_random_walk")


# --- GLB interrupts ---------------------------------------------------------------------------------------


async def glb_check(tb: Bench, what: str) -> None:
    await tb.expect("GLB", "S_INTR_STATUS", what)
    await tb.expect("GLB", "S_INTR_MASK", what)
    assert await tb.read("GLB", "S_INTR_SET") == 0, "S_INTR_SET is write-only and reads 0"
    await ReadOnly()
    want = int(tb.glb.intr)
    assert int(tb.dut.intr.value) == want, f"intr {what}: expected {want}"
    await RisingEdge(tb.dut.clk)


@cocotb.test()
async def glb_interrupts(dut: SimHandleBase) -> None:
    """Done pulses set the status bit of their unit and group, whatever the mask; W1C; S_INTR_SET (W1S,
    absent units' bits stay 0); mask 1 = masked; intr = |(status & ~mask); then a random walk."""
    tb = await setup(dut, "glb")
    await glb_check(tb, "after reset")
    sources = [u for u in GLB_SOURCES if u in tb.grouped]
    assert sources, "the wrapper has no unit that raises a GLB interrupt"
    for unit in sources:
        for _group in range(2):
            await tb.done(unit)
            await glb_check(tb, f"after {unit} done")
    assert tb.intr_status == intr_mask(sources)
    for bit in range(6):  # clear one at a time: bits written 0 stay
        await tb.write("GLB", "S_INTR_STATUS", 1 << bit)
        await glb_check(tb, f"after W1C of bit {bit}")
    await tb.write("GLB", "S_INTR_SET", MASK32)
    assert tb.intr_status == GLB_IMPLEMENTED
    await glb_check(tb, "after S_INTR_SET of every bit")
    await tb.write("GLB", "S_INTR_MASK", MASK32)
    await glb_check(tb, "all masked")
    await tb.write("GLB", "S_INTR_STATUS", MASK32)
    await tb.done(sources[-1])
    await glb_check(tb, "a masked done still sets status")
    await tb.write("GLB", "S_INTR_MASK", 0)
    await glb_check(tb, "unmasked")
    await set_wins_over_clear(tb, sources[0])
    for step in range(scaled(60, 1000)):
        op = tb.rng.random()
        if op < 0.3:
            await tb.done(tb.rng.choice(tb.grouped))
        else:
            reg = "S_INTR_STATUS" if op < 0.5 else ("S_INTR_SET" if op < 0.65 else "S_INTR_MASK")
            await tb.write("GLB", reg, tb.rng.getrandbits(32))
        await glb_check(tb, f"(step {step})")


async def set_wins_over_clear(tb: Bench, unit: str) -> None:
    """A done pulse in the very cycle a W1C write of the same bit takes effect leaves the bit set."""
    dut = tb.dut
    bit = intr_bit(unit, tb.shadow[unit].consumer)
    await tb.write("GLB", "S_INTR_SET", 1 << bit)
    status_word = regs.address("GLB", "S_INTR_STATUS") >> 2

    async def pulse_with_the_write() -> None:
        while True:  # the slave presents a request to the unit in the cycle after accepting it
            await ReadOnly()
            accepted = int(dut.csb_req_valid.value) and int(dut.csb_req_write.value) and \
                int(dut.csb_req_addr.value) == status_word
            await RisingEdge(dut.clk)
            if accepted:
                break
        dut.dp_done.value = 1 << tb.grouped.index(unit)
        await RisingEdge(dut.clk)
        dut.dp_done.value = 0

    pulse = cocotb.start_soon(pulse_with_the_write())
    await tb.csb.write(regs.address("GLB", "S_INTR_STATUS"), 1 << bit, nposted=True)
    await pulse
    tb.model_done(unit)  # the clear lost: the bit stays set
    await glb_check(tb, "after a W1C and a done of the same bit in one cycle")


# --- LUT access -------------------------------------------------------------------------------------------


def lut_entry(tb: Bench, unit: str, table: int, addr: int) -> int:
    return int(getattr(tb.dut, f"{unit.lower()}_lut")[table << 10 | addr].value)


def lut_cfg(unit: str, addr: int, table: int, write: int) -> int:
    fields = {"S_LUT_ACCESS_CFG.LUT_ADDR": addr, "S_LUT_ACCESS_CFG.LUT_TABLE_ID": table,
              "S_LUT_ACCESS_CFG.LUT_ACCESS_TYPE": write}
    return regs.encode_fields(unit, fields)["S_LUT_ACCESS_CFG"]


async def lut_pointer(tb: Bench, unit: str) -> int:
    return regs.decode_fields(unit, {"S_LUT_ACCESS_CFG": await tb.read(unit, "S_LUT_ACCESS_CFG")})[
        "S_LUT_ACCESS_CFG.LUT_ADDR"]


@cocotb.test()
async def lut_access(dut: SimHandleBase) -> None:
    """The LUT access port of every unit in the wrapper that has one (CDP or SDP)."""
    tb = await setup(dut, "lut")
    checks = {"CDP": cdp_lut_access, "SDP": sdp_lut_access}
    present = [u for u in checks if u in tb.units]
    assert present, "the wrapper has no unit with a LUT access port"
    for unit in present:
        await checks[unit](tb)


async def cdp_lut_access(tb: Bench) -> None:
    """CDP: CFG loads the pointer; DATA writes (type WRITE) store and advance, DATA reads (type READ) return
    LUT[table][pointer] and advance; the pointer stops at entry 64 (LE) / 256 (LO); accesses of the
    other direction do nothing; CFG reads back the current pointer."""
    unit = "CDP"
    tables: dict[int, dict[int, int]] = {0: {}, 1: {}}
    for table, last in ((0, 64), (1, 256)):
        start = tb.rng.choice([0, 0, tb.rng.randrange(last + 1)])
        await tb.write(unit, "S_LUT_ACCESS_CFG", lut_cfg(unit, start, table, 1))
        for addr in range(start, last + 3):  # two more than fit: they rewrite the last entry
            value = tb.rng.getrandbits(16)
            await tb.write(unit, "S_LUT_ACCESS_DATA", value | tb.rng.getrandbits(16) << 16)
            tables[table][min(addr, last)] = value
            assert await lut_pointer(tb, unit) == min(addr + 1, last), f"table {table} pointer after {addr}"
        for addr, want in tables[table].items():
            assert lut_entry(tb, unit, table, addr) == want, f"LUT[{table}][{addr}] not written"
        # a DATA write while the type is READ changes nothing
        await tb.write(unit, "S_LUT_ACCESS_CFG", lut_cfg(unit, start, table, 0))
        await tb.write(unit, "S_LUT_ACCESS_DATA", tb.rng.getrandbits(16))
        assert await lut_pointer(tb, unit) == start, "a DATA write with type READ moved the pointer"
        assert lut_entry(tb, unit, table, start) == tables[table][start], "a DATA write with type READ stored"
        for addr in range(start, last + 3):
            got = await tb.read(unit, "S_LUT_ACCESS_DATA")
            want = tables[table][min(addr, last)]
            assert got == want, f"LUT[{table}][{min(addr, last)}] read {got:#06x}, expected {want:#06x}"
        # a DATA read while the type is WRITE does not move the pointer
        await tb.write(unit, "S_LUT_ACCESS_CFG", lut_cfg(unit, start, table, 1))
        await tb.read(unit, "S_LUT_ACCESS_DATA")
        assert await lut_pointer(tb, unit) == start
    cfg = await tb.read(unit, "S_LUT_ACCESS_CFG")
    assert regs.decode_fields(unit, {"S_LUT_ACCESS_CFG": cfg})["S_LUT_ACCESS_CFG.LUT_TABLE_ID"] == 1


async def sdp_lut_access(tb: Bench) -> None:
    """SDP: every DATA access moves a 10-bit wrapping pointer; only writes with type WRITE store; CFG
    reads back what was written."""
    unit = "SDP"
    for _ in range(scaled(3, 20)):
        start, table = tb.rng.randrange(1024), tb.rng.randrange(2)
        count = tb.rng.randint(2, 12)
        cfg = lut_cfg(unit, start, table, 1)
        await tb.write(unit, "S_LUT_ACCESS_CFG", cfg)
        written = {}
        for i in range(count):
            value = tb.rng.getrandbits(16)
            await tb.write(unit, "S_LUT_ACCESS_DATA", value)
            written[(start + i) % 1024] = value
        assert await tb.read(unit, "S_LUT_ACCESS_CFG") == cfg, "SDP CFG reads back as written"
        for addr, want in written.items():
            assert lut_entry(tb, unit, table, addr) == want, f"SDP LUT[{table}][{addr}]"
        await tb.write(unit, "S_LUT_ACCESS_CFG", lut_cfg(unit, start, table, 0))
        # type READ: a write moves the pointer without storing, then reads return the next entries
        await tb.write(unit, "S_LUT_ACCESS_DATA", tb.rng.getrandbits(16))
        assert lut_entry(tb, unit, table, start) == written[start], "a DATA write with type READ stored"
        for i in range(1, count):
            got = await tb.read(unit, "S_LUT_ACCESS_DATA")
            want = written[(start + i) % 1024]
            assert got == want, f"SDP LUT[{table}][{(start + i) % 1024}] read {got:#06x}, want {want:#06x}"
