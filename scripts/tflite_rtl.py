"""python -m scripts.tflite_rtl model.tflite [model.tflite ...] [--seed N] [--kernels builtin|reference]

`python -m tflite_nvdla` with every mapped operator also run on the RTL top (one cocotb simulation,
tb/tflite_rtl.py), which is then what is scored against LiteRT; any RTL output differing from the model's is
listed and the exit status is 1.
"""

from __future__ import annotations

import sys

from tb.tflite_rtl import run_on_rtl
from tflite_nvdla.__main__ import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], rtl=run_on_rtl))
