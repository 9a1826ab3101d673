"""Shared test set-up: Qt runs offscreen, and the bundled examples are at hand.

``QT_QPA_PLATFORM`` is set before anything imports Qt, so GUI tests run on a
machine without a screen; if Qt cannot load at all (system libraries missing), the
run stops at once with the ``apt-get install`` line that fixes it.
"""
from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from app.shell.qt_check import require_qt  # noqa: E402  (after the platform is chosen)
from solver.model.io import list_examples  # noqa: E402

require_qt()

EXAMPLE_PATHS = [path for _name, path, _desc in list_examples()]


@pytest.fixture(scope="session")
def examples() -> list[Path]:
    """Paths of every bundled example model."""
    return list(EXAMPLE_PATHS)


@pytest.fixture
def interactive_sigint():
    """SIGINT raises KeyboardInterrupt, as in a Python started at a terminal, whatever the
    suite inherited (a suite started as a background job has SIGINT ignored, and so would
    the commands it starts); the children started meanwhile get the default disposition
    (a handled signal is reset at ``exec``).  Put back after the test."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.fixture
def ignored_sigint():
    """SIGINT ignored, as in a background job of a shell script; put back after the test."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    yield
    signal.signal(signal.SIGINT, previous)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test taking an ``example`` argument runs once per bundled example."""
    if "example" in metafunc.fixturenames:
        metafunc.parametrize("example", EXAMPLE_PATHS, ids=[p.stem for p in EXAMPLE_PATHS])
