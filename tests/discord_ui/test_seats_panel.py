"""The seats' buttons where people find them: Leave (and the vote to end) in My hand,
Take this seat on the board under a seat an AI stands in for, and nowhere else."""

from __future__ import annotations

from functools import partial

from bot.discord_ui.game.board import BoardMoment, buttons
from bot.discord_ui.game.panel import hand_panel
from bot.table import handover
from bot.texts import t
from tests.table.test_table import humans, make_table

NAMES = ["Ana", "Bo", "Cy"]


def ids(view: object) -> list[str]:
    return [getattr(item, "item", item).custom_id for item in view.children]  # type: ignore[attr-defined]


async def test_my_hand_offers_leave_and_the_vote_only_when_the_host_is_gone() -> None:
    table, _, _ = make_table(humans(3))
    await table.begin([])
    _, view = hand_panel(table, 1, "en", NAMES, [])
    assert "ld:s:1:leave" in ids(view)
    assert "ld:s:1:end" not in ids(view)
    _, view = hand_panel(table, 1, "fr", NAMES, [], end_vote=True)
    assert ids(view)[-2:] == ["ld:s:1:leave", "ld:s:1:end"]


async def test_the_board_offers_each_seat_an_ai_stands_in_for() -> None:
    table, _, _ = make_table(humans(3))
    await table.begin([])
    say = partial(t, "en")
    assert not [i for i in ids(buttons(BoardMoment.capture(table), say, NAMES)) if "ld:t:" in i]
    await handover.leave(table, 102)
    view = buttons(BoardMoment.capture(table), say, NAMES)
    takes = [item for item in view.children if "ld:t:" in getattr(item, "item", item).custom_id]
    assert [getattr(i, "item", i).custom_id for i in takes] == ["ld:t:1:2"]
    assert getattr(takes[0], "item", takes[0]).label == "Take Cy's seat"
    await handover.take(table, 900, 2, "Nia")
    assert not [i for i in ids(buttons(BoardMoment.capture(table), say, NAMES)) if "ld:t:" in i]
