"""pytest set-up shared by the model and RTL tests: repo root on sys.path, --seed, SIM and WAVES."""

from __future__ import annotations

import os
import sys
from pathlib import Path

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


def pytest_configure(config: pytest.Config) -> None:
    # tests/rtl/test_benches.py runs one simulation per bench and parameter set for all its selected items:
    # under `pytest -n` (xdist's default --dist load) keep each such group on one worker.
    if getattr(config.option, "dist", "no") == "load":
        config.option.dist = "loadgroup"
