"""Bench of PDP's FP16 horizontal fold (the H pipeline of rtl/pdp/nvdla_pdp_fp16.v, valid/ready) in a harness
(tb/hdl/nvdla_pdp_fp16_tb.v) against models/pdp/fp16.py, bit for bit, under random stalls on both sides
(tb/tests/test_pdp_fp16.py): at nv_small's atom and at nv_full's 32-byte atom."""

from __future__ import annotations

from tb.benches import Bench

BENCHES = (
    Bench("pdp_fp16", "nvdla_pdp_fp16_tb", "tb.tests.test_pdp_fp16", ({"ATOM": 8}, {"ATOM": 32})),
)
