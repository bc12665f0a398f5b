"""Benches of the register blocks generated from regmap/ (rtl/gen/) with the CSB slave, the register group
control (rtl/regs/) and the GLB interrupt block (rtl/glb/). Two generated wrappers share the units, so that
each Verilator build stays one compilation unit: tb/hdl/nvdla_regs_top.v (GLB, PDP_RDMA, PDP, CDP) and
tb/hdl/nvdla_regs_sdp_top.v (GLB, SDP_RDMA, SDP, CDP_RDMA)."""

from __future__ import annotations

from tb.benches import Bench

UNITS = ("glb", "sdp_rdma", "sdp", "pdp_rdma", "pdp", "cdp_rdma", "cdp")
GEN = tuple(f"rtl/gen/nvdla_{u}_regs.v" for u in UNITS)
REGS = ("rtl/csb/nvdla_csb_slave.v", "rtl/regs/nvdla_reg_groups.v", *GEN, "rtl/glb/nvdla_glb.v")

BENCHES = (
    Bench("regs", "nvdla_regs_top", REGS + ("tb/hdl/nvdla_regs_top.v",), "tb.test_regs"),
    Bench("regs_sdp", "nvdla_regs_sdp_top", REGS + ("tb/hdl/nvdla_regs_sdp_top.v",), "tb.test_regs"),
)
