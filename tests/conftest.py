"""pytest set-up shared by the model and RTL tests: --seed, SIM and WAVES."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--seed", type=int, default=None, help="seed for the cocotb benches (reproduces a run)")


@pytest.fixture(autouse=True)
def pinned_configuration(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A test marked `configuration(name)` runs at that configuration ($CONFIG, which models.configs.load()
    and the drivers read when called) whatever `make test CONFIG=...` the run is at: its expected sizes
    (atoms, line buffer columns, strides) are that configuration's."""
    marker = request.node.get_closest_marker("configuration")
    if marker is not None:
        monkeypatch.setenv("CONFIG", str(marker.args[0]))


@pytest.fixture
def seed(request: pytest.FixtureRequest) -> int | None:
    return request.config.getoption("--seed")


@pytest.fixture
def sim() -> str:
    return os.environ.get("SIM", "verilator")


@pytest.fixture
def waves() -> bool:
    return os.environ.get("WAVES", "0") not in ("", "0")


# Small real traces of the default configuration, one per unit (seconds on the RTL).
GOOD_TRACES = ("cdp_1x1x1_lrn3_int8_0", "pdp_1x1x1_3x3_ave_int8_0", "sdp_1x1x8_pass_through_int8_0")
# Ways a trace can be bad; each must fail alone, the traces around it must still pass.
BAD_TRACES = {
    # a register value the model rejects (ConfigError: CUBE_OUT_WIDTH does not match the kernel arithmetic)
    "rejected": ("pdp_1x1x1_3x3_ave_int8_0", "reg_write(NVDLA_PDP.D_DATA_CUBE_OUT_WIDTH_0, 0x0);",
                 "reg_write(NVDLA_PDP.D_DATA_CUBE_OUT_WIDTH_0, 0x5);"),
    # a line that is no command
    "unparseable": ("sdp_1x1x8_pass_through_int8_0", "mem_init(", "this is not a command;\nmem_init("),
}


@pytest.fixture
def trace_batch(tmp_path: Path,
                monkeypatch: pytest.MonkeyPatch) -> Callable[[str], tuple[Path, str, tuple[str, ...]]]:
    """make(kind) -> (a folder with copies of GOOD_TRACES and one bad trace of that kind (BAD_TRACES),
    the bad trace's name, the good traces' names)."""
    from models import configs
    from models.trace import default_trace_folders

    # the default configuration's traces (GOOD_TRACES are nv_small's), replayed at it, whatever $CONFIG the
    # run is at (the copies' folder is not named after a configuration)
    monkeypatch.setenv("CONFIG", configs.DEFAULT)
    real = {f.name: f for f in default_trace_folders(configs.DEFAULT)}

    def make(kind: str) -> tuple[Path, str, tuple[str, ...]]:
        root = tmp_path / kind
        for name in GOOD_TRACES:
            shutil.copytree(real[name], root / name)
        source, old, new = BAD_TRACES[kind]
        bad = f"bad_{kind}"  # sorts first: every good trace of the batch runs after it
        shutil.copytree(real[source], root / bad)
        cfg = root / bad / f"{source}.cfg"
        text = cfg.read_text()
        assert old in text, f"{source}.cfg has no {old!r}"
        (root / bad / f"{bad}.cfg").write_text(text.replace(old, new, 1))
        cfg.unlink()
        return root, bad, GOOD_TRACES

    return make


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Under `pytest -n` (xdist's default --dist load): keep the items of one bench and parameter set on one
    worker, as tests/rtl/test_benches.py runs one simulation for all of them; every other item is scheduled
    alone, as with `load`. Benches sharing a build (Bench.design) may run on two workers at once: tb/runner.py
    locks the build directory while it builds, so the second only finds it built. (xdist's own --dist
    loadgroup does not work with pytest 9: it renames items through `item._nodeid`, which pytest 9 no longer
    reads.)"""
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class BenchGroupScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            # test_bench[<bench>-<params tag>-<test>]: the scope is <bench>-<params tag>
            group = re.search(r"::test_bench\[(\w+-[\w+]+)-\w+\]$", nodeid)
            return f"bench {group[1]}" if group else nodeid

    return BenchGroupScheduling(config, log)
