"""A Word questionnaire's package, opened for reading or writing: checked against the size
limits before anything is parsed, refused in one line when it cannot be read (an old binary
.doc, a password-protected .docx, a damaged zip), and its main document part, styles and
numbering parsed with lxml (entities never resolved, nothing fetched from the network, no DTD
loaded). A part that declares entities (an external file, a nested "billion laughs") is refused
before lxml sees it, by defusedxml's rule (engine/core/ooxml.py ``declares_entities``), and checked
again after parsing (the rule defusedxml's lxml module applied): :class:`DeclaredEntities`, one line.

What the package holds that a reader must be told about becomes a note, never an action:
tracked changes (read as if accepted), comments (kept as they are), relationships to external
targets (linked images, templates, hyperlinks: never fetched), macros of a .docm (never run,
kept byte for byte).
"""

from __future__ import annotations

import posixpath
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from defusedxml import DefusedXmlException
from lxml import etree

from engine.core.limits import Limits
from engine.core.ooxml import PKG_REL, declares_entities, is_ole, word_main_part
from engine.questionnaire.records import QuestionnaireError
from engine.questionnaire.word.xmltree import W, wval

RESAVE = "open it in Word, save it again as .docx and try again"
ENTITIES = "declares XML entities (a 'billion laughs' or an external file): refused, never expanded"
_PARSER = etree.XMLParser(
    resolve_entities=False, no_network=True, load_dtd=False, huge_tree=True, remove_blank_text=False
)
_TRACKED = (f"{W}ins", f"{W}del", f"{W}moveFrom", f"{W}moveTo", f"{W}pPrChange", f"{W}rPrChange")


class DeclaredEntities(ValueError):
    """An XML part that declares entities (see the module docstring)."""


def parse_xml(data: bytes) -> etree._Element:
    """An XML part as an lxml tree (no entities resolved, no network); :class:`DeclaredEntities`
    for a part that declares entities."""
    if declares_entities(data):
        raise DeclaredEntities(ENTITIES)
    root = etree.fromstring(data, _PARSER)
    dtd = root.getroottree().docinfo.internalDTD
    if dtd is not None and any(True for _ in dtd.iterentities()):
        raise DeclaredEntities(ENTITIES)
    return root


@dataclass
class DocxPackage:
    """The parts a reader or writer needs, parsed; ``notes`` what the reader should be told."""

    path: Path
    names: list[str]  # the zip members, in order
    document_part: str  # "word/document.xml"
    document: etree._Element
    styles: etree._Element | None
    numbering: etree._Element | None
    numbering_part: str | None
    notes: list[str] = field(default_factory=list)


def refuse_doc(path: Path, name: str) -> None:
    """The one line for an old binary Word document (.doc) and a password-protected .docx."""
    if path.suffix.lower() == ".doc":
        raise QuestionnaireError(
            name, "is an old Word 97–2003 document (.doc), which is not read", "open it in Word and save it as .docx"
        )
    try:
        ole = is_ole(path)
    except OSError as exc:
        raise QuestionnaireError(name, f"cannot be opened ({exc.strerror or exc})", "check the file") from None
    if ole:
        raise QuestionnaireError(
            name,
            "is password-protected (encrypted) or an old .doc saved with a .docx name",
            "remove the password in Word (File > Info > Protect Document), save it as .docx and try again",
        )


def open_docx(path: Path, limits: Limits, name: str | None = None) -> DocxPackage:
    """The package of ``path`` (see the module docstring), after the size limits."""
    name = name or path.name
    refuse_doc(path, name)
    limits.check_docx(path, name)  # before anything is unpacked: a zip bomb, too much text
    try:
        zf = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError):
        raise QuestionnaireError(
            name, "is not a readable Word document (damaged, cut off or not a .docx)", RESAVE
        ) from None
    with zf:
        if any(info.flag_bits & 1 for info in zf.infolist()):
            raise QuestionnaireError(name, "has encrypted parts", "save an unencrypted copy as .docx and try again")
        names = zf.namelist()
        lower = {n.lower(): n for n in names}
        try:
            document_part = main_part(zf, lower)
            document = parse_xml(zf.read(document_part))
            rels = relationships(zf, lower, document_part)
            styles = _part(zf, lower, rels, "/styles")
            numbering_part = rels.get("/numbering")
            numbering = _part(zf, lower, rels, "/numbering")
            notes = _package_notes(zf, names, document, path)
        except QuestionnaireError:
            raise
        except DeclaredEntities:
            raise QuestionnaireError(name, f"has a part that {ENTITIES}", RESAVE) from None
        except (KeyError, etree.XMLSyntaxError, zipfile.BadZipFile, OSError, ValueError) as exc:
            raise QuestionnaireError(name, f"is damaged ({type(exc).__name__}: {exc})", RESAVE) from None
        if document.find(f"{W}body") is None:
            raise QuestionnaireError(name, "has no document body", RESAVE)
    return DocxPackage(path, names, document_part, document, styles, numbering, numbering_part, notes)


def main_part(zf: zipfile.ZipFile, lower: dict[str, str]) -> str:
    """The main document part, by the one rule the size limits follow too (engine/core/ooxml.py
    ``word_main_part``: the ``officeDocument`` relationship, whatever the part's name)."""
    try:
        part = word_main_part(zf)
    except DefusedXmlException:
        raise DeclaredEntities(ENTITIES) from None
    if part is None:
        raise QuestionnaireError(zf.filename or "", "has no Word document part (is it a Word file?)", RESAVE)
    return part


def relationships(zf: zipfile.ZipFile, lower: dict[str, str], part: str) -> dict[str, str]:
    """Relationship type suffix ("/styles") → internal target part of ``part``."""
    folder, base = posixpath.split(part)
    rels_part = lower.get(posixpath.join(folder, "_rels", base + ".rels").lower())
    out: dict[str, str] = {}
    if rels_part is None:
        return out
    for rel in parse_xml(zf.read(rels_part)).iter(f"{PKG_REL}Relationship"):
        if rel.get("TargetMode") == "External":
            continue
        target = rel.get("Target", "")
        target = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join(folder, target))
        kind = "/" + rel.get("Type", "").rsplit("/", 1)[-1]
        if target.lower() in lower:
            out.setdefault(kind, lower[target.lower()])
    return out


def _part(zf: zipfile.ZipFile, lower: dict[str, str], rels: dict[str, str], kind: str) -> etree._Element | None:
    part = rels.get(kind)
    return parse_xml(zf.read(part)) if part else None


def _package_notes(zf: zipfile.ZipFile, names: list[str], document: etree._Element, path: Path) -> list[str]:
    notes = []
    tracked = sum(1 for tag in _TRACKED for _ in document.iter(tag))
    if tracked:
        notes.append(
            f"the document holds {tracked} tracked changes: it is read as if they were accepted, and the "
            "export keeps them as they are (accept or reject them in Word)"
        )
    comments = len(list(document.iter(f"{W}commentRangeStart")))
    if comments:
        notes.append(f"the document holds {comments} comments: kept as they are, never read as questions or answers")
    external = 0
    for n in names:
        if n.endswith(".rels"):
            try:
                root = parse_xml(zf.read(n))
            except etree.XMLSyntaxError:
                continue
            external += sum(1 for r in root.iter(f"{PKG_REL}Relationship") if r.get("TargetMode") == "External")
    if external:
        notes.append(
            f"the document links to {external} external targets (links, linked pictures or templates): none is "
            "fetched, and the export keeps the links as they are"
        )
    if path.suffix.lower() == ".docm" or any(n.lower().endswith("vbaproject.bin") for n in names):
        notes.append("the document holds macros: they are never run, and the export keeps them byte for byte")
    return notes


def style_of(p: etree._Element) -> str:
    return wval(p.find(f"{W}pPr/{W}pStyle"), "") or ""


__all__ = [
    "DeclaredEntities",
    "DocxPackage",
    "main_part",
    "open_docx",
    "parse_xml",
    "refuse_doc",
    "relationships",
    "style_of",
]
