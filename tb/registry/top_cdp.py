"""The subsystem top level driven like software drives NVDLA's CDP: LRN layers programmed through the CDP
driver layer (models/driver_cdp.py) over CSB, LUT tables through the access registers, both register groups,
random AXI latency and backpressure, outputs and the LUT / saturation statistics registers scored against
the model (tb/test_top_cdp.py); LUT read-back over CSB; PDP and CDP running at the same time."""

from __future__ import annotations

from tb.benches import Bench
from tb.registry.top import TOP

BENCHES = (
    Bench("top_cdp", "nvdla_pp_top", TOP, "tb.test_top_cdp", ({"PDP_MAX_W": 64},)),
)
