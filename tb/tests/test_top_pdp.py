"""Top-level tests of the PDP slice (rtl/top/nvdla_pp_top.v), driven the way software drives NVDLA.

Layers are programmed over CSB from the driver layer's register writes (models/pdp/driver.py), the AXI memory
(cocotbext-axi AxiRam, which also checks the AXI protocol) stalls every channel at random, and each layer's
destination region, guard bytes and line/surface gaps included, is compared byte for byte with the model
(models/pdp.run_pdp) run on a mirror of the memory (harness and layers: tb/env/pdp.py). Tests:
- random_layers: random legal layers (method, kernel 1-8, stride, pads, pad value, split width sometimes),
  NIGHTLY: 200 of them on the simulation memory (bench top_pdp_mem, this test only), 20 on the AxiRam;
- register_groups: group 1 programmed while group 0 runs, S_POINTER / S_STATUS read back, writes to the
  running group dropped, one interrupt bit per group, both outputs correct;
- unmapped_and_read_only: unmapped/reserved addresses read 0, drop writes, acknowledge non-posted writes;
  read-only registers ignore writes; GLB interrupt set/mask/clear;
- reset_mid_layer: reset in the middle of a layer, registers back at reset values, then correct runs;
- driver_rejects: invalid layers rejected by the driver with the rule named, nothing reaches the RTL;
- random_registers_never_hang: random raw register values (cube sizes kept small) always end with the
  done interrupt within a bound; each program is logged with the driver's verdict on it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

import cocotb
import numpy as np
from cocotb.handle import SimHandleBase
from cocotb.triggers import ClockCycles, ReadOnly, RisingEdge

from models import configs
from models import registers as regmap
from models.errors import ConfigError
from models.pdp.driver import PdpProgram, Surface, pdp_layer
from models.pdp.model import PdpConfig, check_memory_layout, max_band_width, run_pdp
from models.sdp.driver import sdp_layer
from tb.bench_target import batch_count
from tb.common import scaled
from tb.env import pdp as pdp_env
from tb.env.pdp import (
    DST_REGION,
    FEED_REGION,
    SDP_INTR_BIT,
    SRC_REGION,
    band_limit,
    compare,
    describe,
    dst_span,
    fixed_program,
    prepare,
    random_program,
    run_layer,
    setup,
    src_span,
)
from tb.env.top import ATOM, DONE_BOUND, IDLE, PDP_INTR_BIT, PENDING, RUNNING, TOP_UNITS, Top


@cocotb.test()
async def random_layers(dut: SimHandleBase) -> None:
    # NIGHTLY: ~1e7 input samples (README "Nightly") on the simulation memory (bench top_pdp_mem), ~15x
    # faster than on the AxiRam, which runs a tenth of them
    await pdp_env.random_layers(dut, batch_count(dut, 8, 1500))


# ---- register groups ------------------------------------------------------------------------------------

async def check_dropped_writes(top: Top, prog: PdpProgram) -> None:
    """With PRODUCER on the running group, D_ writes (OP_EN=0 included) must not land."""
    for unit in ("PDP", "PDP_RDMA"):
        await top.write(unit, "S_POINTER", prog.group)
    written = {(u, r): v for u, r, v in prog.writes}
    targets = [("PDP", "D_DST_BASE_ADDR_LOW"), ("PDP", "D_DATA_CUBE_IN_WIDTH"),
               ("PDP", "D_POOLING_KERNEL_CFG"), ("PDP", "D_RECIP_KERNEL_WIDTH"),
               ("PDP_RDMA", "D_SRC_BASE_ADDR_LOW"), ("PDP_RDMA", "D_DATA_CUBE_IN_HEIGHT"),
               ("PDP", "D_OP_ENABLE"), ("PDP_RDMA", "D_OP_ENABLE")]
    for unit, reg in targets:
        before = written[(unit, reg)]
        garbage = 0 if reg == "D_OP_ENABLE" else before ^ 0x18
        await top.write(unit, reg, garbage, nposted=True)
        after = await top.read(unit, reg)
        assert after == before, f"write of {garbage:#x} to running group {prog.group} {unit}.{reg} landed " \
                                f"(reads {after:#x}, was {before:#x})"


@cocotb.test()
async def register_groups(dut: SimHandleBase) -> None:
    top = await setup(dut, "register_groups")
    await top.write("GLB", "S_INTR_MASK", 0, nposted=True)
    # A is long (2048 input atoms: four surfaces) so it is still running while group 1 is programmed and
    # checked.
    a = fixed_program(top.rng, 0, 32, 16, 4 * ATOM, 2, SRC_REGION, DST_REGION)
    b = fixed_program(top.rng, 1, 24, 12, 2 * ATOM, 3, SRC_REGION + 0x100000, DST_REGION + 0x100000)
    prepare(top, a)
    prepare(top, b)
    await top.issue(a.writes)                                   # group 0, enabled
    for unit in ("PDP", "PDP_RDMA"):
        assert await top.status(unit) == (RUNNING, IDLE), f"{unit}: group 0 not RUNNING after OP_EN"
        assert await top.pointer(unit) == (0, 0)
    await top.issue(b.writes[:-2])                              # group 1 programmed, not enabled yet
    for unit in ("PDP", "PDP_RDMA"):
        assert await top.pointer(unit) == (1, 0), f"{unit}: PRODUCER 1 / CONSUMER 0 expected"
    for unit, reg, value in b.writes[2:-2]:
        got = await top.read(unit, reg)
        assert got == value, f"group 1 {unit}.{reg}: wrote {value:#x}, reads {got:#x}"
    await check_dropped_writes(top, a)
    for unit in ("PDP", "PDP_RDMA"):
        assert await top.status(unit) == (RUNNING, IDLE), \
            f"{unit}: layer A ended before the dropped-write check finished (make it longer)"
        await top.write(unit, "S_POINTER", 1)
    await top.issue(b.writes[-2:])                              # enable group 1 behind group 0
    for unit in ("PDP", "PDP_RDMA"):
        assert await top.status(unit) == (RUNNING, PENDING), f"{unit}: group 1 not PENDING behind group 0"
    done_a = await top.wait_done(0)
    assert done_a is not None, "no PDP_0 interrupt for layer A"
    statuses = {unit: await top.status(unit) for unit in ("PDP", "PDP_RDMA")}
    b_done = statuses["PDP"] == (IDLE, IDLE)
    assert bool(done_a[1] & (1 << (PDP_INTR_BIT + 1))) == b_done, \
        f"PDP_1 interrupt bit {done_a[1]:#x} does not match S_STATUS {statuses} after layer A"
    assert statuses["PDP"] in ((IDLE, RUNNING), (IDLE, IDLE)) and statuses["PDP_RDMA"] == statuses["PDP"]
    for unit in ("PDP", "PDP_RDMA"):
        assert (await top.pointer(unit))[1] == 1, f"{unit}: CONSUMER must move to group 1 after layer A"
    assert await top.wait_done(1) is not None, "no PDP_1 interrupt for layer B"
    for unit in ("PDP", "PDP_RDMA"):
        assert await top.pointer(unit) == (1, 0), f"{unit}: CONSUMER must return to group 0"
        assert await top.status(unit) == (IDLE, IDLE)
    assert await top.read("GLB", "S_INTR_STATUS") == 0 and int(dut.intr.value) == 0
    for name, prog in (("A (group 0)", a), ("B (group 1)", b)):
        run_pdp(prog.config, top.mem, sec_mem=top.sec_mem)
        compare(top, prog.config, f"layer {name}")
        top.cover(prog.config, prog.group)


# ---- unmapped, reserved and read-only addresses --------------------------------------------------------

def unmapped_addresses(rng: random.Random) -> list[int]:
    """Byte addresses no register of this top answers: reserved offsets of its units, the windows of units
    it lacks (SDP, CDP, the convolution pipeline) and the rest of the 16-bit CSB word space. The random ones
    aim at the GLB and PDP windows of the configuration's CSB map (the fixed ones are nv_small's: in another
    map some are registers, and is_mapped drops those)."""
    fixed = [0x0000, 0x0FFC, 0x1010, 0x1FFC, 0x8000, 0x9004, 0xA050, 0xAFFC, 0xB0A0, 0xBFFC, 0xC008,
             0xD048, 0xE000, 0x10000, 0x3FFFC]
    glb, pdp_rdma = (configs.load().csb_windows[u] for u in ("GLB", "PDP_RDMA"))
    found: list[int] = []
    while len(found) < 24:
        # PDP_RDMA's window and PDP's right after it (both maps put them side by side)
        addr = rng.choice([rng.randrange(glb, glb + 0x1000), rng.randrange(pdp_rdma, pdp_rdma + 0x2000),
                           rng.randrange(0, 1 << 18)]) & ~3
        if not is_mapped(addr):
            found.append(addr)
    return [a for a in fixed if not is_mapped(a)] + found


def is_mapped(addr: int) -> bool:
    """A register of this top's units answers `addr` in the configuration's CSB map."""
    windows = configs.load().csb_windows
    return any(r["offset"] == addr - windows[unit]
               for unit in TOP_UNITS for r in regmap.registers(unit).values())


def field_mask(unit: str, reg: str, accesses: tuple[str, ...]) -> int:
    mask = 0
    for msb, lsb, access in regmap.registers(unit)[reg]["fields"].values():
        if access in accesses:
            mask |= ((1 << (msb - lsb + 1)) - 1) << lsb
    return mask


async def program_random_rw(top: Top) -> None:
    """Random values in every RW D_ register of PDP/PDP_RDMA group 0 (no OP_EN), each read back against the
    register-file model; then every register of the top, so aliasing shows."""
    for unit in ("PDP", "PDP_RDMA"):
        for reg, r in regmap.registers(unit).items():
            if r["group"] == "dual" and reg != "D_OP_ENABLE" and field_mask(unit, reg, ("RW",)):
                await top.write(unit, reg, top.rng.getrandbits(32))
                await top.expect(unit, reg, "after a random write")
    await top.expect_all("after the random writes")


async def check_unmapped(top: Top) -> None:
    for addr in unmapped_addresses(top.rng):
        await top.csb.write(addr, top.rng.getrandbits(32))                  # posted
        assert await top.csb.read(addr) == 0, f"unmapped {addr:#x} does not read 0"
        await top.csb.write(addr, top.rng.getrandbits(32), nposted=True)    # acknowledged (or CsbTimeout)
        assert await top.csb.read(addr) == 0, f"unmapped {addr:#x} does not read 0"


async def check_read_only(top: Top) -> None:
    """Writes to whole read-only registers and to S_POINTER.CONSUMER, every read against the register-file
    model (which keeps RO registers and the CONSUMER pointer as they were)."""
    for unit in TOP_UNITS:
        for reg, r in regmap.registers(unit).items():
            if r["access"] == "RO":
                await top.write(unit, reg, top.rng.getrandbits(32), nposted=True)
                await top.expect(unit, reg, "after a write to a read-only register")
    await top.expect("GLB", "S_NVDLA_HW_VERSION")
    for unit in ("PDP", "PDP_RDMA"):
        await top.write(unit, "S_POINTER", 0x10000, nposted=True)           # CONSUMER is read-only
        await top.expect(unit, "S_POINTER", "after writing CONSUMER")
    await top.expect_all("after the read-only writes")


async def check_glb_interrupts(top: Top) -> None:
    """S_INTR_SET sets status whatever the mask, the mask gates `intr`, status is write-1-to-clear."""
    dut = top.dut
    bit = 1 << PDP_INTR_BIT
    await top.write("GLB", "S_INTR_MASK", bit, nposted=True)
    await top.write("GLB", "S_INTR_SET", bit, nposted=True)
    assert await top.read("GLB", "S_INTR_SET") == 0, "S_INTR_SET is write-only: it reads 0"
    assert await top.read("GLB", "S_INTR_STATUS") & bit, "S_INTR_SET did not set the masked status bit"
    await ClockCycles(dut.clk, 8)
    assert int(dut.intr.value) == 0, "masked status raised intr"
    await top.write("GLB", "S_INTR_MASK", 0, nposted=True)
    await ClockCycles(dut.clk, 8)
    assert int(dut.intr.value) == 1, "unmasked status did not raise intr"
    await top.write("GLB", "S_INTR_STATUS", bit, nposted=True)
    await ClockCycles(dut.clk, 8)
    assert await top.read("GLB", "S_INTR_STATUS") == 0 and int(dut.intr.value) == 0, "W1C did not clear"


@cocotb.test()
async def unmapped_and_read_only(dut: SimHandleBase) -> None:
    top = await setup(dut, "unmapped_and_read_only")
    await program_random_rw(top)
    before = await top.snapshot()
    await check_unmapped(top)
    after = await top.snapshot()
    changed = {f"{a:#x}": (before[a], after[a]) for a in before if before[a] != after[a]}
    assert not changed, f"writes to unmapped addresses changed registers: {changed}"
    await check_read_only(top)
    await check_glb_interrupts(top)


# ---- reset in the middle of a layer --------------------------------------------------------------------

async def axi_quiet(dut: SimHandleBase, cycles: int) -> bool:
    for _ in range(cycles):
        await ReadOnly()
        if int(dut.m_axi_arvalid.value) or int(dut.m_axi_awvalid.value) or int(dut.m_axi_wvalid.value):
            return False
        await RisingEdge(dut.clk)
    return True


@cocotb.test()
async def reset_mid_layer(dut: SimHandleBase) -> None:
    top = await setup(dut, "reset_mid_layer")
    # 4096 input atoms (four surfaces): still running after the longest wait below even without AXI stalls
    prog = fixed_program(top.rng, 0, 32, 32, 4 * ATOM, 2, SRC_REGION, DST_REGION)
    for attempt in range(scaled(2, 10)):
        prepare(top, prog)
        await top.issue(prog.writes)
        await ClockCycles(dut.clk, top.rng.randint(20, 2000))
        assert await top.status("PDP") == (RUNNING, IDLE), "the layer must still run when reset comes"
        dut.rst_n.value = 0
        await ClockCycles(dut.clk, top.rng.randint(1, 4))
        dut.rst_n.value = 1
        await ClockCycles(dut.clk, 2)
        assert int(dut.intr.value) == 0, "intr after reset"
        assert await axi_quiet(dut, 200), "AXI requests after reset with no layer enabled"
        top.reset_shadow()
        await top.expect_all(f"after reset {attempt} in the middle of a layer")
        # The interrupted layer again, into the same (partly written) destination, then a random one.
        await run_layer(top, prog, f"rerun {attempt} of the interrupted layer", fresh=False)
        desc, other = random_program(top.rng, top.max_w, group=1)
        await run_layer(top, other, f"after reset {attempt}: {describe(desc, other)}")


# ---- the driver rejects invalid layers before anything reaches the RTL ---------------------------------

async def count_activity(dut: SimHandleBase, counts: list[int]) -> None:
    """counts[0]: CSB requests accepted, counts[1]: AXI address handshakes."""
    while True:
        await ReadOnly()
        counts[0] += int(dut.csb_req_valid.value) & int(dut.csb_req_ready.value)
        counts[1] += (int(dut.m_axi_arvalid.value) & int(dut.m_axi_arready.value)) + \
            (int(dut.m_axi_awvalid.value) & int(dut.m_axi_awready.value))
        await RisingEdge(dut.clk)


# submit's valid layer: 8x6 with two surfaces, in atoms (nv_small: 8x6x16, line 0x100, surface 0x1000)
VALID_CHANNELS, VALID_LINE, VALID_SURFACE = 2 * ATOM, 32 * ATOM, 512 * ATOM


def invalid_layers(max_w: int) -> list[tuple[dict[str, object], str]]:
    """(changes to submit's valid 8x6 3x3 layer, the rule the driver must name). Strides count in atoms: the
    stride rules must be what the driver names, not the alignment rule."""
    wide_w = max_w + 2                       # kernel 3, stride 1, pads 1/1: out = width
    # Wider than NVDLA's flying width for this 3x3/1 kernel (32 columns) it hits NVDLA's own limit first; else
    # the core's (max_w / 4 columns: 4 rows in flight)
    too_wide = "(MAX_W)" if wide_w <= max_band_width(3, 1) else "maximum flying width"
    return [
        ({"kernel": (9, 3)}, "maximum supported pooling kernel size is 8"),
        ({"pads": (3, 1, 1, 1)}, "PL/PR should be less than kernel_width"),
        ({"pads": (1, 1, 1, 3)}, "PT/PB should be less than kernel_height"),
        ({"stride": (2, 1)}, "(PL+W+PR-Kernel_W)%stride_x == 0"),
        ({"pad_value": -129}, "the pad value is an int8"),
        ({"method": "median"}, "POOLING_METHOD must be AVERAGE, MAX or MIN"),
        ({"width": wide_w, "src": Surface(SRC_REGION, wide_w * ATOM, wide_w * 6 * ATOM),
          "dst": Surface(DST_REGION, wide_w * ATOM, wide_w * 6 * ATOM)}, too_wide),
        ({"src": Surface(SRC_REGION + 4, VALID_LINE, VALID_SURFACE)}, "alignment for SRC"),
        ({"dst": Surface(DST_REGION, 7 * ATOM, VALID_SURFACE)}, "DST_LINE_STRIDE has to be bigger"),
        ({"dst": Surface(DST_REGION, VALID_LINE, 64 * ATOM)}, "DST_SURFACE_STRIDE must hold a whole surface"),
        ({"dst": Surface(SRC_REGION + 16 * ATOM, VALID_LINE, VALID_SURFACE)}, "must not overlap"),
    ]


async def submit(top: Top, changes: Mapping[str, object]) -> PdpProgram:
    """What a driver does: validate the layer, then (only then) write it."""
    args: dict[str, object] = {"method": "average", "kernel": (3, 3), "stride": (1, 1), "pads": (1, 1, 1, 1),
                               "pad_value": 5, "src": Surface(SRC_REGION, VALID_LINE, VALID_SURFACE),
                               "dst": Surface(DST_REGION, VALID_LINE, VALID_SURFACE), "width": 8, "height": 6,
                               "channels": VALID_CHANNELS}
    args.update(changes)
    w, h, c = args.pop("width"), args.pop("height"), args.pop("channels")
    limit = band_limit(top.max_w, args["kernel"][1], args["stride"][1])  # type: ignore[index]
    prog = pdp_layer(w, h, c, max_out_width=limit, **args)  # type: ignore[arg-type]
    prepare(top, prog)
    await top.issue(prog.writes)
    return prog


@cocotb.test()
async def driver_rejects(dut: SimHandleBase) -> None:
    top = await setup(dut, "driver_rejects")
    before = await top.snapshot()
    counts = [0, 0]
    monitor = cocotb.start_soon(count_activity(dut, counts))
    for changes, rule in invalid_layers(top.max_w):
        try:
            await submit(top, changes)
        except ConfigError as err:
            assert rule in err.rule, f"{changes}: rejected for '{err.rule}', expected '{rule}'"
            dut._log.info("rejected as expected: %s", err)
        else:
            raise AssertionError(f"the driver accepted an invalid layer: {changes}")
        await ClockCycles(dut.clk, 4)
    await ClockCycles(dut.clk, 50)
    monitor.cancel()
    assert counts == [0, 0], f"rejected layers reached the RTL: {counts[0]} CSB requests, {counts[1]} AXI"
    assert await top.snapshot() == before and int(dut.intr.value) == 0
    # the same path with a valid layer does reach the RTL and runs correctly
    prog = await submit(top, {})
    assert await top.wait_done(0) is not None, "the valid control layer did not finish"
    run_pdp(prog.config, top.mem, sec_mem=top.sec_mem)
    compare(top, prog.config, "control layer")


# ---- a layer that ends leaves the unit clean -----------------------------------------------------------

def with_field(prog: PdpProgram, key: str, value: int, units: tuple[str, ...] = ("PDP",)) -> PdpProgram:
    """The program with one field changed in the given units' writes (an inconsistent program)."""
    writes = []
    for unit, reg, old in prog.writes:
        if unit in units and reg == key.split(".")[0]:
            regs = {reg: old}
            set_field(regs, unit, key, value)
            old = regs[reg]
        writes.append((unit, reg, old))
    return PdpProgram(prog.group, prog.fields, prog.config, tuple(writes))


def inconsistent_programs(group: int) -> dict[str, PdpProgram]:
    """Programs the driver rejects whose input has columns no output window uses, so the core has emitted
    its last output before the read DMA has delivered the last input atom of the line."""
    src, dst = Surface(SRC_REGION, 32 * ATOM, 32 * ATOM), Surface(DST_REGION, 32 * ATOM, 32 * ATOM)
    cols = min(200, max_band_width())     # as wide as the line buffer lets a 1x1 layer be (128)
    wide = Surface(SRC_REGION, cols * ATOM, 2 * cols * ATOM)
    plain = pdp_layer(cols, 2, 8, method="max", src=wide, group=group,
                      dst=Surface(DST_REGION, cols * ATOM, 2 * cols * ATOM))
    split = pdp_layer(10, 1, 8, method="max", stride=(3, 1), src=src, dst=dst, split=2, group=group)
    return {
        # last split band PARTIAL_WIDTH_IN_LAST 1 with kernel 1 - stride 3 overlap: its input width is -1,
        # 16383 columns in the 14-bit band width
        "split band input width -1": with_field(split, "D_PARTIAL_WIDTH_IN.PARTIAL_WIDTH_IN_LAST", 0,
                                                ("PDP", "PDP_RDMA")),
        # `cols` input columns, CUBE_OUT_WIDTH 8 (kernel 1, stride 1): all but 8 columns of each line unused
        f"CUBE_OUT_WIDTH 8 for {cols} input columns":
            with_field(plain, "D_DATA_CUBE_OUT_WIDTH.CUBE_OUT_WIDTH", 7),
    }


async def unit_idle(top: Top, name: str, cycles: int = 200) -> None:
    """PDP's busy (read DMA, core, write DMA) must fall soon after its done interrupt. The signal is internal
    to the top (nvdla_pdp's busy output); without it the legal layers that follow still check the state."""
    busy = getattr(top.dut, "pdp_busy_unused", None)
    if busy is None:
        raise AssertionError(f"{name}: no pdp_busy_unused in the top, so the idle check cannot run")
    await ClockCycles(top.dut.clk, cycles)
    assert int(busy.value) == 0, f"{name}: PDP still busy {cycles} cycles after its done interrupt " \
                                 "(input fetched for the layer not consumed: the next layer would get it)"


@cocotb.test()
async def layer_after_inconsistent_layer(dut: SimHandleBase) -> None:
    """After the done interrupt of any program the unit must be clean: the next legal layer is correct."""
    top = await setup(dut, "layer_after_inconsistent_layer")
    by_group = [inconsistent_programs(0), inconsistent_programs(1)]
    group = 0   # the consumer group: each layer run flips it
    for name in by_group[0]:
        bad = by_group[group][name]
        prepare(top, bad)
        await top.issue(bad.writes)
        assert await top.wait_done(group) is not None, f"{name}: the layer never ended"
        await unit_idle(top, name)
        # two legal layers, in the other group then this one; the next inconsistent program is in the other
        for nth, legal_group in (("first", 1 - group), ("second", group)):
            desc, good = random_program(top.rng, top.max_w, group=legal_group)
            await run_layer(top, good, f"{nth} legal layer after '{name}': {describe(desc, good)}")
        group = 1 - group


# ---- random register values never hang the unit --------------------------------------------------------

# Fields kept small so that any program is short: "REG.FIELD" -> largest value (in both units where present).
# Channels: up to four surfaces of the configuration's atom.
SMALL_FIELDS = {
    "D_DATA_CUBE_IN_WIDTH.CUBE_IN_WIDTH": 15, "D_DATA_CUBE_IN_HEIGHT.CUBE_IN_HEIGHT": 15,
    "D_DATA_CUBE_IN_CHANNEL.CUBE_IN_CHANNEL": 4 * ATOM - 1, "D_DATA_CUBE_OUT_WIDTH.CUBE_OUT_WIDTH": 15,
    "D_DATA_CUBE_OUT_HEIGHT.CUBE_OUT_HEIGHT": 15, "D_DATA_CUBE_OUT_CHANNEL.CUBE_OUT_CHANNEL": 4 * ATOM - 1,
    "D_OPERATION_MODE_CFG.SPLIT_NUM": 3,
    **{f"D_PARTIAL_WIDTH_{d}.PARTIAL_WIDTH_{d}_{p}": 15
       for d in ("IN", "OUT") for p in ("FIRST", "MID", "LAST")},
}


def limit_sizes(rng: random.Random, unit: str, values: dict[str, int]) -> None:
    """Replace every size field above its SMALL_FIELDS limit by a random value within it."""
    regs = regmap.registers(unit)
    for key, largest in SMALL_FIELDS.items():
        reg, name = key.split(".")
        if reg in values and name in regs[reg]["fields"] and get_field(values, unit, key) > largest:
            set_field(values, unit, key, rng.randint(0, largest))


def random_raw_registers(rng: random.Random, legal: PdpProgram | None) -> dict[str, dict[str, int]]:
    """Random 32-bit values in every RW D_ register of both units, sizes kept small; or, given a legal
    program, that program with one to three registers replaced by random values (near-legal programs)."""
    values: dict[str, dict[str, int]] = {}
    for unit in ("PDP", "PDP_RDMA"):
        values[unit] = {reg: rng.getrandbits(32) for reg, r in regmap.registers(unit).items()
                        if r["group"] == "dual" and reg != "D_OP_ENABLE" and field_mask(unit, reg, ("RW",))}
    if legal is not None:
        for unit, reg, value in legal.writes:
            if reg in values[unit]:
                values[unit][reg] = value
        for _ in range(rng.randint(1, 3)):
            unit = rng.choice(["PDP", "PDP_RDMA"])
            values[unit][rng.choice(sorted(values[unit]))] = rng.getrandbits(32)
    for unit in ("PDP", "PDP_RDMA"):
        limit_sizes(rng, unit, values[unit])
    if min(band_input_widths(values["PDP"])) < 1:
        # A band input width below 1 wraps to ~16K columns in the 14-bit band width: a finite but long
        # layer. Keep it to one line of one surface in two bands, so it still runs in the default bound.
        for unit in ("PDP", "PDP_RDMA"):
            set_field(values[unit], unit, "D_DATA_CUBE_IN_HEIGHT.CUBE_IN_HEIGHT", 0)
            set_field(values[unit], unit, "D_DATA_CUBE_IN_CHANNEL.CUBE_IN_CHANNEL", rng.randint(0, ATOM - 1))
            set_field(values[unit], unit, "D_OPERATION_MODE_CFG.SPLIT_NUM", 1)
    return values


def get_field(values: Mapping[str, int], unit: str, key: str) -> int:
    reg, name = key.split(".")
    msb, lsb, _access = regmap.registers(unit)[reg]["fields"][name]
    return (values[reg] >> lsb) & ((1 << (msb - lsb + 1)) - 1)


def set_field(values: dict[str, int], unit: str, key: str, value: int) -> None:
    reg, name = key.split(".")
    msb, lsb, _access = regmap.registers(unit)[reg]["fields"][name]
    mask = ((1 << (msb - lsb + 1)) - 1) << lsb
    values[reg] = (values[reg] & ~mask) | ((value << lsb) & mask)


def band_input_widths(pdp: Mapping[str, int]) -> list[int]:
    """Input columns of each split band by seed 001's split formulas (mid/last bands re-read
    kernel_w - stride_w overlap columns), from the PDP register values; [CUBE_IN_WIDTH] without split."""
    def f(key: str) -> int:
        return get_field(pdp, "PDP", key)

    split = f("D_OPERATION_MODE_CFG.SPLIT_NUM")
    if split == 0:
        return [f("D_DATA_CUBE_IN_WIDTH.CUBE_IN_WIDTH") + 1]
    overlap = f("D_POOLING_KERNEL_CFG.KERNEL_WIDTH") - f("D_POOLING_KERNEL_CFG.KERNEL_STRIDE_WIDTH")
    mids = [f("D_PARTIAL_WIDTH_IN.PARTIAL_WIDTH_IN_MID") + 1 + overlap] * (split - 1)
    return [f("D_PARTIAL_WIDTH_IN.PARTIAL_WIDTH_IN_FIRST") + 1, *mids,
            f("D_PARTIAL_WIDTH_IN.PARTIAL_WIDTH_IN_LAST") + 1 + overlap]


def driver_verdict(values: Mapping[str, Mapping[str, int]], max_w: int) -> tuple[str, PdpConfig | None]:
    """Would the driver layer have let this program start? ('accepted', its config) or (the rule, None)."""
    fields = {u: regmap.decode_fields(u, regs) for u, regs in values.items()}
    try:
        cfg = PdpConfig.from_fields(fields, ATOM)   # the top's atom: the RTL drops address bits below it
        check_memory_layout(cfg)
        limit = band_limit(max_w, cfg.kernel_height, cfg.stride_height)
        wide = [b.out_width for b in cfg.bands() if b.out_width > limit]
        if wide:
            return f"rejected: PDP RTL: each band's output width must fit MAX_W ({wide})", None
    except ConfigError as err:
        return f"rejected: {err.rule}", None
    return "accepted", cfg


async def feed_from_sdp(top: Top, pdp: Mapping[str, int]) -> tuple[np.ndarray, int]:
    """Start an SDP pass-through layer with OUTPUT_DST = PDP whose cube is the PDP registers' input cube:
    the source an on-the-fly PDP layer waits for. Returns the cube it sends ([padded channels, h, w]) and
    the SDP group it runs in."""
    width, height, channels = (get_field(pdp, "PDP", f"D_DATA_CUBE_IN_{d}.CUBE_IN_{d}") + 1
                               for d in ("WIDTH", "HEIGHT", "CHANNEL"))
    surfaces = -(-channels // ATOM)
    size = surfaces * height * width * ATOM
    top.fill(FEED_REGION, FEED_REGION + size)
    group = (await top.pointer("SDP"))[1]
    prog = sdp_layer(width, height, channels, src=Surface(FEED_REGION, width * ATOM, width * height * ATOM),
                     to_pdp=True, group=group)
    await top.issue(list(prog.writes))
    raw = np.asarray(top.mem.read(FEED_REGION, size), dtype=np.uint8).view(np.int8)
    cube = raw.reshape(surfaces, height, width, ATOM).transpose(0, 3, 1, 2).reshape(-1, height, width)
    return cube, group


def mirror_for(top: Top, cfg: PdpConfig) -> bool:
    """Copy the RAM bytes a legal layer reads and the destination region into the model's memory, so the
    model can score the layer; False when the layer cannot be scored (it wraps the 32-bit space, or its
    input and output overlap)."""
    spans = [dst_span(cfg)] if cfg.flying else [src_span(cfg), dst_span(cfg)]
    if any(lo < 0 or hi > 1 << 32 for lo, hi in spans):
        return False
    lo, hi = dst_span(cfg)
    if cfg.flying and lo < FEED_REGION + (1 << 24) and hi > FEED_REGION:
        return False       # the output would overwrite the feeding SDP layer's input
    if len(spans) == 2 and spans[0][0] < spans[1][1] and spans[1][0] < spans[0][1]:
        return False
    for lo, hi in spans:   # both memories: a random RAM_TYPE may name either
        for ram, mem in zip(top.rams, top.mems, strict=True):
            mem.write(lo, np.frombuffer(ram.read(lo, hi - lo), dtype=np.uint8))
    return True


@cocotb.test()
async def random_registers_never_hang(dut: SimHandleBase) -> None:
    """Random raw values, written with the driver's protocol only: each unit's S_POINTER set to the group
    its datapath consumes next, PDP_RDMA enabled only for memory input (FLYING_MODE = OFF), as the KMD
    does (an on-the-fly layer has no RDMA work, so its RDMA group would wait for a layer that never comes).
    An on-the-fly program waits for SDP, as in NVDLA: an SDP pass-through layer of the PDP registers' input
    cube (whatever else they say) feeds it, and its output is scored when the program is legal."""
    top = await setup(dut, "random_registers_never_hang")
    verdicts: dict[str, int] = {}
    previous = "none (first program after reset)"
    for i in range(scaled(10, 150)):
        group = (await top.pointer("PDP"))[1]            # the group each datapath runs next
        rdma_group = (await top.pointer("PDP_RDMA"))[1]
        legal = random_program(top.rng, top.max_w, group)[1] if top.rng.random() < 0.3 else None
        values = random_raw_registers(top.rng, legal)
        verdict, cfg = driver_verdict(values, top.max_w)
        verdicts[verdict] = verdicts.get(verdict, 0) + 1
        # A legal program is scored like any layer (on-the-fly ones have no input from memory to score).
        flying = (values["PDP"]["D_OPERATION_MODE_CFG"] >> 4) & 1 == 0
        scored = cfg is not None and mirror_for(top, cfg)
        top.new_pauses()
        writes = [("PDP", "S_POINTER", group), ("PDP_RDMA", "S_POINTER", rdma_group)]
        writes += [(u, reg, v) for u in ("PDP_RDMA", "PDP") for reg, v in values[u].items()]
        enables = [("PDP", "D_OP_ENABLE", 1)]
        if not flying:
            enables.insert(0, ("PDP_RDMA", "D_OP_ENABLE", 1))
        writes += enables if top.rng.random() < 0.5 else enables[::-1]   # traces enable PDP first
        await top.issue(writes)
        fed = await feed_from_sdp(top, values["PDP"]) if flying else None
        done = await top.wait_done(group)
        program = "; ".join(f"{u}.{r}={v:#x}" for u, r, v in writes)
        if fed is not None:
            assert await top.wait_intr(1 << (SDP_INTR_BIT + fed[1])) is not None, \
                f"program {i}: the feeding SDP layer never finished; writes: {program}"
        assert done is not None, f"program {i} hung (no PDP_{group} interrupt in {DONE_BOUND} cycles); " \
                                 f"driver verdict: {verdict}; writes: {program}; " \
                                 f"the program before it: {previous}"
        if scored:
            run_pdp(cfg, top.mem, flying_input=None if fed is None else fed[0],  # type: ignore[arg-type]
                    sec_mem=top.sec_mem)
            compare(top, cfg, f"legal random program {i}: {program}")  # type: ignore[arg-type]
            top.cover(cfg, group)  # type: ignore[arg-type]
        for unit in ("PDP", "PDP_RDMA"):
            assert await top.status(unit) == (IDLE, IDLE), \
                f"program {i} ({'on the fly' if flying else 'memory input'}): {unit} not idle after done; " \
                f"writes: {program}"
        dut._log.info("program %d (%s): done in %d cycles; driver verdict: %s%s", i,
                      "on the fly" if flying else "memory input", done[0], verdict,
                      " (output checked against the model)" if scored else "")
        previous = program
    dut._log.info("driver verdicts over the random programs: %s", verdicts)
