"""Bench of the PDP DMA command sequencer (rtl/pdp/nvdla_pdp_dma_seq.v): its read side and its write side."""

from __future__ import annotations

from tb.benches import Bench

BENCHES = (
    Bench("pdp_dma_seq", "nvdla_pdp_dma_seq", "tb.tests.test_pdp_dma_seq",
          ({"WRITE_SIDE": 0}, {"WRITE_SIDE": 1})),
)
