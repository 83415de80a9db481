"""The terminal table forgives: typed-ahead keys are dropped, keys stay where they were,
weights are current, and the rules, the placements and each step are explained."""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
from collections.abc import Iterator

from bot.cli.keyboard import Keyboard
from bot.cli.play import add_arguments, play_game
from bot.cli.play_asker import Options, above_menu
from bot.cli.play_menu import DONE_KEY, menu_of, menu_signature
from bot.texts import t
from bot.texts.panel_text import now_lines
from lockdown_core import (
    BreakTie,
    Designate,
    Done,
    GameState,
    PlayCard,
    SearchTruck,
    Step,
    Timeout,
    apply,
    legal_actions,
    load_ruleset,
    new_game,
    pending_seats,
)

ANY_CHOICE = [str(n) for n in range(7)]
NAMES = ["Player 1", "AI 2", "AI 3", "AI 4", "AI 5", "AI 6"]


def random_states(games: int) -> Iterator[GameState]:
    for seed in range(games):
        rnd = random.Random(seed)
        state, _ = new_game(load_ruleset(), rnd.randint(3, 6), seed)
        while state.step != Step.GAME_OVER:
            yield state
            pending = pending_seats(state)
            options = legal_actions(state, rnd.choice(pending)) if pending else []
            apply(state, rnd.choice(options) if options else Timeout())


async def test_a_line_typed_before_a_menu_appears_is_dropped() -> None:
    """A "1" meant for Done, typed while the AI seats played, once designated its typist."""
    typed: asyncio.Queue[str] = asyncio.Queue()
    flushed: list[bool] = []

    async def read_line() -> str:
        return await typed.get()

    keyboard = Keyboard(read_line, lambda: flushed.append(True))
    changed = asyncio.Event()
    menu = ["first"]
    waiting = asyncio.ensure_future(keyboard.answer(lambda: menu[0] == "first", changed))
    await asyncio.sleep(0)
    menu[0] = "second"  # the game moves on: that menu is gone
    changed.set()
    assert await asyncio.wait_for(waiting, 1) is None
    typed.put_nowait("1\n")  # typed ahead, before the next menu is drawn
    await asyncio.sleep(0.01)
    keyboard.discard()  # the next menu appears
    assert flushed == [True], "the terminal's own buffer is flushed too"
    answer = asyncio.ensure_future(keyboard.answer(lambda: menu[0] == "second", changed))
    await asyncio.sleep(0.01)
    assert not answer.done(), "the typed-ahead line did not answer the new menu"
    typed.put_nowait("0\n")
    assert await asyncio.wait_for(answer, 1) == "0\n"
    keyboard.close()


async def test_scripted_input_keeps_every_line() -> None:
    """Lines piped from a file were written on purpose: nothing is flushed or dropped."""
    lines = iter(["1\n", "0\n"])

    async def read_line() -> str:
        return next(lines)

    keyboard = Keyboard(read_line)
    changed = asyncio.Event()
    first = asyncio.ensure_future(keyboard.answer(lambda: False, changed))
    assert await first is None  # the menu went stale at once; the read goes on
    await asyncio.sleep(0.01)
    keyboard.discard()
    assert await keyboard.answer(lambda: True, changed) == "1\n"
    keyboard.close()


def test_done_keeps_its_key_and_candidates_keep_seat_order_in_every_menu() -> None:
    dones = designations = 0
    for state in random_states(8):
        for seat in pending_seats(state):
            menu = menu_of(legal_actions(state, seat), state, "")
            for key, _, actions in menu:
                if isinstance(actions[0], Done):
                    assert key == DONE_KEY
                    dones += 1
            candidates = [
                a[0].candidate for _, _, a in menu if isinstance(a[0], Designate | BreakTie)
            ]
            assert candidates == sorted(candidates)
            designations += bool(candidates)
            assert len({key for key, _, _ in menu}) == len(menu)
    assert dones > 50
    assert designations > 20


def test_a_choice_that_names_a_seat_is_keyed_by_that_seats_number() -> None:
    """Votes, tie-breaks and the truck's gifts, at every level of a narrowed menu."""
    named = 0

    def walk(state: GameState, seat: int, narrowed: str) -> int:
        found = 0
        legal = legal_actions(state, seat)
        for key, code, actions in menu_of(legal, state, narrowed):
            if len(actions) > 1:
                found += walk(state, seat, code)
                continue
            action = actions[0]
            if isinstance(action, Designate | BreakTie):
                assert key == str(action.candidate + 1)
                found += 1
            elif isinstance(action, SearchTruck) and action.give_to is not None:
                assert key == str(action.give_to + 1)
                found += 1
        return found

    for state in random_states(8):
        for seat in pending_seats(state):
            named += walk(state, seat, "")
    assert named > 100


def test_a_card_that_changes_a_weight_redraws_the_menu_with_the_new_weight() -> None:
    """Rotten meat hides a voter's character: its votes leave the vote (R2.1, R7.8)."""
    for state in random_states(60):
        if state.step != Step.DISCUSSION or state.vote is None:
            continue
        for player in pending_seats(state):
            meat = [a for a in legal_actions(state, player) if isinstance(a, PlayCard)]
            meat = [a for a in meat if a.card == "rotten_meat"]
            others = [p for p in state.vote.candidates if p != player]
            if not meat or not others:
                continue
            watcher = others[0]
            before = menu_signature(state, watcher), now_lines("en", state, ["A"] * 6)
            apply(state, meat[0])
            after = menu_signature(state, watcher), now_lines("en", state, ["A"] * 6)
            assert before[0] != after[0], "the watcher's menu is drawn again"
            assert before[1] != after[1], "with the weights as they are now"
            return
    raise AssertionError("no Rotten meat in the sample games")


async def play(
    lang: str, seed: int, first: list[str], teach: bool = False, ai: str = "random"
) -> list[str]:
    lines: list[str] = []
    answers = itertools.chain(first, itertools.cycle(ANY_CHOICE))

    async def read_line() -> str:
        return next(answers)

    options = Options(teach=teach)
    await play_game(3, 0, seed, lang, ai, read_line, lines.append, 0.0, options)
    return lines


def test_the_help_names_the_keys_of_each_language() -> None:
    """French keys stand for French words (p: plateau, m: main), German and Spanish
    keys for theirs (t: tablero), said in --help too."""
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    shown = " ".join(parser.format_help().split())
    assert "b the board, h your hand, r this game's rules, q to leave" in shown
    assert "Français: p, m, r, q, and o" in shown
    assert "Español: t, m, r, s, and s" in shown
    assert "Deutsch: b, h, r, q, and j" in shown


async def test_the_shrewd_level_plays_at_the_terminal_too() -> None:
    """`--ai shrewd`: the strongest level, the one the practice game teaches against."""
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert parser.parse_args(["--ai", "shrewd"]).ai == "shrewd"
    lines = await play("fr", 8, [], ai="shrewd")
    assert sum("Scores\u00a0: " in line for line in lines) == 1


async def test_r_shows_this_games_rules_and_placements_name_their_locations() -> None:
    lines = await play("en", 5, ["r"])
    assert t("en", "rules.title") in lines
    assert t("en", "rules.kinds_title") in lines
    placements = [line for line in lines if "(die " in line and line.startswith("  1. ")]
    assert placements
    assert any(t("en", f"location.{loc}") in placements[0] for loc in range(1, 7))


async def test_every_choice_gets_a_receipt_that_says_what_was_recorded() -> None:
    lines = await play("fr", 6, [])
    receipts = [line for line in lines if line.startswith("Enregistré\u00a0: ")]
    assert receipts
    assert "Enregistré\u00a0: Terminé." in receipts
    assert all(len(line) > len("Enregistré\u00a0: .") for line in receipts)


async def test_teach_explains_every_step_you_act_in_with_its_rules() -> None:
    for lang, rules in (("en", "Rules: "), ("fr", "Règles\u00a0: ")):
        lines = await play(lang, 7, [], teach=True)
        cited = [line for line in lines if line.startswith(rules)]
        assert f"{rules}R1.4." in cited
        assert len(cited) > 10
    plain = await play("en", 7, [])
    assert not any(line.startswith("Rules: ") for line in plain)
    taught = await play("en", 7, [], teach=True)
    scores = [line for line in plain if "Scores: " in line]
    assert len(scores) == 1
    assert scores == [line for line in taught if "Scores: " in line], "the lessons change nothing"
    # Above a menu, never "nothing to choose", never a thread the terminal does not have.
    assert not any("thread" in line for line in taught)
    assert t("en", "teach.watch") not in taught
    assert t("en", "play.teach.menu") in taught


async def test_your_seat_is_named_without_brackets_inside_brackets() -> None:
    """ "Leader (Player (you))" read badly: the seat is simply "You"."""
    lines = await play("fr", 5, ["b"])
    assert not any("((" in line or "))" in line for line in lines)
    assert any("Vous" in line for line in lines)


def test_what_is_said_above_a_menu_never_contradicts_it() -> None:
    """Above a menu (plain and --teach): no thread to talk in, no "nothing to choose",
    and no destination to change until the reveal: here a menu is drawn only when the
    game waits on you, and a choice once made is final."""
    destinations = 0
    for state in random_states(6):
        for seat in pending_seats(state):
            if not legal_actions(state, seat):
                continue
            for lang in ("en", "fr"):
                wrong = {
                    t(lang, "step.destinations.help"),
                    t(lang, "teach.watch"),
                    t(lang, "teach.discussion.idle"),
                    *(
                        t(lang, "teach.destinations.chosen", location=t(lang, f"location.{loc}"))
                        for loc in range(1, 7)
                    ),
                }
                for teach in (False, True):
                    lines = above_menu(lang, state, seat, NAMES, teach)
                    assert not wrong & set(lines), lines
                    assert not any("thread" in line for line in lines)
            destinations += state.step == Step.DESTINATIONS
    assert destinations > 10
