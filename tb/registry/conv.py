"""Benches of the convolution pipeline: CMAC feeding CACC (tb/hdl/nvdla_conv_mac_tb.v,
tb/tests/test_conv_mac.py) scored against models/conv/conv.py's accumulation and output stage; random
convolution layers on the top at the run's configuration (tb/tests/test_top_conv.py, on the trace bench's
build); CDMA's read stall and latency counters against the cycles counted on its AXI ports
(tb/tests/test_top_conv_perf.py, on top_pdp's build: nvdla_pp_top with AxiRams, whose internal arb_* vectors
the bench reads)."""

from __future__ import annotations

from tb.benches import Bench
from tb.registry.top import TIMING_ARGS, TOP, TOP_MEM, TOP_PARAMS
from tb.registry.top_pdp import BENCHES as PDP_BENCHES

_PDP = next(b for b in PDP_BENCHES if b.name == "top_pdp")

BENCHES = (
    Bench("conv_mac", "nvdla_conv_mac_tb", "tb.tests.test_conv_mac", (
        {"AC": 8, "AK": 8, "STRIPE": 16},     # nv_small
        {"AC": 32, "AK": 16, "STRIPE": 32},   # nv_medium_512's atoms
    )),
    Bench("top_conv", TOP_MEM, "tb.tests.test_top_conv", (TOP_PARAMS,), build_args=TIMING_ARGS,
          build="top_traces"),
    Bench("top_conv_perf", TOP, "tb.tests.test_top_conv_perf", _PDP.param_sets, build=_PDP.build_name),
)
