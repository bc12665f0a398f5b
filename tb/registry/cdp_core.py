"""The CDP datapath core (rtl/cdp/): input convertor, square sum, CDP LUT, multiply, output convertor."""

from __future__ import annotations

from tb.benches import COMMON, Bench

CDP_CORE = COMMON + (
    "rtl/prec/nvdla_round_sat.v", "rtl/prec/nvdla_cvt.v",
    "rtl/lut/nvdla_lut_index.v", "rtl/lut/nvdla_lut_ram.v", "rtl/lut/nvdla_lut_interp.v",
    "rtl/lut/nvdla_lut.v",
    "rtl/cdp/nvdla_cdp_walk.v", "rtl/cdp/nvdla_cdp_sqsum.v", "rtl/common/nvdla_fifo.v",
    "rtl/cdp/nvdla_cdp_ocvt.v", "rtl/cdp/nvdla_cdp_core.v",
)

BENCHES = (
    Bench("cdp_core", "nvdla_cdp_core", CDP_CORE, "tb.test_cdp_core", ({"ATOM": 8, "CHUNK": 8},)),
)
