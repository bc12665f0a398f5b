"""Mapped TFLite operators on the RTL top level (tb/hdl/nvdla_pp_top_mem.v, the top with the simulation
memory): tb/tflite_rtl.py passes the plans of `python -m scripts.tflite_rtl ...` in TFLITE_PLANS and takes
the output cubes back from TFLITE_RESULTS. In the regression (no TFLITE_PLANS) it runs every mapped operator
of the shipped example models with seeded random inputs and checks each output cube against the model
(ModelTarget fed the same steps), naming the first differing element.
"""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import cocotb
import numpy as np

from models.subsystem import ModelTarget
from tb import outcome
from tb.bench_target import BenchTarget, start_top
from tb.bfm.sim_memory import MemTiming
from tb.common import make_rng
from tflite_nvdla.hw_plan import run_cube
from tflite_nvdla.rtl_plans import RtlOutput, RtlPlan, example_plans


class _RtlMemory:
    """The simulation's primary memory as the ByteMemory CubeLayout reads."""

    def __init__(self, target: BenchTarget) -> None:
        self.target = target

    def read(self, addr: int, n: int) -> np.ndarray:
        return np.frombuffer(self.target.mems[0].read(addr, n), dtype=np.uint8)

    def write(self, addr: int, data: np.ndarray) -> None:
        raise NotImplementedError("the output is only read back")


async def _run(target: BenchTarget, plan: RtlPlan) -> RtlOutput:
    await target.start_case()
    await target.run_steps(plan.name, plan.steps, score_layers=False)
    if any(m.error for m in target.mems):
        return RtlOutput(plan.name, None, "the memory flagged an AXI protocol error")
    return RtlOutput(plan.name, plan.output.read(_RtlMemory(target)))


@cocotb.test()
async def mapped_operators(dut) -> None:
    rng = make_rng("tflite")
    mem = await start_top(dut, MemTiming.random(rng))
    target = BenchTarget(dut, mem)
    given = os.environ.get("TFLITE_PLANS")
    if given:
        plans: list[RtlPlan] = pickle.loads(Path(given).read_bytes())
        results = []
        for plan in plans:
            results.append(await _run(target, plan))
            Path(os.environ["TFLITE_RESULTS"]).write_bytes(pickle.dumps(results))
        outcome.checked(len(results), "operators run for the command")
        return
    failures = []
    cases = example_plans(rng.randrange(1 << 30))
    if not cases:
        outcome.skip("no operator of the example models maps to NVDLA")
    for plan, hw in cases:
        got = await _run(target, plan)
        model_cube = run_cube(ModelTarget(), hw)
        if got.cube is None:
            failures.append(f"{plan.name}: {got.error}")
        elif not np.array_equal(got.cube, model_cube):
            c, h, w = (int(i[0]) for i in np.nonzero(got.cube != model_cube))
            failures.append(f"{plan.name}: element c={c} h={h} w={w} is {int(got.cube[c, h, w])} on the RTL, "
                            f"{int(model_cube[c, h, w])} on the model")
    outcome.checked(len(cases), "operators")
    assert not failures, "TFLite operators where the RTL differs from the model:\n" + "\n".join(failures)
