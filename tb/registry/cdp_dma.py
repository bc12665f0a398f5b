"""Bench of the CDP DMA command sequencer (rtl/cdp/nvdla_cdp_dma_seq.v): the nv_small chunk of 8 pixels and
an odd chunk width, so no test result depends on the chunk being a power of two."""

from __future__ import annotations

from tb.benches import Bench

BENCHES = (
    Bench("cdp_dma_seq", "nvdla_cdp_dma_seq", "tb.tests.test_cdp_dma_seq", ({"CHUNK": 8}, {"CHUNK": 3})),
)
