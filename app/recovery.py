"""The recovery file: the last autosaved state of a model with unsaved changes.

The main window writes it every few seconds while the model is modified and removes
it when the model is saved or the window closes cleanly; a recovery file found at
start-up is therefore what a crashed session left behind.  It holds the model and
the file the model belonged to, as JSON, written atomically.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QStandardPaths

from solver.model.io import atomic_write_text

FILE_NAME = "recovery.json"


def recovery_dir() -> Path:
    """Where the recovery file lives: the application's data folder (tests point it elsewhere)."""
    return Path(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation))


@dataclass(frozen=True)
class Recovered:
    """What a recovery file holds: the model and the file it belonged to (None: never saved)."""

    model: dict
    source: Path | None


class RecoveryFile:
    """Write, read and remove the one recovery file of the application."""

    def __init__(self, folder: Path | None = None):
        self.path = (folder if folder is not None else recovery_dir()) / FILE_NAME

    def write(self, model: dict, source: Path | None) -> None:
        """Store ``model`` (and the file it belongs to) atomically."""
        payload = {"recovery_of": str(source) if source else None, "model": model}
        atomic_write_text(self.path, json.dumps(payload, indent=1, ensure_ascii=False) + "\n")

    def read(self) -> Recovered | None:
        """The recovered model, or None when there is no usable recovery file."""
        try:
            payload = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(payload, dict) or not isinstance(payload.get("model"), dict):
            return None
        source = payload.get("recovery_of")
        return Recovered(payload["model"], Path(source) if isinstance(source, str) else None)

    def is_stale(self, recovered: Recovered) -> bool:
        """True when the model's file was saved after the recovery file was written."""
        source = recovered.source
        try:
            return source is not None and source.stat().st_mtime >= self.path.stat().st_mtime
        except OSError:
            return False

    def remove(self) -> None:
        self.path.unlink(missing_ok=True)
