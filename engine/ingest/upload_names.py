"""The name an uploaded file is kept under: a plain file name (SECURITY.md, "Names").

A browser sends whatever name the file had, or whatever a hostile page or script chose. Before
an upload is written anywhere or shown, :func:`plain_upload_name` makes it a plain file name:

* **folders** are dropped: the part after the last ``/`` or ``\\`` is kept
  (``..\\..\\evil.xlsx`` → ``evil.xlsx``), and so is a leading **drive letter**
  (``C:evil.xlsx`` → ``evil.xlsx``);
* **control characters** (newline, tab, NUL… Unicode category Cc), **invisible format
  characters** (Cf: the bidirectional overrides such as U+202E, which make a Markdown file
  named ``evil_rtl`` + U+202E + ``slx.md`` read as ``evil_rtldm.xlsx``, zero-width spaces) and
  line/paragraph separators are removed;
* spaces at either end and dots at the end are trimmed (Windows drops them);
* the name is **capped** at :data:`MAX_CHARS` characters and :data:`MAX_BYTES` UTF-8 bytes
  (file systems refuse names over 255 bytes), keeping its extension.

What was changed is returned with the name (:class:`UploadName`), so the screen can say so in
one line. A name with nothing left (``\\x00``, ``..``) raises :class:`~engine.core.types.IngestError`
naming the problem and the fix. Every other character is kept as written (``"``, ``#``, ``:``
inside the name, accents). Plain Python: used by the Questionnaire and Knowledge base screens
and by :meth:`engine.app.workspace.Workspace.add_questionnaire`.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from engine.core.types import IngestError

MAX_CHARS = 120
MAX_BYTES = 240  # under the 255-byte limit of ext4, APFS, NTFS (in UTF-16 units) with room for ".tmp"
MAX_SUFFIX_CHARS = 16  # a longer "extension" is part of the name, and is cut like it
_DRIVE = re.compile(r"^[A-Za-z]:")
_REMOVED_CATEGORIES = {"Cc", "Cf", "Zl", "Zp"}

__all__ = ["MAX_BYTES", "MAX_CHARS", "UploadName", "plain_upload_name"]


@dataclass(frozen=True)
class UploadName:
    """An upload's plain name (``name``), the name it was sent with (``given``) and what was
    changed to get there, in words (empty when the name was already plain)."""

    name: str
    given: str
    changes: tuple[str, ...] = ()

    @property
    def changed(self) -> bool:
        return bool(self.changes)

    def note(self) -> str:
        """One sentence for the user: ``Kept as evil.xlsx: the uploaded name had a folder path (removed).``
        (empty when nothing changed). Plain text: a screen shows it as text."""
        if not self.changes:
            return ""
        return f"Kept as {self.name}: the uploaded name {_joined(self.changes)}."


def _joined(parts: tuple[str, ...]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _shown(name: str) -> str:
    """``name`` with control and format characters written as escapes (``\\n``, ``\\u202e``):
    safe to put in a one-line message, and it shows what was there."""
    return (
        "".join(
            c.encode("unicode_escape").decode("ascii") if unicodedata.category(c) in _REMOVED_CATEGORIES else c
            for c in name
        )
        or '""'
    )


def _capped(name: str) -> str:
    """``name`` cut to MAX_CHARS characters and MAX_BYTES UTF-8 bytes, its extension kept."""
    dot = name.rfind(".")
    suffix = name[dot:] if 0 < dot and len(name) - dot <= MAX_SUFFIX_CHARS else ""
    stem = name[: len(name) - len(suffix)]
    stem = stem[: MAX_CHARS - len(suffix)]
    while stem and len((stem + suffix).encode("utf-8")) > MAX_BYTES:
        stem = stem[:-1]
    return stem.rstrip(" .") + suffix


def plain_upload_name(given: str) -> UploadName:
    """The plain file name to keep an upload sent as ``given`` under, and what was changed;
    IngestError when nothing usable is left."""
    changes: list[str] = []
    name = "".join(c for c in given if unicodedata.category(c) not in _REMOVED_CATEGORIES)
    if name != given:
        kinds = {unicodedata.category(c) for c in given} & _REMOVED_CATEGORIES
        changes.append(
            "held control characters (removed)"
            if kinds <= {"Cc", "Zl", "Zp"}
            else "held invisible or right-to-left control characters (removed)"
        )
    last = re.split(r"[\\/]", name)[-1]
    if last != name:
        changes.append("had a folder path (removed)")
        name = last
    if _DRIVE.match(name):
        changes.append("began with a drive letter (removed)")
        while _DRIVE.match(name):  # "C:D:x.pdf" too
            name = name[2:]
    name = name.strip(" ").rstrip(". ")  # not worth a word: spaces at the ends, dots at the end (Windows drops them)
    if name in ("", ".", "..") or not _capped(name).rstrip(". "):
        raise IngestError(
            _shown(given),
            "the uploaded file has no usable name (nothing is left once folders, "
            "drive letters and control characters are removed)",
            "rename the file to a plain name such as questionnaire.xlsx and upload it again",
        )
    if len(name) > MAX_CHARS or len(name.encode("utf-8")) > MAX_BYTES:
        changes.append(f"was longer than {MAX_CHARS} characters (shortened, the extension kept)")
        name = _capped(name)
    return UploadName(name, given, tuple(changes))
