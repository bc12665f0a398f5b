"""The subsystem top level driven like software drives NVDLA's CDP: LRN layers programmed through the CDP
driver layer (models/driver_cdp.py) over CSB, LUT tables through the access registers, both register groups,
random AXI latency and backpressure, outputs and the LUT / saturation statistics registers scored against
the model (tb/test_top_cdp.py); LUT read-back over CSB; PDP and CDP running at the same time.
top_cdp_mem: random_layers alone on the top with the simulation memory (TOP_MEM), the long nightly batch."""

from __future__ import annotations

from tb.benches import Bench
from tb.registry.top import BENCHES as TOP_BENCHES
from tb.registry.top import TIMING_ARGS, TOP, TOP_MEM

# The same parameter set(s) as the trace replay of the top (top_traces): the top with the second memory.
_PARAMS = next(b.param_sets for b in TOP_BENCHES if b.name == "top_traces")

BENCHES = (
    Bench("top_cdp", TOP, "tb.test_top_cdp", _PARAMS),
    Bench("top_cdp_mem", TOP_MEM, "tb.test_top_cdp", _PARAMS,
          build_args=TIMING_ARGS, tests=("random_layers",)),
)
