"""`lockdown-web`: a page for every finished game, read from the bot's database.

`addresses` signs a game's id into its page's address (the bot uses it to post
the link); `story` plays a stored game again step by step, public lines and
board apart from the secrets of the director's cut; `pages` and `pictures`
make a step's HTML and board; `app` serves them behind `guard` (security
headers, a limit per client); `main` is the console script. It reads storage,
render and texts; it knows nothing of Discord.
"""
