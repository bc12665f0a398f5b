"""The shared pieces of the Limitation-rule cases (tests/model/test_limitations.py): a case, its baseline
register fields, the error check."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np
import pytest

from models.errors import ConfigError
from models.lut.model import LINEAR
from models.registers import decode_fields, encode_fields, reset_values

Spec = Mapping[str, Mapping[str, int]]
"""unit -> "REG.FIELD" -> value as stored (unsigned)."""

LUT_TABLES = (np.zeros(65, dtype=np.int16), np.zeros(257, dtype=np.int16))


def u(value: int, bits: int) -> int:
    """A signed value as the unsigned field that stores it."""
    return value & ((1 << bits) - 1)


def full_fields(spec: Spec) -> dict[str, dict[str, int]]:
    """Every field of every register of each unit: reset values with the spec's fields encoded into them."""
    out: dict[str, dict[str, int]] = {}
    for unit, fields in spec.items():
        regs = {**reset_values(unit), **encode_fields(unit, fields)}
        out[unit] = decode_fields(unit, regs)
    return out


def with_changes(spec: Spec, changes: Mapping[str, int]) -> dict[str, dict[str, int]]:
    """The spec with `changes` ("UNIT:REG.FIELD" -> value) applied, still one field per key."""
    out = {unit: dict(fields) for unit, fields in spec.items()}
    for key, value in changes.items():
        unit, name = key.split(":", 1)
        out.setdefault(unit, {})[name] = value
    return out


@dataclass(frozen=True)
class Case:
    """One broken rule: the baseline it starts from, the fields it changes, the error it expects."""

    id: str
    base: str
    changes: Mapping[str, int]
    rule: str
    """A piece of ConfigError.rule: the seed's wording of the rule."""
    values: Mapping[str, int] = field(default_factory=dict)
    """Entries ConfigError.values must hold (the offending values)."""
    raw: Mapping[str, int] = field(default_factory=dict)
    """"UNIT:REG.FIELD" set after decoding: values no register field can hold (wider than the field)."""


def case_fields(case: Case, baselines: Mapping[str, Spec]) -> dict[str, dict[str, int]]:
    fields = full_fields(with_changes(baselines[case.base], case.changes))
    for key, value in case.raw.items():
        unit, name = key.split(":", 1)
        fields[unit][name] = value
    return fields


def expect_error(run: Callable[[Mapping[str, Mapping[str, int]]], object], case: Case,
                 baselines: Mapping[str, Spec]) -> None:
    fields = case_fields(case, baselines)
    with pytest.raises(ConfigError) as err:
        run(fields)
    assert case.rule in err.value.rule, f"raised {err.value.rule!r}, expected a rule naming {case.rule!r}"
    assert case.rule in str(err.value)
    for name, value in case.values.items():
        assert err.value.values.get(name) == value, f"{name}: {err.value.values}"


def params(cases: tuple[Case, ...]) -> list[object]:
    return [pytest.param(c, id=c.id) for c in cases]


def lut_fields(unit: str, *, function: int = LINEAR, le_offset: int = 0, le_select: int = 0,
               lo_select: int = 0, le_start: int = 0, le_end: int = 64, lo_start: int = -128,
               lo_end: int = 128) -> dict[str, int]:
    """S_LUT_* fields of `unit` from signed values; the defaults are valid for both units (linear LE over
    [0, 64) and LO over [-128, 128), both with select 0). CDP splits START/END into 32 + 6 bits."""
    fields = {"S_LUT_CFG.LUT_LE_FUNCTION": function, "S_LUT_CFG.LUT_UFLOW_PRIORITY": 1,
              "S_LUT_CFG.LUT_OFLOW_PRIORITY": 1, "S_LUT_INFO.LUT_LE_INDEX_OFFSET": u(le_offset, 8),
              "S_LUT_INFO.LUT_LE_INDEX_SELECT": u(le_select, 8),
              "S_LUT_INFO.LUT_LO_INDEX_SELECT": u(lo_select, 8)}
    ends = (("LE_START", le_start), ("LE_END", le_end), ("LO_START", lo_start), ("LO_END", lo_end))
    for reg, value in ends:
        if unit == "SDP":
            fields[f"S_LUT_{reg}.LUT_{reg}"] = u(value, 32)
        else:
            fields[f"S_LUT_{reg}_LOW.LUT_{reg}_LOW"] = u(value, 32)
            fields[f"S_LUT_{reg}_HIGH.LUT_{reg}_HIGH"] = u(value, 38) >> 32
    return fields


def lut_changes(unit: str, **values: int) -> dict[str, int]:
    """Changes that reprogram every S_LUT_* field of `unit` (only the named values differ)."""
    return {f"{unit}:{name}": value for name, value in lut_fields(unit, **values).items()}


