"""The lobby on Discord: its message and buttons (opening its thread is `service`'s)."""
