"""The C++ loop's program (tb/cpp_program.py) checks the whole output span at every precision: a wrong last
byte of an FP16 layer's output is a failed check (the program's dump used to leave out the element size and
missed half of the last line at INT16/FP16). No simulator: the model runs the layer, the "RTL memory" is the
model's with one byte changed, and the dump is what the program's D line names."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from models import executor
from models.configs import load
from models.pdp.driver import Surface, pdp_layer
from models.steps import MemWrite, RegWrite, Step, WaitInterrupt
from models.subsystem import ModelTarget
from tb.bfm.sim_memory import MemTiming
from tb.cpp_program import ACTUAL, check_output, write_program

SRC, DST = 0x10000, 0x80000


def fp16_layer(size: int) -> tuple[list[Step], ModelTarget]:
    """A max-pooling 2x2/2 layer of a packed FP16 cube size^3, run on the model."""
    atom = load().atom_bytes
    out = size // 2
    line_in, line_out = size * atom, out * atom   # a line is `width` atoms at every precision
    prog = pdp_layer(size, size, size, method="max", kernel=(2, 2), stride=(2, 2),
                     src=Surface(SRC, line_in, line_in * size), dst=Surface(DST, line_out, line_out * out),
                     precision="FP16")
    rng = np.random.default_rng(5)
    data = (rng.standard_normal(size ** 3) * 4).astype("<f2").view(np.uint8)
    steps: list[Step] = [MemWrite(0, SRC, data), *(RegWrite(*w) for w in prog.writes),
                         WaitInterrupt("PDP", prog.group, "fp16 layer")]
    model = ModelTarget()
    assert executor.run(steps, model).passed
    return steps, model


def loop_dump(program: Path, memory: ModelTarget, corrupt: int | None) -> None:
    """Play the program's D line as the loop would, on `memory` with the byte at `corrupt` changed."""
    d = next(line.split() for line in program.read_text().splitlines() if line.startswith("D "))
    addr, size = int(d[1], 16), int(d[2], 16)
    got = memory.mem_read(0, addr, size).copy()
    if corrupt is not None and addr <= corrupt < addr + size:
        got[corrupt - addr] ^= 0x01
    Path(d[3]).write_bytes(got.tobytes())
    assert Path(d[3]).name == ACTUAL


@pytest.mark.configuration("nv_full")
def test_last_byte_of_fp16_output_is_checked(tmp_path: Path) -> None:
    steps, model = fp16_layer(16)
    layout = model.runs[-1].layout
    assert layout is not None and layout.elem_bytes == 2
    program = write_program(tmp_path / "fp16", steps, model, MemTiming())
    loop_dump(program, model, None)
    assert check_output(program.parent) == "ok"
    last = layout.extent()[1] - 1   # the last byte of the output cube
    loop_dump(program, model, last)
    assert "output differs from the model" in check_output(program.parent)
