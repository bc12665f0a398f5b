"""Throughput benchmark of the convertor (not a pass/fail test): streams samples with no backpressure
and writes cycles, samples and wall time to $BENCH_OUT as JSON for scripts/benchmark.py to print."""

from __future__ import annotations

import json
import os
import time

import cocotb
from cocotb.triggers import ClockCycles
from cocotb.utils import get_sim_time

from tb.bfm.stream import StreamBus, StreamSink, StreamSource
from tb.common import bench_params, make_rng, start_clock_and_reset
from tb.lanes import pack

CLOCK_NS = 10


@cocotb.test()
async def throughput(dut) -> None:
    p = bench_params()
    lanes, in_w = p["LANES"], p["IN_W"]
    beats = int(os.environ.get("BENCH_BEATS", "20000"))
    rng = make_rng("throughput")
    await start_clock_and_reset(dut.clk, dut.rst_n, idle=[dut.in_valid, dut.out_ready, dut.sat_count_clr])
    dut.cfg_offset.value, dut.cfg_scale.value, dut.cfg_shift.value = 3, 1234, 7
    words = [pack([rng.randrange(-(1 << (in_w - 1)), 1 << (in_w - 1)) for _ in range(lanes)], in_w)
             for _ in range(beats)]
    source = StreamSource(StreamBus(dut, "in"), dut.clk)
    sink = StreamSink(StreamBus(dut, "out"), dut.clk)
    wall0, sim0 = time.perf_counter(), get_sim_time("ns")
    cocotb.start_soon(source.send(words))
    await sink.recv(beats)
    wall, cycles = time.perf_counter() - wall0, (get_sim_time("ns") - sim0) / CLOCK_NS
    await ClockCycles(dut.clk, 1)
    figures = {"beats": beats, "lanes": lanes, "cycles": cycles, "wall_s": wall}
    with open(os.environ["BENCH_OUT"], "w") as f:
        json.dump(figures, f)
