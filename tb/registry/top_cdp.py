"""The subsystem top level driven like software drives NVDLA's CDP: LRN layers programmed through the CDP
driver layer (models/cdp/driver.py) over CSB, LUT tables through the access registers, both register groups,
random AXI latency and backpressure, outputs and the LUT / saturation statistics registers scored against
the model (tb/tests/test_top_cdp.py); LUT read-back over CSB; PDP and CDP running at the same time.
top_cdp_mem: random_layers alone on the top with the simulation memory (TOP_MEM), the long nightly batch."""

from __future__ import annotations

from tb.benches import Bench
from tb.registry.top import TIMING_ARGS, TOP, TOP_MEM, TOP_PARAMS

BENCHES = (
    Bench("top_cdp", TOP, "tb.tests.test_top_cdp", (TOP_PARAMS,)),
    Bench("top_cdp_mem", TOP_MEM, "tb.tests.test_top_cdp", (TOP_PARAMS,),
          build_args=TIMING_ARGS, tests=("random_layers",)),
)
