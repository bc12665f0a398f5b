"""The subsystem top level driven like software drives NVDLA's SDP: layers programmed through the SDP driver
layer (models/sdp/driver.py) over CSB, operand cubes in memory, the LUT through the access registers, both
register groups, random AXI latency and backpressure, outputs, LUT / saturation statistics and
D_STATUS.STATUS_UNEQUAL scored against models.sdp.model.run_sdp (tb/tests/test_top_sdp.py); LUT read-back
over CSB;
SDP
running at the same time as CDP or PDP.
top_sdp_mem: random_layers alone on the top with the simulation memory (TOP_MEM), the long nightly batch."""

from __future__ import annotations

from tb.benches import Bench
from tb.registry.top import TIMING_ARGS, TOP, TOP_MEM, TOP_PARAMS

BENCHES = (
    Bench("top_sdp", TOP, "tb.tests.test_top_sdp", (TOP_PARAMS,)),
    Bench("top_sdp_mem", TOP_MEM, "tb.tests.test_top_sdp", (TOP_PARAMS,),
          build_args=TIMING_ARGS, tests=("random_layers",)),
)
