"""Where a run started in the window writes its results: a scratch folder per run, in the
application's cache folder, removed when nothing reads its results any more.

Each run gets ``run-<id>/`` under :func:`scratch_root` (``~/.cache/Flexmech/Flexmech/runs`` on
Linux: on the disk, where a temporary folder may be in memory), and beside it a
:class:`~PySide6.QtCore.QLockFile` ``run-<id>.lock`` held while the folder is in use.
The folder goes when the frames read from it are freed (:meth:`RunFolder.remove_with`:
the window no longer shows nor compares the run), when the run fails before it has
results, or when the window closes (:meth:`RunFolder.remove`); saving the results links
(or copies) its files, so they outlive it (:func:`solver.results.files.copy_results`).
A session that crashed leaves folders whose lock Qt knows to be stale:
:func:`remove_stale` deletes them at the next start.  A run starts only when the disk
has room for its frames' estimated bytes (:func:`disk_shortfall`; an upper bound, as the
model's check of :data:`~solver.model.limits.RESULTS_BUDGET`).
"""
from __future__ import annotations

import shutil
import uuid
import weakref
from pathlib import Path

from PySide6.QtCore import QLockFile, QStandardPaths

PREFIX = "run-"


def scratch_root() -> Path:
    """The folder of the runs' scratch folders (tests point it elsewhere)."""
    return Path(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.CacheLocation)) / "runs"


def _lock(folder: Path) -> QLockFile:
    lock = QLockFile(str(folder.with_suffix(".lock")))
    lock.setStaleLockTime(0)  # stale only when the process that took it is gone, never by age
    return lock


class RunFolder:
    """A run's scratch results folder (:attr:`path`), locked while this object keeps it."""

    def __init__(self, root: Path | None = None):
        root = scratch_root() if root is None else root
        root.mkdir(parents=True, exist_ok=True)
        self.path = root / f"{PREFIX}{uuid.uuid4().hex[:12]}"
        self._lock: QLockFile | None = _lock(self.path)
        if not self._lock.tryLock(0):
            raise OSError(f"cannot lock {self._lock.fileName()} (error {self._lock.error().name})")
        self.path.mkdir()

    @property
    def removed(self) -> bool:
        return self._lock is None

    def remove(self) -> None:
        """Delete the folder and release its lock (again: nothing)."""
        if self._lock is None:
            return
        shutil.rmtree(self.path, ignore_errors=True)
        self._lock.unlock()  # deletes the lock file
        self._lock = None

    def remove_with(self, reader: object) -> None:
        """Delete the folder once ``reader`` (the frames read from it) is freed."""
        weakref.finalize(reader, self.remove)


def disk_shortfall(need: float, root: Path | None = None) -> str | None:
    """Why the disk of the scratch folders has no room for ``need`` bytes of frames; None if it has."""
    root = scratch_root() if root is None else root
    root.mkdir(parents=True, exist_ok=True)
    free = shutil.disk_usage(root).free
    if need <= free:
        return None
    return (f"its frames need up to {need / 1e9:.3g} GB of disk for their results, "
            f"{free / 1e9:.3g} GB are free in {root}")


def remove_stale(root: Path | None = None) -> list[Path]:
    """Delete the scratch folders of sessions that have ended (their lock is stale), and any
    without a lock (one a session failed to delete: a lock is made before its folder and
    released after it is deleted); those deleted."""
    root = scratch_root() if root is None else root
    removed = []
    for lock_path in sorted(root.glob(f"{PREFIX}*.lock")):
        folder = lock_path.with_suffix("")
        lock = _lock(folder)
        if lock.tryLock(0):  # its process is gone: Qt took over the stale lock
            shutil.rmtree(folder, ignore_errors=True)
            lock.unlock()
            removed.append(folder)
    for folder in sorted(root.glob(f"{PREFIX}*")):
        if folder.is_dir() and not folder.with_suffix(".lock").exists():
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed
