"""The second memory (the CV SRAM interface, c_axi) on the top with the simulation memories
(tb/tests/test_top_secmem.py): every DMA client of every unit reading and writing each memory; with SEC_MEM=0
everything must land in memory 0 whatever RAM_TYPE says. Built at the configuration's atom and CSB map (the
bench's model and drivers follow $CONFIG), with and without the second memory."""

from __future__ import annotations

from tb.benches import Bench
from tb.registry.top import TIMING_ARGS, TOP_MEM, TOP_PARAMS


def secmem_params(top_params: dict[str, int]) -> tuple[dict[str, int], ...]:
    """The top at a configuration's parameters, with and without the second memory (a small line buffer:
    PDP_MAX_W 64 builds and runs faster; the layers here are small). BDMA needs the second memory (the top
    refuses BDMA=1 with SEC_MEM=0), so the build without it has no BDMA either (nv_full)."""
    return tuple({**top_params, "PDP_MAX_W": 64, "SEC_MEM": sec, **({} if sec else {"BDMA": 0})}
                 for sec in (1, 0))


BENCHES = (
    Bench("top_secmem", TOP_MEM, "tb.tests.test_top_secmem", secmem_params(TOP_PARAMS),
          build_args=TIMING_ARGS),
)
