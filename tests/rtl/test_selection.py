"""The regression's test selection and nightly sharding (tb/selection.py) and the JUnit merge of the shards
(scripts/merge_junit.py): no simulator involved."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tb import runner
from tb.benches import BENCHES, find
from tb.selection import Run, parse_shard, plan, read_costs, rough_cost

MERGE = [sys.executable, str(runner.ROOT / "scripts" / "merge_junit.py")]


def cases(runs: list[Run]) -> list[tuple[str, str, str]]:
    return [(r.bench.name, r.bench.tag(r.params), t)
            for r in runs for t in r.tests or runner.bench_tests(r.bench)]


def test_one_test_of_one_bench() -> None:
    bench = find("top_pdp")
    runs = plan([bench], tests=["random_layers"])
    assert [(r.bench.name, r.tests) for r in runs] == [("top_pdp", ("random_layers",))]
    assert plan([bench])[0].tests is None  # every test: one simulation without a filter, as before


def test_params_tag_and_unknown_names() -> None:
    bench = find("convertor")
    tag = bench.tag(bench.param_sets[2])
    assert [r.bench.tag(r.params) for r in plan([bench], params=tag)] == [tag]
    with pytest.raises(ValueError, match="random_layer"):
        plan([bench, find("top_pdp")], tests=["random_layers", "random_layer"])
    with pytest.raises(ValueError, match="NOPE"):
        plan([bench], params="NOPE")


@pytest.mark.parametrize("n", [1, 3, 8])
def test_shards_partition_the_list_and_balance_it(n: int) -> None:
    benches = list(BENCHES)
    everything = cases(plan(benches))
    parts = [cases(plan(benches, shard=(k, n))) for k in range(1, n + 1)]
    assert sorted(c for part in parts for c in part) == sorted(everything)  # disjoint and complete
    assert parts == [cases(plan(benches, shard=(k, n))) for k in range(1, n + 1)]  # deterministic
    loads = [sum(rough_cost(find(b)) for b, _, _ in part) for part in parts]
    heaviest = max(rough_cost(b) for b in benches)
    assert max(loads) - min(loads) <= heaviest, f"unbalanced shards: {loads}"


def test_parse_shard() -> None:
    assert parse_shard("2/8") == (2, 8)
    for bad in ("0/8", "9/8", "2", "a/b"):
        with pytest.raises(ValueError):
            parse_shard(bad)


def junit(path: Path, cases_: list[tuple[str, str, bool]], times: dict[str, float] | None = None) -> Path:
    """A report as scripts/regress.py writes it; `times` (by `classname.name`) sets the test times."""
    times = times or {}
    body = "".join(f'<testcase classname="{c}" name="{n}" time="{times.get(f"{c}.{n}", 0.0)}">'
                   '<property name="seed" value="7"/>'
                   + ("" if ok else '<failure message="bad"/>') + "</testcase>" for c, n, ok in cases_)
    path.write_text(f'<?xml version="1.0"?><testsuite name="cocotb" tests="{len(cases_)}">{body}</testsuite>')
    return path


def test_merge_junit_passes_fails_and_counts_shards(tmp_path: Path) -> None:
    a = junit(tmp_path / "nightly-1.xml", [("dma.MAX_BURST16", "random_copies", True)])
    b = junit(tmp_path / "nightly-2.xml", [("top_pdp.PDP_MAX_W64", "random_layers", True)])
    out = tmp_path / "nightly.xml"
    ok = subprocess.run([*MERGE, "--expect", "2", "-o", str(out), str(a), str(b)], capture_output=True,
                        text=True)
    assert ok.returncode == 0, ok.stdout
    assert "2 tests, 0 failures" in ok.stdout and out.read_text().count("<testcase") == 2
    missing = subprocess.run([*MERGE, "--expect", "3", str(a), str(b)], capture_output=True, text=True)
    assert missing.returncode == 1 and "a shard wrote none" in missing.stdout
    c = junit(tmp_path / "nightly-3.xml", [("top_pdp.PDP_MAX_W64", "reset_mid_layer", False)])
    bad = subprocess.run([*MERGE, str(a), str(b), str(c)], capture_output=True, text=True)
    assert bad.returncode == 1 and "top_pdp.PDP_MAX_W64.reset_mid_layer failed" in bad.stdout
    repro = subprocess.run([*MERGE, "--repro", str(c)], capture_output=True, text=True)
    assert repro.stdout.strip() == ("make BENCH=top_pdp PARAMS=PDP_MAX_W64 TESTCASE=reset_mid_layer SEED=7 "
                                    "NIGHTLY=1 WAVES=1")


def test_measured_costs_balance_the_shards(tmp_path: Path) -> None:
    benches = list(BENCHES)
    everything = cases(plan(benches))
    top_cdp = find("top_cdp")
    heavy = ("top_cdp", top_cdp.tag(top_cdp.param_sets[0]), "random_layers")  # the configuration's tag
    times = {f"{b}.{p}.{t}": 1000.0 if (b, p, t) == heavy else 1.0 for b, p, t in everything}
    report = junit(tmp_path / "nightly.xml", [(f"{b}.{p}", t, True) for b, p, t in everything], times)
    costs = read_costs(report)
    assert costs[heavy] == 1000.0 and len(costs) == len(everything)
    parts = [cases(plan(benches, shard=(k, 2), costs=costs)) for k in (1, 2)]
    assert parts[0] == [heavy]  # the 1000 s test alone; everything else, 1 s each, in the other shard
    assert len(parts[1]) == len(everything) - 1


def test_merge_junit_totals_what_each_unit_checked(tmp_path: Path) -> None:
    a = junit(tmp_path / "nightly-1.xml", [("top_pdp.PDP_MAX_W64", "random_layers", True),
                                           ("lut.CDP", "random_samples", True)])
    b = junit(tmp_path / "nightly-2.xml", [("pdp_dma_seq.WRITE_SIDE0", "random_commands", True)])
    for path, counts in ((a, ("1500 layers", "10000000 samples")), (b, ("7 layers",))):
        text = path.read_text()
        for n in counts:  # one `checked` property per testcase, in order
            text = text.replace('<property name="seed" value="7"/></testcase>',
                                f'<property name="seed" value="7"/><property name="checked" value="{n}"/>'
                                "</testcase>", 1)
        path.write_text(text)
    out = subprocess.run([*MERGE, str(a), str(b)], capture_output=True, text=True).stdout
    assert "checked, pdp: 1,507 layers" in out, out
    assert "checked, lut: 10,000,000 samples (100% of 1e+07)" in out, out
