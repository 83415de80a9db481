"""Twin worlds: the same game played twice on the fake Discord, the two worlds differing
in one hidden thing only, and what each person who must not know it received compared
byte for byte (see `tests/twins/README.md`)."""
