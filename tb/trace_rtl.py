"""`make traces TARGET=rtl`: NVDLA trace tests replayed on the RTL top level (host side of the replay).

The traces run inside one cocotb simulation of the top (tb/test_trace_rtl.py) with random AXI latency and
backpressure; each trace is also run on the model alongside, so a failed CRC names the first mismatching
element (unit, coordinate, expected, actual). Traces that enable a unit the RTL does not have yet are skipped,
with the reason, and counted apart.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from models.replay import RegWrite, TraceResult, trace_steps
from models.trace import TraceError
from tb.benches import find

# Units and capabilities the RTL top level implements (tb/registry/top.py builds it).
SDP_TO_PDP = "SDP->PDP on the fly"
RTL_UNITS = frozenset({"PDP", "CDP", "SDP", SDP_TO_PDP})
OUTPUT_DST_PDP = 1 << 1   # SDP D_FEATURE_MODE_CFG.OUTPUT_DST
# nv_small has one memory interface; larger NVDLA configurations add the CV SRAM (a trace's sec_mem).
SECOND_MEMORY = "a second memory (sec_mem)"


def units_needed(folder: Path) -> set[str]:
    """The datapath units whose D_OP_ENABLE the trace writes with 1, and the capabilities they need."""
    try:
        steps = trace_steps(folder)
    except TraceError:
        return set()  # the replay itself reports the parse error
    needed = {s.unit for s in steps if isinstance(s, RegWrite) and s.reg == "D_OP_ENABLE" and s.value & 1
              and not s.unit.endswith("_RDMA")}
    if any(isinstance(s, RegWrite) and s.unit == "SDP" and s.reg == "D_FEATURE_MODE_CFG"
           and s.value & OUTPUT_DST_PDP for s in steps):
        needed.add(SDP_TO_PDP)
    if any(getattr(s, "mem", 0) != 0 for s in steps):
        needed.add(SECOND_MEMORY)
    return needed


def replay_on_rtl(folders: list[Path], sim: str | None = None, seed: int | None = None) -> list[TraceResult]:
    from tb.runner import run_bench

    runnable = [f for f in folders if units_needed(f) <= RTL_UNITS]
    skipped = [TraceResult(f.name, False, 0, f"SKIP: needs {', '.join(sorted(units_needed(f) - RTL_UNITS))}, "
                           "not in the RTL yet") for f in folders if f not in runnable]
    results: list[TraceResult] = []
    if runnable:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "results.json"
            os.environ["TRACE_FOLDERS"] = os.pathsep.join(str(f.resolve()) for f in runnable)
            os.environ["TRACE_RESULTS"] = str(out)
            bench = find("top_traces")
            run = run_bench(bench, bench.param_sets[0], sim=sim or os.environ.get("SIM", "verilator"),
                            waves=os.environ.get("WAVES", "0") == "1", seed=seed)
            if out.exists():
                results = [TraceResult(**r) for r in json.loads(out.read_text())]
            done = {r.name for r in results}
            message = "; ".join(r.message for r in run if not r.passed) or "simulation ended early"
            results += [TraceResult(f.name, False, 0, f"not run: {message}")
                        for f in runnable if f.name not in done]
    return sorted(results + skipped, key=lambda r: r.name)
