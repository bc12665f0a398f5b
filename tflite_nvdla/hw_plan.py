"""A mapped operator as steps (models/steps.py MemWrite / RegWrite / WaitInterrupt, the steps every trace
and benchmark is made of), run by the one executor (models/executor.py) on a target: the model's
ModelTarget, or the RTL (tb/tests/test_tflite_rtl.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from models import executor
from models.common.cube import CubeLayout
from models.common.driver import Surface, run_atom_bytes
from models.executor import Target
from models.steps import MemWrite, RegWrite, WaitInterrupt

Step = MemWrite | RegWrite | WaitInterrupt
# Where cubes go in the primary memory: each operator's cubes get their own region.
REGION_BYTES = 1 << 22
INPUT_BASES = (0, REGION_BYTES, 3 * REGION_BYTES)   # the third: per-kernel operands (constants)
OUTPUT_BASE = 2 * REGION_BYTES
SCRATCH_BASE = 4 * REGION_BYTES                      # an intermediate cube between two layers


class ShapeError(ValueError):
    """A tensor shape the subsystem's cube cannot hold (the message says why)."""


def cube_dims(shape: Sequence[int]) -> tuple[int, int, int]:
    """(channels, height, width) of an NHWC tensor with N = 1; other ranks: channels = last dimension,
    everything before it one line (element-wise operators do not care where an element sits)."""
    if len(shape) == 4:
        if shape[0] != 1:
            raise ShapeError(f"batch {shape[0]}: the mapping runs batch 1")
        return shape[3], shape[1], shape[2]
    if not shape:
        return 1, 1, 1
    width = int(np.prod(shape[:-1])) if len(shape) > 1 else 1
    return shape[-1], 1, width


def to_cube(tensor: NDArray[np.integer]) -> NDArray[np.int64]:
    c, h, w = cube_dims(tensor.shape)
    return np.asarray(tensor, dtype=np.int64).reshape(h, w, c).transpose(2, 0, 1)


def from_cube(cube: NDArray[np.integer], shape: Sequence[int]) -> NDArray[np.int8]:
    return np.ascontiguousarray(np.asarray(cube).transpose(1, 2, 0)).reshape(shape).astype(np.int8)


def packed(base: int, dims: tuple[int, int, int]) -> CubeLayout:
    c, h, w = dims
    layout = CubeLayout.packed(base, w, h, c, run_atom_bytes())
    if layout.extent()[1] - base > REGION_BYTES:
        raise ShapeError(f"cube {c}x{h}x{w} needs more than the {REGION_BYTES >> 20} MB a tensor gets here")
    return layout


def surface(layout: CubeLayout) -> Surface:
    return Surface(layout.base, layout.line_stride, layout.surface_stride)


class _Recorder:
    """A ByteMemory that records CubeLayout.write's line writes as MemWrite steps."""

    def __init__(self) -> None:
        self.steps: list[Step] = []

    def read(self, addr: int, n: int) -> NDArray[np.uint8]:
        raise NotImplementedError("the recorder only records writes")

    def write(self, addr: int, data: NDArray[np.uint8]) -> None:
        self.steps.append(MemWrite(0, addr, np.array(data, dtype=np.uint8)))


def cube_writes(layout: CubeLayout, cube: NDArray[np.integer]) -> list[Step]:
    rec = _Recorder()
    layout.write(rec, cube)
    return rec.steps


@dataclass
class HwPlan:
    """One operator on the subsystem: steps (inputs into memory, then each layer's writes and its
    interrupt), the output cube and the TFLite shape it is read back into."""

    steps: list[Step]
    output: CubeLayout
    out_shape: tuple[int, ...]
    layout: str
    layers: int = 0
    notes: list[str] = field(default_factory=list)


def layer_steps(writes: Sequence[RegWrite], unit: str, where: str) -> list[Step]:
    group = next(w.value for w in writes if w.reg == "S_POINTER") & 1
    return [*writes, WaitInterrupt(unit, group, where)]


def run_cube(target: Target, plan: HwPlan) -> NDArray[np.int8]:
    """Run the steps on a target (one that answers at once: the model) and read the output cube [c, h, w]
    back."""
    out = executor.run(plan.steps, target)
    if out.message:
        raise RuntimeError(out.message)
    return plan.output.read(_TargetMemory(target))  # type: ignore[return-value]


def run_plan(target: Target, plan: HwPlan) -> NDArray[np.int8]:
    """Run the steps on a target and read the output tensor back."""
    return from_cube(run_cube(target, plan), plan.out_shape)


@dataclass
class _TargetMemory:
    target: Target

    def read(self, addr: int, n: int) -> NDArray[np.uint8]:
        return self.target.mem_read(0, addr, n)

    def write(self, addr: int, data: NDArray[np.uint8]) -> None:
        self.target.mem_write(0, addr, data)
