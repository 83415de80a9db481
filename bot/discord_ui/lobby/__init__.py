"""The lobby on Discord: `/lockdown new`, its thread, message and buttons, and the plan the
server's settings give it."""
