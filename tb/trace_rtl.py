"""`make traces TARGET=rtl`: NVDLA trace tests replayed on the RTL top level (host side of the replay).

The traces run inside one cocotb simulation of the top (tb/test_trace_rtl.py) with random AXI latency and
backpressure; each trace is also run on the model alongside, so a failed CRC names the first mismatching
element (unit, coordinate, expected, actual). Traces that enable a unit the RTL does not have yet are skipped,
with the reason, and counted apart.
"""

from __future__ import annotations

import dataclasses
import json
import os
import tempfile
from pathlib import Path

from models import configs
from models.configs import Configuration
from models.replay import RegWrite, TraceResult, load_steps, trace_config
from tb.benches import find

SDP_TO_PDP = "SDP->PDP on the fly"
OUTPUT_DST_PDP = 1 << 1   # SDP D_FEATURE_MODE_CFG.OUTPUT_DST
# nv_small has one memory interface; larger NVDLA configurations add the CV SRAM (a trace's sec_mem), which
# the top has when built with SEC_MEM=1 (its c_axi port).
SECOND_MEMORY = "a second memory (sec_mem)"
BDMA = "BDMA"


def rtl_capabilities(config: Configuration) -> frozenset[str]:
    """Units and capabilities the RTL top level has when built at a configuration."""
    return frozenset({"PDP", "CDP", "SDP", SDP_TO_PDP} | ({SECOND_MEMORY} if config.second_memory else set())
                     | ({BDMA} if config.bdma else set()))


def units_needed(folder: Path) -> set[str]:
    """The datapath units whose D_OP_ENABLE the trace writes with 1, and the capabilities they need."""
    try:
        steps, _skip = load_steps(folder)
    except Exception:  # noqa: BLE001 - the replay itself reports why the trace cannot be read
        return set()
    needed = {s.unit for s in steps if isinstance(s, RegWrite) and s.reg == "D_OP_ENABLE" and s.value & 1
              and not s.unit.endswith("_RDMA")}
    if any(isinstance(s, RegWrite) and s.unit == "SDP" and s.reg == "D_FEATURE_MODE_CFG"
           and s.value & OUTPUT_DST_PDP for s in steps):
        needed.add(SDP_TO_PDP)
    if any(getattr(s, "mem", 0) != 0 for s in steps):
        needed.add(SECOND_MEMORY)
    if any(isinstance(s, RegWrite) and s.unit == BDMA for s in steps):
        needed.add(BDMA)
    return needed


def replay_on_rtl(folders: list[Path], sim: str | None = None, seed: int | None = None) -> list[TraceResult]:
    """Each trace on the RTL built at its configuration (models/replay.py trace_config), one simulation per
    configuration."""
    by_config: dict[str, list[Path]] = {}
    for f in folders:
        by_config.setdefault(trace_config(f).name, []).append(f)
    saved = {k: os.environ.get(k) for k in ("TRACE_FOLDERS", "TRACE_RESULTS")}
    results: list[TraceResult] = []
    try:
        for name, group in by_config.items():
            config = configs.load(name)
            has = rtl_capabilities(config)
            runnable = [f for f in group if units_needed(f) <= has]
            for f in group:
                if f not in runnable:
                    lacks = ", ".join(sorted(units_needed(f) - has))
                    results.append(TraceResult(f.name, False, 0,
                                               f"SKIP: needs {lacks}, which the RTL at {name} lacks"))
            results += _run_batches(runnable, config, sim, seed)
    finally:  # the simulation reads them from the environment; leave it as it was for whoever runs next
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return sorted(results, key=lambda r: r.name)


def _run_batches(runnable: list[Path], config: Configuration, sim: str | None,
                 seed: int | None) -> list[TraceResult]:
    from tb.runner import run_bench

    results: list[TraceResult] = []
    remaining = runnable
    # the trace bench at this configuration: the simulation's drivers, model and CSB map follow it
    bench = dataclasses.replace(find("top_traces"), config=config.name)
    with tempfile.TemporaryDirectory() as tmp:
        # One simulation replays the whole batch; if the simulator itself dies, the trace it was on fails
        # with the reason and a new simulation goes on with the traces after it.
        for attempt in range(len(runnable)):
            if not remaining:
                break
            out = Path(tmp) / f"results{attempt}.json"
            running = out.with_suffix(".running")
            os.environ["TRACE_FOLDERS"] = os.pathsep.join(str(f.resolve()) for f in remaining)
            os.environ["TRACE_RESULTS"] = str(out)
            run = run_bench(bench, config.verilog_parameters(), sim=sim or os.environ.get("SIM", "verilator"),
                            waves=os.environ.get("WAVES", "0") == "1", seed=seed)
            got = [TraceResult(**r) for r in json.loads(out.read_text())] if out.exists() else []
            results += got
            done = {r.name for r in got}
            remaining = [f for f in remaining if f.name not in done]
            if not remaining:
                break
            message = "; ".join(r.message for r in run if r.failed) or "the simulation ended early"
            blamed = running.read_text() if running.exists() else ""
            if blamed not in {f.name for f in remaining}:
                # it died before starting a trace (a build or start-up failure): nothing more can run
                results += [TraceResult(f.name, False, 0, f"not run: {message}") for f in remaining]
                break
            results.append(TraceResult(blamed, False, 0, f"the simulation died during this trace: {message}"))
            remaining = [f for f in remaining if f.name != blamed]
    return results
