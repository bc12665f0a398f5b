"""The registry of cocotb benches: the one list that `make`, `make test` (pytest) and `make nightly` read.

Registering a bench here is all it needs: tests/rtl/test_benches.py and scripts/regress.py pick it up.
Each parameter set gets its own build directory, so pytest -n can build them in parallel.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Bench:
    name: str
    toplevel: str
    sources: tuple[str, ...]          # repo-relative Verilog files
    module: str                       # cocotb test module (Python import path)
    param_sets: tuple[dict[str, int], ...] = field(default_factory=lambda: ({},))
    icarus: bool = True               # whether Icarus accepts this design
    nightly_only: bool = False
    build_args: tuple[str, ...] = ()  # extra Verilator build arguments (e.g. --timing for a Verilog clock)
    tests: tuple[str, ...] = ()       # only these cocotb tests of the module (empty: all of them)

    def tag(self, params: dict[str, int]) -> str:
        return "_".join(f"{k}{v}" for k, v in sorted(params.items())) or "default"


COMMON = ("rtl/common/nvdla_skid.v", "rtl/common/nvdla_pipe_ctrl.v", "rtl/common/nvdla_sat_counter.v")
PREC = COMMON + ("rtl/prec/nvdla_round_sat.v",)

DMA = COMMON + ("rtl/dma/nvdla_dma_burst_split.v", "rtl/dma/nvdla_axi_rd.v", "rtl/dma/nvdla_axi_wr.v")

PDP_SEQ = ("rtl/dma/nvdla_cube_walker.v", "rtl/pdp/nvdla_pdp_split.v", "rtl/pdp/nvdla_pdp_dma_seq.v")

_CORE_BENCHES: tuple[Bench, ...] = (
    Bench("pdp_dma_seq", "nvdla_pdp_dma_seq", PDP_SEQ, "tb.test_pdp_dma_seq",
          ({"WRITE_SIDE": 0}, {"WRITE_SIDE": 1})),
    Bench("dma", "nvdla_dma_loopback", DMA + ("tb/hdl/nvdla_dma_loopback.v",), "tb.test_dma", (
        {"MAX_BURST": 16, "MAX_OUTSTANDING": 8},
        {"MAX_BURST": 1, "MAX_OUTSTANDING": 2},     # nv_small's own limit: single-beat requests
    )),
    Bench("convertor", "nvdla_cvt", PREC + ("rtl/prec/nvdla_cvt.v",), "tb.test_precision", (
        # SDP output convertor shape: 32-bit offset, 16-bit scale, 6-bit shift, int8 out
        {"LANES": 1, "IN_W": 32, "OFFSET_W": 32, "SCALE_W": 16, "SHIFT_W": 6, "OUT_W": 8},
        # CDP input convertor shape: int8 in, int8 offset, 16-bit scale, 5-bit shift, a full atom of lanes
        {"LANES": 8, "IN_W": 8, "OFFSET_W": 8, "SCALE_W": 16, "SHIFT_W": 5, "OUT_W": 16},
        # narrow everything: saturation and wrap happen often
        {"LANES": 2, "IN_W": 12, "OFFSET_W": 10, "SCALE_W": 6, "SHIFT_W": 4, "OUT_W": 5},
    )),
    Bench("truncate", "nvdla_trunc", PREC + ("rtl/prec/nvdla_trunc.v",), "tb.test_precision", (
        {"LANES": 1, "IN_W": 48, "SHIFT_W": 6, "OUT_W": 32},
        {"LANES": 4, "IN_W": 20, "SHIFT_W": 5, "OUT_W": 8},
    )),
    Bench("shifter", "nvdla_shl", PREC + ("rtl/prec/nvdla_shl.v",), "tb.test_precision", (
        {"LANES": 1, "IN_W": 16, "SHIFT_W": 5, "OUT_W": 32},
        {"LANES": 4, "IN_W": 8, "SHIFT_W": 4, "OUT_W": 12},
    )),
)




def _registered() -> tuple[Bench, ...]:
    """Benches declared by the modules of tb/registry (one per block family), in name order."""
    import tb.registry as registry

    found: list[Bench] = []
    for info in sorted(pkgutil.iter_modules(registry.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"tb.registry.{info.name}")
        found.extend(module.BENCHES)
    return tuple(found)


BENCHES: tuple[Bench, ...] = _CORE_BENCHES + _registered()


def find(name: str) -> Bench:
    for bench in BENCHES:
        if bench.name == name:
            return bench
    raise KeyError(f"no bench named {name!r}; known: {', '.join(b.name for b in BENCHES)}")
