"""Precisions per datapath unit in the trace replay: what a trace needs (models/replay.py trace_needs) and
what the RTL built at a configuration runs (tb/trace_rtl.py rtl_capabilities), so an INT16 trace runs on the
RTL exactly where its unit computes INT16 and is skipped, with the unit named, elsewhere."""

from __future__ import annotations

from models import configs
from models.regfile import RegWrite
from models.replay import PRECISION_UNITS, capabilities, trace_needs
from models.trace import REPO_TRACES
from tb.trace_rtl import RTL_INT16_UNITS, rtl_capabilities, units_needed


def test_a_precision_is_needed_plainly_and_per_unit() -> None:
    steps = [RegWrite("PDP_RDMA", "D_DATA_FORMAT", 1), RegWrite("SDP", "D_DATA_FORMAT", 0)]
    needs = trace_needs(steps)  # type: ignore[arg-type]
    assert {"INT16", "INT16 PDP"} <= needs and not any(n.endswith("SDP") for n in needs)


def test_nvidias_int16_traces_name_their_unit() -> None:
    assert {"INT16", "INT16 PDP"} <= units_needed(REPO_TRACES / "nv_full" / "pdp_max_pooling_int16")
    assert "INT16 SDP" in units_needed(REPO_TRACES / "nv_full" / "sdp_relu_int16")


def test_the_model_has_every_units_precisions_the_rtl_those_it_built() -> None:
    full, small = configs.load("nv_full"), configs.load("nv_small")
    assert {"INT16 PDP", "INT16 SDP", "INT16 CDP", "FP16 SDP"} <= capabilities(full)
    rtl = rtl_capabilities(full)
    assert full.verilog_parameters()["INT16"] == 1 and small.verilog_parameters()["INT16"] == 0
    assert {"INT16", *(f"INT16 {u}" for u in RTL_INT16_UNITS)} <= rtl
    # the units whose RTL computes INT8 only yet are not there (nor is FP16)
    int8_only = {f"INT16 {u}" for u in PRECISION_UNITS if u not in RTL_INT16_UNITS}
    assert not (int8_only | {"FP16", "FP16 PDP"}) & rtl
    assert not any("INT16" in c for c in rtl_capabilities(small))
