"""Every cocotb bench of tb/benches.py, one pytest item per bench and parameter set.

Each item builds in its own directory (sim_build/<sim>/<bench>/<params>), so `pytest -n auto` is safe.
"""

from __future__ import annotations

import os

import pytest

from tb.benches import BENCHES
from tb.runner import run_bench

CASES = [pytest.param(b, p, id=f"{b.name}-{b.tag(p)}") for b in BENCHES if not b.nightly_only
         for p in b.param_sets]


@pytest.mark.parametrize(("bench", "params"), CASES)
def test_bench(bench, params, sim: str, waves: bool, seed: int | None) -> None:
    if sim == "icarus" and not bench.icarus:
        pytest.skip(f"{bench.name}: Icarus does not accept this design")
    results = run_bench(bench, params, sim=sim, waves=waves, seed=seed,
                        nightly=os.environ.get("NIGHTLY", "0") == "1")
    assert results, "the bench ran no test"
    failed = [r for r in results if r.failed]
    assert not failed, "\n".join(f"{r.test} (seed {r.seed}): {r.message}" for r in failed)
    if all(r.skipped for r in results):
        pytest.skip("; ".join(f"{r.test}: {r.message}" for r in results))
