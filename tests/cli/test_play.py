"""`lockdown play`: a whole game in a terminal, one person against AI seats."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import cast

import pytest

from bot.cli.main import dispatch
from bot.cli.play import play_game
from bot.cli.play_asker import Options
from bot.cli.play_log import TerminalPresenter
from bot.cli.saved_game import TerminalSetup, read_saved
from bot.table.presenter import Update
from bot.table.table import Table
from bot.table.talk import TALK
from bot.texts.narrate import describe
from lockdown_core import Event, ReplayLog

# Every menu accepts one of these: Done is 0, a numbered list starts at 1, and among
# the six locations, each chosen by its own number, at least one is open.
ANY_CHOICE = [str(n) for n in range(7)]


async def test_a_terminal_game_runs_to_its_end_with_the_same_texts() -> None:
    lines: list[str] = []
    answers = itertools.chain(["x", "99", "b", "h"], itertools.cycle(ANY_CHOICE))

    async def read_line() -> str:
        return next(answers)

    table = await play_game(3, 0, 42, "en", "random", read_line, lines.append, ai_delay=0.0)
    assert table.finished
    text = "\n".join(lines)
    assert "1." in text
    assert any("seed" in line.lower() and "42" in line for line in lines)
    assert table.state.result is not None


async def test_french_texts_at_the_terminal() -> None:
    lines: list[str] = []
    answers = itertools.cycle(ANY_CHOICE)

    async def read_line() -> str:
        return next(answers)

    table = await play_game(4, 2, 7, "fr", "cautious", read_line, lines.append, ai_delay=0.0)
    assert table.finished
    assert any("graine" in line.lower() for line in lines)


async def test_the_same_seed_and_answers_play_the_same_game_again() -> None:
    """The AI seats' choices come from the game's seed too, as --seed's help promises."""

    async def play(seed: int) -> list[str]:
        lines: list[str] = []
        # "2" where there are two options or more; where there is one, "2" is refused
        # and "1" follows. Not always the first option, so the answers matter as well.
        # A location keeps its own number, so the rest of 1 to 6 follows when both are shut.
        answers = itertools.cycle(["2", *ANY_CHOICE])

        async def read_line() -> str:
            return next(answers)

        await play_game(4, 1, seed, "en", "cautious", read_line, lines.append, ai_delay=0.0)
        return lines

    first = await play(1234)
    assert await play(1234) == first
    assert await play(1235) != first


async def test_your_private_lines_come_where_they_happened_and_nobody_elses() -> None:
    names = ["Ana", "Bo", "Cy"]
    gift = {"card": "gun", "from": 1, "to": 0}
    events = [
        Event("card_given", {"player": 1, "to": 0}),
        Event("card_gift", gift, to=(1, 0)),
        Event("card_kept", {"card": "chainsaw"}, to=(2,)),
        Event("truck_done", {"player": 1, "boxed": 1, "deck": 12}),
    ]
    update = Update([events[0], events[3]], {0: [events[1]]}, [], [], None, timeline=events)
    lines: list[str] = []
    presenter = TerminalPresenter(lines.append, "en", names, 0)
    await presenter.show(cast(Table, None), update)
    assert lines == [
        describe(events[0], "en", names),
        "  » " + describe(events[1], "en", names, seat=0),
        describe(events[3], "en", names),
    ]
    assert not any("Chainsaw" in line for line in lines), "Cy's card stays Cy's"


def test_play_refuses_a_seat_outside_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert dispatch(["play", "--players", "3", "--seat", "5"]) == 2
    assert "--seat" in capsys.readouterr().err


async def test_every_card_offered_is_described_under_its_menu() -> None:
    """A card is never chosen by its name alone: under a menu that offers it (the truck,
    a card window), its help line, in plain mode as in --teach."""
    from bot.texts import card_help, t

    lines: list[str] = []
    answers = itertools.cycle(["1", "2", "0", "3"])

    async def read_line() -> str:
        return next(answers)

    table = await play_game(4, 0, 1, "en", "cautious", read_line, lines.append, ai_delay=0.0)
    rules = table.state.rules
    cards = {t("en", f"card.{card.key}"): card.key for card in rules.cards}
    offered = 0
    for i, line in enumerate(lines):
        if not line.startswith("  ") or not line[2:3].isdigit():
            continue
        for name, key in cards.items():
            if name in line:
                offered += 1
                below = lines[i + 1 : lines.index(t("en", "play.prompt"), i)]
                described = t("en", "panel.card", card=name, help=card_help("en", key, rules))
                assert "     " + described.replace("**", "") in below, line
    assert offered


async def test_a_game_left_halfway_and_resumed_plays_on_as_if_never_left(tmp_path: Path) -> None:
    """`--resume`: the game read back from its file, the AI seats shown its past again
    (shrewd ones, whose words the file keeps too, which `lockdown replay` leaves aside),
    and the same answers from there give the same game as one never left."""
    script = list(itertools.islice(itertools.cycle(["2", *ANY_CHOICE]), 5000))

    async def play(save: Path, answers: list[str], past: ReplayLog | None = None) -> Table:
        given = iter(answers)

        async def read_line() -> str:
            line = next(given, None)
            if line is None:  # the end of the input: a script leaves at once
                raise EOFError
            return line

        options = Options(save=save, ai_seed=8)
        return await play_game(
            4, 1, 21, "en", "shrewd", read_line, [].append, ai_delay=0.0, options=options, past=past
        )

    whole = await play(tmp_path / "whole.json", script)
    assert whole.finished
    left = await play(tmp_path / "left.json", script[:30])
    assert not left.finished
    past, setup = read_saved(tmp_path / "left.json")
    assert setup == TerminalSetup(seat=1, ai="shrewd", ai_seed=8)
    assert any(TALK in action for action in past.actions), "its AI seats talked"
    assert dispatch(["replay", str(tmp_path / "left.json"), "--quiet"]) == 0  # words aside
    resumed = await play(tmp_path / "left.json", script[30:], past)
    assert resumed.finished
    assert read_saved(tmp_path / "left.json")[0] == read_saved(tmp_path / "whole.json")[0]
