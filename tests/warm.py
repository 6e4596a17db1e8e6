"""``make test``'s warm step: compile one game's engine into the suite's cache folder (tests/suite_settings.py)
before pytest starts, ``python tests/warm.py trinidad`` and ``python tests/warm.py rio-de-la-plata`` side by
side. Without it each of the two pytest workers compiles both engines itself (about 80 s each, four compiles
on two cores); after it both load them. It plays what the suite's first games play: the session fixture's
game (conftest.engine) and one game of Río de la Plata's bench table (rio.play.play, as tests/rio do)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from suite_settings import apply  # noqa: E402

apply()


def main(game: str) -> None:
    if game == "trinidad":
        from sim.rules import load_rules
        from strategies.match import run_game
        from strategies.registry import load_strategies

        W, _ = load_strategies(["random", "greedy"])  # conftest.weights
        run_game(load_rules(), W, 4, 0, [0, 1, 0, 1])  # conftest.engine
    elif game == "rio-de-la-plata":
        from trinidad.games.rio import bench_table

        bench_table().play(0, 1)
    else:
        raise SystemExit(f"tests/warm.py: unknown game {game!r}; trinidad or rio-de-la-plata")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "")
