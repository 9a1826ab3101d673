"""Big models: a run of more than SINGLE_BLAS_THREAD_DOFS dofs keeps BLAS to one thread while it
runs (OpenBLAS's threads cost a frame of a 4000-element link several times its work on a
shared machine) and gives the threads back when it ends or is closed; a small run leaves
them alone."""
from __future__ import annotations

from threadpoolctl import threadpool_info, threadpool_limits

from solver.api import iter_simulation
from solver.integration.time_loop import SINGLE_BLAS_THREAD_DOFS
from solver.results.frames import Results

from .builders import beam_model


def blas_threads() -> int:
    return max(lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas")


def beam(elements: int) -> dict:
    return beam_model(n=elements, solver={"end_time": 2e-4, "step": 1e-4, "output_interval": 1e-4})


def test_a_big_run_has_one_blas_thread_until_it_ends_or_is_closed():
    elements = SINGLE_BLAS_THREAD_DOFS // 3 + 1  # 3 dofs per mesh node
    with threadpool_limits(limits=2, user_api="blas"):
        before = blas_threads()
        items = iter_simulation(beam(elements))
        first = next(items)
        assert first.node_xy.shape[0] == elements + 1
        assert blas_threads() == 1
        last = list(items)[-1]
        assert isinstance(last, Results) and last.completed
        assert blas_threads() == before
        items = iter_simulation(beam(elements))
        next(items)
        assert blas_threads() == 1
        items.close()  # a cancelled viewer drops the generator
        assert blas_threads() == before


def test_a_small_run_leaves_blas_alone():
    with threadpool_limits(limits=2, user_api="blas"):
        before = blas_threads()
        items = iter_simulation(beam(10))
        next(items)
        assert blas_threads() == before
        items.close()
