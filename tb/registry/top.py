"""The subsystem top level: NVDLA trace replay on the RTL (tb/tests/test_trace_rtl.py) and mapped TFLite
operators
(tb/tests/test_tflite_rtl.py), run on the top with the simulation memory and a Verilog clock
(tb/hdl/nvdla_pp_top_mem.v)."""

from __future__ import annotations

from models import configs
from tb.benches import Bench

# The top with the simulation memory and a clock generated in Verilog (tb/hdl/nvdla_pp_top_mem.v): the
# benchmarks run on it. Verilator needs --timing for the clock, and C++20 for --timing with g++ 12. Without
# cocotb's --public-flat-rw only the signals marked public in tb/hdl are visible to Python: every public
# signal's logic is re-evaluated on each eval, which made the whole top 20x slower.
TOP, TOP_MEM = "nvdla_pp_top", "nvdla_pp_top_mem"
TIMING_ARGS = ("--timing", "-CFLAGS", "-std=c++20", "--no-public-flat-rw")

# The top at the run's configuration ($CONFIG, default nv_small: configs/<name>.json)
TOP_PARAMS = configs.load().verilog_parameters()

BENCHES = (
    Bench("top_traces", TOP_MEM, "tb.tests.test_trace_rtl", (TOP_PARAMS,), build_args=TIMING_ARGS),
    # TFLite operators mapped by tflite_nvdla/ (python -m scripts.tflite_rtl; tb/tflite_rtl.py)
    Bench("tflite_rtl", TOP_MEM, "tb.tests.test_tflite_rtl", (TOP_PARAMS,), build_args=TIMING_ARGS),
)
