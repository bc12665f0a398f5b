"""Mapped operators as what a simulation of the RTL top runs (RtlPlan: name, steps, output cube; picklable)
and gives back (RtlOutput), and the regression's case: every operator of the shipped example models. The
simulation itself (tb/tflite_rtl.py run_on_rtl, bench `tflite_rtl`) lives with the benches; tflite_nvdla
takes it as an argument (`rtl=`) rather than importing it.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from models.common.cube import CubeLayout
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


# runs plans on the RTL (one simulation), one output per plan: tb/tflite_rtl.py run_on_rtl
RtlRunner = Callable[[list[RtlPlan]], list[RtlOutput]]
