"""The solver's kernels (solver/jit.py): numba is imported at the first call of a kernel,
not with the solver; a kernel that calls another compiles; in a fresh process every
kernel a run needs loads from numba's cache (none is compiled again)."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _python(code: str, cwd: Path = ROOT, timeout: float = 900) -> str:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def test_importing_the_solver_does_not_import_numba():
    out = _python("""
        import json, sys
        from solver import api
        from solver.integration import time_loop
        from solver.system.assembly import newton_terms
        print(json.dumps(["numba" in sys.modules, type(newton_terms).__name__]))
    """)
    assert json.loads(out) == [False, "Kernel"]


def test_kernels_calling_kernels_compile_then_load_from_the_cache(tmp_path):
    """A kernel module of its own: ``outer`` calls ``inner``, imported from another module
    (where a stand-in was bound before numba came); compiled in the first process, loaded
    from the cache in the second, the same numbers both times; compiled again in a third
    once ``inner`` has changed (a stale cache gave the old numbers)."""
    package = tmp_path / "kernels_check"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "inner.py").write_text(textwrap.dedent("""
        from solver.jit import njit

        @njit(cache=True)
        def inner(x):
            return 2.0 * x + 1.0
    """))
    (package / "outer.py").write_text(textwrap.dedent("""
        import numpy as np
        from solver.jit import njit
        from .inner import inner

        @njit(cache=True)
        def outer(a):
            out = np.empty_like(a)
            for i in range(a.shape[0]):
                out[i] = inner(a[i])
            return out
    """))
    code = f"""
        import json, sys
        sys.path.insert(0, {str(ROOT)!r})
        import numpy as np
        from kernels_check import outer
        before = "numba" in sys.modules
        values = outer.outer(np.arange(3.0)).tolist()
        dispatcher = outer.outer
        print(json.dumps([before, values, sum(dispatcher.stats.cache_hits.values()),
                          sum(dispatcher.stats.cache_misses.values())]))
    """
    first = json.loads(_python(code, cwd=tmp_path))
    second = json.loads(_python(code, cwd=tmp_path))
    assert first == [False, [1.0, 3.0, 5.0], 0, 1]
    assert second == [False, [1.0, 3.0, 5.0], 1, 0]
    # the callee changes, the caller's file does not: numba alone would load outer's old code
    (package / "inner.py").write_text((package / "inner.py").read_text().replace("2.0 * x", "3.0 * x"))
    third = json.loads(_python(code, cwd=tmp_path))
    assert third == [False, [1.0, 4.0, 7.0], 0, 1]


def test_a_run_loads_every_kernel_from_the_cache():
    """No kernel of the flexible slider-crank is compiled in a fresh process (the session's
    start compiled them): nothing defeats numba's cache (closures, generated functions); and
    none is loaded with its bitcode parsed (solver.jit._lazy_library)."""
    out = _python("""
        import json
        from numba.core.dispatcher import Dispatcher
        from solver import api
        from solver.model.io import examples_dir
        model = api.load_model(examples_dir() / "slider_crank_flexible.json")
        model["solver"]["end_time"] = 5 * model["solver"]["step"]
        api.simulate(model)
        import gc
        kernels = [d for d in gc.get_objects() if isinstance(d, Dispatcher) and d.py_func.__module__.startswith("solver.")]
        def parsed(library):
            return type(library).__name__ != "_LazyLibrary" or library._shared_module is not None
        print(json.dumps({d.py_func.__qualname__: [sum(d.stats.cache_hits.values()), sum(d.stats.cache_misses.values()),
                                                   sum(parsed(c.library) for c in d.overloads.values())]
                          for d in kernels if d.signatures}))
    """)
    loaded = json.loads(out)
    assert len(loaded) >= 8  # 9: the constrained mass matrix is one kernel (mass_factorize), was four
    assert {name: counts for name, counts in loaded.items() if counts[1] or counts[2]} == {}


def test_the_first_kernels_load_ahead_on_a_thread():
    """``solver.integration.preload``: in a fresh process the thread loads every kernel of
    first_kernels() from the cache (none compiled), with the signature a run calls it with (and
    any other a test cached): a run of the rigid and of the flexible slider-crank then loads
    only its step kernel itself."""
    out = _python("""
        import json
        from numba.core.dispatcher import Dispatcher
        from solver.integration.preload import first_kernels, load_kernels_ahead
        load_kernels_ahead().join()
        first = first_kernels()
        ahead = [[len(d.overloads), sum(d.stats.cache_misses.values())] for d in first]
        loaded_by_runs = []
        call = Dispatcher._compile_for_args
        def recorded(self, *args, **kwargs):
            loaded_by_runs.append(self.py_func.__qualname__)
            return call(self, *args, **kwargs)
        Dispatcher._compile_for_args = recorded
        from solver import api
        from solver.model.io import examples_dir
        for name in ("slider_crank_ideal", "slider_crank_flexible"):
            model = api.load_model(examples_dir() / f"{name}.json")
            model["solver"]["end_time"] = 5 * model["solver"]["step"]
            api.simulate(model)
        print(json.dumps([ahead, loaded_by_runs]))
    """)
    ahead, loaded_by_runs = json.loads(out)
    assert len(ahead) == 15 and all(loaded >= 1 and misses == 0 for loaded, misses in ahead)  # tests may cache more
    assert loaded_by_runs == ["free_steps"]


#: kernels of a package of their own for the lazy load's tests: a plain one and one with two
#: intrinsics (scratch on the stack, a fused multiply-add)
LAZY_KERNELS = """
    from solver.jit import fused, local_array, njit

    @njit(cache=True)
    def inner(x):
        return 2.0 * x + 1.0

    @njit(cache=True)
    def shifted_products(a, b):
        work = local_array(2, 3)
        total = 0.0
        for i in range(2):
            for j in range(3):
                work[i, j] = fused(a[j], b[j], float(i))
                total += work[i, j]
        return total
"""

#: in a fresh process: both kernels' values, their libraries' class and whether their bitcode is
#: parsed; ``inner`` called as a first-class function (through its C wrapper's address); then a
#: kernel compiled now (not cached) that calls ``inner`` (numba links inner's library into it)
#: and whether inner's bitcode is parsed after; ``PREPARE`` runs first
LAZY_RUN = """
    import json, sys
    sys.path.insert(0, {root!r})
    import numpy as np
    import numba
    from lazy_check import kernels
    PREPARE
    a, b = np.array([0.1, 0.2, 0.3]), np.array([0.7, 1.1, 1.3])
    values = [kernels.inner(1.5), kernels.shifted_products(a, b)]
    libraries = [kernels.inner.overloads[kernels.inner.signatures[0]].library,
                 kernels.shifted_products.overloads[kernels.shifted_products.signatures[0]].library]
    loaded = [[type(lib).__name__, lib._shared_module is not None] for lib in libraries]
    inner = kernels.inner

    @numba.njit(numba.float64(numba.types.FunctionType(numba.float64(numba.float64)), numba.float64))
    def apply(f, x):
        return f(x)

    values.append(apply(inner, 1.5))

    @numba.njit
    def outer(a):
        total = 0.0
        for x in a:
            total += inner(x)
        return total

    linked = [outer(a), libraries[0]._shared_module is not None]
    hits = sum(kernels.inner.stats.cache_hits.values()) + sum(kernels.shifted_products.stats.cache_hits.values())
    print(json.dumps([values, loaded, linked, hits]))
"""


@pytest.fixture(scope="module")
def lazy_package(tmp_path_factory) -> Path:
    """A folder with the package ``lazy_check`` whose kernels are compiled and cached (a first
    process)."""
    folder = tmp_path_factory.mktemp("lazy")
    (folder / "lazy_check").mkdir()
    (folder / "lazy_check" / "__init__.py").write_text("")
    (folder / "lazy_check" / "kernels.py").write_text(textwrap.dedent(LAZY_KERNELS))
    _python(LAZY_RUN.format(root=str(ROOT)).replace("PREPARE", ""), cwd=folder)
    return folder


#: inner(1.5), shifted_products([0.1, 0.2, 0.3], [0.7, 1.1, 1.3]), inner(1.5) as a first-class function,
#: outer([0.1, 0.2, 0.3]), in exact arithmetic
EXPECTED = [4.0, 2 * (0.07 + 0.22 + 0.39) + 3, 4.0, 2 * 0.6 + 3]


def test_a_cached_kernel_loads_without_parsing_its_bitcode_until_a_new_kernel_links_it(lazy_package):
    """In a fresh process both kernels load from the cache, their shared bitcode unparsed
    (solver.jit._lazy_library: numba parses it at every load), one of them callable as a
    first-class function (the engine knows its C wrapper); a kernel compiled afterwards that
    calls it links its library (its bitcode parsed then) and runs."""
    values, loaded, linked, hits = json.loads(_python(LAZY_RUN.format(root=str(ROOT)).replace("PREPARE", ""),
                                                      cwd=lazy_package))
    assert hits == 2
    assert loaded == [["_LazyLibrary", False], ["_LazyLibrary", False]]
    assert values == pytest.approx(EXPECTED[:3], rel=1e-14)
    assert linked == [pytest.approx(EXPECTED[3], rel=1e-14), True]


def test_a_numba_whose_engine_differs_loads_the_kernels_its_own_way(lazy_package):
    """Where numba's engine does not keep its defined symbols in a set (a numba whose
    internals differ), the kernels load by numba's own load: the same values, and a kernel
    compiled afterwards still links them."""
    prepare = ("from numba.core.registry import cpu_target\n"
               "    engine = cpu_target.target_context.codegen()._engine\n"
               "    engine._defined_symbols = frozenset(engine._defined_symbols)")
    values, loaded, linked, hits = json.loads(_python(LAZY_RUN.format(root=str(ROOT)).replace("PREPARE", prepare),
                                                      cwd=lazy_package))
    assert hits == 2
    assert loaded == [["JITCodeLibrary", True], ["JITCodeLibrary", True]]
    assert values == pytest.approx(EXPECTED[:3], rel=1e-14)
    assert linked == [pytest.approx(EXPECTED[3], rel=1e-14), True]
