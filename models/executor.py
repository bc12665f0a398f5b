"""The one executor of steps (models/steps.py) and the interface of the targets it runs them on.

`execute(steps, target)` is a coroutine, so that the RTL through cocotb (whose register accesses and waits
take simulated time) and the model (which answers at once) are run by the same code: a target's method may
return a value or an awaitable. `run(steps, target)` drives it for a target that never suspends (the model,
a program writer) without an event loop.

A target (`Target`):
    reg_write(unit, reg, value)            a CSB write
    reg_read(unit, reg) -> int             a CSB read (optional: a RegRead on a target without it fails)
    mem_fill(mem, addr, size)              zero bytes
    mem_write(mem, addr, data)             load bytes
    mem_read(mem, addr, size) -> uint8[]   read bytes back (for the checks)
    wait_interrupt(unit, group) -> bool    wait for a done interrupt and clear it; False: it never came
    describe_pending() -> str              why a wait may have failed (what is still running)
    pause(cycles)                          optional: let the design run between two reads of a poll
A step the target cannot run raises StepError, which stops the run with its message; a check whose memory
the target cannot read (StepError from mem_read) is a failed check.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import numpy as np
from numpy.typing import NDArray

from models.steps import (
    CheckCrc,
    Locator,
    MemCheck,
    MemFill,
    MemWrite,
    RegRead,
    RegWrite,
    Step,
    StepError,
    WaitInterrupt,
    crc_failure,
    mem_failure,
    read_failure,
)

POLL_CYCLES = 16   # between two reads of a polled RegRead (NVIDIA's player polls read_reg likewise)
T = TypeVar("T")


class Target(Protocol):
    """What the executor needs from a design (see the module docstring); methods may be coroutines."""

    def reg_write(self, unit: str, reg: str, value: int) -> Any: ...
    def mem_fill(self, mem: int, addr: int, size: int) -> Any: ...
    def mem_write(self, mem: int, addr: int, data: NDArray[np.uint8]) -> Any: ...
    def mem_read(self, mem: int, addr: int, size: int) -> Any: ...
    def wait_interrupt(self, unit: str, group: int) -> Any: ...
    def describe_pending(self) -> str: ...


@dataclass
class Outcome:
    """What a run of steps found: one entry per check made ('' when it passed), and what stopped it."""

    checks: list[str] = field(default_factory=list)
    error: str = ""

    @property
    def failures(self) -> list[str]:
        return [c for c in self.checks if c]

    @property
    def message(self) -> str:
        """What stopped the run, else the first failed check, else ''."""
        return self.error or next(iter(self.failures), "")

    @property
    def passed(self) -> bool:
        return not self.message


async def _value(result: T | Awaitable[T]) -> T:
    return await result if inspect.isawaitable(result) else result  # type: ignore[return-value]


async def _read(target: Target, mem: int, addr: int, size: int) -> NDArray[np.uint8]:
    return np.asarray(await _value(target.mem_read(mem, addr, size)), dtype=np.uint8)


async def _poll(target: Target, step: RegRead) -> str:
    reader = getattr(target, "reg_read", None)
    if reader is None:
        return f"{step.where}: this target cannot read registers"
    pause = getattr(target, "pause", None)
    for attempt in range(step.retries + 1):
        value = await _value(reader(step.unit, step.reg))
        if not read_failure(step, value) or attempt == step.retries or pause is None:
            break
        await _value(pause(POLL_CYCLES))
    return read_failure(step, value)


async def _check(target: Target, step: Step, locate: Locator | None) -> str:
    try:
        if isinstance(step, RegRead):
            return await _poll(target, step)
        if isinstance(step, MemCheck):
            return mem_failure(step, await _read(target, step.mem, step.addr, step.data.size), locate)
        assert isinstance(step, CheckCrc)
        return crc_failure(step, await _read(target, step.mem, step.base, step.size), locate)
    except StepError as err:
        return f"{getattr(step, 'where', '')}: {err}"


async def execute(steps: Iterable[Step], target: Target, *, locate: Locator | None = None,
                  after_wait: Callable[[WaitInterrupt], Any] | None = None,
                  stop_on_failure: bool = False) -> Outcome:
    """Run the steps in order. locate: explains a failed CRC or memory image (a `.txn` dump_mem);
    after_wait(step): a check after each interrupt (a benchmark scores its layer against the model), its ''
    or message counted as a check; stop_on_failure: stop at the first failed check (a replay that reports
    one failure) instead of making every check."""
    out = Outcome()
    try:
        for step in steps:
            if isinstance(step, RegWrite):
                await _value(target.reg_write(step.unit, step.reg, step.value))
            elif isinstance(step, MemWrite):
                await _value(target.mem_write(step.mem, step.addr, step.data))
            elif isinstance(step, MemFill):
                await _value(target.mem_fill(step.mem, step.addr, step.size))
            elif isinstance(step, WaitInterrupt):
                if not await _value(target.wait_interrupt(step.unit, step.group)):
                    pending = target.describe_pending()
                    out.error = (f"{step.where}: {step.unit}_{step.group} never raised"
                                 + (f" ({pending})" if pending else ""))
                    return out
                if after_wait is not None:
                    out.checks.append(await _value(after_wait(step)))
            else:
                out.checks.append(await _check(target, step, locate))
            if stop_on_failure and out.checks and out.checks[-1]:
                return out
    except StepError as err:
        out.error = str(err)
    return out


def run(steps: Iterable[Step], target: Target, **options: Any) -> Outcome:
    """execute() on a target that answers at once (the model, a program writer), without an event loop."""
    coro = execute(steps, target, **options)
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    coro.close()
    raise RuntimeError("the target suspended: run it with `await execute(...)` under its event loop")
