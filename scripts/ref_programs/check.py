"""The model against NVIDIA's outputs, program by program, with every difference located: for a program whose
output SDP writes (the conv series), each differing byte of the dump becomes an element (c, h, w) of SDP's
output cube with NVIDIA's value and the model's (`gen_ref_programs.py check`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from models import registers
from models.common.cube import CubeLayout
from models.errors import ConfigError
from models.replay import load_steps, replay_on_own_config, trace_config
from models.steps import MemCheck, MemWrite, RegRead, RegWrite, WaitInterrupt
from models.subsystem import ModelTarget
from models.trace import TraceError


def _sdp_output(writes: list[RegWrite]) -> CubeLayout | None:
    """SDP's output cube as the program's SDP writes place it (None when the program writes no SDP)."""
    values = {w.reg: w.value for w in writes if w.unit == "SDP"}
    if "D_DST_BASE_ADDR_LOW" not in values:
        return None
    f = registers.decode_fields("SDP", values)
    return CubeLayout(f["D_DST_BASE_ADDR_LOW.DST_BASE_ADDR_LOW"], f["D_DST_LINE_STRIDE.DST_LINE_STRIDE"],
                      f["D_DST_SURFACE_STRIDE.DST_SURFACE_STRIDE"], f["D_DATA_CUBE_WIDTH.WIDTH"] + 1,
                      f["D_DATA_CUBE_HEIGHT.HEIGHT"] + 1, f["D_DATA_CUBE_CHANNEL.CHANNEL"] + 1, 32)


def locate(folder: Path, shown: int = 5) -> str:
    """The differing elements of the program's dump: how many, and the first `shown` as (c, h, w) NVIDIA's
    value / the model's (INT8), or the differing bytes' addresses where no SDP cube covers them."""
    steps, _skip = load_steps(folder)
    target = ModelTarget(trace_config(folder, env=False))
    writes = [s for s in steps if isinstance(s, RegWrite)]
    out = []
    for step in steps:
        if isinstance(step, RegWrite):
            target.reg_write(step.unit, step.reg, step.value)
        elif isinstance(step, MemWrite):
            target.mem_write(step.mem, step.addr, step.data)
        elif isinstance(step, WaitInterrupt):
            target.wait_interrupt(step.unit, step.group)
        elif isinstance(step, RegRead):
            got = target.reg_read(step.unit, step.reg)
            if got & step.mask != step.expected & step.mask:
                out.append(f"{step.unit}.{step.reg}: NVIDIA {step.expected:#x}, model {got:#x}")
        elif isinstance(step, MemCheck):
            model = np.asarray(target.mem_read(step.mem, step.addr, step.data.size))
            diff = np.flatnonzero(model != step.data)
            if not diff.size:
                continue
            cube = _sdp_output(writes)
            where = []
            for i in diff[:shown]:
                addr = step.addr + int(i)
                coord = cube.coordinate(addr) if cube is not None else None
                at = f"(c, h, w) = {coord}" if coord is not None else f"{addr:#x} (a gap or padding lane)"
                where.append(f"{at}: NVIDIA {np.int8(step.data[i])}, model {np.int8(model[i])}")
            out.append(f"{diff.size} bytes differ; " + "; ".join(where))
    return " | ".join(out) or "no difference found on a second run"


def check(folders: list[Path]) -> int:
    """Print PASS or the located differences for each program; the number that differ."""
    bad = 0
    for folder in folders:
        res = replay_on_own_config(folder)
        if res.passed:
            print(f"{folder.name}: PASS", flush=True)
            continue
        bad += 1
        try:
            detail = locate(folder) if res.message.startswith(str(folder)) and "differs" in res.message \
                else res.message
        except (TraceError, ConfigError) as err:
            detail = f"{res.message} ({err})"
        print(f"{folder.name}: DIFFERS: {detail}", flush=True)
    print(f"{len(folders) - bad} of {len(folders)} programs bit-exact on the model")
    return bad
