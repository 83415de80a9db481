"""Custom ids of every button the bot draws; stable across restarts.

`ld:h:<game>` opens a seat's private panel, `ld:a:<game>:<step>:<code>` plays
an action drawn for one step, `ld:g:<game>:<step>:<prefix>` narrows a long
list of actions, `ld:l:<lobby>:<op>` drives a lobby, `ld:x:<game>` confirms
an abort.
"""

from __future__ import annotations

HAND = r"ld:h:(?P<game>\d+)"
ACT = r"ld:a:(?P<game>\d+):(?P<token>[0-9a-f]{8}):(?P<code>[A-Z][0-9x.]*)"
GROUP = r"ld:g:(?P<game>\d+):(?P<token>[0-9a-f]{8}):(?P<prefix>[A-Z][0-9x.]*)"
LOBBY = r"ld:l:(?P<lobby>\d+):(?P<op>join|leave|ai|noai|start|fill)"
ABORT = r"ld:x:(?P<game>\d+)"


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
