"""One compiled specialization per engine function, whatever integer types its callers pass.

Numba compiles a jitted function once per distinct tuple of argument types it is called with
from other jitted code, and a constant argument is typed as its own literal (``take_coins(st, r,
seat, 0, n)`` compiles a ``Literal[int](0)`` version). The engine's scalars come both from its
int32 state arrays and from int64 loop counters and constants, so before this hook the 221 engine
functions compiled 486 specializations (``decide`` and the policy's ``choose`` 8 each). Each
specialization is a separate LLVM module that links in, re-optimises and re-emits the machine
code of everything it calls: with the duplicates gone the cold compile takes about 300 s instead of
510-565 s (the warm-up game with a fresh cache, on the 2-core development machine).

This hook widens the argument types of calls between the project's own jitted functions before
Numba picks a specialization: integer literals and signed integers narrower than 64 bits become
int64, IntEnum members their int64 value type, boolean literals bool. Numba casts each argument
to the signature's type at the call, so every value is unchanged (int32 -> int64 is exact, and
Numba's integer arithmetic already widens int32 operands to int64). Calls into Numba's or NumPy's
own code, and calls from Python, are left as they are.

Imported by :mod:`gamekit.numba_cache` when Numba is first imported (whichever engine imports it), so
that it is in place before anything is compiled.
"""

from __future__ import annotations

from numba.core import types

_OWN = ("sim", "strategies", "trinidad", "gamekit", "rio")  # both engines, their players and orchestration


def _canonical(t):
    if isinstance(t, types.Literal):
        t = types.unliteral(t)
    if isinstance(t, types.IntEnumMember):
        t = t.dtype
    if isinstance(t, types.Integer) and t.signed and t.bitwidth < 64:
        t = types.int64
    return t


def _own(dispatcher_type) -> bool:
    fn = getattr(dispatcher_type.dispatcher, "py_func", None)
    return getattr(fn, "__module__", "").split(".")[0] in _OWN


_numba_get_call_type = types.Dispatcher.get_call_type


def _get_call_type(self, context, args, kws):
    if _own(self):
        args = tuple(_canonical(a) for a in args)
        kws = {k: _canonical(v) for k, v in kws.items()}
    return _numba_get_call_type(self, context, args, kws)


if getattr(types.Dispatcher.get_call_type, "__module__", "") != __name__:
    types.Dispatcher.get_call_type = _get_call_type
