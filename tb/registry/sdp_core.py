"""The SDP datapath core (rtl/sdp/): BS, BN, EW with the SDP LUT, output convertor; at nv_small's atom and
at the run's configuration's ($CONFIG) when that differs, and with INT16 = 1 (16-bit lanes; INT16 cases)."""

from __future__ import annotations

from models import configs
from tb.benches import Bench

_ATOMS = sorted({8, configs.load().atom_bytes})

BENCHES = (
    Bench("sdp_core", "nvdla_sdp_core", "tb.tests.test_sdp_core",
          (*({"ATOM": a} for a in _ATOMS), {"ATOM": 8, "INT16": 1})),
)
