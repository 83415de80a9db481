"""The terminal's menu: locations by their own number, redrawn when the game moves on,
and the same panel texts as Discord's My hand."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

from bot.cli.keyboard import Keyboard
from bot.cli.play import play_game
from bot.cli.play_asker import Options
from bot.cli.play_menu import menu_of
from bot.texts import t
from lockdown_core import ChooseDestination, SearchTruck, Step, legal_actions
from tests.core.builders import at_destinations, at_turn, position


def destinations(closed: tuple[int, ...]) -> Any:
    families: list[dict[str, Any]] = [{"blocker": 1, "leader": 1, "weeper": 2}] * 3
    state = position(*families, closed=closed, badge=0, martyr=1)
    at_destinations(state, [1, 2, 3, 4], seen=(0,))
    assert state.step == Step.BADGE_DESTINATION
    return state


def test_a_location_is_chosen_by_its_own_number_whatever_else_is_open() -> None:
    for closed in ((), (2, 4), (1, 5)):
        state = destinations(closed)
        menu = menu_of(legal_actions(state, 0), state, "")
        for number, _, actions in menu:
            (action,) = actions
            assert isinstance(action, ChooseDestination)
            assert number == str(action.location)
        numbers = {number for number, _, _ in menu}
        assert not numbers & {str(c) for c in closed}


def test_the_truck_keeps_a_card_then_gives_one_to_a_seat_by_its_number() -> None:
    """The truck: the card to keep, numbered from 1; then the card to give; then who
    gets it, by their seat's number ("2. Give Gun to AI 2", not "1. Give Gun to AI 2")."""
    families: list[dict[str, Any]] = [{"blocker": 6, "leader": 1, "weeper": 2}]
    families += [{"blocker": 4, "leader": 5, "weeper": 2}] * 2
    truck = position(*families, badge=1, martyr=2, deck=["gun", "tin_can", "chainsaw"])
    at_turn(truck)
    assert truck.step == Step.TRUCK_CHOICE
    legal = legal_actions(truck, 0)
    menu = menu_of(legal, truck, "")
    assert [n for n, _, _ in menu] == ["1", "2", "3"]
    _, kept, _ = menu[0]
    cards = menu_of(legal, truck, kept)
    assert [n for n, _, _ in cards] == ["1", "2"]
    _, given, _ = cards[0]
    receivers = menu_of(legal, truck, given)
    assert [n for n, _, _ in receivers] == ["2", "3"]
    for key, _, (gift,) in receivers:
        assert isinstance(gift, SearchTruck)
        assert key == str(gift.give_to + 1)  # type: ignore[operator]


async def test_the_menu_is_redrawn_when_the_game_moves_on_while_you_think() -> None:
    typed: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    async def read_line() -> str:
        return await typed

    keyboard = Keyboard(read_line)
    changed = asyncio.Event()
    token = ["aaaaaaaa"]
    waiting = asyncio.ensure_future(keyboard.answer(lambda: token[0] == "aaaaaaaa", changed))
    await asyncio.sleep(0)
    # An update that leaves the step as it was does not redraw anything.
    changed.set()
    await asyncio.sleep(0.01)
    assert not waiting.done()
    # An AI seat ends the step: the menu on screen is stale, and says so at once.
    token[0] = "bbbbbbbb"
    changed.set()
    assert await asyncio.wait_for(waiting, 1) is None
    # The line typed afterwards answers the new menu, read by the same pending read.
    keyboard.discard()
    again = asyncio.ensure_future(keyboard.answer(lambda: token[0] == "bbbbbbbb", changed))
    typed.set_result("3\n")
    assert await asyncio.wait_for(again, 1) == "3\n"
    keyboard.close()


async def test_the_terminal_shows_the_panel_texts_of_discord() -> None:
    lines: list[str] = []
    # French keys: m for the hand (main), p for the board (plateau).
    answers = itertools.chain(["m", "p"], itertools.cycle(str(n) for n in range(7)))

    async def read_line() -> str:
        return next(answers)

    table = await play_game(4, 0, 11, "fr", "random", read_line, lines.append, ai_delay=0.0)
    assert table.finished
    assert t("fr", "panel.kinds") in lines
    assert any(line.startswith("  Chialeur (C)\u00a0: ") for line in lines)
    assert t("fr", "step.placement.help") in lines


async def test_a_badge_holder_who_kept_it_without_a_vote_is_told_why_the_dice_are_hidden() -> None:
    """Seed 1 at four seats, AI seed 3: seat 1 keeps the badge without a vote on some
    turn."""
    lines: list[str] = []
    answers = itertools.cycle(str(n) for n in range(7))

    async def read_line() -> str:
        return next(answers)

    options = Options(ai_seed=3)
    await play_game(4, 0, 1, "en", "random", read_line, lines.append, 0.0, options)
    told = [i for i, line in enumerate(lines) if line == "  » " + t("en", "dice.unseen.kept")]
    assert told
    # Told above the choices made before the reveal: the open destination, a Walkie-talkie.
    helps = {t("en", f"step.{step}.help") for step in ("badge_destination", "walkie_window")}
    assert {lines[i - 1] for i in told} <= helps
    assert t("en", "step.badge_destination.help") in {lines[i - 1] for i in told}
