"""The trace bench's sample of a long reference series (tb/trace_rtl.py regression_sample): outside the
nightly, REGRESSION_SAMPLE's count of the series with every kind's equal share, the same programs for the same
seed; in the nightly, every program; other traces always kept."""

from __future__ import annotations

import random
from pathlib import Path

from tb.trace_rtl import REGRESSION_SAMPLE, regression_sample

KINDS = ("basic", "odd", "wide", "deep", "pad", "stride", "dilation", "kernel")


def _series(root: Path, n: int) -> list[Path]:
    folders = []
    for i in range(n):
        folder = root / "nv_full_ref" / "conv" / f"conv_s27_{i:03d}"
        folder.mkdir(parents=True)
        (folder / "input.txn").write_text(f"# seed = 27\n# kind = {KINDS[i % len(KINDS)]}\nwait\n")
        folders.append(folder)
    other = root / "nv_full_ref" / "int8" / "pdp_s17_000"
    other.mkdir(parents=True)
    (other / "input.txn").write_text("wait\n")
    return [*folders, other]


def test_sample_keeps_each_kind_and_the_other_traces(tmp_path: Path) -> None:
    folders = _series(tmp_path, 208)
    kept, left_out = regression_sample(folders, random.Random(1), whole=False)
    conv = [f for f in kept if f.parent.name == "conv"]
    assert len(conv) == REGRESSION_SAMPLE["conv"]
    assert len(left_out["conv"]) == 208 - len(conv)
    per_kind = {k: sum(1 for f in conv if f"# kind = {k}\n" in (f / "input.txn").read_text()) for k in KINDS}
    assert set(per_kind.values()) == {REGRESSION_SAMPLE["conv"] // len(KINDS)}, per_kind
    assert folders[-1] in kept
    again, _ = regression_sample(folders, random.Random(1), whole=False)
    other, _ = regression_sample(folders, random.Random(2), whole=False)
    assert again == kept and other != kept


def test_nightly_and_short_series_keep_everything(tmp_path: Path) -> None:
    folders = _series(tmp_path, 208)
    assert regression_sample(folders, random.Random(1), whole=True) == (folders, {})
    few = _series(tmp_path / "few", REGRESSION_SAMPLE["conv"])
    assert regression_sample(few, random.Random(1), whole=False) == (few, {})
