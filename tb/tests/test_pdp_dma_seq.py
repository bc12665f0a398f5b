"""Bench of the PDP DMA command sequence (rtl/pdp/nvdla_pdp_dma_seq.v): random split-width geometries,
the read side and the write side, every command compared with the sequence NVDLA's PDP RDMA issues
(seed 001 split-width rules; NVIDIA cmod PdpRdmaSequenceThread): per pass, per surface, one command per
line of the pass's column band. The block takes the PDP and PDP_RDMA register bundles (tb/bundle.py)."""

from __future__ import annotations

import random
from dataclasses import dataclass

import cocotb
from cocotb.triggers import ClockCycles, ReadOnly, RisingEdge

from tb import outcome
from tb.bfm.stream import start_and_expect_commands
from tb.bundle import CfgBundle
from tb.common import bench_params, make_rng, scaled, start_clock_and_reset

ATOM = 8


@dataclass(frozen=True)
class Geometry:
    split_num: int          # 0: one pass; n: n + 1 passes
    in_width: int
    out_width: int
    first_in: int
    mid_in: int
    last_in: int
    first_out: int
    mid_out: int
    last_out: int
    kernel_w: int
    stride_w: int
    height: int
    channels: int
    base: int
    line_stride: int
    surface_stride: int
    elem16: bool = False    # int16 elements: ATOM // 2 channels per surface


def expected_commands(g: Geometry, write_side: bool) -> list[tuple[int, int]]:
    """(address, beats) per line, in issue order."""
    overlap = g.kernel_w - g.stride_w
    passes = []
    if g.split_num == 0:
        passes.append((0, g.out_width if write_side else g.in_width))
    else:
        for p in range(g.split_num + 1):
            last = p == g.split_num
            if write_side:
                start = 0 if p == 0 else g.first_out + (p - 1) * g.mid_out
                width = g.first_out if p == 0 else (g.last_out if last else g.mid_out)
            else:
                start = 0 if p == 0 else g.first_in + (p - 1) * g.mid_in - overlap
                width = g.first_in if p == 0 else (g.last_in if last else g.mid_in) + overlap
            passes.append((start, width))
    commands = []
    for start, width in passes:
        lanes = ATOM // 2 if g.elem16 else ATOM
        for s in range((g.channels + lanes - 1) // lanes):
            for h in range(g.height):
                addr = (g.base + start * ATOM + s * g.surface_stride + h * g.line_stride) & 0xFFFFFFFF
                commands.append((addr, width))
    return commands


def random_geometry(rng: random.Random) -> Geometry:
    kernel_w, stride_w = rng.randint(1, 8), rng.randint(1, 8)
    split_num = rng.choice([0, 0, 1, 2, rng.randint(3, 6)])
    # legal bands (seed 001, PDP limitations): wider than the kernel, and than stride - kernel
    first_in, mid_in, last_in = (rng.randint(max(kernel_w, stride_w), 40) for _ in range(3))
    first_out, mid_out, last_out = (rng.randint(1, 20) for _ in range(3))
    in_width = first_in + mid_in * max(0, split_num - 1) + last_in if split_num else rng.randint(1, 60)
    out_width = first_out + mid_out * max(0, split_num - 1) + last_out if split_num else rng.randint(1, 30)
    channels = rng.randint(1, 40)
    line_stride = ATOM * (in_width + rng.randint(0, 4))
    height = rng.randint(1, 6)
    return Geometry(split_num, in_width, out_width, first_in, mid_in, last_in, first_out, mid_out, last_out,
                    kernel_w, stride_w, height, channels, rng.randrange(0, 1 << 28) * ATOM | 0x80000000,
                    line_stride, line_stride * (height + rng.randint(0, 3)), rng.random() < 0.3)


async def run_geometry(dut, g: Geometry, write_side: bool, rng: random.Random) -> None:
    cfg, rdma_cfg = CfgBundle(dut.cfg, "PDP"), CfgBundle(dut.rdma_cfg, "PDP_RDMA")
    cfg.update({"D_OPERATION_MODE_CFG.SPLIT_NUM": g.split_num,
                "D_DATA_CUBE_IN_WIDTH.CUBE_IN_WIDTH": g.in_width - 1,
                "D_DATA_CUBE_OUT_WIDTH.CUBE_OUT_WIDTH": g.out_width - 1,
                "D_DATA_CUBE_IN_CHANNEL.CUBE_IN_CHANNEL": g.channels - 1,
                "D_PARTIAL_WIDTH_IN.PARTIAL_WIDTH_IN_FIRST": g.first_in - 1,
                "D_PARTIAL_WIDTH_IN.PARTIAL_WIDTH_IN_MID": g.mid_in - 1,
                "D_PARTIAL_WIDTH_IN.PARTIAL_WIDTH_IN_LAST": g.last_in - 1,
                "D_PARTIAL_WIDTH_OUT.PARTIAL_WIDTH_OUT_FIRST": g.first_out - 1,
                "D_PARTIAL_WIDTH_OUT.PARTIAL_WIDTH_OUT_MID": g.mid_out - 1,
                "D_PARTIAL_WIDTH_OUT.PARTIAL_WIDTH_OUT_LAST": g.last_out - 1,
                "D_POOLING_KERNEL_CFG.KERNEL_WIDTH": g.kernel_w - 1,
                "D_POOLING_KERNEL_CFG.KERNEL_STRIDE_WIDTH": g.stride_w - 1})
    # this side's lines and addresses from g; the other side's fields get unrelated values it must not read
    ours = (g.height, g.base, g.line_stride, g.surface_stride)
    other = (rng.randint(1, 6), *(rng.randrange(1 << 32) for _ in range(3)))
    dst, src = (ours, other) if write_side else (other, ours)
    cfg.update({"D_DATA_CUBE_OUT_HEIGHT.CUBE_OUT_HEIGHT": dst[0] - 1,
                "D_DST_BASE_ADDR_LOW.DST_BASE_ADDR_LOW": dst[1],
                "D_DST_LINE_STRIDE.DST_LINE_STRIDE": dst[2],
                "D_DST_SURFACE_STRIDE.DST_SURFACE_STRIDE": dst[3],
                "D_DATA_CUBE_IN_HEIGHT.CUBE_IN_HEIGHT": src[0] - 1})
    rdma_cfg.update({"D_SRC_BASE_ADDR_LOW.SRC_BASE_ADDR_LOW": src[1],
                     "D_SRC_LINE_STRIDE.SRC_LINE_STRIDE": src[2],
                     "D_SRC_SURFACE_STRIDE.SRC_SURFACE_STRIDE": src[3]})
    cfg.apply()
    rdma_cfg.apply()
    dut.elem16.value = int(g.elem16)
    await start_and_expect_commands(dut, str(g), expected_commands(g, write_side), rng)
    for _ in range(20):  # done must follow, and nothing more may be issued
        await ReadOnly()
        if int(dut.cmd_valid.value):
            raise AssertionError(f"{g}: extra command after the last expected one")
        if int(dut.done.value):
            await RisingEdge(dut.clk)
            return
        await RisingEdge(dut.clk)
    raise AssertionError(f"{g}: no done pulse")


@cocotb.test()
async def random_split_geometries(dut) -> None:
    write_side = bool(bench_params()["WRITE_SIDE"])
    rng = make_rng("random_split_geometries")
    dut.start.value = 0
    dut.elem16.value = 0
    await start_clock_and_reset(dut.clk, dut.rst_n, idle=[dut.cmd_ready])
    for n in range(scaled(40, 500)):
        await run_geometry(dut, random_geometry(rng), write_side, rng)
        outcome.checked(n + 1, "geometries")
    await ClockCycles(dut.clk, 2)
