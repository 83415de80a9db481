"""Ratings and seasons: who a finished game rates, how skills and season points move.

Pure and synchronous, like the core: no discord, no SQL, no clock (instants are
passed in). Storage calls it inside the transaction that ends a game, so a game
is rated exactly once; the table and the Discord side call it to explain and
rank; the recompute replays it over stored games. `docs/ratings.md` tells the
rules in plain words.
"""
