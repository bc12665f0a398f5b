"""The SDP datapath core (rtl/sdp/): BS, BN, EW with the SDP LUT, output convertor."""

from __future__ import annotations

from tb.benches import Bench

BENCHES = (
    Bench("sdp_core", "nvdla_sdp_core", "tb.test_sdp_core", ({"ATOM": 8},)),
)
