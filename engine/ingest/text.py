"""Markdown / TXT loader: one unit per ATX-heading section, raw text kept exactly."""

from __future__ import annotations

import io
import re
from pathlib import Path

from engine.core.limits import Limits
from engine.core.types import IngestError, LoadedDocument, SourceKind, Unit

_HEADING = re.compile(r" {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")


def _closes(line: str, fence: str) -> bool:
    """True if ``line`` closes a code block opened by ``fence`` (same char, as long)."""
    stripped = line.strip(" \t")
    indent = len(line) - len(line.lstrip(" "))
    return indent <= 3 and len(stripped) >= len(fence) and set(stripped) == {fence[0]}


def split_sections(text: str) -> list[tuple[str | None, str]]:
    """(heading path, raw text) per section; the heading line starts its section's text.

    ``#`` lines inside fenced code blocks (``` or ~~~) are not headings.
    """
    sections: list[tuple[str | None, list[str]]] = [(None, [])]
    headings: dict[int, str] = {}
    fence: str | None = None  # the opening fence while inside a code block
    for line in io.StringIO(text, newline=""):  # splits on \n, \r\n, \r; keeps the ends
        bare = line.rstrip("\r\n")
        if fence is not None:
            if _closes(bare, fence):
                fence = None
        elif opening := _FENCE.match(bare):
            fence = opening.group(1)
        elif (heading := _HEADING.fullmatch(bare)) and heading.group(2).strip("# \t"):
            level = len(heading.group(1))
            headings = {lvl: t for lvl, t in headings.items() if lvl < level}
            headings[level] = heading.group(2).strip()
            sections.append((" > ".join(headings[k] for k in sorted(headings)), []))
        sections[-1][1].append(line)
    return [(path, "".join(lines)) for path, lines in sections]


def _has_body(section: str | None, raw: str) -> bool:
    """True if the section has text besides its heading line."""
    lines = list(io.StringIO(raw, newline=""))
    body = lines if section is None else lines[1:]
    return any(line.strip() for line in body)


def load(path: Path, name: str, limits: Limits) -> LoadedDocument:
    """Load a Markdown or plain-text file into one unit per section."""
    text = limits.read_text(path, name)
    if not text.strip():
        raise IngestError(name, "has no text (only whitespace)", "add a file with text in it")
    units = tuple(Unit(text=raw, section=section) for section, raw in split_sections(text) if _has_body(section, raw))
    if not units:
        raise IngestError(name, "has no text besides headings", "add a file with body text")
    return LoadedDocument(name=name, kind=SourceKind.TEXT, units=units)
