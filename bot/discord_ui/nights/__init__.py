"""Game nights on Discord: `/lockdown schedule` makes a Discord scheduled event, and its
start opens a lobby in the chosen channel and pings the people who said they were
interested."""
