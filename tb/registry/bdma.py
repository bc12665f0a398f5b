"""Bench of BDMA (rtl/bdma/nvdla_bdma.v with its generated register block, harness tb/hdl/nvdla_bdma_top.v):
nv_full's 32-byte atom and the 8-byte one of the smaller configurations (the AXI data is one atom)."""

from __future__ import annotations

from tb.benches import Bench

BENCHES = (
    Bench("bdma", "nvdla_bdma_top", "tb.tests.test_bdma", (
        {"ATOM": 32, "MAX_BURST": 16, "MAX_OUTSTANDING": 8},
        {"ATOM": 8, "MAX_BURST": 4, "MAX_OUTSTANDING": 2},
    )),
)
