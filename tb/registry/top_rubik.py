"""Random Rubik layers on the top with the simulation memory, model against RTL (tb/tests/test_top_rubik.py):
at the
run's configuration (SKIP unless it has Rubik, nv_full); other configurations with Rubik get
<name>_rubik (tb/registry/configurations.py)."""

from __future__ import annotations

from tb.benches import Bench
from tb.registry.top import TIMING_ARGS, TOP_MEM, TOP_PARAMS

BENCHES = (
    Bench("top_rubik_mem", TOP_MEM, "tb.tests.test_top_rubik", (TOP_PARAMS,), build_args=TIMING_ARGS,
          tests=("random_layers",)),
    # random deconvolutions (convolution layers, then a contract) against the model and a transposed
    # convolution (tb/tests/test_top_deconv.py); the top_conv/top_traces build; SKIP unless RUBIK = 1
    Bench("top_deconv", TOP_MEM, "tb.tests.test_top_deconv", (TOP_PARAMS,), build_args=TIMING_ARGS,
          build="top_traces", tests=("random_deconvolutions",)),
)
