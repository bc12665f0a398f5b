"""python -m scripts.tflite_rtl model.tflite [model.tflite ...] [--seed N] [--kernels builtin|reference]
python -m scripts.tflite_rtl model.tflite --whole-model --target rtl [--input file.npy] ...
python -m scripts.tflite_rtl wakeword CONFIG.json [--input stream.npy ...] --target rtl

`python -m tflite_nvdla` (or `python -m tflite_nvdla.wakeword`) with the NVDLA layers also run on the RTL top
(one cocotb simulation, tb/tflite_rtl.py), which is then what is scored; any RTL output differing from the
model's is listed and the exit status is 1. tflite_nvdla takes the RTL runner as an argument: it imports
nothing from tb/.
"""

from __future__ import annotations

import sys

from tb.tflite_rtl import run_on_rtl
from tflite_nvdla import wakeword
from tflite_nvdla.__main__ import main

if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["wakeword"]:
        sys.exit(wakeword.main(args[1:], rtl=run_on_rtl))
    sys.exit(main(args, rtl=run_on_rtl))
