"""Recovery files: the last autosaved state of a model with unsaved changes.

Each window writes its own ``recovery-<id>.json`` every few seconds while its model
is modified and removes it when the model is saved or the window closes cleanly.
Beside it, a :class:`~PySide6.QtCore.QLockFile` (``recovery-<id>.lock``) is held for
as long as the window lives; Qt knows a lock whose process has died.  A recovery
file whose lock can be taken is therefore what a crashed session left behind (and
two Flexmech windows running side by side never offer each other's work).  A file
holds the model and the file the model belonged to, as JSON, written atomically.  At
start the locks and the cut-short temporary files of ended sessions are removed.
"""
from __future__ import annotations

import glob
import json
import uuid
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QLockFile, QStandardPaths

from solver.safe_write import atomic_write_text

PREFIX = "recovery-"


def recovery_dir() -> Path:
    """Where recovery files live: the application's data folder (tests point it elsewhere)."""
    return Path(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation))


def _lock(json_path: Path) -> QLockFile:
    lock = QLockFile(str(json_path.with_suffix(".lock")))
    lock.setStaleLockTime(0)  # stale only when the process that took it is gone, never by age
    return lock


@dataclass(frozen=True)
class Recovered:
    """What a recovery file holds: the model and the file it belonged to (None: never saved)."""

    model: dict
    source: Path | None
    path: Path  # the recovery file itself


def read_recovery(path: Path) -> Recovered | None:
    """The content of a recovery file, or None when it is not usable."""
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(payload, dict) or not isinstance(payload.get("model"), dict):
        return None
    source = payload.get("recovery_of")
    return Recovered(payload["model"], Path(source) if isinstance(source, str) else None, path)


def is_stale(recovered: Recovered) -> bool:
    """True when the model's file was saved after the recovery file was written."""
    source = recovered.source
    try:
        return source is not None and source.stat().st_mtime >= recovered.path.stat().st_mtime
    except OSError:
        return False


class RecoveryFile:
    """One window's recovery file, and the leftovers of crashed sessions in the same folder."""

    def __init__(self, folder: Path | None = None):
        self.folder = folder if folder is not None else recovery_dir()
        self.path = self.folder / f"{PREFIX}{uuid.uuid4().hex[:12]}.json"
        self._lock: QLockFile | None = None
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            self._lock = _lock(self.path)
            if not self._lock.tryLock(0):
                self._lock = None
        except OSError:
            self._lock = None

    def write(self, model: dict, source: Path | None) -> None:
        """Store ``model`` (and the file it belongs to) atomically."""
        payload = {"recovery_of": str(source) if source else None, "model": model}
        atomic_write_text(self.path, json.dumps(payload, indent=1, ensure_ascii=False) + "\n")

    def remove(self) -> None:
        """Drop this window's recovery file (the model was saved or replaced)."""
        self.path.unlink(missing_ok=True)

    def close(self) -> None:
        """A clean end: drop the file and release the lock."""
        self.remove()
        self.abandon()

    def abandon(self) -> None:
        """Release the lock but keep the file, as a crash would (tests use this)."""
        if self._lock is not None:
            self._lock.unlock()
            self._lock = None

    def leftovers(self) -> list[Recovered]:
        """Usable recovery files of sessions that ended without closing, newest first.

        Unreadable leftovers and those older than their model's saved file are deleted,
        and so is what else ended sessions left: their locks and temporary files.
        """
        self._remove_dead_sessions_debris()
        found = []
        for path in sorted(self.folder.glob(f"{PREFIX}*.json"), key=lambda p: p.stat().st_mtime, reverse=True):
            if path == self.path:
                continue
            lock = _lock(path)
            if not lock.tryLock(0):
                continue  # another window that is still running
            recovered = read_recovery(path)
            if recovered is None or is_stale(recovered):
                path.unlink(missing_ok=True)
            else:
                found.append(recovered)
            lock.unlock()
        return found

    def _remove_dead_sessions_debris(self) -> None:
        """Delete the locks and temporary files (``.recovery-<id>.json.*.tmp``: an autosave cut
        short) of sessions that have ended; a running session holds its lock."""
        ended = {}
        for path in self.folder.glob(f"{PREFIX}*.lock"):
            json_path = path.with_suffix(".json")
            if json_path == self.path:
                continue
            lock = _lock(json_path)
            if lock.tryLock(0):  # its process is gone: Qt took over the stale lock
                ended[json_path.name] = lock
        for name, lock in ended.items():
            for tmp in self.folder.glob(f"{glob.escape('.' + name)}.*.tmp"):
                tmp.unlink(missing_ok=True)
            lock.unlock()  # removes the lock file (a recovery file is taken up by leftovers())

    @staticmethod
    def discard(recovered: Recovered) -> None:
        """Delete a leftover the user declined or restored."""
        recovered.path.unlink(missing_ok=True)
