"""Precisions per datapath unit in the trace replay: what a trace needs (models/replay.py trace_needs) and
what the RTL built at a configuration runs (tb/trace_rtl.py rtl_capabilities), so an INT16 trace runs on the
RTL exactly where its unit computes INT16 and is skipped, with the unit named, elsewhere."""

from __future__ import annotations

from models import configs
from models.replay import PRECISION_UNITS, capabilities, trace_needs
from models.steps import RegWrite
from models.trace import REPO_TRACES
from tb.trace_rtl import RTL_FP16_UNITS, RTL_INT16_UNITS, rtl_capabilities, units_needed


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
    assert full.verilog_parameters()["FP16"] == 1 and small.verilog_parameters()["FP16"] == 0
    assert {"INT16", *(f"INT16 {u}" for u in RTL_INT16_UNITS)} <= rtl
    assert {"FP16", *(f"FP16 {u}" for u in RTL_FP16_UNITS)} <= rtl
    unbuilt = {f"{p} {u}" for p, units in (("INT16", RTL_INT16_UNITS), ("FP16", RTL_FP16_UNITS))
               for u in PRECISION_UNITS if u not in units}
    assert not unbuilt & rtl
    assert not any("INT16" in c or "FP16" in c for c in rtl_capabilities(small))


def test_fp16_programs_of_every_unit_run_on_the_rtl() -> None:
    rtl = rtl_capabilities(configs.load("nv_full"))
    fp16 = REPO_TRACES / "nv_full_ref" / "fp16"
    assert {"FP16", "FP16 PDP"} <= units_needed(fp16 / "pdpfp16_s16_000") <= rtl
    assert {"FP16", "FP16 SDP"} <= units_needed(fp16 / "sdpfp16_s16_000") <= rtl
    assert {"FP16 SDP", "INT16 SDP"} <= units_needed(fp16 / "sdpcvt_s16_000") <= rtl
    # SDP's EW LUT at FP16 is on the RTL (nvdla_lut FP16), and so are the FP16 LUT helper's SDP tables
    assert {"FP16", "FP16 SDP"} <= units_needed(fp16 / "sdplutfp16_s16_000") <= rtl
    assert units_needed(fp16 / "lutfn_s16_000") <= rtl
    # CDP at FP16 (LRN with the LUT at FP16) too
    assert {"FP16", "FP16 CDP"} <= units_needed(fp16 / "cdpfp16_s16_000") <= rtl
