"""Convolution benchmark on the RTL top level: cycles, MAC utilization and the bus bound of data plus weights.

Three INT8 direct-convolution layers through the driver (models/conv/driver.py; tb/stimulus/conv_top.py makes
the random input, kernels and steps), at the run's configuration ($CONFIG; at one without the convolution
pipeline the benchmark reports SKIP):
  conv3x3_64x64x64_k64   a 64x64x64 input, 64 3x3 kernels, padding 1 (the issue's throughput layer);
  conv1x1_64x64x64_k64   the same input, 64 1x1 kernels;
  conv3x3_32x32x67_k37   a 32x32x67 input, 37 3x3 kernels, padding 1: C and K multiples of no atom.
Where CBUF cannot hold the input beside one kernel group, the driver splits the layer in H into several
hardware layers (nv_small); each runs after the previous one's interrupt, as the driver's program says.
The top (rtl/top/nvdla_pp_top.v) runs on the simulation memory (tb/hdl/nvdla_pp_top_mem.v; latency 0 and no
stalls unless --latency or --random-mem); data and weights come from the same memory, the output goes to it.
The table (scripts/benchmark_top.py) shows
  cycles      from the first D_OP_ENABLE of the first hardware layer to the rise of `intr` at the last one's
              SDP done (GLB masks CDMA's and CACC's done bits here; the register programming of the later
              hardware layers included);
  MAC util    useful MACs (out W x out H x K x C x R x S) / (atomic C x atomic K x cycles);
  bound       (input cube + weight image bytes) / bus bytes: the cycles the read channel needs to bring
              data and weights in once, and cycles / bound.
Each layer's whole output cube is checked against the model running the same steps (a wrong result sets the
exit code; timing never does).

Usage: .venv/bin/python -m scripts.benchmark_top conv [--seed N] [--latency N] [--random-mem] [--only NAME]
(run by `make benchmark`). The host side (scripts/benchmark_top.py) builds the top and runs this module's
cocotb test, which writes its rows as JSON to the file named by BENCH_OUT.
"""

from __future__ import annotations

import random
from typing import Any

import cocotb

from models import configs
from models.common.driver import Surface
from models.conv.driver import ConvLayer, SdpStage
from models.regfile import intr_bit
from models.steps import MemWrite
from tb import outcome
from tb.bench_target import BenchTarget, Row, csb_address
from tb.benchmark import record_rows, start_benchmark
from tb.common import bench_params
from tb.stimulus.conv_top import DST, SRC, WEIGHTS, describe, layer_steps, output_check


def layers() -> list[tuple[str, ConvLayer]]:
    """The benchmark's layers at the run's configuration (cubes laid out at its atom, dense)."""
    atom = configs.load().atom_bytes

    def cube(base: int, w: int, h: int) -> Surface:
        return Surface(base, w * atom, w * h * atom)

    out = []
    for name, (w, h, c, k, r) in {"conv3x3_64x64x64_k64": (64, 64, 64, 64, 3),
                                  "conv1x1_64x64x64_k64": (64, 64, 64, 64, 1),
                                  "conv3x3_32x32x67_k37": (32, 32, 67, 37, 3)}.items():
        pad = (r - 1) // 2
        out.append((name, ConvLayer(w, h, c, k, r, r, src=cube(SRC, w, h), weight_base=WEIGHTS,
                                    sdp=SdpStage(dst=cube(DST, w, h)), pads=(pad,) * 4, truncate=8)))
    return out


@cocotb.test()
async def conv_benchmark(dut: Any) -> None:
    config = configs.load()
    if not bench_params().get("CONV", 0):
        outcome.skip(f"configuration {config.name} has no convolution pipeline")
    target, data_rng = await start_benchmark(dut, "conv_bench", BenchTarget)
    rng = random.Random(int(data_rng.integers(1 << 32)))   # the stimulus draws with Python's generator
    # `intr` for SDP's done alone: CDMA's and CACC's done bits, which no step waits for and clears, would hold
    # it high from the first hardware layer's CDMA_DAT done on, and the timing stops at `intr`
    mask = sum(1 << intr_bit(unit, g) for unit in ("CDMA_DAT", "CDMA_WT", "CACC") for g in (0, 1))

    async def run(name: str, layer: ConvLayer) -> Row:
        prog, steps = layer_steps(rng, layer)
        loaded = sum(s.data.size for s in steps if isinstance(s, MemWrite))   # input cube + weight image
        steps.append(output_check(layer, steps, name))
        await target.start_case()
        await target.csb.write(csb_address("GLB", "S_INTR_MASK"), mask, nposted=True)
        row = await target.run_steps(name, steps, score_layers=False)
        row.cycles = target.span_cycles
        row.macs = (layer.out_width * layer.out_height * layer.kernels * layer.channels * layer.kernel_w
                    * layer.kernel_h)
        row.mac_slots = config.conv.atomic_c * config.conv.atomic_k
        row.bound_bytes = loaded
        util = row.macs / (row.mac_slots * row.cycles) if row.cycles else 0.0
        dut._log.info("%s: %s: MAC utilization %.3f", name, describe(layer, prog), util)
        return row

    await record_rows(dut, layers(), run, "bench_conv.json")
