"""AI seats' words at the table: stored with their actions, shown once in their places,
read back the same from the stored log, and blind to what their seat may not see."""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import pytest

from bot.storage.database import Database
from bot.storage.write_behind import BatchingGameRepository
from bot.table.hub import GameHub
from bot.table.lobby import Lobby, next_ai_kind
from bot.table.persist import StoredGames
from bot.table.seat_players import SeatPlayers
from bot.table.seats import Seat
from bot.table.stored_form import stored_seed
from bot.table.table import Table
from bot.table.talk import TALK, Reasons, heard, replay_with_talk, talk_events
from bot.table.timers import TableConfig
from bot.texts.catalog import LANGUAGES
from bot.texts.narrate import describe
from lockdown_core import (
    ReplayLog,
    Step,
    apply,
    legal_actions,
    load_ruleset,
    new_game,
    pending_seats,
    view,
)
from lockdown_core.actions import SearchTruck, action_to_dict
from lockdown_core.ai import CautiousPlayer, ShrewdPlayer, make_player
from tests.core.ai.helpers import hidden_twin
from tests.table.fakes import ManualScheduler, RecordingPresenter

# A deal in which the three shrewd seats each find something to say.
SEED = 2
NAMES = ["Ann", "AI 1 (the Gambler)", "AI 2 (the Trickster)", "AI 3"]


async def play_out(table: Table, scheduler: ManualScheduler) -> None:
    while not table.finished:
        due = scheduler.next_due()
        assert due is not None
        await scheduler.advance(due - scheduler.now())
    async with table.lock:
        pass


async def test_two_personas_talk_in_the_thread_and_the_stored_log_gives_the_same_lines(
    tmp_path: Path,
) -> None:
    """A person who never clicks and two shrewd seats of the server's two personas: both
    talk; every line is stored with the action it came with, and the game read back
    from its stored log has the same public events, talk included, in the same places
    (what the delivery cursor counts across a restart). The stand-in playing the
    absent person never speaks for them."""
    async with Database(f"sqlite+aiosqlite:///{tmp_path / 'g.db'}") as database:
        await database.migrate()
        stored_games = StoredGames(BatchingGameRepository(database))
        scheduler = ManualScheduler()
        hub = GameHub(
            scheduler,
            lambda kind, index, _seed: make_player(kind, index, f"talk/{index}"),
            lambda game_id, lobby: RecordingPresenter(),
            stored_games=stored_games,
        )
        lobby = await hub.open_lobby(1, 2, 100, "Ann")
        lobby.ai_level, lobby.ai_personas = "shrewd", ("gambler", "trickster")
        for _ in range(3):
            lobby.add_ai(100)
        assert [s.ai_kind for s in lobby.seats] == [
            None,
            "shrewd:gambler",
            "shrewd:trickster",
            "shrewd:gambler",
        ]
        table = await hub.start(lobby, 100, False, TableConfig(ai_delay=1.0), seed=SEED)
        await play_out(table, scheduler)
        rows = [row.action for row in await stored_games.games.action_log(table.game_id)]
        record = await stored_games.games.get_game(table.game_id)

    remarks = [e for e in table.public_log if e.kind == "ai_remark"]
    assert {e.data["seat"] for e in remarks} == {1, 2, 3}
    assert {e.data["persona"] for e in remarks} == {"gambler", "trickster"}
    spoken = [row for row in rows if TALK in row]
    assert all(row["player"] == row[TALK]["seat"] != 0 for row in spoken)
    for row in spoken:
        remark = row[TALK].get("remark")
        if remark is not None and remark["kind"] == "vote":
            assert remark["params"]["candidate"] == row["candidate"], "it says what it did"
        if remark is not None and remark["kind"] == "gift":
            assert remark["params"]["to"] == row["give_to"]

    log = ReplayLog(
        players=len(record.seats),
        seed=stored_seed(str(record.seed)),
        variants=list(record.variants),
        actions=rows,
    )
    _, events = replay_with_talk(log)
    assert [e.to_dict() for e in events if e.to is None] == [e.to_dict() for e in table.public_log]
    read_back = Reasons()
    read_back.note(events)
    decisive = table.players.reasons.decisive()
    assert read_back.decisive() == decisive
    assert [r["seat"] for r in decisive] == [1, 2, 3]
    for line in (describe(e, lang, NAMES) for e in remarks for lang in LANGUAGES):
        assert line.startswith(("AI 1", "AI 2", "AI 3"))


def test_a_gift_remark_comes_before_the_next_vote_the_truck_opens() -> None:
    """Words are told with what their seat did: a gift's remark right after the gift,
    before the end of the truck, never under the heading of the vote it opens."""
    rnd = random.Random(0)
    state, _ = new_game(load_ruleset(), 4, 3)
    log = ReplayLog(players=4, seed=3)
    while True:
        seat = rnd.choice(pending_seats(state))  # this deal waits on someone up to the gift
        action = rnd.choice(legal_actions(state, seat))
        stored = action_to_dict(action)
        made = apply(state, action)
        if isinstance(action, SearchTruck) and action.give is not None:
            words = {"kind": "gift", "params": {"to": action.give_to, "reason": "ally"}}
            said = {"seat": seat, "persona": "gambler", "turn": state.turn, "remark": words}
            log.actions.append({**stored, TALK: said})
            break
        log.actions.append(stored)
    assert any(e.kind == "discussion_started" for e in made), "the truck's end opens a vote"
    _, events = replay_with_talk(log)
    told = [e.kind for e in events if e.to is None]
    # The truck action's public events: the gift, its words, then what it set off.
    last = told[-sum(e.to is None for e in made) - 1 :]
    assert last[:3] == ["card_given", "ai_remark", "truck_done"]
    assert "discussion_started" in last


def test_a_stored_action_without_words_shows_none() -> None:
    assert talk_events({"type": "Timeout"}) == []
    assert talk_events({"type": "Done", "player": 1, TALK: "not words"}) == []


def test_the_reason_that_counts_is_the_widest_gap_of_each_seat() -> None:
    reasons = Reasons()
    base = {"persona": "warden", "kind": "destination", "choice": 1, "runner_up": 2}
    events = [
        {**base, "seat": 2, "turn": 1, "expected": 1.0, "runner_up_expected": 1.5},
        {**base, "seat": 2, "turn": 2, "expected": 0.5, "runner_up_expected": 3.0},
        {**base, "seat": 2, "turn": 3, "expected": 0.0, "runner_up_expected": 0.1},
        {**base, "seat": 1, "turn": 1, "expected": 2.0, "runner_up": None},
        {**base, "seat": 1, "turn": 2, "expected": 1.0, "runner_up_expected": None},
    ]
    reasons.note([e for d in events for e in talk_events({TALK: {**d, "why": _why(d)}}) if e.to])
    assert [(r["seat"], r["turn"]) for r in reasons.decisive()] == [(1, 2), (2, 2)]


def _why(d: dict[str, Any]) -> dict[str, Any]:
    return {k: d.get(k) for k in ("kind", "choice", "expected", "runner_up", "runner_up_expected")}


def test_shrewd_seats_take_the_servers_personas_in_turn() -> None:
    seats = [Seat(0, "Ann", user_id=1)]
    assert next_ai_kind("cautious", ("gambler",), seats) == "cautious"
    assert next_ai_kind("shrewd", (), seats) == "shrewd:warden"
    seats.append(Seat(1, "AI 1", ai_kind="shrewd:gambler"))
    assert next_ai_kind("shrewd", ("gambler", "avenger"), seats) == "shrewd:avenger"
    seats.append(Seat(2, "AI 2", ai_kind="shrewd:avenger"))
    assert next_ai_kind("shrewd", ("gambler", "avenger"), seats) == "shrewd:gambler"


def test_a_lobby_refuses_a_persona_the_core_does_not_know() -> None:
    room = Lobby(1, 1, 1, 100)
    room.add_ai(100, "shrewd:loyalist")
    for bad in ("shrewd:nobody", "cautious:gambler"):
        with pytest.raises(Exception, match="lobby_bad_ai"):
            room.add_ai(100, bad)


# What it may not see ------------------------------------------------------------------


@pytest.mark.parametrize(("players", "character"), [(4, "trickster"), (5, "loyalist")])
def test_other_seats_secrets_scrambled_leave_every_line_and_reason_unchanged(
    players: int, character: str
) -> None:
    """R12 over the words: at every decision of a shrewd seat, a twin position that
    differs only in what that seat cannot see gives the same stored words, and the same
    lines in both languages, as the table would show them."""
    rnd = random.Random(players)
    state, events = new_game(load_ruleset(), players, f"lines/{character}")
    seats: list[Any] = [
        ShrewdPlayer(s, f"w/{s}", character) if s % 2 else CautiousPlayer(s, f"c/{s}")
        for s in range(players)
    ]
    names = [f"Seat {s}" for s in range(players)]
    for s, p in enumerate(seats):
        p.observe([e for e in events if e.visible_to(s)])
    compared = lines = 0
    while state.step != Step.GAME_OVER:
        seat = pending_seats(state)[0]
        player = seats[seat]
        legal = legal_actions(state, seat)
        if isinstance(player, ShrewdPlayer):
            twin = hidden_twin(state, seat, rnd)
            assert legal_actions(twin, seat) == legal
            mind = copy.deepcopy(player)
            action = player.choose(view(state, seat), legal)
            mind.choose(view(twin, seat), legal_actions(twin, seat))
            said = heard(player, seat, True, state, legal, action)
            twin_legal = legal_actions(twin, seat)
            assert heard(mind, seat, True, twin, twin_legal, action) == said
            shown = talk_events({TALK: said}) if said else []
            for lang in LANGUAGES:
                assert [describe(e, lang, names, seat=seat) for e in shown] == [
                    describe(e, lang, names, seat=seat)
                    for e in talk_events(
                        {TALK: heard(mind, seat, True, twin, twin_legal, action)} if said else {}
                    )
                ]
            compared += 1
            lines += sum(e.kind == "ai_remark" for e in shown)
        else:
            action = player.choose(view(state, seat), legal)
        events = apply(state, action)
        for s, p in enumerate(seats):
            mine = [e for e in events if e.visible_to(s)]
            if mine:
                p.observe(mine)
    assert compared > 30
    assert lines > 3, "the lines were put to the test"


def test_words_whose_action_could_not_be_stored_are_said_again_with_it() -> None:
    """An AI seat asked again after its action failed to store (same version) gives the
    same action with the same words, where its player, having spoken in this step,
    would keep quiet the second time."""
    state, events = new_game(load_ruleset(), 4, "retry")
    seats = [Seat(i, f"AI {i}", ai_kind="shrewd:trickster") for i in range(4)]
    players = SeatPlayers(seats, lambda kind, index, _seed: make_player(kind, index, f"r/{index}"))
    players.observe(events)
    retried = 0
    while state.step != Step.GAME_OVER and retried < 3:
        seat = pending_seats(state)[0]
        action = players.choose(seat, state, legal_actions(state, seat))
        first = players.stored(action)
        if first.get(TALK, {}).get("remark") is not None:
            again = players.choose(seat, state, legal_actions(state, seat))
            assert players.stored(again) == first
            retried += 1
        players.observe(apply(state, action) + talk_events(first))
    assert retried == 3
