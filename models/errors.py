"""Errors raised by the model's configuration layer."""

from __future__ import annotations

from collections.abc import Mapping


class ConfigError(ValueError):
    """A configuration breaks one of NVDLA's programming rules (seed 001, Limitation section)."""

    def __init__(self, rule: str, values: Mapping[str, int | str]) -> None:
        self.rule = rule
        self.values = dict(values)
        shown = ", ".join(f"{k}={v}" for k, v in self.values.items())
        super().__init__(f"{rule} ({shown})")
