"""numba's ``njit`` for the solver's compiled kernels, whose on-disk cache loads without
numba's full start-up.

Before loading a cached kernel numba "refreshes" its compiler contexts: it imports every
implementation module it has (linear algebra, random numbers, typed containers, dates,
...) and installs their typing and lowering tables, about 0.25 s of CPU on the project's
machine, a quarter of a headless run's whole budget (``docs/performance.md``, "Start-up").
Loading machine code that is already compiled needs none of it: only numba's reference-
counting runtime (NRT), which the kernels' arrays are allocated with.  :func:`njit` is
numba's, except that with ``cache=True`` the kernel's cache skips that refresh when it
loads (:class:`_KernelCache`).  A kernel that is not in the cache (first run, changed
source) is compiled as always: numba's compiler refreshes the contexts itself.

Only the solver's kernels are affected; other numba code in the same process is not.
Should a future numba lack the two methods this relies on, the kernels keep numba's own
cache (slower to load, same results).
"""
from __future__ import annotations

import numba
from numba.core.caching import FunctionCache
from numba.core.runtime import rtsys

__all__ = ["njit"]


class _KernelCache(FunctionCache):
    """A kernel's on-disk cache that loads without refreshing the compiler contexts."""

    def load_overload(self, sig, target_context):
        """The cached compile result of ``sig`` (None if not cached), with the runtime the
        compiled code calls (NRT) initialised (cheap after the first time)."""
        rtsys.initialize(target_context)
        return self._load_overload(sig, target_context)


#: whether this numba has what :class:`_KernelCache` overrides and calls
_FAST_LOAD = callable(getattr(FunctionCache, "_load_overload", None)) and callable(
    getattr(FunctionCache, "load_overload", None))


def njit(*args, **kwargs):
    """``numba.njit`` with the same arguments; with ``cache=True`` the kernel loads from the
    cache without numba's full start-up (module docstring).  Used as ``@njit(cache=True)``."""
    decorate = numba.njit(*args, **kwargs)
    if not (kwargs.get("cache") and _FAST_LOAD):
        return decorate

    def decorate_kernel(func):
        dispatcher = decorate(func)
        dispatcher._cache.__class__ = _KernelCache  # the same cache, loaded the fast way
        return dispatcher

    return decorate_kernel
