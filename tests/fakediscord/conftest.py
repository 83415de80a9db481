"""Makes the fake Discord's fixtures available to the tests of this package."""

from .fixtures import fake_discord

__all__ = ["fake_discord"]
