"""The practice room: `/lockdown practice`, a private game against AI seats that explains
every step to the one person playing it."""
