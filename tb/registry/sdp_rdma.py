"""Bench of the SDP read DMA (rtl/sdp/nvdla_sdp_rdma.v): nv_small's shape (16-beat bursts, 8 outstanding,
32-beat stream FIFOs) and a tight one (single-beat bursts, 2 outstanding, FIFOs of 4), where the credit
reservation and the round robin are exercised on every burst."""

from __future__ import annotations

from tb.benches import COMMON, Bench

SDP_RDMA = COMMON + (
    "rtl/dma/nvdla_cube_walker.v", "rtl/dma/nvdla_dma_burst_split.v", "rtl/dma/nvdla_axi_rd.v",
    "rtl/common/nvdla_fifo.v", "rtl/sdp/nvdla_sdp_rdma_arb.v", "rtl/sdp/nvdla_sdp_opnd.v",
    "rtl/sdp/nvdla_sdp_rdma.v",
)

BENCHES = (
    Bench("sdp_rdma", "nvdla_sdp_rdma", SDP_RDMA, "tb.test_sdp_rdma", (
        {"MAX_BURST": 16, "MAX_OUTSTANDING": 8, "FIFO_DEPTH": 32},
        {"MAX_BURST": 4, "MAX_OUTSTANDING": 2, "FIFO_DEPTH": 4},
    )),
)
