"""Check that Qt can start before the GUI (or a GUI test) imports it.

The PySide6 wheel brings Qt itself, but Qt loads a few system libraries (EGL/GL,
xkbcommon, fontconfig, D-Bus, and the xcb libraries for a desktop window) that a
bare Debian/Ubuntu machine may lack.  Without them ``import PySide6.QtGui`` fails
with a terse linker message; here it becomes one clear line to run.

>>> qt_problem() is None    # doctest: +SKIP
True
"""
from __future__ import annotations

import ctypes
import os
import sys

#: Debian/Ubuntu packages with every system library the PySide6 wheel's Qt loads
#: (found with ``ldd`` on libQt6Gui, libQt6XcbQpa and the platform plugins).
APT_PACKAGES = (
    "libegl1",
    "libgl1",
    "libglib2.0-0",
    "libfontconfig1",
    "libfreetype6",
    "fonts-dejavu-core",
    "libdbus-1-3",
    "libxkbcommon0",
    "libxkbcommon-x11-0",
    "libx11-6",
    "libx11-xcb1",
    "libxcb-cursor0",
    "libxcb-icccm4",
    "libxcb-image0",
    "libxcb-keysyms1",
    "libxcb-randr0",
    "libxcb-render-util0",
    "libxcb-shape0",
    "libxcb-xkb1",
    "libxcb-util1",
)

#: libraries the xcb platform plugin (a window on an X11 desktop) loads on top of QtGui's
XCB_LIBRARIES = (
    "libxkbcommon-x11.so.0",
    "libX11-xcb.so.1",
    "libxcb-cursor.so.0",
    "libxcb-icccm.so.4",
    "libxcb-image.so.0",
    "libxcb-keysyms.so.1",
    "libxcb-randr.so.0",
    "libxcb-render-util.so.0",
    "libxcb-shape.so.0",
    "libxcb-xkb.so.1",
    "libxcb-util.so.1",
)


def apt_command() -> str:
    """The one command that installs every system package Qt needs."""
    sudo = "sudo " if hasattr(os, "geteuid") and os.geteuid() != 0 else ""
    return f"{sudo}apt-get install -y " + " ".join(APT_PACKAGES)


def qt_problem(gui: bool = False) -> str | None:
    """Why Qt cannot start here, as a message for the user; None when it can.

    With ``gui=True`` the libraries of the xcb platform plugin are checked too
    when Qt will open its window through X11.
    """
    try:
        from PySide6 import QtGui  # noqa: F401  (the import is the check)
    except ImportError as exc:
        return _message(f"Qt cannot be loaded: {exc}")
    if gui and _uses_xcb():
        missing = [lib for lib in XCB_LIBRARIES if not _loadable(lib)]
        if missing:
            return _message("Qt cannot open a window: missing " + ", ".join(missing))
    return None


def require_qt(gui: bool = False) -> None:
    """Print :func:`qt_problem`'s message and exit with status 1 if Qt cannot start."""
    problem = qt_problem(gui)
    if problem is not None:
        print(problem, file=sys.stderr)
        raise SystemExit(1)


def _message(cause: str) -> str:
    return (
        f"flexmech: {cause}\n"
        "Qt needs a few system libraries. On Debian or Ubuntu, install them with:\n\n"
        f"    {apt_command()}\n"
    )


def _uses_xcb() -> bool:
    """Whether Qt will pick its X11 (xcb) platform plugin, as Qt 6 does by default on Linux."""
    default = "wayland" if os.environ.get("XDG_SESSION_TYPE") == "wayland" else "xcb"
    platform = os.environ.get("QT_QPA_PLATFORM") or default
    return sys.platform.startswith("linux") and platform.split(";")[0].split(":")[0] == "xcb"


def _loadable(soname: str) -> bool:
    try:
        ctypes.CDLL(soname)
    except OSError:
        return False
    return True
