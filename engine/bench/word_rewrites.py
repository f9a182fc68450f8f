"""The shared Word questionnaires written differently, their truth carried over by each rewrite's own
rule (``python -m engine bench word-rewrites --json``, issue #55: metamorphic testing).

A real questionnaire the reader has never seen is written by other hands: other header words, other
boxes, other column orders, other table splits. Each shared Word file that has a committed truth
(tests/questionnaire_truth/places.json: answer places; docx.json: the questions' words in order) is
rewritten here as another author could have written it, **without changing which questions there
are**, and read again. The rewrites (:data:`KINDS`), each drawn with a seed:

- ``relabel``: a cell of a table's first four rows whose whole text is a column word ("Response",
  "Question", "Yes", "No", "Not Applicable", "Comments", "Notes", "Requirement" …) is written in
  another language or with a synonym ("Answer", "Antwort", "Réponse", "Respuesta", "Antwoord", "回答";
  "Y", "Ja", "Oui", "Sí", "はい"; "Remarks");
- ``boxes``: every unticked or ticked box (a FORMCHECKBOX field, a ``w14:checkbox`` content control, a
  "☐" / "☒" glyph, a Wingdings ``w:sym``) drawn as one other kind, its state kept;
- ``columns``: the columns of a table of three or more columns without merged cells (a row spanning
  the whole table aside) reordered: the last column moved next to the first (answers before the
  question), the last two swapped (notes moved), or all but the first reversed;
- ``split``: a table of eight rows or more cut in two halfway, its header row(s) written again at the
  top of the second half, an empty paragraph between them;
- ``header_mark``: a table's first row marked to repeat on each page (``w:tblHeader``), or unmarked
  where it was;
- ``spacers``: an empty paragraph before each table and after each heading;
- ``plain_headers``: the tables' styles removed, the header rows' bold removed, the header cells shaded;
- ``ids``: an ID cell "4.1" written "D-1" or "Q4.1";
- ``numbering``: paragraphs numbered by hand ("3.1 Do you …", "2) …") numbered by Word instead: each run
  of them one after the other a list of the document's numbering part drawing the same numbers.

Not drawn (yet): Word's numbering written out as typed numbers, empty table rows (an empty row under a
question is an answer's row to a reader: it would change which places there are).

**The truth's transfer** is the rewrite's own rule, never the reader: every rewrite moves the
document's own cells and paragraphs (or adds new ones) and never rebuilds one that holds a question or
an answer place, so an address (``[t, r, c]``, ``["p", n]``, engine/bench/document_places.py) of the
original is the address of **the same element** in the rewritten tree; a relabelled option's label is
mapped by the relabelling; a rewritten ID is mapped in the truth's words by the same table of IDs.

Each variant is scored as the shared files are: places.json files by recall, precision and usable
(score_places), docx.json files by recall and precision (the words in order), and every file by
**same**: the share of the questions main's reader finds in the original that it finds again in the
rewritten file with the same text (IDs mapped) and the same answer places (addresses carried over).
Figures per rewrite kind (single-kind variants) and for the variants of two kinds, beside the same
files' figures before the rewrite.
"""

from __future__ import annotations

import copy
import json
import random
import re
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from engine.bench.document_intake import TRUTH as WORDS_TRUTH
from engine.bench.document_intake import _norm, bench_file, score
from engine.bench.document_places import TRUTH as PLACES_TRUTH
from engine.bench.document_places import Addresses, own_elements, placed, score_places
from engine.core.limits import Limits
from engine.questionnaire import read_questionnaire
from engine.questionnaire.records import QuestionnaireError

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
W14_NS = "http://schemas.microsoft.com/office/word/2010/wordml"
W = f"{{{W_NS}}}"
W14 = f"{{{W14_NS}}}"
KINDS = ("relabel", "boxes", "columns", "split", "header_mark", "spacers", "plain_headers", "ids", "numbering")
BOX_KINDS = ("formcheckbox", "sdt", "glyph", "sym")

# header words and what another author writes instead, by language ("en" is a synonym)
RELABEL = {
    "response": {"en": "Reply", "de": "Antwort", "fr": "Réponse", "es": "Respuesta", "nl": "Antwoord", "ja": "回答"},
    "answer": {"en": "Reply", "de": "Antwort", "fr": "Réponse", "es": "Respuesta", "nl": "Antwoord", "ja": "回答"},
    "question": {"en": "Query", "de": "Frage", "fr": "Question", "es": "Pregunta", "nl": "Vraag", "ja": "質問"},
    "question text": {
        "en": "Question",
        "de": "Fragentext",
        "fr": "Question",
        "es": "Pregunta",
        "nl": "Vraag",
        "ja": "質問",
    },  # fmt: skip
    "requirement": {
        "en": "Control",
        "de": "Anforderung",
        "fr": "Exigence",
        "es": "Requisito",
        "nl": "Eis",
        "ja": "要求事項",
    },  # fmt: skip
    "yes": {"en": "Y", "de": "Ja", "fr": "Oui", "es": "Sí", "nl": "Ja", "ja": "はい"},
    "no": {"en": "N", "de": "Nein", "fr": "Non", "es": "No", "nl": "Nee", "ja": "いいえ"},
    "not applicable": {
        "en": "N/A",
        "de": "Nicht zutreffend",
        "fr": "Non applicable",
        "es": "No aplica",
        "nl": "Niet van toepassing",
        "ja": "該当なし",
    },  # fmt: skip
    "n/a": {"en": "NA", "de": "k. A.", "fr": "S.O.", "es": "N/A", "nl": "n.v.t.", "ja": "該当なし"},
    "comments": {
        "en": "Remarks",
        "de": "Bemerkungen",
        "fr": "Commentaires",
        "es": "Comentarios",
        "nl": "Opmerkingen",
        "ja": "備考",
    },  # fmt: skip
    "notes": {
        "en": "Remarks",
        "de": "Bemerkungen",
        "fr": "Remarques",
        "es": "Observaciones",
        "nl": "Opmerkingen",
        "ja": "備考",
    },  # fmt: skip
    "number": {"en": "No.", "de": "Nr.", "fr": "N°", "es": "Núm.", "nl": "Nr.", "ja": "番号"},
    "description": {
        "en": "Details",
        "de": "Beschreibung",
        "fr": "Description",
        "es": "Descripción",
        "nl": "Omschrijving",
        "ja": "説明",
    },  # fmt: skip
}
LANGUAGES = ("en", "de", "fr", "es", "nl", "ja")
ID_CELL = re.compile(r"^(\d{1,2})((?:\.\d{1,3})+)\.?$")


@dataclass
class Rewritten:
    """What one rewrite did: how many places it changed, the labels and IDs it rewrote."""

    changed: int = 0
    labels: dict[str, str] = field(default_factory=dict)
    ids: dict[str, str] = field(default_factory=dict)


# --- the document's addresses, by element ------------------------------------------------------


def addresses(root: etree._Element) -> dict[etree._Element, tuple]:
    """Every cell, paragraph and table of ``root`` by its address in document_places' terms: a cell
    ``(t, r, c)``, a paragraph ``("p", n)`` (1-based among every ``w:p``), a table ``("t", t)``."""
    out: dict[etree._Element, tuple] = {}
    for t, tbl in enumerate(root.iter(f"{W}tbl")):
        out[tbl] = ("t", t)
        for r, tr in enumerate(own_elements(tbl, f"{W}tr")):
            for c, tc in enumerate(own_elements(tr, f"{W}tc")):
                out[tc] = (t, r, c)
    for n, p in enumerate(root.iter(f"{W}p"), 1):
        out[p] = ("p", n)
    return out


def carried(before: dict[etree._Element, tuple], after: dict[etree._Element, tuple]) -> dict[tuple, tuple]:
    """Old address -> new address of every element still in the tree (the same element)."""
    return {a: after[el] for el, a in before.items() if el in after}


# --- the rewrites ------------------------------------------------------------------------------


def _text(el: etree._Element) -> str:
    return "".join(t.text or "" for t in el.iter(f"{W}t"))


def _set_text(tc: etree._Element, text: str) -> None:
    ts = list(tc.iter(f"{W}t"))
    ts[0].text = text
    for t in ts[1:]:
        t.text = ""


def _header_rows(tbl: etree._Element) -> list[etree._Element]:
    rows = own_elements(tbl, f"{W}tr")
    marked = []
    for tr in rows:
        if tr.find(f"{W}trPr/{W}tblHeader") is None:
            break
        marked.append(tr)
    return marked or rows[:1]


def relabel(root: etree._Element, rng: random.Random) -> Rewritten:
    """Header cells whose whole text is a column word, written in one other language (or a synonym)."""
    language = rng.choice(LANGUAGES)
    out = Rewritten()
    for tbl in root.iter(f"{W}tbl"):
        for tr in own_elements(tbl, f"{W}tr")[:4]:  # the labels of a header one or two rows deep, under a title or two
            for tc in own_elements(tr, f"{W}tc"):
                if tc.find(f".//{W}fldChar") is not None or tc.find(f".//{W}sdt") is not None:
                    continue
                old = " ".join(_text(tc).split())
                new = RELABEL.get(old.casefold(), {}).get(language)
                if new and new != old:
                    _set_text(tc, new)
                    out.labels[old] = new
                    out.changed += 1
    return out


def _box_xml(kind: str, checked: bool, name: int) -> list[etree._Element]:
    if kind == "glyph":
        inner = [f'<w:r xmlns:w="{W_NS}"><w:t>{"☒" if checked else "☐"}</w:t></w:r>']
    elif kind == "sym":
        inner = [f'<w:r xmlns:w="{W_NS}"><w:sym w:font="Wingdings" w:char="{"F0FE" if checked else "F0A8"}"/></w:r>']
    elif kind == "formcheckbox":
        inner = [
            f'<w:r xmlns:w="{W_NS}"><w:fldChar w:fldCharType="begin"><w:ffData><w:name w:val="Rewrite{name}"/>'
            f'<w:enabled/><w:calcOnExit w:val="0"/><w:checkBox><w:sizeAuto/><w:default w:val="{int(checked)}"/>'
            "</w:checkBox></w:ffData></w:fldChar></w:r>",
            f'<w:r xmlns:w="{W_NS}"><w:instrText xml:space="preserve"> FORMCHECKBOX </w:instrText></w:r>',
            f'<w:r xmlns:w="{W_NS}"><w:fldChar w:fldCharType="separate"/></w:r>',
            f'<w:r xmlns:w="{W_NS}"><w:fldChar w:fldCharType="end"/></w:r>',
        ]
    else:
        inner = [
            f'<w:sdt xmlns:w="{W_NS}" xmlns:w14="{W14_NS}"><w:sdtPr><w:id w:val="{700000 + name}"/><w14:checkbox>'
            f'<w14:checked w14:val="{int(checked)}"/><w14:checkedState w14:val="2612" w14:font="MS Gothic"/>'
            '<w14:uncheckedState w14:val="2610" w14:font="MS Gothic"/></w14:checkbox></w:sdtPr><w:sdtContent><w:r>'
            '<w:rPr><w:rFonts w:ascii="MS Gothic" w:eastAsia="MS Gothic" w:hAnsi="MS Gothic"/></w:rPr>'
            f"<w:t>{'☒' if checked else '☐'}</w:t></w:r></w:sdtContent></w:sdt>"
        ]
    return [etree.fromstring(x) for x in inner]


def _field_runs(begin_run: etree._Element) -> list[etree._Element] | None:
    """The runs of a FORMCHECKBOX field, from its begin to its end, siblings in one paragraph."""
    runs, depth = [], 0
    el = begin_run
    while el is not None:
        if el.tag != f"{W}r":
            return None
        runs.append(el)
        for fc in el.findall(f"{W}fldChar"):
            kind = fc.get(f"{W}fldCharType")
            depth += 1 if kind == "begin" else -1 if kind == "end" else 0
        if depth == 0:
            return runs
        el = el.getnext()
    return None


def _boxes(root: etree._Element) -> list[tuple[str, list[etree._Element], bool]]:
    """Every box of ``root`` as (kind, the elements drawing it, ticked), run-level in a paragraph."""
    out = []
    for ff in root.iter(f"{W}ffData"):
        box = ff.find(f"{W}checkBox")
        run = ff.getparent().getparent()
        runs = _field_runs(run) if box is not None and run.getparent().tag == f"{W}p" else None
        if runs:
            value = box.find(f"{W}checked")
            value = value if value is not None else box.find(f"{W}default")
            out.append(("formcheckbox", runs, value is not None and value.get(f"{W}val", "1") in ("1", "true")))
    for sdt in root.iter(f"{W}sdt"):
        mark = sdt.find(f"{W}sdtPr/{W14}checkbox")
        if mark is not None and sdt.getparent().tag == f"{W}p":
            on = mark.find(f"{W14}checked")
            out.append(("sdt", [sdt], on is not None and on.get(f"{W14}val") in ("1", "true")))
    for sym in root.iter(f"{W}sym"):
        run = sym.getparent()
        if "wingdings" in (sym.get(f"{W}font") or "").casefold() and sym.get(f"{W}char", "").upper() in (
            "F0A8", "F06F", "F0FE", "F078",
        ) and len(run) <= 2 and run.getparent().tag == f"{W}p":  # fmt: skip
            out.append(("sym", [run], sym.get(f"{W}char", "").upper() in ("F0FE", "F078")))
    for t in root.iter(f"{W}t"):
        run = t.getparent()
        if (t.text or "").strip() in ("☐", "☒") and run.getparent().tag == f"{W}p" and len(run.findall(f"{W}t")) == 1:
            out.append(("glyph", [run], (t.text or "").strip() == "☒"))
    return out


def boxes(root: etree._Element, rng: random.Random) -> Rewritten:
    """Every box drawn as one other kind (the most common kind's next in BOX_KINDS, or a drawn one)."""
    found = _boxes(root)
    out = Rewritten()
    if not found:
        return out
    kinds = [k for k, _, _ in found]
    common = max(set(kinds), key=kinds.count)
    target = rng.choice([k for k in BOX_KINDS if k != common])
    for n, (kind, els, checked) in enumerate(found):
        if kind == target:
            continue
        parent = els[0].getparent()
        at = parent.index(els[0])
        for el in els:
            parent.remove(el)
        for i, el in enumerate(_box_xml(target, checked, n)):
            parent.insert(at + i, el)
        out.changed += 1
    out.labels = {"box": target}
    return out


def _grid(tbl: etree._Element) -> int:
    return len(tbl.findall(f"{W}tblGrid/{W}gridCol"))


def _plain_rows(tbl: etree._Element) -> bool:
    """Every row either one cell per grid column, none merged across, or one cell spanning them all."""
    n = _grid(tbl)
    rows = own_elements(tbl, f"{W}tr")
    if n < 3 or len(rows) < 2 or any(tr.find(f"{W}tblGridBefore") is not None for tr in tbl.iter(f"{W}trPr")):
        return False
    for tr in rows:
        cells = own_elements(tr, f"{W}tc")
        spans = [c.find(f"{W}tcPr/{W}gridSpan") for c in cells]
        if len(cells) == n and all(s is None for s in spans):
            continue
        if len(cells) == 1 and spans[0] is not None and spans[0].get(f"{W}val") == str(n):
            continue
        return False
    return tbl.find(f".//{W}tbl") is None and all(tc.getparent().tag == f"{W}tr" for tc in _own_cells(tbl))


def _own_cells(tbl: etree._Element) -> list[etree._Element]:
    return [tc for tr in own_elements(tbl, f"{W}tr") for tc in own_elements(tr, f"{W}tc")]


def columns(root: etree._Element, rng: random.Random) -> Rewritten:
    """The columns of each plain table of three or more reordered by one drawn rule."""
    out = Rewritten()
    rule = rng.choice(("last_after_first", "swap_last_two", "reverse_after_first"))
    for tbl in list(root.iter(f"{W}tbl")):
        if not _plain_rows(tbl):
            continue
        n = _grid(tbl)
        order = list(range(n))
        if rule == "last_after_first":
            order = [0, n - 1, *range(1, n - 1)]
        elif rule == "swap_last_two":
            order = [*range(n - 2), n - 1, n - 2]
        else:
            order = [0, *range(n - 1, 0, -1)]
        grid = tbl.find(f"{W}tblGrid")
        cols = grid.findall(f"{W}gridCol")
        for c in cols:
            grid.remove(c)
        for i in order:
            grid.append(cols[i])
        for tr in own_elements(tbl, f"{W}tr"):
            cells = own_elements(tr, f"{W}tc")
            if len(cells) != n:
                continue
            at = tr.index(cells[0])
            for c in cells:
                tr.remove(c)
            for k, i in enumerate(order):
                tr.insert(at + k, cells[i])
        out.changed += 1
    out.labels = {"rule": rule}
    return out


def _continues(tr: etree._Element) -> bool:
    """A row with a cell merged into the one above it (``w:vMerge`` without "restart")."""
    return any(v.get(f"{W}val", "continue") == "continue" for v in tr.iter(f"{W}vMerge"))


def _copy_row(tr: etree._Element) -> etree._Element:
    row = copy.deepcopy(tr)
    for el in list(row.iter(f"{W}bookmarkStart", f"{W}bookmarkEnd")):
        el.getparent().remove(el)
    return row


def _column_header(tbl: etree._Element) -> list[etree._Element]:
    """The rows the document itself repeats as its header (``w:tblHeader``), else its first row when
    that row is a row of column labels (two cells or more, none merged down or across the table);
    empty when the header cannot be told without reading the table."""
    marked = [tr for tr in own_elements(tbl, f"{W}tr") if tr.find(f"{W}trPr/{W}tblHeader") is not None]
    rows = own_elements(tbl, f"{W}tr")
    if marked:
        return marked if marked == rows[: len(marked)] and not any(_continues(tr) for tr in marked) else []
    cells = own_elements(rows[0], f"{W}tc") if rows else []
    if len(cells) < 2 or rows[0].find(f".//{W}vMerge") is not None or rows[0].find(f".//{W}gridSpan") is not None:
        return []
    return rows[:1]


def _starts(tr: etree._Element) -> bool:
    """A row whose first cell holds words: it starts a question or a section, never an answer's row."""
    cells = own_elements(tr, f"{W}tc")
    return bool(cells) and bool(_text(cells[0]).strip())


def split(root: etree._Element, rng: random.Random) -> Rewritten:
    """Each top-level table of eight rows or more cut in two halfway (at a row not merged into the one
    above), the header row(s) written again at the top of the second half, an empty paragraph between."""
    out = Rewritten()
    for tbl in list(root.iter(f"{W}tbl")):
        if any(a.tag == f"{W}tbl" for a in tbl.iterancestors()) or rng.random() < 0.25:
            continue
        rows = [tr for tr in tbl if tr.tag == f"{W}tr"]
        head = _column_header(tbl)
        if len(rows) < 8 or not head or head[0] is not rows[0]:
            continue
        k = len(head) + (len(rows) - len(head)) // 2
        while k < len(rows) - 1 and (_continues(rows[k]) or not _starts(rows[k])):
            k += 1
        if k >= len(rows) - 1 or _continues(rows[k]) or not _starts(rows[k]):
            continue
        second = etree.Element(f"{W}tbl")
        for part in (tbl.find(f"{W}tblPr"), tbl.find(f"{W}tblGrid")):
            if part is not None:
                second.append(copy.deepcopy(part))
        for tr in head:
            second.append(_copy_row(tr))
        for tr in rows[k:]:
            second.append(tr)  # moved: the same elements
        gap = etree.Element(f"{W}p")
        tbl.addnext(gap)
        gap.addnext(second)
        out.changed += 1
    return out


def header_mark(root: etree._Element, rng: random.Random) -> Rewritten:
    """Each table's first row marked to repeat on every page, or unmarked where it was marked."""
    out = Rewritten()
    for tbl in root.iter(f"{W}tbl"):
        rows = own_elements(tbl, f"{W}tr")
        if len(rows) < 3:
            continue
        trpr = rows[0].find(f"{W}trPr")
        mark = trpr.find(f"{W}tblHeader") if trpr is not None else None
        if mark is not None:
            for tr in rows:  # every marked row unmarked: the header is then only the first row's words
                for m in tr.findall(f"{W}trPr/{W}tblHeader"):
                    m.getparent().remove(m)
        else:
            if trpr is None:
                trpr = etree.Element(f"{W}trPr")
                rows[0].insert(1 if rows[0].find(f"{W}tblPrEx") is not None else 0, trpr)
            etree.SubElement(trpr, f"{W}tblHeader")
        out.changed += 1
    return out


def _heading(p: etree._Element) -> bool:
    style = p.find(f"{W}pPr/{W}pStyle")
    return style is not None and (style.get(f"{W}val") or "").casefold().startswith(("heading", "berschrift", "titre"))


def spacers(root: etree._Element, rng: random.Random) -> Rewritten:
    """An empty paragraph before each table of the body (or of a cell) and after each heading."""
    out = Rewritten()
    for tbl in list(root.iter(f"{W}tbl")):
        tbl.addprevious(etree.Element(f"{W}p"))
        out.changed += 1
    for p in list(root.iter(f"{W}p")):
        if _heading(p) and _text(p).strip():
            p.addnext(etree.Element(f"{W}p"))
            out.changed += 1
    return out


def plain_headers(root: etree._Element, rng: random.Random) -> Rewritten:
    """The tables' styles removed, bold removed from their header rows, the header cells shaded."""
    out = Rewritten()
    fill = rng.choice(("D9D9D9", "BDD6EE", "FFF2CC"))
    for tbl in root.iter(f"{W}tbl"):
        for style in tbl.findall(f"{W}tblPr/{W}tblStyle"):
            style.getparent().remove(style)
            out.changed += 1
        for tr in _header_rows(tbl):
            for b in list(tr.iter(f"{W}b", f"{W}bCs")):
                b.getparent().remove(b)
                out.changed += 1
            for tc in own_elements(tr, f"{W}tc"):
                pr = tc.find(f"{W}tcPr")
                if pr is None:
                    pr = etree.Element(f"{W}tcPr")
                    tc.insert(0, pr)
                for old in pr.findall(f"{W}shd"):
                    pr.remove(old)
                shd = etree.SubElement(pr, f"{W}shd")
                shd.set(f"{W}val", "clear")
                shd.set(f"{W}color", "auto")
                shd.set(f"{W}fill", fill)
    return out


def rewritten_id(old: str, style: str) -> str | None:
    """ "4.1.2" as another author numbers it: "D-1.2" (``letter``) or "Q4.1.2" (``q``)."""
    m = ID_CELL.match(old.strip())
    if not m:
        return None
    head, rest = int(m.group(1)), m.group(2)[1:]
    if style == "letter":
        return f"{chr(64 + head)}-{rest}" if 1 <= head <= 26 else None
    return f"Q{m.group(1)}.{rest}"


def ids(root: etree._Element, rng: random.Random) -> Rewritten:
    """Each cell that is an ID alone ("4.1", "1.2.3") numbered in one other style."""
    out = Rewritten()
    style = rng.choice(("letter", "q"))
    for tc in root.iter(f"{W}tc"):
        if tc.find(f".//{W}tc") is not None or not list(tc.iter(f"{W}t")):
            continue
        old = _text(tc).strip()
        new = rewritten_id(old, style)
        if new and out.ids.get(old, new) == new:
            _set_text(tc, new)
            out.ids[old] = new
            out.changed += 1
    return out


HAND_NUMBER = re.compile(r"^((?:\d{1,2}\.)*)(\d{1,3})([.)]?)\s+(?=\S)")
_BEFORE_NUMPR = {"pStyle", "keepNext", "keepLines", "pageBreakBefore", "framePr", "widowControl"}


def _hand_numbered(root: etree._Element) -> list[tuple[etree._Element, re.Match]]:
    """Paragraphs numbered by hand ("3.1 Do you …", "2) …"), the number alone in their first run's text."""
    out = []
    for p in root.iter(f"{W}p"):
        style = p.find(f"{W}pPr/{W}pStyle")
        if p.find(f"{W}pPr/{W}numPr") is not None or (
            style is not None and "toc" in (style.get(f"{W}val") or "").casefold()
        ):
            continue
        first = next(iter(p.iter(f"{W}t")), None)
        m = HAND_NUMBER.match(first.text or "") if first is not None else None
        if m and first.getparent().getparent() is p and len(m.group(0)) < len(first.text or ""):
            out.append((p, m))
    return out


def _list_of(numbering: etree._Element, lvl_text: str, start: int, n: int) -> str:
    """A new list in ``numbering`` drawing ``lvl_text`` from ``start``: its numId."""
    abstract = etree.fromstring(
        f'<w:abstractNum xmlns:w="{W_NS}" w:abstractNumId="{90000 + n}"><w:multiLevelType w:val="singleLevel"/>'
        f'<w:lvl w:ilvl="0"><w:start w:val="{start}"/><w:numFmt w:val="decimal"/><w:lvlText w:val="{lvl_text}"/>'
        '<w:lvlJc w:val="left"/><w:pPr><w:ind w:left="432" w:hanging="432"/></w:pPr></w:lvl></w:abstractNum>'
    )
    num = etree.fromstring(
        f'<w:num xmlns:w="{W_NS}" w:numId="{90000 + n}"><w:abstractNumId w:val="{90000 + n}"/></w:num>'
    )
    first_num = numbering.find(f"{W}num")
    if first_num is not None:
        first_num.addprevious(abstract)
    else:
        numbering.append(abstract)
    numbering.append(num)
    return str(90000 + n)


def _number_with(p: etree._Element, num_id: str) -> None:
    ppr = p.find(f"{W}pPr")
    if ppr is None:
        ppr = etree.Element(f"{W}pPr")
        p.insert(0, ppr)
    at = sum(1 for c in ppr if isinstance(c.tag, str) and etree.QName(c).localname in _BEFORE_NUMPR)
    ppr.insert(at, etree.fromstring(
        f'<w:numPr xmlns:w="{W_NS}"><w:ilvl w:val="0"/><w:numId w:val="{num_id}"/></w:numPr>'
    ))  # fmt: skip


def numbering(root: etree._Element, rng: random.Random, numbering_part: etree._Element | None = None) -> Rewritten:
    """Numbers typed by hand made Word's: each run of paragraphs numbered one after the other ("3.1",
    "3.2" …, the same prefix) becomes one list drawing the same numbers, the typed number removed."""
    out = Rewritten()
    if numbering_part is None:
        return out
    runs: list[list[tuple[etree._Element, re.Match]]] = []
    for p, m in _hand_numbered(root):
        last = runs[-1][-1][1] if runs else None
        if (
            last is not None
            and (last.group(1), last.group(3)) == (m.group(1), m.group(3))
            and int(last.group(2)) + 1 == int(m.group(2))
        ):
            runs[-1].append((p, m))
        else:
            runs.append([(p, m)])
    for n, run in enumerate(runs):
        head = run[0][1]
        num_id = _list_of(numbering_part, f"{head.group(1)}%1{head.group(3)}", int(head.group(2)), n)
        for p, m in run:
            first = next(iter(p.iter(f"{W}t")))
            first.text = first.text[len(m.group(0)) :]
            _number_with(p, num_id)
            out.changed += 1
    return out


REWRITES = {
    "relabel": relabel,
    "boxes": boxes,
    "columns": columns,
    "split": split,
    "header_mark": header_mark,
    "spacers": spacers,
    "plain_headers": plain_headers,
    "ids": ids,
    "numbering": numbering,
}


# --- a rewritten file and its truth ------------------------------------------------------------


def _parse(path: Path) -> etree._Element:
    with zipfile.ZipFile(path) as zf:
        return etree.fromstring(zf.read("word/document.xml"), etree.XMLParser(resolve_entities=False, huge_tree=True))


def _numbering(path: Path) -> etree._Element | None:
    with zipfile.ZipFile(path) as zf:
        if "word/numbering.xml" not in zf.namelist():
            return None
        return etree.fromstring(zf.read("word/numbering.xml"), etree.XMLParser(resolve_entities=False))


def _save(src: Path, parts: dict[str, etree._Element], dest: Path) -> None:
    xml = {
        name: etree.tostring(el, xml_declaration=True, encoding="UTF-8", standalone=True) for name, el in parts.items()
    }
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            zout.writestr(info, xml.get(info.filename) or zin.read(info.filename))


@dataclass
class Rewrite:
    """One rewritten file: what each rewrite did, and old address -> new address."""

    path: Path
    kinds: tuple[str, ...]
    done: dict[str, Rewritten]
    moved: dict[tuple, tuple]

    @property
    def labels(self) -> dict[str, str]:
        return dict(self.done["relabel"].labels) if "relabel" in self.done else {}  # as written: "YES", not "Yes"

    @property
    def ids(self) -> dict[str, str]:
        return {k: v for r in self.done.values() for k, v in r.ids.items()}


def rewrite(src: Path, kinds: tuple[str, ...], seed: str, dest: Path) -> Rewrite | None:
    """``src`` rewritten by ``kinds`` (seeded by ``seed``) into ``dest``; None when a kind changes nothing."""
    root, lists = _parse(src), _numbering(src)
    before = addresses(root)
    done = {}
    for kind in kinds:
        rng = random.Random(f"{seed}:{kind}")
        done[kind] = numbering(root, rng, lists) if kind == "numbering" else REWRITES[kind](root, rng)
        if not done[kind].changed:
            return None
    parts = {"word/document.xml": root}
    if "numbering" in kinds and lists is not None:
        parts["word/numbering.xml"] = lists
    _save(src, parts, dest)
    return Rewrite(dest, kinds, done, carried(before, addresses(root)))


def map_ids(text: str, ids: dict[str, str]) -> str:
    """``text`` with the ID it starts with rewritten (a whole ID: "4.1" in "4.1 Do you", not in "4.1.2";
    an ID quoted later in the text is the text's, which the rewrite leaves as it is)."""
    if not ids:
        return text
    alternatives = "|".join(re.escape(old) for old in sorted(ids, key=len, reverse=True))
    return re.sub(rf"^(\s*)({alternatives})(?![\w]|\.\w)", lambda m: m.group(1) + ids[m.group(2)], text)


def transfer_places(items: list[dict], rw: Rewrite) -> list[dict]:
    """places.json items carried to the rewritten file: each address to the same element's, each
    relabelled option to its new label, each rewritten ID in the text."""

    def at(a: list) -> list:
        return list(rw.moved[tuple(a)])

    out = []
    for item in items:
        new = dict(item, text=map_ids(item["text"], rw.ids))
        for key in ("answer", "at"):
            if key in item:
                new[key] = at(item[key])
        if "choice" in item:
            new["choice"] = [at(a) for a in item["choice"]]
        if "after_table" in item:
            new["after_table"] = rw.moved[("t", item["after_table"])][1]
        if "options" in item:
            new["options"] = [rw.labels.get(" ".join(o.split()), o) for o in item["options"]]
        out.append(new)
    return out


def transfer_words(words: list, rw: Rewrite) -> list:
    """docx.json items carried over: the words of each, with each rewritten ID rewritten."""
    return [map_ids(w, rw.ids) if isinstance(w, str) else [map_ids(x, rw.ids) for x in w] for w in words]


# --- scoring -----------------------------------------------------------------------------------


@dataclass
class Read:
    """One file read: its questions and their answer places (document_places' addresses)."""

    q: object
    places: list

    @classmethod
    def of(cls, path: Path) -> Read:
        q = read_questionnaire(path, limits=Limits.from_env())
        return cls(q, placed(q, Addresses(path)))


def _where(p, moved: dict | None = None) -> frozenset:
    got = set(p.choice) | ({p.text} if p.text else set()) or ({p.anchor} if p.anchor else set())
    return frozenset(moved.get(a, a) for a in got) if moved is not None else frozenset(got)


def _same_text(x, y, rw: Rewrite) -> bool:
    """The same ID and text, IDs mapped; a number typed before the text (``numbering``: now drawn by
    Word) may have moved into the ID or be drawn only."""
    text, ident = _norm(x.text), map_ids(x.id or "", rw.ids)
    if _norm(y.text) == text and (y.id or "") == ident:
        return True
    typed = HAND_NUMBER.match(x.text) if "numbering" in rw.kinds else None
    if typed is None or _norm(y.text) != _norm(x.text[typed.end() :]):
        return False
    return (y.id or "") in (ident, typed.group(0).strip().rstrip(".)")) or not ident


def same(before: Read, after: Read, rw: Rewrite) -> dict:
    """The share of the questions read in the original read again in the rewritten file with the same
    answer places (carried over) and the same text, ID and options (IDs and labels mapped); aligned by
    place, in order."""
    taken: set[int] = set()
    n_same = n_text = 0
    differ: list[str] = []
    for x, p in zip(before.q.questions, before.places, strict=True):
        want = _where(p, rw.moved)
        hit = next((j for j, y in enumerate(after.places) if j not in taken and want and want & _where(y)), None)
        if hit is None:
            if len(differ) < 4:
                differ.append(f"lost: {x.id or ''} {x.text[:60]!r}")
            continue
        taken.add(hit)
        y, q = after.places[hit], after.q.questions[hit]
        text_ok = _same_text(x, q, rw) and tuple(q.choices) == tuple(
            rw.labels.get(" ".join(c.split()), c) for c in x.choices
        )  # a relabelled option read by its new label
        n_text += text_ok
        place_ok = _where(y) == want and set(y.choice) == {rw.moved.get(a, a) for a in p.choice}
        n_same += text_ok and place_ok
        if not (text_ok and place_ok) and len(differ) < 4:
            differ.append(f"{x.id or ''} {x.text[:50]!r} -> {q.id or ''} {q.text[:50]!r} place same: {place_ok}")
    return {"questions": len(before.q.questions), "same_n": n_same, "text_same_n": n_text,
            "extra_n": len(after.places) - len(taken), "differ": differ}  # fmt: skip


def truths() -> dict[str, tuple[str, list]]:
    """Every shared Word file with a committed truth: ("places", items) or ("words", words)."""
    out: dict[str, tuple[str, list]] = {}
    for kind, path in (("words", WORDS_TRUTH), ("places", PLACES_TRUTH)):
        if path.is_file():
            for name, entry in json.loads(path.read_text(encoding="utf-8"))["files"].items():
                out[name] = (kind, entry["questions"])
    return out


def _scored(read: Read, path: Path, kind: str, truth: list) -> dict:
    s = score_places(read.q, path, truth) if kind == "places" else score(read.q, truth)
    out = {k: s[k] for k in ("truth", "found", "matched")}
    out["usable_n"] = round((s.get("usable") or 0) * s["truth"]) if kind == "places" else None
    out["missed"] = s["missed"][:3]
    return out


def _round_trip(path: Path) -> dict:
    figures = bench_file(path, None)
    if "export_error" in figures:
        return {"export_error": figures["export_error"][:200]}
    rt = figures["round_trip"]
    return {k: rt[k] for k in ("texts", "texts_back", "choices", "choices_back")}


def plan(many: int, names: list[str]) -> list[tuple[int, list[str], tuple[str, ...]]]:
    """Variant n: one rewrite kind (KINDS in turn), every second round two; the files to try, drawn."""
    out = []
    for n in range(many):
        rng = random.Random(f"word-rewrites-{n}")
        kinds = (KINDS[n % len(KINDS)],)
        if (n // len(KINDS)) % 2 == 1:
            kinds += (rng.choice([k for k in KINDS if k != kinds[0]]),)
        order = list(names)
        rng.shuffle(order)
        out.append((n, order, kinds))
    return out


def run_variant(n: int, order: list[str], kinds: tuple[str, ...], folder: Path, cache: dict, trip: bool) -> dict:
    """The first file of ``order`` that every kind of the variant changes, rewritten and scored."""
    table = truths()
    for name in order:
        src = folder / name
        dest = cache["out"] / f"{n:03d}_{'+'.join(kinds)}_{name}"
        rw = rewrite(src, kinds, f"{n}", dest)
        if rw is None:
            continue
        kind, truth = table[name]
        if name not in cache:
            before = Read.of(src)
            cache[name] = (before, _scored(before, src, kind, truth), _round_trip(src) if trip else None)
        before, was, trip_was = cache[name]
        moved = transfer_places(truth, rw) if kind == "places" else transfer_words(truth, rw)
        row: dict = {"variant": n, "file": name, "kinds": list(kinds), "truth_kind": kind,
                     "changed": {k: r.changed for k, r in rw.done.items()},
                     "drawn": {k: r.labels for k, r in rw.done.items() if r.labels}, "before": was}  # fmt: skip
        try:
            after = Read.of(dest)
        except QuestionnaireError as exc:
            return {**row, "refused": str(exc)}
        row["after"] = _scored(after, dest, kind, moved)
        row["same"] = same(before, after, rw)
        if trip:
            row["round_trip"] = {"before": trip_was, "after": _round_trip(dest)}
        return row
    return {"variant": n, "kinds": list(kinds), "skipped": "no file that every kind changes"}


def _ratio(a: int, b: int) -> float | None:
    return round(a / b, 4) if b else None


def _figures(rows: list[dict], when: str) -> dict:
    places = [r[when] for r in rows if r["truth_kind"] == "places"]
    every = [r[when] for r in rows]
    truth, found, matched = (sum(s[k] for s in every) for k in ("truth", "found", "matched"))
    return {
        "recall": _ratio(matched, truth),
        "precision": _ratio(matched, found),
        "usable": _ratio(sum(s["usable_n"] for s in places), sum(s["truth"] for s in places)),
    }


def _trips(rows: list[dict], when: str) -> dict:
    trips = [r["round_trip"][when] for r in rows if "round_trip" in r]
    ok = [t for t in trips if "export_error" not in t]
    back = sum(t["texts_back"] + t["choices_back"] for t in ok)
    return {
        "export_refused": len(trips) - len(ok),
        "read_back": _ratio(back, sum(t["texts"] + t["choices"] for t in ok)),
    }


def summary(rows: list[dict]) -> dict:
    """The figures of a group of variants: before and after the rewrite, on the same files."""
    done = [r for r in rows if "after" in r]
    out = {
        "variants": len(rows),
        "files": sorted({r["file"] for r in rows if "file" in r}),
        "refused": sum("refused" in r for r in rows),
        "skipped": sum("skipped" in r for r in rows),
        "before": _figures(done, "before"),
        "after": _figures(done, "after"),
        "same": _ratio(sum(r["same"]["same_n"] for r in done), sum(r["same"]["questions"] for r in done)),
        "text_same": _ratio(sum(r["same"]["text_same_n"] for r in done), sum(r["same"]["questions"] for r in done)),
        "extra": sum(r["same"]["extra_n"] for r in done),
    }
    if any("round_trip" in r for r in done):
        out["round_trip"] = {"before": _trips(done, "before"), "after": _trips(done, "after")}
    worst = sorted(done, key=lambda r: r["same"]["same_n"] / max(r["same"]["questions"], 1))
    out["worst"] = [
        {
            "variant": r["variant"],
            "file": r["file"],
            "kinds": r["kinds"],
            "drawn": r["drawn"],
            "same": f"{r['same']['same_n']}/{r['same']['questions']}",
            "differ": r["same"]["differ"],
            "missed": r["after"]["missed"],
        }  # fmt: skip
        for r in worst[:3]
        if r["same"]["same_n"] < r["same"]["questions"] or r["after"]["matched"] < r["before"]["matched"]
    ]
    return out


def _row_line(r: dict) -> dict:
    """What a variant was, for the listing (a refused export with its one line)."""
    out = {k: r[k] for k in ("variant", "file", "kinds", "changed", "drawn", "refused", "skipped") if k in r}
    after = r.get("round_trip", {}).get("after") or {}
    return out | ({"export_error": after["export_error"]} if "export_error" in after else {})


def bench_word_rewrites(
    many: int = 24,
    folder: Path = Path("..") / "shared" / "data" / "questionnaires" / "docx",
    keep: Path | None = None,
    round_trip: bool = True,
    only: str | None = None,
) -> dict:
    """``many`` variants of the shared Word files that have a truth, rewritten and read by the reader:
    per rewrite kind (and for the variants of two kinds), recall / precision / usable before and after
    the rewrite on the same files, the share of questions read the same, the round trip."""
    names = sorted(n for n in truths() if (Path(folder) / n).is_file())
    with tempfile.TemporaryDirectory(prefix="word-rewrites-") as tmp:
        out_dir = Path(keep) if keep else Path(tmp)
        out_dir.mkdir(parents=True, exist_ok=True)
        cache: dict = {"out": out_dir}
        rows = [
            run_variant(n, order, kinds, Path(folder), cache, round_trip)
            for n, order, kinds in plan(many, names)
            if not only or only in kinds
        ]
    groups: dict[str, list[dict]] = {}
    for r in rows:
        groups.setdefault(r["kinds"][0] if len(r["kinds"]) == 1 else "two kinds", []).append(r)
    return {
        "variants": len(rows),
        "folder": str(folder),
        "all": summary(rows),
        "kinds": {k: summary(v) for k, v in groups.items()},
        "rows": [_row_line(r) for r in rows],
    }


__all__ = [
    "KINDS",
    "REWRITES",
    "addresses",
    "bench_word_rewrites",
    "carried",
    "map_ids",
    "rewrite",
    "rewritten_id",
    "same",
    "transfer_places",
    "transfer_words",
    "truths",
]
