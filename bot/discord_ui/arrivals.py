"""Where an interaction's handling starts: its log fields set and its answer clock started.

discord.py parses INTERACTION_CREATE and starts the command, the button's
callback and the listeners as tasks, which copy the context they are
created in: setting the ids around the parser labels all of them, down to
the store (`bot.ops.logs`). The same moment starts the clock that
`lockdown_interaction_answer_seconds` reads when the answer leaves
(`bot.ops.discord_http`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import discord

from bot.ops.discord_http import interaction_arrived
from bot.ops.logs import log_fields

# Every custom id of ours names its game (or lobby, the game to be) third: `ld:h:41`.
_GAME_IN_CUSTOM_ID = re.compile(r"ld:[a-z]:(\d+)")


def label_interactions(client: discord.Client, shard_of: Callable[[int], int]) -> None:
    """Wrap `client`'s INTERACTION_CREATE parser: every record written while handling
    an interaction carries its guild, shard and game ids, and its answer is timed.

    `shard_of` gives a server's shard: the application passes `bot.ops.shards`'
    rule in, which sits with the shard locks (and their storage) this layer
    does not reach."""
    parsers = client._connection.parsers
    parse = parsers["INTERACTION_CREATE"]

    def labelled(data: dict[str, Any]) -> None:
        interaction_arrived(int(data["id"]))
        guild = data.get("guild_id")
        guild_id = int(guild) if guild else None
        shard = shard_of(guild_id) if guild_id else 0
        custom_id = str((data.get("data") or {}).get("custom_id", ""))
        found = _GAME_IN_CUSTOM_ID.match(custom_id)
        game_id = int(found.group(1)) if found else None
        with log_fields(guild_id=guild_id, shard_id=shard, game_id=game_id):
            parse(data)

    parsers["INTERACTION_CREATE"] = labelled
