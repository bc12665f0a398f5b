"""Bench of the CDP DMA command sequence (rtl/cdp/nvdla_cdp_dma_seq.v): random cube geometries and strides,
every command compared with a Python enumeration of the CDP stream order (docs/CONTRACTS.md "CDP core"):
for each line, for each width chunk of CHUNK pixels, for each surface, one command of that chunk's atoms.
The command sink applies random backpressure; done must follow the last command, with nothing after it."""

from __future__ import annotations

import random
from dataclasses import dataclass

import cocotb
from cocotb.triggers import ClockCycles, ReadOnly, RisingEdge

from models import registers as regs
from tb import outcome
from tb.bfm.stream import start_and_expect_commands
from tb.common import bench_params, make_rng, scaled, start_clock_and_reset

ATOM = 8
MASK32 = 0xFFFFFFFF


@dataclass(frozen=True)
class Geometry:
    width: int
    height: int
    channels: int
    base: int
    line_stride: int
    surface_stride: int
    elem16: bool = False    # int16 elements: ATOM // 2 channels per surface


def expected_commands(g: Geometry, chunk: int) -> list[tuple[int, int]]:
    """(address, beats) per command, in issue order."""
    commands = []
    surfaces = -(-g.channels // (ATOM // 2 if g.elem16 else ATOM))
    for h in range(g.height):
        for k in range(-(-g.width // chunk)):
            beats = min(chunk, g.width - k * chunk)
            for s in range(surfaces):
                addr = g.base + h * g.line_stride + k * chunk * ATOM + s * g.surface_stride
                commands.append((addr & MASK32, beats))
    return commands


def random_geometry(rng: random.Random, chunk: int) -> Geometry:
    # Widths around chunk multiples catch an off-by-one in the last chunk; a rare wide line checks the
    # column counter far from zero.
    width = rng.choice([1, chunk - 1 or 1, chunk, chunk + 1, 2 * chunk, rng.randint(1, 5 * chunk),
                        rng.randint(1, 300)])
    height = rng.choice([1, rng.randint(1, 5)])
    channels = rng.choice([1, ATOM, ATOM + 1, rng.randint(1, 80)])
    line_stride = ATOM * (width + rng.randint(0, 4))
    surface_stride = line_stride * (height + rng.randint(0, 2))
    if rng.random() < 0.2:  # strides near 2^32 wrap the 32-bit address, as NVDLA's adders do
        surface_stride = (1 << 32) - ATOM * rng.randint(1, 1000)
    return Geometry(width, height, channels, rng.randrange(0, 1 << 29) * ATOM, line_stride, surface_stride,
                    rng.random() < 0.3)


async def run_geometry(dut, g: Geometry, chunk: int, rng: random.Random) -> None:
    dut.width_m1.value = g.width - 1
    dut.height_m1.value = g.height - 1
    dut.channel_m1.value = g.channels - 1
    dut.elem16.value = int(g.elem16)
    # the DMA_SURF sub-bundle has one layout in every unit that maps it (scripts/regdesc.py checks it)
    dut.surf.value = regs.pack_bundle("CDP", "DMA_SURF", {"BASE": g.base, "LINE_STRIDE": g.line_stride,
                                                          "SURFACE_STRIDE": g.surface_stride})
    await start_and_expect_commands(dut, str(g), expected_commands(g, chunk), rng)
    await expect_done(dut, g)


async def expect_done(dut, g: Geometry) -> None:
    """The done pulse comes right after the last command; no further command may appear."""
    seen_done = False
    for _ in range(10):
        await ReadOnly()
        if int(dut.cmd_valid.value):
            raise AssertionError(f"{g}: extra command after the last expected one")
        seen_done |= bool(int(dut.done.value))
        await RisingEdge(dut.clk)
    if not seen_done:
        raise AssertionError(f"{g}: no done pulse")


@cocotb.test()
async def random_geometries(dut) -> None:
    chunk = int(bench_params().get("CHUNK", 8))
    rng = make_rng("random_geometries")
    dut.start.value = 0
    dut.elem16.value = 0
    await start_clock_and_reset(dut.clk, dut.rst_n, idle=[dut.cmd_ready])
    for n in range(scaled(60, 1000)):
        await run_geometry(dut, random_geometry(rng, chunk), chunk, rng)
        outcome.checked(n + 1, "geometries")
    await ClockCycles(dut.clk, 2)
