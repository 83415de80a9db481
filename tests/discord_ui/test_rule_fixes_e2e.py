"""Issue 15's three examples through the fake Discord (R2.3, R5.4, R1.4).

Each game is dealt at the issue's position instead of a fresh deal (the hub's
`new_game` is replaced for the test); everything else is real: slash command,
lobby, buttons, the table, the database, the board. The clock runs in real
time, so no timer moves the game on while the test clicks. ana is seat 0, bo
seat 1, cy seat 2, dee seat 3.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.table import hub
from bot.texts import t
from lockdown_core import Event, GameState, Step, Timeout, pending_seats
from lockdown_core.ruleset import Ruleset
from tests.core.builders import (
    PARKING,
    act,
    at_attacks,
    at_destinations,
    at_placement,
    new_setup,
    position,
    where,
)
from tests.discord_ui.players import Game, open_and_start
from tests.discord_ui.test_games_e2e import make_bot, public_text
from tests.fakediscord import FakeDiscord, start_client
from tests.fakediscord.records import FakeUser

pytestmark = pytest.mark.e2e


def late_card_position(
    rules: Ruleset, players: int, seed: int | str
) -> tuple[GameState, list[Event]]:
    """Stands in for `new_game`: the attack on the Toy store (4), in discussion. It holds
    ana's Leader and bo's Leader against 3 Monsters; ana holds a Baseball bat, bo
    Rotten meat."""
    assert players == 4
    state = position(
        {"leader": 4, "blocker": 1, "weeper": 2},
        {"leader": 4, "blocker": 2, "weeper": 5},
        {"blocker": 1, "leader": 2, "weeper": 5},
        {"blocker": 2, "leader": 5, "weeper": 5},
        monsters={4: 3},
        hands=[["baseball_bat"], ["rotten_meat"], [], []],
        badge=2,
        martyr=3,
    )
    return state, at_attacks(state)


async def click_labelled(game: Game, user: FakeUser, words: str) -> None:
    """`user` opens My hand and clicks the button whose label holds `words`."""
    fake = game.fake
    assert (await fake.click(user, game.board(), f"ld:h:{game.table.game_id}")).answered_in_time
    # A new panel, or the one already open for this step redrawn in place.
    await fake.settle(quiet=0.05)
    panel = [m for m in fake.ephemerals(user) if m.embeds][-1]
    labels = [b.label or "" for b in panel.buttons]
    button = next((b for b in panel.buttons if words in (b.label or "")), None)
    assert button is not None, f"no {words!r} among {labels}"
    assert button.custom_id is not None
    assert (await fake.click(user, panel, button.custom_id)).answered_in_time


async def test_r2_3_seat_0_answers_a_late_rotten_meat_with_its_baseball_bat(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hub, "new_game", late_card_position)
    guild = fake_discord.create_guild(
        "Club", members=["ana", "bo", "cy", "dee"], channels=("general",)
    )
    ana, bo, cy, dee = guild.members
    async with start_client(make_bot(tmp_path, speed=1.0), fake_discord) as bot:
        game = await open_and_start(
            fake_discord, bot, ana, [bo, cy, dee], 0, guild.channel("general")
        )
        table = game.table
        assert (game.people[0], game.people[1]) == (ana, bo)
        assert (table.state.step, pending_seats(table.state)) == (Step.DISCUSSION, [0, 1])

        await click_labelled(game, ana, t("en", "action.done"))
        assert pending_seats(table.state) == [1]
        await click_labelled(game, bo, t("en", "card.rotten_meat"))
        # The card cancelled ana's Done: she is asked again, and the thread says so.
        assert (table.state.step, pending_seats(table.state)) == (Step.DISCUSSION, [0])
        line = t("en", "event.done_cancelled", names="ana")
        assert await fake_discord.wait_until(lambda: line in public_text(fake_discord, game))

        await click_labelled(game, ana, t("en", "card.baseball_bat"))
        kinds = [e.kind for e in table.public_log]
        assert kinds.index("done_cancelled") < kinds.index("attack_averted")
        assert "character_devoured" not in kinds
        assert where(table.state, 0, "leader") == 4


def full_destination_position(
    rules: Ruleset, players: int, seed: int | str
) -> tuple[GameState, list[Event]]:
    """Stands in for `new_game`: ana holds the badge, her Blocker is in the Supermarket
    (5), which seats 0-2 fill, and her Leader in the Parking lot; destinations next."""
    state = position(
        {"blocker": 5, "leader": PARKING, "weeper": "cold"},
        {"blocker": 5, "leader": 5, "weeper": 5},
        {"blocker": 5, "leader": 5, "weeper": 2},
        {"blocker": 1, "leader": 2, "weeper": 4},
        badge=0,
        martyr=1,
    )
    return state, at_destinations(state, [2, 2, 2, 2])


async def test_r5_4_ana_at_a_full_destination_moves_nobody(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hub, "new_game", full_destination_position)
    guild = fake_discord.create_guild(
        "Club", members=["ana", "bo", "cy", "dee"], channels=("general",)
    )
    ana, bo, cy, dee = guild.members
    async with start_client(make_bot(tmp_path, speed=1.0), fake_discord) as bot:
        game = await open_and_start(
            fake_discord, bot, ana, [bo, cy, dee], 0, guild.channel("general")
        )
        table = game.table
        assert table.state.step == Step.BADGE_DESTINATION
        await click_labelled(game, ana, t("en", "location.5"))
        for user, place in ((bo, 6), (cy, 6), (dee, 4)):
            await click_labelled(game, user, t("en", f"location.{place}"))
        # ana's Blocker is already in the full Supermarket, her Leader already parked.
        assert (table.state.step, table.state.mover) == (Step.MOVE, 1)
        assert (where(table.state, 0, "blocker"), where(table.state, 0, "leader")) == (5, PARKING)
        line = t("en", "event.no_move", name="ana")
        assert await fake_discord.wait_until(lambda: line in public_text(fake_discord, game))


def last_free_spot_position(
    rules: Ruleset, players: int, seed: int | str
) -> tuple[GameState, list[Event]]:
    """Stands in for `new_game`: cy and dee have placed, leaving one free spot in the
    Restrooms (1); ana rolls 1, 1, 5 for her Blocker, Leader and Weeper."""
    state = new_setup(4, badge=2, martyr=0, dice=[1, 1, 2, 2, 3, 4, 1, 1, 5])
    events = at_placement(state)
    events += act(state, Timeout(), Timeout())
    return state, events


async def test_r1_4_ana_gives_the_last_free_spot_to_her_weeper(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hub, "new_game", last_free_spot_position)
    guild = fake_discord.create_guild(
        "Club", members=["ana", "bo", "cy", "dee"], channels=("general",)
    )
    ana, bo, cy, dee = guild.members
    async with start_client(make_bot(tmp_path, speed=1.0), fake_discord) as bot:
        game = await open_and_start(
            fake_discord, bot, ana, [bo, cy, dee], 0, guild.channel("general")
        )
        table = game.table
        assert (table.state.step, table.state.mover, table.state.dice) == (
            Step.PLACEMENT,
            0,
            [1, 1, 5],
        )
        await click_labelled(
            game, ana, "Weeper → 1, Blocker → 1 (full: Parking lot), and Leader → 5"
        )
        assert [where(table.state, 0, k) for k in ("weeper", "blocker", "leader")] == [
            1,
            PARKING,
            5,
        ]
