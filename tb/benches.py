"""The registry of cocotb benches: the one list that `make`, `make test` (pytest) and `make nightly` read.

Benches are declared in one place, the modules of tb/registry/ (one per block family, each defining
`BENCHES`); tests/rtl/test_benches.py and scripts/regress.py pick them up. A bench names its toplevel (an
rtl/ module, or a tb/hdl/ wrapper) and its Verilog sources follow from the RTL dependency graph
(tb/rtl_deps.py), with the headers they include. Each parameter set gets its own build directory, so
pytest -n can build them in parallel.
"""

from __future__ import annotations

import importlib
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
    # The build this bench runs on, a directory name under sim_build/<sim>/ ("": its own, the bench's name),
    # one build per parameter set under it. Benches naming the same build share the Verilator build of each
    # parameter set they have in common: the same toplevel and build arguments (checked below); each keeps
    # its own run directories inside it.
    build: str = ""
    # random_layers' batch outside the nightly (0: the test's own default, which also requires the test's
    # coverage goals); a short batch checks every layer it runs but requires no coverage goal
    layers: int = 0

    @property
    def build_name(self) -> str:
        return self.build or self.name

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


def _check_shared_builds(benches: tuple[Bench, ...]) -> None:
    """Benches sharing a build directory (same build name and parameter tag) must build the same thing, or
    one would run on the other's design."""
    owner: dict[tuple[str, str], tuple[Bench, tuple[str, tuple[str, ...], dict[str, int]]]] = {}
    for bench in benches:
        for params in bench.param_sets:
            design = (bench.toplevel, bench.build_args, params)
            first, built = owner.setdefault((bench.build_name, bench.tag(params)), (bench, design))
            if built != design:
                raise ValueError(f"benches {first.name} and {bench.name} share the build "
                                 f"{bench.build_name}/{bench.tag(params)} but differ in toplevel or build "
                                 "arguments")


BENCHES: tuple[Bench, ...] = _registered()
_check_shared_builds(BENCHES)


def find(name: str) -> Bench:
    for bench in BENCHES:
        if bench.name == name:
            return bench
    raise KeyError(f"no bench named {name!r}; known: {', '.join(b.name for b in BENCHES)}")
