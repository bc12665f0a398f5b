"""Bench of the CDP datapath's FP16 parts around its LUT (tb/hdl/nvdla_cdp_fp_tb.v) against
models/cdp/fp16.py, bit for bit, with random backpressure on every stream (front_layers: each layer draws its
own pattern, the output's always with stalls, and the cycles the output waited are counted: not zero):

- front_layers: random FP16 cubes (NaNs, infinities, subnormals, +-65504 among them) in the CDP stream order
  through nvdla_cdp_icvt -> nvdla_cdp_sqsum at FP16, every NORMALZ_LEN, NaN flush on and off: each output
  atom's FP17 x (step 1, padding channels +0) and FP32 window sums (steps 2-3, NVIDIA's order) per lane;
- back_random: random FP17 x and LUT values (specials included) through nvdla_cdp_ocvt at FP16, both
  MUL_BYPASS values: the FP16 output (steps 5-6) and the saturation flag (magnitude 65504) per lane, the
  upper ATOM/2 flags 0.
A mismatch names the atom, lane, inputs, expected and actual in hex.
"""

from __future__ import annotations

import cocotb
import numpy as np
from cocotb.triggers import RisingEdge
from numpy.typing import NDArray

from models.cdp.fp16 import square_sum
from models.common import nvfloat
from models.common.nvfloat import FP16, FP17, FP32
from tb import outcome
from tb.bfm.stream import (
    StreamBus,
    StreamMonitor,
    StreamSink,
    StreamSource,
    WaitCounter,
    pick_pause,
    stalling_pause,
)
from tb.common import bench_params, make_rng, scaled, start_clock_and_reset
from tb.stimulus.cdp_core import atom_order
from tb.stimulus.fp16_values import fp16_values, fp17_values

Bits = NDArray[np.int64]


def _pack(values: Bits, width: int, offset: int = 0) -> int:
    return sum(int(v) << (offset + i * width) for i, v in enumerate(values))


def _field(word: int, lane: int, width: int, offset: int = 0) -> int:
    return (word >> (offset + lane * width)) & ((1 << width) - 1)


async def _reset(dut) -> None:
    await start_clock_and_reset(dut.clk, dut.rst_n, idle=[dut.in_valid, dut.out_ready, dut.start,
                                                          dut.b_in_valid, dut.b_out_ready])


def front_expected(cube: Bits, channels: int, local_size: int, flush: bool) -> tuple[Bits, Bits]:
    """(FP17 x, FP32 sums) per channel of a [c, h, w] cube of FP16 patterns (models/cdp/fp16.py 1-3)."""
    h = np.where(flush & FP16.is_nan(cube), 0, cube)
    x17 = nvfloat.fp16_to_fp17(h)
    x17[channels:] = 0
    x32 = nvfloat.fp17_to_fp32(x17)
    return x17, square_sum(nvfloat.mul(FP32, x32, x32), local_size)


@cocotb.test()
async def front_layers(dut) -> None:
    atom = bench_params().get("ATOM", 8)
    chunk = bench_params().get("CHUNK", 8)
    lanes = atom // 2
    rng, pauses = make_rng("front_layers"), make_rng("front_layers:pauses")
    await _reset(dut)
    StreamMonitor(StreamBus(dut, "out", data="x", sideband=("sum",)), dut.clk, reset=dut.rst_n, record=False)
    src = StreamSource(StreamBus(dut, "in"), dut.clk)
    sink = StreamSink(StreamBus(dut, "out", data="x", sideband=("sum",)), dut.clk)
    waits = WaitCounter(StreamBus(dut, "out", data="x", sideband=("sum",)), dut.clk)
    samples = 0
    for n in range(scaled(24, 2000)):
        # each layer its own stall patterns, the output's never without stalls: sums wait in every stage
        src.set_pause_generator(pick_pause(pauses))
        sink.set_pause_generator(stalling_pause(pauses))
        w = rng.choice([1, chunk - 1, chunk + 1, rng.randint(1, 3 * chunk)])
        h = rng.choice([1, 2, rng.randint(1, 3)])
        c = rng.choice([1, lanes - 1, lanes + 1, rng.randint(1, 4 * lanes)])
        surfaces = -(-c // lanes)
        normalz, flush = n % 4, rng.random() < 0.5
        log2 = rng.uniform(-12, 12) if rng.random() < 0.8 else rng.choice([-20.0, 16.0])
        specials = rng.choice([0.0, 0.02, 0.1, 0.3])
        cube = fp16_values(rng, surfaces * lanes * h * w, log2, specials).reshape(surfaces * lanes, h, w)
        x17, sums = front_expected(cube, c, 3 + 2 * normalz, flush)
        dut.cfg_width.value, dut.cfg_height.value = w - 1, h - 1
        dut.cfg_surf.value, dut.cfg_last_lane.value = surfaces - 1, (c - 1) % lanes
        dut.cfg_normalz_len.value, dut.cfg_nan_flush.value = normalz, int(flush)
        dut.start.value = 1
        await RisingEdge(dut.clk)
        dut.start.value = 0
        order = list(atom_order(w, h, surfaces, chunk))
        beats = [_pack(cube[s * lanes:(s + 1) * lanes, y, x], 16) for y, s, x in order]
        send = cocotb.start_soon(src.send(beats))
        got = await sink.recv(len(beats))
        await send
        label = f"layer {n}: {w}x{h}x{c} LRN{3 + 2 * normalz} flush={int(flush)} data 2^{log2:.1f}"
        for k, ((y, s, x), (gx, gs)) in enumerate(zip(order, got, strict=True)):
            for lane in range(lanes):
                ch = s * lanes + lane
                want = (int(x17[ch, y, x]), int(sums[ch, y, x]))
                have = (_field(gx, lane, 17), _field(gs, lane, 32))
                assert have == want, (
                    f"{label}: atom {k} (h={y}, w={x}, surface {s}) lane {lane} (c={ch}): input "
                    f"{int(cube[ch, y, x]):#06x}, (x17, sum) expected ({want[0]:#07x}, {want[1]:#010x}), "
                    f"got ({have[0]:#07x}, {have[1]:#010x})")
        samples += len(order) * lanes
        outcome.checked(samples, "samples")
    assert waits.cycles > 0, "the output never waited with a result: no backpressure reached the pipeline"
    dut._log.info("%d samples, the output waited %d cycles with a result", samples, waits.cycles)


def back_expected(x: Bits, lut: Bits, bypass: bool) -> tuple[Bits, Bits]:
    """(FP16 output, saturation flag) per lane (models/cdp/fp16.py 5-6)."""
    v = np.where(FP17.is_nan(x), x, lut) if bypass else nvfloat.mul(FP17, x, lut)
    out = nvfloat.fp17_to_fp16(v)
    return out, ((out & 0x7FFF) == 0x7BFF).astype(np.int64)


@cocotb.test()
async def back_random(dut) -> None:
    atom = bench_params().get("ATOM", 8)
    lanes = atom // 2
    rng, pauses = make_rng("back_random"), make_rng("back_random:pauses")
    await _reset(dut)
    StreamMonitor(StreamBus(dut, "b_out", sideband=("sat",)), dut.clk, reset=dut.rst_n, record=False)
    src = StreamSource(StreamBus(dut, "b_in"), dut.clk, pick_pause(pauses))
    sink = StreamSink(StreamBus(dut, "b_out", sideband=("sat",)), dut.clk, pick_pause(pauses))
    samples = 0
    for n in range(scaled(16, 400)):
        bypass = n % 2 == 1
        count = rng.randint(1, 64)
        specials = rng.choice([0.0, 0.05, 0.3])
        x = fp17_values(rng, count * lanes, specials).reshape(count, lanes)
        lut = fp17_values(rng, count * lanes, specials).reshape(count, lanes)
        out, sat = back_expected(x, lut, bypass)
        dut.cfg_mul_bypass.value = int(bypass)
        beats = [_pack(x[i], 17) | _pack(lut[i], 17, atom * 9) for i in range(count)]
        send = cocotb.start_soon(src.send(beats))
        got = await sink.recv(count)
        await send
        for i, (data, flags) in enumerate(got):
            for lane in range(lanes):
                want = (int(out[i, lane]), int(sat[i, lane]))
                have = (_field(data, lane, 16), (flags >> lane) & 1)
                assert have == want, (
                    f"batch {n} (mul bypass {int(bypass)}) atom {i} lane {lane}: x {int(x[i, lane]):#07x}, "
                    f"LUT {int(lut[i, lane]):#07x}: (output, saturation) expected ({want[0]:#06x}, "
                    f"{want[1]}), "
                    f"got ({have[0]:#06x}, {have[1]})")
            assert flags >> lanes == 0, \
                f"batch {n} atom {i}: saturation flags {flags:#x} beyond the FP16 lanes"
        samples += count * lanes
        outcome.checked(samples, "samples")
