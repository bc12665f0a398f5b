"""python -m tflite_nvdla model.tflite [model.tflite ...] [--seed N] [--kernels builtin|reference]
python -m tflite_nvdla model.tflite --whole-model [--input file.npy] [--tolerance N] [--layer-tolerance N]
(on the RTL too: python -m scripts.tflite_rtl with the same arguments; --whole-model --target rtl there)

Reads each model, partitions its operators into those NVDLA runs (SDP, CDP, PDP through the drivers) and those
left to the CPU (with the reason), runs the model on LiteRT keeping every tensor, runs each supported
operator on the subsystem model with LiteRT's input tensors (scripts.tflite_rtl: also on the RTL top in one
cocotb simulation, which is then what is scored; any RTL output differing from the model's is listed and the
exit status is 1), and prints per operator: elements compared,
exact %, max |error| in output LSBs, and the same figures for seed 004's 16-bit multiplier / shift
approach on the same tensors. Last line: `tflite: N operators, exact P%, max error E LSB`.

With --whole-model: the model end to end through LiteRT alone and through LiteRT with the NVDLA delegate
(tflite_nvdla/delegate.py) on the same input; see tflite_nvdla/whole_report.py for what is printed.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from models.subsystem import ModelTarget
from tflite_nvdla.hw_plan import HwPlan, run_plan
from tflite_nvdla.litert_run import KERNELS, run_litert
from tflite_nvdla.lrn_map import absorbed_operators
from tflite_nvdla.mapping import Unsupported, map_operator, operator_inputs
from tflite_nvdla.reader import ModelInfo, OperatorInfo, TfliteFileError, read
from tflite_nvdla.rtl_plans import RtlPlan, RtlRunner


@dataclass
class Row:
    model: str
    op: OperatorInfo
    layout: str
    elements: int
    exact: int
    max_error: int
    baseline_exact: int | None
    baseline_max: int | None
    plan: HwPlan | None = None               # kept for the RTL run (scripts/tflite_rtl.py)
    expected: NDArray[np.generic] | None = None
    model_output: NDArray[np.int8] | None = None


def compare(actual: NDArray[np.integer], expected: NDArray[np.integer]) -> tuple[int, int]:
    """(exact elements, max |error|) of two int8 tensors."""
    diff = np.abs(np.asarray(actual, dtype=np.int64) - np.asarray(expected, dtype=np.int64))
    return int(np.count_nonzero(diff == 0)), int(diff.max(initial=0))


# Operators whose LiteRT reference kernel departs from TensorFlow's definition: scored against LiteRT's
# builtin kernel (TensorFlow's semantics; the same random inputs), the reference kernel's figures in a note.
# LRN: reference_ops sums channels [c - r, c + r), one fewer than TensorFlow's [c - r, c + r].
TENSORFLOW_SEMANTICS = frozenset({"LOCAL_RESPONSE_NORMALIZATION"})


def run_model(path: Path, seed: int, kernels: str, cpu: list[str]) -> list[Row]:
    model: ModelInfo = read(path)
    values = run_litert(path, seed, kernels)
    builtin: dict[int, NDArray[np.generic]] | None = None
    rows = []
    absorbed = absorbed_operators(model)
    for op in model.operators:
        if op.index in absorbed:
            continue  # a DEQUANTIZE / QUANTIZE the CDP layer of an LRN pattern replaces (its row)
        try:
            tensors = operator_inputs(model, op)
            handles = [i for i in (*tensors, *op.outputs) if model.tensors[i].is_handle]
            if handles:
                raise Unsupported(f"tensor {handles[0]} is a resource/variant handle (state stays with "
                                  "LiteRT)")
            missing = [i for i in tensors if i not in values]
            if missing:
                raise Unsupported(f"LiteRT kept no value for input tensor {missing[0]}")
            mapped = map_operator(model, op, [values[i] for i in tensors])
        except Unsupported as why:
            cpu.append(f"{path.name} #{op.index} {op.name}: {why}")
            continue
        out = mapped.output_tensor if mapped.output_tensor is not None else op.outputs[0]
        expected = values[out]
        actual = run_plan(ModelTarget(), mapped.plan)
        if op.name in TENSORFLOW_SEMANTICS and kernels != "builtin":
            builtin = builtin if builtin is not None else run_litert(path, seed, "builtin")
            ref_exact, ref_worst = compare(actual, expected)
            pct = 100.0 * ref_exact / expected.size
            mapped.plan.notes.append(f"scored against LiteRT's builtin kernel (TensorFlow's definition); "
                                     f"against its reference kernel: {pct:.2f}% exact, max {ref_worst} LSB")
            expected = builtin[out]
        exact, worst = compare(actual, expected)
        b_exact = b_max = None
        if mapped.baseline is not None:
            b_exact, b_max = compare(mapped.baseline.reshape(expected.shape), expected)
        rows.append(Row(path.name, op, mapped.plan.layout, expected.size, exact, worst, b_exact, b_max,
                        mapped.plan, expected, actual))
    return rows


def rerun_on_rtl(rows: list[Row], run_on_rtl: RtlRunner) -> list[str]:
    """Run every row's layers on the RTL top (one simulation: `run_on_rtl`, tb/tflite_rtl.py's) and score the
    RTL's output against LiteRT instead of the model's; returns the operators whose RTL output differs from
    the model's (or did not come back), with why."""
    from tflite_nvdla.hw_plan import from_cube

    plans = [RtlPlan(f"{r.model}#{r.op.index}:{r.op.name}", r.plan.steps, r.plan.output)
             for r in rows if r.plan is not None]
    differ = []
    for row, out in zip(rows, run_on_rtl(plans), strict=True):
        assert row.plan is not None and row.expected is not None and row.model_output is not None
        if out.cube is None:
            differ.append(f"{out.name}: {out.error}")
            row.exact, row.max_error = 0, 255
            continue
        rtl = from_cube(out.cube, row.plan.out_shape)
        row.exact, row.max_error = compare(rtl, row.expected)
        if not np.array_equal(rtl, row.model_output):
            bad = int(np.count_nonzero(rtl != row.model_output))
            differ.append(f"{out.name}: {bad} of {rtl.size} elements differ from the model's")
    return differ


def _pct(n: int | None, total: int) -> str:
    return "-" if n is None else f"{100.0 * n / total:.2f}"


def print_table(rows: list[Row]) -> None:
    width = max([16, *(len(r.op.name) for r in rows)])
    head = (f"{'model':<22} {'#':>2} {'operator':<{width}} {'elements':>8} {'exact %':>8} {'max LSB':>7} "
            f"{'s004 %':>7} {'s004 max':>8}  layers")
    print(head)
    print("-" * len(head))
    for r in rows:
        print(f"{r.model:<22} {r.op.index:>2} {r.op.name:<{width}} {r.elements:>8} "
              f"{_pct(r.exact, r.elements):>8} "
              f"{r.max_error:>7} {_pct(r.baseline_exact, r.elements):>7} "
              f"{'-' if r.baseline_max is None else r.baseline_max:>8}  {r.layout}")


def main(argv: list[str] | None = None, rtl: RtlRunner | None = None) -> int:
    """The command; `rtl`: also run the NVDLA layers on the RTL with this runner (scripts/tflite_rtl.py)."""
    parser = argparse.ArgumentParser(prog="python -m tflite_nvdla", description=__doc__.split("\n\n")[1])
    parser.add_argument("models", nargs="+", type=Path, help=".tflite files")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random input tensors")
    parser.add_argument("--kernels", choices=KERNELS, default="reference",
                        help="LiteRT kernels: reference (TFLite's reference kernels, default) or builtin")
    parser.add_argument("--whole-model", action="store_true",
                        help="run the whole model with the NVDLA delegate against LiteRT alone")
    parser.add_argument("--input", type=Path, help="--whole-model: a .npy input (N x input shape: a stream)")
    parser.add_argument("--target", choices=("model", "rtl"), default="model",
                        help="--whole-model: the delegate's layers on the subsystem model or the RTL "
                             "(rtl: python -m scripts.tflite_rtl)")
    parser.add_argument("--tolerance", type=int, default=1,
                        help="--whole-model: largest error of a final output in LSB before exit 1")
    parser.add_argument("--layer-tolerance", type=int, default=1,
                        help="--whole-model: largest own error of a delegated layer in LSB before exit 1")
    args = parser.parse_args(argv)
    if args.whole_model and args.target == "rtl" and rtl is None:
        parser.error("--target rtl: run python -m scripts.tflite_rtl with the same arguments")
    if args.whole_model:
        return _whole(args, rtl)
    warnings.filterwarnings("ignore", message=".*experimental_preserve_all_tensors.*")
    rows: list[Row] = []
    cpu: list[str] = []
    for path in args.models:
        try:
            rows += run_model(path, args.seed, args.kernels, cpu)
        except TfliteFileError as err:
            print(f"tflite: {path}: {err}", file=sys.stderr)
            return 1
    differ: list[str] = []
    skipped = []
    if rtl is not None and rows:
        from tflite_nvdla.rtl_units import rtl_skip_reason
        runnable = [r for r in rows if r.plan is None or rtl_skip_reason(r.plan) is None]
        skipped = [f"{r.model}#{r.op.index}:{r.op.name}: {rtl_skip_reason(r.plan)}" for r in rows
                   if r.plan is not None and rtl_skip_reason(r.plan) is not None]
        differ = rerun_on_rtl(runnable, rtl)
    print_table(rows)
    notes = [f"  {r.model} #{r.op.index} {r.op.name}: {n}" for r in rows if r.plan for n in r.plan.notes]
    if notes:
        print("\nnotes:")
        print("\n".join(notes))
    if cpu:
        print("\nleft to the CPU:")
        for line in cpu:
            print(f"  {line}")
    total = sum(r.elements for r in rows)
    if not total:
        print("tflite: 0 operators: nothing ran on NVDLA, nothing compared (SKIP)")
        return 0
    exact = sum(r.exact for r in rows)
    worst = max(r.max_error for r in rows)
    if rtl is not None:
        for line in differ:
            print(f"  RTL != model: {line}")
        for line in skipped:
            print(f"  {line}")
        ran = len(rows) - len(skipped)
        print(f"rtl: {ran} operators on the RTL, {ran - len(differ)} "
              f"with outputs equal to the model's, {len(skipped)} skipped (their scores are the model's)")
    where = " (on the RTL)" if rtl is not None else ""
    print(f"tflite: {len(rows)} operators{where}, exact {100.0 * exact / total:.2f}%, max error {worst} LSB")
    return 1 if differ else 0


def _whole(args: argparse.Namespace, rtl: RtlRunner | None) -> int:
    from tflite_nvdla.whole_report import report

    status = 0
    for path in args.models:
        try:
            status |= report(path, args.input, args.seed, args.kernels, args.target, args.tolerance,
                             args.layer_tolerance, rtl)
        except TfliteFileError as err:
            print(f"tflite: {path}: {err}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
