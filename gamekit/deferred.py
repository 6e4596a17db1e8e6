"""Machine code for the engine once per entry point, not once per engine function.

Both engines' (Trinidad's sim and strategies, Río de la Plata's rio) and this package's own.

Numba finalises every jitted function it compiles as if Python were about to call it: it links the
LLVM code of everything the function calls (transitively) into the function's own module, runs the
whole optimisation pipeline over that module, and emits machine code for it. The engine is a deep
call graph (``play_game`` reaches about 500 functions), so every level re-optimises and re-emits
the code of all the levels below it: the cold compile measured 802 s on the 2-core development
machine, 84% of it inside LLVM (docs/notebook/performance.md, "Where the cold compile goes").

Only the functions Python calls need machine code; a function compiled because another jitted
function calls it only needs its LLVM code, which its caller links in. This hook defers the rest:

- A project function compiled while another function is being compiled (a *callee*) gets a
  *deferred* library: its own optimised LLVM functions, no linking, no module optimisation, no
  machine code, and nothing written to the on-disk cache.
- A function compiled for a call from Python (an *entry point*: ``play_game``, ``play_batch``, a
  test calling a kernel) links its callees' deferred code transitively (each function once),
  optimises the whole once and emits its machine code; it is cached as before (object code).
- If Python later calls a function that was compiled as a callee, its machine code is made then
  (linked, optimised, emitted and cached as an entry point), once.

The code that runs is the same LLVM code optimised by the same pipeline; only the repetition is
gone. Games are unchanged (``python -m trinidad.digest --check docs/data/digests.json``). Installed
by :mod:`gamekit.numba_cache` (with :mod:`gamekit.specialize`) when Numba is first imported, whichever
engine imports it; set ``TRINIDAD_DEFER=0`` to compile the Numba way (to compare). Río de la Plata's
cold compile: 458 s the Numba way, 170 s deferred (the 2-core machine, loaded; docs/notebook/rio.md).
"""

from __future__ import annotations

import os
import threading

from numba.core import caching, codegen, cpu, dispatcher
from numba.core.compiler_lock import global_compiler_lock

from gamekit.compile_env import entry_passes

_OWN = ("sim", "strategies", "trinidad", "gamekit", "rio")  # both engines, their players and orchestration
_state = threading.local()


def _stack() -> list:
    s = getattr(_state, "stack", None)
    if s is None:
        s = _state.stack = []
    return s


def _own(py_func) -> bool:
    return getattr(py_func, "__module__", "").split(".")[0] in _OWN


def _deferred(library) -> bool:
    return getattr(library, "_trinidad_deferred", False)


class LazyEntry:
    """A callee's entry point until Python calls it: the first call makes the machine code (an
    entry point's library: the callee's code and all it calls, optimised once) and registers it
    with the dispatcher, so later calls go straight to it."""

    def __init__(self, context, library, fndesc, env):
        self.context, self.library, self.fndesc, self.env = context, library, fndesc, env
        self.dispatcher = self.cres = None
        self.cfunc = None

    def materialize(self):
        with global_compiler_lock:
            return self._materialize()

    def _materialize(self):
        if self.cfunc is None:
            lib = self.library
            full = lib.codegen.create_library(lib.name)
            full.enable_object_caching()
            full._final_module.link_in(lib._final_module.clone())  # its own functions keep their linkage
            full._linking_libraries = list(lib._linking_libraries)
            full._reload_init.update(lib._reload_init)
            full.finalize()
            self.cfunc = _numba_get_executable(self.context, full, self.fndesc, self.env)
            if self.dispatcher is not None and self.cres is not None:
                cres = self.cres._replace(entry_point=self.cfunc, library=full)
                self.dispatcher._insert([a._code for a in cres.signature.args], self.cfunc, False)
                self.dispatcher._cache.save_overload(tuple(cres.signature.args), cres)
        return self.cfunc

    def __call__(self, *args, **kws):
        return self.materialize()(*args, **kws)


def _transitive(libraries):
    """The libraries to link into an entry point: each deferred library once, with everything it
    links (deferred libraries hold only their own functions); finalised libraries as they are.

    In reverse postorder, so that a library comes after every library that links it: LLVM's
    linker takes a ``linkonce_odr`` function (all linked code is, see
    ``CPUCodeLibrary._get_module_for_linking``) only while something already linked calls it."""
    order, seen = [], set()

    def visit(lib):
        if lib in seen:
            return
        seen.add(lib)
        if _deferred(lib):
            for callee in lib._linking_libraries:
                visit(callee)
        order.append(lib)

    for lib in libraries:
        visit(lib)
    return order[::-1]


_numba_finalize = codegen.CPUCodeLibrary.finalize
LINK_LISTENERS: list = []  # called with (library name, libraries linked) before an entry point's one optimisation


def _finalize(self):
    if _deferred(self):
        codegen.require_global_compiler_lock()
        self._raise_if_finalized()
        self._finalized = True  # its LLVM functions stay as lowered (function passes done); no machine code
        return None
    libs = self._linking_libraries
    if any(_deferred(lib) for lib in libs):
        self._linking_libraries = _transitive(libs)
        self._trinidad_passes = ENTRY_PASSES.get(self.name, OPT_PASSES)
        for listener in LINK_LISTENERS:
            listener(self.name, len(self._linking_libraries))
    return _numba_finalize(self)


OPT_PASSES = int(os.environ.get("TRINIDAD_OPT_PASSES", "2"))
# Passes for named entry points (gamekit.numba_cache.entry_passes), overriding OPT_PASSES.
ENTRY_PASSES = entry_passes(os.environ.get("TRINIDAD_OPT_ENTRY_PASSES", ""))

_numba_optimize_final_module = codegen.CPUCodeLibrary._optimize_final_module


def _optimize_final_module(self):
    for _ in range(getattr(self, "_trinidad_passes", 1)):
        _numba_optimize_final_module(self)


_numba_compile_core = dispatcher._FunctionCompiler._compile_core
_numba_compile_extra = dispatcher.compiler.compile_extra


def _compile_core(self, args, return_type):
    stack = _stack()
    defer = bool(stack) and _own(self.py_func)
    stack.append(defer)
    try:
        return _numba_compile_core(self, args, return_type)
    finally:
        stack.pop()


def _compile_extra(typingctx, targetctx, func, args, return_type, flags, locals, library=None, **kws):
    stack = _stack()
    if library is None and stack and stack[-1]:
        library = targetctx.codegen().create_library(getattr(func, "__qualname__", "deferred"))
        library.enable_object_caching()
        library._trinidad_deferred = True
    return _numba_compile_extra(typingctx, targetctx, func, args, return_type, flags, locals, library=library, **kws)


_numba_get_executable = cpu.CPUContext.get_executable


def _get_executable(self, library, fndesc, env):
    if _deferred(library):
        return LazyEntry(self, library, fndesc, env)
    return _numba_get_executable(self, library, fndesc, env)


_numba_add_overload = dispatcher.Dispatcher.add_overload


def _add_overload(self, cres):
    entry = cres.entry_point
    if isinstance(entry, LazyEntry):
        entry.dispatcher, entry.cres = self, cres
        self.overloads[tuple(cres.signature.args)] = cres  # not in the C table: Python's first call materializes it
        return
    _numba_add_overload(self, cres)


_numba_save_overload = caching.Cache.save_overload


def _save_overload(self, sig, data):
    if _deferred(getattr(data, "library", None)):
        return  # no machine code to cache; the entry points that link it are cached whole
    return _numba_save_overload(self, sig, data)


def install() -> None:
    if os.environ.get("TRINIDAD_DEFER", "1") == "0" or getattr(codegen.CPUCodeLibrary.finalize, "__module__", "") == __name__:
        return
    codegen.CPUCodeLibrary.finalize = _finalize
    codegen.CPUCodeLibrary._optimize_final_module = _optimize_final_module
    dispatcher._FunctionCompiler._compile_core = _compile_core
    dispatcher.compiler.compile_extra = _compile_extra
    cpu.CPUContext.get_executable = _get_executable
    dispatcher.Dispatcher.add_overload = _add_overload
    caching.Cache.save_overload = _save_overload


install()
