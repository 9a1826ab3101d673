"""The suite cannot hang: a test past the per-test timeout fails with every thread's stack.

The timeout is pytest-timeout's, configured in pyproject.toml (``timeout``,
``timeout_method = "thread"``), with a watchdog that needs no GIL behind it
(tests/conftest.py).  The checks run a tiny suite under that same configuration and
conftest in a subprocess, with the timeout lowered to 2 s: a test stuck in a wait beside
a helper thread stuck in another, and a test stuck while holding the GIL (as a deadlock
between Qt's mutexes and the GIL does).
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
PYPROJECT = TESTS.parent / "pyproject.toml"

STUCK_TEST = '''
import threading

release = threading.Event()


def helper_waits_forever():
    release.wait()


def test_stuck_in_a_wait():
    threading.Thread(target=helper_waits_forever, name="stuck-helper", daemon=True).start()
    threading.Event().wait(120)
'''

STUCK_HOLDING_THE_GIL = STUCK_TEST.replace(
    "threading.Event().wait(120)",
    "import ctypes; ctypes.PyDLL(None).sleep(120)  # a C call that keeps the GIL")


def test_the_suite_runs_under_a_per_test_timeout(pytestconfig):
    assert float(pytestconfig.getini("timeout")) > 0
    assert pytestconfig.getini("timeout_method") == "thread"


@pytest.mark.parametrize("body", [STUCK_TEST, STUCK_HOLDING_THE_GIL], ids=["waiting", "holding-the-gil"])
def test_a_hung_test_fails_with_the_stacks_of_all_threads(tmp_path, body):
    shutil.copy(TESTS / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_stuck.py").write_text(body, encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(PYPROJECT), "--rootdir", str(tmp_path), "-p", "no:cacheprovider",
         "-o", "timeout=2", "-o", "addopts=", str(tmp_path / "test_stuck.py")],
        capture_output=True, text=True, timeout=600, cwd=tmp_path)
    output = proc.stdout + proc.stderr
    assert proc.returncode != 0, output
    assert "test_stuck_in_a_wait" in output, output  # the main thread's stack
    assert "helper_waits_forever" in output  # and every other thread's
