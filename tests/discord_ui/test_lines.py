"""A delivery's batch: each public event's line once, in order, each notice in its place."""

from __future__ import annotations

from collections.abc import Sequence

from bot.discord_ui.game.lines import Batch, gather, lines_of
from bot.discord_ui.limits import NONCE
from lockdown_core import Event


def told(events: Sequence[Event]) -> list[str]:
    return [event.kind for event in events]


EVENTS = [Event("a"), Event("player_done"), Event("b"), Event("c"), Event("d")]


def test_a_notice_noted_after_p_events_comes_right_after_the_pth_event() -> None:
    # The third event is "b": the board-only "player_done" counts but shows no line.
    batch = gather(EVENTS, 0, 4, [(1, "notice one"), (3, "notice three")], told)
    assert batch == Batch(0, 4, ("a", "notice one", "b", "notice three", "c"), 2)


def test_lines_start_at_the_cursor_and_a_later_notice_waits_for_its_batch() -> None:
    batch = gather(EVENTS, 2, 4, [(5, "later")], told)
    assert batch == Batch(2, 4, ("b", "c"), 0)


def test_only_board_progress_makes_no_batch() -> None:
    assert gather(EVENTS, 1, 2, [], told) is None


def test_a_night_s_arrivals_are_told_in_one_line_per_location() -> None:
    arrivals = [
        Event("monster_added", {"location": 1, "reason": "die", "intended": 1}),
        Event("monster_added", {"location": 1, "reason": "die", "intended": 1}),
        Event("monster_added", {"location": 4, "reason": "die", "intended": 4}),
        Event("monster_added", {"location": 1, "reason": "crowd", "intended": 1}),
    ]
    lines = lines_of(arrivals, "en", ["Ann", "Bo", "Cy"])
    assert len(lines) == 2
    assert "3 Monsters" in lines[0]
    assert "Restrooms" in lines[0]


def test_a_nonce_names_the_range_and_fits_discord_s_limit() -> None:
    assert Batch(3, 9, ("x",), 0).nonce(42, 1) == "42.3.9.1"
    assert len(Batch(10**9, 10**9 + 1, ("x",), 0).nonce(10**12, 99)) == NONCE
