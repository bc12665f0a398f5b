"""`python -m tflite_nvdla model.tflite --whole-model [--input file.npy] [--target model|rtl]
[--tolerance N]`: the report of tflite_nvdla.whole_model's two runs.

Printed: operators delegated / total with the reason for each one left to the CPU; the drift table (each
delegated operator's output against the CPU run's tensor, over every invoke: elements, exact %, max LSB);
the final outputs' exact % and max LSB; for a classifier or detector (a small output) the dequantized scores
side by side. With --target rtl every delegated layer run is replayed on the RTL top in one simulation and
must equal the model's output bit for bit (the delegate's results are then the RTL's). Exit status 1 when a
final output's max error exceeds --tolerance LSB, a delegated layer's own error --layer-tolerance, or the
RTL differs from the model.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from tflite_nvdla.delegate import LayerRun
from tflite_nvdla.rtl_plans import RtlPlan, RtlRunner
from tflite_nvdla.rtl_units import rtl_skip_reason
from tflite_nvdla.whole_model import WholeRun, run_whole

SCORES_MAX = 16   # outputs with at most this many elements are scores printed side by side


@dataclass
class Drift:
    op_index: int
    op: str
    layout: str
    elements: int = 0
    exact: int = 0
    max_lsb: int = 0
    runs: int = 0
    not_compared: str = ""
    own_elements: int = 0
    own_exact: int = 0
    own_max: int = 0


def compare(a: NDArray[Any], b: NDArray[Any]) -> tuple[int, int]:
    diff = np.abs(np.asarray(a, dtype=np.int64) - np.asarray(b, dtype=np.int64))
    return int(np.count_nonzero(diff == 0)), int(diff.max(initial=0))


def drift_table(run: WholeRun) -> list[Drift]:
    rows: dict[tuple[int, int], Drift] = {}
    for n, layer in enumerate(run.layers):
        row = rows.setdefault((layer.subgraph, layer.op_index), Drift(layer.op_index, layer.op, layer.layout))
        row.runs += 1
        if n in run.isolated:
            row.own_elements += layer.value.size
            row.own_exact += run.isolated[n][0]
            row.own_max = max(row.own_max, run.isolated[n][1])
        if layer.subgraph != 0:
            row.not_compared = f"subgraph {layer.subgraph}: its tensors are not readable from Python"
            continue
        cpu = run.cpu_tensors[layer.invoke].get(layer.output_tensor)
        if cpu is None:
            row.not_compared = "the CPU run kept no value for its output"
            continue
        exact, worst = compare(layer.value.reshape(cpu.shape), cpu)
        row.elements += cpu.size
        row.exact += exact
        row.max_lsb = max(row.max_lsb, worst)
    return list(rows.values())


def rtl_skipped(layers: list[LayerRun]) -> list[str]:
    """The kept layer runs the RTL cannot run, each with the reason."""
    out = []
    for r in layers:
        why = rtl_skip_reason(r.plan) if r.plan is not None else None
        if why:
            out.append(f"invoke {r.invoke} #{r.op_index}:{r.op}: {why}")
    return out


def replay_on_rtl(layers: list[LayerRun], run_on_rtl: RtlRunner) -> list[str]:
    """Every delegated layer run on the RTL in one simulation (`run_on_rtl`: tb/tflite_rtl.py's, passed in by
    scripts/tflite_rtl.py or a test); the runs whose RTL output differs from the model's (or did not come
    back), with why."""
    from tflite_nvdla.hw_plan import from_cube

    runs = [layer for layer in layers if layer.plan is not None and rtl_skip_reason(layer.plan) is None]
    plans = [RtlPlan(f"invoke {r.invoke} #{r.op_index}:{r.op}", r.plan.steps, r.plan.output)
             for r in runs if r.plan is not None]
    differ = []
    for layer, out in zip(runs, run_on_rtl(plans), strict=True):
        assert layer.plan is not None
        if out.cube is None:
            differ.append(f"{out.name}: {out.error}")
            continue
        rtl = from_cube(out.cube, layer.plan.out_shape)
        model_bytes = layer.value.reshape(rtl.shape).view(np.uint8)   # a uint8 tensor's value is its bytes
        if not np.array_equal(rtl.view(np.uint8), model_bytes):
            bad = int(np.count_nonzero(rtl.view(np.uint8) != model_bytes))
            differ.append(f"{out.name}: {bad} of {rtl.size} elements differ from the model's")
    return differ


def _pct(n: int, total: int) -> str:
    return f"{100.0 * n / total:.2f}" if total else "-"


def print_score_map(run: WholeRun) -> None:
    """A detector's map output (a small last axis of classes, e.g. PNet's face probability per position):
    the five positions the CPU scores highest in the last class, both runs' scores there."""
    for k, o in enumerate(run.outputs):
        cpu, nv = run.cpu_outputs[0][k], run.nvdla_outputs[0][k]
        if cpu.size <= SCORES_MAX or cpu.ndim < 3 or not 2 <= cpu.shape[-1] <= 4 or o.scale == 0:
            continue
        if (-128 - o.zero_point) * o.scale < -0.01 or (127 - o.zero_point) * o.scale > 1.01:
            continue   # not probabilities (a regression map)
        c = (cpu[..., -1].astype(np.float64) - o.zero_point) * o.scale
        n = (nv[..., -1].astype(np.float64) - o.zero_point) * o.scale
        top = np.argsort(c.reshape(-1))[::-1][:5]
        print(f"\nscore map {o.name!r}, last class, the CPU's top 5 positions (CPU | NVDLA):")
        for i in top:
            where = np.unravel_index(i, c.shape)
            print(f"  {tuple(int(v) for v in where)}: {c.reshape(-1)[i]:.4f} | {n.reshape(-1)[i]:.4f}")
        best_c = tuple(int(v) for v in np.unravel_index(c.argmax(), c.shape))
        best_n = tuple(int(v) for v in np.unravel_index(n.argmax(), n.shape))
        print(f"  best position: CPU {best_c}, NVDLA {best_n}; positions over 0.5: CPU "
              f"{int((c > 0.5).sum())}, NVDLA {int((n > 0.5).sum())}")


def print_scores(run: WholeRun) -> None:
    print_score_map(run)
    small = [(k, o) for k, o in enumerate(run.outputs) if run.cpu_outputs[0][k].size <= SCORES_MAX]
    for k, o in small:
        cpu = np.stack([v[k] for v in run.cpu_outputs]).astype(np.float64)
        nv = np.stack([v[k] for v in run.nvdla_outputs]).astype(np.float64)
        cpu_s, nv_s = (cpu - o.zero_point) * o.scale, (nv - o.zero_point) * o.scale
        if o.scale == 0:
            cpu_s, nv_s = cpu, nv
        print(f"\nscores of {o.name!r} (dequantized), CPU | NVDLA:")
        if len(run.cpu_outputs) == 1:
            for i, (a, b) in enumerate(zip(cpu_s.reshape(-1), nv_s.reshape(-1), strict=True)):
                print(f"  [{i}] {a:9.5f} | {b:9.5f}")
            continue
        # a stream: the invokes where either run scores highest, and how often the two agree
        flat_c, flat_n = cpu_s.reshape(len(cpu_s), -1), nv_s.reshape(len(nv_s), -1)
        top = sorted(set(np.argsort(flat_c.max(1))[-5:]) | set(np.argsort(flat_n.max(1))[-5:]))
        for t in top:
            print(f"  invoke {t:4d}: {np.array2string(flat_c[t], precision=4)} | "
                  f"{np.array2string(flat_n[t], precision=4)}")
        same = int(np.count_nonzero(np.all(cpu == nv, axis=tuple(range(1, cpu.ndim)))))
        print(f"  {same} of {len(cpu)} invokes with equal scores; max |difference| "
              f"{float(np.abs(cpu_s - nv_s).max()):.5f}")


def report(path: Path, input_file: Path | None, seed: int, kernels: str, target: str,
           tolerance: int, layer_tolerance: int = 1, rtl: RtlRunner | None = None) -> int:
    run = run_whole(path, input_file, seed, kernels, keep_plans=target == "rtl")
    for line in run.layout_checks:
        print(f"ABI check: {line}")
    by_sub: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for d in run.decisions:
        by_sub[d.subgraph][0] += d.delegated
        by_sub[d.subgraph][1] += 1
    delegated = sum(d.delegated for d in run.decisions)
    print(f"\n{path.name}: {delegated} of {len(run.decisions)} operators delegated to NVDLA "
          f"({', '.join(f'subgraph {s}: {n}/{t}' for s, (n, t) in sorted(by_sub.items()))}), "
          f"{len(run.cpu_outputs)} invokes")
    refused = [d for d in run.decisions if not d.delegated]
    if refused:
        print("left to the CPU:")
        for d in refused:
            print(f"  subgraph {d.subgraph} #{d.node} {d.op}: {d.reason}")
    rows = drift_table(run)
    worst = 0
    if rows:
        width = max(12, *(len(r.op) for r in rows))
        head = (f"{'#':>3} {'operator':<{width}} {'runs':>5} {'elements':>9} {'exact %':>8} "
                f"{'max LSB':>7} {'own %':>7} {'own max':>7}  layers")
        print("\nper-layer drift: NVDLA's output vs the CPU run's tensor (exact %, max LSB: in the chain, "
              "what earlier\ndelegated layers passed on included; own: the layers on the CPU run's inputs):")
        print(f"{head}\n{'-' * len(head)}")
        for r in rows:
            figures = (f"{r.elements:>9} {_pct(r.exact, r.elements):>8} {r.max_lsb:>7}" if not r.not_compared
                       else f"{'-':>9} {'-':>8} {'-':>7}")
            own = (f"{_pct(r.own_exact, r.own_elements):>7} {r.own_max:>7}" if r.own_elements
                   else f"{'-':>7} {'-':>7}")
            print(f"{r.op_index:>3} {r.op:<{width}} {r.runs:>5} {figures} {own}  {r.layout}"
                  + (f" ({r.not_compared})" if r.not_compared else ""))
            worst = max(worst, r.own_max)
    print("\nfinal outputs (with NVDLA vs LiteRT alone):")
    final_worst = 0
    for k, o in enumerate(run.outputs):
        a = np.stack([v[k] for v in run.nvdla_outputs])
        b = np.stack([v[k] for v in run.cpu_outputs])
        exact, w = compare(a, b) if np.issubdtype(a.dtype, np.integer) else (int(np.sum(a == b)), -1)
        if w < 0:
            print(f"  {o.name}: {a.size} elements, exact {_pct(exact, a.size)}%, max |error| "
                  f"{float(np.abs(a - b).max()):.6g} (float)")
        else:
            print(f"  {o.name}: {a.size} elements, exact {_pct(exact, a.size)}%, max {w} LSB")
            final_worst = max(final_worst, w)
    print_scores(run)
    differ: list[str] = []
    if target == "rtl":
        if rtl is None:
            raise ValueError("--target rtl needs the RTL runner: python -m scripts.tflite_rtl ... "
                             "--whole-model")
        differ = replay_on_rtl(run.layers, rtl)
        skipped = rtl_skipped(run.layers)
        for line in differ:
            print(f"  RTL != model: {line}")
        for line in skipped:
            print(f"  {line}")
        replayed = len(run.layers) - len(skipped)
        print(f"rtl: {replayed} delegated layer runs replayed on the RTL in one simulation, "
              f"{replayed - len(differ)} equal to the model's, {len(skipped)} skipped (SKIP)")
    for err in run.errors:
        print(f"delegate error: {err}")
    where = " (on the RTL)" if target == "rtl" else ""
    print(f"tflite: {path.name}: {delegated}/{len(run.decisions)} operators on NVDLA{where}, per-layer own "
          f"max {worst} LSB (tolerance {layer_tolerance}), outputs max {final_worst} LSB "
          f"(tolerance {tolerance})")
    return 1 if differ or run.errors or worst > layer_tolerance or final_worst > tolerance else 0
