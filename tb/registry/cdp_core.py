"""The CDP datapath core (rtl/cdp/): input convertor, square sum, CDP LUT, multiply, output convertor; at
nv_small's atom and at the run's configuration's ($CONFIG) when that differs, with that configuration's LUT
index (LUT_PAIRED: nvdlav1's paired INT8 channels) and INT16 / FP16 where it has them; and always an INT16 and
FP16 build at nv_small's atom with the paired LUT index (INT16 and FP16 override both of the INT8 index
kinds; the only configuration with INT16, nv_full, has FP16 too)."""

from __future__ import annotations

from models import configs
from tb.benches import Bench

_CFG = configs.load()
_PAIRED = int(_CFG.cdp_int8_lut == "paired")
_INT16 = int("INT16" in _CFG.precisions)
_FP16 = int("FP16" in _CFG.precisions)
_SETS = sorted({(8, 0, 0, 0), (8, 1, 1, 1), (_CFG.atom_bytes, _PAIRED, _INT16, _FP16)})

BENCHES = (
    Bench("cdp_core", "nvdla_cdp_core", "tb.tests.test_cdp_core",
          tuple({"ATOM": a, "CHUNK": 8, **({"LUT_PAIRED": 1} if p else {}), **({"INT16": 1} if i else {}),
                 **({"FP16": 1} if f else {})}
                for a, p, i, f in _SETS)),
)
