"""Python source as a syntax tree, for the tests that read the code itself.

CPython 3.11 can fail `ast.parse` with "SystemError: AST constructor recursion depth
mismatch" (python/cpython#106905): the depth counter of the tree's construction is
shared by the interpreter, and Python code run in the middle of a construction (a
finalizer the garbage collector calls, another thread that takes the GIL from it and
builds a tree of its own) leaves it wrong. `tests/discord_ui/test_reply_only.py` met it
twice in whole-suite runs. With the collector paused, a construction runs no Python
code and keeps the GIL to its end.
"""

from __future__ import annotations

import ast
import gc


def parse(source: str) -> ast.Module:
    """`source`'s tree, built with the garbage collector paused (see the docstring)."""
    paused = gc.isenabled()
    gc.disable()
    try:
        return ast.parse(source)
    finally:
        if paused:
            gc.enable()
