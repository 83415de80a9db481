"""The game master around the core: one running game, its seats and timers.

Knows no discord and no SQL: a `Presenter` shows what happens, and storage is
reached only through the interfaces of `bot.table.store` (an `ActionStore`
keeps each accepted action, a `GameStore` a game's whole life), which
storage's repositories fit and the table's tests fake in memory. So the
Discord bot and the terminal table share it.
"""
