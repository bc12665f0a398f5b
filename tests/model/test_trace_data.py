"""The in-repo copy of NVIDIA's trace tests (traces/) is byte for byte what traces/manifest.tsv records."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

TRACES = Path(__file__).resolve().parents[2] / "traces"
MANIFEST = TRACES / "manifest.tsv"


def _rows() -> list[list[str]]:
    if not MANIFEST.is_file():
        return []
    lines = MANIFEST.read_text().splitlines()
    return [line.split("\t") for line in lines if line and not line.startswith("#")]


def _git_blob_sha1(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


ROWS = _rows()


@pytest.mark.skipif(not ROWS, reason=f"no trace manifest at {MANIFEST}")
@pytest.mark.parametrize("row", ROWS, ids=[r[0] for r in ROWS])
def test_trace_file_matches_manifest(row: list[str]) -> None:
    path, sha1, _branch, commit, source = row
    data = (TRACES / path).read_bytes()
    assert _git_blob_sha1(data) == sha1, f"traces/{path} differs from nvdla/hw {commit[:10]}:{source}"


@pytest.mark.skipif(not ROWS, reason=f"no trace manifest at {MANIFEST}")
def test_every_trace_file_is_listed() -> None:
    listed = {r[0] for r in ROWS}
    on_disk = {str(p.relative_to(TRACES)) for p in TRACES.rglob("*") if p.is_file()
               and p.parent != TRACES}
    assert on_disk == listed, f"unlisted: {sorted(on_disk - listed)}; missing: {sorted(listed - on_disk)}"
