"""Bench of PDP's output scaling (rtl/pdp/nvdla_pdp_scale.v, one nvdla_pdp_scale_lane per lane) against
models/pdp/model.py scale_round, bit for bit (tb/tests/test_pdp_scale.py): INT8 lanes, and INT16 lanes that
also
compute INT8 layers."""

from __future__ import annotations

from tb.benches import Bench

BENCHES = (
    Bench("pdp_scale", "nvdla_pdp_scale", "tb.tests.test_pdp_scale", (
        {"ATOM": 8, "INT16": 0},    # nv_small's lanes
        {"ATOM": 8, "INT16": 1},    # four INT16 lanes (INT8 layers on them too) and four INT8 lanes
    )),
)
