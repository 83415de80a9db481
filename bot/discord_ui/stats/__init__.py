"""A server's shared record of games on Discord: `/lockdown stats` and `leaderboard`."""
