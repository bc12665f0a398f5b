"""A bad trace fails alone: `make traces` (scripts/replay_traces.py over models/replay.py) replays every
other trace of the batch and reports each one's own result (trace_batch: tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from scripts.replay_traces import main


@pytest.mark.parametrize("kind", ["rejected", "unparseable"])
def test_one_bad_trace_fails_alone(kind: str, trace_batch: Callable[[str], tuple[Path, str, tuple[str, ...]]],
                                   capsys: pytest.CaptureFixture[str]) -> None:
    root, bad, good = trace_batch(kind)
    assert main([str(root)]) == 1
    out = capsys.readouterr().out
    status = {line.split()[0]: line.split()[1] for line in out.splitlines()[:-1] if line.strip()}
    assert status == {bad: "FAIL", **{name: "PASS" for name in good}}, out
    assert out.splitlines()[-1].startswith(f"{len(good)} passed, 1 failed"), out
