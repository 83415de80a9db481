"""The game master around the core: one running game, its seats and timers.

Knows no discord and no database: a `Presenter` shows what happens and a
`ActionStore` keeps it, so the Discord bot and the terminal table share it.
"""
