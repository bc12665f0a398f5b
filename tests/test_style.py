"""Project style checks: ruff clean (pyproject.toml holds the rules), no test module imported by another
module, no hand-written source file above 600 lines."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

MAX_LINES = 600
SIZED_DIRS = ("rtl", "models", "tb", "scripts", "tflite_nvdla")
SIZED_SUFFIXES = {".py", ".v", ".vh", ".sv", ".cpp", ".h", ".sh"}
# Hand-written files still above the limit, each with the work that brings it under. A file listed here that
# is no longer too long fails the check too, so the list only shrinks.
OVERSIZED: dict[str, str] = {}


def test_ruff_clean() -> None:
    proc = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "."], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def all_test_modules() -> list[Path]:
    """Every cocotb test module (tb/tests/test_*.py) and pytest module (tests/**/test_*.py)."""
    return sorted([*ROOT.glob("tb/tests/test_*.py"), *ROOT.glob("tests/**/test_*.py")])


def imported_modules(path: Path) -> set[str]:
    """Dotted names of every module `path` imports (anywhere in it), relative imports resolved; for
    `from package import name` also package.name when that is a module file."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                base = ".".join([*parts, base] if base else parts)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names
                         if (ROOT / Path(*base.split("."), alias.name).with_suffix(".py")).exists())
    return found


def is_test_module(dotted: str) -> bool:
    return dotted.rsplit(".", 1)[-1].startswith("test_") and dotted.split(".")[0] in ("tb", "tests")


def test_no_test_module_imports_another() -> None:
    """Test files are never libraries: shared code lives in tb/ (non-test modules) or models/."""
    bad = [f"{path.relative_to(ROOT)} imports {name}" for path in all_test_modules()
           for name in sorted(imported_modules(path)) if is_test_module(name)]
    assert not bad, "test modules importing test modules (move the shared code into a library):\n" + \
        "\n".join(bad)


def test_no_test_module_imported_by_a_library() -> None:
    libraries = [p for d in ("tb", "models", "scripts") for p in (ROOT / d).rglob("*.py")
                 if not p.name.startswith("test_")]
    bad = [f"{path.relative_to(ROOT)} imports {name}" for path in libraries
           for name in sorted(imported_modules(path)) if is_test_module(name)]
    assert not bad, "library modules importing test modules:\n" + "\n".join(bad)


def hand_written_sizes() -> dict[str, int]:
    """Line count of every hand-written source file under rtl/, models/, tb/, scripts/ (a generated file says
    GENERATED on its first line)."""
    sizes: dict[str, int] = {}
    for d in SIZED_DIRS:
        for path in (ROOT / d).rglob("*"):
            if path.suffix not in SIZED_SUFFIXES or not path.is_file() or "__pycache__" in path.parts:
                continue
            lines = path.read_text(errors="replace").splitlines()
            if lines and "GENERATED" in lines[0]:
                continue
            sizes[str(path.relative_to(ROOT))] = len(lines)
    return sizes


def test_file_sizes() -> None:
    sizes = hand_written_sizes()
    assert sizes, "no source files found"
    too_long = {f: n for f, n in sizes.items() if n > MAX_LINES and f not in OVERSIZED}
    stale = [f for f in OVERSIZED if sizes.get(f, 0) <= MAX_LINES]
    assert not too_long, f"hand-written files above {MAX_LINES} lines: {too_long}"
    assert not stale, f"no longer above {MAX_LINES} lines (or gone), remove from OVERSIZED: {stale}"
