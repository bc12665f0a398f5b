"""PDP benchmark on the RTL top level: OP_ENABLE-to-interrupt cycles against the configuration's bus bound.

For every PDP-only NVDLA trace of the configuration ($CONFIG; models/trace.py trace_roots) and for 64x64x64
int8 cubes laid out at its atom, the top level (rtl/top/nvdla_pp_top.v) runs the layer with the
simulation memory (tb/hdl/nvdla_pp_top_mem.v; latency 0 and no stalls unless --latency or --random-mem), and
the table shows:
  cycles      clock cycles from the D_OP_ENABLE request on the CSB (the last one of PDP / PDP_RDMA) to the
              rising edge of `intr` (which the top raises only after the last write response);
  read/write  bytes the memory served on R and took on W (counted in the memory: what the DUT really moved);
  bound       (read + written) / bus bytes: the cycles one bus of the configuration ($CONFIG, one atom a
              beat) needs to move those bytes;
  ratio       cycles / bound (AR/R and AW/W run in parallel, so a ratio below 1 is possible);
  busiest     cycles / (the busier of read and write bytes / bus bytes): how close to saturating one
              direction;
  cycles/s    simulated cycles per wall-clock second over the layer (cocotb included), and of the plain
              C++ loop on the 64x64x64 layers (scripts/benchmark_cpp.py), whose output is checked too.
Every layer is also checked: the output span must equal the reference model's (models/subsystem.ModelTarget
fed the same steps), the bytes written must be exactly the output cube, and traces must match their golden
CRCs.
A benchmark of a wrong design is worthless, so a failed check is printed in the table and sets the exit code.
Figures only: no timed pass/fail.

Usage: .venv/bin/python -m scripts.benchmark_top pdp [--seed N] [--waves] [--latency N] [--random-mem]
       [--no-cpp]
(also run by `make bench`)
The host side (scripts/benchmark_top.py) builds the top in sim_build/<sim>/top_mem and runs this module's
cocotb test, which writes its rows as JSON to the file named by BENCH_OUT.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cocotb
import numpy as np

from models import configs
from models.pdp.driver import PdpProgram, Surface, pdp_layer
from models.pdp.model import AVERAGE, MAX, max_band_width
from models.steps import MemWrite, RegWrite, Step, WaitInterrupt
from tb.bench_target import ATOM_BYTES, BenchTarget, Row, trace_case
from tb.benchmark import record_rows, run_case, start_benchmark, unit_traces
from tb.stimulus.cube_data import cube_data


# ---------------------------------------------------------------------------------------------------------
# The 64x64x64 cube layers
# ---------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CubeLayer:
    name: str
    method: int
    kernel: int
    stride: int
    pad: int         # on every side
    size: int = 64   # width = height = channels
    precision: str = "INT8"


INT8_LAYERS = (
    CubeLayer("cube64_max_2x2s2", MAX, 2, 2, 0),
    CubeLayer("cube64_ave_3x3s1_pad1", AVERAGE, 3, 1, 1),
)
# the same layers at each other precision the configuration has (INT16, FP16: half the elements an atom)
CUBE_LAYERS = INT8_LAYERS + tuple(
    CubeLayer(f"{layer.name}_{precision.lower()}", layer.method, layer.kernel, layer.stride, layer.pad,
              layer.size, precision)
    for precision in configs.load().precisions if precision != "INT8" for layer in INT8_LAYERS)
SRC_BASE = 0x1000_0000
DST_BASE = 0x2000_0000


def cube_program(layer: CubeLayer) -> PdpProgram:
    """The layer through the driver: a packed (line- and surface-packed) cube, split-width bands of NVDLA's
    maximum flying width for the kernel when the output is wider (64 columns of a 3x3/1 kernel: 32 + 32)."""
    n, k, s, p = layer.size, layer.kernel, layer.stride, layer.pad
    out = (n + 2 * p - k) // s + 1
    line_in, line_out = n * ATOM_BYTES, out * ATOM_BYTES   # a line is `width` atoms at every precision
    band = max_band_width(k, s)
    return pdp_layer(n, n, n, method={MAX: "max", AVERAGE: "average"}[layer.method], kernel=(k, k),
                     stride=(s, s), pads=(p, p, p, p), src=Surface(SRC_BASE, line_in, line_in * n),
                     dst=Surface(DST_BASE, line_out, line_out * out), split=band if out > band else None,
                     precision=layer.precision)


def cube_steps(layer: CubeLayer, data_rng: np.random.Generator) -> list[Step]:
    """The layer as replay steps: load a random input, program both units, enable, wait for the interrupt."""
    prog = cube_program(layer)   # a broken layer definition fails here, naming the rule
    n = layer.size
    data = cube_data(n * n * n, layer.precision, data_rng)
    steps: list[Step] = [MemWrite(0, SRC_BASE, data)]
    steps += [RegWrite(w.unit, w.reg, w.value) for w in prog.writes]
    steps.append(WaitInterrupt("PDP", prog.group, layer.name))
    return steps


# ---------------------------------------------------------------------------------------------------------
# Simulation side (the target, its memory and reset live in tb/bench_target.py, the loop in tb/benchmark.py)
# ---------------------------------------------------------------------------------------------------------
@cocotb.test()
async def pdp_benchmark(dut: Any) -> None:
    target, data_rng = await start_benchmark(dut, "pdp_bench", BenchTarget)
    cases: list[tuple[str, list[Step] | str]] = [(f.name, trace_case(f)) for f in unit_traces("PDP")]
    cases += [(layer.name, cube_steps(layer, data_rng)) for layer in CUBE_LAYERS]
    layers = {layer.name: layer for layer in CUBE_LAYERS}

    async def run(name: str, steps: list[Step] | str) -> Row:
        row = await run_case(target, name, steps)
        if name in layers:
            row.elements, row.precision = layers[name].size ** 3, layers[name].precision
        return row

    await record_rows(dut, cases, run, "bench_pdp.json")
