"""Random direct-convolution layers on the top (tb/hdl/nvdla_pp_top_mem.v) at the run's configuration:
each layer from tb/stimulus/conv_top.py through the driver (models/conv/driver.py), run with random memory
latency and backpressure, its output scored against the model running the same steps (tb/bench_target.py:
the first wrong element named by unit, coordinate, expected and actual)."""

from __future__ import annotations

import cocotb
import numpy as np
from cocotb.utils import get_sim_time

from models import configs
from models.common.driver import Surface
from models.conv.driver import ConvLayer, ConvProgram, SdpStage
from models.regfile import intr_bit
from models.steps import Step
from tb import conv_coverage, outcome
from tb.bench_target import CLK_NS, BenchTarget, reset, short_batch, start_top, wait_status_bit
from tb.bfm.sim_memory import MemTiming
from tb.common import make_rng, nightly, scaled
from tb.stimulus.conv_top import (
    DST,
    SRC,
    WEIGHTS,
    ConfigError,
    cbuf_limit_layer,
    describe,
    layer_steps,
    random_layer,
)


async def run_scored(target: BenchTarget, label: str, layer: ConvLayer, prog: ConvProgram,
                     steps: list[Step]) -> int:
    """Run a layer's steps and score it against the model: each hardware layer's output as it ends, or,
    split in H (several hardware layers write one cube), the whole output cube at the end. Returns the
    cycles."""
    split = len(prog.layers) > 1
    row = await target.run_steps(label, steps, score_layers=not split)
    # split: nothing scored per layer (the run's own checks, a hang or a bus protocol error, still fail)
    problem = "" if row.ok or (split and row.message == "nothing was checked") else row.message
    assert not problem, f"{label}: {describe(layer, prog)}: {problem}"
    if split:
        atom = configs.load().atom_bytes
        dst = layer.sdp.dst
        assert dst is not None
        size = dst.surface_stride * -(-layer.kernels // atom)
        actual = np.frombuffer(target.mems[0].read(dst.base, size), dtype=np.uint8)
        expected = target.model.mem_read(0, dst.base, size)
        bad = np.flatnonzero(actual != expected)
        assert not bad.size, (f"{label}: {describe(layer, prog)}: {bad.size} output bytes differ from the "
                              f"model, first at {dst.base + int(bad[0]):#x} (expected {expected[bad[0]]}, "
                              f"actual {actual[bad[0]]})")
    return row.cycles


@cocotb.test()
async def random_layers(dut) -> None:
    """Random layers over the registers' whole legal range, steered at the functional coverage bins still
    missing (tb/conv_coverage.py); every bin is required: past the planned count (30, nightly 300) the run
    continues, bounded at four times it, while a bin is missing (about 50 to 80 layers hit them all)."""
    rng = make_rng("top_conv")
    mem = await start_top(dut, MemTiming())
    target = BenchTarget(dut, mem)
    count = scaled(30, 300)
    goals = not short_batch()     # a short batch (BENCH_LAYERS) requires no coverage goal
    done = refused = 0
    with conv_coverage.conv_coverage().written("random_layers") as cov:
        while done < count or (goals and cov.missing() and done < 4 * count):
            layer = random_layer(rng, cov.missing())
            try:
                prog, steps = layer_steps(rng, layer)
            except ConfigError:       # a layer the driver refuses (a Limitation rule): drawn again
                refused += 1
                continue
            target.timing = MemTiming.random(rng)
            mem.configure(target.timing)
            await reset(dut)
            await target.start_case()
            cycles = await run_scored(target, f"layer {done}", layer, prog, steps)
            conv_coverage.sample(cov, layer, prog)
            cov.write("random_layers")
            dut._log.info("layer %d: %s: %d cycles", done, describe(layer, prog), cycles)
            done += 1
            outcome.checked(done, "layers")
        dut._log.info("%d layers passed (%d drawn layers refused by the driver), coverage: %s", done, refused,
                      cov.summary())
        assert not goals or not cov.missing(), f"coverage holes after {done} layers: {cov.missing()}"


@cocotb.test()
async def cbuf_data_banks_full(dut) -> None:
    """Inputs that fill their data banks exactly at NVIDIA's ENTRY_PER_SLICE, the weights in the next bank:
    CDMA must pack a short last channel block several pixels an entry as NVIDIA does (a slice one entry
    longer spills into the weight banks), CSC read it back; scored against the model. One layer with a last
    block of one memory atom (the most pixels an entry), one with the most atoms short of a whole entry."""
    rng = make_rng("top_conv_cbuf")
    config = configs.load()
    per_entry = config.conv.cbuf_entry_bytes // config.atom_bytes
    mem = await start_top(dut, MemTiming())
    target = BenchTarget(dut, mem)
    for n, rest in enumerate(sorted({1, max(1, per_entry - 1)})):
        layer = cbuf_limit_layer(rng, rest)
        prog, steps = layer_steps(rng, layer)
        assert prog.mode == "full" and len(prog.layers) == 1, describe(layer, prog)
        filled = prog.entry_per_slice * layer.height
        assert filled == prog.data_banks * config.conv.cbuf_bank_entries, (
            f"{describe(layer, prog)}: {filled} entries do not fill {prog.data_banks} banks")
        target.timing = MemTiming.random(rng)
        mem.configure(target.timing)
        await reset(dut)
        await target.start_case()
        row = await target.run_steps(f"limit layer {n}", steps)
        assert row.ok, f"limit layer {n}: {describe(layer, prog)}: {row.message}"
        dut._log.info("limit layer %d: %s: ENTRY_PER_SLICE %d x H %d = %d banks of %d entries, %d cycles", n,
                      describe(layer, prog), prog.entry_per_slice, layer.height, prog.data_banks,
                      config.conv.cbuf_bank_entries, row.cycles)
        outcome.checked(n + 1, "layers")


@cocotb.test()
async def layer_64x64x64_3x3(dut) -> None:
    """The issue's throughput layer: a 64x64x64 input, 64 3x3 kernels, padding 1 (the driver splits H where
    CBUF cannot hold the input), scored against the model; logs cycles and MAC utilization (useful MACs /
    (MACs a cycle x cycles)). Nightly only (millions of cycles); `make bench` is where performance lives."""
    if not nightly():
        outcome.skip("nightly only: a 64x64x64 layer with 64 3x3 kernels runs for millions of cycles")
    rng = make_rng("top_conv_64")
    config = configs.load()
    atom = config.atom_bytes
    mem = await start_top(dut, MemTiming())
    target = BenchTarget(dut, mem)
    cube, out = Surface(SRC, 64 * atom, 64 * 64 * atom), Surface(DST, 64 * atom, 64 * 64 * atom)
    layer = ConvLayer(64, 64, 64, 64, 3, 3, src=cube, weight_base=WEIGHTS, sdp=SdpStage(dst=out),
                      pads=(1, 1, 1, 1), truncate=8)
    prog, steps = layer_steps(rng, layer)
    await reset(dut)
    await target.start_case()
    start = get_sim_time("ns")
    # split H: several hardware layers write one cube, so it is compared whole at the end (not per layer)
    row = await target.run_steps("64x64x64 3x3x64", steps, score_layers=False)
    assert "interrupt" not in row.message, f"{describe(layer, prog)}: {row.message}"
    size = 64 * 64 * 64
    actual = np.frombuffer(target.mems[0].read(DST, size), dtype=np.uint8)
    expected = target.model.mem_read(0, DST, size)
    bad = np.flatnonzero(actual != expected)
    assert not bad.size, (f"{describe(layer, prog)}: {bad.size} output bytes differ from the model, first at "
                          f"{DST + int(bad[0]):#x} (expected {expected[bad[0]]}, actual {actual[bad[0]]})")
    cycles = round((get_sim_time("ns") - start) / CLK_NS)
    macs = 64 * 64 * 64 * 9 * 64
    per_cycle = config.conv.atomic_c * config.conv.atomic_k
    dut._log.info("%s: %d cycles, MAC utilization %.3f (%d useful MACs, %d MACs a cycle)",
                  describe(layer, prog), cycles, macs / (per_cycle * cycles), macs, per_cycle)
    outcome.checked(1, "layers")


# the fields a random program keeps small (the work of a layer grows with them; any value still completes)
SMALL = {
    "CDMA": {"D_DATAIN_SIZE_0.DATAIN_WIDTH": 15, "D_DATAIN_SIZE_0.DATAIN_HEIGHT": 15,
             "D_DATAIN_SIZE_1.DATAIN_CHANNEL": 63, "D_WEIGHT_BYTES.WEIGHT_BYTES": 8191},
    "CSC": {"D_DATAIN_SIZE_EXT_0.DATAIN_WIDTH_EXT": 15, "D_DATAIN_SIZE_EXT_0.DATAIN_HEIGHT_EXT": 15,
            "D_DATAIN_SIZE_EXT_1.DATAIN_CHANNEL_EXT": 63, "D_WEIGHT_SIZE_EXT_0.WEIGHT_WIDTH_EXT": 7,
            "D_WEIGHT_SIZE_EXT_0.WEIGHT_HEIGHT_EXT": 7, "D_WEIGHT_SIZE_EXT_1.WEIGHT_KERNEL": 40,
            "D_DATAOUT_SIZE_0.DATAOUT_WIDTH": 15, "D_DATAOUT_SIZE_0.DATAOUT_HEIGHT": 15},
}


def random_unit_program(rng, unit: str) -> dict[str, int]:
    """Every D_ register of the unit at a random value (the small fields bounded), D_OP_ENABLE left out."""
    from models import registers

    regs = {name: rng.getrandbits(32) for name in registers.registers(unit)
            if name.startswith("D_") and name != "D_OP_ENABLE"}
    fields = registers.decode_fields(unit, regs)
    for key, top in SMALL.get(unit, {}).items():
        fields[key] = fields[key] % (top + 1)
    return registers.encode_fields(unit, fields)


@cocotb.test()
async def random_registers_complete(dut) -> None:
    """Convolution programs NVIDIA's driver would never write (every D_ field of CDMA, CSC, CMAC_A/B and
    CACC random, sizes bounded to keep the work small, the copies disagreeing) with SDP on the fly: the
    layer still ends, SDP's and CACC's done interrupts both arrive (no output is checked)."""
    from tb.bench_target import csb_address

    rng = make_rng("top_conv_regs")
    mem = await start_top(dut, MemTiming())
    target = BenchTarget(dut, mem)
    count = scaled(10, 100)
    for n in range(count):
        target.timing = MemTiming.random(rng)
        mem.configure(target.timing)
        await target.start_case()
        writes: list[tuple[str, str, int]] = []
        for unit in ("CACC", "CMAC_A", "CMAC_B", "CSC", "CDMA"):
            writes += [(unit, reg, value) for reg, value in random_unit_program(rng, unit).items()]
        w, h, c = rng.randint(0, 15), rng.randint(0, 15), rng.randint(0, 63)
        atom = configs.load().atom_bytes
        sdp = {"D_FEATURE_MODE_CFG": 1, "D_DATA_CUBE_WIDTH": w, "D_DATA_CUBE_HEIGHT": h,
               "D_DATA_CUBE_CHANNEL": c,
               "D_DP_BS_CFG": 1, "D_DP_BN_CFG": 1, "D_DP_EW_CFG": 1, "D_DST_BASE_ADDR_LOW": DST,
               "D_DST_LINE_STRIDE": (w + 1) * atom, "D_DST_SURFACE_STRIDE": (w + 1) * (h + 1) * atom,
               "D_CVT_SCALE": 1}
        writes += [("SDP", reg, value) for reg, value in sdp.items()]
        writes += [(u, "D_OP_ENABLE", 1) for u in ("SDP", "CACC", "CMAC_A", "CMAC_B", "CSC", "CDMA")]
        for unit, reg, value in writes:
            await target.csb.write(csb_address(unit, reg), value, nposted=reg == "D_OP_ENABLE")
        for unit in ("CACC", "SDP"):
            # the GLB done bit alone: the model does not follow these register programs
            done = await wait_status_bit(target.dut, target.csb, 1 << intr_bit(unit, 0))
            assert done is not None, (
                f"program {n}: no {unit} done interrupt (hung); writes: {writes}")
        outcome.checked(n + 1, "random programs")
