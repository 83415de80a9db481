"""Server moderators on Discord: `/lockdown config show|set|variant` (`cog.ModerationRoom`)."""

from bot.discord_ui.moderation.config import VARIANT_STATES

__all__ = ["VARIANT_STATES"]
