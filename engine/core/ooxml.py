"""The worksheets of an .xlsx/.xlsm package as ``xl/workbook.xml`` and its relationships list them
(name, zip member, visibility, position): read by the size limits (engine/core/limits.py, to name a
sheet in a message) and by the questionnaire reader (engine/questionnaire/sheet/validation.py). Its XML,
like every part of an uploaded file the product parses itself (engine/questionnaire/sheet/validation.py,
engine/questionnaire/sheet/writer.py), is read through defusedxml: a part that declares entities (an external
file, nested "billion laughs") raises ``defusedxml.DefusedXmlException`` and is never expanded. The
Word questionnaire reader parses with lxml (engine/questionnaire/word/package.py: entities never
resolved, no network, no DTD loaded) and refuses the same parts by the same rule,
:func:`declares_entities`, before lxml sees them.
Also the one OLE check, :func:`is_ole`: the first bytes of an Office file that is no
zip package (an encrypted .docx/.xlsx, or an old binary .doc/.xls), which every reader and the
export refuse, each with its own message; and the one copy of a package with some parts replaced,
:func:`copy_package`, that the workbook export (engine/questionnaire/sheet/writer.py) and the Word writer
(engine/questionnaire/word/writer.py) write through."""

from __future__ import annotations

import posixpath
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from defusedxml import ElementTree as ET

MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
PKG_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"
OLE_MAGIC = b"\xd0\xcf\x11\xe0"  # an OLE compound file: encrypted OOXML, or an old binary .doc/.xls


def is_ole(path: Path) -> bool:
    """Whether the file is an OLE compound file (an encrypted .docx/.xlsx, or an old .doc/.xls)
    rather than a zip package. Raises OSError when it cannot be opened."""
    with open(path, "rb") as fh:
        return fh.read(len(OLE_MAGIC)) == OLE_MAGIC


_ELEMENT = re.compile(r"<[^?!]")  # the first element's start tag: the prolog (and any DTD) ends before it


def declares_entities(data: bytes) -> bool:
    """Whether an XML part declares entities (``<!ENTITY`` in its prolog's document type): what
    defusedxml refuses (an external file, a nested "billion laughs"); read in UTF-8, or UTF-16 when the
    part starts with its byte order mark or a NUL byte."""
    utf16 = data[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\x00" in data[:2]
    text = data.decode("utf-16" if utf16 else "utf-8", errors="replace")
    start = _ELEMENT.search(text)
    return "<!ENTITY" in (text[: start.start()] if start else text)


@dataclass(frozen=True)
class SheetInfo:
    """A worksheet as listed in ``xl/workbook.xml``."""

    name: str
    part: str  # zip member, e.g. "xl/worksheets/sheet3.xml"
    state: str  # visible | hidden | veryHidden
    index: int  # position in the workbook (what definedName/@localSheetId refers to)


def workbook_sheets(zf: zipfile.ZipFile) -> list[SheetInfo]:
    """The worksheets in workbook order, with their zip member and visibility."""
    rels = ET.fromstring(zf.read("xl/_rels/workbook.xml.rels"))
    targets = {r.get("Id"): r.get("Target", "") for r in rels.iter(f"{PKG_REL}Relationship")}
    book = ET.fromstring(zf.read("xl/workbook.xml"))
    sheets = []
    for index, el in enumerate(book.iter(f"{MAIN}sheet")):
        target = targets.get(el.get(f"{REL}id"), "")
        part = target.lstrip("/") if target.startswith("/") else "xl/" + target
        sheets.append(SheetInfo(el.get("name", ""), part, el.get("state", "visible"), index))
    return sheets


_OFFICE_DOCUMENT = "/officeDocument"
WORD_DOCUMENT = "word/document.xml"


def word_main_part(zf: zipfile.ZipFile) -> str | None:
    """The zip member of a Word package's main document part, whatever its name: the target of
    the package's ``officeDocument`` relationship (``_rels/.rels``), else ``word/document.xml``;
    names compared ignoring case, as Word does. None: neither is there. The one rule every reader
    and every limit follows (engine/core/limits.py, engine/questionnaire/word/package.py), so that
    a limit applies to the part actually read (issue #56: a main part renamed
    ``word/main2.xml`` was read past the character limit). defusedxml refuses a ``.rels`` part
    that declares entities (``defusedxml.DefusedXmlException``)."""
    lower = {n.lower(): n for n in zf.namelist()}
    rels = lower.get("_rels/.rels")
    if rels is not None:
        for rel in ET.fromstring(zf.read(rels)).iter(f"{PKG_REL}Relationship"):
            if rel.get("Type", "").endswith(_OFFICE_DOCUMENT) and rel.get("TargetMode") != "External":
                target = rel.get("Target", "").lstrip("/")
                if target.lower() in lower:
                    return lower[target.lower()]
    return lower.get(WORD_DOCUMENT)


def part_targets(zf: zipfile.ZipFile, part: str) -> dict[str, str]:
    """Relationship type suffix ("/styles") → the internal zip member ``part``'s relationships
    name (the first of each type), names compared ignoring case; external targets left out."""
    lower = {n.lower(): n for n in zf.namelist()}
    folder, base = posixpath.split(part)
    rels_part = lower.get(posixpath.join(folder, "_rels", base + ".rels").lower())
    out: dict[str, str] = {}
    if rels_part is None:
        return out
    for rel in ET.fromstring(zf.read(rels_part)).iter(f"{PKG_REL}Relationship"):
        if rel.get("TargetMode") == "External":
            continue
        target = rel.get("Target", "")
        target = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join(folder, target))
        kind = "/" + rel.get("Type", "").rsplit("/", 1)[-1]
        if target.lower() in lower:
            out.setdefault(kind, lower[target.lower()])
    return out


class PackageError(ValueError):
    """A part of a package that cannot be read while it is copied (the message names it)."""


def copy_package(zin: zipfile.ZipFile, out: BinaryIO, edited: dict[str, bytes | None]) -> None:
    """Copy ``zin`` into ``out`` member by member, same names, order, compression, dates and
    attributes; a member in ``edited`` gets those bytes instead (None: left out, a part removed on
    purpose). Raises :class:`PackageError` naming a member that cannot be read."""
    with zipfile.ZipFile(out, "w", allowZip64=True) as zout:
        zout.comment = zin.comment
        for info in zin.infolist():
            if info.filename in edited and edited[info.filename] is None:
                continue
            copy = zipfile.ZipInfo(info.filename, info.date_time)
            copy.compress_type, copy.comment = info.compress_type, info.comment
            copy.create_system, copy.external_attr = info.create_system, info.external_attr
            copy.internal_attr = info.internal_attr
            try:
                data = edited[info.filename] if info.filename in edited else zin.read(info)
            except (zipfile.BadZipFile, OSError) as exc:
                raise PackageError(f"the part {info.filename} is corrupt ({exc})") from None
            zout.writestr(copy, data)  # type: ignore[arg-type]
