"""``ast.parse`` one thread at a time, on the Pythons where two threads at once can fail.

CPython before 3.13 keeps the depth counter of the AST constructor in one interpreter-wide
struct; a garbage collection inside ``ast.parse`` can hand the GIL to another thread that parses
too, and one of the two raises ``SystemError: AST constructor recursion depth mismatch``
(python/cpython#106905, fixed in 3.13 by #113035). The app parses in several threads at once:
Streamlit compiles each screen's script with ``ast.parse`` while the warm-up thread reads the
index's ``.npy`` headers (``numpy.load`` → ``ast.literal_eval``) and pydantic builds qdrant-client's
schemas (``inspect.signature`` → ``ast.parse``). The suite's CI run lost the Settings screen to it.

``install()`` wraps ``ast.parse`` (which ``literal_eval``, ``inspect`` and Streamlit all call
through the module) in one re-entrant lock; ``engine/__init__.py`` calls it, so every process
that imports the engine has it. Parsing is milliseconds; nothing waits on it for long."""

from __future__ import annotations

import ast
import functools
import sys
import threading

_lock = threading.RLock()


def needed() -> bool:
    return sys.version_info < (3, 13)


def install() -> None:
    """Serialise ``ast.parse`` where the interpreter needs it; a second call changes nothing."""
    if not needed() or getattr(ast.parse, "serialised", False):
        return
    parse = ast.parse

    @functools.wraps(parse)
    def serialised(*args, **kwargs):
        with _lock:
            return parse(*args, **kwargs)

    serialised.serialised = True  # type: ignore[attr-defined]
    ast.parse = serialised
