"""A game on Discord: the board message, its delivery, each seat's private panel, and
`/lockdown board|hand|rules|abort|notify|help`."""
