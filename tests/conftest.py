"""Shared test set-up: Qt runs offscreen, and the bundled examples are at hand.

``QT_QPA_PLATFORM`` is set before anything imports Qt, so GUI tests run on a
machine without a screen; if Qt cannot load at all (system libraries missing), the
run stops at once with the ``apt-get install`` line that fixes it.

Before the first test the solver's numba kernels are compiled, in the main thread
(:func:`pytest_sessionstart`): in a fresh checkout that takes minutes on a busy
machine, which would otherwise fall on whichever test simulates first (against its
time limits) and on a GUI run's worker thread.
"""
from __future__ import annotations

import faulthandler
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from app.shell.qt_check import require_qt  # noqa: E402  (after the platform is chosen)
from solver.model.io import list_examples  # noqa: E402

require_qt()

EXAMPLE_PATHS = [path for _name, path, _desc in list_examples()]

#: examples whose first steps call every kind of compiled kernel: corotational beams
#: and impact, Lagrange contact, modal links, clearance joints, compliant contact laws
KERNEL_EXAMPLES = ("bar_mass_impact", "bar_mass_impact_lagrange", "pendulum_flexible_modal3_energetic",
                   "slider_crank_clearance_lankarani_nikravesh", "spheres_hertz", "robot_arm",
                   "slider_crank_flexible", "rod_floor_flexible", "moving_mass_beam", "timoshenko_cantilever_stubby")
#: the bound (s) on compiling them; past it the run stops with every thread's stack
KERNEL_COMPILE_LIMIT_S = 1800
#: the bound (s) on the kernel warm-up process's exit once terminated
WARMUP_EXIT_S = 30


#: the stderr of the run, as it was before output capture (where the watchdog writes)
_WATCHDOG_FD = pytest.StashKey[int]()


def _whole_suite(config: pytest.Config) -> bool:
    """The suite as the README runs it: no paths given (``testpaths``), not an xdist worker."""
    return config.args_source != pytest.Config.ArgsSource.ARGS and not hasattr(config, "workerinput")


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """The whole suite runs on every core the process may use, one pytest-xdist worker each, a
    test file's tests on one worker (its module fixtures and cached runs made once) -- unless
    ``-n``/``--dist`` says otherwise; a subset of tests runs in this process."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    if (_whole_suite(config) and config.pluginmanager.hasplugin("xdist") and cores > 1
            and config.option.numprocesses is None and config.option.dist == "no"):
        config.option.numprocesses, config.option.dist, config.option.tx = cores, "loadfile", ["popen"] * cores
        config.option.loadscopereorder = False  # the files in the order of pytest_collection_modifyitems
    try:
        fd = sys.stderr.fileno()
    except (AttributeError, ValueError):
        fd = sys.__stderr__.fileno()
    config.stash[_WATCHDOG_FD] = os.dup(fd)


def pytest_unconfigure(config: pytest.Config) -> None:
    os.close(config.stash[_WATCHDOG_FD])
    warmup = config.stash.get(_WARMUP, None)
    if warmup is not None and warmup.poll() is None:  # the suite ended first: the warm-up is no use now
        warmup.terminate()
        try:
            warmup.wait(WARMUP_EXIT_S)
        except subprocess.TimeoutExpired:  # stuck inside the compiler: it goes all the same
            warmup.kill()
            warmup.wait(WARMUP_EXIT_S)


def _timeout_of(item: pytest.Item) -> float:
    """The test's pytest-timeout limit (s): its marker, else ``--timeout``, else the ini's."""
    marker = item.get_closest_marker("timeout")
    if marker is not None and (marker.args or "timeout" in marker.kwargs):
        value = marker.args[0] if marker.args else marker.kwargs["timeout"]
    else:
        value = item.config.getoption("timeout", None) or item.config.getini("timeout")
    return float(value or 0)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem):
    """A watchdog that needs no GIL behind pytest-timeout's: pytest-timeout's watchdog is
    a Python thread, which never runs while a deadlocked thread holds the GIL (the stall
    of app/running/gui_gc.py did).  faulthandler's C thread writes every thread's stack
    and ends the run (status 1) a little after the test's timeout."""
    limit = _timeout_of(item)
    if limit > 0:
        faulthandler.dump_traceback_later(1.1 * limit + 5, exit=True, file=item.config.stash[_WATCHDOG_FD])
    try:
        return (yield)
    finally:
        if limit > 0:
            faulthandler.cancel_dump_traceback_later()


_WARMUP = pytest.StashKey[subprocess.Popen]()

#: the test files of a minute or more (processor time, one process): the first the workers take,
#: longest first, so that none is left running alone after the others have finished (xdist's own
#: order puts the files with the most tests first: the fuzz harness, 2 tests and 3 minutes, last)
LONG_FILES = ("tests/solver/test_fuzz.py", "tests/app/test_analysis_dock.py", "tests/solver/test_optimum.py",
              "tests/app/test_moving.py", "tests/oracles/test_balance.py", "tests/app/test_main_window.py")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On a worker of the whole suite, the tests of :data:`LONG_FILES` first (every worker
    collects the same order: the sort is stable)."""
    if hasattr(config, "workerinput") and config.option.loadscopereorder is False:
        rank = {name: index for index, name in enumerate(LONG_FILES)}
        items.sort(key=lambda item: rank.get(item.nodeid.partition("::")[0], len(rank)))


def pytest_sessionstart(session: pytest.Session) -> None:
    """Compile the solver's kernels (or load them from numba's cache: seconds) by running
    the first steps of :data:`KERNEL_EXAMPLES`; for the whole suite (no paths given), compile
    the kernels of every example's impacts meanwhile in a second process (:mod:`tests.kernel_warmup`),
    started once the first example compiled the Newton machinery every kernel calls: started at
    once, both processes compiled it, and the kernels after it, side by side (in a fresh clone the
    warm-up took 349 s of CPU beside this process instead of 217 after it).
    The whole suite's xdist controller runs this before it starts its workers (xdist's own
    ``pytest_sessionstart`` comes last): the workers, which run it too, load the kernels the
    controller compiled instead of each compiling them at once."""
    from solver.api import load_model, simulate
    from solver.model.io import examples_dir

    faulthandler.dump_traceback_later(KERNEL_COMPILE_LIMIT_S, exit=True, file=sys.stderr)
    try:
        for name in KERNEL_EXAMPLES:
            model = load_model(examples_dir() / f"{name}.json")
            step = model["solver"]["step"]
            model["solver"].update(end_time=3 * step, output_interval=3 * step)
            simulate(model)
            if _whole_suite(session.config) and _WARMUP not in session.config.stash:  # the controller of the workers
                session.config.stash[_WARMUP] = subprocess.Popen(
                    [sys.executable, "-m", "tests.kernel_warmup"], cwd=session.config.rootpath,
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    finally:
        faulthandler.cancel_dump_traceback_later()


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
