"""Only the host or a moderator manages a lobby's AI seats (issue 13, item 3).

Otherwise anyone who can see the lobby, seated or not, could fill it with AI
seats in a few clicks and a person would be told the table is full.
"""

from __future__ import annotations

import pytest

from bot.table.lobby import Lobby, LobbyError


def test_a_guest_or_a_passer_by_can_neither_add_nor_remove_ai_seats() -> None:
    room = Lobby(lobby_id=1, guild_id=10, channel_id=20, host_id=100)
    room.join(100, "Host")
    room.join(101, "Ana")
    room.add_ai(100, "random")
    for stranger in (101, 555):  # seated, and not seated
        with pytest.raises(LobbyError) as adding:
            room.add_ai(stranger)
        assert adding.value.key == "error.lobby_not_host_ai"
        with pytest.raises(LobbyError) as removing:
            room.remove_ai(stranger)
        assert removing.value.key == "error.lobby_not_host_ai"
    assert [s.ai_kind for s in room.seats] == [None, None, "random"]


def test_the_host_and_a_moderator_manage_ai_seats() -> None:
    room = Lobby(lobby_id=1, guild_id=10, channel_id=20, host_id=100)
    room.join(100, "Host")
    room.add_ai(100)
    room.add_ai(555, is_moderator=True)
    assert sum(s.is_ai for s in room.seats) == 2
    room.remove_ai(555, is_moderator=True)
    room.remove_ai(100)
    with pytest.raises(LobbyError) as none_left:
        room.remove_ai(100)
    assert none_left.value.key == "error.lobby_no_ai_seat"
