"""A game on Discord: the board message, its delivery, and each seat's private panel."""
