"""The CDP datapath core (rtl/cdp/): input convertor, square sum, CDP LUT, multiply, output convertor; at
nv_small's atom and at the run's configuration's ($CONFIG) when that differs, with that configuration's LUT
index (LUT_PAIRED: nvdlav1's paired INT8 channels)."""

from __future__ import annotations

from models import configs
from tb.benches import Bench

_CFG = configs.load()
_PAIRED = int(_CFG.cdp_int8_lut == "paired")
_SETS = sorted({(8, 0), (_CFG.atom_bytes, _PAIRED)})

BENCHES = (
    Bench("cdp_core", "nvdla_cdp_core", "tb.test_cdp_core",
          tuple({"ATOM": a, "CHUNK": 8, **({"LUT_PAIRED": 1} if p else {})} for a, p in _SETS)),
)
