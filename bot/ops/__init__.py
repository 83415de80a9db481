"""What running the bot in production needs beyond the game: start-up problems said in
one sentence, metrics and health checks, JSON logs, and which process owns which shard.

It sits beside `bot.app`, below nothing but it: it knows the settings and the
database, never the table or Discord's objects.
"""
