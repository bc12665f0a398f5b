"""Rubik benchmark on the RTL top level: OP_ENABLE-to-interrupt cycles against the busier channel's bus bound.

Large contract, split and merge layers (models/driver_rubik.py) run on the top with the simulation memory
(tb/hdl/nvdla_pp_top_mem.v; latency 0 and no stalls unless --latency or --random-mem), at a configuration
with Rubik (nv_full; elsewhere the benchmark reports SKIP). The table shows cycles, the bytes read and
written (counted in the memory), bound = the busier of read and written bytes / bus bytes (AR/R and AW/W run
in parallel: the channel that moves more is the limit), and cycles/bound (target: within 1.1). Each layer's
whole destination span is checked against the model (models/rubik.py); a wrong result sets the exit code,
timing never does.

Usage: .venv/bin/python scripts/bench_rubik.py [--seed N] [--latency N] [--random-mem] (run by `make bench`)
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

import cocotb
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from models import configs  # noqa: E402
from models.driver_rubik import RubikLayer, Side, rubik_layer  # noqa: E402
from models.replay import MemCheck, MemWrite, Step, WaitInterrupt  # noqa: E402
from models.subsystem import ModelTarget  # noqa: E402
from scripts.top_bench import bench_arguments, finish, memory_note, run_on_top  # noqa: E402
from tb import outcome  # noqa: E402
from tb.bench_target import BUS_BYTES, BenchTarget, Row, bench_timing, start_top  # noqa: E402
from tb.common import bench_params, make_rng  # noqa: E402

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
    rng = make_rng("rubik_bench")
    data_rng = np.random.default_rng(rng.getrandbits(32))
    timing = bench_timing(rng)
    target = BenchTarget(dut, await start_top(dut, timing), timing)
    rows: list[Row] = []
    out = Path(os.environ.get("BENCH_OUT", "bench_rubik.json"))
    for layer in LAYERS:
        await target.start_case()
        row = await target.run_steps(_name(layer), layer_steps(layer, data_rng), score_layers=False)
        dut._log.info("%s: %d cycles, %s %s", row.name, row.cycles, "ok" if row.ok else "FAIL", row.message)
        rows.append(row)
        out.write_text(json.dumps([asdict(r) for r in rows]))
    outcome.checked(len(rows), "layers")
    assert all(r.ok for r in rows), f"wrong results: {[r.name for r in rows if not r.ok]}"


def table(rows: list[Row]) -> str:
    head = ("layer", "cycles", "read B", "written B", "bound (busier)", "cycles/bound", "check")
    body = []
    for r in rows:
        bound = max(r.read_bytes, r.write_bytes) / BUS_BYTES
        body.append((r.name, f"{r.cycles}", f"{r.read_bytes}", f"{r.write_bytes}", f"{bound:.0f}",
                     f"{r.cycles / bound:.3f}" if bound else "-",
                     r.message if r.skipped else "ok" if r.ok else f"FAIL: {r.message}"))
    widths = [max(len(x[i]) for x in (head, *body)) for i in range(len(head))]
    fmt = lambda cells: " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True))  # noqa: E731
    return "\n".join([fmt(head), "-+-".join("-" * w for w in widths), *(fmt(b) for b in body)])


def main() -> int:
    args = bench_arguments("rubik").parse_args()
    tag, results, raw = run_on_top("rubik", args)
    rows = [Row(**r) for r in raw]
    print(f"Rubik on the RTL top level ({configs.load().name}: {tag}), {memory_note(args)}, "
          f"bound = the busier of read and written bytes / {BUS_BYTES}")
    if rows:
        print(table(rows))
    return finish("rubik", rows, results, args)


if __name__ == "__main__":
    sys.exit(main())
