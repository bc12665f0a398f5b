"""Random direct-convolution layers on the top (tb/hdl/nvdla_pp_top_mem.v) at the run's configuration:
each layer from tb/stimulus/conv_top.py through the driver (models/driver_conv.py), run with random memory
latency and backpressure, its output scored against the model running the same steps (tb/bench_target.py:
the first wrong element named by unit, coordinate, expected and actual)."""

from __future__ import annotations

import cocotb

from tb import outcome
from tb.bench_target import BenchTarget, reset, start_top
from tb.bfm.sim_memory import MemTiming
from tb.common import make_rng, scaled
from tb.stimulus.conv_top import ConfigError, describe, layer_steps, random_layer


@cocotb.test()
async def random_layers(dut) -> None:
    rng = make_rng("top_conv")
    mem = await start_top(dut, MemTiming())
    target = BenchTarget(dut, mem)
    count = scaled(30, 300)
    done = refused = 0
    while done < count:
        layer = random_layer(rng)
        try:
            prog, steps = layer_steps(rng, layer)
        except ConfigError:       # a layer the driver refuses (a Limitation rule): drawn again
            refused += 1
            continue
        target.timing = MemTiming.random(rng)
        mem.configure(target.timing)
        await reset(dut)
        await target.start_case()
        row = await target.run_steps(f"layer {done}", steps)
        assert row.ok, f"layer {done}: {describe(layer, prog)}: {row.message}"
        dut._log.info("layer %d: %s: %d cycles", done, describe(layer, prog), row.cycles)
        done += 1
        outcome.checked(done, "layers")
    dut._log.info("%d layers passed (%d drawn layers refused by the driver)", done, refused)
