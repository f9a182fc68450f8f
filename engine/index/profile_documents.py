"""Profile facts a product's own documents state in a recognised form (engine/index/profile.py).

A product's own documents (in its scope, never a third party's nor another product's) can say
who the vendor is and whom to contact, but only some say it in a form a program can read
without guessing. Three forms are recognised, on the page text exactly as PyMuPDF gives it:

* **An attestation's assessed entity** (the PCI DSS Attestation of Compliance, "Part 1a.
  Assessed Entity"): the labelled fields ``Company name:`` (``vendor_name``), ``Company contact
  name:`` / ``Contact name:`` (``contact_name``), ``… contact title:`` (``contact_title``),
  ``Contact phone number:`` (``contact_phone``) and ``Contact e-mail address:``
  (``contact_email``), read from the block after the "Assessed Entity" heading up to the next
  part ("Part 1b", the assessor: a third party, whose fields are never read). The value is the
  rest of the label's line, else the next non-empty line; "Not applicable" is no value.
* **An accessibility conformance report** (a VPAT: "VPAT" or "Accessibility Conformance Report"
  on its first page): the lines under ``Contact Information:`` up to the next labelled line —
  an e-mail address (``accessibility_contact_email``), a phone number
  (``accessibility_contact_phone``), a person's name (two to four capitalised words, the first
  other line: ``accessibility_contact_name``) and the line after the name
  (``accessibility_contact_title``).

* **A cloud-service certificate's service description** (TX-RAMP's companion page: a heading
  line "Cloud Service Description (200 words or less)", the vendor's own text under it): the
  paragraph under the heading (``product_description``), its lines joined by spaces, up to the
  next heading (a short line without a full stop after a line ending one) or labelled line.
  On the shared documents: Canvas Catalog's, Canvas Credentials', Canvas LMS's and Impact's
  TX-RAMP certificates; the vendors' own HECVAT "Product Description" is that text or a sentence
  of it (Canvas Catalog: its second sentence; Canvas Credentials: its first two reworded into one, and its third).

Product names are not taken, nor a report's "Product Description:" field (a report names the
version it evaluated, not the questionnaire's scope). When two of a product's documents state different values for one fact,
neither is kept: a wrong contact in a contract is worse than a blank. Each fact cites its
document and page (``Fact.page``, ``Fact.start``: the value's offset in the page text, for the
highlight) and is a profile fact a reviewer sees as such.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable, Sequence

from engine.core.types import IngestError, Unit
from engine.index.profile import Fact, normalised
from engine.ingest import load_document

_INVISIBLE = "\u200b\u200c\u200d\ufeff"
_EMAIL = re.compile(r"^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$")
_PHONE = re.compile(r"^\+?[\d\s().-]{7,}(?:\s*(?:ext\.?|x)\s*\d+)?$", re.IGNORECASE)
_NAME = re.compile(r"^[A-Z][\w'’.-]+(?: [A-Z][\w'’.-]+){1,3}$")
_LABEL = re.compile(r"^[^:]{2,60}:\s*(.*)$")  # "Label: value" or "Label:" (the value on the next line)
_NONE = re.compile(r"^(?:not applicable|n/?a|none)\.?$", re.IGNORECASE)

# the attestation's assessed entity: (key, the field's label)
_ENTITY_FIELDS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (k, re.compile(p, re.IGNORECASE))
    for k, p in (
        ("vendor_name", r"^company name$"),
        ("contact_name", r"^(?:company )?contact name$"),
        ("contact_title", r"^(?:company )?contact title$"),
        ("contact_phone", r"^(?:company )?contact phone(?: number)?$"),
        ("contact_email", r"^(?:company )?contact e-?mail(?: address)?$"),
    )
)
_ENTITY_START = re.compile(r"^(?:part 1a\.?\s*)?assessed entity\b", re.IGNORECASE)
_ENTITY_END = re.compile(r"^part 1b\b|^part 2\b|assessor", re.IGNORECASE)
_REPORT = re.compile(r"\bVPAT\b|accessibility conformance report", re.IGNORECASE)
_CONTACT_START = re.compile(r"^contact information:\s*(.*)$", re.IGNORECASE)
_DESCRIPTION_START = re.compile(r"^(?:cloud\s+)?service\s+description(?:\s*\([^)]*\))?$", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?][\"'’”)]*$")
DESCRIPTION_LINES = 20  # 200 words at most, as the form asks


def _lines(text: str) -> list[tuple[int, str]]:
    """The page's lines with their offsets, each stripped of spaces and invisible characters."""
    out, pos = [], 0
    for raw in text.split("\n"):
        stripped = raw.strip(" \t\r" + _INVISIBLE)
        out.append((pos + raw.find(stripped) if stripped else pos, stripped))
        pos += len(raw) + 1
    return out


def _fact(key: str, value: str, start: int, doc: str, page: int | None, product: str) -> Fact:
    return Fact(key, value, doc, product, page=page, start=start)


def _entity(units: Sequence[Unit], doc: str, product: str) -> dict[str, Fact]:
    facts: dict[str, Fact] = {}
    for unit in units:
        lines = _lines(unit.text)
        inside = False
        for i, (_, line) in enumerate(lines):
            if _ENTITY_START.search(line):
                inside = True
                continue
            if inside and _ENTITY_END.search(line):
                inside = False
                continue
            label = _LABEL.match(line) if inside else None
            if label is None:
                continue
            name = line[: line.index(":")].strip()
            key = next((k for k, p in _ENTITY_FIELDS if p.match(name)), None)
            if key is None or key in facts:
                continue
            rest = label.group(1).strip()
            if rest:
                start, value = lines[i][0] + line.index(rest), rest
            else:
                start, value = next(((s, v) for s, v in lines[i + 1 :] if v), (0, ""))
                if _LABEL.match(value) and value.endswith(":"):
                    continue  # the next line is another label: the field is empty
            if value and not _NONE.match(value):
                facts[key] = _fact(key, value, start, doc, unit.page, product)
    return facts


def _report_contact(units: Sequence[Unit], doc: str, product: str) -> dict[str, Fact]:
    if not units or not _REPORT.search(units[0].text):
        return {}
    for unit in units:
        lines = _lines(unit.text)
        for i, (_, line) in enumerate(lines):
            m = _CONTACT_START.match(line)
            if m is None:
                continue
            block = [(lines[i][0] + line.index(m.group(1).strip()), m.group(1).strip())] if m.group(1).strip() else []
            for start, value in lines[i + 1 :]:
                if _LABEL.match(value):
                    break
                if value and not value.isdigit():  # a page number is no part of the contact
                    block.append((start, value))
            facts: dict[str, Fact] = {}
            named = False
            for start, value in block[:6]:
                if _EMAIL.match(value):
                    key = "accessibility_contact_email"
                elif _PHONE.match(value) and sum(c.isdigit() for c in value) >= 7:
                    key = "accessibility_contact_phone"
                elif not named and _NAME.match(value):
                    key, named = "accessibility_contact_name", True
                elif named and "accessibility_contact_title" not in facts and not any(c.isdigit() for c in value):
                    key = "accessibility_contact_title"
                else:
                    continue
                facts.setdefault(key, _fact(key, value, start, doc, unit.page, product))
            return facts
    return {}


def _service_description(units: Sequence[Unit], doc: str, product: str) -> dict[str, Fact]:
    for unit in units:
        lines = _lines(unit.text)
        for i, (_, line) in enumerate(lines):
            if not _DESCRIPTION_START.match(line):
                continue
            block: list[tuple[int, str]] = []
            for start, value in lines[i + 1 : i + 1 + DESCRIPTION_LINES]:
                if not value:
                    continue
                heading = block and _SENTENCE_END.search(block[-1][1]) and not _SENTENCE_END.search(value)
                if _LABEL.match(value) or (heading and len(value) <= 60):
                    break
                block.append((start, value))
            if not block or not _SENTENCE_END.search(block[-1][1]):
                return {}  # no paragraph, or one cut off: not read
            text = " ".join(v for _, v in block)
            fact = Fact(
                "product_description",
                text,
                doc,
                product,
                page=unit.page,
                start=block[0][0],
                end=block[-1][0] + len(block[-1][1]),
            )
            return {"product_description": fact}
    return {}


def facts_of_document(units: Sequence[Unit], doc: str, product: str) -> dict[str, Fact]:
    """The facts one of ``product``'s own documents (its units: pages) states in a recognised
    form (module docstring)."""
    return {
        **_service_description(units, doc, product),
        **_report_contact(units, doc, product),
        **_entity(units, doc, product),
    }


def facts_of_documents(documents: Iterable[tuple[str, Sequence[Unit]]], product: str) -> dict[str, Fact]:
    """The facts ``product``'s own documents ((name, units) in name order) state; a fact two of
    them state differently is left out."""
    facts: dict[str, Fact] = {}
    disputed: set[str] = set()
    for doc, units in sorted(documents, key=lambda d: d[0]):
        for key, fact in facts_of_document(units, doc, product).items():
            if key in facts and normalised(facts[key].value) != normalised(fact.value):
                disputed.add(key)
            facts.setdefault(key, fact)
    return {k: f for k, f in facts.items() if k not in disputed}


def facts_of_folder(folder: Path, product: str) -> dict[str, Fact]:
    """The facts the PDFs in ``folder`` (a product's own folder) state (the evaluation's reading
    of a product folder; the drafter reads the knowledge base's documents of the product)."""
    documents = []
    for path in sorted(Path(folder).glob("*.pdf")):
        try:
            documents.append((path.name, load_document(path).units))
        except IngestError:
            continue
    return facts_of_documents(documents, product)


__all__ = ["facts_of_document", "facts_of_documents", "facts_of_folder"]
