"""The layers: nothing under ``solver/`` imports Qt, pyqtgraph or ``app``; the app's
document layer imports no widgets; the import-linter contracts of ``pyproject.toml``
fail on a violation; no module grows past about 500 lines."""
from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import app
import solver

SOLVER_DIR = Path(solver.__file__).resolve().parent
APP_DIR = Path(app.__file__).resolve().parent
ROOT = SOLVER_DIR.parent
#: the longest module allowed, lines ("about 500": one job per module)
MAX_MODULE_LINES = 520
FORBIDDEN = ("PySide6", "PyQt5", "PyQt6", "shiboken6", "pyqtgraph", "app")


def _imported_modules(source: str) -> set[str]:
    """Modules a module imports by absolute name (relative imports stay inside its package)."""
    modules = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules.add(node.module)
    return modules


def _imported_roots(source: str) -> set[str]:
    """Top-level packages a module imports (absolute imports only)."""
    return {name.split(".")[0] for name in _imported_modules(source)}


def test_scan_finds_forbidden_imports():
    found = _imported_roots("import PySide6.QtCore\nfrom app.shell.gui import launch\nfrom .fields import Num\n")
    assert found == {"PySide6", "app"}


def test_solver_sources_import_no_gui_package():
    offenders = []
    for path in sorted(SOLVER_DIR.rglob("*.py")):
        bad = _imported_roots(path.read_text(encoding="utf-8")) & set(FORBIDDEN)
        offenders += [f"{path.relative_to(SOLVER_DIR.parent)} imports {name}" for name in sorted(bad)]
    assert not offenders, "\n".join(offenders)


_IMPORT_ALL = """
import importlib, json, pkgutil, sys
import solver
names = [m.name for m in pkgutil.walk_packages(solver.__path__, "solver.")]
for name in names:
    importlib.import_module(name)
loaded = sorted(m for m in sys.modules if m.split(".")[0] in {forbidden!r})
print(json.dumps({{"modules": names, "forbidden": loaded}}))
"""


def test_importing_every_solver_module_loads_no_gui_package():
    code = _IMPORT_ALL.format(forbidden=set(FORBIDDEN))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert "solver.api" in report["modules"]
    assert report["forbidden"] == []


def test_app_document_layer_imports_no_widgets():
    """QtCore and QtGui (signals, undo commands) only: import-linter sees PySide6 as one package."""
    offenders = []
    for path in sorted((APP_DIR / "document").rglob("*.py")):
        bad = {m for m in _imported_modules(path.read_text(encoding="utf-8"))
               if m.startswith(("PySide6.QtWidgets", "pyqtgraph"))}
        offenders += [f"{path.relative_to(ROOT)} imports {name}" for name in sorted(bad)]
    assert not offenders, "\n".join(offenders)


def test_no_module_is_over_about_500_lines():
    long = [f"{p.relative_to(ROOT)}: {n} lines" for d in (SOLVER_DIR, APP_DIR) for p in sorted(d.rglob("*.py"))
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES]
    assert not long, "\n".join(long)


def _lint_imports(root: Path) -> subprocess.CompletedProcess:
    lint = Path(sys.executable).with_name("lint-imports")
    if not lint.exists():
        pytest.fail(f"{lint} is missing: install the test extra (pip install -e '.[test]')")
    env = {"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin", "HOME": str(root)}
    return subprocess.run([str(lint), "--no-cache", "--no-logo"], cwd=root, env=env, capture_output=True,
                          text=True, timeout=300)


@pytest.fixture
def copy_of_the_tree(tmp_path: Path) -> Path:
    """The packages and ``pyproject.toml`` copied where a test may break them."""
    for package in ("solver", "app"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    return tmp_path


def test_import_contracts_hold_and_a_qt_import_in_the_solver_breaks_them(copy_of_the_tree: Path):
    kept = _lint_imports(copy_of_the_tree)
    assert kept.returncode == 0, kept.stdout + kept.stderr
    assert "0 broken" in kept.stdout
    module = copy_of_the_tree / "solver" / "system" / "banded.py"
    module.write_text("import PySide6\n" + module.read_text(encoding="utf-8"), encoding="utf-8")
    broken = _lint_imports(copy_of_the_tree)
    assert broken.returncode != 0
    assert "solver imports neither app nor Qt nor pyqtgraph BROKEN" in broken.stdout
    assert "solver.system.banded -> PySide6" in broken.stdout


def test_a_cycle_between_app_modules_breaks_the_contracts(copy_of_the_tree: Path):
    module = copy_of_the_tree / "app" / "shell" / "simulation_ui.py"
    module.write_text(module.read_text(encoding="utf-8") + "\nfrom . import main_window  # noqa\n", encoding="utf-8")
    broken = _lint_imports(copy_of_the_tree)
    assert broken.returncode != 0
    assert "no circular imports between sibling modules or packages BROKEN" in broken.stdout
