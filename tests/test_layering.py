"""The import boundary: nothing under ``solver/`` may import Qt, pyqtgraph or ``app``."""
from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import solver

SOLVER_DIR = Path(solver.__file__).resolve().parent
FORBIDDEN = ("PySide6", "PyQt5", "PyQt6", "shiboken6", "pyqtgraph", "app")


def _imported_roots(source: str) -> set[str]:
    """Top-level packages a module imports (absolute imports only; relative ones stay inside solver)."""
    roots = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_scan_finds_forbidden_imports():
    found = _imported_roots("import PySide6.QtCore\nfrom app.gui import launch\nfrom .fields import Num\n")
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
