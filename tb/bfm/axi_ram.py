"""cocotbext-axi's AxiRam as the benches use it: random stalls on the memory's side of every AXI channel."""

from __future__ import annotations

import random

from cocotbext.axi import AxiRam

from tb.bfm.stream import pick_pause


def set_memory_pauses(ram: AxiRam, rng: random.Random) -> None:
    """Random stalls on all five AXI channels (the memory's side of the handshakes)."""
    channels = [ram.write_if.aw_channel, ram.write_if.w_channel, ram.write_if.b_channel,
                ram.read_if.ar_channel, ram.read_if.r_channel]
    for channel in channels:
        channel.set_pause_generator(pick_pause(rng))
