"""numpy's subpackages a run never uses, loaded only if something uses them.

Any scipy subpackage imports ``scipy._lib._array_api``, which copies numpy's namespace
(``hasattr(numpy, name)`` for every name ``dir(numpy)`` lists) and so imports numpy's lazily
loaded subpackages, among them ``numpy.f2py`` (the Fortran wrapper generator) and
``numpy.testing`` (with ``unittest`` and ``difflib``): about 40 ms of ``flexmech run``'s
84 ms in that import, for modules nothing in the run calls.  :func:`defer_unused_numpy_modules`
puts them in place as :class:`importlib.util.LazyLoader` modules, as the import system would
(in ``sys.modules`` and as attributes of ``numpy``): the copy finds them, and each is executed
at the first use of one of its attributes, as if imported then.
"""
from __future__ import annotations

import importlib.util
import sys

#: numpy's subpackages that scipy's namespace copy imports and a run does not use
UNUSED_NUMPY_MODULES = ("numpy.f2py", "numpy.testing")


def defer_unused_numpy_modules(names: tuple[str, ...] = UNUSED_NUMPY_MODULES) -> list[str]:
    """Make each module of ``names`` not yet imported a lazily executed one (numpy itself is
    imported here); returns those deferred."""
    import numpy

    deferred = []
    for name in names:
        if name in sys.modules:
            continue
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:
            continue
        spec.loader = importlib.util.LazyLoader(spec.loader)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        setattr(numpy, name.rpartition(".")[2], module)
        deferred.append(name)
    return deferred
