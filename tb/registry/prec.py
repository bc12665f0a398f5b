"""Benches of the precision path (rtl/prec/): convertor, truncation and left shifter, each in the shapes its
users need and a narrow one."""

from __future__ import annotations

from tb.benches import Bench

BENCHES = (
    Bench("convertor", "nvdla_cvt", "tb.tests.test_precision", (
        # SDP output convertor shape: 32-bit offset, 16-bit scale, 6-bit shift, int8 out
        {"LANES": 1, "IN_W": 32, "OFFSET_W": 32, "SCALE_W": 16, "SHIFT_W": 6, "OUT_W": 8},
        # CDP input convertor shape: int8 in, int8 offset, 16-bit scale, 5-bit shift, a full atom of lanes
        {"LANES": 8, "IN_W": 8, "OFFSET_W": 8, "SCALE_W": 16, "SHIFT_W": 5, "OUT_W": 16},
        # narrow everything: saturation and wrap happen often
        {"LANES": 2, "IN_W": 12, "OFFSET_W": 10, "SCALE_W": 6, "SHIFT_W": 4, "OUT_W": 5},
    )),
    Bench("truncate", "nvdla_trunc", "tb.tests.test_precision", (
        {"LANES": 1, "IN_W": 48, "SHIFT_W": 6, "OUT_W": 32},
        {"LANES": 4, "IN_W": 20, "SHIFT_W": 5, "OUT_W": 8},
    )),
    Bench("shifter", "nvdla_shl", "tb.tests.test_precision", (
        {"LANES": 1, "IN_W": 16, "SHIFT_W": 5, "OUT_W": 32},
        {"LANES": 4, "IN_W": 8, "SHIFT_W": 4, "OUT_W": 12},
    )),
)
