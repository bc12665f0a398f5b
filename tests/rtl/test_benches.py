"""Every cocotb bench of tb/benches.py, one pytest item per bench, parameter set and cocotb test.

`pytest -k "top_pdp and random_layers"` therefore selects exactly one cocotb test. Starting a simulation costs
about a second and a half per run (the build check and the simulator's start-up), so the items of one bench
and parameter set share one simulation: the first of them to run simulates every test of its group that the
session selected (all of them by default, just one under a narrow -k), the others read their result from it.
Under `pytest -n`, tests/conftest.py schedules each group as one unit, so a group stays on one worker;
tb/runner.py also locks each build directory, so two workers never build or run the same one at once
whatever the distribution.
"""

from __future__ import annotations

import os
from collections import defaultdict

import pytest

from tb import runner  # not `from ... import test_names`: pytest would collect it as a test
from tb.benches import BENCHES, Bench

CASES = [pytest.param(b, p, t, id=f"{b.name}-{b.tag(p)}-{t}")
         for b in BENCHES if not b.nightly_only for p in b.param_sets for t in runner.bench_tests(b)]

# (bench, params tag) -> the results of its one simulation in this process, or why it could not run
_RUNS: dict[tuple[str, str], list[runner.TestResult] | Exception] = {}


def _selected(session: pytest.Session) -> dict[tuple[str, str], list[str]]:
    """The cocotb tests of each bench and parameter set that this session selected (after -k and -m)."""
    groups: dict[tuple[str, str], list[str]] = defaultdict(list)
    for item in session.items:
        spec = getattr(item, "callspec", None)
        if getattr(item, "originalname", "") == "test_bench" and spec is not None:
            bench, params = spec.params["bench"], spec.params["params"]
            groups[(bench.name, bench.tag(params))].append(spec.params["test"])
    return groups


@pytest.mark.parametrize(("bench", "params", "test"), CASES)
def test_bench(bench: Bench, params: dict[str, int], test: str, sim: str, waves: bool, seed: int | None,
               request: pytest.FixtureRequest) -> None:
    if sim == "icarus" and not bench.icarus:
        pytest.skip(f"{bench.name}: Icarus does not accept this design")
    key = (bench.name, bench.tag(params))
    if key not in _RUNS:
        wanted = _selected(request.session)[key]
        everything = sorted(wanted) == sorted(runner.bench_tests(bench))
        try:
            _RUNS[key] = runner.run_bench(bench, params, sim=sim, waves=waves, seed=seed,
                                          testcase=None if everything else wanted,
                                          nightly=os.environ.get("NIGHTLY", "0") == "1")
        except Exception as err:  # e.g. a build error: every item of the group reports it, none rebuilds
            _RUNS[key] = err
    results = _RUNS[key]
    if isinstance(results, Exception):
        raise results
    mine = [r for r in results if r.test == test]
    if not mine:  # the simulation died before reporting this test: show what the run did report
        pytest.fail(f"{test} has no result; the run reported: "
                    + ("; ".join(f"{r.test}: {r.message}" for r in results) or "nothing"))
    failed = [r for r in mine if r.failed]
    assert not failed, "\n".join(f"{r.test} (seed {r.seed}): {r.message}" for r in failed)
    if all(r.skipped for r in mine):
        pytest.skip("; ".join(f"{r.test}: {r.message}" for r in mine))
