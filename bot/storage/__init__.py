"""Persistence: games with their action log and deadlines, server campaigns, statistics.

`bot.storage.database.Database(url)` opens SQLite (aiosqlite) or PostgreSQL
(asyncpg); call `await database.migrate()` at start-up. The repositories
(`repository`, `servers`, `stats`, `deliveries`, `people`) take the database
and hand back plain data (`bot.storage.models`), never rows bound to a
session; `write_behind.BatchingGameRepository` is the game repository whose
accepted actions share transactions. It knows nothing of Discord, nor of the
game's rules: a game's state and actions are JSON objects to it, the state
carrying its `version`.

Each module is imported by its own name: this package's namespace re-exports
nothing, so that importing one module never loads the others (nor imports
them back in a circle).
"""
