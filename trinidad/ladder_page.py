"""The skill ladder's text (``trinidad ladder``): the rung x rung matrix, the rungs against the Solo
A.I., the Character win rates per rung and their agreement, as the command prints them, as the
whole page (``--write``) and as the README's generated blocks (``--readme``); the measurement is
:mod:`trinidad.ladder`."""

from __future__ import annotations

import numpy as np

from trinidad import ai_scale
from trinidad.ladder import AI_ALSO, PLAYERS, RUNGS, Agreement, Ladder, ai_players

# ----------------------------------------------------------------------------- text

def _pct(x: float) -> str:
    return f"{x:.1%}"


def _ci(x: float, lo: float, hi: float) -> str:
    return f"{x:.1%} [{lo:.1%}, {hi:.1%}]"


def _rung(lad: Ladder, r: str) -> str:
    return f"{r} (= {lad.aliases[r]})" if r in lad.aliases else r


MARK = {"above": " ▲", "below": " ▼", "level": ""}


def command(lad: Ladder, *outputs: str) -> str:
    rungs = f" --rungs {','.join(lad.rungs)}" if lad.rungs != RUNGS else ""
    ai = lad.against_ai()
    also_opt = ""
    if ai:  # the players the A.I. table added: the command names them unless they are the default's
        also = [n for n in ai.strategies if n not in lad.rungs]
        if also != ai_players(lad.rungs, AI_ALSO)[len(lad.rungs):]:
            also_opt = f" --ai-also {','.join(also) or repr('')}"
    return (f"trinidad ladder{rungs}{also_opt} --games {lad.games} --character-games {lad.character_games} --ai-games {ai.games if ai else 0} "
            f"--seed {lad.seed}" + "".join(f" {o}" for o in outputs))


def provenance(lad: Ladder, *outputs: str) -> str:
    dirty = " (with uncommitted changes)" if lad.dirty else ""
    # games read back from a store were played by an earlier run: the seconds are this run's only
    read = (f" ({lad.games_read:,} of its {lad.games_read + lad.games_played:,} games read back from a store, played "
            "earlier by the same engine code)") if lad.games_read else ""
    return (f"Measured at commit `{lad.commit[:12]}`{dirty} on `{lad.cpu}` in {lad.seconds:.0f} s{read} by "
            f"`{command(lad, *outputs)}`.")


def matrix_table(lad: Ladder) -> list[str]:
    head = "| row against column | " + " | ".join(_rung(lad, r) for r in lad.rungs) + " |"
    lines = [head, "|---" * (len(lad.rungs) + 1) + "|"]
    for a in lad.rungs:
        cells = ["-" if a == b else _ci(lad.cell(a, b).win_rate, lad.cell(a, b).ci_low, lad.cell(a, b).ci_high)
                 for b in lad.rungs]
        lines.append(f"| **{_rung(lad, a)}** | " + " | ".join(cells) + " |")
    return lines


def ai_table(lad: Ladder) -> list[str]:
    """Each rung's beat rate against the Solo A.I. at each strength (empty when not played)."""
    ai = lad.against_ai()
    # an alias names the player it plays against the A.I. (best.toml's solo), which may not be its rung's player
    return ai_scale.table(ai, lambda r: f"{r} (= {ai.aliases[r]})" if r in ai.aliases else _rung(lad, r)) if ai else []


def _ai_note(lad: Ladder) -> str:
    ai = lad.against_ai()
    return ai_scale.note(ai) if ai else ""


def character_table(lad: Ladder) -> list[str]:
    lines = ["| Character | " + " | ".join(_rung(lad, r) for r in lad.rungs) + " |", "|---" * (len(lad.rungs) + 1) + "|"]
    for i, c in enumerate(lad.characters[lad.rungs[0]]):
        row = [lad.characters[r][i] for r in lad.rungs]
        lines.append(f"| {c.character} | " + " | ".join(_ci(x.win_rate, x.ci_low, x.ci_high) + MARK[x.verdict] for x in row) + " |")
    return lines


def agreement_table(lad: Ladder) -> list[str]:
    def names(xs: list[str]) -> str:
        return ", ".join(xs) or "-"

    def tau(g: Agreement) -> str:
        return f"{g.tau:.2f}" + (f" [{g.tau_low:.2f}, {g.tau_high:.2f}]" if np.isfinite(g.tau_low) else "")

    def num(x: float, f: str) -> str:
        return format(x, f) if np.isfinite(x) else "-"

    def differ(g: Agreement) -> str:
        return ", ".join(f"{c} {d:+.1f}" for c, d in zip(g.differ, g.differ_points)) or "-"

    lines = ["| rungs | Kendall tau [95% CI] | p | two alike would read | differ (points, first - second) | p (none differs) "
             "| reversed | significant under the first only | significant under the second only |",
             "|---|---|---|---|---|---|---|---|---|"]
    for g in lad.agreements:
        lines.append(f"| {g.a} / {g.b} | {tau(g)} | {g.p:.3f} | {num(g.tau_same, '.2f')} | {differ(g)} | {num(g.p_same, '.4f')} "
                     f"| {names(g.reversed)} | {names(g.only_a)} | {names(g.only_b)} |")
    return lines


def sources_table(lad: Ladder) -> list[str]:
    """Where the VP of each Character that differs between two rungs moved (:func:`moved_sources`); no
    lines when no pair names one."""
    from analysis.sensitivity import sources_text

    rows = [(g, c, pts, src) for g in lad.agreements for c, pts, src in zip(g.differ, g.differ_points, g.differ_sources)]
    if not rows:
        return []
    lines = ["| rungs | Character | win rate (points, first - second) | VP a seat-game (its rivals') | the sources that moved most |",
             "|---|---|---|---|---|"]
    for g, c, pts, src in rows:
        t = src[0]
        lines.append(f"| {g.a} / {g.b} | {c} | {pts:+.1f} | {t['vp']:+.1f} [{t['low']:+.1f}, {t['high']:+.1f}] "
                     f"(rivals {t['rivals']:+.1f}) | {sources_text(src)} |")
    return lines


SOURCES_NOTE = ("Where the VP of each Character that differs moved: its seats' final VP and the VP sources whose mean "
                "moved most, per seat-game under the first rung minus under the second, with a 95% interval paired "
                "seat-game by seat-game (the same Character at the same seat of the same deal; scipy.stats.ttest_rel), and "
                "in brackets the same move for its rivals, the other seats of those games: a win rate is the seat's VP "
                "against theirs. A finding that moves with a source the two players use differently (the City, a Major "
                "building) moved with the players, not with the game.")


def _matrix_note(lad: Ladder) -> str:
    n = lad.cells[0].n if lad.cells else 0
    return (f"Row rung's win rate per seat-game against the column rung, with its Wilson 95% CI: {PLAYERS} players, two "
            f"seats each, seats rotated on common seeds, {lad.games:,} games a pair (n = {n:,} seat-games a cell; "
            f"`trinidad tournament --strategies ROW,COLUMN --players {PLAYERS} --games {lad.games} --seed {lad.seed}` "
            "plays them). The fair share is 25%, a clean sweep 50%; a tie for first among k seats gives each 1/k of a win.")


def _characters_note(lad: Ladder) -> str:
    n = lad.characters[lad.rungs[0]][0].n if lad.characters[lad.rungs[0]] else 0
    return (f"Each Character's win rate with its Wilson 95% CI when the rung plays all {PLAYERS} seats on the same "
            f"balanced-Character deals ({lad.character_games:,} games a rung, n = {n:,} seats a Character; "
            f"`trinidad run --players {PLAYERS} --games {lad.character_games} --seed {lad.seed} --strategies RUNG` plays "
            "them). ▲/▼: above/below the fair share 25% (score test, Holm over the 12 Characters of the rung, "
            "family-wise 5%).")


def page(lad: Ladder, *outputs: str) -> str:
    """The whole ladder page (docs/reference/ladder.md)."""
    moved = sources_table(lad)
    return "\n".join([
        "# The skill ladder",
        "",
        "Written by `trinidad ladder` (trinidad/ladder.py); not typed by hand. " + provenance(lad, *outputs),
        "",
        "## Rung against rung",
        "",
        _matrix_note(lad),
        "",
        *matrix_table(lad),
        "",
        *(["## Each rung against the Solo A.I.", "", _ai_note(lad), "", *ai_table(lad), ""] if lad.ai else []),
        "## Character win rates on each rung",
        "",
        _characters_note(lad),
        "",
        *character_table(lad),
        "",
        "## Do the rungs agree on the Characters?",
        "",
        "Kendall's tau (tau-b) between two rungs' Character win rates, with its p-value (scipy.stats.kendalltau) and "
        "its bootstrap 95% interval over the deals (both rungs' games of a deal resampled together, 1,999 resamples, "
        "percentile; analysis.stats.tau_ci): the range a rerun on as many other deals would read. Sampling noise can "
        "only scramble the order, so even two rungs with the same true rates read below 1: **two alike would read** is "
        "the median tau when each deal's two games are given to the two rungs at random (1,999 such swaps; "
        "analysis.stats.paired_groups), what two rungs winning with every Character at the rates of their mean read on "
        "these deals. **Differ**: the Characters whose win rates differ between the rungs (the deals' paired "
        "differences, t test, Holm over the 12 Characters, family-wise 5%), rate under the first minus under the second; "
        "**p (none differs)**: the permutation test of the same swaps that no Character differs. A tau below what two "
        "alike read, with Characters that differ, is the rungs disagreeing, not the deals' noise; "
        "**reversed**: above the fair share on one rung and below it on the other (both significant); **significant under "
        "one only**: above or below on that rung, level on the other (a change the other rung's games may be too few to "
        "see).",
        "",
        *agreement_table(lad),
        "",
        *([SOURCES_NOTE, "", *moved, ""] if moved else []),
    ])


def readme_blocks(lad: Ladder, *outputs: str) -> dict[str, str]:
    """The README's generated blocks: the matrix and the Character table, each with its provenance."""
    return {
        "ladder": "\n".join([provenance(lad, *outputs) + " " + _matrix_note(lad), "", *matrix_table(lad),
                             *(["", "Each rung against the Solo A.I.: " + _ai_note(lad), "", *ai_table(lad)] if lad.ai else [])]),
        "characters": "\n".join([provenance(lad, *outputs) + " " + _characters_note(lad), "", *character_table(lad)]),
    }


def lines(lad: Ladder) -> list[str]:
    """What the command prints: the matrix, the rungs against the Solo A.I. (when played), the
    Character win rates and the agreement."""
    ai = [*ai_table(lad), f"({_ai_note(lad)})", ""] if lad.ai else []
    moved = sources_table(lad)
    return [*matrix_table(lad), "", *ai, *character_table(lad), "", *agreement_table(lad), *(["", *moved] if moved else [])]
