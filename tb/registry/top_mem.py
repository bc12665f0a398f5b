"""The simulation AXI memory on the top-level wrapper (tb/tests/test_sim_memory.py); the top-level benchmarks
(tb/tests/test_benchmark_{pdp,cdp,sdp}.py) share this bench's build."""

from __future__ import annotations

from tb.benches import Bench
from tb.registry.top import BENCHES as TOP_BENCHES
from tb.registry.top import TIMING_ARGS, TOP_MEM

_PARAMS = next(b.param_sets for b in TOP_BENCHES if b.name == "top_traces")

BENCHES = (
    Bench("top_mem", TOP_MEM, "tb.tests.test_sim_memory", _PARAMS, build_args=TIMING_ARGS),
)
