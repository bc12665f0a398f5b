"""Bench of the SDP read DMA (rtl/sdp/nvdla_sdp_rdma.v): nv_small's shape (16-beat bursts, 8 outstanding,
32-beat stream FIFOs) and a tight one (single-beat bursts, 2 outstanding, FIFOs of 4), where the credit
reservation and the round robin are exercised on every burst."""

from __future__ import annotations

from tb.benches import Bench

BENCHES = (
    Bench("sdp_rdma", "nvdla_sdp_rdma", "tb.tests.test_sdp_rdma", (
        {"MAX_BURST": 16, "MAX_OUTSTANDING": 8, "FIFO_DEPTH": 32},
        {"MAX_BURST": 4, "MAX_OUTSTANDING": 2, "FIFO_DEPTH": 4},
    )),
)
