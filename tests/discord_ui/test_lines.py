"""A delivery's batch: each public event's line once, in order, each notice in its place."""

from __future__ import annotations

from bot.discord_ui.game.lines import BOARD_ONLY, Batch, gather
from bot.discord_ui.limits import NONCE
from lockdown_core import Event


def told(event: Event) -> list[str]:
    return [] if event.kind in BOARD_ONLY else [event.kind]


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


def test_a_nonce_names_the_range_and_fits_discord_s_limit() -> None:
    assert Batch(3, 9, ("x",), 0).nonce(42, 1) == "42.3.9.1"
    assert len(Batch(10**9, 10**9 + 1, ("x",), 0).nonce(10**12, 99)) == NONCE
