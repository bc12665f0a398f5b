"""Random deconvolutions on the top with the simulation memory (tb/hdl/nvdla_pp_top_mem.v) at nv_full, the
configuration with both the convolution pipeline and Rubik: each from tb/stimulus/deconv_top.py through the
driver (models/rubik/driver.py deconv_layer: stride_x*stride_y convolution layers, then one contract), run
with random memory latency and backpressure; every stride cube and the contracted cube must be the model's
bytes, and the contracted cube the transposed convolution computed from its definition. Needs a top built with
RUBIK = 1; elsewhere SKIP (the model test tests/model/test_deconv.py covers the convolution part at every
configuration)."""

from __future__ import annotations

import cocotb
import numpy as np
from cocotb.utils import get_sim_time

from models import configs
from models.common.cube import CubeLayout
from models.common.memory import Memory
from models.executor import run
from models.steps import MemCheck
from models.subsystem import ModelTarget
from tb import outcome
from tb.bench_target import CLK_NS, BenchTarget, batch_count, start_top
from tb.bfm.sim_memory import MemTiming
from tb.common import bench_params, make_rng
from tb.stimulus.deconv_top import deconv_steps, describe, random_deconv, transposed_conv

FAST, LONG = 3, 30


@cocotb.test()
async def random_deconvolutions(dut) -> None:
    if not bench_params().get("RUBIK", 0):
        outcome.skip("the top was built without Rubik (RUBIK = 0): only nv_full has the contract")
    rng = make_rng("top_deconv")
    count = batch_count(dut, FAST, LONG)
    mem = await start_top(dut, MemTiming())
    target = BenchTarget(dut, mem)
    config = configs.load()
    atom = config.atom_bytes
    for i in range(count):
        layer = random_deconv(rng)
        prog, data, weights, steps = deconv_steps(rng, layer)
        model = ModelTarget(config)
        assert run(steps, model).passed
        wm, hm = layer.mid_size
        spans = [m.layout(wm, hm, layer.kernels).extent() for m in prog.mid]
        assert prog.contract is not None
        spans.append(prog.contract.dst_span())
        checks = [MemCheck(0, lo, model.mem_read(0, lo, hi - lo), f"deconvolution {i} span {n}")
                  for n, (lo, hi) in enumerate(spans)]
        target.timing = MemTiming.random(rng)
        mem.configure(target.timing)
        await target.start_case()
        start = get_sim_time("ns")
        row = await target.run_steps(f"deconvolution {i}", [*steps, *checks], score_layers=False)
        assert row.ok, f"deconvolution {i}: {describe(layer)}: {row.message}"
        lo, hi = spans[-1]
        got_mem = Memory()
        got_mem.write(lo, np.frombuffer(target.mems[0].read(lo, hi - lo), dtype=np.uint8))
        d = layer.dst
        assert d is not None
        ow, oh = layer.out_size
        got = CubeLayout(d.base, d.line_stride, d.surface_stride, ow, oh, layer.kernels, atom).read(got_mem)
        want = transposed_conv(layer, data, weights)
        bad = np.argwhere(got.astype(np.int64) != want)
        at = tuple(int(v) for v in bad[0]) if bad.size else ()
        assert not bad.size, (f"deconvolution {i}: {describe(layer)}: RUBIK output (k, y, x) {at}: "
                              f"expected {want[at]}, actual {got[at]}")
        dut._log.info("deconvolution %d: %s: %d convolution layers + contract, %d cycles", i, describe(layer),
                      len(prog.convs), round((get_sim_time("ns") - start) / CLK_NS))
        outcome.checked(i + 1, "deconvolutions")
