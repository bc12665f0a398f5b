"""The subsystem top level driven like software drives NVDLA: PDP layers programmed through the driver layer
(models/pdp/driver.py) over CSB, random AXI latency and backpressure, outputs scored against the model
(tb/tests/test_top_pdp.py): random legal layers, register groups, unmapped/read-only registers, reset in the
middle of a layer, driver rejections, and random register values that must never hang the unit.
top_pdp_widths, top_pdp_lbuf: directed layers (average pooling's fixed widths; the line buffer's narrow and
widest bands) on top_pdp's build.
top_pdp_mem: random_layers alone on the top with the simulation memory (TOP_MEM), the long nightly batch; the
other tests watch the AXI bus or need cocotbext-axi's AxiRam, which checks the AXI protocol itself."""

from __future__ import annotations

from tb.benches import Bench
from tb.registry.top import BENCHES as TOP_BENCHES
from tb.registry.top import TIMING_ARGS, TOP, TOP_MEM

# The same parameter set(s) as the trace replay of the top (top_traces).
_PARAMS = next(b.param_sets for b in TOP_BENCHES if b.name == "top_traces")

BENCHES = (
    Bench("top_pdp", TOP, "tb.tests.test_top_pdp", _PARAMS),
    Bench("top_pdp_mem", TOP_MEM, "tb.tests.test_top_pdp", _PARAMS, build_args=TIMING_ARGS,
          tests=("random_layers",)),
    # directed layers for the fixed widths of average pooling (raw pad values, reciprocals), top_pdp's build
    Bench("top_pdp_widths", TOP, "tb.tests.test_top_pdp_widths", _PARAMS, build="top_pdp"),
    # directed layers for the line buffer of accumulators: bands 1-2 columns wide, bands at the limit
    Bench("top_pdp_lbuf", TOP, "tb.tests.test_top_pdp_lbuf", _PARAMS, build="top_pdp"),
    # the same at PDP_MAX_W 64 (8 words a bank: 64/32/16/8-column bands), as top_secmem builds the top
    Bench("top_pdp_lbuf64", TOP, "tb.tests.test_top_pdp_lbuf", tuple({**p, "PDP_MAX_W": 64} for p in _PARAMS),
          build="top_pdp"),
)
