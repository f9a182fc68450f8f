"""PDF questionnaires scored question by question against tests/questionnaire_truth/pdf_places.json
(made by tests/questionnaire_truth/pdf_places.py from the widgets and words with PyMuPDF): recall,
precision and, for a form, the share of questions whose answer goes in the right fields ("usable"),
beside the trivial baseline of the same file.

- a **form**'s item names its fields (``choice_fields``, ``text_field``): a found question matches the
  first item sharing a field with its answer places; it is usable when its boxes are exactly the
  item's ``choice_fields`` and its text field is the item's ``text_field``;
- a **flat PDF**'s item names its page and first words (or its ``id``): a found question on that page
  matches when its ID and text hold them (an ID compared without spaces and dashes); its answer goes
  into the response document under it, so a match is usable;
- **baseline**: every text line holding "?" (or "？") taken as a question; an item counts as found
  when a line on its page holds its first three words.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import pymupdf

from engine.questionnaire.pdf.questions import page_of_row
from engine.questionnaire.places import PlaceKind, place_key
from engine.questionnaire.records import Questionnaire

TRUTH = Path(__file__).resolve().parents[2] / "tests" / "questionnaire_truth" / "pdf_places.json"


def norm_text(text: str) -> str:
    """``text`` case-folded, its signs but ``& ( ) . / ' ? -`` made spaces (a label's colon, an en dash),
    and a hyphen standing alone between spaces left out too: a dash typed as a hyphen ("E-1 - Please
    indicate …"), a separator as "–" is, not a word (a reader that takes "E-1" as the ID and "Please
    indicate …" as the text, as the Word reader does, matches it); a hyphen inside a word ("E-1",
    "Self-assessment") is kept."""
    return " ".join(w for w in re.sub(r"[^\w&()./'?-]+", " ", text.casefold()).split() if w != "-")


def _ident(text: str) -> str:
    return re.sub(r"[\s\-–]+", "", unicodedata.normalize("NFKC", text)).casefold()  # "１．２" is "1.2"


def _names(locator: str) -> set[str]:
    if locator.startswith("["):
        try:
            parsed = json.loads(locator)
        except ValueError:
            return {locator}
        return {x[0] if isinstance(x, list) else x for x in parsed}
    return {locator}


def fields_of(q: Questionnaire) -> list[tuple[set[str], set[str]]]:
    """Each question's (choice field names, text field names)."""
    out = []
    for x in q.questions:
        choice: set[str] = set()
        text: set[str] = set()
        if x.choice_cell:
            place = q.places[place_key(x.sheet, x.choice_cell)]
            if place.kind is PlaceKind.PDF_BUTTONS:
                for _, loc in place.options:
                    choice |= _names(loc)
            else:
                choice |= _names(place.locator)
        if x.text_cell:
            text |= _names(q.places[place_key(x.sheet, x.text_cell)].locator)
        out.append((choice, text))
    return out


def score_pdf_places(q: Questionnaire, items: list[dict]) -> dict:
    """Recall, precision (and for a form the usable share) of ``q`` against one file's items."""
    form = any("choice_fields" in i or "text_field" in i for i in items)
    taken: set[int] = set()
    matched = good = 0
    missed, wrong = [], []
    if form:
        found = fields_of(q)
        for item in items:
            want = set(item.get("choice_fields", ())) | ({item["text_field"]} if "text_field" in item else set())
            hit = next((i for i, (c, t) in enumerate(found) if i not in taken and (c | t) & want), None)
            if hit is None:
                missed.append(item["text"][:60])
                continue
            taken.add(hit)
            matched += 1
            c, t = found[hit]
            ok = c == set(item.get("choice_fields", ())) and t == (
                {item["text_field"]} if "text_field" in item else set()
            )
            good += ok
            if not ok and len(wrong) < 8:
                wrong.append(f"{item['text'][:50]}: boxes {sorted(c)[:3]} text {sorted(t)}")
    else:
        texts = [(page_of_row(x.row), norm_text(f"{x.id or ''} {x.text}"), _ident(x.id or "")) for x in q.questions]
        for item in items:
            words = norm_text(item["text"])
            ident = _ident(item.get("id", ""))
            hit = next(
                (
                    i
                    for i, (page, text, qid) in enumerate(texts)
                    if i not in taken
                    and page == item["page"]
                    and ((ident and qid == ident) or (not ident and words in text))
                ),
                None,
            )
            if hit is None:
                missed.append(f"p{item['page']} {item['text'][:50]}")
                continue
            taken.add(hit)
            matched += 1
            good += 1
    extra = [
        f"p{page_of_row(q.questions[i].row)} {q.questions[i].text[:60]}"
        for i in range(len(q.questions))
        if i not in taken
    ]
    return {
        "truth": len(items),
        "found": len(q.questions),
        "matched": matched,
        "recall": round(matched / len(items), 4) if items else None,
        "precision": round(matched / len(q.questions), 4) if q.questions else None,
        "usable": round(good / len(items), 4) if items else None,
        "missed": missed,
        "not_usable": wrong,
        "extra": extra[:10],
    }


def pdf_baseline(path: Path, items: list[dict]) -> dict:
    """The trivial reader: every text line with a question mark is a question."""
    lines: list[tuple[int, str]] = []
    with pymupdf.open(path) as doc:
        for pno, page in enumerate(doc, 1):
            for line in page.get_text().split("\n"):
                if "?" in line or "？" in line:
                    lines.append((pno, norm_text(line)))
    taken: set[int] = set()
    matched = 0
    for item in items:
        words = " ".join(norm_text(item["text"]).split()[:3])
        hit = next((i for i, (p, t) in enumerate(lines) if i not in taken and p == item["page"] and words in t), None)
        if hit is not None:
            taken.add(hit)
            matched += 1
    return {
        "found": len(lines),
        "recall": round(matched / len(items), 4) if items else None,
        "precision": round(matched / len(lines), 4) if lines else None,
    }


def pdf_truth_places(path: Path = TRUTH) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))["files"] if path.is_file() else {}


__all__ = ["TRUTH", "fields_of", "norm_text", "pdf_baseline", "pdf_truth_places", "score_pdf_places"]
