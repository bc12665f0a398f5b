"""Every configuration other than the run's own (configs/*.json; the run's is $CONFIG, default nv_small), on
the top built at its parameters. The run's own configuration gets the full regression from the other registry
modules; each other one gets, in every run (`make`, `make test`):
- <name>_sdp, <name>_pdp, <name>_cdp: one short batch of random_layers of that unit (LAYERS layers, one per
  register group: every layer scored against the model, no coverage goal required) on the top with the
  simulation memory, the unit's random layer generator following the configuration's atom;
  <name>_sdp also runs missing_blocks_are_bypassed where the configuration's SDP lacks EW or the LUT;
- <name>_rubik and <name>_deconv where it has Rubik: random Rubik layers, random deconvolutions;
- <name>_conv: the convolution buffer's data banks filled exactly
  (tb/tests/test_top_conv.py cbuf_data_banks_full);
- <name>_traces: its NVIDIA traces (traces/<name>/, .cfg or .txn), or where it has none those of the
  configurations with its atom and CSB map (models/trace.py kindred_configurations), when there are some.
These share one Verilator build per parameter set (configurations_top_mem/<tag>: nv_large and
nv_medium_1024_full build the same top). Under --nightly the unit benches run their
long batch (what top_<unit>_mem runs for the run's configuration), and the nightly adds the rest of the
configuration's regression (nightly_only): every other bench built at the run's configuration, rebuilt at
this one (<name>_top_sdp, <name>_top_pdp, <name>_top_cdp on one shared build of the top with the AxiRam,
configurations_top/<tag>; <name>_top_mem; <name>_top_secmem)."""

from __future__ import annotations

import dataclasses

from models import configs
from models.trace import default_trace_folders
from tb.benches import Bench
from tb.registry import top_cdp, top_mem, top_pdp, top_sdp, top_secmem
from tb.registry.top import TIMING_ARGS, TOP, TOP_MEM, TOP_PARAMS

LAYERS = 2   # a short batch: one layer in each register group, seconds of simulation per unit
RUBIK_LAYERS = 6   # Rubik's short batch: each mode twice
UNITS = {"sdp": "tb.tests.test_top_sdp", "pdp": "tb.tests.test_top_pdp", "cdp": "tb.tests.test_top_cdp"}
# The shared builds, keyed by parameter tag under these names: configurations with the same top parameters
# build it once.
BUILD_TOP, BUILD_TOP_MEM = "configurations_top", "configurations_top_mem"


def _at_run_configuration(bench: Bench) -> bool:
    """A bench built at the run's configuration (the top at TOP_PARAMS) that the per-unit benches and the
    trace bench do not already stand for (top_<unit>_mem's random_layers, top_traces)."""
    layers_on_mem = bench.toplevel == TOP_MEM and bench.tests == ("random_layers",)
    return (not bench.config and bench.param_sets == (TOP_PARAMS,) and not layers_on_mem
            and bench.module != "tb.tests.test_trace_rtl")


def _nightly(name: str, params: dict[str, int]) -> list[Bench]:
    """The rest of the configuration's regression, nightly only (benches on one toplevel share a build)."""
    out: list[Bench] = []
    for bench in (*top_sdp.BENCHES, *top_pdp.BENCHES, *top_cdp.BENCHES, *top_mem.BENCHES):
        if _at_run_configuration(bench):
            build = BUILD_TOP if bench.toplevel == TOP else BUILD_TOP_MEM
            out.append(dataclasses.replace(bench, name=f"{name}_{bench.name}", param_sets=(params,),
                                           config=name, nightly_only=True, build=build))
    for bench in top_secmem.BENCHES:
        out.append(dataclasses.replace(bench, name=f"{name}_{bench.name}", config=name, nightly_only=True,
                                       param_sets=top_secmem.secmem_params(params)))
    return out


def _benches() -> tuple[Bench, ...]:
    out: list[Bench] = []
    own = configs.load().name
    for name in configs.names():
        if name == own:
            continue
        params = configs.load(name).verilog_parameters()
        on_mem = {"toplevel": TOP_MEM, "param_sets": (params,), "build_args": TIMING_ARGS, "config": name,
                  "build": BUILD_TOP_MEM}
        if default_trace_folders(name):   # its own, or its kin's (models/trace.py trace_roots)
            out.append(Bench(f"{name}_traces", module="tb.tests.test_trace_rtl", **on_mem))  # type: ignore[arg-type]
        sdp = configs.load(name).sdp
        for unit, module in UNITS.items():
            # where the SDP lacks EW or the LUT: they are bypassed whatever is programmed
            extra = ("missing_blocks_are_bypassed",) if unit == "sdp" and not (sdp.ew and sdp.lut) else ()
            out.append(Bench(f"{name}_{unit}", module=module, tests=("random_layers", *extra), layers=LAYERS,
                             **on_mem))  # type: ignore[arg-type]
        # the convolution buffer filled to its data banks' last entry at this configuration's CBUF and atoms
        out.append(Bench(f"{name}_conv", module="tb.tests.test_top_conv", tests=("cbuf_data_banks_full",),
                         **on_mem))  # type: ignore[arg-type]
        if configs.load(name).rubik:   # random Rubik layers, model against RTL (every mode twice)
            out.append(Bench(f"{name}_rubik", module="tb.tests.test_top_rubik", tests=("random_layers",),
                             layers=RUBIK_LAYERS, **on_mem))  # type: ignore[arg-type]
            # random deconvolutions (convolution layers, then a contract), model and transposed convolution
            out.append(Bench(f"{name}_deconv", module="tb.tests.test_top_deconv",
                             tests=("random_deconvolutions",), **on_mem))  # type: ignore[arg-type]
        out += _nightly(name, params)
    return tuple(out)


BENCHES = _benches()
