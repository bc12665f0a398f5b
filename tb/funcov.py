"""Functional coverage: the one mechanism every bench uses (coverpoints of named bins, hit counts, a JSON
file per test that scripts/coverage.py merges over the regression and reports per unit).

A `Covergroup` belongs to one unit (SDP, CDP, PDP, LUT, REGS) and holds coverpoints; each coverpoint is a
tuple of bin names. Bin names are unique within a group, so a bench can sample a flat {bin: condition}
dict and steer its generator on `missing()` (bin names, in declaration order). Samples of names that are
not bins are ignored, as a condition the model does not track: a misspelt bin stays a hole, never a pass.

Each test calls `write(test_name)` at its end (also when it fails part-way, via `written`): the file
`funcov-<group>-<test>.json` lands in the current directory, which tb/runner.py makes the run directory.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

FILE_PREFIX = "funcov-"


class Covergroup:
    def __init__(self, name: str, unit: str, points: Mapping[str, Sequence[str]]) -> None:
        self.name, self.unit = name, unit
        self.points: dict[str, tuple[str, ...]] = {p: tuple(bins) for p, bins in points.items()}
        self.hits: dict[str, int] = {}
        self.point_of: dict[str, str] = {}
        for point, bins in self.points.items():
            for b in bins:
                if b in self.point_of:
                    raise ValueError(f"covergroup {name}: bin {b!r} in {self.point_of[b]!r} and {point!r}")
                self.point_of[b] = point
                self.hits[b] = 0

    def hit(self, bin_name: str, condition: bool = True) -> None:
        """Count one hit of `bin_name` when `condition` holds (names that are not bins are ignored)."""
        if condition and bin_name in self.hits:
            self.hits[bin_name] += 1

    def sample(self, flags: Mapping[str, bool]) -> None:
        for bin_name, condition in flags.items():
            self.hit(bin_name, bool(condition))

    @property
    def seen(self) -> set[str]:
        return {b for b, n in self.hits.items() if n}

    def missing(self) -> list[str]:
        return [b for b, n in self.hits.items() if not n]

    def summary(self) -> str:
        per_point = ", ".join(f"{p} {sum(self.hits[b] > 0 for b in bins)}/{len(bins)}"
                              for p, bins in self.points.items())
        return f"{len(self.seen)}/{len(self.hits)} bins ({per_point})"

    def check(self) -> None:
        """Fail the test on any hole (for benches whose generator steers until every bin is hit)."""
        assert not self.missing(), f"coverage holes: {self.missing()}"

    def to_json(self, test: str) -> dict[str, object]:
        return {"group": self.name, "unit": self.unit, "test": test,
                "points": {p: {b: self.hits[b] for b in bins} for p, bins in self.points.items()}}

    def write(self, test: str, directory: Path | None = None) -> Path:
        path = (directory or Path.cwd()) / f"{FILE_PREFIX}{self.name}-{test}.json"
        path.write_text(json.dumps(self.to_json(test), indent=1) + "\n")
        return path

    @contextmanager
    def written(self, test: str) -> Iterator[Covergroup]:
        """`with group.written("test"):` writes the file however the block ends (a failing test still
        contributes what it covered)."""
        try:
            yield self
        finally:
            self.write(test)
