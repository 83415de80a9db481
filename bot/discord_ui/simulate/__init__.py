"""The variant simulator on Discord: `/lockdown simulate`, for a server's moderators."""
