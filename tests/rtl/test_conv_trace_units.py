"""The RTL top has the convolution pipeline (CONV = 1 at every configuration): its trace replay runs every
NVIDIA convolution trace of a configuration, chosen by the units a trace enables (never by name); none is
skipped for a unit the top lacks."""

from __future__ import annotations

from models import configs
from models.trace import REPO_TRACES
from tb.trace_rtl import rtl_capabilities, units_needed


def test_convolution_traces_need_nothing_the_rtl_top_lacks() -> None:
    conv = sorted(REPO_TRACES.glob("nv_*/dc_*"))
    assert len(conv) >= 14
    for folder in conv:
        cfg = configs.load(folder.parent.name)
        assert set(configs.CONV_UNITS) <= units_needed(folder)
        assert set(configs.CONV_UNITS) <= set(cfg.units)
        lacks = units_needed(folder) - rtl_capabilities(cfg)
        assert not lacks, (folder.name, lacks)
    others = [f for f in sorted(REPO_TRACES.glob("nv_small/sdp_*"))]
    assert others and all(units_needed(f) <= rtl_capabilities(configs.load("nv_small")) for f in others)
