"""The suite cannot hang: a test past the per-test timeout fails with every thread's stack.

The timeout is pytest-timeout's, configured in pyproject.toml (``timeout``,
``timeout_method = "thread"``).  The check runs a tiny suite under that same
configuration in a subprocess, with the timeout lowered to 2 s, and a test stuck in a
wait beside a helper thread stuck in another.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"

STUCK_TEST = '''
import threading

release = threading.Event()


def helper_waits_forever():
    release.wait()


def test_stuck_in_a_wait():
    threading.Thread(target=helper_waits_forever, name="stuck-helper", daemon=True).start()
    threading.Event().wait(120)
'''


def test_the_suite_runs_under_a_per_test_timeout(pytestconfig):
    assert float(pytestconfig.getini("timeout")) > 0
    assert pytestconfig.getini("timeout_method") == "thread"


def test_a_hung_test_fails_with_the_stacks_of_all_threads(tmp_path):
    (tmp_path / "test_stuck.py").write_text(STUCK_TEST, encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(PYPROJECT), "--rootdir", str(tmp_path), "-p", "no:cacheprovider",
         "-o", "timeout=2", "-o", "addopts=", str(tmp_path / "test_stuck.py")],
        capture_output=True, text=True, timeout=300, cwd=tmp_path)
    output = proc.stdout + proc.stderr
    assert proc.returncode != 0, output
    assert "Timeout" in output, output
    assert "test_stuck_in_a_wait" in output  # the main thread's stack
    assert "stuck-helper" in output and "helper_waits_forever" in output  # and every other thread's
