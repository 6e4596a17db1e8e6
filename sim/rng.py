"""The engine's random numbers: :mod:`gamekit.rng`, shared by both games' engines (a SplitMix64 word in
each game's state, per-game seeds as pure functions of the master seed and the game's index)."""

from gamekit.rng import game_seed, game_seeds, mix64, next_u64, permutation, player_seeds, rand_below

__all__ = ["game_seed", "game_seeds", "mix64", "next_u64", "permutation", "player_seeds", "rand_below"]
