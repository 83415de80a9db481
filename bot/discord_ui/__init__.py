"""The Discord side, one room per feature: `lobby/`, `game/`, `moderation/`, `campaign/`,
`stats/`, `simulate/`, each a package with its own cog (`<room>.cog`).

They share a small core: `service` (the games and lobbies running here, the
private answer), `server` (a server's settings for the server-wide rooms),
`ids`, `limits`, `components`, `slash` (the `/lockdown` group), and `errors`,
the one error handler. `rooms` puts them into a bot; `resume` brings stored
games and lobbies back through the rooms' public methods.
"""
