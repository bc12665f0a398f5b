"""The units' DMA behaviour on the subsystem top (tb/tests/test_top_dma.py): the performance counters against
the
stall cycles the bench counts on each unit's AXI port, and AXI error responses that must never hang a unit.
It runs on top_pdp's build (the same toplevel and parameters: nvdla_pp_top with cocotbext-axi AxiRams)."""

from __future__ import annotations

from tb.benches import Bench
from tb.registry.top import TOP
from tb.registry.top_pdp import BENCHES as PDP_BENCHES

_PDP = next(b for b in PDP_BENCHES if b.name == "top_pdp")

BENCHES = (
    Bench("top_dma", TOP, "tb.tests.test_top_dma", _PDP.param_sets, build=_PDP.build_name),
)
