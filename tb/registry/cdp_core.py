"""The CDP datapath core (rtl/cdp/): input convertor, square sum, CDP LUT, multiply, output convertor; at
nv_small's atom and at the run's configuration's ($CONFIG) when that differs."""

from __future__ import annotations

from models import configs
from tb.benches import Bench

_ATOMS = sorted({8, configs.load().atom_bytes})

BENCHES = (
    Bench("cdp_core", "nvdla_cdp_core", "tb.test_cdp_core", tuple({"ATOM": a, "CHUNK": 8} for a in _ATOMS)),
)
