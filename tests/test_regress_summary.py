"""scripts/regress.py's summary: SKIP rows with their reasons, the checked column, the closing count, and a
run where nothing passed is not a green run."""

from __future__ import annotations

import pytest

from scripts.regress import summary
from tb import runner
from tb.runner import FAIL, PASS, SKIP


def result(test: str, status: str, message: str = "", checked: str = "") -> runner.TestResult:
    return runner.TestResult("top_traces", "PDP_MAX_W64", test, status, "1", 0.0, 0.0, message, checked)


def test_skips_and_counts(capsys: pytest.CaptureFixture[str]) -> None:
    code = summary([result("a", PASS, checked="37 traces"), result("b", SKIP, "no trace under /x")], "t")
    out = capsys.readouterr().out
    assert code == 0
    assert "| SKIP " in out and "| 37 traces " in out
    assert "SKIPPED top_traces[PDP_MAX_W64].b: no trace under /x" in out
    assert out.splitlines()[-1] == "1 passed, 0 failed, 1 skipped"


def test_everything_skipped_is_not_green(capsys: pytest.CaptureFixture[str]) -> None:
    assert summary([result("a", SKIP, "no trace under /x")], "t") == 1
    out = capsys.readouterr().out
    assert "nothing passed: every test skipped" in out
    assert out.splitlines()[-1] == "0 passed, 0 failed, 1 skipped"


def test_a_failure_fails(capsys: pytest.CaptureFixture[str]) -> None:
    assert summary([result("a", PASS), result("b", FAIL, "wrong byte")], "t") == 1
    assert capsys.readouterr().out.splitlines()[-1] == "1 passed, 1 failed, 0 skipped"
