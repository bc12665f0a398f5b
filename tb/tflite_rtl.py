"""`python -m scripts.tflite_rtl ...`: mapped TFLite operators run on the RTL top level (host side).

Each operator is a plan (tflite_nvdla/hw_plan.py: memory loads, register writes, interrupt waits, and the
output cube to read back), the same steps the model runs. All plans of a command run in one cocotb
simulation of the top with the simulation memory (tb/tests/test_tflite_rtl.py, bench `tflite_rtl`), each from
a
reset and cleared memories; the output bytes come back for the host to compare with the model and LiteRT.
In the regression the same bench maps the shipped example models itself, with random inputs, and checks
the RTL against the model.
"""

from __future__ import annotations

import os
import pickle
import tempfile
from pathlib import Path

from tflite_nvdla.rtl_plans import RtlOutput, RtlPlan


def run_on_rtl(plans: list[RtlPlan], sim: str | None = None, seed: int | None = None) -> list[RtlOutput]:
    """Run the plans in one simulation of the top; one output per plan, in order."""
    from tb.benches import find
    from tb.runner import run_bench

    bench = find("tflite_rtl")
    with tempfile.TemporaryDirectory() as tmp:
        plans_file, results_file = Path(tmp) / "plans.pkl", Path(tmp) / "results.pkl"
        plans_file.write_bytes(pickle.dumps(plans))
        runs = run_bench(bench, bench.param_sets[0], sim=sim or os.environ.get("SIM", "verilator"),
                         waves=os.environ.get("WAVES", "0") == "1", seed=seed,
                         inputs={"TFLITE_PLANS": str(plans_file), "TFLITE_RESULTS": str(results_file)})
        if results_file.exists():
            results: list[RtlOutput] = pickle.loads(results_file.read_bytes())
        else:
            results = []
    why = "; ".join(r.message for r in runs if r.failed) or "the simulation ended early"
    return results + [RtlOutput(p.name, None, f"not run: {why}") for p in plans[len(results):]]
