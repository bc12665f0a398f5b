"""Bench of the stream BFMs themselves (tb/bfm/stream.py) on the skid buffer (rtl/common/nvdla_skid.v)."""

from __future__ import annotations

from tb.benches import Bench

BENCHES = (
    Bench("bfm", "nvdla_skid", "tb.tests.test_bfm", ({"WIDTH": 16},)),
)
