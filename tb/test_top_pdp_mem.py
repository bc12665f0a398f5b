"""PDP random legal layers on the top with the simulation memory (tb/hdl/nvdla_pp_top_mem.v): the same layers,
scoring and batch as tb/test_top_pdp.py's random_layers (tb/pdp_top.py), with a seeded random memory latency
and ready/valid stalls on every AXI channel, the design running free while a layer computes. This is where
the long nightly batch runs (NIGHTLY: 200 layers); the AXI protocol itself is checked on the AxiRam bench.
"""

from __future__ import annotations

import cocotb
from cocotb.handle import SimHandleBase

from tb import pdp_top
from tb.common import scaled


@cocotb.test()
async def random_layers(dut: SimHandleBase) -> None:
    await pdp_top.random_layers(dut, scaled(8, 200))
