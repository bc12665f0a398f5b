"""Netlist plumbing for scripts/fpga.py: unit wrappers cut out of the top's RTLIL, and the per-module mapped
netlists (Yosys JSON, each module as \\m0 with its sub-modules as black boxes \\m1..) joined into one
hierarchical netlist that nextpnr reads (its JSON front end flattens the hierarchy itself)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

_CELL = re.compile(r"^  cell (\S+) (\S+)$")


def slug(unit: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", unit).strip("_").lower()


def instances(lines: list[str]) -> list[tuple[str, str]]:
    """(instance name, cell type) of every cell of an RTLIL module."""
    return [(m.group(2), m.group(1)) for m in map(_CELL.match, lines) if m]


def without_cells(lines: list[str], drop: set[str]) -> list[str]:
    """An RTLIL module's lines without the named cells (each with the attribute lines just above it)."""
    out: list[str] = []
    skipping = False
    for line in lines:
        if skipping:
            skipping = line != "  end"
            continue
        m = _CELL.match(line)
        if m and m.group(2) in drop:
            while out and out[-1].startswith("  attribute "):
                out.pop()
            skipping = True
            continue
        out.append(line)
    return out


def keep_cells(lines: list[str]) -> list[str]:
    """An RTLIL module's lines with every cell marked `keep`."""
    out: list[str] = []
    for line in lines:
        if _CELL.match(line):
            out.append("  attribute \\keep 1")
        out.append(line)
    return out


def subtree(root: str, children: dict[str, dict[str, int]]) -> list[str]:
    seen: list[str] = []
    stack = [root]
    while stack:
        name = stack.pop()
        if name not in seen:
            seen.append(name)
            stack.extend(children[name])
    return seen


def join(root: str, netlists: dict[str, Path], children: dict[str, dict[str, int]], base: Path,
         out: Path) -> None:
    """One Yosys JSON netlist of `root` and every module under it, each module named n<index>."""
    names = subtree(root, children)
    unique = {name: f"n{i}" for i, name in enumerate(names)}
    joined: dict[str, Any] = {}
    for name in names:
        data = json.loads((base / netlists[name]).read_text())
        alias = {"m0": unique[name], **{f"m{i + 1}": unique[c] for i, c in enumerate(children[name])}}
        body = data["modules"]["m0"]
        for cell in body.get("cells", {}).values():
            cell["type"] = alias.get(cell["type"], cell["type"])
        attrs = dict(body.get("attributes", {}))
        attrs.pop("top", None)
        if name == root:
            attrs["top"] = "00000000000000000000000000000001"
        body["attributes"] = attrs
        joined[unique[name]] = body
    out.write_text(json.dumps({"creator": "scripts/fpga_netlist.py", "modules": joined}))
