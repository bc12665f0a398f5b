"""The subsystem top level: NVDLA trace replay on the RTL (tb/test_trace_rtl.py), run on the top with the
simulation memory and a Verilog clock (tb/hdl/nvdla_pp_top_mem.v)."""

from __future__ import annotations

from tb.benches import Bench

# The top with the simulation memory and a clock generated in Verilog (tb/hdl/nvdla_pp_top_mem.v): the
# benchmarks run on it. Verilator needs --timing for the clock, and C++20 for --timing with g++ 12. Without
# cocotb's --public-flat-rw only the signals marked public in tb/hdl are visible to Python: every public
# signal's logic is re-evaluated on each eval, which made the whole top 20x slower.
TOP, TOP_MEM = "nvdla_pp_top", "nvdla_pp_top_mem"
TIMING_ARGS = ("--timing", "-CFLAGS", "-std=c++20", "--no-public-flat-rw")

# SEC_MEM=1: the top with the CV SRAM interface (c_axi, the wrapper's second memory), as NVIDIA's
# nv_small_256_full; the nv_small traces never use it (their DMAs are all MC), so they run there too.
BENCHES = (
    Bench("top_traces", TOP_MEM, "tb.test_trace_rtl", ({"PDP_MAX_W": 64, "SEC_MEM": 1},),
          build_args=TIMING_ARGS),
)
