"""What ``flexmech run`` records (``--record KEY=VALUE``) and ``flexmech export`` (a results
folder's tables as CSV).  Headless: never imports Qt.

``--record`` sets the model's ``solver.record`` (and ``solver.output_interval``) for this
run only, before the model is validated: a bad value is named like a bad field of the file,
and a model too big to record in full is run when the record makes it fit.
"""
from __future__ import annotations

import argparse
from typing import Callable

from solver.model.validate import ModelError, Problem

#: ``--record`` keys: key -> (what it sets in ``solver``, help)
RECORD_KEYS = {
    "interval": ("output_interval", "time between stored frames, s (0: every step)"),
    "stations": ("record.element_stations", "element stations as fractions, comma-separated ('none': no elements table)"),
    "rates": ("record.rates", "yes/no: velocities and accelerations of nodes and rotations"),
    "steps": ("record.steps", "yes/no: the step log"),
    "precision": ("record.precision", "double or single (32-bit floats in the bulky tables)"),
    "links": ("record.links", "flexible and modal links whose elements, mid-span deflection and modes are recorded, "
                              "comma-separated ('all', 'none'; every node's position is always recorded)"),
    "contacts": ("record.contacts", "contact pairs recorded, comma-separated ('all', 'none')"),
    "moving": ("record.moving", "moving supports, masses and forces recorded, comma-separated ('all', 'none')"),
}
#: ``--record`` keys whose value is a list of ids: ``all`` (the default) or ``none``
ENTITY_KEYS = ("links", "contacts", "moving")
_YES, _NO = ("yes", "true", "on", "1"), ("no", "false", "off", "0")

RECORD_HELP = ("what the run records, KEY=VALUE (repeat the option for several): "
               + "; ".join(f"{k}: {text}" for k, (_, text) in RECORD_KEYS.items())
               + " (they override solver.record of the model for this run)")


def _value(key: str, text: str):
    """The JSON value of ``--record key=text`` (None: the field left out, its default); raises
    ValueError saying what is expected."""
    text = text.strip()
    if key == "interval":
        return _number(text, "a time, s (0: every step)")
    if key == "stations":
        return [] if text.lower() in ("none", "") else [_number(x, "comma-separated fractions of a link's length, "
                                                                   "0 to 1, or none") for x in text.split(",")]
    if key in ENTITY_KEYS:
        low = text.lower()
        return None if low == "all" else [] if low in ("none", "") else [x.strip() for x in text.split(",")]
    if key in ("rates", "steps"):
        if text.lower() not in _YES + _NO:
            raise ValueError("expected yes or no")
        return text.lower() in _YES
    return text


def _number(text: str, expected: str) -> float:
    """``text`` as a number; ValueError saying what is expected."""
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"'{text.strip()}' is not a number: expected {expected}") from None


def record_edit(specs: list[str]) -> Callable[[dict], None]:
    """What ``specs`` (``KEY=VALUE`` strings) set, as an edit of a model document (the
    file's ``solver.record`` and ``output_interval`` overridden), to apply before it is
    validated: a value the schema refuses is named like a field of the file.

    Raises :class:`ModelError` naming the option for an unknown key or a value that is not one.
    """
    settings = []
    for spec in specs:
        key, sep, text = spec.partition("=")
        key = key.strip()
        if not sep or key not in RECORD_KEYS:
            raise ModelError([Problem("--record", f"{spec!r}: expected KEY=VALUE with KEY one of {', '.join(RECORD_KEYS)}")])
        try:
            settings.append((RECORD_KEYS[key][0].split("."), _value(key, text)))
        except ValueError as exc:
            raise ModelError([Problem("--record", f"{key}={text}: {exc}")]) from None

    def edit(doc: dict) -> None:
        for path, value in settings:
            target = doc.setdefault("solver", {})
            for part in path[:-1]:
                target = target.setdefault(part, {}) if isinstance(target, dict) else {}
            if isinstance(target, dict) and value is None:
                target.pop(path[-1], None)
            elif isinstance(target, dict):
                target[path[-1]] = value

    return edit


def add_export_command(sub, error: Callable[[str], None]) -> None:
    """``flexmech export RESULTS --csv [--out DIR] [--table NAME ...]``."""
    from solver.results.table_names import TABLES

    p = sub.add_parser("export", help="write the tables of a results folder as CSV files (units in the header)")
    p.add_argument("results", metavar="RESULTS", help="results folder (written by 'flexmech run' or the GUI)")
    p.add_argument("--csv", action="store_true", required=True, help="as CSV files (the only format for now)")
    p.add_argument("--out", metavar="DIR", help="folder for the CSV files (default: the results folder)")
    p.add_argument("--table", action="append", choices=TABLES, metavar="NAME",
                   help=f"a table to write (repeat for several; default: all): {', '.join(TABLES)}")
    p.set_defaults(command=lambda args: _cmd_export(args, error))


def _cmd_export(args: argparse.Namespace, error: Callable[[str], None]) -> int:
    from solver.results.files import ResultsFormatError, export_csv
    from solver.results.table_names import HEADER_ONLY

    try:
        written = export_csv(args.results, args.out, args.table)
    except ResultsFormatError as exc:
        error(f"cannot read the results: {exc}")
        return 1
    except OSError as exc:
        error(f"cannot write the CSV files to {args.out or args.results}: {exc.strerror or exc}")
        return 1
    for path in written:
        print(path if _has_rows(path) else f"{path} ({HEADER_ONLY})")
    return 0


def _has_rows(path) -> bool:
    """Whether the CSV file ``path`` holds a row beside its header."""
    with open(path, encoding="utf-8") as f:
        f.readline()
        return bool(f.readline())
