"""The keys every game's experiment shares (trinidad.games.keys): ``[rules] overrides`` as a table or as the
path of an override file (a ``trinidad balance`` proposal, as written), read alike for both games, and a bad
one a single line naming the key. No game is played."""

from __future__ import annotations

import pytest

from trinidad.experiment import ExperimentError, experiment_from_dict

CASES = (({}, {"character": {"captain_vp": 4}}, "[character]\ncaptain_vp = 4\n"),
         ({"game": "rio-de-la-plata"}, {"office": {"fine_vp": -3}}, "office.fine_vp = -3\n"))


@pytest.mark.parametrize(("game", "table", "text"), CASES, ids=["trinidad", "rio"])
def test_rules_overrides_may_name_an_override_file(tmp_path, monkeypatch, game, table, text):
    monkeypatch.chdir(tmp_path)  # the path is read from the working directory, as [rules] file
    (tmp_path / "proposal.toml").write_text("# a proposal\n" + text)
    by_file = experiment_from_dict(game | {"rules": {"overrides": "proposal.toml"}})
    by_table = experiment_from_dict(game | {"rules": {"overrides": table}})
    assert by_file.overrides == by_table.overrides == table
    assert by_file.resolved_rules_docs() == by_table.resolved_rules_docs() != experiment_from_dict(game).resolved_rules_docs()


def test_a_bad_override_file_is_one_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "broken.toml").write_text("[character\n")
    (tmp_path / "unknown.toml").write_text("[character]\ncaptain_vpp = 4\n")
    for ov, words in (("missing.toml", "existing override file, got 'missing.toml'"), (3, "path of an override file, got 3"),
                      ("broken.toml", "override file: broken.toml:"), ("unknown.toml", "captain_vpp")):
        with pytest.raises(ExperimentError) as ei:
            experiment_from_dict({"rules": {"overrides": ov}})
        msg = str(ei.value)
        assert msg.startswith("experiment: rules") and words in msg and "\n" not in msg, msg
