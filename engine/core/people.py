"""People: the name a reviewer works under, and how a name is written.

Every draft run, decision, comment, assignment and library change records who made it (the
review store's ``by``; storage imports only engine/core, so the rules live here). On one machine
the name comes from the settings, by default the operating-system user (:func:`default_reviewer`);
the CLI's ``--by NAME`` overrides it for one command. A name is one line of printable text, at
most :data:`NAME_LIMIT` characters; ``@name`` in a comment names a person or a group by a name
without spaces (:func:`mentions`). Names are compared without regard to case (:func:`same`).
"""

from __future__ import annotations

import getpass
import re

NAME_LIMIT = 80
UNKNOWN = "unknown"  # who made a record an older review store kept without a name
_MENTION = re.compile(r"(?<![\w@])@([\w][\w.\-]*[\w]|[\w])")


def default_reviewer() -> str:
    """The operating-system user (``getpass.getuser()``), or ``reviewer`` when it cannot be told
    (no login name, no ``USER``/``LOGNAME`` variable: a container)."""
    try:
        name = getpass.getuser()
    except (OSError, KeyError, ImportError):
        return "reviewer"
    try:
        return person_name(name)
    except ValueError:
        return "reviewer"


def person_name(text: str, what: str = "a reviewer's name") -> str:
    """``text`` as a name (surrounding spaces removed, inner runs of spaces made one); ValueError
    naming the value, the rule and the fix when it is empty, longer than :data:`NAME_LIMIT`, holds
    a line break or another control character, or starts with ``@``."""
    name = re.sub(" +", " ", str(text).strip())
    if not name:
        raise ValueError(f"{what} is empty; give a name, e.g. your login name")
    if any(ord(c) < 32 or ord(c) == 127 for c in name):
        raise ValueError(f"{what} {name!r} holds a line break or a control character; give one line of text")
    if len(name) > NAME_LIMIT:
        raise ValueError(f"{what} is {len(name)} characters long; give at most {NAME_LIMIT}")
    if name.startswith("@"):
        raise ValueError(f"{what} {name!r} starts with @; give the name without it (@ marks a mention in a comment)")
    return name


def same(a: str | None, b: str | None) -> bool:
    """Whether two names are the same person or group (case and surrounding spaces ignored)."""
    return a is not None and b is not None and a.strip().casefold() == b.strip().casefold()


def mentions(text: str) -> tuple[str, ...]:
    """The names a comment mentions (``@ana``, ``@infra-team``, ``@j.doe``), each once, in order;
    an e-mail address (``ana@example.com``) is not a mention."""
    found: list[str] = []
    for name in _MENTION.findall(text or ""):
        if not any(same(name, f) for f in found):
            found.append(name)
    return tuple(found)
