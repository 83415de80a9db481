"""Discord presentation: slash commands, persistent buttons, the board message."""
