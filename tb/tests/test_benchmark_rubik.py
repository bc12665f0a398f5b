"""Rubik benchmark on the RTL top level: OP_ENABLE-to-interrupt cycles against the busier channel's bus bound.

Large contract, split and merge layers (models/rubik/driver.py) run on the top with the simulation memory
(tb/hdl/nvdla_pp_top_mem.v; latency 0 and no stalls unless --latency or --random-mem), at a configuration
with Rubik (nv_full; elsewhere the benchmark reports SKIP). The table shows cycles, the bytes read and
written (counted in the memory), bound = the busier of read and written bytes / bus bytes (AR/R and AW/W run
in parallel: the channel that moves more is the limit), and cycles/bound (target: within 1.1). Each layer's
whole destination span is checked against the model (models/rubik/model.py); a wrong result sets the exit
code, timing never does.

Usage: .venv/bin/python -m scripts.benchmark_top rubik [--seed N] [--latency N] [--random-mem] (run by `make
benchmark` at configurations with Rubik). The host side (scripts/benchmark_top.py) builds the top and runs
this module's cocotb test, which writes its rows as JSON to the file named by BENCH_OUT.
"""

from __future__ import annotations

from typing import Any

import cocotb
import numpy as np

from models import configs
from models.rubik.driver import RubikLayer, Side, rubik_layer
from models.steps import MemCheck, MemWrite, Step, WaitInterrupt
from models.subsystem import ModelTarget
from tb import outcome
from tb.bench_target import BenchTarget, Row
from tb.benchmark import record_rows, run_case, start_benchmark
from tb.common import bench_params

A = 32
SRC, DST = 0x1000_0000, 0x2000_0000
LAYERS = (
    RubikLayer("CONTRACT", "INT8", 32, 8, 2 * 2 * 64, Side(SRC, 32 * A, 8 * 32 * A),
               Side(DST, 64 * A, 16 * 64 * A), x_stride=2, y_stride=2),
    RubikLayer("CONTRACT", "INT16", 16, 4, 4 * 2 * 32, Side(SRC, 16 * A, 4 * 16 * A),
               Side(DST, 64 * A, 8 * 64 * A), x_stride=4, y_stride=2),
    RubikLayer("SPLIT", "INT8", 256, 8, 64, Side(SRC, 256 * A, 8 * 256 * A), Side(DST, 256, planar=8 * 256)),
    RubikLayer("MERGE", "INT8", 256, 8, 64, Side(SRC, 256, planar=8 * 256), Side(DST, 256 * A, 8 * 256 * A)),
    RubikLayer("SPLIT", "FP16", 128, 8, 32, Side(SRC, 128 * A, 8 * 128 * A), Side(DST, 256, planar=8 * 256)),
    RubikLayer("MERGE", "INT16", 128, 8, 32, Side(SRC, 256, planar=8 * 256), Side(DST, 128 * A, 8 * 128 * A)),
)


def _name(layer: RubikLayer) -> str:
    extra = f"_{layer.x_stride}x{layer.y_stride}" if layer.mode == "CONTRACT" else ""
    cube = f"{layer.width}x{layer.height}x{layer.channels}"
    return f"rubik_{layer.mode.lower()}_{layer.precision.lower()}_{cube}{extra}"


def layer_steps(layer: RubikLayer, rng: np.random.Generator) -> list[Step]:
    """Load a random input, program the layer, wait for its interrupt, check the output span (the model's)."""
    model = ModelTarget(configs.load())
    lo, hi = layer.src_span()
    data = rng.integers(0, 256, size=hi - lo, dtype=np.uint8)
    steps: list[Step] = [MemWrite(0, lo, data)]
    model.mem_write(0, lo, data)
    for w in rubik_layer(layer):
        steps.append(w)
        model.reg_write(w.unit, w.reg, w.value)
    d_lo, d_hi = layer.dst_span()
    steps += [WaitInterrupt("RUBIK", 0, _name(layer)),
              MemCheck(0, d_lo, model.mem_read(0, d_lo, d_hi - d_lo), f"{_name(layer)}: output")]
    return steps


@cocotb.test()
async def rubik_benchmark(dut: Any) -> None:
    if not bench_params().get("RUBIK", 0):
        outcome.skip(f"configuration {configs.load().name} has no Rubik (nv_full has)")
    target, data_rng = await start_benchmark(dut, "rubik_bench", BenchTarget)

    async def run(name: str, layer: RubikLayer) -> Row:
        return await run_case(target, name, layer_steps(layer, data_rng), score_layers=False)

    await record_rows(dut, [(_name(layer), layer) for layer in LAYERS], run, "bench_rubik.json")
