"""Fixtures of the analysis tests: a synthetic run with options planted as never used (the option
use of analysis.played and the Character pages of analysis.characters read it), one per test module."""

from __future__ import annotations

import pytest

from analysis import analyze, load_run
from analysis.synthetic import write_synthetic_run

PLANTED = ("built_church", "act_ship", "uses_card_40")  # never used: card 40 is left out of its Character's cards table


@pytest.fixture(scope="module")
def planted():
    """The options the synthetic run never uses."""
    return PLANTED


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    d = tmp_path_factory.mktemp("planted")
    return load_run(write_synthetic_run(d / "run", games=240, players=(3, 4), strategies=("greedy", "random"), never=PLANTED, seed=3))


@pytest.fixture(scope="module")
def a(run):
    return analyze(run)
