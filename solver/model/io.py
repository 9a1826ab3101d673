"""Reading and writing model files: exact round-trip, atomic writes (:mod:`solver.safe_write`).

The document is kept as the user wrote it (no defaults filled in), so that
``save_model(load_model(p))`` rewrites the same content.  Files are written in one
canonical layout (2-space indent, keys in the order given), which the bundled
examples use too.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Callable

from ..safe_write import atomic_write_text
from .validate import ModelError, Problem, validate


def dumps_model(doc: dict) -> str:
    """The canonical text of a model document."""
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def _parse_int(digits: str) -> int | float:
    """An integer of the file; one longer than Python converts (``sys.get_int_max_str_digits``)
    becomes an infinite float, which validation refuses at its path."""
    try:
        return int(digits)
    except ValueError:
        return float(digits)


def parse_model(text: str, edit: Callable[[dict], None] | None = None) -> dict:
    """Parse and validate model text; raise :class:`ModelError` listing every problem.

    ``edit`` changes the parsed document (an object) before it is validated (``flexmech run
    --record`` sets what the run records: a model the record makes fit is valid)."""
    try:
        doc = json.loads(text, parse_int=_parse_int)
    except json.JSONDecodeError as exc:
        raise ModelError([Problem("", f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}")]) from None
    except RecursionError:
        raise ModelError([Problem("", "invalid JSON: nested too deeply")]) from None
    if edit is not None and isinstance(doc, dict):
        edit(doc)
    problems = validate(doc)
    if problems:
        raise ModelError(problems)
    return doc


def load_model(path: str | os.PathLike, edit: Callable[[dict], None] | None = None) -> dict:
    """Load and validate a model file (``edit``: see :func:`parse_model`)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ModelError([Problem("", f"cannot read {path}: {exc.strerror}")]) from None
    except UnicodeDecodeError as exc:
        raise ModelError([Problem("", f"cannot read {path}: not UTF-8 text (byte {exc.start})")]) from None
    return parse_model(text, edit)


def save_model(doc: dict, path: str | os.PathLike) -> None:
    """Save a model document atomically in the canonical layout (:mod:`solver.safe_write`:
    refused, with :class:`~solver.safe_write.UnsafeTarget`, where ``path`` is a symbolic link
    or not a regular file)."""
    atomic_write_text(path, dumps_model(doc))


def model_with_defaults(doc: dict) -> dict:
    """A copy of the document with every omitted field at its schema default."""
    from .fields import with_defaults
    from .schema import MODEL

    return with_defaults(MODEL, doc)


def examples_dir() -> Path:
    """The folder of bundled example models."""
    return Path(__file__).resolve().parents[2] / "resources" / "examples"


def list_examples() -> list[tuple[str, Path, str]]:
    """``(name, path, description)`` of every bundled example, sorted by name."""
    out = []
    for p in sorted(examples_dir().glob("*.json")):
        try:
            desc = json.loads(p.read_text(encoding="utf-8")).get("description", "")
        except (OSError, json.JSONDecodeError):
            desc = "(unreadable)"
        out.append((p.stem, p, desc))
    return out


def read_json(path: str | os.PathLike) -> Any:
    return json.loads(Path(path).read_text(encoding="utf-8"))
