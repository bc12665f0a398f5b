"""pytest set-up shared by the model and RTL tests: repo root on sys.path, --seed, SIM and WAVES."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--seed", type=int, default=None, help="seed for the cocotb benches (reproduces a run)")


@pytest.fixture
def seed(request: pytest.FixtureRequest) -> int | None:
    return request.config.getoption("--seed")


@pytest.fixture
def sim() -> str:
    return os.environ.get("SIM", "verilator")


@pytest.fixture
def waves() -> bool:
    return os.environ.get("WAVES", "0") not in ("", "0")




@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Under `pytest -n` (xdist's default --dist load): keep the items of one bench and parameter set on one
    worker, as tests/rtl/test_benches.py runs one simulation for all of them; every other item is scheduled
    alone, as with `load`. (xdist's own --dist loadgroup does not work with pytest 9: it renames items
    through `item._nodeid`, which pytest 9 no longer reads.)"""
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class BenchGroupScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            # test_bench[<bench>-<params tag>-<test>]: the scope is <bench>-<params tag>
            group = re.search(r"::test_bench\[(.+)-\w+\]$", nodeid)
            return f"bench {group[1]}" if group else nodeid

    return BenchGroupScheduling(config, log)
