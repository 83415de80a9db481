"""Custom ids of every button the bot draws; stable across restarts.

`ld:h:<game>` opens a seat's private panel, `ld:a:<game>:<step>:<code>` plays
an action drawn for one step, `ld:g:<game>:<step>:<prefix>` narrows a long
list of actions, `ld:l:<lobby>:<op>` drives a lobby, `ld:x:<game>` confirms
an abort, `ld:s:<game>:<op>` leaves or votes to end, `ld:t:<game>:<seat>` takes
a seat over, `ld:r:<game>:<seat>:<user>:<yes|no>` answers a request to take it,
`ld:v:<lobby>` is a lobby's variant menu, `ld:p:<game>` plays a finished game again
and `ld:w:<game>` shares a finished practice game's page.

Each pattern is a persistent component's template; `is_live` tells a click on any
other id (an old version's button, a forged id) from one a component answers.
"""

from __future__ import annotations

import re

HAND = r"ld:h:(?P<game>\d+)"
ACT = r"ld:a:(?P<game>\d+):(?P<token>[0-9a-f]{8}):(?P<code>[A-Z][0-9x.]*)"
GROUP = r"ld:g:(?P<game>\d+):(?P<token>[0-9a-f]{8}):(?P<prefix>[A-Z][0-9x.]*)"
LOBBY = r"ld:l:(?P<lobby>\d+):(?P<op>join|leave|ai|noai|start|fill)"
ABORT = r"ld:x:(?P<game>\d+)"
SEAT = r"ld:s:(?P<game>\d+):(?P<op>leave|bye|end)"
TAKE = r"ld:t:(?P<game>\d+):(?P<seat>\d+)"
APPROVAL = r"ld:r:(?P<game>\d+):(?P<seat>\d+):(?P<user>\d+):(?P<answer>yes|no)"
VARIANTS = r"ld:v:(?P<lobby>\d+)"
PLAY_AGAIN = r"ld:p:(?P<game>\d+)"
SHARE_PAGE = r"ld:w:(?P<game>\d+)"

# Every template a persistent component is registered with (`rooms.DYNAMIC_ITEMS`).
LIVE = tuple(
    re.compile(pattern)
    for pattern in (
        HAND,
        ACT,
        GROUP,
        LOBBY,
        ABORT,
        SEAT,
        TAKE,
        APPROVAL,
        VARIANTS,
        PLAY_AGAIN,
        SHARE_PAGE,
    )
)


def is_live(custom_id: str) -> bool:
    """Whether a component of this version answers a click on `custom_id`."""
    return any(pattern.fullmatch(custom_id) for pattern in LIVE)


def hand(game_id: int) -> str:
    return f"ld:h:{game_id}"


def act(game_id: int, token: str, code: str) -> str:
    return f"ld:a:{game_id}:{token}:{code}"


def group(game_id: int, token: str, prefix: str) -> str:
    return f"ld:g:{game_id}:{token}:{prefix}"


def lobby(lobby_id: int, op: str) -> str:
    return f"ld:l:{lobby_id}:{op}"


def abort(game_id: int) -> str:
    return f"ld:x:{game_id}"


def seat(game_id: int, op: str) -> str:
    return f"ld:s:{game_id}:{op}"


def take(game_id: int, seat: int) -> str:
    return f"ld:t:{game_id}:{seat}"


def approval(game_id: int, seat: int, user_id: int, answer: str) -> str:
    return f"ld:r:{game_id}:{seat}:{user_id}:{answer}"


def variants(lobby_id: int) -> str:
    return f"ld:v:{lobby_id}"


def play_again(game_id: int) -> str:
    return f"ld:p:{game_id}"
