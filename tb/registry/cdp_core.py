"""The CDP datapath core (rtl/cdp/): input convertor, square sum, CDP LUT, multiply, output convertor."""

from __future__ import annotations

from tb.benches import Bench

BENCHES = (
    Bench("cdp_core", "nvdla_cdp_core", "tb.test_cdp_core", ({"ATOM": 8, "CHUNK": 8},)),
)
