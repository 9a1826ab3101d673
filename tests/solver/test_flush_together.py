"""Files replaced together are flushed to disk at once, each in a thread of its own, and
only then renamed (issue 17: one journal commit serves them all); a failed flush leaves
every target as it was (issue 18)."""
from __future__ import annotations

import os
import threading
import time

import pytest

import solver.safe_write as model_io
from solver.safe_write import atomic_write_text, replacing_set, replacing_together

FILES = 13  # a results folder's


def _write_together(folder, text: str) -> list:
    paths = [folder / f"file{k}.txt" for k in range(FILES)]
    with replacing_together(paths) as temporaries:
        for tmp, path in zip(temporaries, paths):
            tmp.write_text(f"{text} {path.name}", encoding="utf-8")
    return paths


def test_the_files_are_flushed_at_once(tmp_path, monkeypatch):
    # every flush waits at a barrier for all the others: flushed one after another, the first would wait in vain
    barrier, fsync = threading.Barrier(FILES, timeout=60), os.fsync

    def fsync_together(fd):
        barrier.wait()
        fsync(fd)

    monkeypatch.setattr(model_io.os, "fsync", fsync_together)
    paths = _write_together(tmp_path, "new")
    assert [p.read_text(encoding="utf-8") for p in paths] == [f"new {p.name}" for p in paths]


def test_every_file_is_flushed_before_the_first_is_renamed(tmp_path, monkeypatch):
    happened, settle, replace = [], model_io._settle, os.replace
    monkeypatch.setattr(model_io, "_settle", lambda tmp, kept: (settle(tmp, kept), happened.append("flush")))
    monkeypatch.setattr(model_io.os, "replace", lambda a, b: (replace(a, b), happened.append("rename")))
    _write_together(tmp_path, "new")
    assert happened == ["flush"] * FILES + ["rename"] * FILES


def test_a_failed_flush_leaves_every_file_as_it_was(tmp_path, monkeypatch):
    paths = _write_together(tmp_path, "old")
    settle = model_io._settle

    def failing(tmp, kept):
        if ".file7.txt." in tmp.name:
            raise OSError(5, "Input/output error")
        time.sleep(0.01)  # the other flushes still run when the failure is raised
        settle(tmp, kept)

    monkeypatch.setattr(model_io, "_settle", failing)
    with pytest.raises(OSError, match="Input/output error"):
        _write_together(tmp_path, "new")
    assert [p.read_text(encoding="utf-8") for p in paths] == [f"old {p.name}" for p in paths]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in paths)  # no temporary file left


@pytest.mark.skipif(not hasattr(os, "fork"), reason="forks")
def test_a_forked_child_flushes_with_threads_of_its_own(tmp_path):
    atomic_write_text(tmp_path / "parent.txt", "parent")  # the parent's flushing threads started
    pid = os.fork()
    if pid == 0:  # the child: its parent's threads are not there; a write must not wait for them
        code = 1
        try:
            atomic_write_text(tmp_path / "child.txt", "child")
            code = 0
        finally:
            os._exit(code)
    for _ in range(6000):  # up to 60 s: a child waiting for threads it lacks would hang
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.01)
    else:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        pytest.fail("the forked child's write did not end")
    assert os.waitstatus_to_exitcode(status) == 0
    assert (tmp_path / "child.txt").read_text(encoding="utf-8") == "child"


def test_an_obsolete_file_that_is_a_symbolic_link_goes_and_not_the_file_it_names(tmp_path):
    """``Replacement.remove_after`` removes the link in the folder, never a file elsewhere."""
    outside = tmp_path / "outside.txt"
    outside.write_text("theirs", encoding="utf-8")
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder" / "old.parquet").symlink_to(outside)
    with replacing_set() as replacement:
        replacement.remove_after([tmp_path / "folder" / "old.parquet"])
    assert outside.read_text(encoding="utf-8") == "theirs"
    assert not os.path.lexists(tmp_path / "folder" / "old.parquet")
