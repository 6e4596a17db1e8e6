"""What the first run compiles and how far along it is: a line on stderr when the engine starts
compiling, one every few seconds while Numba types its functions (how many so far, of about how
many the last cold compile counted), one when the entry point's code is optimised and emitted
(gamekit.deferred: once for the whole engine), and the time it took. A run that loads the engine from
its cache prints nothing.

The count of the last cold compile is kept beside the engine's cache folders
(``sim/__pycache__/last-compile.json``), so it survives an engine edit; on a fresh clone the first
compile shows no total. It is kept per entry point and argument types: the engine with the Solo A.I.
or the Extended War compiled in (``sim.compiled_parts``: their rules records differ in type) types more
functions than the normal game, and each says its own total.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from pathlib import Path

from numba.core import event

_OWN = ("sim", "strategies", "trinidad")
_STATS = Path(__file__).resolve().parent.parent / "sim" / "__pycache__" / "last-compile.json"


def _name(data) -> str:
    fn = getattr(data.get("dispatcher"), "py_func", None)
    return f"{fn.__module__}.{fn.__qualname__}" if fn is not None else "?"


def _key(data) -> str:
    """What a top-level compile compiles: the function and its argument types (the engine's variants
    differ in their rules record's type), hashed."""
    return hashlib.sha1(f"{_name(data)}{data.get('args')!r}".encode()).hexdigest()[:16]


def _read() -> dict:
    try:
        doc = json.loads(_STATS.read_text())
    except (OSError, ValueError):
        return {}
    return doc if isinstance(doc, dict) else {}


class CompileProgress(event.Listener):
    """Counts the project's functions Numba compiles and reports on ``out`` every ``every``
    seconds; each top-level compile (a call from Python) ends with a summary line."""

    def __init__(self, out=None, every: float = 10.0) -> None:
        self.out = out  # None: whatever sys.stderr is when a line is printed (a test runner swaps it)
        self.every = every
        self.depth = 0
        self.typed = 0
        self.t0 = self.last = 0.0
        self.key = ""
        self.expected: int | None = None

    @staticmethod
    def expected_for(key: str) -> int | None:
        """The functions the last cold compile of ``key`` (:func:`_key`) typed; None when none is kept."""
        try:
            return int(_read()[key]["functions"])
        except (KeyError, TypeError, ValueError):
            return None

    def _say(self, text: str) -> None:
        try:
            print(f"[compile] {text}", file=self.out or sys.stderr, flush=True)
        except (OSError, ValueError):  # a closed stream: the compile goes on without its progress
            pass

    def on_start(self, ev) -> None:
        name = _name(ev.data)
        if self.depth == 0:
            self.t0 = self.last = time.perf_counter()
            self.typed = 0
            self.key = _key(ev.data)
            self.expected = self.expected_for(self.key)
            if name.split(".")[0] in _OWN:
                about = f", about {self.expected} functions" if self.expected else ""
                self._say(f"compiling {name} (first run after an install or an engine edit{about}; cached afterwards)")
        self.depth += 1
        if name.split(".")[0] in _OWN:
            self.typed += 1
            now = time.perf_counter()
            if now - self.last >= self.every:
                self.last = now
                of = f" of about {self.expected}" if self.expected else ""
                self._say(f"{self.typed}{of} functions typed, {now - self.t0:.0f} s (now {name})")

    def on_end(self, ev) -> None:
        self.depth -= 1
        if self.depth == 0 and self.typed > 1:
            dt = time.perf_counter() - self.t0
            self._say(f"{_name(ev.data)} ready: {self.typed} functions in {dt:.0f} s")
            try:
                doc = _read()
                doc[self.key] = {"function": _name(ev.data), "functions": self.typed, "seconds": round(dt, 1)}
                _STATS.parent.mkdir(parents=True, exist_ok=True)
                _STATS.write_text(json.dumps(doc, indent=1))
            except OSError:
                pass

    def on_link(self, name: str, n: int) -> None:
        self._say(f"optimising {name} with the {n} functions it calls and emitting its machine code (once)")


class CompileProfile(event.Listener):
    """Where a compile's time goes, by function: each compile's own time (its callees' compiles
    taken out) and the part of it spent in LLVM (Numba's ``numba:llvm_lock`` event), for
    ``trinidad warm --profile``. Nested compiles are attributed to the innermost function."""

    def __init__(self) -> None:
        self.stack: list[list] = []
        self.rows: dict[str, list] = {}  # name -> [specializations, own seconds, LLVM seconds]
        self._llvm_t0 = 0.0

    def on_start(self, ev) -> None:
        self.stack.append([_name(ev.data), time.perf_counter(), 0.0])

    def on_end(self, ev) -> None:
        name, t0, inner = self.stack.pop()
        dt = time.perf_counter() - t0
        if self.stack:
            self.stack[-1][2] += dt
        row = self.rows.setdefault(name, [0, 0.0, 0.0])
        row[0] += 1
        row[1] += dt - inner

    def llvm(self):
        prof = self

        class _Llvm(event.Listener):
            def on_start(self, ev) -> None:
                prof._llvm_t0 = time.perf_counter()

            def on_end(self, ev) -> None:
                name = prof.stack[-1][0] if prof.stack else "(outside a compile)"
                prof.rows.setdefault(name, [0, 0.0, 0.0])[2] += time.perf_counter() - prof._llvm_t0

        return _Llvm()

    def table(self, top: int) -> list[tuple[str, int, float, float]]:
        """The ``top`` functions by own compile time: (name, specializations, own s, LLVM s)."""
        rows = sorted(self.rows.items(), key=lambda kv: -kv[1][1])
        return [(k, v[0], v[1], v[2]) for k, v in rows[:top]]

    def totals(self) -> tuple[int, int, float, float]:
        """(functions, specializations, own seconds, LLVM seconds) over every compile recorded."""
        v = list(self.rows.values())
        return len(v), sum(r[0] for r in v), sum(r[1] for r in v), sum(r[2] for r in v)


def profile() -> CompileProfile:
    """Record every compile of this process from now on, by function."""
    prof = CompileProfile()
    event.register("numba:compile", prof)
    event.register("numba:llvm_lock", prof.llvm())
    return prof


_installed: CompileProgress | None = None


def install(out=None, every: float = 10.0) -> CompileProgress:
    """Report every compile of this process from now on (idempotent)."""
    global _installed
    if _installed is None:
        from gamekit import deferred

        _installed = CompileProgress(out, every)
        event.register("numba:compile", _installed)
        deferred.LINK_LISTENERS.append(_installed.on_link)
    return _installed


# ----------------------------------------------------------------------------- a test suite's compiles

def suite_summary(log_dir: str | Path, top: int = 15) -> str:
    """Where a fresh test suite's compile went, from the files ``TRINIDAD_TEST_COMPILE_LOG=DIR``
    makes each pytest process write (tests/conftest.py): per process the compiles it paid and their
    seconds; the entry points (function and argument types) more than one process paid for, which
    a shared warm-up could pay once; and the ``top`` costliest entry points with the test that paid."""
    files = sorted(Path(log_dir).glob("*.json"))
    if not files:
        raise FileNotFoundError(f"{log_dir}: no compile log (*.json); run the suite with TRINIDAD_TEST_COMPILE_LOG={log_dir}")
    per = {f.stem: json.loads(f.read_text()) for f in files}
    lines = ["| process | compiles | seconds |", "|---|---|---|"]
    for w, rows in per.items():
        lines.append(f"| {w} | {len(rows)} | {sum(r['seconds'] for r in rows):,.0f} |")
    paid: dict[tuple[str, str], list[tuple[str, float, str]]] = {}
    for w, rows in per.items():
        for r in rows:
            paid.setdefault((r["function"], r["args"]), []).append((w, r["seconds"], r["test"]))
    shared = {k: v for k, v in paid.items() if len({w for w, _, _ in v}) > 1}
    again = sum(sum(s for _, s, _ in v) - max(s for _, s, _ in v) for v in shared.values())
    lines += ["", f"Entry points paid by more than one process: {len(shared)} of {len(paid)}; "
              f"{again:,.0f} s of compile beyond the first payment of each."]
    lines += ["", "| entry point | processes | seconds (the costliest payment) | test that paid it |", "|---|---|---|---|"]
    worst = sorted(paid.items(), key=lambda kv: -max(s for _, s, _ in kv[1]))[:top]
    for (fn, _), v in worst:
        w, s, t = max(v, key=lambda x: x[1])
        lines.append(f"| `{fn}` | {len(v)} | {s:,.1f} | `{t}` |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(suite_summary(sys.argv[1]))
