"""What storage refuses, as exceptions the game master can tell apart."""

from __future__ import annotations


class StorageError(Exception):
    """Base of the errors the repositories raise on purpose."""


class GameNotFound(StorageError):
    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game {game_id}")
        self.game_id = game_id


class WrongStatus(StorageError):
    """The game is not in a status that allows this (starting a running game, ...)."""

    def __init__(self, game_id: int, status: str, allowed: tuple[str, ...]) -> None:
        super().__init__(f"game {game_id} is {status}; this needs {' or '.join(allowed)}")
        self.game_id = game_id
        self.status = status
        self.allowed = allowed


class StaleVersion(StorageError):
    """Someone else stored an action first: nothing was written, the caller's state is old.

    `actual` is the version in the database when the write was refused.
    """

    def __init__(self, game_id: int, expected: int, actual: int) -> None:
        super().__init__(f"game {game_id} is at version {actual}, not {expected}")
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class CorruptGame(StorageError):
    """A stored game cannot be read back (bad JSON, missing fields, mismatched version)."""

    def __init__(self, game_id: int, reason: str) -> None:
        super().__init__(f"game {game_id} cannot be loaded: {reason}")
        self.game_id = game_id
        self.reason = reason
