"""Functional coverage of PDP layers run on the top (tb/tests/test_top_pdp.py): kernel sizes, strides, pads,
split
width, on-the-fly input, pooling methods, register groups, cube shapes; and the aim that steers the random
layer generator at bins still missing."""

from __future__ import annotations

import random
from collections.abc import Sequence

from models.common.driver import run_atom_bytes
from models.pdp.model import AVERAGE, MAX, MIN, PdpConfig
from tb.funcov import Covergroup

ATOM = run_atom_bytes()
METHODS = {AVERAGE: "average", MAX: "max", MIN: "min"}
AIM = 0.7          # how often a missing bin decides a generated value (the rest stays uniform)


def pdp_coverage() -> Covergroup:
    sizes = range(1, 9)
    return Covergroup("top_pdp", "PDP", {
        "kernel width": tuple(f"kernel width {k}" for k in sizes),
        "kernel height": tuple(f"kernel height {k}" for k in sizes),
        "stride x": (*(f"stride x {s}" for s in sizes), "stride x 9-16"),
        "stride y": (*(f"stride y {s}" for s in sizes), "stride y 9-16"),
        "pads": ("pad left", "pad right", "pad top", "pad bottom", "no padding"),
        "method": tuple(METHODS.values()),
        "split width": ("no split", "split 2 bands", "split 3+ bands"),
        "input": ("from memory", "on the fly"),
        "register group": ("group 0", "group 1"),
        "cube": ("C % 8 != 0", "several surfaces")})


def sample(cov: Covergroup, cfg: PdpConfig, group: int) -> None:
    """One layer the RTL ran and the bench scored against the model."""
    pads = (cfg.pad_left, cfg.pad_right, cfg.pad_top, cfg.pad_bottom)
    cov.sample({f"kernel width {cfg.kernel_width}": True, f"kernel height {cfg.kernel_height}": True,
                f"stride x {cfg.stride_width if cfg.stride_width <= 8 else '9-16'}": True,
                f"stride y {cfg.stride_height if cfg.stride_height <= 8 else '9-16'}": True,
                "pad left": pads[0] > 0, "pad right": pads[1] > 0, "pad top": pads[2] > 0,
                "pad bottom": pads[3] > 0, "no padding": not any(pads),
                METHODS.get(cfg.method, "?"): True,
                "no split": cfg.split_num == 0, "split 2 bands": cfg.split_num == 1,
                "split 3+ bands": cfg.split_num >= 2,
                "on the fly": cfg.flying, "from memory": not cfg.flying, f"group {group}": True,
                "C % 8 != 0": cfg.channels % ATOM != 0, "several surfaces": cfg.channels > ATOM})


def aimed(rng: random.Random, missing: Sequence[str], point: str, lo: int, hi: int) -> int:
    """A value in [lo, hi] for `point` ("kernel width", "stride x", ...): mostly one whose bin is missing."""
    wanted = [int(b.rsplit(" ", 1)[1]) for b in missing
              if b.startswith(point + " ") and b.rsplit(" ", 1)[1].isdigit()]
    wanted = [v for v in wanted if lo <= v <= hi]
    if wanted and rng.random() < AIM:
        return rng.choice(wanted)
    return rng.randint(lo, hi)
