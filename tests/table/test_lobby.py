"""The lobby's rules: seats, AI seats, who may start."""

from __future__ import annotations

import pytest

from bot.table.lobby import Lobby, LobbyError


def lobby() -> Lobby:
    return Lobby(lobby_id=1, guild_id=10, channel_id=20, host_id=100)


def test_join_leave_and_renumber() -> None:
    room = lobby()
    room.join(100, "Host")
    room.join(101, "Ana")
    room.join(102, "Bo")
    room.leave(101)
    assert [(s.seat, s.user_id) for s in room.seats] == [(0, 100), (1, 102)]


def test_nobody_sits_twice_and_seven_do_not_fit() -> None:
    room = lobby()
    room.join(100, "Host")
    with pytest.raises(LobbyError) as twice:
        room.join(100, "Host")
    assert twice.value.key == "error.lobby_already_seated"
    for _ in range(5):
        room.add_ai(100)
    with pytest.raises(LobbyError) as full:
        room.join(200, "Late")
    assert full.value.key == "error.lobby_full"


def test_only_the_host_or_a_moderator_starts_with_three_to_six_seats() -> None:
    room = lobby()
    room.join(100, "Host")
    room.join(101, "Ana")
    with pytest.raises(LobbyError) as few:
        room.check_start(100, is_moderator=False)
    assert few.value.key == "error.lobby_seat_count"
    room.add_ai(100, "random")
    with pytest.raises(LobbyError) as guest:
        room.check_start(101, is_moderator=False)
    assert guest.value.key == "error.lobby_not_host"
    room.check_start(101, is_moderator=True)
    room.check_start(100, is_moderator=False)


def test_ai_seats_can_be_refused_by_the_server_and_must_name_a_known_level() -> None:
    room = lobby()
    with pytest.raises(LobbyError) as bad:
        room.add_ai(100, "genius")
    assert bad.value.key == "error.lobby_bad_ai"
    room.allow_ai = False
    with pytest.raises(LobbyError) as off:
        room.add_ai(100)
    assert off.value.key == "error.lobby_no_ai"


def test_a_table_of_only_ai_seats_does_not_start() -> None:
    room = lobby()
    for _ in range(3):
        room.add_ai(100)
    with pytest.raises(LobbyError) as empty:
        room.check_start(100, is_moderator=False)
    assert empty.value.key == "error.lobby_no_people"
