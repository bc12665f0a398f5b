"""The SDP datapath core (rtl/sdp/): BS, BN, EW with the SDP LUT, output convertor."""

from __future__ import annotations

from tb.benches import COMMON, Bench

SDP_CORE = COMMON + (
    "rtl/prec/nvdla_round_sat.v",
    "rtl/lut/nvdla_lut_index.v", "rtl/lut/nvdla_lut_ram.v", "rtl/lut/nvdla_lut_interp.v",
    "rtl/lut/nvdla_lut.v",
    "rtl/sdp/nvdla_sdp_x.v", "rtl/sdp/nvdla_sdp_ewcvt.v", "rtl/sdp/nvdla_sdp_y.v", "rtl/sdp/nvdla_sdp_ocvt.v",
    "rtl/sdp/nvdla_sdp_core.v",
)

BENCHES = (
    Bench("sdp_core", "nvdla_sdp_core", SDP_CORE, "tb.test_sdp_core", ({"ATOM": 8},)),
)
