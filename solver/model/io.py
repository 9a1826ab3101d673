"""Reading and writing model files: exact round-trip, atomic writes.

The document is kept as the user wrote it (no defaults filled in), so that
``save_model(load_model(p))`` rewrites the same content.  Files are written in one
canonical layout (2-space indent, keys in the order given), which the bundled
examples use too.
"""
from __future__ import annotations

import json
import os
import secrets
import shutil
import stat
from concurrent.futures import ThreadPoolExecutor, wait
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

from .validate import ModelError, Problem, validate


def dumps_model(doc: dict) -> str:
    """The canonical text of a model document."""
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def _parse_int(digits: str) -> int | float:
    """An integer of the file; one longer than Python converts (``sys.get_int_max_str_digits``)
    becomes an infinite float, which validation refuses at its path."""
    try:
        return int(digits)
    except ValueError:
        return float(digits)


def parse_model(text: str, edit: Callable[[dict], None] | None = None) -> dict:
    """Parse and validate model text; raise :class:`ModelError` listing every problem.

    ``edit`` changes the parsed document (an object) before it is validated (``flexmech run
    --record`` sets what the run records: a model the record makes fit is valid)."""
    try:
        doc = json.loads(text, parse_int=_parse_int)
    except json.JSONDecodeError as exc:
        raise ModelError([Problem("", f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}")]) from None
    except RecursionError:
        raise ModelError([Problem("", "invalid JSON: nested too deeply")]) from None
    if edit is not None and isinstance(doc, dict):
        edit(doc)
    problems = validate(doc)
    if problems:
        raise ModelError(problems)
    return doc


def load_model(path: str | os.PathLike, edit: Callable[[dict], None] | None = None) -> dict:
    """Load and validate a model file (``edit``: see :func:`parse_model`)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ModelError([Problem("", f"cannot read {path}: {exc.strerror}")]) from None
    except UnicodeDecodeError as exc:
        raise ModelError([Problem("", f"cannot read {path}: not UTF-8 text (byte {exc.start})")]) from None
    return parse_model(text, edit)


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` (UTF-8, ``\\n`` line ends) to ``path`` atomically: see :func:`replacing`."""
    with replacing(path) as tmp, open(tmp, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)


#: a temporary file beside its target is named ``.<name>.<random>.tmp``
TMP_PREFIX, TMP_SUFFIX = ".", ".tmp"


@contextmanager
def replacing(path: str | os.PathLike) -> Iterator[Path]:
    """A temporary file to write, renamed over ``path`` when the block ends without error.

    A reader never sees half a file and a crash leaves the previous file whole.  The file
    keeps what the user gave it: a symbolic link is followed (the target is replaced, the
    link stays), an existing file's mode and, where the process may, its owner and group
    carry over (a new file gets the mode the umask gives).  The temporary file
    (``.<name>.<random>.tmp`` beside the target) is removed on every failure, and those an
    interrupted write of the same file left (a killed process) are removed first.

    >>> with replacing("sweep.parquet") as tmp:                    # doctest: +SKIP
    ...     pyarrow.parquet.write_table(table, tmp)
    """
    with replacing_together([path]) as (tmp,):
        yield tmp


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
        self._folders: dict[str, Path] = {}  # each folder given, resolved
        self._listed: dict[Path, dict[str, bool]] = {}  # each folder's names (is it a link?), listed once
        self._pending: list[tuple[Path, Path, os.stat_result | None]] = []  # (temporary, target, its stat)
        self._obsolete: list[Path] = []

    def _names(self, folder: Path) -> dict[str, bool]:
        """The names in ``folder`` (created if needed), each with whether it is a symbolic link."""
        if folder not in self._listed:
            folder.mkdir(parents=True, exist_ok=True)
            with os.scandir(folder) as entries:
                self._listed[folder] = {entry.name: entry.is_symlink() for entry in entries}
        return self._listed[folder]

    def _folder(self, path: str | os.PathLike) -> tuple[Path, str]:
        """The resolved folder of ``path`` and its name there."""
        parent, name = os.path.split(os.fspath(path))
        if parent not in self._folders:
            self._folders[parent] = Path(os.path.realpath(parent or "."))
        return self._folders[parent], name

    def _target(self, path: str | os.PathLike) -> Path:
        """The file ``path`` names, a symbolic link followed."""
        folder, name = self._folder(path)
        return Path(os.path.realpath(folder / name)) if self._names(folder).get(name) else folder / name

    def temporary(self, path: str | os.PathLike, data: bytes = b"") -> Path:
        """A temporary file for ``path`` holding ``data`` (default: empty; written as the file is
        made, where a write after would open it again: a third of a small folder's write went
        to making files); the temporaries of an interrupted write of the same file, a killed
        process's, are removed first; the folder is created if needed."""
        target = self._target(path)
        self.remove_stale([target])
        try:
            kept = os.stat(target)
        except FileNotFoundError:
            kept = None
        tmp = _new_temporary(target, data)
        self._pending.append((tmp, target, kept))
        return tmp

    def link(self, source: str | os.PathLike, path: str | os.PathLike) -> None:
        """``path`` replaced by the file ``source``: its temporary is a hard link to ``source`` (a
        copy where no link can be made), which keeps the source's owner and mode (a link shares
        them: :meth:`commit` leaves them alone); nothing to replace where ``path`` already is
        ``source``'s file."""
        target = self._target(path)
        self.remove_stale([target])
        if target.exists() and os.path.samefile(source, target):
            return
        tmp = _new_temporary(target)
        tmp.unlink()
        try:
            os.link(source, tmp)
        except OSError:  # another file system, or one without hard links
            shutil.copyfile(source, tmp)
        self._pending.append((tmp, target, None))

    def remove_stale(self, paths: list[str | os.PathLike]) -> None:
        """Remove the temporaries an interrupted write of ``paths`` left (a folder's names are
        looked at only if it holds a temporary)."""
        for path in paths:
            names = self._names(self._folder(path)[0])
            if not any(n.startswith(TMP_PREFIX) and n.endswith(TMP_SUFFIX) for n in names):
                continue
            target = self._target(path)
            names = self._names(target.parent)
            for name in [n for n in names if n.startswith(TMP_PREFIX) and n.endswith(TMP_SUFFIX)
                         and n[len(TMP_PREFIX): -len(TMP_SUFFIX)].rpartition(".")[0] == target.name]:
                (target.parent / name).unlink(missing_ok=True)
                del names[name]

    def remove_after(self, paths: list[str | os.PathLike]) -> None:
        """Remove ``paths`` (those that exist) once every temporary is renamed into place."""
        for path in paths:
            folder, name = self._folder(path)
            if name in self._names(folder):
                self._obsolete.append(folder / name)  # a symbolic link itself, not what it names

    def commit(self) -> None:
        tmps, kept = [tmp for tmp, _, _ in self._pending], [kept for _, _, kept in self._pending]
        if self.flush_over and sum(os.stat(tmp).st_size for tmp in tmps) <= self.flush_over:
            for tmp, stat_ in zip(tmps, kept):
                _settle(tmp, stat_, flush=False)
        else:
            _settle_all(tmps, kept)
        for tmp, target, _ in self._pending:
            os.replace(tmp, target)
        self._pending = []
        for path in self._obsolete:
            path.unlink(missing_ok=True)

    def discard(self) -> None:
        """Remove the temporaries not renamed (after a failure)."""
        for tmp, _, _ in self._pending:
            tmp.unlink(missing_ok=True)
        self._pending = []


def _new_temporary(target: Path, data: bytes = b"") -> Path:
    """Create a temporary file holding ``data`` beside ``target`` (mode 0666 less the umask), unique."""
    while True:
        tmp = target.with_name(f"{TMP_PREFIX}{target.name}.{secrets.token_hex(6)}{TMP_SUFFIX}")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:  # pragma: no cover - 48 random bits
            continue
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
        except BaseException:  # a full disk: no temporary left behind
            tmp.unlink(missing_ok=True)
            raise
        return tmp


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
    fd = os.open(tmp, os.O_RDWR)
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
    finally:
        os.close(fd)
    if kept is not None:
        os.chmod(tmp, stat.S_IMODE(kept.st_mode))  # after the chown, which may clear set-id bits


def save_model(doc: dict, path: str | os.PathLike) -> None:
    """Save a model document atomically in the canonical layout."""
    atomic_write_text(path, dumps_model(doc))


def model_with_defaults(doc: dict) -> dict:
    """A copy of the document with every omitted field at its schema default."""
    from .fields import with_defaults
    from .schema import MODEL

    return with_defaults(MODEL, doc)


def examples_dir() -> Path:
    """The folder of bundled example models."""
    return Path(__file__).resolve().parents[2] / "resources" / "examples"


def list_examples() -> list[tuple[str, Path, str]]:
    """``(name, path, description)`` of every bundled example, sorted by name."""
    out = []
    for p in sorted(examples_dir().glob("*.json")):
        try:
            desc = json.loads(p.read_text(encoding="utf-8")).get("description", "")
        except (OSError, json.JSONDecodeError):
            desc = "(unreadable)"
        out.append((p.stem, p, desc))
    return out


def read_json(path: str | os.PathLike) -> Any:
    return json.loads(Path(path).read_text(encoding="utf-8"))
