"""Saving keeps the file: its mode and owner, never writes through a symbolic link, the
previous content on any failure, and no temporary file left behind (issue 18)."""
from __future__ import annotations

import os
import stat

import pytest

from solver.model.io import dumps_model, load_model, save_model
from solver.safe_write import UnsafeTarget, replacing
from tests.solver.builders import beam_model

MODEL = beam_model(n=2)
EDITED = beam_model(n=3)


def temporaries(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


@pytest.fixture
def saved(tmp_path):
    path = tmp_path / "model.json"
    save_model(MODEL, path)
    return path


@pytest.mark.parametrize("mode", [0o644, 0o600, 0o640, 0o444, 0o755])
def test_saving_keeps_the_mode(saved, mode):
    os.chmod(saved, mode)
    save_model(EDITED, saved)
    assert stat.S_IMODE(saved.stat().st_mode) == mode
    assert load_model(saved) == EDITED


def test_a_new_file_gets_the_mode_the_umask_gives(tmp_path):
    previous = os.umask(0o027)
    try:
        save_model(MODEL, tmp_path / "new.json")
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o640


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only root gives a file to another user")
def test_saving_keeps_the_owner_and_group(saved):
    os.chown(saved, 4242, 4343)
    save_model(EDITED, saved)
    assert (saved.stat().st_uid, saved.stat().st_gid) == (4242, 4343)


def test_saving_through_a_symbolic_link_is_refused_and_writes_nothing(tmp_path, saved):
    """Issue 29: a save never follows a link it did not make (the file it names stays)."""
    before = saved.read_bytes()
    (tmp_path / "links").mkdir()
    link = tmp_path / "links" / "alias.json"
    link.symlink_to(os.path.relpath(saved, link.parent))
    with pytest.raises(UnsafeTarget, match="alias.json is a symbolic link"):
        save_model(EDITED, link)
    assert link.is_symlink() and saved.read_bytes() == before
    assert temporaries(tmp_path / "links") == [] and temporaries(tmp_path) == []


def test_saving_through_a_dangling_link_creates_nothing(tmp_path):
    link = tmp_path / "alias.json"
    link.symlink_to("missing/target.json")
    with pytest.raises(UnsafeTarget, match="symbolic link"):
        save_model(MODEL, link)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["alias.json"]


@pytest.mark.parametrize("failing", ["write", "fsync", "chmod", "replace", "interrupt"])
def test_a_failed_save_keeps_the_file_and_leaves_no_temporary_file(saved, monkeypatch, failing):
    before = saved.read_bytes()

    def fail(*args, **kwargs):
        raise KeyboardInterrupt if failing == "interrupt" else OSError(28, "No space left on device")

    target = {"write": "dumps_model", "fsync": "os.fsync", "chmod": "os.chmod", "replace": "os.replace",
              "interrupt": "os.fsync"}[failing]
    if target == "dumps_model":
        with pytest.raises(OSError), replacing(saved) as tmp:
            tmp.write_text(dumps_model(EDITED)[:50], encoding="utf-8")
            fail()
    else:
        monkeypatch.setattr(target, fail)
        with pytest.raises((OSError, KeyboardInterrupt)):
            save_model(EDITED, saved)
    monkeypatch.undo()
    assert saved.read_bytes() == before
    assert temporaries(saved.parent) == []


def test_temporary_files_a_killed_save_left_are_removed_by_the_next_save(saved):
    left = [saved.parent / ".model.json.0123456789ab.tmp", saved.parent / ".model.json.cafe.tmp"]
    other = saved.parent / ".other.json.0123456789ab.tmp"  # another file's: not ours to remove
    for path in (*left, other):
        path.write_text("{", encoding="utf-8")
    save_model(EDITED, saved)
    assert temporaries(saved.parent) == [other.name]
    assert load_model(saved) == EDITED


def test_a_temporary_made_with_its_bytes_is_removed_when_they_cannot_be_written(tmp_path, monkeypatch):
    """A results folder's small files are written as their temporaries are made: a full disk
    then leaves neither the temporary nor a changed folder."""
    import errno

    from solver import safe_write as model_io

    target = tmp_path / "summary.json"
    target.write_text("old", encoding="utf-8")
    real_fdopen = os.fdopen

    class Full:
        def __init__(self, fd, mode, **kwargs):
            self.file = real_fdopen(fd, mode, **kwargs)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.file.close()

        def write(self, data):
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(model_io.os, "fdopen", Full)
    with pytest.raises(OSError, match="No space"):
        with model_io.replacing_set() as replacement:
            replacement.temporary(target, b"new")
    assert target.read_text(encoding="utf-8") == "old" and temporaries(tmp_path) == []
    monkeypatch.undo()
    with model_io.replacing_set() as replacement:
        made = replacement.temporary(target, b"new")
        assert made.read_bytes() == b"new"
    assert target.read_bytes() == b"new" and temporaries(tmp_path) == []
