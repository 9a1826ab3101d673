"""What ``flexmech run`` spends outside the solve (issue 28): the model validated once, no
module loaded that the run does not use (tqdm under ``--quiet``, ``pyarrow.compute`` to read
the contact states back), and neither economy hiding what it stood for: a bar without
``--quiet``, a model changed after its validation refused naming the field."""
from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.shell import cli
from solver import api
from solver.model import validate as validation
from solver.model.io import examples_dir, load_model

CLEARANCE = examples_dir() / "slider_crank_clearance_lankarani_nikravesh.json"


def _short_clearance_run(tmp_path: Path, steps: int = 20) -> Path:
    """The clearance slider-crank (a contact pair: a contacts table with states) for a few steps."""
    doc = json.loads(CLEARANCE.read_text(encoding="utf-8"))
    doc["solver"]["end_time"] = steps * doc["solver"]["step"]
    path = tmp_path / CLEARANCE.name
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    return path


def _printed(code: str) -> str:
    """The last line ``code`` prints, run in a fresh interpreter (which must succeed)."""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()[-1]


def test_a_quiet_run_loads_no_module_it_does_not_use(tmp_path):
    """Neither tqdm, nor pyarrow.compute, nor numpy.f2py and numpy.testing (deferred: in place, not executed)."""
    model, out = _short_clearance_run(tmp_path), tmp_path / "out"
    code = ("import sys, types\nfrom app.shell.cli import main\n"
            f"code = main(['run', {str(model)!r}, '--out', {str(out)!r}, '--quiet'])\n"
            "loaded = [m for m in ('tqdm', 'pyarrow.compute', 'unittest') if m in sys.modules]\n"
            "executed = [m for m in ('numpy.f2py', 'numpy.testing') if type(sys.modules.get(m)) is types.ModuleType]\n"
            "print(code, loaded, executed)\n")
    assert _printed(code) == "0 [] []"
    states = api.load_results(out).frames.contact_rows()["state"]  # read back without pyarrow.compute
    assert states.shape == (21, 1) and set(states.ravel()) <= {0, 1, 2}


def test_a_run_validates_its_model_once(tmp_path, monkeypatch, capsys):
    looks = []
    schema_problems = validation.schema_problems
    monkeypatch.setattr(validation, "schema_problems", lambda doc: looks.append(1) or schema_problems(doc))
    monkeypatch.setattr(validation, "_last_valid", None, raising=False)  # nothing remembered from other tests
    out = tmp_path / "out"
    assert cli.main(["run", str(_short_clearance_run(tmp_path, steps=5)), "--out", str(out), "--quiet"]) == cli.EXIT_OK
    assert len(looks) == 1
    assert json.loads((out / "summary.json").read_text(encoding="utf-8"))["run"]["status"] == "completed"


def test_a_model_changed_after_its_validation_is_refused_naming_the_field():
    model = load_model(CLEARANCE)  # valid, and remembered so
    model["solver"]["step"] = -1.0
    with pytest.raises(api.ModelError, match=r"solver\.step"):
        api.simulate(model)
    listed = load_model(CLEARANCE)
    as_tuple = copy.deepcopy(listed)
    as_tuple["nodes"] = tuple(as_tuple["nodes"])  # the same JSON text, not a JSON array
    assert validation.validate(listed) == []
    assert "nodes" in {p.path for p in validation.validate(as_tuple)}


def test_a_run_with_its_bar_still_shows_it(tmp_path, capsys):
    assert cli.main(["run", str(_short_clearance_run(tmp_path, steps=5)), "--out", str(tmp_path / "out")]) == cli.EXIT_OK
    assert "100%" in capsys.readouterr().err


def test_a_deferred_numpy_module_works_when_used():
    code = ("import sys, types\nfrom app.shell.deferred_modules import defer_unused_numpy_modules\n"
            "deferred = defer_unused_numpy_modules()\n"
            "import numpy, scipy.sparse\n"
            "untouched = [type(sys.modules[m]) is types.ModuleType for m in deferred]\n"
            "numpy.testing.assert_allclose([1.0], [1.0])\n"
            "from numpy.testing import assert_array_equal\nfrom numpy.f2py import run_main\n"
            "print(deferred, untouched, type(sys.modules['numpy.testing']) is types.ModuleType, callable(run_main))\n")
    assert _printed(code) == "['numpy.f2py', 'numpy.testing'] [False, False] True True"
