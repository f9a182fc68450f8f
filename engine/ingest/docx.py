"""DOCX loader (python-docx): one unit per heading section, paragraphs and tables in order."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import docx
from docx.document import Document as DocxDocument
from docx.table import Table, _Cell
from docx.text.paragraph import Paragraph

from engine.core.limits import Limits
from engine.core.ooxml import is_ole
from engine.core.types import IngestError, LoadedDocument, SourceKind, Unit

_HEADING = re.compile(r"heading\s*([1-9])$", re.IGNORECASE)


def heading_level(paragraph: Paragraph) -> int | None:
    """1 for "Title" and "Heading 1", N for "Heading N", None for body text."""
    style = paragraph.style
    style_name = (style.name or "") if style is not None else ""
    if style_name.lower() == "title":
        return 1
    match = _HEADING.match(style_name)
    return int(match.group(1)) if match else None


def row_text(cells: Sequence[_Cell]) -> str:
    """Cell texts joined with " | ", a horizontally merged cell once, empty cells dropped."""
    texts: list[str] = []
    previous = None
    for cell in cells:
        if cell is previous:  # python-docx repeats a merged cell once per grid column
            continue
        previous = cell
        text = cell.text.strip()
        if text:
            texts.append(text)
    return " | ".join(texts)


def _open(path: Path, name: str) -> DocxDocument:
    if is_ole(path):
        raise IngestError(
            name,
            "is password-protected (encrypted) or an old .doc file",
            "remove the password / save it as .docx in Word and add it again",
        )
    try:
        return docx.Document(str(path))
    except Exception as exc:  # BadZipFile, KeyError (no document part), lxml errors...
        raise IngestError(
            name,
            "is not a readable Word document (corrupt, truncated or not a .docx)",
            "open it in Word, save it again as .docx and add that",
        ) from exc


def load(path: Path, name: str, limits: Limits) -> LoadedDocument:
    """Load a DOCX into one unit per section; ``section`` is the heading path."""
    limits.check_docx(path, name)  # before python-docx unpacks anything
    document = _open(path, name)
    # (heading path, lines); the heading line is the first line of its section
    sections: list[tuple[str | None, list[str]]] = [(None, [])]
    headings: dict[int, str] = {}
    for block in document.iter_inner_content():
        if isinstance(block, Table):
            lines = [row_text(row.cells) for row in block.rows]
            sections[-1][1].extend(line for line in lines if line)
            continue
        text = block.text.strip()
        if not text:
            continue
        level = heading_level(block)
        if level is not None:
            headings = {lvl: t for lvl, t in headings.items() if lvl < level}
            headings[level] = " ".join(text.split())  # one line in the path
            sections.append((" > ".join(headings[k] for k in sorted(headings)), []))
        sections[-1][1].append(text)

    units = tuple(
        Unit(text="\n".join(lines), section=section)
        for section, lines in sections
        if len(lines) > (0 if section is None else 1)  # skip sections with only a heading
    )
    if not units:
        raise IngestError(name, "has no text", "check it is not only images; add a copy with real text")
    return LoadedDocument(name=name, kind=SourceKind.DOCX, units=units)
