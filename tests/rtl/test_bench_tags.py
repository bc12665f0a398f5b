"""A parameter set's tag (tb/benches.py Bench.tag): the configuration's name where the set is one."""

from __future__ import annotations

import pytest

from models import configs
from tb.benches import BENCHES, configuration_tag, find


@pytest.mark.configuration("nv_small")
def test_top_bench_is_named_after_its_configuration() -> None:
    top = find("top_sdp")
    assert top.tag(top.param_sets[0]) == "nv_small"
    full = configs.load("nv_full").verilog_parameters()
    assert configuration_tag(full) == "nv_full"
    variant = {**full, "SEC_MEM": 0, "BDMA": 0}
    assert configuration_tag(variant) == "nv_full+BDMA0_SEC_MEM0"
    assert configuration_tag({"ATOM": 8, "CHUNK": 8}) == ""
    assert find("cdp_core").tag({"ATOM": 8, "CHUNK": 8}) == "ATOM8_CHUNK8"


def test_tags_tell_parameter_sets_apart() -> None:
    for bench in BENCHES:
        tags = [bench.tag(p) for p in bench.param_sets]
        assert len(set(tags)) == len(tags), f"{bench.name}: two parameter sets share a tag: {tags}"
