"""Benches of the convolution pipeline's blocks: CMAC feeding CACC (tb/hdl/nvdla_conv_mac_tb.v,
tb/test_conv_mac.py) scored against models/conv.py's accumulation and output stage."""

from __future__ import annotations

from tb.benches import Bench

BENCHES = (
    Bench("conv_mac", "nvdla_conv_mac_tb", "tb.test_conv_mac", (
        {"AC": 8, "AK": 8, "STRIPE": 16},     # nv_small
        {"AC": 32, "AK": 16, "STRIPE": 32},   # nv_medium_512's atoms
    )),
)
