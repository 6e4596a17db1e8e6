"""trinidad.lab.compile_progress: the first run says what it compiles and how far along it is, and
``trinidad warm --profile`` says where a compile's time goes."""

from __future__ import annotations

import io

from numba import njit
from numba.core import event

from trinidad.lab import compile_progress


def _kernels():
    # fresh dispatchers (no cache): every call below compiles
    @njit
    def leaf(x):
        return x + 1

    @njit
    def top(x):
        return leaf(x) * 2

    return top


def test_progress_names_the_compile_and_counts_the_functions(monkeypatch, tmp_path):
    monkeypatch.setattr(compile_progress, "_OWN", compile_progress._OWN + (__name__.split(".")[0],))
    monkeypatch.setattr(compile_progress, "_STATS", tmp_path / "last-compile.json")
    out = io.StringIO()
    prog = compile_progress.CompileProgress(out, every=0.0)
    with event.install_listener("numba:compile", prog):
        assert _kernels()(3) == 8
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("[compile] compiling ") and "top" in lines[0]
    assert "about" not in lines[0]  # a fresh clone: no total to show
    assert any("2 functions typed" in line for line in lines)
    assert lines[-1].startswith("[compile] ") and "ready: 2 functions" in lines[-1]
    # the next cold compile of the same function and argument types shows the total of this one
    out3 = io.StringIO()
    with event.install_listener("numba:compile", compile_progress.CompileProgress(out3, every=0.0)):
        assert _kernels()(4) == 10
    assert "about 2 functions" in out3.getvalue().splitlines()[0]
    # ... another argument type (another variant of the engine) has a total of its own
    out4 = io.StringIO()
    with event.install_listener("numba:compile", compile_progress.CompileProgress(out4, every=0.0)):
        assert _kernels()(4.5) == 11.0
    assert "about" not in out4.getvalue().splitlines()[0]
    assert len(compile_progress._read()) == 2
    # a call that compiles nothing prints nothing
    out2 = io.StringIO()
    top = _kernels()
    top(1)
    with event.install_listener("numba:compile", compile_progress.CompileProgress(out2, every=0.0)):
        top(2)
    assert out2.getvalue() == ""


def test_profile_attributes_time_to_each_function():
    prof = compile_progress.CompileProfile()
    with event.install_listener("numba:compile", prof), event.install_listener("numba:llvm_lock", prof.llvm()):
        assert _kernels()(1) == 4
    names = {name.rsplit(".", 1)[-1] for name, *_ in prof.table(10)}
    assert {"top", "leaf"} <= names
    n, specs, own, llvm = prof.totals()
    assert n >= 2 and specs >= 2 and own > 0 and 0 < llvm <= own + 1e-6


def test_a_closed_stream_does_not_stop_a_compile(monkeypatch, tmp_path):
    monkeypatch.setattr(compile_progress, "_OWN", compile_progress._OWN + (__name__.split(".")[0],))
    monkeypatch.setattr(compile_progress, "_STATS", tmp_path / "last-compile.json")
    out = io.StringIO()
    out.close()
    with event.install_listener("numba:compile", compile_progress.CompileProgress(out, every=0.0)):
        assert _kernels()(0) == 2


def test_suite_summary_counts_what_two_processes_both_paid(tmp_path):
    """`python -m trinidad.lab.compile_progress DIR` over the compile logs of a suite's processes: the
    seconds each paid, the entry points paid twice and the compile that a shared warm-up would save."""
    import json

    import pytest

    with pytest.raises(FileNotFoundError):
        compile_progress.suite_summary(tmp_path)
    row = {"what": "compile", "args": "(int64,)", "test": "t.py::a"}
    (tmp_path / "gw0.json").write_text(json.dumps([row | {"function": "sim.game.play_game", "seconds": 100.0},
                                                   row | {"function": "sim.city.own_spaces", "seconds": 2.0}]))
    (tmp_path / "gw1.json").write_text(json.dumps([row | {"function": "sim.game.play_game", "seconds": 90.0},
                                                   row | {"function": "sim.game.play_game", "args": "(int32,)", "seconds": 5.0}]))
    text = compile_progress.suite_summary(tmp_path)
    assert "| gw0 | 2 | 102 |" in text and "| gw1 | 2 | 95 |" in text
    assert "more than one process: 1 of 3; 90 s of compile beyond" in text
    assert text.index("`sim.game.play_game` | 2 | 100.0") < text.index("`sim.city.own_spaces` | 1 | 2.0")
