"""The log file of unexpected errors, under the platform's user log folder.

Plain Python, no Qt: the folder follows the platforms' conventions (those of the
``platformdirs`` package, without depending on it):

* Linux and other Unixes: ``$XDG_STATE_HOME/flexmech/log`` (``~/.local/state/flexmech/log``);
* macOS: ``~/Library/Logs/Flexmech``;
* Windows: ``%LOCALAPPDATA%\\Flexmech\\Logs``.

``FLEXMECH_LOG_DIR`` overrides it (tests, or a user who wants the log elsewhere).
Every entry is a time stamp, one sentence of what failed and the traceback; the file
is rotated at :data:`MAX_BYTES` (one older copy, ``flexmech.log.1``, is kept).

>>> one_sentence(KeyError, KeyError("mesh"), None)
"An unexpected error stopped what Flexmech was doing: KeyError 'mesh'."
"""
from __future__ import annotations

import os
import sys
import traceback
from datetime import datetime
from pathlib import Path
from types import TracebackType

APP_NAME = "Flexmech"
LOG_NAME = "flexmech.log"
#: size at which the log is rotated, bytes
MAX_BYTES = 1_000_000
#: longest exception message quoted in the one-sentence summary, characters
MAX_MESSAGE = 160


def user_log_dir(platform: str | None = None, environ: dict | None = None, home: Path | None = None) -> Path:
    """The folder of Flexmech's log on ``platform`` (default: this one's ``sys.platform``).

    >>> user_log_dir("linux", {}, Path("/home/ada")).as_posix()
    '/home/ada/.local/state/flexmech/log'
    >>> user_log_dir("darwin", {}, Path("/Users/ada")).as_posix()
    '/Users/ada/Library/Logs/Flexmech'
    >>> user_log_dir("win32", {"LOCALAPPDATA": "C:/Users/ada/AppData/Local"}, Path("C:/Users/ada")).as_posix()
    'C:/Users/ada/AppData/Local/Flexmech/Logs'
    """
    platform = platform or sys.platform
    environ = os.environ if environ is None else environ
    home = home or Path.home()
    if environ.get("FLEXMECH_LOG_DIR"):
        return Path(environ["FLEXMECH_LOG_DIR"])
    if platform.startswith("win"):
        base = environ.get("LOCALAPPDATA") or str(home / "AppData" / "Local")
        return Path(base) / APP_NAME / "Logs"
    if platform == "darwin":
        return home / "Library" / "Logs" / APP_NAME
    state = environ.get("XDG_STATE_HOME") or str(home / ".local" / "state")
    return Path(state) / APP_NAME.lower() / "log"


def log_path() -> Path:
    """The log file unexpected errors are written to."""
    return user_log_dir() / LOG_NAME


def one_sentence(exc_type: type[BaseException], exc: BaseException | None, tb: TracebackType | None) -> str:
    """What failed, in one sentence: the error, its message and where it was raised."""
    message = str(exc) if exc is not None else ""
    if isinstance(exc, KeyError) and exc.args:
        message = repr(exc.args[0])
    if len(message) > MAX_MESSAGE:
        message = message[:MAX_MESSAGE - 1] + "…"
    where = ""
    frames = traceback.extract_tb(tb) if tb is not None else []
    if frames:
        last = frames[-1]
        where = f" in {last.name} ({_short_path(last.filename)}, line {last.lineno})"
    what = f"{exc_type.__name__} {message}".strip()
    return f"An unexpected error stopped what Flexmech was doing: {what}{where}."


def _short_path(filename: str) -> str:
    """``.../app/running/controller.py`` -> ``app/running/controller.py`` (the package path)."""
    parts = Path(filename).parts
    for root in ("app", "solver"):
        if root in parts:
            return "/".join(parts[len(parts) - 1 - parts[::-1].index(root):])
    return Path(filename).name


def traceback_text(exc_type: type[BaseException], exc: BaseException | None, tb: TracebackType | None) -> str:
    """The full traceback, as Python prints it."""
    return "".join(traceback.format_exception(exc_type, exc, tb))


class ErrorLog:
    """Appends unexpected errors to ``path`` (default :func:`log_path`); never raises.

    When the file cannot be written (a read-only home, a full disk), :attr:`path` is
    None from then on and the report says the log could not be written.
    """

    def __init__(self, path: Path | None = None):
        self.path: Path | None = path or log_path()

    def write(self, sentence: str, details: str) -> Path | None:
        """Log one error; the file written, or None when it cannot be written."""
        if self.path is None:
            return None
        stamp = datetime.now().isoformat(sep=" ", timespec="seconds")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if self.path.exists() and self.path.stat().st_size > MAX_BYTES:
                os.replace(self.path, self.path.with_name(self.path.name + ".1"))
            with self.path.open("a", encoding="utf-8") as fh:
                fh.write(f"{stamp} {sentence}\n{details.rstrip()}\n\n")
        except OSError:
            self.path = None
        return self.path
