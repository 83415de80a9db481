"""`lockdown-bot` in a process of its own, talking to a fake Discord instead of Discord.

    python -m tests.ops.bot_process API_BASE GATEWAY_URL [lockdown-bot arguments]

Everything after the two URLs is `bot.run.main`, the console script's entry point,
unchanged: settings from the environment, the database, the shard locks, the
signals. Only discord.py's two addresses are pointed at the fake, as
`tests.fakediscord.server.discord_pointed_at` does inside the test process.
"""

from __future__ import annotations

import sys

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.run import main

if __name__ == "__main__":
    api_base, gateway = sys.argv[1], sys.argv[2]
    Route.BASE = api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    main(sys.argv[3:])
