"""Benches of the float primitives (rtl/fp/): add, sub, mul, max/min at FP16, FP17 and FP32, and the width
conversions between them, every result bit for bit against models/common/nvfloat.py (tb/tests/test_fp.py)."""

from __future__ import annotations

from tb.benches import Bench

BENCHES = (
    Bench("fp_ops", "nvdla_fp_ops_tb", "tb.tests.test_fp", (
        {"E": 5, "M": 10},    # FP16: PDP max/min
        {"E": 6, "M": 10},    # FP17: PDP average sums and scaling
        {"E": 8, "M": 23},    # FP32: SDP/CDP
    ), tests=("ops_corners", "ops_random", "ops_exhaustive")),
    Bench("fp_cvt", "nvdla_fp_cvt_tb", "tb.tests.test_fp", (
        {"EN": 5, "MN": 10, "EW": 6, "MW": 10, "DENORM": 1},   # fp16 <-> fp17
        {"EN": 5, "MN": 10, "EW": 8, "MW": 23, "DENORM": 1},   # fp16 <-> fp32
        {"EN": 6, "MN": 10, "EW": 8, "MW": 23, "DENORM": 0},   # fp17 <-> fp32
    ), tests=("cvt_sweep", "cvt_random")),
)
