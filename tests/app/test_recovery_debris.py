"""What ended sessions leave in the recovery folder -- locks, autosaves cut short -- is
removed when Flexmech starts; a running session's lock is left alone."""
from __future__ import annotations

import subprocess
import sys

from app.shell.main_window import MainWindow
from app.shell.recovery import RecoveryFile

#: a process that takes a recovery lock and dies holding it, as a crashed session does
DIE_HOLDING = """
import os, sys
from PySide6.QtCore import QLockFile
lock = QLockFile(sys.argv[1])
assert lock.tryLock(0)
os._exit(0)
"""


def test_stale_locks_and_temporary_files_are_removed_at_start(qtbot, isolated_recovery, settings):
    isolated_recovery.mkdir(parents=True, exist_ok=True)
    stale = [isolated_recovery / f"recovery-crashed{k}.lock" for k in range(3)]
    for lock in stale:
        subprocess.run([sys.executable, "-c", DIE_HOLDING, str(lock)], check=True, timeout=120)
    cut_short = isolated_recovery / ".recovery-crashed0.json.0123456789ab.tmp"
    cut_short.write_text('{"recovery_of": nu', encoding="utf-8")
    running = RecoveryFile(isolated_recovery)  # another window, alive
    running_tmp = isolated_recovery / f".{running.path.name}.ba9876543210.tmp"
    running_tmp.write_text("{", encoding="utf-8")
    assert all(lock.exists() for lock in stale)

    w = MainWindow(settings)
    qtbot.addWidget(w)

    assert not any(lock.exists() for lock in stale) and not cut_short.exists()
    assert running.path.with_suffix(".lock").exists() and running_tmp.exists()
    assert not w.recovered
    running.close()
