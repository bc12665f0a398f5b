"""The coverage tooling without a simulator: tb/funcov.py covergroups and scripts/coverage.py's merge of
Verilator coverage.dat records and functional coverage files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scripts.coverage import ROOT, CodeCoverage, merge_functional, span
from tb.funcov import Covergroup


def group() -> Covergroup:
    return Covergroup("g", "UNIT", {"size": ("size 1", "size 2"), "mode": ("on", "off")})


def test_covergroup_counts_only_its_bins() -> None:
    cov = group()
    cov.sample({"size 1": True, "size 2": False, "on": True, "not a bin": True})
    cov.hit("on")
    assert cov.hits == {"size 1": 1, "size 2": 0, "on": 2, "off": 0}
    assert cov.missing() == ["size 2", "off"]
    with pytest.raises(AssertionError, match="size 2"):
        cov.check()


def test_covergroup_rejects_a_bin_in_two_points() -> None:
    with pytest.raises(ValueError, match="in 'a' and 'b'"):
        Covergroup("g", "U", {"a": ("x",), "b": ("x",)})


def test_written_even_when_the_test_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RuntimeError), group().written("t") as cov:
        cov.hit("off")
        raise RuntimeError("the test failed here")
    data = json.loads((tmp_path / "funcov-g-t.json").read_text())
    assert data["unit"] == "UNIT" and data["points"]["mode"] == {"on": 0, "off": 1}


def test_functional_merge_sums_tests(tmp_path: Path) -> None:
    a, b = group(), group()
    a.hit("size 1")
    b.hit("size 1")
    b.hit("on")
    merged = merge_functional([a.write("t1", tmp_path), b.write("t2", tmp_path)])
    assert merged == {"UNIT": {"g.size": {"size 1": 2, "size 2": 0}, "g.mode": {"on": 1, "off": 0}}}


def record(path: str, line: int, kind: str, count: int, extra: str = "") -> str:
    fields = {"f": str(ROOT / path), "l": str(line), "page": f"v_{kind}/m", "h": "top.u", **(
        {"o": extra} if kind == "toggle" else {"S": extra or str(line)})}
    key = "".join(f"\x01{k}\x02{v}" for k, v in fields.items())
    return f"C '{key}' {count}\n"


def test_code_coverage_merges_runs_and_keeps_rtl_only(tmp_path: Path) -> None:
    one, two = tmp_path / "1.dat", tmp_path / "2.dat"
    one.write_text("# SystemC::Coverage-3\n" + record("rtl/x.v", 10, "line", 0, "10-12")
                   + record("rtl/x.v", 20, "branch", 3) + record("rtl/x.v", 5, "toggle", 0, "a[0]:0->1")
                   + record("tb/hdl/w.v", 7, "line", 0))
    two.write_text(record("rtl/x.v", 10, "line", 0, "10-12") + record("rtl/x.v", 5, "toggle", 2, "a[0]:0->1")
                   + record("rtl/x.v", 5, "toggle", 0, "a[0]:1->0"))
    cov = CodeCoverage()
    cov.add(one)
    cov.add(two)
    assert cov.lines == {("rtl/x.v", 10): False, ("rtl/x.v", 11): False, ("rtl/x.v", 12): False,
                         ("rtl/x.v", 20): True}
    assert cov.toggles == {("rtl/x.v", "5", "a[0]:0->1"): True, ("rtl/x.v", "5", "a[0]:1->0"): False}
    cov.write_dat(tmp_path / "merged.dat")
    assert "tb/hdl" not in (tmp_path / "merged.dat").read_text()


def test_span() -> None:
    assert span("32,34-35") == [32, 34, 35] and span("7") == [7]
