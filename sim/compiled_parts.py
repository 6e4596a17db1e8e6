"""The parts of the game only some runs play, compiled only into the runs that play them: the
EXTENDED WAR expansion (sim.extended_war, with the players' war policy) and the Solo A.I. of TWO
PLAYERS GAME & SOLO MODE (sim.solo, sim.solo_placement, sim.ai_choice, with the human's answers to its ties).

Numba compiles everything a jitted function *could* call, whatever runs: a runtime test such as
``if st.xw[XG.ACTIVE] == 1`` does not keep the Extended War out of the compile of a normal game.
So the rules record says, in its type, which parts its kernels include: ``Rules.xw_compiled`` and
``Rules.ai_compiled`` are int8 arrays of length 1 (the part is in) or 0 (it is not). The rest of
the engine reaches a part only through a hook made by this module at module level
(``xw_end_war = extended_war_entry(end_war)``, called as ``xw_end_war(r, default, st, r)``): with the
part in, the hook is ``end_war(st, r)``; without it, ``end_war`` is never typed or compiled and the
hook returns ``default``. The ``*_entry`` hooks are for the calls that only a game with the part can
reach (a war beginning, the A.I.'s turn or decision): without the part they raise, so rules that
lack a part a game needs fail loudly instead of playing another game. The hooked function is bound
when the hook is made, not passed in the call: a jitted function passed as a value is a run-time
address, and Numba does not cache machine code that holds one.

The engine is therefore compiled once per combination of parts a process plays (the normal game,
+ the Extended War, + the Solo A.I., both): the first Extended War or Solo game compiles its
variant on first use. :func:`sim.rules.rules_from_doc` puts the Extended War in when the rules
enable it; the Python shells that play games (strategies.match.run_game, trinidad.batch) add the
Solo A.I. when a seat is the A.I. (:func:`for_players`). ``TRINIDAD_COMPILE`` names parts every rules
record includes (``solo_ai``, ``extended_war``, comma-separated, or ``all``): the test suite uses
``all`` so that it compiles one variant, and a run that will also play Solo games (``trinidad run
--ai-games``) includes the Solo A.I. from the start (:func:`including`) so that it compiles once.
A part's presence never changes a game: the parts' own runtime tests (the rules' ``extended_war.
enabled``, a seat being the A.I.) decide what is played, as before.
"""

from __future__ import annotations

import os
from contextlib import contextmanager

import numpy as np
from numba import njit
from numba.extending import overload

EXTENDED_WAR = "extended_war"
SOLO_AI = "solo_ai"
PARTS = {EXTENDED_WAR: "xw_compiled", SOLO_AI: "ai_compiled"}  # part -> its Rules marker field
_extra: list[set[str]] = []  # parts added by :func:`including` (innermost last)


def always_compiled() -> set[str]:
    """The parts every rules record made now includes: ``TRINIDAD_COMPILE`` and :func:`including`."""
    env = {p.strip() for p in os.environ.get("TRINIDAD_COMPILE", "").split(",") if p.strip()}
    if "all" in env:
        env = set(PARTS)
    unknown = env - set(PARTS)
    if unknown:
        raise ValueError(f"TRINIDAD_COMPILE: allowed: all, {', '.join(PARTS)}; got {', '.join(sorted(unknown))}")
    for s in _extra:
        env |= s
    return env


@contextmanager
def including(*parts: str):
    """Rules records made inside the block include ``parts`` too (a run that will also play Solo
    games compiles one variant, not two)."""
    bad = set(parts) - set(PARTS)
    if bad:
        raise ValueError(f"parts: allowed: {', '.join(PARTS)}; got {', '.join(sorted(bad))}")
    _extra.append(set(parts))
    try:
        yield
    finally:
        _extra.pop()


def marker(part: str, wanted: bool) -> np.ndarray:
    """The marker field of ``part`` for a new rules record: length 1 when the part is compiled in."""
    return np.zeros(1 if wanted or part in always_compiled() else 0, np.int8)


def has(r, part: str) -> bool:
    """Whether rules record ``r``'s kernels include ``part``."""
    return r[PARTS[part]].shape[0] > 0


def with_parts(r, *parts: str):
    """``r`` with ``parts`` compiled in too (the same record when it has them already): a copy with
    the markers' lengths changed, every value the same."""
    missing = [p for p in parts if not has(r, p)]
    if not missing:
        return r
    from sim.state import pack

    fields = {name: np.asarray(r[name]) for name in r.dtype.names}
    for p in missing:
        fields[PARTS[p]] = np.zeros(1, np.int8)
    from sim.rule_keys import Rules

    return pack(Rules(**fields))


def for_players(r, strategies):
    """``r`` with the Solo A.I. compiled in when a seat's strategy is the A.I. (sim.state.AI_STRATEGY)."""
    from sim.state import AI_STRATEGY

    if np.any(np.asarray(strategies) == AI_STRATEGY):
        return with_parts(r, SOLO_AI)
    return r


def _compiled(r, field) -> bool:
    return r.typeof(field).shape[0] > 0


@njit(cache=True)
def _no_extended_war():
    raise RuntimeError("the Extended War is not compiled into these rules (sim.compiled_parts: rules_from_doc with extended_war.enabled)")


@njit(cache=True)
def _no_solo_ai():
    raise RuntimeError("the Solo A.I. is not compiled into these rules (sim.compiled_parts.with_parts(r, 'solo_ai'))")


def _hook(part: str, fn, entry: bool):
    """A hook for ``fn``, a function of ``part``: ``hook(r, default, *args)`` is ``fn(*args)`` when
    rules record ``r``'s kernels include the part; otherwise ``default`` (``entry``: an error), and
    ``fn`` is never typed. ``fn`` is bound here, not passed in the call: a jitted function passed as
    a value is a run-time address, which keeps Numba from caching the machine code."""
    field = PARTS[part]
    missing = (_no_extended_war if part == EXTENDED_WAR else _no_solo_ai) if entry else None

    def hook(r, default, *args):
        if has(r, part):
            return fn(*args)
        if missing is not None:
            missing()
        return default

    def typer(r, default, *args):
        if _compiled(r, field):
            def call(r, default, *args):
                return fn(*args)
            return call
        if missing is None:
            def skip(r, default, *args):
                return default
            return skip

        def fail(r, default, *args):
            missing()
            return default
        return fail

    hook.__name__ = hook.__qualname__ = f"{getattr(fn, '__name__', 'fn')}_if_{part}"
    hook.__doc__ = f"{getattr(fn, '__name__', 'fn')}(*args) when the rules' kernels include {part} (sim.compiled_parts)"
    hook.target = fn
    overload(hook)(typer)
    return hook


def extended_war(fn):
    """EXTENDED WAR: the hook of ``fn`` for the calls a normal game makes too (the war's hooks in
    the decade's flow, which do nothing while no war is on): ``hook(r, default, *args)`` is
    ``fn(*args)`` when ``r``'s kernels include the expansion, else ``default``. Made once, at module
    level (``war_turn_begin_ = extended_war(war_turn_begin)``)."""
    return _hook(EXTENDED_WAR, fn, False)


def extended_war_entry(fn):
    """EXTENDED WAR: the hook of ``fn`` for the calls only a game with the expansion reaches (a war
    beginning, a war decision): without the expansion in ``r``'s kernels, an error."""
    return _hook(EXTENDED_WAR, fn, True)


def solo_ai(fn):
    """The Solo A.I.: the hook of ``fn``, ``default`` without it."""
    return _hook(SOLO_AI, fn, False)


def solo_ai_entry(fn):
    """The Solo A.I.: the hook of ``fn`` for the calls only a game with an A.I. seat reaches (an
    error without it)."""
    return _hook(SOLO_AI, fn, True)
