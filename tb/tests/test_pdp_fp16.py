"""Bench of PDP's FP16 horizontal fold (rtl/pdp/nvdla_pdp_fp16.v's H pipeline, 10 valid/ready stages) in a
harness (tb/hdl/nvdla_pdp_fp16_tb.v), against models/pdp/fp16.py fold_window bit for bit:

- random_windows: blocks of random windows (8 atoms of FP16 patterns, NaNs, infinities, subnormals and
  +-65504 among them; 1-8 real columns; a run of 0-7 padded columns and random PAD_VALUE_{n}X fields, their
  two top bits set at random) in each pooling method, the side bits checked to travel with their window.
  Each block draws the source's and the sink's stall pattern (heavy, light, bursty; the sink never without
  stalls), so windows wait in every stage; the cycles the output waited with valid high are counted and
  must not be zero.
A mismatch names the block, the window, the lane, its columns, expected and actual in hex.
"""

from __future__ import annotations

import cocotb
import numpy as np

from models.pdp.fp16 import AVERAGE, MAX, fold_window
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
from tb.stimulus.fp16_values import fp16_values, fp17_values

MIN = 2   # POOLING_METHOD: min (AVERAGE 0, MAX 1: models/pdp/fp16.py)
METHODS = {AVERAGE: "average", MAX: "max", MIN: "min"}


@cocotb.test()
async def random_windows(dut) -> None:
    atom = int(bench_params().get("ATOM", 8))
    side_w = int(bench_params().get("SIDE_W", 8))
    lanes = atom // 2
    rng, pauses = make_rng("random_windows"), make_rng("random_windows:pauses")
    await start_clock_and_reset(dut.clk, dut.rst_n, idle=[dut.in_valid, dut.out_ready])
    StreamMonitor(StreamBus(dut, "out", sideband=("side",)), dut.clk, reset=dut.rst_n, record=False)
    src = StreamSource(StreamBus(dut, "in"), dut.clk)
    sink = StreamSink(StreamBus(dut, "out", sideband=("side",)), dut.clk)
    waits = WaitCounter(StreamBus(dut, "out", sideband=("side",)), dut.clk)
    windows = 0
    for block in range(scaled(24, 400)):
        method = block % 3
        log2 = rng.uniform(-14, 14) if rng.random() < 0.8 else rng.choice([-24.0, 15.0])
        specials = rng.choice([0.0, 0.02, 0.1, 0.3])
        pads = fp17_values(rng, 7, 0.2) | (np.array([rng.getrandbits(2) for _ in range(7)]) << 17)
        n = rng.randint(1, 40)
        cols = fp16_values(rng, n * 8 * lanes, log2, specials).reshape(n, 8, lanes)  # [window, atom j, lane]
        nreal = [rng.randint(1, 8) for _ in range(n)]
        prun = [rng.randint(0, 7) for _ in range(n)]
        side = [rng.getrandbits(side_w) for _ in range(n)]
        src.set_pause_generator(pick_pause(pauses))
        sink.set_pause_generator(stalling_pause(pauses))
        dut.m_ave.value = int(method == AVERAGE)
        dut.m_max.value = int(method == MAX)
        dut.pad_values.value = sum(int(v) << (19 * k) for k, v in enumerate(pads))
        win_w = 8 * atom * 8
        beats = []
        for w in range(n):
            data = (side[w] << (win_w + 7)) | (prun[w] << (win_w + 4)) | (nreal[w] << win_w)
            for j in range(8):
                for lane in range(lanes):
                    data |= int(cols[w, j, lane]) << (j * atom * 8 + lane * 16)
            beats.append(data)
        send = cocotb.start_soon(src.send(beats))
        got = await sink.recv(n)
        await send
        pad_of = [0] + [int(v) & 0x1FFFF for v in pads]
        for w, (val, sd) in enumerate(got):
            real = cols[w, :nreal[w], :][::-1].T          # [lane, columns oldest first]
            want = fold_window(real, method, pad_of[prun[w]])
            label = (f"block {block} ({METHODS[method]}) window {w}: {nreal[w]} real columns, pad run "
                     f"{prun[w]} (pad {pad_of[prun[w]]:#07x})")
            assert sd == side[w], f"{label}: side bits expected {side[w]:#x}, got {sd:#x}"
            for lane in range(lanes):
                have = (val >> (32 * lane)) & 0xFFFFFFFF
                assert have == int(want[lane]), (
                    f"{label} lane {lane}: columns {[hex(int(v)) for v in real[lane]]}: expected "
                    f"{int(want[lane]):#07x}, got {have:#07x}")
        windows += n
        outcome.checked(windows * lanes, "lane results")
    assert waits.cycles > 0, "the output never waited with a result: no backpressure reached the pipeline"
    dut._log.info("%d windows, the output waited %d cycles with a result", windows, waits.cycles)

