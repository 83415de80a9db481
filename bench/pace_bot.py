"""`lockdown-bot` at the real-pace suite's pace, talking to a fake Discord: the load
bench's bot process (`bench/load_bench.py --bot-process`).

    python -m bench.pace_bot API_BASE GATEWAY_URL

With `PACE_BOT_PROFILE=FILE` in its environment it runs under cProfile and writes
its statistics to FILE as it stops (read them with `python -m pstats FILE`).

The console script's entry point (`bot.run.main`) runs unchanged: settings from the
environment, the database, the shard locks, the signals, /metrics. Two things are
set before it starts, as `tests.ops.bot_process` and
`tests.discord_ui.test_realtime.real_pace_bot` set them:

- discord.py's two addresses point at the fake;
- the tables keep the real-pace suite's time: 8-second steps (6 s for the others and
  the card windows) and AI seats deciding in 0.6 s. No server setting allows such
  steps (a server's timers are 15 s at least) and the AI seats' delay is not an
  operator's setting, so the bench sets them here, where only the bench runs.
"""

from __future__ import annotations

import cProfile
import os
import sys
from typing import Any

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.app import LockdownBot
from bot.run import main
from bot.settings import Settings
from bot.table.timers import TableConfig, Timers

# The real-pace suite's timers (tests/discord_ui/test_realtime.py TIMERS), copied so
# that the bot process does not import the test suite (its RSS is measured).
TIMERS = Timers.model_construct(discussion=8, designation=8, destination=8, other=6, card_window=6)
PACE = TableConfig(timers=TIMERS, ai_delay=0.6, resume_grace=2.0)

_bot_init = LockdownBot.__init__


def _at_pace(self: LockdownBot, settings: Settings, **options: Any) -> None:
    """The bot as `bot.app` builds it, with the real-pace tables; a server's own timers
    (the defaults, 45-90 s) are not applied on top."""
    options.setdefault("config", PACE)
    _bot_init(self, settings, **options)
    self.rooms.lobby.plans.table_config = lambda lobby, base: base  # type: ignore[method-assign]


if __name__ == "__main__":
    api_base, gateway = sys.argv[1], sys.argv[2]
    Route.BASE = api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    LockdownBot.__init__ = _at_pace  # type: ignore[method-assign]
    profile = os.environ.get("PACE_BOT_PROFILE")
    if profile:
        # Where the bot's CPU goes (cProfile slows it down: read shares, not times).
        cProfile.run("main(sys.argv[3:])", profile)
    else:
        main(sys.argv[3:])
