"""The list of recently opened or saved model files, kept in QSettings."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings

KEY = "recent_files"
MAX_FILES = 8


class RecentFiles:
    """Most recent first, no duplicates, at most :data:`MAX_FILES` entries."""

    def __init__(self, settings: QSettings):
        self._settings = settings

    def paths(self) -> list[Path]:
        value = self._settings.value(KEY, [])
        if isinstance(value, str):  # QSettings returns a one-item list as a plain string
            value = [value]
        return [Path(p) for p in value or []]

    def _store(self, paths: list[Path]) -> None:
        self._settings.setValue(KEY, [str(p) for p in paths[:MAX_FILES]])

    def add(self, path: Path) -> None:
        path = Path(path).resolve()
        self._store([path] + [p for p in self.paths() if p != path])

    def remove(self, path: Path) -> None:
        self._store([p for p in self.paths() if p != Path(path).resolve()])

    def clear(self) -> None:
        self._store([])
