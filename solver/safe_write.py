"""Writing files that stay in their folder: every file Flexmech writes (results folders, CSV
exports, sweep tables, model saves, recovery files, images) is written here.

A file is written as a fresh temporary beside it, created with ``O_CREAT | O_EXCL |
O_NOFOLLOW`` (a name someone planted, a symbolic link included, is never opened), and
renamed over its target (``os.replace``: a rename replaces a name, it never follows a link).
Before that, the target's name is looked at once (:func:`check_target`): a symbolic link, a
folder, a FIFO or a device there is refused with :class:`UnsafeTarget`, an ``OSError`` whose
message names the file and what it is -- a write never reaches, through a link it did not
make, a file outside its folder, and never creates folders a dangling link names.  The
folder itself is the one the caller gave (a link the user named is followed; missing folders
are created, never through a dangling link: :meth:`pathlib.Path.mkdir` refuses one).

A reader never sees half a file and a crash leaves the previous file whole; an existing
file's mode and, where the process may, its owner and group carry over (a new file gets
the mode the umask gives).  Each temporary (``.<name>.<random>.tmp``) is held under an
advisory lock (``flock``) while its writer lives, so the next write of the same file
removes the temporaries a killed process left and never those of a write under way
(two runs into one folder at once); the renames of one set of files are made under a lock
of their folder, so the sets of two concurrent writers never interleave.

>>> with replacing("sweep.parquet") as tmp:                    # doctest: +SKIP
...     pyarrow.parquet.write_table(table, tmp)
"""
from __future__ import annotations

import errno
import os
import secrets
import shutil
import stat
import tempfile
from concurrent.futures import ThreadPoolExecutor, wait
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Iterator

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no advisory locks (renames stay safe)
    fcntl = None

__all__ = ["TMP_PREFIX", "TMP_SUFFIX", "Replacement", "UnsafeTarget", "atomic_write_text", "check_target",
           "safe_folder",
           "replacing", "replacing_private", "replacing_set", "replacing_together"]

#: a temporary file beside its target is named ``.<name>.<random>.tmp``
TMP_PREFIX, TMP_SUFFIX = ".", ".tmp"
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


class UnsafeTarget(OSError):
    """A file to write whose name holds a symbolic link or something other than a regular
    file: refused, never followed (``strerror`` is the message for the user)."""

    def __str__(self) -> str:
        return self.strerror


def check_target(path: str | os.PathLike) -> None:
    """Refuse (:class:`UnsafeTarget`) ``path`` unless it is missing or a regular file (a
    symbolic link there is not followed: it is named as what it is)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    _refuse_unless_regular(Path(path), mode)


def safe_folder(path: str | os.PathLike) -> Path:
    """``path``, a folder Flexmech makes inside one it writes (a sweep's ``runs/<run id>``):
    created if missing (with its parents), refused (:class:`UnsafeTarget`) where its name
    holds a symbolic link or anything but a folder."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.mkdir(path)
        return path
    except FileExistsError:
        mode = os.lstat(path).st_mode
    _refuse_unless_regular(path, mode, "folder")
    return path


def _refuse_unless_regular(path: Path, mode: int, wanted: str = "file") -> None:
    """Refuse a name of file type ``mode`` unless it is a regular file (``wanted`` ``"folder"``:
    a folder)."""
    if stat.S_ISREG(mode) if wanted == "file" else stat.S_ISDIR(mode):
        return
    if stat.S_ISLNK(mode):
        raise UnsafeTarget(errno.ELOOP, f"{path} is a symbolic link (to {os.readlink(path)}): Flexmech writes "
                                        f"into no {wanted} through a link it did not make; remove the link or "
                                        f"write elsewhere", str(path))
    what = ("a folder" if stat.S_ISDIR(mode) else "a file" if stat.S_ISREG(mode) else "a FIFO" if stat.S_ISFIFO(mode)
            else "a device or socket")
    raise UnsafeTarget(errno.EEXIST, f"{path} is {what}, not a {wanted} Flexmech may "
                                     f"{'replace' if wanted == 'file' else 'write in'}", str(path))


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` (UTF-8, ``\\n`` line ends) to ``path`` atomically: see :func:`replacing`."""
    with replacing(path) as tmp, open(tmp, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)


@contextmanager
def replacing(path: str | os.PathLike) -> Iterator[Path]:
    """A temporary file to write, renamed over ``path`` when the block ends without error
    (refused first if ``path`` is a link or not a regular file: see the module).  The
    temporary is removed on every failure, and those an interrupted write of the same file
    left (a killed process) are removed first."""
    with replacing_together([path]) as (tmp,):
        yield tmp


@contextmanager
def replacing_private(path: str | os.PathLike) -> Iterator[Path]:
    """As :func:`replacing`, for writers that choose the format by the file's name (images,
    animations): the temporary is ``path``'s name in a fresh private folder
    (``tempfile.mkdtemp``, mode 0700: ``.<name>.<random>.tmpdir``) beside it, removed afterwards."""
    path = Path(path)
    check_target(path)
    folder = Path(tempfile.mkdtemp(prefix=f"{TMP_PREFIX}{path.name}.", suffix=".tmpdir", dir=path.parent))
    try:
        yield folder / path.name
        check_target(path)
        os.replace(folder / path.name, path)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def replacing_together(paths: list[str | os.PathLike]) -> Iterator[list[Path]]:
    """Temporary files for ``paths``, as :func:`replacing` gives one, flushed to disk once the
    block ends without error and then renamed over their targets in the order given.

    All are flushed at once (:func:`_settle_all`) and only then is the first renamed; a crash
    or failure before the last rename leaves the targets not yet renamed as they were.
    """
    with replacing_set() as replacement:
        yield [replacement.temporary(path) for path in paths]


@contextmanager
def replacing_set(flush_over: int = 0) -> Iterator[Replacement]:
    """A :class:`Replacement`: files whose temporaries are made while the block runs (the set
    need not be known when it starts), committed as :func:`replacing_together` commits them
    when the block ends without error, and otherwise removed.

    ``flush_over``: the files are flushed to disk before they are renamed only if they hold
    more than this many bytes together (default: always).  Files left unflushed are renamed
    in the same order, so a kill leaves the same outcomes; after a power cut a file may be
    empty or old, which only a reader that checks what it reads can tell (results folders:
    their SHA-256 in ``summary.json``)."""
    replacement = Replacement(flush_over)
    try:
        yield replacement
        replacement.commit()
    finally:
        replacement.discard()


class Replacement:
    """Files replaced together (:func:`replacing_set`): a temporary beside each target, made by
    :meth:`temporary`; :meth:`commit` flushes them all at once, renames them over their targets
    in the order they were made, then removes the files :meth:`remove_after` named."""

    def __init__(self, flush_over: int = 0):
        self.flush_over = flush_over
        self._listed: dict[Path, dict[str, int]] = {}  # each folder's names (their lstat modes), listed once
        #: (temporary, target, its stat, the temporary's locked descriptor)
        self._pending: list[tuple[Path, Path, os.stat_result | None, int]] = []
        self._obsolete: list[Path] = []

    def _names(self, folder: Path) -> dict[str, int]:
        """The names in ``folder`` (created if needed), each with its file type (``lstat``)."""
        if folder not in self._listed:
            folder.mkdir(parents=True, exist_ok=True)
            with os.scandir(folder) as entries:
                self._listed[folder] = {entry.name: _entry_type(entry) for entry in entries}
        return self._listed[folder]

    def _target(self, path: str | os.PathLike) -> Path:
        """The file ``path`` names; refused unless missing or a regular file."""
        path = Path(path)
        mode = self._names(path.parent).get(path.name)
        if mode is not None:
            _refuse_unless_regular(path, mode)
        return path

    def temporary(self, path: str | os.PathLike, data: bytes = b"") -> Path:
        """A temporary file for ``path`` holding ``data`` (default: empty; written as the file is
        made, where a write after would open it again: a third of a small folder's write went
        to making files); the temporaries of an interrupted write of the same file, a killed
        process's, are removed first; the folder is created if needed."""
        target = self._target(path)
        self.remove_stale([target])
        try:
            kept = os.stat(target, follow_symlinks=False)
        except FileNotFoundError:
            kept = None
        tmp, fd = _new_temporary(target, data)
        self._pending.append((tmp, target, kept, fd))
        return tmp

    def link(self, source: str | os.PathLike, path: str | os.PathLike) -> None:
        """``path`` replaced by the file ``source`` (a regular file, not a link): its temporary
        is a hard link to ``source`` (a copy where no link can be made), which keeps the
        source's owner and mode (a link shares them: :meth:`commit` leaves them alone);
        nothing to replace where ``path`` already is ``source``'s file."""
        check_target(source)
        target = self._target(path)
        self.remove_stale([target])
        if target.exists() and os.path.samefile(source, target):
            return
        tmp, fd = _new_temporary(target)
        os.close(fd)
        tmp.unlink()
        try:
            os.link(source, tmp)  # source checked: a regular file, not a link
        except OSError:  # another file system, or one without hard links
            shutil.copyfile(source, tmp, follow_symlinks=False)
        self._pending.append((tmp, target, None, _locked(tmp)))

    def remove_stale(self, paths: list[str | os.PathLike]) -> None:
        """Remove the temporaries an interrupted write of ``paths`` left (a folder's names are
        looked at only if it holds a temporary); a temporary another writer still holds
        (its lock) is left to it."""
        for path in map(Path, paths):
            names = self._names(path.parent)
            stale = [n for n in names if n.startswith(TMP_PREFIX) and n.endswith(TMP_SUFFIX)
                     and n[len(TMP_PREFIX): -len(TMP_SUFFIX)].rpartition(".")[0] == path.name]
            for name in stale:
                if _abandoned(path.parent / name):
                    (path.parent / name).unlink(missing_ok=True)
                del names[name]

    def remove_after(self, paths: list[str | os.PathLike]) -> None:
        """Remove ``paths`` (those that exist) once every temporary is renamed into place."""
        for path in map(Path, paths):
            if path.name in self._names(path.parent):
                self._obsolete.append(path)  # a symbolic link itself, not what it names

    def commit(self) -> None:
        tmps, kept = [tmp for tmp, *_ in self._pending], [kept for _, _, kept, _ in self._pending]
        if self.flush_over and sum(os.stat(tmp).st_size for tmp in tmps) <= self.flush_over:
            for tmp, stat_ in zip(tmps, kept):
                _settle(tmp, stat_, flush=False)
        else:
            _settle_all(tmps, kept)
        with ExitStack() as locks:
            for folder in sorted({target.parent for _, target, _, _ in self._pending}):
                locks.enter_context(_folder_lock(folder))
            for tmp, target, _, _ in self._pending:
                os.replace(tmp, target)
            for path in self._obsolete:
                path.unlink(missing_ok=True)
        self._release()

    def discard(self) -> None:
        """Remove the temporaries not renamed (after a failure)."""
        for tmp, *_ in self._pending:
            tmp.unlink(missing_ok=True)
        self._release()

    def _release(self) -> None:
        for *_, fd in self._pending:
            os.close(fd)
        self._pending = []


def _entry_type(entry: os.DirEntry) -> int:
    """The file type bits of a folder entry, a symbolic link not followed."""
    try:
        return stat.S_IFMT(entry.stat(follow_symlinks=False).st_mode)
    except FileNotFoundError:  # gone since listed
        return stat.S_IFREG


def _new_temporary(target: Path, data: bytes = b"") -> tuple[Path, int]:
    """Create a temporary file holding ``data`` beside ``target`` (mode 0666 less the umask),
    unique, never through a name that exists; returns it and its descriptor, locked."""
    while True:
        tmp = target.with_name(f"{TMP_PREFIX}{target.name}.{secrets.token_hex(6)}{TMP_SUFFIX}")
        try:
            fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o666)
        except FileExistsError:  # pragma: no cover - 48 random bits
            continue
        try:
            if not _lock(fd, tmp):  # removed as stale by another writer before it was locked: another name
                os.close(fd)
                continue
            with os.fdopen(fd, "wb", closefd=False) as fh:
                fh.write(data)
        except BaseException:  # a full disk: no temporary left behind
            os.close(fd)
            tmp.unlink(missing_ok=True)
            raise
        return tmp, fd


def _lock(fd: int, tmp: Path) -> bool:
    """Hold an advisory lock on the temporary ``tmp`` (open as ``fd``) while its writer lives
    (released when it closes or dies); False if ``tmp`` no longer names it (another writer took
    it for a killed one's between its creation and this lock, and removed it)."""
    if fcntl is None:
        return True
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        return os.path.samestat(os.fstat(fd), os.lstat(tmp))
    except FileNotFoundError:
        return False


def _locked(tmp: Path) -> int:
    """A locked descriptor of the temporary ``tmp`` just made."""
    fd = os.open(tmp, os.O_RDONLY | _NOFOLLOW | _CLOEXEC)
    if not _lock(fd, tmp):
        os.close(fd)
        raise FileNotFoundError(errno.ENOENT, "a temporary removed by another writer", str(tmp))
    return fd


def _abandoned(tmp: Path) -> bool:
    """Whether the temporary ``tmp`` is no writer's (its lock free: the writer was killed)."""
    if fcntl is None:
        return True
    try:
        fd = os.open(tmp, os.O_RDONLY | os.O_NONBLOCK | _NOFOLLOW | _CLOEXEC)
    except OSError:  # gone, or a link someone planted: removing the name is safe
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False
    finally:
        os.close(fd)


@contextmanager
def _folder_lock(folder: Path) -> Iterator[None]:
    """An exclusive advisory lock of ``folder`` (its own descriptor) for the block: the renames
    of two writers into one folder do not interleave."""
    if fcntl is None:
        yield
        return
    fd = os.open(folder, os.O_RDONLY | _CLOEXEC | getattr(os, "O_DIRECTORY", 0))
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _settle_all(tmps: list[Path], kept: list[os.stat_result | None]) -> None:
    """:func:`_settle` every temporary file, each in a thread of :func:`_flushers`: the flushes
    wait for the file system's journal together, so one commit serves them all (flushed one
    after another, each waits for a commit of its own: 13 small files took 60-90 ms on a busy
    disk, 1-15 ms together).  Returns once every file is on disk; raises the first failure
    (after every flush has ended)."""
    flushes = [_flushers().submit(_settle, tmp, stat_) for tmp, stat_ in zip(tmps, kept)]
    wait(flushes)
    for flush in flushes:
        flush.result()


#: threads flushing files at once (a results folder has 13 files)
FLUSH_THREADS = 16
_FLUSHERS: list[ThreadPoolExecutor] = []


def _flushers() -> ThreadPoolExecutor:
    """The process's pool of flushing threads, started at its first use and kept (starting 13
    threads for every write cost more than their flushes on a loaded machine)."""
    if not _FLUSHERS:
        _FLUSHERS.append(ThreadPoolExecutor(max_workers=FLUSH_THREADS, thread_name_prefix="flush"))
    return _FLUSHERS[0]


if hasattr(os, "register_at_fork"):  # a forked child has none of its parent's threads: it starts a pool of its own
    os.register_at_fork(after_in_child=_FLUSHERS.clear)


def _settle(tmp: Path, kept: os.stat_result | None, flush: bool = True) -> None:
    """Flush the written temporary file to disk (unless not ``flush``) and give it the replaced
    file's owner, group (where the process may: only root gives a file away) and permission bits."""
    if not flush and kept is None:  # a new file: nothing to do
        return
    fd = os.open(tmp, os.O_RDWR | _NOFOLLOW | _CLOEXEC)
    try:
        if kept is not None and hasattr(os, "fchown"):
            for uid in (kept.st_uid, -1):  # a member of the group may still keep the group
                try:
                    os.fchown(fd, uid, kept.st_gid)
                    break
                except OSError:
                    continue
        if flush:
            os.fsync(fd)
        if kept is not None:
            os.chmod(fd, stat.S_IMODE(kept.st_mode))  # after the chown, which may clear set-id bits
    finally:
        os.close(fd)
