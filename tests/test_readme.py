"""The README is a front door: short, and its feature table says what configs/*.json say."""

from __future__ import annotations

from pathlib import Path

import pytest

from models import configs

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
MAX_LINES = 160


def feature_rows() -> dict[str, list[str]]:
    """configuration -> the cells of its row in the README's "What runs where" table."""
    text = README.read_text().split("## What runs where", 1)[1]
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| nv_"):
            rows[cells[0].removesuffix(" (default)")] = cells
    return rows


def test_readme_is_short() -> None:
    lines = len(README.read_text().splitlines())
    assert lines <= MAX_LINES, f"README.md has {lines} lines; the details belong in docs/"


@pytest.mark.parametrize("name", configs.names())
def test_feature_table_matches_the_configuration(name: str) -> None:
    rows = feature_rows()
    assert name in rows, f"configuration {name} has no row in README.md's feature table"
    cfg = configs.load(name)
    _, bus, conv, sdp, pdp, cdp, bdma, second, precisions = rows[name]
    assert bus == f"{cfg.atom_bytes} B / {cfg.bus_bytes * 8}-bit"
    assert conv == f"{cfg.conv.atomic_c} x {cfg.conv.atomic_k}, {cfg.conv.cbuf_bytes // 1024} KiB"
    blocks = ["BS", "BN", *(["EW"] if cfg.sdp.ew else []), *(["LUT"] if cfg.sdp.lut else [])]
    assert sdp == ", ".join(blocks)
    assert (pdp, cdp) == ("yes", "yes")
    assert bdma == f"{'yes' if cfg.bdma else '-'}" + (", yes" if cfg.rubik else "")
    assert second == ("yes" if cfg.second_memory else "-")
    assert precisions == ", ".join(cfg.precisions)


def test_generated_pages_name_their_command() -> None:
    for page, command in (("benchmarks.md", "python -m scripts.gen_benchmark_docs"),
                          ("tflite.md", "make tflite-report")):
        text = (ROOT / "docs" / page).read_text()
        assert command in text.split("\n\n", 2)[1], f"docs/{page} does not name {command!r} at its top"
