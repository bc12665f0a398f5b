"""python -m tflite_nvdla.wakeword CONFIG.json [--input stream.npy ...]
(on the RTL: python -m scripts.tflite_rtl wakeword CONFIG.json ... --target rtl)

A microWakeWord model (its .json configuration beside the .tflite, as pymicro-wakeword ships them) run on
input streams with and without NVDLA (tflite_nvdla.whole_model), detection decided as the package decides it:
the dequantized output of each invoke, averaged over the last `sliding_window_size` invokes (none before the
window is full), detects when the average exceeds `probability_cutoff`. Without --input: the NAME.positive.npy
and NAME.negative.npy streams beside the model. Exit status 1 when the two runs detect differently (the
invoke of the first detection may move: printed).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tflite_nvdla.reader import TfliteFileError
from tflite_nvdla.rtl_plans import RtlRunner
from tflite_nvdla.whole_model import WholeRun, run_whole
from tflite_nvdla.whole_report import replay_on_rtl, rtl_skipped


@dataclass(frozen=True)
class Detection:
    detected: bool
    first: int | None      # the first invoke whose average exceeds the cutoff
    peak: float            # the largest average


def detect(probabilities: np.ndarray, window: int, cutoff: float) -> Detection:
    means = [float(np.mean(probabilities[i - window + 1:i + 1]))
             for i in range(window - 1, len(probabilities))]
    above = [i + window - 1 for i, m in enumerate(means) if m > cutoff]
    return Detection(bool(above), above[0] if above else None, max(means, default=0.0))


def probabilities(run: WholeRun, which: str) -> np.ndarray:
    out = run.outputs[0]
    values = run.cpu_outputs if which == "cpu" else run.nvdla_outputs
    q = np.array([float(np.asarray(v[0]).reshape(-1)[0]) for v in values])
    return (q - out.zero_point) * out.scale


def run_stream(config: Path, stream: Path, target: str,
               rtl: RtlRunner | None = None) -> tuple[Detection, Detection, WholeRun, list[str]]:
    cfg = json.loads(config.read_text())
    model = config.parent / cfg["model"]
    micro = cfg["micro"]
    run = run_whole(model, stream, 0, "reference", keep_plans=target == "rtl")
    window, cutoff = int(micro["sliding_window_size"]), float(micro["probability_cutoff"])
    cpu = detect(probabilities(run, "cpu"), window, cutoff)
    nvdla = detect(probabilities(run, "nvdla"), window, cutoff)
    if target == "rtl" and rtl is None:
        raise ValueError("--target rtl: run python -m scripts.tflite_rtl wakeword ...")
    differ = replay_on_rtl(run.layers, rtl) if target == "rtl" and rtl is not None else []
    return cpu, nvdla, run, differ


def _describe(d: Detection) -> str:
    where = f" at invoke {d.first}" if d.first is not None else ""
    return f"{'detected' if d.detected else 'not detected'}{where} (peak {d.peak:.4f})"


def main(argv: list[str] | None = None, rtl: RtlRunner | None = None) -> int:
    """The command; `rtl`: the RTL runner for --target rtl (scripts/tflite_rtl.py passes tb's)."""
    parser = argparse.ArgumentParser(prog="python -m tflite_nvdla.wakeword",
                                     description=__doc__.split("\n\n")[1])
    parser.add_argument("config", type=Path, help="the model's .json (pymicro-wakeword's format)")
    parser.add_argument("--input", type=Path, nargs="*",
                        help="quantized input streams (.npy, N x 1 x 3 x 40)")
    parser.add_argument("--target", choices=("model", "rtl"), default="model")
    args = parser.parse_args(argv)
    name = args.config.stem
    streams = args.input or [args.config.parent / f"{name}.{k}.npy" for k in ("positive", "negative")]
    status = 0
    for stream in streams:
        try:
            cpu, nvdla, run, differ = run_stream(args.config, stream, args.target, rtl)
        except (TfliteFileError, OSError, KeyError, ValueError) as err:
            print(f"wakeword: {name} on {stream.name}: {err}", file=sys.stderr)
            status = 1
            continue
        delegated = sum(d.delegated for d in run.decisions)
        # the phrase detected or not is the result; the first invoke over the cutoff may move by the drift
        # of the requantized layers (each within 1 LSB) and is reported, not required equal
        same = cpu.detected == nvdla.detected
        moved = "" if cpu.first == nvdla.first else f" (first detection invoke {cpu.first} vs {nvdla.first})"
        rtl = ""
        if args.target == "rtl":
            skipped = rtl_skipped(run.layers)
            replayed = len(run.layers) - len(skipped)
            rtl = (f"; RTL: {replayed - len(differ)} of {replayed} layer runs equal to the model's, "
                   f"{len(skipped)} skipped (SKIP: {skipped[0].split(': ', 1)[1] if skipped else '-'})")
            for line in differ:
                print(f"  RTL != model: {line}")
        print(f"wakeword: {name} on {stream.name} ({len(run.cpu_outputs)} invokes, {delegated}/"
              f"{len(run.decisions)} operators on NVDLA): LiteRT {_describe(cpu)}; with NVDLA "
              f"{_describe(nvdla)}: {'same detection' if same else 'DIFFERENT'}{moved}{rtl}")
        status |= 0 if same and not differ and not run.errors else 1
    return status


if __name__ == "__main__":
    sys.exit(main())
