"""Until the RTL top has the convolution pipeline, its trace replay skips NVIDIA's convolution traces, chosen
by the units a trace enables (never by name), saying why."""

from __future__ import annotations

from models import configs
from models.trace import REPO_TRACES
from tb.trace_rtl import rtl_capabilities, units_needed


def test_convolution_traces_need_units_the_rtl_top_lacks() -> None:
    conv = sorted(REPO_TRACES.glob("nv_*/dc_*"))
    assert len(conv) >= 14
    for folder in conv:
        cfg = configs.load(folder.parent.name)
        lacks = units_needed(folder) - rtl_capabilities(cfg)
        assert set(configs.CONV_UNITS) <= units_needed(folder)
        assert lacks == {u for u in configs.CONV_UNITS if u not in cfg.units}, (folder.name, lacks)
    others = [f for f in sorted(REPO_TRACES.glob("nv_small/sdp_*"))]
    assert others and all(units_needed(f) <= rtl_capabilities(configs.load("nv_small")) for f in others)
