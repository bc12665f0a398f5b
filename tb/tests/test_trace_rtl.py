"""NVDLA trace replay on the RTL top level (tb/hdl/nvdla_pp_top_mem.v: the top, the simulation AXI memory
and a Verilog clock), a new seeded random memory latency and backpressure for each trace.

Started by tb/trace_rtl.py, which passes the trace folders in TRACE_FOLDERS and collects the results from
TRACE_RESULTS. The steps run through tb/bench_target.py (the benchmarks' target), with the model replaying
each trace alongside to name the first wrong element of a failed CRC.
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

import cocotb

from models import configs
from models.replay import TraceResult, load_steps, trace_config
from models.trace import default_trace_folders, trace_roots
from tb import outcome
from tb.bench_target import BenchTarget, reset, start_top
from tb.bfm.sim_memory import MemTiming
from tb.common import make_rng, nightly
from tb.trace_rtl import regression_sample, rtl_capabilities, units_needed


@cocotb.test()
async def replay_traces(dut) -> None:
    # From `make traces TARGET=rtl` the folders come in TRACE_FOLDERS; in the regression, every trace under
    # the default folder that the RTL can run.
    folders = [Path(p) for p in os.environ.get("TRACE_FOLDERS", "").split(os.pathsep) if p]
    noun = "traces"
    if not folders:
        # this build's configuration's own traces (the nv_small family's others run on theirs)
        own = configs.load().name
        found = [f for f in default_trace_folders() if trace_config(f).name == own]
        folders = [f for f in found if units_needed(f) <= rtl_capabilities(configs.load())
                   and not load_steps(f)[1]]  # a precision the models lack: make traces reports it
        if not folders:
            roots = ", ".join(map(str, trace_roots())) or f"traces/ for configuration {configs.load().name}"
            outcome.skip(f"no NVDLA trace the RTL can run under {roots} ({len(found)} trace folders found)")
        noun = f"traces of {len(found)}"  # the others need what the RTL lacks (make traces TARGET=rtl: why)
        # long reference series: a seeded sample outside the nightly (tb/trace_rtl.py REGRESSION_SAMPLE)
        folders, left_out = regression_sample(folders, make_rng("reference sample"), nightly())
        for series, dropped in left_out.items():
            kept = sorted(f.name for f in folders if f.parent.name == series)
            dut._log.info("reference series %s: %d of %d programs replayed (NIGHTLY=1: all): %s", series,
                          len(kept), len(kept) + len(dropped), " ".join(kept))
    out = Path(os.environ.get("TRACE_RESULTS", "trace_results.json"))
    running = out.with_suffix(".running")
    rng = make_rng("traces")
    results: list[TraceResult] = []
    mem = await start_top(dut, MemTiming())
    target = BenchTarget(dut, mem)
    for folder in folders:
        # Each trace starts from reset with an empty memory (cleared by the memory's strobe), as NVIDIA's
        # player does, so whatever the last trace left behind, a hung unit included, is gone; the memory
        # samples its new timing during that reset.
        target.timing = MemTiming.random(rng)
        mem.configure(target.timing)
        running.write_text(folder.name)  # names the trace to blame if the simulator dies during it
        try:
            await reset(dut)   # a hung trace may still have bursts in flight: stop them before the clear
            await target.start_case()
            steps, skip = load_steps(folder)
            res = (TraceResult(folder.name, False, 0, f"SKIP: {skip}") if skip
                   else await target.replay(folder.name, steps))
        except Exception as err:  # noqa: BLE001 - a model ConfigError, a driver error: this trace only
            res = TraceResult(folder.name, False, 0, f"{type(err).__name__}: {err}")
        dut._log.info("%s %s %s (memory: %s)", folder.name, "PASS" if res.passed else "FAIL", res.message,
                      target.timing.describe())
        results.append(res)
        out.write_text(json.dumps([dataclasses.asdict(r) for r in results]))
        outcome.checked(len(results), noun)
    running.unlink(missing_ok=True)
    failed = [r.name for r in results if not r.passed and not r.message.startswith("SKIP")]
    assert not failed, f"traces failed on the RTL: {failed}"
