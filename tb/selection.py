"""Which simulations a regression runs: the bench x parameter set x cocotb test list, narrowed by test name
and parameter tag (debugging one failure) and split into shards (the nightly, across parallel CI jobs).

No cocotb import: test names come from tb/runner.py test_names, which reads the bench module's source.
"""

from __future__ import annotations

import re
import statistics
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tb.benches import Bench
from tb.runner import test_names as _parse_names


@cache
def test_names(module: str) -> tuple[str, ...]:
    return tuple(_parse_names(module))  # parsed once: plan() asks for each bench many times


@dataclass(frozen=True)
class Run:
    """One simulation: a bench with one parameter set and the tests to run (None: all of them)."""
    bench: Bench
    params: dict[str, int]
    tests: tuple[str, ...] | None


def parse_shard(text: str) -> tuple[int, int]:
    """'K/N' (1 <= K <= N) as (K, N)."""
    match = re.fullmatch(r"(\d+)/(\d+)", text.strip())
    if not match or not 1 <= int(match[1]) <= int(match[2]):
        raise ValueError(f"--shard wants K/N with 1 <= K <= N, got {text!r}")
    return int(match[1]), int(match[2])


def rough_cost(bench: Bench) -> int:
    """Relative cost of one test of a bench: its number of source files, as design size decides both the
    build time and the simulation speed (a top-level test outweighs a convertor test by ~10x). Rough, but
    it needs no earlier run; the shards only need to come out of similar length."""
    return len(bench.sources)


Costs = dict[tuple[str, str, str], float]


def read_costs(path: Path) -> Costs:
    """Wall seconds per (bench, params tag, test) from a JUnit file scripts/regress.py wrote (or the merged
    nightly report): the last night's times balance tonight's shards better than rough_cost."""
    costs: Costs = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        bench, _, tag = case.get("classname", "").partition(".")
        costs[(bench, tag, case.get("name", ""))] = float(case.get("time", "0") or 0)
    return costs


def plan(benches: list[Bench], *, tests: list[str] | None = None, params: str | None = None,
         shard: tuple[int, int] | None = None, costs: Costs | None = None) -> list[Run]:
    """The simulations to run, in registry order. `tests` keeps only those cocotb test names, `params` only
    the parameter set with that tag; `shard` (K, N) keeps the K-th of N parts of the bench x params x test
    list, split greedily (heaviest first to the lightest shard) by the measured `costs` where known, else by
    rough_cost scaled to them; the same list, costs and N always give the same parts, on any machine."""
    cases: list[tuple[Bench, dict[str, int], str]] = []
    for bench in benches:
        names = bench.tests or test_names(bench.module)
        for p in bench.param_sets:
            if params is None or bench.tag(p) == params:
                cases += [(bench, p, t) for t in names if tests is None or t in tests]
    known_tests = sorted({t for b in benches for t in (b.tests or test_names(b.module))})
    known_tags = sorted({b.tag(p) for b in benches for p in b.param_sets})
    unknown = [t for t in tests or () if t not in known_tests]
    if unknown or not cases:
        raise ValueError(f"nothing matches {unknown or tests or ''} {params or ''} in benches "
                         f"{[b.name for b in benches]}: their tests are {known_tests}, "
                         f"their parameter tags {known_tags}")
    if shard is not None:
        k, n = shard
        keys = [(b.name, b.tag(p), t) for b, p, t in cases]
        known = [costs[key] / rough_cost(b) for key, (b, _, _) in zip(keys, cases, strict=True)
                 if costs and key in costs]
        per_unit = statistics.median(known) if known else 1.0  # seconds per unit of rough_cost
        cost = [costs[key] if costs and key in costs else rough_cost(b) * per_unit
                for key, (b, _, _) in zip(keys, cases, strict=True)]
        order = sorted(range(len(cases)), key=lambda i: (-cost[i], i))
        loads, owner = [0.0] * n, {}
        for i in order:
            target = min(range(n), key=lambda s: (loads[s], s))
            loads[target] += cost[i]
            owner[i] = target
        cases = [c for i, c in enumerate(cases) if owner[i] == k - 1]
    runs: list[Run] = []
    for bench, p, test in cases:  # the tests of one bench and parameter set share one simulation
        if runs and runs[-1].bench is bench and runs[-1].params is p:
            last = runs.pop()
            runs.append(Run(bench, p, (*(last.tests or ()), test)))
        else:
            runs.append(Run(bench, p, (test,)))
    # all tests of a group selected: run without a filter, as the plain regression always has
    return [Run(r.bench, r.params, None if r.tests == (r.bench.tests or test_names(r.bench.module))
                else r.tests) for r in runs]
