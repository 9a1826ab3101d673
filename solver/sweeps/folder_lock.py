"""One sweep per folder at a time.

Two sweeps writing one table would each rewrite it from the rows they know, and the
rows of the other would be lost.  A sweep holds an exclusive ``flock`` on the folder's
``sweep.lock`` while it plans, runs and writes; the file names the holder (process id,
host, start time) for the refusal a second sweep gets.  The kernel releases the lock
when its process ends, however it ends, so a lock left by a killed sweep is stale by
construction and the next sweep takes it.  (Locks on a network file system are only as
good as its ``flock``.)
"""
from __future__ import annotations

import datetime
import fcntl
import json
import os
import socket
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from .spec import SweepError

LOCK = "sweep.lock"


@contextmanager
def sweep_lock(folder: str | os.PathLike) -> Iterator[None]:
    """Hold ``folder``'s sweep lock, or raise :class:`SweepError` naming its holder."""
    path = Path(folder) / LOCK
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        raise SweepError([f"{path}: cannot take the sweep's lock ({exc.strerror or exc})"]) from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise SweepError([f"{folder}: another sweep is running in this folder ({_holder(fd)}); wait for it "
                              "to end, or give another folder"]) from None
        owner = {"pid": os.getpid(), "host": socket.gethostname(),
                 "since": datetime.datetime.now().astimezone().isoformat(timespec="seconds")}
        os.ftruncate(fd, 0)
        os.pwrite(fd, (json.dumps(owner) + "\n").encode(), 0)
        yield
    finally:
        os.close(fd)  # releases the lock


def _holder(fd: int) -> str:
    """Who holds the lock, as its file says."""
    try:
        owner = json.loads(os.pread(fd, 4096, 0))
        return f"process {owner['pid']} on {owner['host']}, since {owner['since']}"
    except (OSError, ValueError, KeyError, TypeError):
        return "its holder not yet written"
