"""A batch of layers in one cocotb test where a failure stays local.

A failing layer (a wrong byte, a missing interrupt, a model error) is recorded with its description, the
DUT is reset, and the batch goes on; `finish()` then fails the test listing every failed layer. After each
layer the count checked so far is recorded for the summary table (tb/outcome.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar

from cocotb.handle import SimHandleBase
from cocotb.triggers import ClockCycles

from tb import outcome

T = TypeVar("T")
L = TypeVar("L")


class LayerCoverage(Protocol[L]):
    """What the covering loop needs of a coverage collector (tb/funcov.py Covergroup users)."""
    def missing(self) -> list[str]: ...
    def add(self, layer: L) -> None: ...
    def summary(self) -> str: ...


class Batch:
    def __init__(self, dut: SimHandleBase, noun: str = "layers",
                 after_reset: Callable[[], Awaitable[None]] | None = None) -> None:
        self.dut = dut
        self.noun = noun
        self.after_reset = after_reset
        self.ran = 0
        self.failures: list[str] = []
        # The register group the next layer is programmed into: a layer that completes flips the
        # CONSUMER pointers of its units, a reset puts them back to 0.
        self.group = 0

    async def run(self, label: str, layer: Awaitable[T]) -> T | None:
        """Await one layer; on any exception record it under `label`, reset the DUT and return None."""
        try:
            result: T | None = await layer
            self.group ^= 1
        except Exception as err:  # noqa: BLE001 - one layer's failure of any kind must not end the batch
            detail = f"{type(err).__name__}: {err}".split("\n")[0]  # pytest's assertion rewrite adds lines
            # scoring messages often start with the label already: say it once
            self.failures.append(detail if str(err).startswith(label) else f"{label}: {detail}")
            self.dut._log.error("FAILED %s: %s", label, err)
            await self.reset()
            result = None
        self.ran += 1
        outcome.checked(self.ran, self.noun)
        return result

    async def run_covering(self, cov: LayerCoverage[L], count: int, goals: bool, draw: Callable[[int], L],
                           run: Callable[[L, str], Awaitable[int]], describe: Callable[[L], str]) -> int:
        """Layers `draw(i)` run by `run(layer, label)`: the planned `count`, then, while `goals` holds and a
        coverage goal is still missing, more (bounded at four times `count`: small random cubes miss one
        now and then). A layer that passes is added to `cov`; the batch fails at the end listing every
        failed layer. Returns the number of layers run."""
        i = 0
        while i < count or (goals and cov.missing() and i < 4 * count):
            layer = draw(i)
            label = f"layer {i}"
            cycles = await self.run(f"{label} ({describe(layer)})", run(layer, label))
            if cycles is not None:
                cov.add(layer)
                self.dut._log.info("layer %d ok in %d cycles: %s", i, cycles, describe(layer))
            i += 1
        self.dut._log.info("%d layers, coverage: %s", i, cov.summary())
        self.finish()
        return i

    async def reset(self) -> None:
        """Back to a clean DUT after a failed layer (a hung unit, half-written registers)."""
        self.dut.rst_n.value = 0
        await ClockCycles(self.dut.clk, 3)
        self.dut.rst_n.value = 1
        await ClockCycles(self.dut.clk, 2)
        self.group = 0
        if self.after_reset is not None:
            await self.after_reset()

    def finish(self) -> None:
        """Fail the test if any layer failed, listing every one of them."""
        assert not self.failures, (f"{len(self.failures)} of {self.ran} {self.noun} failed:\n  "
                                   + "\n  ".join(self.failures))
