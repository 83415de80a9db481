"""Seats change hands on the fake Discord (issue 23, items 1 and 2): leaving hands the
seat to an AI at once, the first person without a seat takes it from the next step,
its owner reclaims it, and the seated people end a game whose host is gone.

Each refusal is private, in our words, and changes nothing.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.texts import t
from bot.texts.panel_text import hand_lines, private_lines
from lockdown_core import Step, pending_seats
from tests.discord_ui.players import Game, open_and_start
from tests.discord_ui.seats_play import (
    hand_panel,
    leave,
    make_bot,
    open_hand,
    play_until,
    take,
    thread_text,
)
from tests.fakediscord import FakeDiscord, start_client
from tests.fakediscord.records import FakeUser
from tests.moderation.test_forged_servers import forged_click
from tests.moderation.test_moderation_e2e import answer_text

pytestmark = pytest.mark.e2e


def say(key: str, **params: object) -> str:
    return t("en", key, **params)


async def four_people(fake: FakeDiscord, tmp_path: Path) -> tuple[list[FakeUser], FakeUser]:
    guild = fake.create_guild("Club", members=["ana", "bo", "cy", "dan"], channels=("general",))
    ana, bo, cy, dan = guild.members
    return [ana, bo, cy], dan


async def start(fake: FakeDiscord, bot: object, people: list[FakeUser]) -> Game:
    guild = fake.guilds[0]
    host, *guests = people
    return await open_and_start(fake, bot, host, guests, 0, guild.channel("general"))  # type: ignore[arg-type]


async def test_a_take_over_in_the_middle_of_a_secret_vote(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    people, dan = await four_people(fake_discord, tmp_path)
    rng = random.Random(5)
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        game = await start(fake_discord, bot, people)
        table = game.table

        def in_vote() -> bool:
            vote = table.state.vote
            waiting = pending_seats(table.state)
            humans = [p for p in waiting if p in game.people]
            # Two people still to vote: the vote goes on after one of them left.
            return (
                table.state.step == Step.DESIGNATION
                and vote is not None
                and len(humans) >= 2
                and any(p != 0 for p in humans)
            )

        await play_until(game, rng, in_vote)
        seat = next(p for p in pending_seats(table.state) if p in game.people and p != 0)
        leaver = game.people[seat]
        name = table.seats[seat].name
        token = table.token
        assert await leave(fake_discord, game, leaver) == say("handover.left")
        assert table.seats[seat].played_by_ai
        # The stand-in votes at once for the seat: the vote does not wait on the leaver.
        assert await fake_discord.wait_until(
            lambda: table.state.vote is None or seat not in pending_seats(table.state),
            within=5,
        )
        assert await fake_discord.wait_until(
            lambda: say("handover.notice.left", name=name) in thread_text(fake_discord, game),
            within=5,
        )
        # The leaver sees the seat no more.
        gone = await open_hand(fake_discord, game, leaver)
        assert await answer_text(fake_discord, gone) == say("error.not_seated")
        assert table.token == token, "still the same vote"
        # Still the vote: the newcomer takes the seat, its stand-in finishes the vote.
        assert await take(fake_discord, game, dan, seat) == say("handover.taken")
        assert table.seats[seat].user_id == dan.id
        assert table.seats[seat].played_by_ai, "the stand-in finishes this step"
        # The board no longer offers the seat; a click on an older board is refused.
        old = f"ld:t:{table.game_id}:{seat}"
        second = await forged_click(fake_discord, people[0], game.thread, game.board(), old)
        assert second == say("handover.error.already_seated")
        # Nor does the leaver take it back from the newcomer.
        back = await forged_click(fake_discord, leaver, game.thread, game.board(), old)
        assert back == say("handover.error.not_free")
        game.people[seat] = dan
        await play_until(game, rng, lambda: table.token != token)
        assert not table.seats[seat].played_by_ai, "the seat is the newcomer's now"
        thread = thread_text(fake_discord, game)
        assert thread.count(say("handover.notice.left", name=name)) == 1
        slow = [ix for ix in fake_discord.interactions if not ix.answered_in_time]
        assert not slow


async def test_leaving_during_your_own_secret_destination(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    people, _ = await four_people(fake_discord, tmp_path)
    rng = random.Random(8)
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        game = await start(fake_discord, bot, people)
        table = game.table

        def choosing() -> bool:
            waiting = pending_seats(table.state)
            return table.state.step == Step.DESTINATIONS and any(p in game.people for p in waiting)

        await play_until(game, rng, choosing)
        seat = next(p for p in pending_seats(table.state) if p in game.people)
        assert seat not in table.state.destinations
        assert await leave(fake_discord, game, game.people[seat]) == say("handover.left")
        # The stand-in chooses the seat's destination at once, in secret.
        assert await fake_discord.wait_until(
            lambda: seat not in pending_seats(table.state) or table.state.step != Step.DESTINATIONS,
            within=5,
        )
        forged = await forged_click(
            fake_discord, game.people[seat], game.thread, game.board(), f"ld:s:{table.game_id}:bye"
        )
        assert forged == say("error.not_seated"), "leaving twice changes nothing"
        leaver = game.people.pop(seat)
        dms = fake_discord.dms(leaver)
        await play_until(game, rng, lambda: table.state.step not in (Step.DESTINATIONS,))
        assert fake_discord.dms(leaver) == dms, "no reminder for a seat one has left"


async def test_a_take_over_of_a_seat_holding_cards_and_the_badge(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    people, dan = await four_people(fake_discord, tmp_path)
    rng = random.Random(2)
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        game = await start(fake_discord, bot, people)
        table = game.table

        def badge_with_cards() -> bool:
            badge = table.state.badge
            return (
                table.state.step == Step.BADGE_DESTINATION
                and badge in game.people
                and bool(table.state.hands[badge])
            )

        await play_until(game, rng, badge_with_cards)
        seat = table.state.badge
        presenter = bot.service.presenters[table.game_id]
        before = presenter.recent_lines(seat, "en")
        await leave(fake_discord, game, game.people[seat])
        assert await take(fake_discord, game, dan, seat) == say("handover.taken")
        game.people[seat] = dan
        await play_until(game, rng, lambda: not table.seats[seat].played_by_ai)
        panel = await hand_panel(fake_discord, game, dan)
        assert panel is not None
        data = table.view_for(seat)
        expected = hand_lines("en", data["hand"], table.state)
        expected += private_lines("en", table.state, data, seat, presenter.names)
        for line in expected:
            assert line in panel.text, "the newcomer sees what the seat knows"
        for line in before:
            assert line not in panel.text, "nothing the previous person was told"


async def test_reclaiming_your_seat(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    people, dan = await four_people(fake_discord, tmp_path)
    _, bo, cy = people
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        game = await start(fake_discord, bot, people)
        table = game.table
        seat = next(s for s, u in game.people.items() if u == bo)
        other = next(s for s, u in game.people.items() if u == cy)
        # Nobody takes a person's seat: a forged Take this seat is refused.
        text = await forged_click(
            fake_discord, dan, game.thread, game.board(), f"ld:t:{table.game_id}:{other}"
        )
        assert text == say("handover.error.not_free")
        assert table.seats[other].user_id == cy.id
        await leave(fake_discord, game, bo)
        assert await take(fake_discord, game, bo, seat) == say("handover.reclaimed")
        assert table.seat_of(bo.id) is table.seats[seat]
        assert not table.seats[seat].played_by_ai
        again = await forged_click(
            fake_discord, dan, game.thread, game.board(), f"ld:t:{table.game_id}:{seat}"
        )
        assert again == say("handover.error.not_free")
        name = table.seats[seat].name
        assert await fake_discord.wait_until(
            lambda: say("handover.notice.reclaimed", name=name) in thread_text(fake_discord, game),
            within=5,
        )
        panel = await hand_panel(fake_discord, game, bo)
        assert panel is not None
        assert any(b.custom_id == f"ld:s:{table.game_id}:leave" for b in panel.buttons)


async def test_the_seated_people_vote_to_end_when_the_host_left(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    people, dan = await four_people(fake_discord, tmp_path)
    ana, bo, cy = people
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        game = await start(fake_discord, bot, people)
        table = game.table
        game_id = table.game_id
        end = f"ld:s:{game_id}:end"
        early = await forged_click(fake_discord, bo, game.thread, game.board(), end)
        assert early == say("handover.error.host_here")
        await leave(fake_discord, game, ana)
        panel = await hand_panel(fake_discord, game, bo)
        assert panel is not None
        assert any(b.custom_id == end for b in panel.buttons)
        first = await fake_discord.click(bo, panel, end)
        assert await answer_text(fake_discord, first) == say(
            "handover.end.voted", votes=1, needed=2
        )
        twice = await forged_click(fake_discord, bo, game.thread, game.board(), end)
        assert twice == say("handover.error.voted_already")
        outsider = await forged_click(fake_discord, dan, game.thread, game.board(), end)
        assert outsider == say("error.not_seated")
        assert game_id in bot.hub.tables
        last = await forged_click(fake_discord, cy, game.thread, game.board(), end)
        assert last == say("handover.end.carried")
        assert game_id not in bot.hub.tables
        assert await fake_discord.wait_until(
            lambda: say("handover.announce.ended") in thread_text(fake_discord, game), within=5
        )
        # Leaving is counted in the leaver's profile, and in nobody else's.
        general = fake_discord.guilds[0].channel("general")
        for user, shown in ((ana, True), (bo, False)):
            profile = await fake_discord.slash(
                cy, "lockdown", subcommand="stats", options={"user": user}, channel=general
            )
            text = await answer_text(fake_discord, profile)
            assert (say("handover.profile.left", count=1) in text) is shown
