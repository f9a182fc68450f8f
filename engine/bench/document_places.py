"""Word questionnaires scored question by question against the answer places counted from the
document (tests/questionnaire_truth/places.json, made by tests/questionnaire_truth/document_places.py
from the raw XML): per file, recall, precision and the share of questions whose answer place is the
right cell or box ("usable"), beside the trivial baseline of the same file.

Addresses are the truth's: a table cell ``[t, r, c]`` (the table's index among every ``w:tbl`` of the
document in order, the row's among the table's own ``w:tr``, the cell's among the row's own ``w:tc``),
a paragraph outside tables ``["p", n]`` (its 1-based ordinal among every ``w:p``). A question found
is placed by the locators of its answer places (engine/questionnaire/places.py), resolved in the
document part and climbed to their cell or paragraph.

- **matched**: a found question and a truth item share an address (each used once, in document order),
  or the question's own paragraph when a generated item names it (``at``: a paragraph form's question);
- **usable**: of the matched, those whose choice boxes lie exactly in the item's option cells (or its
  paragraph) and whose text place lies in the item's answer cell (a requirement answered "in the space
  below" may also be answered in a paragraph after its table; a request whose response "is written after"
  its paragraph, ``after``, in an empty paragraph after its lines or a new paragraph after its last line);
- **baseline**: every paragraph or table row whose text holds "?" (or "？") taken as a question, scored
  by the same addresses (a row counts as each of its cells).
"""

from __future__ import annotations

import json
import zipfile
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from engine.questionnaire.places import PlaceKind, place_key
from engine.questionnaire.records import Questionnaire
from engine.questionnaire.word.xmltree import Resolver, W

TRUTH = Path(__file__).resolve().parents[2] / "tests" / "questionnaire_truth" / "places.json"

Address = tuple  # ("p", n) or (t, r, c)


class Addresses:
    """The truth's addresses of one Word document's cells and paragraphs."""

    def __init__(self, path: Path) -> None:
        with zipfile.ZipFile(path) as zf:
            self.root = etree.fromstring(zf.read("word/document.xml"), etree.XMLParser(resolve_entities=False))
        self.resolve = Resolver(self.root)
        self.cell: dict[etree._Element, Address] = {}
        self.row_of: dict[etree._Element, tuple[int, int]] = {}
        for t, tbl in enumerate(self.root.iter(f"{W}tbl")):
            for r, tr in enumerate(own_elements(tbl, f"{W}tr")):
                self.row_of[tr] = (t, r)
                for c, tc in enumerate(own_elements(tr, f"{W}tc")):
                    self.cell[tc] = (t, r, c)
        self.para = {p: n for n, p in enumerate(self.root.iter(f"{W}p"), 1)}
        self.by_ordinal = {n: p for p, n in self.para.items()}
        self.table_end: dict[int, int] = {}  # table index -> ordinal of the last paragraph before the next table
        tables = list(self.root.iter(f"{W}tbl"))
        starts = [self.para[next(t.iter(f"{W}p"))] for t in tables]
        for t, tbl in enumerate(tables):
            last = max((self.para[p] for p in tbl.iter(f"{W}p")), default=0)
            nxt = min((s for s in starts if s > last), default=10**9)
            self.table_end[t] = (last, nxt)

    def of(self, locator: str) -> Address | None:
        el = self.resolve(locator.split("#", 1)[0])
        if el is not None and el.tag == f"{W}sdt" and el.find(f"{W}sdtContent/{W}tc") is not None:
            el = el.find(f"{W}sdtContent/{W}tc")  # a control wrapping a whole cell: that cell
        while el is not None:
            if el in self.cell:
                return self.cell[el]
            if el.tag == f"{W}p" and not any(a.tag == f"{W}tc" for a in el.iterancestors()):
                return ("p", self.para[el])
            el = el.getparent()
        return None

    def body_text(self, ordinal: int) -> str | None:
        """The text of the body paragraph ``ordinal`` (stripped); None for a paragraph in a table or a
        text box, or past the end."""
        p = self.by_ordinal.get(ordinal)
        if p is None or any(a.tag in (f"{W}tc", f"{W}txbxContent") for a in p.iterancestors()):
            return None
        return "".join(t.text or "" for t in p.iter(f"{W}t")).strip()

    def of_paragraph(self, ordinal: int) -> Address | None:
        p = self.by_ordinal.get(ordinal % 100_000)
        if p is None:
            return None
        tc = next((a for a in p.iterancestors(f"{W}tc")), None)
        return self.cell.get(tc) if tc is not None else ("p", ordinal % 100_000)


def ratio(part: int, total: int) -> float | None:
    """``part / total`` to 4 places; None without a total (the benches' recall, precision, usable)."""
    return round(part / total, 4) if total else None


def own_elements(el: etree._Element, tag: str) -> list[etree._Element]:
    """``el``'s descendants tagged ``tag``, not looking inside nested tables."""
    out = []
    for child in el:
        if child.tag == tag:
            out.append(child)
        elif child.tag != f"{W}tbl" and isinstance(child.tag, str):
            out.extend(own_elements(child, tag))
    return out


def _addr(x: list) -> Address:
    return tuple(x)


@dataclass(frozen=True)
class Placed:
    """A found question's addresses: its choice's boxes and its text place."""

    choice: frozenset
    text: Address | None
    anchor: Address | None
    inserted: bool = False  # the text place is a new paragraph inserted after ``text``

    @property
    def all(self) -> set:
        return set(self.choice) | ({self.text} if self.text else set()) | ({self.anchor} if self.anchor else set())


def placed(q: Questionnaire, where: Addresses) -> list[Placed]:
    out = []
    for x in q.questions:
        choice: set = set()
        text, inserted = None, False
        if x.choice_cell:
            place = q.places[place_key(x.sheet, x.choice_cell)]
            locators = [loc for _, loc in place.options] or [place.locator]  # a drop-down: the control itself
            choice = {a for loc in locators if (a := where.of(loc)) is not None}
        if x.text_cell:
            place = q.places[place_key(x.sheet, x.text_cell)]
            text = where.of(place.locator)
            inserted = place.kind is PlaceKind.NEW_PARAGRAPH
            if inserted and text is None:
                text = where.of_paragraph(x.row)
        out.append(Placed(frozenset(choice), text, where.of_paragraph(x.row), inserted))
    return out


def _item_addresses(item: dict) -> set:
    out = {_addr(a) for a in item.get("choice", [])}
    if "answer" in item:
        out.add(_addr(item["answer"]))
    return out


def _after_table(item: dict, a: Address | None, where: Addresses) -> bool:
    if a is None or a[0] != "p" or "after_table" not in item:
        return False
    last, nxt = where.table_end[item["after_table"]]
    return last < a[1] < nxt


def _after_paragraph(item: dict, p: Placed, where: Addresses) -> bool:
    """A response "written after" the item's paragraph (``after``): in one of the empty body paragraphs
    that follow the question's lines (the item's paragraph and the non-empty ones run on from it), or in a
    new paragraph inserted after the last of those lines."""
    if not item.get("after") or p.text is None or p.text[0] != "p" or item["answer"][0] != "p":
        return False
    n, m = item["answer"][1], p.text[1]
    if m < n:
        return False
    k = n
    while k + 1 <= m and where.body_text(k + 1):  # the question's own lines
        k += 1
    if m == k:
        return p.inserted or m == n
    return all(where.body_text(j) == "" for j in range(k + 1, m + 1))


def usable(item: dict, p: Placed, where: Addresses) -> bool:
    if "choice" in item and set(p.choice) != {_addr(a) for a in item["choice"]}:
        return False
    if "choice" not in item and p.choice and "options" not in item:
        return False  # a pick where the document asks for text
    if "answer" in item:
        ok = p.text == _addr(item["answer"]) or _after_table(item, p.text, where) or _after_paragraph(item, p, where)
        if "options" in item and "choice" not in item:  # Y / N typed into the cell
            ok = ok or set(p.choice) == {_addr(item["answer"])}
        if not ok:
            return False
    return True


def score_places(q: Questionnaire, path: Path, items: list[dict]) -> dict:
    """Recall, precision and usable share of ``q`` against one file's truth items."""
    where = Addresses(path)
    found = placed(q, where)
    taken: set[int] = set()
    matched = good = 0
    missed, wrong = [], []
    for item in items:
        want = _item_addresses(item)
        hit = next(
            (
                i
                for i, p in enumerate(found)
                if i not in taken
                and (want & (set(p.choice) | ({p.text} if p.text else set())) or _after_table(item, p.text, where))
            ),
            None,
        )
        if hit is None:  # the question itself found, its answer place elsewhere
            at = _addr(item["at"]) if "at" in item else None  # (a generated item: the question's own paragraph)
            hit = next((i for i, p in enumerate(found) if i not in taken and p.anchor in (want | {at}) - {None}), None)
        if hit is None:
            missed.append(item["text"])
            continue
        taken.add(hit)
        matched += 1
        if usable(item, found[hit], where):
            good += 1
        elif len(wrong) < 8:
            wrong.append(f"{item['text']}: {q.questions[hit].id or ''} {q.questions[hit].text[:50]!r}")
    extra = [q.questions[i].text[:60] for i in range(len(found)) if i not in taken]
    return {
        "truth": len(items),
        "found": len(found),
        "matched": matched,
        "recall": round(matched / len(items), 4) if items else None,
        "precision": round(matched / len(found), 4) if found else None,
        "usable": round(good / len(items), 4) if items else None,
        "missed": missed,
        "not_usable": wrong,
        "extra": extra[:10],
    }


def baseline(path: Path, items: list[dict]) -> dict:
    """The trivial reader: every paragraph or table row whose text holds a question mark is a question."""
    where = Addresses(path)
    seen: list[set] = []
    for p, n in where.para.items():
        text = "".join(p.itertext())
        if "?" not in text and "？" not in text:
            continue
        tc = next((a for a in p.iterancestors(f"{W}tc")), None)
        if tc is None:
            seen.append({("p", n)})
            continue
        t, r, _ = where.cell[tc]
        row = {a for a in where.cell.values() if a[0] == t and a[1] == r}
        if row not in seen:
            seen.append(row)
    taken: set[int] = set()
    matched = 0
    for item in items:
        want = _item_addresses(item) | ({_addr(item["at"])} if "at" in item else set())
        hit = next((i for i, s in enumerate(seen) if i not in taken and s & want), None)
        if hit is not None:
            taken.add(hit)
            matched += 1
    return {
        "found": len(seen),
        "recall": round(matched / len(items), 4) if items else None,
        "precision": round(matched / len(seen), 4) if seen else None,
    }


def truth_places(path: Path = TRUTH) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))["files"] if path.is_file() else {}


__all__ = ["TRUTH", "Addresses", "baseline", "placed", "score_places", "truth_places", "usable"]
