"""numba's ``njit`` for the solver's compiled kernels: numba is imported at the first call
of a kernel, not with the solver, and the kernels load from numba's on-disk cache without
numba's full start-up.

Three costs of starting (``docs/performance.md``, "Start-up"):

* ``import numba`` (0.25 s of CPU on the project's machine) is paid by whatever imports a
  kernel module, also where no kernel runs (``flexmech validate``, the GUI before its first
  run).  :func:`njit` with ``cache=True`` returns a :class:`Kernel` that stands for the
  compiled function: the first call of any kernel imports numba and turns every kernel
  made so far into its numba dispatcher (:func:`compile_kernels`), and puts the
  dispatchers in place of the stand-ins in the solver's modules, where a kernel that calls
  another finds it when it is compiled.  A stand-in held elsewhere forwards its calls.
* Before loading a cached kernel numba "refreshes" its compiler contexts: it imports every
  implementation module it has (linear algebra, random numbers, typed containers, dates,
  ...) and installs their typing and lowering tables, 0.25 s more.  Loading machine code
  that is already compiled needs none of it, only numba's reference-counting runtime
  (NRT), which the kernels' arrays are allocated with: the kernels' caches skip the
  refresh when they load (:class:`_KernelCache`).  A kernel that is not in the cache
  (first run, changed source) is compiled as always: numba's compiler refreshes the
  contexts itself.
* numba caches a kernel as its machine code (object code) and its LLVM bitcode, which it
  parses at every load (0.24 s for a clearance run's 33 kernels, and 0.08 s more to list the
  symbols the bitcode defines) though only a kernel compiled later in the process, which
  links the kernel into its own code, reads it.  The kernels' caches make the kernel's code
  library from the machine code alone (:func:`_lazy_library`): the engine is told the
  symbols the machine code defines, read from its symbol table (:func:`_object_symbols`),
  and the bitcode is parsed when a kernel compiled afterwards links the library in.

numba keys a kernel's cache by the kernel's own bytecode and its file's time stamp: a kernel
whose callee (another kernel, an intrinsic) changed in another file would load its old machine
code, with the old callee compiled into it.  The kernels' caches add to the key a digest of
every kernel source of the kernel's package (:func:`kernel_sources_digest`), so that a change
to any kernel recompiles the kernels of its package at their next call.

What is left of loading a kernel (reading its cache file, LLVM linking its machine code into
the process, without the GIL) :func:`load_signatures` does ahead of the kernels' first calls
on a thread of the caller's, while the caller goes on with work of its own
(:mod:`solver.integration.preload`).

Kernels name the intrinsics of :mod:`solver.borrowing` (arrays without reference counts) and
:mod:`solver.fused` (a fused multiply-add) through the stand-ins :data:`borrowed`,
:data:`local_array` and :data:`fused`, put in place like the kernels.

Only the solver's kernels are affected; other numba code in the same process is not.
Should a future numba lack the cache methods, the code library's or the engine's internals
this relies on, or cache a kernel otherwise, the kernels keep numba's own load (slower,
same results).
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib
import math
import struct
import sys
import threading
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

__all__ = ["Intrinsic", "Kernel", "borrowed", "cached_signatures", "compile_kernels", "fused", "kernel_sources_digest",
           "load_signatures", "local_array", "njit", "start_runtime"]

_lock = threading.RLock()
#: the kernels made before numba was imported, waiting for :func:`compile_kernels`
_waiting: list["Kernel"] = []
#: ``numba.njit``, once :func:`compile_kernels` has imported numba
_numba_njit: Callable | None = None


class Kernel:
    """A compiled kernel before numba is imported: calls go to its numba dispatcher, made
    (with every other waiting kernel's) at the first call.  ``py_func`` is the plain
    Python function, as on a numba dispatcher."""

    def __init__(self, func: Callable, options: dict[str, Any]):
        functools.update_wrapper(self, func)
        self.py_func = func
        self.options = options
        self.dispatcher: Any = None

    def __call__(self, *args, **kwargs):
        if self.dispatcher is None:
            compile_kernels()
        return self.dispatcher(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<kernel {self.__module__}.{self.__qualname__}>"


class Intrinsic:
    """Stands for the numba intrinsic ``name`` of :mod:`solver.borrowing` in a kernel module until
    numba is imported (:func:`compile_kernels` puts the intrinsic in its place); called from
    plain Python (a kernel's ``py_func``) it does what the intrinsic means: ``python(*args)``."""

    def __init__(self, name: str, python: Callable, module: str = "borrowing"):
        self.name = name
        self.python = python
        self.module = module  # the module of the solver that defines it

    def intrinsic(self) -> Any:
        return getattr(importlib.import_module(f"{__package__}.{self.module}"), self.name)

    def __call__(self, *args):
        return self.python(*args)

    def __repr__(self) -> str:
        return f"<intrinsic solver.{self.module}.{self.name}>"


def _empty(*shape: int):
    import numpy as np

    return np.empty(shape)


#: a value whose arrays a kernel uses without reference counts (:func:`solver.borrowing.borrowed`)
borrowed = Intrinsic("borrowed", lambda value: value)
#: scratch of a constant shape on a kernel's stack (:func:`solver.borrowing.local_array`)
local_array = Intrinsic("local_array", _empty)


def _fused(a: float, b: float, c: float) -> float:
    """``a b + c`` rounded once (exact rationals; :func:`solver.fused.fused` in a kernel)."""
    if not all(math.isfinite(x) for x in (a, b, c)):
        return a * b + c
    return float(Fraction(a) * Fraction(b) + Fraction(c))


#: a fused multiply-add, ``a b + c`` rounded once (:func:`solver.fused.fused`)
fused = Intrinsic("fused", _fused, "fused")


def njit(*args, **options):
    """``numba.njit`` with the same arguments; with ``cache=True`` a :class:`Kernel` (before
    numba is imported) or a dispatcher that loads from the cache without numba's full
    start-up (module docstring).  Used as ``@njit(cache=True)``."""
    if args or not options.get("cache"):
        import numba

        return numba.njit(*args, **options)

    def decorate(func):
        with _lock:
            if _numba_njit is not None:
                return _dispatcher(func, options)
            kernel = Kernel(func, options)
            _waiting.append(kernel)
            return kernel

    return decorate


def compile_kernels() -> None:
    """Import numba and make the dispatcher of every kernel made so far, in place of its
    :class:`Kernel` in the modules of its package; kernels made afterwards are dispatchers at
    once.  Cheap: machine code is loaded (or compiled) at each kernel's first call."""
    global _numba_njit
    with _lock:
        if _numba_njit is None:
            import numba

            _numba_njit = numba.njit
        if not _waiting:
            return
        packages = {kernel.__module__.split(".")[0] for kernel in _waiting}
        for kernel in _waiting:
            kernel.dispatcher = _dispatcher(kernel.py_func, kernel.options)
        _waiting.clear()
        for name, module in list(sys.modules.items()):  # the kernels' packages: the solver
            if name.split(".")[0] in packages and module is not None:
                _put_in_place(vars(module))


def _put_in_place(namespace: dict) -> None:
    """The dispatchers and intrinsics in place of their stand-ins in a module's ``namespace``."""
    for key, value in list(namespace.items()):
        if isinstance(value, Kernel) and value.dispatcher is not None:
            namespace[key] = value.dispatcher
        elif isinstance(value, Intrinsic):
            namespace[key] = value.intrinsic()


def cached_signatures(kernels) -> list[tuple[Any, tuple]]:
    """The ``(dispatcher, signature)`` of every signature of ``kernels`` (kernels or their
    dispatchers, in order) cached for calls from Python: those without literal arguments (a
    kernel called by another with a constant is compiled into it).  A kernel whose cache is not
    this module's has none; so has every kernel for a numba whose cache index differs from the
    one this relies on (loading ahead only saves time).  Call after :func:`compile_kernels`."""
    from numba.core import types

    pairs = []
    for kernel in kernels:
        dispatcher = kernel.dispatcher if isinstance(kernel, Kernel) else kernel
        cache = getattr(dispatcher, "_cache", None)
        if type(cache) is not _kernel_cache():
            continue
        try:
            codegen = dispatcher.targetctx.codegen()
            keys = [key for key in cache._cache_file._load_index() if key == cache._index_key(key[0], codegen)]
        except (AttributeError, TypeError, IndexError):
            return []
        pairs.extend((dispatcher, key[0]) for key in keys
                     if not any(isinstance(arg, types.Literal) for arg in key[0]))
    return pairs


def start_runtime() -> threading.Thread:
    """Import numba (:func:`compile_kernels`), then initialise its reference-counting runtime
    (NRT), which the first kernel loaded needs, on a daemon thread, which is returned: LLVM
    compiles the runtime at every start (0.04 s, without the GIL).  The thread imports
    nothing; a kernel loaded meanwhile waits for it (numba's compiler lock)."""
    compile_kernels()
    from numba.core.registry import cpu_target
    from numba.core.runtime import rtsys

    thread = threading.Thread(target=rtsys.initialize, args=(cpu_target.target_context,), name="flexmech-nrt",
                              daemon=True)
    thread.start()
    return thread


def load_signatures(pairs: list[tuple[Any, tuple]]) -> None:
    """Load the machine code of each ``(dispatcher, signature)`` of :func:`cached_signatures`
    from numba's cache, in order, so that the kernels' first calls find it loaded.  Meant for a
    thread of its own: numba loads under its compiler lock, so other threads may call the same
    kernels meanwhile; and it imports nothing outside that lock, so they may import modules.
    An error ends the loading quietly: the kernel's first call meets it again, where the caller
    reports it."""
    for dispatcher, signature in pairs:
        try:
            dispatcher.compile(signature)
        except Exception:  # noqa: BLE001 (see the docstring)
            return


def _dispatcher(func: Callable, options: dict[str, Any]):
    from numba.core.caching import CompileResultCacheImpl, FunctionCache

    module = sys.modules.get(func.__module__)
    if module is not None:  # a kernel module imported after numba: its intrinsics
        _put_in_place(vars(module))
    dispatcher = _numba_njit(**options)(func)
    if type(dispatcher._cache) is FunctionCache and _has_methods(FunctionCache, "load_overload", "_load_overload"):
        dispatcher._cache.__class__ = _kernel_cache()  # the same cache, loaded the fast way
        impl = getattr(dispatcher._cache, "_impl", None)
        if type(impl) is CompileResultCacheImpl and _has_methods(CompileResultCacheImpl, "rebuild"):
            impl.__class__ = _lazy_rebuild()  # its code libraries' bitcode parsed at first need
    return dispatcher


def _has_methods(cls: type, *names: str) -> bool:
    return all(callable(getattr(cls, name, None)) for name in names)


#: what marks a source file as holding kernels or intrinsics compiled into them
_KERNEL_MARKS = (b"njit", b"intrinsic")


@functools.cache
def kernel_sources_digest(package: str) -> str:
    """SHA-256 of the path and text of every Python file of ``package`` (a top-level package
    name) holding a kernel or an intrinsic: part of its kernels' cache keys (module docstring).
    Once per process, at the first kernel loaded: 113 files read and 17 hashed for the solver,
    10-20 ms on the project's machine."""
    digest = hashlib.sha256()
    for folder in getattr(sys.modules.get(package), "__path__", ()):
        root = Path(folder)
        for path in sorted(root.rglob("*.py")):
            text = path.read_bytes()
            if any(mark in text for mark in _KERNEL_MARKS):
                digest.update(path.relative_to(root).as_posix().encode() + b"\0" + text + b"\0")
    return digest.hexdigest()


@functools.cache
def _kernel_cache() -> type:
    """:class:`_KernelCache`, made once numba is imported."""
    from numba.core.caching import FunctionCache
    from numba.core.runtime import rtsys

    class _KernelCache(FunctionCache):
        """A kernel's on-disk cache that loads without refreshing the compiler contexts."""

        def load_overload(self, sig, target_context):
            """The cached compile result of ``sig`` (None if not cached), with the runtime the
            compiled code calls (NRT) initialised (cheap after the first time)."""
            rtsys.initialize(target_context)
            return self._load_overload(sig, target_context)

        def _index_key(self, sig, codegen):
            """numba's key (signature, machine, bytecode) and the digest of the kernel
            sources of the kernel's package, which covers the kernels it calls."""
            package = self._py_func.__module__.split(".")[0]
            return (*super()._index_key(sig, codegen), kernel_sources_digest(package))

    return _KernelCache


@functools.cache
def _lazy_rebuild() -> type:
    """:class:`_LazyRebuild`, made once numba is imported."""
    from numba.core.caching import CompileResultCacheImpl
    from numba.core.compiler_lock import global_compiler_lock

    class _LazyRebuild(CompileResultCacheImpl):
        """numba's rebuild of a kernel's cached compile result, its code library made by
        :func:`_lazy_library` (numba's own where that declines)."""

        def rebuild(self, target_context, payload):
            codegen = target_context.codegen()
            with global_compiler_lock, _unserializing(codegen, payload):
                return super().rebuild(target_context, payload)

    return _LazyRebuild


@contextlib.contextmanager
def _unserializing(codegen, payload: tuple):
    """For the duration, ``codegen.unserialize_library`` (which numba's rebuild calls with the
    payload's library data, ``payload[0]``) makes the library by :func:`_lazy_library`; other
    data as numba does.  Held under numba's compiler lock, as every load is."""
    libdata, fndesc = payload[:2] if isinstance(payload, tuple) and len(payload) > 1 else (None, None)
    own = type(codegen).unserialize_library
    previous = vars(codegen).get("unserialize_library")

    def unserialize_library(serialized):
        library = _lazy_library(codegen, serialized, fndesc) if serialized is libdata else None
        return own(codegen, serialized) if library is None else library

    codegen.unserialize_library = unserialize_library
    try:
        yield
    finally:
        if previous is None:
            del codegen.unserialize_library
        else:
            codegen.unserialize_library = previous


def _lazy_library(codegen, libdata, fndesc):
    """The code library of a cached kernel as numba's ``JITCodeLibrary._unserialize`` makes it
    from object code, without parsing the library's bitcode (module docstring): the machine
    code is the cached object code, the engine knows the symbols it defines (among them the
    kernel's entry points, which ``get_pointer_to_function`` looks up) and the bitcode waits
    in a :func:`_lazy_library_class` library for the first kernel that links it in.  None, for
    numba's own load, where the data or numba's internals are not what this relies on."""
    try:
        name, kind, (object_code, shared_bitcode) = libdata
        entry_points = {fndesc.llvm_func_name, fndesc.llvm_cpython_wrapper_name}
    except (TypeError, ValueError, AttributeError):
        return None
    library_class = _lazy_library_class(type(codegen))
    defined = getattr(getattr(codegen, "_engine", None), "_defined_symbols", None)
    if kind != "object" or library_class is None or not isinstance(defined, set):
        return None
    symbols = _object_symbols(object_code)
    if symbols is None or not entry_points <= symbols:
        return None
    library = library_class(codegen, name)
    if "_shared_module" not in vars(library):
        return None
    library.enable_object_caching()
    library._set_compiled_object(object_code)
    library._shared_bitcode = shared_bitcode
    library._finalize_final_module()
    defined.update(symbols)
    return library


#: ELF: the section type of a symbol table, the undefined section, the bindings GLOBAL and WEAK
_SHT_SYMTAB, _SHN_UNDEF, _EXPORTED = 2, 0, (1, 2)


def _object_symbols(object_code: bytes) -> set[str] | None:
    """The names of the global and weak symbols ``object_code`` defines, from its symbol table:
    the functions and variables of the library's module that other code can name (numba lists
    them, and the module's internal ones, from the bitcode: for the 446 cached kernels of the
    solver the same names).  None for an object file other than 64-bit little-endian ELF (what
    numba compiles on Linux x86-64 and aarch64) or one that does not read as such."""
    if object_code[:6] != b"\x7fELF\x02\x01":
        return None
    try:  # the ELF header's e_shoff, e_shentsize and e_shnum: where the section headers are
        offset, = struct.unpack_from("<Q", object_code, 0x28)
        entry_size, count = struct.unpack_from("<HH", object_code, 0x3A)
        sections = [struct.unpack_from("<IIQQQQIIQQ", object_code, offset + i * entry_size) for i in range(count)]
        names = set()
        for _, kind, _, _, start, size, link, *_ in sections:
            if kind == _SHT_SYMTAB:
                strings = sections[link][4]
                for name, info, _, section, _, _ in struct.iter_unpack("<IBBHQQ", object_code[start:start + size]):
                    if section != _SHN_UNDEF and info >> 4 in _EXPORTED:
                        first = strings + name
                        names.add(object_code[first:object_code.index(b"\0", first)].decode())
        return names
    except (struct.error, IndexError, ValueError):  # UnicodeDecodeError is a ValueError
        return None


@functools.cache
def _lazy_library_class(codegen_class: type) -> type | None:
    """The code library class of ``codegen_class`` (numba's ``JITCodeLibrary``) whose module for
    linking into later compilations, the shared bitcode, is parsed at the first link; None
    where numba's library or engine lacks what this relies on."""
    from numba.core.codegen import JitEngine

    base = getattr(codegen_class, "_library_class", None)
    if not isinstance(base, type) or not _has_methods(
            base, "enable_object_caching", "_set_compiled_object", "_finalize_final_module",
            "_get_module_for_linking") or not _has_methods(JitEngine, "_load_defined_symbols"):
        return None

    class _LazyLibrary(base):
        """A kernel's code library loaded from the cache whose shared bitcode is parsed when a
        kernel compiled later links it in (numba parses it at every load)."""

        _shared_bitcode: bytes | None = None

        def _get_module_for_linking(self):
            if self._shared_module is None and self._shared_bitcode is not None:
                import llvmlite.binding as llvm

                self._shared_module = llvm.parse_bitcode(self._shared_bitcode)
                self._shared_bitcode = None
                self._codegen._engine._load_defined_symbols(self._shared_module)
            return super()._get_module_for_linking()

    return _LazyLibrary
