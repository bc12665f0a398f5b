"""CDP benchmark on the RTL top level: OP_ENABLE-to-interrupt cycles against the configuration's bus bound.

For every CDP-only NVDLA trace of the configuration ($CONFIG; models/trace.py trace_roots) and for 8x8x64 and
64x64x64 int8 LRN-5 cubes laid out at its atom
(the LUT helper's LRN program with the exponential LE, programmed through the CDP driver layer), the top
level (rtl/top/nvdla_pp_top.v) runs the layer with the simulation memory
(tb/hdl/nvdla_pp_top_mem.v; latency 0 and no stalls unless --latency or --random-mem).
The table (scripts/benchmark_top.py's, the same for the three units) shows:
  cycles      clock cycles from the last D_OP_ENABLE request on the CSB to the rising edge of `intr` (raised
              only after the last write response);
  read/write  bytes the memory served on R and took on W;
  bound       (read + written) / bus bytes: the cycles one bus of the configuration ($CONFIG, one atom a
              beat) needs to move those bytes;
  ratio       cycles / bound (AR/R and AW/W run in parallel, so a ratio below 1 is possible);
  busiest     cycles / (the busier of read and write bytes / bus bytes): AXI reads and writes use separate
              channels, so this is the bound CDP can reach (one atom in and one out per cycle);
  cycles/s    simulated cycles per wall-clock second over the layer (cocotb included), and of the plain
              C++ loop on the 64x64x64 layers (scripts/benchmark_cpp.py), whose output is checked too.
Every layer is checked: the output span must equal the reference model's (models/subsystem.ModelTarget fed the
same steps, LUT writes included), the bytes written must be exactly the output cube, the LUT statistics and
D_OUT_SATURATION registers must hold the model's counts, and traces must match their golden CRCs. A failed
check is printed in the table and sets the exit code. Figures only: no timed pass/fail.

Usage: .venv/bin/python -m scripts.benchmark_top cdp [--seed N] [--waves] [--latency N] [--random-mem]
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
from models.cdp.driver import Convertor, Surface, cdp_layer
from models.cdp.model import cdp_compute, input_convert
from models.lut import program as lut_program
from models.lut.fp16_program import lrn_fp16
from models.replay import unit_precision
from models.steps import MemWrite, RegWrite, Step, WaitInterrupt
from tb.bench_target import ATOM_BYTES, BenchTarget, Row, csb_address, trace_case
from tb.benchmark import record_rows, run_case, start_benchmark, unit_traces
from tb.stimulus.cube_data import cube_data
from tb.trace_rtl import rtl_capabilities

SRC_BASE = 0x1000_0000
DST_BASE = 0x2000_0000
STATS = {"D_PERF_LUT_LE_HIT": "le_hit", "D_PERF_LUT_LO_HIT": "lo_hit", "D_PERF_LUT_UFLOW": "uflow",
         "D_PERF_LUT_OFLOW": "oflow", "D_PERF_LUT_HYBRID": "hybrid", "D_OUT_SATURATION": "out_saturation"}


@dataclass(frozen=True)
class CubeLayer:
    name: str
    width: int
    height: int
    channels: int
    local_size: int = 5
    precision: str = "INT8"


# the 64x64x64 layer again at each other precision the configuration has (half the elements an atom)
CUBE_LAYERS = (CubeLayer("cube8x8x64_lrn5", 8, 8, 64), CubeLayer("cube64x64x64_lrn5", 64, 64, 64),
               *(CubeLayer(f"cube64x64x64_lrn5_{p.lower()}", 64, 64, 64, precision=p)
                 for p in configs.load().precisions if p != "INT8"))


def out_shift(products: np.ndarray, bits: int = 8) -> int:
    """DATOUT_SHIFTER that brings the largest |LUT * x| product to the output's range (few saturate)."""
    peak = int(np.max(np.abs(products))) if products.size else 1
    return max(0, peak.bit_length() - (bits - 1))


def cube_steps(layer: CubeLayer, data_rng: np.random.Generator) -> list[Step] | str:
    """The layer as replay steps: a random packed input, the driver's program (LUT included), the wait; or
    why the RTL cannot run it (a precision its CDP lacks)."""
    w, h, c = layer.width, layer.height, layer.channels
    line = w * ATOM_BYTES   # a line is `width` atoms at every precision
    src, dst = Surface(SRC_BASE, line, line * h), Surface(DST_BASE, line, line * h)
    data = cube_data(w * h * c, layer.precision, data_rng)   # drawn even when skipped: a seed keeps its data
    if layer.precision != "INT8" and unit_precision(layer.precision, "CDP") not in rtl_capabilities(
            configs.load()):
        return f"SKIP: needs {layer.precision} CDP, not in the RTL"
    # FP16: the LUT helper's LRN program at FP16 (FP32 START/END, FP16 entries)
    lut = lrn_fp16() if layer.precision == "FP16" else lut_program.lrn(le_mode="exponent")
    kw: dict[str, Any] = {"local_size": layer.local_size, "lut": lut, "src": src, "dst": dst,
                          "precision": layer.precision}
    if layer.precision != "FP16":   # FP16 uses no convertor
        # the input as codes (identity input convertor); the output convertor scaled to the products
        probe = cdp_layer(w, h, c, **kw)
        int16 = layer.precision == "INT16"
        lanes = ATOM_BYTES // 2 if int16 else ATOM_BYTES
        atoms = data.view("<i2" if int16 else np.int8).reshape(c // lanes, h, w, lanes)
        cube = atoms.transpose(0, 3, 1, 2).reshape(c, h, w)
        x9 = input_convert(cube, probe.config)
        looked = cdp_compute(cube, probe.config).lut
        assert looked is not None
        kw["datout"] = Convertor(0, 1, out_shift(looked.output * x9, 16 if int16 else 8))
    prog = cdp_layer(w, h, c, **kw)
    steps: list[Step] = [MemWrite(0, SRC_BASE, data)]
    steps += [RegWrite(unit, reg, value) for unit, reg, value in prog.writes]
    steps.append(WaitInterrupt("CDP", 0, layer.name))
    return steps


# ---------------------------------------------------------------------------------------------------------
# Simulation side
# ---------------------------------------------------------------------------------------------------------
async def check_stats(target: BenchTarget) -> str:
    """'' if the group the model last ran holds the model's statistics in the RTL's registers."""
    run = target.model.runs[-1] if target.model.runs else None
    if run is None or run.unit != "CDP":
        return "the model ran no CDP layer"
    await target.csb.write(csb_address("CDP", "S_POINTER"), run.group)
    got = {reg: await target.csb.read(csb_address("CDP", reg)) for reg in STATS}
    want = {reg: run.stats[reg] for reg in STATS}
    return "" if got == want else f"statistics registers {got}, the model counts {want}"


@cocotb.test()
async def cdp_benchmark(dut: Any) -> None:
    target, data_rng = await start_benchmark(dut, "cdp_bench", BenchTarget)
    cases: list[tuple[str, list[Step] | str]] = [(f.name, trace_case(f)) for f in unit_traces("CDP")]
    cases += [(layer.name, cube_steps(layer, data_rng)) for layer in CUBE_LAYERS]
    layers = {layer.name: layer for layer in CUBE_LAYERS}

    async def run(name: str, steps: list[Step] | str) -> Row:
        row = await run_case(target, name, steps)
        if name in layers and not isinstance(steps, str):
            layer = layers[name]
            row.elements, row.precision = layer.width * layer.height * layer.channels, layer.precision
        if row.ok:
            row.message = await check_stats(target)
            row.ok = not row.message
        return row

    await record_rows(dut, cases, run, "bench_cdp.json")
