"""python -m tflite_nvdla.requant_report model.tflite [...] [--seed N]

For every CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED of a model: the SDP requantization fitted to it
(tflite_nvdla/requant.py: per-channel 16-bit multipliers, one truncate, the bias as a shifted 16-bit
operand, the fused activation's clamps) and its error against TFLite's 32-bit requantization, on each
channel's whole unsaturated accumulator range and on the accumulators of one LiteRT run with seeded random
inputs (computed on the host: tflite_nvdla/host_conv.py, checked to give LiteRT's own output through
TFLite's arithmetic first). The convolution itself stays on the CPU until the convolution pipeline lands.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from tflite_nvdla.host_conv import ACCUMULATED, NotAccumulated, accumulators
from tflite_nvdla.litert_run import run_litert
from tflite_nvdla.reader import TfliteFileError, read
from tflite_nvdla.requant import fit, quant_of, tflite_requant


def report(path: Path, seed: int) -> int:
    model = read(path)
    values = run_litert(path, seed, "reference")
    status = 0
    print(f"{path.name}: SDP requantization of the accumulating operators (accumulators on the host)")
    head = (f"{'#':>3} {'operator':<18} {'ch':>4} {'t':>3} {'m range':>13} {'sb':>3} {'domain %':>9} "
            f"{'max':>4} {'run %':>8} {'max':>4}")
    print(f"{head}\n{'-' * len(head)}")
    for op in model.operators:
        if op.name not in ACCUMULATED:
            continue
        q = quant_of(model, op)
        setting, exact, worst, whole = fit(q)
        x = values.get(op.inputs[0])
        run_figures = "       -    -"
        if x is not None and op.outputs[0] in values:
            try:
                acc = accumulators(model, op, x)
            except NotAccumulated as err:
                run_figures = f"  ({err})"
            else:
                cpu = values[op.outputs[0]]
                expected = cpu.reshape(-1, acc.shape[0]).T.astype(np.int64)
                if not np.array_equal(tflite_requant(acc, q), expected):
                    print(f"{op.index:>3} {op.name}: host accumulators do not reproduce LiteRT's output")
                    status = 1
                    continue
                diff = np.abs(setting.run(acc) - expected)
                run_figures = (f"{100.0 * np.count_nonzero(diff == 0) / diff.size:>8.3f} "
                               f"{int(diff.max(initial=0)):>4}")
                status |= int(diff.max(initial=0) > 1)
        m = setting.multipliers
        print(f"{op.index:>3} {op.name:<18} {m.size:>4} {setting.truncate:>3} {f'{m.min()}..{m.max()}':>13} "
              f"{setting.bias_shift:>3} {100.0 * exact:>8.3f}{'' if whole else '*'} {worst:>4} {run_figures}")
        status |= int(worst > 1)
    print("t: BS truncate; m: BS per-channel multipliers; sb: BS ALU shift of the 16-bit bias operand; "
          "domain: every accumulator of each channel's unsaturated range (* a 2^18 sample of it); run: the "
          "accumulators of one LiteRT run")
    return status


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tflite_nvdla.requant_report",
                                     description=__doc__.split("\n\n")[1])
    parser.add_argument("models", nargs="+", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    status = 0
    for path in args.models:
        try:
            status |= report(path, args.seed)
        except TfliteFileError as err:
            print(f"requant: {path}: {err}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
