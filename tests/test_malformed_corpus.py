"""The malformed-file corpus (``tests/data/malformed/``): every file is refused with a problem
naming its field, never a traceback -- through :func:`solver.api.load_model` and through
``flexmech validate`` (exit code 1, docs/cli.md).

``index.json`` lists each file with its category, the path the problem names ('' for the
whole file) and a fragment of the message.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.shell import cli
from solver import api
from solver.model.validate import ModelError

CORPUS = Path(__file__).parent / "data" / "malformed"
CASES = json.loads((CORPUS / "index.json").read_text(encoding="utf-8"))["cases"]


def _names_the_field(problems: list[str], case: dict) -> bool:
    prefix = f"{case['path']}: " if case["path"] else ""
    return any(p.startswith(prefix) and case["message"] in p for p in problems)


def test_corpus_covers_every_category():
    assert len(CASES) >= 40
    assert sorted(p.name for p in CORPUS.glob("*.json") if p.name != "index.json") == sorted(c["file"] for c in CASES)
    categories = {c["category"] for c in CASES}
    assert categories >= {"types", "ranges", "references", "duplicates", "huge integers", "deep nesting",
                          "non-finite numbers", "coincident nodes", "zero lengths", "counts too large",
                          "intervals too large", "step > end time", "truncated JSON", "wrong top-level type"}


@pytest.mark.parametrize("case", CASES, ids=[c["file"].removesuffix(".json") for c in CASES])
def test_malformed_file_is_refused_naming_the_field(case, capsys):
    path = CORPUS / case["file"]
    with pytest.raises(ModelError) as info:
        api.load_model(path)
    problems = [str(p) for p in info.value.problems]
    assert _names_the_field(problems, case), problems
    assert cli.main(["validate", str(path)]) == cli.EXIT_INVALID
    out = capsys.readouterr()
    assert out.out.splitlines() == problems
    assert "Traceback" not in out.out + out.err


@pytest.mark.parametrize("name", ["huge-integer-5001-digits", "deep-nesting", "not-utf8"])
def test_flexmech_validate_refuses_without_traceback(name):
    """The installed command, in its own process (the interpreter's limits on digits and depth)."""
    proc = subprocess.run([sys.executable, "-m", "app.shell.cli", "validate", str(CORPUS / f"{name}.json")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == cli.EXIT_INVALID
    assert "Traceback" not in proc.stdout + proc.stderr
    case = next(c for c in CASES if c["file"] == f"{name}.json")
    assert _names_the_field(proc.stdout.splitlines(), case), proc.stdout
