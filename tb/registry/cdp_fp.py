"""The FP16 parts of the CDP datapath around its LUT (rtl/cdp/ icvt, sqsum with nvdla_cdp_sqsum_fp, ocvt at
FP16 = 1) in a harness (tb/hdl/nvdla_cdp_fp_tb.v), against models/cdp/fp16.py (tb/tests/test_cdp_fp.py): at
nv_small's atom and at nv_full's 32-byte atom."""

from __future__ import annotations

from tb.benches import Bench

BENCHES = (
    Bench("cdp_fp", "nvdla_cdp_fp_tb", "tb.tests.test_cdp_fp",
          ({"ATOM": 8, "CHUNK": 8}, {"ATOM": 32, "CHUNK": 8})),
)
