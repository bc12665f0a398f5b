"""Benches of the register blocks generated from regmap/ (rtl/gen/) with the CSB slave, the register group
control (rtl/regs/) and the GLB interrupt block (rtl/glb/). Two generated wrappers share the units, so that
each Verilator build stays one compilation unit: tb/hdl/nvdla_regs_top.v (GLB, PDP_RDMA, PDP, CDP) and
tb/hdl/nvdla_regs_sdp_top.v (GLB, SDP_RDMA, SDP, CDP_RDMA)."""

from __future__ import annotations

from tb.benches import Bench

BENCHES = (
    Bench("regs", "nvdla_regs_top", "tb.tests.test_regs"),
    Bench("regs_sdp", "nvdla_regs_sdp_top", "tb.tests.test_regs"),
)
