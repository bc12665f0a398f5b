"""`python -m tflite_nvdla ... --rtl`: mapped TFLite operators run on the RTL top level (host side).

Each operator is a plan (tflite_nvdla/hw_plan.py: memory loads, register writes, interrupt waits, and the
output cube to read back), the same steps the model runs. All plans of a command run in one cocotb
simulation of the top with the simulation memory (tb/test_tflite_rtl.py, bench `tflite_rtl`), each from a
reset and cleared memories; the output bytes come back for the host to compare with the model and LiteRT.
In the regression the same bench maps the shipped example models itself, with random inputs, and checks
the RTL against the model.
"""

from __future__ import annotations

import os
import pickle
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from models.cube import CubeLayout
from tflite_nvdla.hw_plan import HwPlan, Step


@dataclass(frozen=True)
class RtlPlan:
    """What the simulation needs of a plan (picklable): its name, steps and output cube."""

    name: str
    steps: list[Step]
    output: CubeLayout


@dataclass(frozen=True)
class RtlOutput:
    """The output cube's bytes as the RTL left them ([channels, height, width] lanes), or why not."""

    name: str
    cube: NDArray[np.int8] | None
    error: str = ""


def example_plans(seed: int) -> list[tuple[RtlPlan, HwPlan]]:
    """Every operator of the shipped example models (tflite_nvdla/make_models.py) that maps to NVDLA, each
    with random int8 inputs of its shapes (constants from the model), as plans: the regression's case."""
    from tflite_nvdla.make_models import write_models
    from tflite_nvdla.mapping import Unsupported, map_operator, operator_inputs
    from tflite_nvdla.reader import read
    from tflite_nvdla.rtl_units import rtl_skip_reason

    rng = np.random.default_rng(seed)
    out: list[tuple[RtlPlan, HwPlan]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in write_models(Path(tmp)):
            model = read(path)
            for op in model.operators:
                inputs = []
                for i in operator_inputs(model, op):
                    t = model.tensors[i]
                    inputs.append(t.data.reshape(t.shape) if t.data is not None
                                  else rng.integers(-128, 128, t.shape).astype(np.int8))
                try:
                    plan = map_operator(model, op, inputs).plan
                except Unsupported:
                    continue  # left to the CPU: nothing to run here
                if rtl_skip_reason(plan) is not None:
                    continue  # units the top does not have (the convolution pipeline today)
                name = f"{path.stem}#{op.index}:{op.name}"
                out.append((RtlPlan(name, plan.steps, plan.output), plan))
    return out


def run_on_rtl(plans: list[RtlPlan], sim: str | None = None, seed: int | None = None) -> list[RtlOutput]:
    """Run the plans in one simulation of the top; one output per plan, in order."""
    from tb.benches import find
    from tb.runner import run_bench

    bench = find("tflite_rtl")
    with tempfile.TemporaryDirectory() as tmp:
        plans_file, results_file = Path(tmp) / "plans.pkl", Path(tmp) / "results.pkl"
        plans_file.write_bytes(pickle.dumps(plans))
        saved = {k: os.environ.get(k) for k in ("TFLITE_PLANS", "TFLITE_RESULTS")}
        os.environ["TFLITE_PLANS"], os.environ["TFLITE_RESULTS"] = str(plans_file), str(results_file)
        try:
            runs = run_bench(bench, bench.param_sets[0],
                             sim=sim or os.environ.get("SIM", "verilator"),
                             waves=os.environ.get("WAVES", "0") == "1", seed=seed)
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
        if results_file.exists():
            results: list[RtlOutput] = pickle.loads(results_file.read_bytes())
        else:
            results = []
    why = "; ".join(r.message for r in runs if r.failed) or "the simulation ended early"
    return results + [RtlOutput(p.name, None, f"not run: {why}") for p in plans[len(results):]]
