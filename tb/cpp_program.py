"""The RTL through the plain Verilator C++ loop (tb/cpp/top_mem_main.cpp) as a target of the executor: the
steps of a layer become the loop's program (its format: the header of top_mem_main.cpp), which
scripts/benchmark_cpp.py builds the loop for and plays; `check_output` compares what the loop dumped with the
model's bytes.

The output the loop dumps and the model's bytes it is compared with are the whole span of the layer's output
cube (models/common/cube.py CubeLayout.extent: every surface, line and element byte, two bytes an element at
INT16/FP16).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from models import configs
from models.executor import run
from models.regfile import intr_bit
from models.steps import Step, StepError
from models.subsystem import ModelTarget
from tb.bfm.sim_memory import MemTiming

PROGRAM = "program.txt"
EXPECTED = "expected.bin"   # the model's bytes of the output span
ACTUAL = "actual.bin"       # what the loop dumps of it


def csb_address(unit: str, reg: str) -> int:
    return configs.load().csb_address(unit, reg)


class CppProgram:
    """A target that writes what it is asked to do as lines of the loop's program (and the loaded bytes as
    files beside it); the loop cannot read registers or memory back, so checks are not steps of it."""

    def __init__(self, folder: Path, timing: MemTiming) -> None:
        self.folder = folder
        t = timing
        stall = sum(min(255, round(p * 256)) << (8 * i) for i, p in enumerate(t.stall))
        self.lines = [f"C {t.seed:x} {t.rd_lat:x} {t.rd_jit:x} {t.wr_lat:x} {t.wr_jit:x} {stall:x}",
                      f"W {csb_address('GLB', 'S_INTR_MASK'):x} 0 1 0"]   # as BenchTarget.start_case
        self.loads = 0

    def reg_write(self, unit: str, reg: str, value: int) -> None:
        enable = reg == "D_OP_ENABLE"
        self.lines.append(f"W {csb_address(unit, reg):x} {value:x} {int(enable)} "
                          f"{int(enable and bool(value & 1))}")

    def mem_write(self, mem: int, addr: int, data: NDArray[np.uint8]) -> None:
        if mem != 0:
            raise StepError("the C++ loop loads the primary memory only")
        blob = self.folder / f"load{self.loads}.bin"
        self.loads += 1
        blob.write_bytes(np.asarray(data, dtype=np.uint8).tobytes())
        self.lines.append(f"M {addr:x} {blob}")

    def mem_fill(self, mem: int, addr: int, size: int) -> None:
        self.mem_write(mem, addr, np.zeros(size, dtype=np.uint8))

    def mem_read(self, mem: int, addr: int, size: int) -> NDArray[np.uint8]:
        raise StepError("the C++ loop's program cannot read memory back (its output is dumped and compared)")

    def wait_interrupt(self, unit: str, group: int) -> bool:
        status = csb_address("GLB", "S_INTR_STATUS")
        self.lines.append(f"I {status:x} {1 << intr_bit(unit, group):x}")
        return True

    def describe_pending(self) -> str:
        return ""

    def dump(self, first: int, end: int, expected: NDArray[np.uint8]) -> None:
        """Dump [first, end) at the end, to be compared with `expected` (the model's bytes there)."""
        (self.folder / EXPECTED).write_bytes(np.asarray(expected, dtype=np.uint8).tobytes())
        self.lines.append(f"D {first:x} {end - first:x} {self.folder / ACTUAL}")

    def write(self) -> Path:
        program = self.folder / PROGRAM
        program.write_text("\n".join(self.lines) + "\n")
        return program


def write_program(folder: Path, steps: list[Step], model: ModelTarget, timing: MemTiming) -> Path:
    """The layer's steps as a program for the loop, ending with a dump of the output span of the last layer
    the model ran (`model`: it ran the same steps) next to the model's bytes for it."""
    folder.mkdir(parents=True, exist_ok=True)
    program = CppProgram(folder, timing)
    out = run(steps, program)
    if out.message:
        raise StepError(f"{folder.name}: {out.message}")
    run_record = model.runs[-1] if model.runs else None
    if run_record is not None and run_record.layout is not None:
        first, end = run_record.layout.extent()
        program.dump(first, end, model.mem_read(run_record.mem, first, end - first))
    return program.write()


def check_output(folder: Path) -> str:
    """'ok' when the loop's dump of the output span equals the model's bytes, else where it differs."""
    expected, actual = folder / EXPECTED, folder / ACTUAL
    if not expected.exists():
        return "not compared: the layer writes no output"
    want, got = expected.read_bytes(), actual.read_bytes() if actual.exists() else b""
    if want == got:
        return "ok"
    bad = next((i for i, (a, b) in enumerate(zip(want, got, strict=False)) if a != b),
               min(len(want), len(got)))
    return f"output differs from the model, first at byte {bad} of {len(want)} (dumped {len(got)})"
