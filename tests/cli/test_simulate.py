"""`lockdown simulate`: its options, its JSON, its text, its progress bar and its errors."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main as cli
from bot.cli import simulate as simulate_command
from bot.texts import t
from lockdown_core.ai import EndlessGame, make_player, play_game
from lockdown_core.ai.simulation import ai_seed
from tests.flat import flat

SIMULATE = tuple(listing for listing in cli.COMMANDS if listing.name == "simulate")
JSON_KEYS = {
    "games",
    "errors",
    "stalemates",
    "first_stalemate_game",
    "games_per_second",
    "avg_turns",
    "avg_survivors",
    "win_rate_by_seat",
    "win_rate_by_ai",
    "points_by_kind",
    "closed_rate",
    "epilogues",
}

EPILOGUES = {"en": "first epilogue: ", "fr": "premier épilogue\u00a0: "}


def run(argv: list[str]) -> int:
    return cli.dispatch(["simulate", *argv], SIMULATE)


def test_simulate_is_a_registered_command() -> None:
    assert [listing.module for listing in SIMULATE] == ["bot.cli.simulate"]
    assert cli.load_command(SIMULATE[0]).run is simulate_command.run


def test_json_has_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    code = run(["--games", "12", "--players", "4", "--ai", "mix", "--seed", "3", "--json"])
    out, err = capsys.readouterr()
    assert code == 0
    report = json.loads(out)
    assert set(report) >= JSON_KEYS
    assert report["games"] == 12
    assert report["errors"] == 0
    assert report["games_per_second"] > 0
    assert set(report["win_rate_by_seat"]) == {"0", "1", "2", "3"}
    assert set(report["win_rate_by_ai"]) == {"cautious", "random"}
    assert sum(report["epilogues"].values()) == pytest.approx(1.0)
    assert err == "", "no progress bar when stderr is not a terminal"


def test_same_seed_same_report_apart_from_timing(capsys: pytest.CaptureFixture[str]) -> None:
    reports = []
    for _ in range(2):
        run(["--games", "10", "--players", "3", "--variant", "hush", "--seed", "9", "--json"])
        report = json.loads(capsys.readouterr().out)
        del report["games_per_second"], report["elapsed_seconds"]
        reports.append(report)
    assert reports[0] == reports[1]
    assert reports[0]["variants"] == ["hush"]


def test_more_processes_play_the_same_games(capsys: pytest.CaptureFixture[str]) -> None:
    """--jobs splits the games, not the seeds: every count is equal and every rate equal
    up to the rounding of shared wins summed in another order."""
    reports = []
    for jobs in ("1", "2", "0"):
        argv = ["--games", "520", "--players", "4", "--ai", "mix", "--seed", "8", "--json"]
        assert run([*argv, "--jobs", jobs]) == 0
        report = json.loads(capsys.readouterr().out)
        del report["games_per_second"], report["elapsed_seconds"]
        reports.append(report)
    one, *others = reports
    assert one["games"] == 520
    for other in others:
        assert flat(other) == pytest.approx(flat(one))


def test_shrewd_seats_with_personas_report_wins_and_deeds_per_persona(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """--ai shrewd with two personas: they take the seats in turn, and the report gives
    each its win rate and what it did; a truthful persona never lies, a lying one does."""
    argv = ["--games", "16", "--players", "5", "--ai", "shrewd", "--seed", "2", "--json"]
    code = run([*argv, "--persona", "warden", "--persona", "trickster"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    assert report["errors"] == 0
    assert report["personas"] == ["warden", "trickster"]
    assert report["seats_by_ai"] == {"shrewd:trickster": 2.5, "shrewd:warden": 2.5}
    assert sum(report["win_rate_by_ai"].values()) == pytest.approx(1.0)
    deeds = report["behaviour_by_ai"]
    assert deeds["shrewd:warden"].get("lies", 0.0) == 0.0
    assert deeds["shrewd:trickster"]["lies"] > 0.0
    assert deeds["shrewd:warden"]["announcements"] > 0.0


def test_shrewd_text_report_names_each_persona(capsys: pytest.CaptureFixture[str]) -> None:
    code = run(["--games", "3", "--players", "3", "--ai", "shrewd", "--persona", "avenger"])
    out = capsys.readouterr().out
    assert code == 0
    assert "AI shrewd" in out
    assert "shrewd (the Avenger), per seat and game: announcements" in out
    assert "hedged against bad worlds" in out


def test_personas_without_the_shrewd_level_or_unknown_are_usage_errors(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run(["--games", "1", "--ai", "cautious", "--persona", "warden"]) == 2
    assert "--persona needs --ai shrewd" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        run(["--games", "1", "--ai", "shrewd", "--persona", "nobody"])
    assert "nobody" in capsys.readouterr().err


def test_a_negative_job_count_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--games", "5", "--jobs", "-1"]) == 2
    assert "--jobs" in capsys.readouterr().err


def test_text_report(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    code = run(["--games", "8", "--players", "6", "--variant", "hush", "--variant", "overrun"])
    out = capsys.readouterr().out
    assert code == 0
    assert "8 games, 6 players, AI cautious, variants: Hush and Overrun, seed 0" in out
    assert "errors: 0" in out
    for label in ("games/s", "turns", "survivors", "win rate by seat", "first epilogue"):
        assert label in out


def test_the_text_compares_the_variants_with_the_base_rules_on_the_same_seeds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """What the chart draws side by side, the text says: each figure under the variant,
    then the base rules' on the same games and the difference."""
    from lockdown_core import load_ruleset
    from lockdown_core.ai.simulation import simulate

    assert run(["--games", "10", "--players", "4", "--variant", "hush", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    base = simulate(load_ruleset(), 4, "cautious", 10, 0).summary()
    hush = simulate(load_ruleset(["hush"]), 4, "cautious", 10, 0).summary()
    turns = f"{hush['avg_turns']:.2f} (base {base['avg_turns']:.2f}, "
    assert "compared with the base rules on the same seeds" in out
    assert f"length in turns: {turns}{hush['avg_turns'] - base['avg_turns']:+.2f})" in out
    assert run(["--games", "10", "--players", "4", "--lang", "en"]) == 0
    assert "compared with" not in capsys.readouterr().out, "nothing to compare without a variant"


def test_list_variants_names_each_in_the_readers_language(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from lockdown_core import load_variants

    for lang in ("en", "fr"):
        assert run(["--list-variants", "--lang", lang]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert len(lines) == 1 + len(load_variants())
        for key, line in zip(load_variants(), lines[1:], strict=True):
            assert line.strip().startswith(key)
            assert t(lang, f"variant.{key}.name") in line
            assert t(lang, f"variant.{key}.change") in line


def test_a_wrong_variant_name_is_answered_with_the_close_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run(["--games", "1", "--variant", "spare_key", "--lang", "en"]) == 2
    assert "did you mean spare_keys?" in capsys.readouterr().err
    assert run(["--games", "1", "--variant", "Familles nombreuses", "--lang", "fr"]) == 2
    assert "big_families" in capsys.readouterr().err, "a name in the reader's language"


def test_the_text_names_kinds_and_epilogues_in_the_readers_language(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No raw key (`keys_of_the_truck`) nor bare number (epilogue `02`): names, in the
    language of `--lang`, else of the terminal (LC_ALL, LC_MESSAGES, LANG)."""
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert run(["--games", "30", "--players", "5", "--ai", "mix"]) == 0
    french = capsys.readouterr().out
    assert run(["--games", "30", "--players", "5", "--ai", "mix", "--lang", "en"]) == 0
    english = capsys.readouterr().out
    for out, lang in ((french, "fr"), (english, "en")):
        assert "keys_of_the_truck" not in out
        assert t(lang, "card.keys_of_the_truck") in out
        assert t(lang, "kind.weeper") in out
        assert f"5 {t(lang, 'location.5')}" in out
        epilogues = next(line for line in out.splitlines() if line.startswith(EPILOGUES[lang]))
        codes = re.findall(r"\b(\d\d) ", epilogues)
        assert codes
        assert all(t(lang, f"epilogue.{code}.title") in epilogues for code in codes)
    assert french.startswith("30 parties, 5 joueurs, IA prudente et au hasard")
    assert "erreurs\u00a0: 0" in french


def test_unknown_variant_and_bad_player_count_are_usage_errors(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run(["--games", "1", "--variant", "nope"]) == 2
    assert "nope" in capsys.readouterr().err
    assert run(["--games", "1", "--players", "7"]) == 2
    assert "--players must be 3 to 6" in capsys.readouterr().err
    # R11.4: two variants that change the same rule, each its own way.
    assert run(["--games", "1", "--variant", "hush", "--variant", "creche"]) == 2
    assert "creche and hush change the same rule" in capsys.readouterr().err


def test_errors_are_counted_and_the_first_traceback_printed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = play_game
    calls: list[Any] = []

    def flaky(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        if len(calls) == 3:
            raise EndlessGame("no end after 5000 actions (turn 80, discussion)")
        return real(*args, **kwargs)

    monkeypatch.setattr("lockdown_core.ai.simulation.play_game", flaky)
    code = run(["--games", "5", "--players", "3", "--seed", "4", "--json"])
    out, err = capsys.readouterr()
    assert code == 1
    report = json.loads(out)
    assert report["errors"] == 1
    assert report["games"] == 5
    assert f"first error (game 2, seed 4/2, AI seed {ai_seed(4, 2)})" in err
    assert "Traceback" in err
    assert "EndlessGame: no end after 5000 actions" in err


def test_a_stalled_game_is_reported_apart_and_is_no_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """R9.4: the run's second game is issue 31's game 0/3649 (three shrewd seats that
    keep out of the Monsters' reach once the supply is empty), played by its own seats."""
    real = play_game

    def with_a_stall(rules: Any, seats: Any, seed: str, **kwargs: Any) -> Any:
        if seed == "4/1":
            seats = [make_player("shrewd", seat, f"0/3649/{seat}") for seat in range(3)]
            seed = "0/3649"
        return real(rules, seats, seed, **kwargs)

    monkeypatch.setattr("lockdown_core.ai.simulation.play_game", with_a_stall)
    argv = ["--games", "3", "--players", "3", "--ai", "shrewd", "--seed", "4"]
    assert run([*argv, "--json"]) == 0
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert (report["games"], report["errors"], report["stalemates"]) == (3, 0, 1)
    assert (report["finished"], report["first_stalemate_game"]) == (2, 1)
    assert report["first_error"] is None
    assert err == ""
    for lang in ("en", "fr"):
        assert run([*argv, "--lang", lang]) == 0
        text = capsys.readouterr().out
        assert t(lang, "simulate.cli.errors", errors=0) in text
        assert t(lang, "simulate.cli.stalemates", stalemates=1) in text
        seeds = {"seed": "4/1", "ai_seed": ai_seed(4, 1)}
        assert t(lang, "simulate.cli.stalemate_seed", **seeds) in text


def test_progress_bar_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    monkeypatch.setattr("sys.stderr", screen)
    assert run(["--games", "4", "--players", "3"]) == 0
    drawn = screen.getvalue()
    assert "\r[" in drawn
    assert "4/4 games" in drawn
    assert drawn.endswith("\n")


def test_chart_compares_the_base_rules_with_the_variants_on_the_same_seeds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.render.chart import Series, chart_png
    from bot.texts import t
    from lockdown_core import load_ruleset
    from lockdown_core.ai.simulation import simulate

    chart = tmp_path / "chart.png"
    argv = ["--games", "12", "--players", "4", "--variant", "hush", "--seed", "3"]
    assert run([*argv, "--chart", str(chart), "--lang", "fr"]) == 0
    assert "chart.png" in capsys.readouterr().err

    def say(key: str, **params: object) -> str:
        return t("fr", key, **params)

    expected = [
        Series(say("chart.base"), simulate(load_ruleset(), 4, "cautious", 12, 3).summary()),
        Series(
            say("variant.hush.name"),
            simulate(load_ruleset(["hush"]), 4, "cautious", 12, 3).summary(),
        ),
    ]
    assert chart.read_bytes() == chart_png(expected, 4, 12, "fr")


def test_the_report_writes_its_numbers_the_readers_way(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Through Babel: a decimal comma and a space before `%` in French, not Python's."""
    from lockdown_core import load_ruleset
    from lockdown_core.ai.simulation import simulate

    assert run(["--games", "6", "--players", "4", "--variant", "hush", "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    hush = simulate(load_ruleset(["hush"]), 4, "cautious", 6, 0).summary()
    turns = f"{hush['avg_turns']:.2f}".replace(".", ",")
    assert turns in out
    assert f"{hush['avg_turns']:.2f}" not in out
    assert re.search(r"\d\u00a0%", out)
    assert not re.search(r"\d%", out)
