"""The second memory (the CV SRAM interface, c_axi) on the top with the simulation memories
(tb/test_top_secmem.py): every DMA client of every unit reading and writing each memory; with SEC_MEM=0
everything must land in memory 0 whatever RAM_TYPE says."""

from __future__ import annotations

from tb.benches import Bench
from tb.registry.top import TIMING_ARGS, TOP_MEM

BENCHES = (
    Bench("top_secmem", TOP_MEM, "tb.test_top_secmem",
          ({"PDP_MAX_W": 64, "SEC_MEM": 1}, {"PDP_MAX_W": 64, "SEC_MEM": 0}), build_args=TIMING_ARGS),
)
