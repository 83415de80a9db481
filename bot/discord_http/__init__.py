"""Every request the bot makes with its token, under one budget.

Discord grants a bot token 50 requests a second across all its processes, and
each route its own bucket; every 429 counts toward the limit whose breach
gets the bot's address banned for an hour. `install` puts one scheduler on
the client's HTTP layer (`client`): it stays under the process's share of the
global limit (`share`) and under each bucket (`buckets`), sends what matters
first (`priority`), merges waiting edits of one message (`merge`, `budget`),
and opens each person's DM channel once (`dm_channels`).
"""

from bot.discord_http.client import RequestBudget, install
from bot.discord_http.priority import Priority, request_priority
from bot.discord_http.share import process_share

__all__ = ["Priority", "RequestBudget", "install", "process_share", "request_priority"]
