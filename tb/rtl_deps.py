"""The RTL dependency graph: which Verilog files a module needs. One implementation for lint and synthesis
(scripts/rtl_check.py) and for the bench registry (tb/benches.py), which derives each bench's source list
from its toplevel.

Every file under rtl/ and tb/hdl/ holds one module named like the file (tb/hdl holds the simulation-only
wrappers and models, which may instantiate rtl/ modules but never the reverse). A module's files are itself
and every project module it instantiates, transitively; its headers are the files it, or any of those,
`include`s, found in INCLUDE_DIRS (a header change must rebuild a bench, though a header is no source).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RTL_DIR = "rtl"
SIM_DIR = "tb/hdl"
# `include search path (generated headers such as rtl/gen/nvdla_csb_map.vh), repo-relative
INCLUDE_DIRS = ("rtl/gen", "rtl/include")

_INSTANCE = re.compile(r"^\s*([A-Za-z_]\w*)\s*(?:#\s*\(|[A-Za-z_]\w*\s*\()", re.M)
_INCLUDE = re.compile(r'^\s*`include\s+"([^"]+)"', re.M)


def verilog_files(*dirs: str) -> list[Path]:
    """Repo-relative .v files under the given directories, sorted."""
    return sorted(p.relative_to(ROOT) for d in dirs for p in (ROOT / d).rglob("*.v"))


def module_names(files: list[Path]) -> dict[str, Path]:
    """Module name -> its file (one module per file, named like the file)."""
    return {f.stem: f for f in files}


def _text(path: Path) -> str:
    return (ROOT / path).read_text()


def instantiated(path: Path, modules: dict[str, Path]) -> set[str]:
    """Names of the project modules that the module in `path` instantiates."""
    found = _INSTANCE.findall(_text(path))
    return {name for name in found if name in modules and name != path.stem}


def included(path: Path) -> list[Path]:
    """The headers `path` includes, found in INCLUDE_DIRS (repo-relative). A missing header is an error:
    a build would fail on it anyway, later and less clearly."""
    headers = []
    for name in _INCLUDE.findall(_text(path)):
        hits = [Path(d) / name for d in INCLUDE_DIRS if (ROOT / d / name).is_file()]
        if not hits:
            raise FileNotFoundError(f"{path}: `include \"{name}\" is in none of {', '.join(INCLUDE_DIRS)}")
        headers.append(hits[0])
    return headers


def dependencies(top: str, modules: dict[str, Path]) -> list[Path]:
    """The files a module needs: itself and everything it instantiates, transitively."""
    if top not in modules:
        raise KeyError(f"no module {top!r} (one module per file, named like the file)")
    seen, todo = {top}, [top]
    while todo:
        for child in instantiated(modules[todo.pop()], modules):
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return sorted(modules[name] for name in seen)


def headers(files: list[Path]) -> list[Path]:
    """Every header the files include (headers including headers too)."""
    seen: set[Path] = set()
    todo = [h for f in files for h in included(f)]
    while todo:
        h = todo.pop()
        if h not in seen:
            seen.add(h)
            todo.extend(included(h))
    return sorted(seen)


def top_modules(modules: dict[str, Path]) -> list[str]:
    """Modules no other module instantiates: the ones synthesis must start from."""
    used = set().union(*(instantiated(path, modules) for path in modules.values()))
    return [m for m in modules if m not in used]


@functools.cache
def _all_modules() -> dict[str, Path]:
    """rtl/ and tb/hdl/ together; a name defined in both is an error (one module, one file)."""
    rtl, sim = module_names(verilog_files(RTL_DIR)), module_names(verilog_files(SIM_DIR))
    twice = sorted(set(rtl) & set(sim))
    if twice:
        raise ValueError(f"modules defined in both {RTL_DIR}/ and {SIM_DIR}/: {twice}")
    return {**rtl, **sim}


@functools.cache
def sources_of(top: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(Verilog sources, included headers) of a simulation toplevel in rtl/ or tb/hdl/, repo-relative."""
    files = dependencies(top, _all_modules())
    return tuple(map(str, files)), tuple(map(str, headers(files)))
