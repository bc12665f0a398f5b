"""Seed 001's Limitation rules for SDP, CDP, PDP and the LUT, one test case per rule of docs/limitations.md.

Every case starts from a VALID register configuration (reset values with a layer's fields encoded through
models/registers.encode_fields, then decoded again as the hardware would see them), breaks one rule, and
checks that the unit's configuration layer raises ConfigError naming that rule (the seed's wording in
`err.rule`) and the offending values (`err.values`). Rules NVIDIA's own traces break are advisories: the
case checks that advisories() reports them and that the layer still runs. The last test checks that every
rule id of docs/limitations.md has a case here and every case id is in the document.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pytest

from models.cdp import model as cdp
from models.common.memory import Memory
from models.lut import model as lut
from models.pdp import model as pdp
from models.sdp import model as sdp
from tests.model.limitation_cases.cdp import CDP_ADVISORIES, CDP_BASELINES, CDP_CASES, run_cdp_layer
from tests.model.limitation_cases.common import (
    Case,
    case_fields,
    expect_error,
    full_fields,
    params,
    with_changes,
)
from tests.model.limitation_cases.lut import LUT_ADVISORIES, LUT_BASELINES, LUT_CASES, run_lut_layer
from tests.model.limitation_cases.pdp import PDP_ADVISORIES, PDP_BASELINES, PDP_CASES, run_pdp_layer
from tests.model.limitation_cases.sdp import (
    SDP_ADVISORIES,
    SDP_BASELINES,
    SDP_CASES,
    SDP_SOURCE_COMBINATIONS,
    run_sdp_layer,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "limitations.md"

@pytest.mark.parametrize("name", SDP_BASELINES)
def test_sdp_baseline_is_valid(name: str) -> None:
    fields = full_fields(SDP_BASELINES[name])
    run_sdp_layer(fields)
    assert sdp.advisories(sdp.SdpConfig.from_fields(fields)) == []


@pytest.mark.parametrize("case", params(SDP_CASES))
def test_sdp_rule_raises(case: Case) -> None:
    expect_error(run_sdp_layer, case, SDP_BASELINES)


@pytest.mark.parametrize("case", params(SDP_ADVISORIES))
def test_sdp_advisory(case: Case) -> None:
    fields = case_fields(case, SDP_BASELINES)
    run_sdp_layer(fields)   # reported, not raised: the layer runs
    assert sdp.advisories(sdp.SdpConfig.from_fields(fields)) == [case.rule]


@pytest.mark.parametrize("changes", [pytest.param(v, id=k) for k, v in SDP_SOURCE_COMBINATIONS.items()])
def test_sdp_supported_operand_sources(changes: Mapping[str, int]) -> None:
    run_sdp_layer(full_fields(with_changes(SDP_BASELINES["sdp_main"], changes)))


def test_sdp_1x1_cube_is_read_and_written_packed_whatever_the_strides() -> None:
    """DF4 on SDP: the strides of a 1x1xC cube are not used (NVIDIA's C model reads a 1x1 input as one
    per-kernel block), so unpacked, even overlapping, strides cannot break the layer: nothing to report."""
    spec = with_changes(SDP_BASELINES["sdp_1x1"], {
        "SDP_RDMA:D_SRC_LINE_STRIDE.SRC_LINE_STRIDE": 0x100,
        "SDP_RDMA:D_SRC_SURFACE_STRIDE.SRC_SURFACE_STRIDE": 0,
        "SDP:D_DST_LINE_STRIDE.DST_LINE_STRIDE": 0x100, "SDP:D_DST_SURFACE_STRIDE.DST_SURFACE_STRIDE": 0})
    cfg = sdp.SdpConfig.from_fields(full_fields(spec))
    mem = Memory()
    data = np.arange(1, 17, dtype=np.int8)
    mem.write(0x1000, data.view(np.uint8))
    res = sdp.run_sdp(cfg, mem)
    assert res.output[:, 0, 0].tolist() == data.tolist()
    assert mem.read(0x10000, 16).view(np.int8).tolist() == data.tolist()
    assert sdp.advisories(cfg) == []


@pytest.mark.parametrize("name", CDP_BASELINES)
def test_cdp_baseline_is_valid(name: str) -> None:
    fields = full_fields(CDP_BASELINES[name])
    run_cdp_layer(fields)
    assert cdp.advisories(cdp.CdpConfig.from_fields(fields)) == []


@pytest.mark.parametrize("case", params(CDP_CASES))
def test_cdp_rule_raises(case: Case) -> None:
    expect_error(run_cdp_layer, case, CDP_BASELINES)


@pytest.mark.parametrize("case", params(CDP_ADVISORIES))
def test_cdp_advisory(case: Case) -> None:
    fields = case_fields(case, CDP_BASELINES)
    run_cdp_layer(fields)
    assert cdp.advisories(cdp.CdpConfig.from_fields(fields)) == [case.rule]


@pytest.mark.parametrize("name", PDP_BASELINES)
def test_pdp_baseline_is_valid(name: str) -> None:
    fields = full_fields(PDP_BASELINES[name])
    run_pdp_layer(fields)
    assert pdp.advisories(pdp.PdpConfig.from_fields(fields)) == []


@pytest.mark.parametrize("case", params(PDP_CASES))
def test_pdp_rule_raises(case: Case) -> None:
    expect_error(run_pdp_layer, case, PDP_BASELINES)


@pytest.mark.parametrize("case", params(PDP_ADVISORIES))
def test_pdp_advisory(case: Case) -> None:
    fields = case_fields(case, PDP_BASELINES)
    run_pdp_layer(fields)
    assert pdp.advisories(pdp.PdpConfig.from_fields(fields)) == [case.rule]


def _unit_of(case: Case) -> str:
    return case.base.split("_", 1)[0].upper()


@pytest.mark.parametrize("name", LUT_BASELINES)
def test_lut_baseline_is_valid(name: str) -> None:
    unit = name.split("_", 1)[0].upper()
    fields = full_fields(LUT_BASELINES[name])
    run_lut_layer(unit)(fields)
    assert lut.advisories(lut.LutConfig.from_fields(fields, unit)) == []


@pytest.mark.parametrize("case", params(LUT_CASES))
def test_lut_rule_raises(case: Case) -> None:
    expect_error(run_lut_layer(_unit_of(case)), case, LUT_BASELINES)


@pytest.mark.parametrize("case", params(LUT_ADVISORIES))
def test_lut_advisory(case: Case) -> None:
    unit = _unit_of(case)
    fields = case_fields(case, LUT_BASELINES)
    run_lut_layer(unit)(fields)
    assert lut.advisories(lut.LutConfig.from_fields(fields, unit)) == [case.rule]
    if unit == "CDP":
        assert cdp.advisories(cdp.CdpConfig.from_fields(fields)) == [case.rule]


# ================================================================================ document vs tests ======

ALL_CASES = (*SDP_CASES, *SDP_ADVISORIES, *CDP_CASES, *CDP_ADVISORIES, *PDP_CASES, *PDP_ADVISORIES,
             *LUT_CASES, *LUT_ADVISORIES)
CASE_IDS = {c.id for c in ALL_CASES} | set(SDP_SOURCE_COMBINATIONS)
_RULE_ID = re.compile(r"^(DF\d+|[SCPL]\d+)(?: \((?:SDP|CDP|PDP)\))?$")
_CASE_ID = re.compile(r"^[A-Z]+\d+(?:-[A-Z0-9_]+)+$|^[SCPL]\d+$")


def _doc_rows() -> list[list[str]]:
    rows = []
    for line in DOC.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and len(cells) == 5 and _RULE_ID.match(cells[0]):
            rows.append(cells)
    return rows


def test_every_rule_id_has_a_test() -> None:
    documented = {_RULE_ID.match(row[0]).group(1) for row in _doc_rows()}  # type: ignore[union-attr]
    tested = {i.split("-", 1)[0] for i in CASE_IDS}
    assert len(documented) > 40
    assert documented - tested == set(), "rule ids in docs/limitations.md without a test case"
    assert tested - documented == set(), "test case ids missing from docs/limitations.md"
    assert len(CASE_IDS) == len(ALL_CASES) + len(SDP_SOURCE_COMBINATIONS), "duplicate case ids"


def test_case_ids_named_in_the_document_exist() -> None:
    named = set()
    for row in _doc_rows():
        for token in re.findall(r"`([^`]+)`", row[3]):
            inner = token.split("[", 1)[1].rstrip("]") if "[" in token else token
            if _CASE_ID.match(inner):
                named.add(inner)
    assert len(named) > 40
    assert named - CASE_IDS == set(), "docs/limitations.md names test ids that do not exist"
