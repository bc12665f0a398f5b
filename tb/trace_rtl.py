"""`make traces TARGET=rtl`: NVDLA trace tests replayed on the RTL top level (host side of the replay).

The traces run inside one cocotb simulation of the top (tb/tests/test_trace_rtl.py) with random AXI latency
and
backpressure; each trace is also run on the model alongside, so a failed CRC names the first mismatching
element (unit, coordinate, expected, actual). Traces that enable a unit the RTL does not have yet are skipped,
with the reason, and counted apart.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import tempfile
from pathlib import Path

from models import configs
from models.configs import Configuration
from models.replay import (
    PRECISION_UNITS,
    TraceResult,
    capabilities,
    folder_needs,
    load_steps,
    trace_config,
    unit_precision,
)
from tb.benches import find

# The datapath units whose RTL computes INT16 when the top is built with INT16 = 1 (the others: INT8 only).
RTL_INT16_UNITS = ("PDP", "SDP", "CDP", "RUBIK")

# The datapath units whose RTL computes FP16 when the top is built with FP16 = 1 (the others: none).
RTL_FP16_UNITS = ("PDP", "SDP", "CDP", "RUBIK")


def rtl_capabilities(config: Configuration) -> frozenset[str]:
    """What the RTL top has when built at a configuration: what the configuration declares (its parameters
    come from it: models/replay.py capabilities), with INT16 (FP16) only in the units that compute it
    (RTL_INT16_UNITS, RTL_FP16_UNITS) and only if the build's parameters include it."""
    has = set(capabilities(config))
    # the units the top does not have yet (configs.Configuration.units: the convolution pipeline)
    has -= {u for u in (*configs.CONV_UNITS, *configs.MODEL_ONLY_UNITS) if u not in config.units}
    for precision, units in (("INT16", RTL_INT16_UNITS), ("FP16", RTL_FP16_UNITS)):
        built = config.verilog_parameters().get(precision)
        has -= {unit_precision(precision, u) for u in PRECISION_UNITS if not built or u not in units}
        if not built:
            has.discard(precision)
    return frozenset(has)


# Reference-program series (traces/<config>_ref/<series>/, run on NVIDIA's RTL) too long to replay whole on
# the RTL in every regression: outside the nightly, the trace bench replays this many of the series, drawn
# from the run's seed, an equal share of each kind (the `# kind` its generator wrote into input.txn); the
# nightly replays all of them. The model replays every one in every run (tests/model/test_ref_programs.py).
# conv: 208 INT8 convolutions, about 1.1 s of CPU each on the nv_full top, 226 s in all (conv_configs.md).
REGRESSION_SAMPLE = {"conv": 24}


def _kind(folder: Path) -> str:
    for line in (folder / "input.txn").read_text().splitlines():
        if line.startswith("# kind = "):
            return line.removeprefix("# kind = ").strip()
    return ""


def regression_sample(folders: list[Path], rng: random.Random,
                      whole: bool) -> tuple[list[Path], dict[str, list[Path]]]:
    """(the folders to replay, {series: its programs left out}): all of them when `whole` (the nightly),
    else REGRESSION_SAMPLE's share of each long series, the same kinds' shares each (seeded by `rng`)."""
    if whole:
        return folders, {}
    left_out: dict[str, list[Path]] = {}
    for series, keep in REGRESSION_SAMPLE.items():
        members = [f for f in folders if f.parent.name == series and f.parent.parent.name.endswith("_ref")]
        if len(members) <= keep:
            continue
        by_kind: dict[str, list[Path]] = {}
        for f in members:
            by_kind.setdefault(_kind(f), []).append(f)
        share, extra = divmod(keep, len(by_kind))
        chosen: set[Path] = set()
        for i, kind in enumerate(sorted(by_kind)):
            group = by_kind[kind]
            chosen.update(rng.sample(group, min(len(group), share + (i < extra))))
        left_out[series] = [f for f in members if f not in chosen]
    dropped = {f for fs in left_out.values() for f in fs}
    return [f for f in folders if f not in dropped], left_out


def units_needed(folder: Path) -> set[str]:
    """The units and capabilities a trace needs (models/replay.py folder_needs); empty if it cannot be read
    (the replay itself then reports why)."""
    try:
        steps, _skip = load_steps(folder)
    except Exception:  # noqa: BLE001
        return set()
    return folder_needs(folder, steps)


def replay_on_rtl(folders: list[Path], sim: str | None = None, seed: int | None = None) -> list[TraceResult]:
    """Each trace on the RTL built at its configuration (models/replay.py trace_config), one simulation per
    configuration."""
    by_config: dict[str, list[Path]] = {}
    for f in folders:
        by_config.setdefault(trace_config(f).name, []).append(f)
    results: list[TraceResult] = []
    for name, group in by_config.items():
        config = configs.load(name)
        has = rtl_capabilities(config)
        runnable = [f for f in group if units_needed(f) <= has]
        for f in group:
            if f not in runnable:
                missing = units_needed(f) - has
                lacks = ", ".join(sorted(missing))
                why = (" (the convolution pipeline, not in this top yet)"
                       if missing & set(configs.CONV_UNITS) else "")
                results.append(TraceResult(f.name, False, 0,
                                           f"SKIP: needs {lacks}, which the RTL at {name} lacks{why}"))
        results += _run_batches(runnable, config, sim, seed)
    return sorted(results, key=lambda r: r.name)


def _run_batches(runnable: list[Path], config: Configuration, sim: str | None,
                 seed: int | None) -> list[TraceResult]:
    from tb.runner import run_bench

    results: list[TraceResult] = []
    remaining = runnable
    # the trace bench at this configuration: the simulation's drivers, model and CSB map follow it
    bench = dataclasses.replace(find("top_traces"), config=config.name)
    with tempfile.TemporaryDirectory() as tmp:
        # One simulation replays the whole batch; if the simulator itself dies, the trace it was on fails
        # with the reason and a new simulation goes on with the traces after it.
        for attempt in range(len(runnable)):
            if not remaining:
                break
            out = Path(tmp) / f"results{attempt}.json"
            running = out.with_suffix(".running")
            inputs = {"TRACE_FOLDERS": os.pathsep.join(str(f.resolve()) for f in remaining),
                      "TRACE_RESULTS": str(out)}
            run = run_bench(bench, config.verilog_parameters(), sim=sim or os.environ.get("SIM", "verilator"),
                            waves=os.environ.get("WAVES", "0") == "1", seed=seed, inputs=inputs)
            got = [TraceResult(**r) for r in json.loads(out.read_text())] if out.exists() else []
            results += got
            done = {r.name for r in got}
            remaining = [f for f in remaining if f.name not in done]
            if not remaining:
                break
            message = "; ".join(r.message for r in run if r.failed) or "the simulation ended early"
            blamed = running.read_text() if running.exists() else ""
            if blamed not in {f.name for f in remaining}:
                # it died before starting a trace (a build or start-up failure): nothing more can run
                results += [TraceResult(f.name, False, 0, f"not run: {message}") for f in remaining]
                break
            results.append(TraceResult(blamed, False, 0, f"the simulation died during this trace: {message}"))
            remaining = [f for f in remaining if f.name != blamed]
    return results
