"""The registry of cocotb benches: the one list that `make`, `make test` (pytest) and `make nightly` read.

Benches are declared in one place, the modules of tb/registry/ (one per block family, each defining
`BENCHES`); tests/rtl/test_benches.py and scripts/regress.py pick them up. A bench names its toplevel (an
rtl/ module, or a tb/hdl/ wrapper) and its Verilog sources follow from the RTL dependency graph
(tb/rtl_deps.py), with the headers they include. A build is keyed by what is built (Bench.design: the
toplevel, its Verilator arguments and the parameter values), not by the bench: every bench and configuration
that builds the same design runs on one build directory (tb/runner.py), and different designs get different
directories, so pytest -n can build them in parallel.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import pkgutil
from dataclasses import dataclass, field

from tb import rtl_deps


@dataclass(frozen=True)
class Bench:
    name: str
    toplevel: str                     # an rtl/ or tb/hdl/ module: the sources follow from it
    module: str                       # cocotb test module (Python import path)
    param_sets: tuple[dict[str, int], ...] = field(default_factory=lambda: ({},))
    icarus: bool = True               # whether Icarus accepts this design
    nightly_only: bool = False
    build_args: tuple[str, ...] = ()  # extra Verilator build arguments (e.g. --timing for a Verilog clock)
    tests: tuple[str, ...] = ()       # only these cocotb tests of the module (empty: all of them)
    config: str = ""                  # the configuration the simulation runs ($CONFIG for it; "": the run's)
    # random_layers' batch outside the nightly (0: the test's own default, which also requires the test's
    # coverage goals); a short batch checks every layer it runs but requires no coverage goal
    layers: int = 0

    @property
    def sources(self) -> tuple[str, ...]:
        """Repo-relative Verilog files: the toplevel and every module it instantiates, transitively."""
        return rtl_deps.sources_of(self.toplevel)[0]

    @property
    def headers(self) -> tuple[str, ...]:
        """Repo-relative headers the sources `include (a change to one rebuilds the bench)."""
        return rtl_deps.sources_of(self.toplevel)[1]

    def tag(self, params: dict[str, int]) -> str:
        """The name of a parameter set in paths, tables and wave files: the configuration's name when the set
        is a configuration's top-level parameters, that name and what differs for a variant of one
        (nv_full+BDMA0_PDP_MAX_W64_SEC_MEM0), else the parameters spelled out (a unit's bench:
        ATOM8_CHUNK8)."""
        return configuration_tag(params, self.config) or (
            "_".join(f"{k}{v}" for k, v in sorted(params.items())) or "default")

    def design(self, params: dict[str, int]) -> str:
        """The build this bench runs on with `params`: <toplevel>/<name>-<key>, a path under sim_build/<sim>/.
        The key is a hash of what decides the Verilated model (toplevel, build arguments, parameter values),
        so benches and configurations building the same design share one build (the sources follow from the
        toplevel, and a changed source rebuilds it incrementally); <name> is for people only: the parameter
        set spelled as a configuration's name where it is one (Bench.tag without the bench's preference)."""
        what = json.dumps([self.toplevel, list(self.build_args), sorted(params.items())])
        key = hashlib.sha256(what.encode()).hexdigest()[:10]
        name = configuration_tag(params) or "_".join(f"{k}{v}" for k, v in sorted(params.items()))
        return f"{self.toplevel}/{name or 'default'}-{key}"


def configuration_tag(params: dict[str, int], prefer: str = "") -> str:
    """'' unless `params` are a configuration's top-level parameters (Configuration.verilog_parameters) or
    the same parameters with other values: then the configuration differing in the fewest (`prefer` first,
    then the run's ($CONFIG), the default one, then by name; configurations with the same parameters build
    the same top, so either name is right), followed by '+' and the values that differ."""
    from models import configs

    run = configs.load()
    known = {n: configs.load(n) for n in configs.names()} | {run.name: run}
    names = list(dict.fromkeys(n for n in (prefer, run.name, configs.DEFAULT, *sorted(known)) if n))
    best, diff = "", [""] * (len(params) + 1)
    for name in names:
        theirs = (known[name] if name in known else configs.load(name)).verilog_parameters()
        if theirs.keys() != params.keys():
            continue
        differs = [f"{k}{v}" for k, v in sorted(params.items()) if theirs[k] != v]
        if len(differs) < len(diff):
            best, diff = name, differs
    return "" if not best else best + ("+" + "_".join(diff) if diff else "")


def _registered() -> tuple[Bench, ...]:
    """Benches declared by the modules of tb/registry (one per block family), in name order."""
    import tb.registry as registry

    found: list[Bench] = []
    for info in sorted(pkgutil.iter_modules(registry.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"tb.registry.{info.name}")
        found.extend(module.BENCHES)
    return tuple(found)


BENCHES: tuple[Bench, ...] = _registered()


def find(name: str) -> Bench:
    for bench in BENCHES:
        if bench.name == name:
            return bench
    raise KeyError(f"no bench named {name!r}; known: {', '.join(b.name for b in BENCHES)}")
