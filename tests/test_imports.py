"""How the Python packages hang together (issue 28): no import cycles, no sys.path edits, no test module
imported by another module.

Imports are read from the source (ast), at any depth: an import inside a function to dodge a cycle is still
a cycle. Imports under `if TYPE_CHECKING:` do not run and do not count.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("models", "tb", "scripts", "tflite_nvdla", "tests")
CYCLE_FREE = ("models", "tb", "scripts", "tflite_nvdla")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def sources() -> dict[str, Path]:
    return {module_name(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _walk(node: ast.AST) -> Iterator[ast.AST]:
    """ast.walk without the bodies of `if TYPE_CHECKING:`."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _type_checking(child):
            for other in child.orelse:
                yield other
                yield from _walk(other)
            continue
        yield child
        yield from _walk(child)


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project modules a module imports (a package's submodule when `from pkg import sub` names one)."""
    out: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in _walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name in known}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                if f"{base}.{alias.name}" in known:
                    out.add(f"{base}.{alias.name}")
                elif base in known:
                    out.add(base)
    out.discard(name)
    return out


def graph() -> dict[str, set[str]]:
    known = sources()
    return {name: imports(name, path, known) for name, path in known.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles() -> None:
    edges = {k: v for k, v in graph().items() if k.split(".")[0] in CYCLE_FREE}
    found = cycles(edges)
    assert not found, "import cycles (an import inside a function counts): " + "; ".join(
        " <-> ".join(c) for c in found)


def test_no_test_module_imported() -> None:
    """A test module (test_*.py) is imported by no other module: what two tests share lives in a library."""
    edges = graph()
    bad = sorted(f"{src} imports {dst}" for src, dsts in edges.items() for dst in dsts
                 if dst.rpartition(".")[2].startswith("test_"))
    assert not bad, "test modules imported by other modules: " + "; ".join(bad)


@pytest.mark.parametrize("pkg", PACKAGES)
def test_no_sys_path_edits(pkg: str) -> None:
    """The packages are declared in pyproject.toml: nothing inserts into sys.path to find them."""
    bad = []
    for path in sorted((ROOT / pkg).rglob("*.py")):
        for node in _walk(ast.parse(path.read_text(), str(path))):
            if (isinstance(node, ast.Attribute) and node.attr == "path" and isinstance(node.value, ast.Name)
                    and node.value.id == "sys"):
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not bad, f"sys.path used in {', '.join(bad)}"


# What each package may not import: the model is pure (no benches, no tools, no TFLite); tflite_nvdla runs
# on the model and takes the RTL runner as an argument (scripts/tflite_rtl.py), never importing the benches.
FORBIDDEN = {"models": ("tb", "scripts", "tflite_nvdla", "tests"), "tflite_nvdla": ("tb", "scripts", "tests")}


@pytest.mark.parametrize("pkg", sorted(FORBIDDEN))
def test_layering(pkg: str) -> None:
    bad = sorted(f"{src} imports {dst}" for src, dsts in graph().items() if src.split(".")[0] == pkg
                 for dst in dsts if dst.split(".")[0] in FORBIDDEN[pkg])
    assert not bad, "; ".join(bad)
