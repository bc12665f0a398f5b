"""Bench of the AXI read and write DMA engines (rtl/dma/) on a loopback harness (tb/hdl/nvdla_dma_loopback.v):
nv_small's shape and its own single-beat limit."""

from __future__ import annotations

from tb.benches import Bench

BENCHES = (
    Bench("dma", "nvdla_dma_loopback", "tb.tests.test_dma", (
        {"MAX_BURST": 16, "MAX_OUTSTANDING": 8},
        {"MAX_BURST": 1, "MAX_OUTSTANDING": 2},     # nv_small's own limit: single-beat requests
    )),
)
