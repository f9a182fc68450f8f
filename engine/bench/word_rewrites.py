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

- ``typed_numbers``: Word's numbering written out as typed numbers ("3.1. Do you …"), for the lists the
  rewrite counts by itself (decimal or letter levels, no override, no style numbering them);
- ``empty_rows``: an empty row (every cell empty) inserted before some rows that start with words;
- ``number_ids``: an ID cell "A-1" written "1.1" ("C-2" -> "3.2");
- ``merge_header``: a section header row (words in its first cell only) made one cell spanning the
  table, never a row that holds a question of the truth;
- ``merge_question``: a question row made two rows tall by vertical merges (every cell ``w:vMerge``d
  with a new cell of a new row under it);
- ``nested``: a table put inside a one-cell layout table;
- ``header_table``: a table's column header row(s) moved into a one-row table just above it (never a
  row that holds a question of the truth);
- ``font``: a table's text in another font size, its column header in capitals (typed, or ``w:caps``).

- ``header_repeat``: a table's column header row(s) written again mid-table, as a page break's repeat would
  print them, or a sub-header row "Section 2" spanning the table there (drawn);
- ``option_text``: a cell of boxes and their labels ("☐ Yes ☐ No", nothing ticked) written as the options'
  text in one cell ("Yes / No"), to be replaced by the chosen option; its question's choice is that cell;
- ``number_column``: a narrow "No." / "#" column put first in a table whose first column holds the
  questions, each row of a question of the truth numbered "1", "2" … (the question's ID), in order;
- ``translate``: the header words of every table in German, French, Dutch or Japanese (``relabel``'s words,
  all of them one language), and in Japanese the cues in its script: "？" for "?", full-width digits in
  the ID cells and the typed numbers ("１．２").
- ``bilingual``: the header words of every table kept, their translation (``relabel``'s words, German, French,
  Dutch or Japanese) added under them in the same cell as a paragraph of its own ("Yes" over "はい"), as a
  bilingual form prints them; an option is then named by its translation, the last words of its label.

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
import unicodedata
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from engine.bench.document_intake import TRUTH as WORDS_TRUTH
from engine.bench.document_intake import _norm, bench_file, score
from engine.bench.document_places import TRUTH as PLACES_TRUTH
from engine.bench.document_places import Addresses, own_elements, placed, ratio, score_places
from engine.core.limits import Limits
from engine.questionnaire import read_questionnaire
from engine.questionnaire.records import QuestionnaireError

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
W14_NS = "http://schemas.microsoft.com/office/word/2010/wordml"
W = f"{{{W_NS}}}"
W14 = f"{{{W14_NS}}}"
KINDS = (
    "relabel", "boxes", "columns", "split", "header_mark", "spacers", "plain_headers", "ids", "numbering",
    "typed_numbers", "empty_rows", "number_ids", "merge_header", "merge_question", "nested", "header_table", "font",
    "header_repeat", "option_text", "number_column", "translate", "bilingual",
)  # fmt: skip
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
    folded: dict[etree._Element, etree._Element] = field(default_factory=dict)  # a removed element -> its cell
    row_ids: dict[etree._Element, str] = field(default_factory=dict)  # a numbered row -> the number written


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


def relabel(root: etree._Element, rng: random.Random, language: str | None = None) -> Rewritten:
    """Header cells whose whole text is a column word, written in one other language (or a synonym)."""
    language = language or rng.choice(LANGUAGES)
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


def _table_like(tbl: etree._Element) -> etree._Element:
    """A new, empty table with ``tbl``'s properties and grid (the same look and columns)."""
    new = etree.Element(f"{W}tbl")
    for part in (tbl.find(f"{W}tblPr"), tbl.find(f"{W}tblGrid")):
        if part is not None:
            new.append(copy.deepcopy(part))
    return new


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
        second = _table_like(tbl)
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


# --- the rewrites of the second round: typed numbers, empty rows, merged cells, nesting, fonts ----


_NUM_FORMATS = ("decimal", "lowerLetter", "upperLetter")


def _count(n: int, fmt: str) -> str:
    if fmt == "decimal":
        return str(n)
    letter = chr(ord("a") + (n - 1) % 26) * (1 + (n - 1) // 26)
    return letter.upper() if fmt == "upperLetter" else letter


def _plain_lists(numbering_part: etree._Element, styles_xml: str) -> dict[str, dict[int, tuple[str, str, int]]]:
    """numId -> {level: (format, text, start)} of the lists this rewrite can count by itself: decimal or
    letter levels, no override, no restart rule, no style numbering them, their abstract list theirs alone."""
    abstracts = {a.get(f"{W}abstractNumId"): a for a in numbering_part.findall(f"{W}abstractNum")}
    users: dict[str, int] = {}
    for num in numbering_part.findall(f"{W}num"):
        ref = num.find(f"{W}abstractNumId")
        users[ref.get(f"{W}val") if ref is not None else ""] = (
            users.get(ref.get(f"{W}val") if ref is not None else "", 0) + 1
        )
    out = {}
    for num in numbering_part.findall(f"{W}num"):
        num_id, ref = num.get(f"{W}numId"), num.find(f"{W}abstractNumId")
        a = abstracts.get(ref.get(f"{W}val")) if ref is not None else None
        if a is None or users[ref.get(f"{W}val")] != 1 or num.find(f"{W}lvlOverride") is not None:
            continue
        if a.find(f"{W}numStyleLink") is not None or a.find(f"{W}styleLink") is not None:
            continue
        if re.search(rf'<w:numId w:val="{re.escape(num_id)}"\s*/>', styles_xml):
            continue
        levels = {}
        for lvl in a.findall(f"{W}lvl"):
            fmt, text, start = (lvl.find(f"{W}{k}") for k in ("numFmt", "lvlText", "start"))
            if lvl.find(f"{W}lvlRestart") is not None or lvl.find(f"{W}isLgl") is not None:
                levels = {}
                break
            levels[int(lvl.get(f"{W}ilvl"))] = (
                fmt.get(f"{W}val") if fmt is not None else "decimal",
                text.get(f"{W}val") if text is not None else "",
                int(start.get(f"{W}val")) if start is not None else 1,
            )
        if levels:
            out[num_id] = levels
    return out


def _label(levels: dict[int, tuple[str, str, int]], counters: dict[int, int], level: int) -> str | None:
    """The text Word draws for ``level`` given the counters, or None when a level it draws is no count."""
    fmt, text, _ = levels[level]
    if fmt not in _NUM_FORMATS or not text or "%" not in text:
        return None
    out = text
    for k in re.findall(r"%(\d)", text):
        at = int(k) - 1
        if at not in levels or levels[at][0] not in _NUM_FORMATS:
            return None
        out = out.replace(f"%{k}", _count(counters.get(at, levels[at][2]), levels[at][0]))
    return out


def typed_numbers(
    root: etree._Element, rng: random.Random, numbering_part: etree._Element | None = None, styles_xml: str = ""
) -> Rewritten:
    """Word's numbering written out as typed numbers: each paragraph of a list this rewrite counts by
    itself (:func:`_plain_lists`) given its number as text ("3.1. Do you …", "b) …"), its numbering removed."""
    out = Rewritten()
    if numbering_part is None:
        return out
    lists = _plain_lists(numbering_part, styles_xml)
    boxed = {p for box in root.iter(f"{W}txbxContent") for p in box.iter(f"{W}p")}
    counters: dict[str, dict[int, int]] = {}
    todo = []
    for p in root.iter(f"{W}p"):
        pr = p.find(f"{W}pPr/{W}numPr")
        num = pr.find(f"{W}numId") if pr is not None else None
        if num is None or num.get(f"{W}val") not in lists:
            continue
        num_id, ilvl = num.get(f"{W}val"), pr.find(f"{W}ilvl")
        level = int(ilvl.get(f"{W}val")) if ilvl is not None else 0
        levels = lists[num_id]
        if level not in levels:
            lists.pop(num_id)
            continue
        c = counters.setdefault(num_id, {})
        c[level] = c[level] + 1 if level in c else levels[level][2]
        for deeper in [k for k in c if k > level]:
            c.pop(deeper)
        todo.append((p, pr, num_id, _label(levels, c, level)))
    for p, pr, num_id, label in todo:
        if num_id not in lists or p in boxed or not label or not _text(p).strip():
            continue
        pr.getparent().remove(pr)
        run = etree.fromstring(f'<w:r xmlns:w="{W_NS}"><w:t xml:space="preserve">{label} </w:t></w:r>')
        ppr = p.find(f"{W}pPr")
        p.insert(p.index(ppr) + 1 if ppr is not None else 0, run)
        out.changed += 1
    return out


def _empty_cell(tc: etree._Element) -> bool:
    """A cell with no words and nothing to tick or fill (no field, content control, symbol, drawing)."""
    return not _text(tc).strip() and not any(
        True for _ in tc.iter(f"{W}fldChar", f"{W}sdt", f"{W}sym", f"{W}drawing", f"{W}object", f"{W}tbl")
    )


def _blank(tc: etree._Element, merge: str | None = None) -> etree._Element:
    """A new empty cell shaped as ``tc`` (its properties, vertical merge removed or set to ``merge``)."""
    cell = etree.Element(f"{W}tc")
    pr = tc.find(f"{W}tcPr")
    pr = copy.deepcopy(pr) if pr is not None else etree.Element(f"{W}tcPr")
    for v in pr.findall(f"{W}vMerge"):
        pr.remove(v)
    if merge is not None:
        v = etree.Element(f"{W}vMerge")
        if merge == "restart":
            v.set(f"{W}val", "restart")
        pr.insert(len([c for c in pr if etree.QName(c).localname in ("cnfStyle", "tcW", "gridSpan", "hMerge")]), v)
    cell.append(pr)
    etree.SubElement(cell, f"{W}p")
    return cell


def _blank_row(tr: etree._Element, merge: str | None = None) -> etree._Element:
    row = etree.Element(f"{W}tr")
    for part in (tr.find(f"{W}tblPrEx"), tr.find(f"{W}trPr")):
        if part is not None:
            kept = copy.deepcopy(part)
            for m in kept.findall(f"{W}tblHeader"):
                kept.remove(m)
            row.append(kept)
    for tc in own_elements(tr, f"{W}tc"):
        row.append(_blank(tc, merge))
    return row


def _body_rows(tbl: etree._Element) -> list[etree._Element]:
    """The rows under the table's column header (:func:`_column_header`, or its first row)."""
    rows = own_elements(tbl, f"{W}tr")
    head = _column_header(tbl) or rows[:1]
    return rows[len(head) :]


def empty_rows(root: etree._Element, rng: random.Random) -> Rewritten:
    """An empty row (every cell empty, shaped as the row under it) inserted before some rows that start
    with words, in tables with no vertical merge: a spacer between questions or sections."""
    out = Rewritten()
    for tbl in list(root.iter(f"{W}tbl")):
        if tbl.find(f".//{W}vMerge") is not None or tbl.find(f".//{W}tbl") is not None:
            continue
        body = _body_rows(tbl)
        for tr in body[1:]:
            if _starts(tr) and tr.getparent() is tbl and rng.random() < 0.3:
                tr.addprevious(_blank_row(tr))
                out.changed += 1
    return out


def _span(tc: etree._Element) -> int:
    s = tc.find(f"{W}tcPr/{W}gridSpan")
    return int(s.get(f"{W}val", "1")) if s is not None else 1


def merge_header(root: etree._Element, rng: random.Random, keep=None) -> Rewritten:
    """A section header row (words in its first cell only, the others empty) made one cell spanning the
    table (``w:gridSpan``); never a row ``keep`` says holds a question of the truth."""
    out = Rewritten()
    for tbl in list(root.iter(f"{W}tbl")):
        n = _grid(tbl)
        if n < 2:
            continue
        for tr in _body_rows(tbl):
            cells = own_elements(tr, f"{W}tc")
            if tr.find(f".//{W}vMerge") is not None or (tr.getnext() is not None and _continues(tr.getnext())):
                continue
            if len(cells) < 2 or not _text(cells[0]).strip() or not all(_empty_cell(c) for c in cells[1:]):
                continue
            if sum(_span(c) for c in cells) != n or (keep is not None and keep(tr)):
                continue
            for c in cells[1:]:
                tr.remove(c)
            pr = cells[0].find(f"{W}tcPr")
            if pr is None:
                pr = etree.Element(f"{W}tcPr")
                cells[0].insert(0, pr)
            for s in pr.findall(f"{W}gridSpan"):
                pr.remove(s)
            span = etree.Element(f"{W}gridSpan")
            span.set(f"{W}val", str(n))
            w = pr.find(f"{W}tcW")
            (w.addnext(span) if w is not None else pr.insert(0, span))
            out.changed += 1
    return out


def merge_question(root: etree._Element, rng: random.Random) -> Rewritten:
    """Some question rows made two rows tall by Word's vertical merge: each of the row's cells merged
    with a new cell of a new row under it (``w:vMerge``), in tables with no merge yet."""
    out = Rewritten()
    for tbl in list(root.iter(f"{W}tbl")):
        if tbl.find(f".//{W}vMerge") is not None or tbl.find(f".//{W}tbl") is not None:
            continue
        for tr in _body_rows(tbl):
            if not _starts(tr) or len(own_elements(tr, f"{W}tc")) < 2 or rng.random() >= 0.4:
                continue
            for tc in own_elements(tr, f"{W}tc"):
                pr = tc.find(f"{W}tcPr")
                if pr is None:
                    pr = etree.Element(f"{W}tcPr")
                    tc.insert(0, pr)
                v = etree.Element(f"{W}vMerge")
                v.set(f"{W}val", "restart")
                pr.insert(
                    len([c for c in pr if etree.QName(c).localname in ("cnfStyle", "tcW", "gridSpan", "hMerge")]), v
                )
            tr.addnext(_blank_row(tr, merge="continue"))
            out.changed += 1
    return out


def nested(root: etree._Element, rng: random.Random) -> Rewritten:
    """Top-level tables each put inside a one-cell layout table (the table, then an empty paragraph, in
    its one cell), as a form designer frames a section."""
    out = Rewritten()
    tops = [t for t in root.iter(f"{W}tbl") if not any(a.tag == f"{W}tbl" for a in t.iterancestors())]
    for tbl in tops:
        if rng.random() < 0.4 and out.changed:
            continue
        width = sum(int(g.get(f"{W}w", "0") or 0) for g in tbl.findall(f"{W}tblGrid/{W}gridCol")) or 9000
        frame = etree.fromstring(
            f'<w:tbl xmlns:w="{W_NS}"><w:tblPr><w:tblW w:w="0" w:type="auto"/><w:tblLayout w:type="fixed"/>'
            f'</w:tblPr><w:tblGrid><w:gridCol w:w="{width + 200}"/></w:tblGrid><w:tr><w:tc><w:tcPr>'
            f'<w:tcW w:w="{width + 200}" w:type="dxa"/></w:tcPr></w:tc></w:tr></w:tbl>'
        )
        tbl.addprevious(frame)
        cell = frame.find(f"{W}tr/{W}tc")
        cell.append(tbl)
        cell.append(etree.Element(f"{W}p"))
        out.changed += 1
    return out


def header_table(root: etree._Element, rng: random.Random, keep=None) -> Rewritten:
    """A table's column header row(s) moved into a one-row table of their own just above it (an empty
    paragraph between them, or none: drawn); never rows ``keep`` says hold a question of the truth."""
    out = Rewritten()
    gap = rng.random() < 0.5
    for tbl in list(root.iter(f"{W}tbl")):
        rows = own_elements(tbl, f"{W}tr")
        head = _column_header(tbl)
        if not head or head[0] is not rows[0] or len(rows) < len(head) + 2 or tbl.getparent().tag == f"{W}tc":
            continue
        if keep is not None and any(keep(tr) for tr in head):
            continue
        top = _table_like(tbl)
        for tr in head:
            top.append(tr)  # moved: the same elements
        tbl.addprevious(top)
        if gap:
            tbl.addprevious(etree.Element(f"{W}p"))
        out.changed += 1
    out.labels = {"gap": "paragraph" if gap else "none"}
    return out


def font(root: etree._Element, rng: random.Random) -> Rewritten:
    """Each table's text in another font size, its column header in capitals: typed in capitals (the
    options' labels mapped) or drawn so (``w:caps``)."""
    out = Rewritten()
    size = rng.choice((16, 18, 20, 24, 28))
    typed = rng.random() < 0.5
    for tbl in root.iter(f"{W}tbl"):
        for r in tbl.iter(f"{W}r"):
            pr = r.find(f"{W}rPr")
            if pr is None:
                pr = etree.Element(f"{W}rPr")
                r.insert(0, pr)
            for old in pr.findall(f"{W}sz") + pr.findall(f"{W}szCs"):
                pr.remove(old)
            for tag in ("sz", "szCs"):
                etree.SubElement(pr, f"{W}{tag}").set(f"{W}val", str(size))
            out.changed += 1
        for tr in _column_header(tbl) if tbl.getparent().tag != f"{W}tc" else []:
            for tc in own_elements(tr, f"{W}tc"):
                old = " ".join(_text(tc).split())
                if not old or old.upper() == old:
                    continue
                if typed:
                    for t in tc.iter(f"{W}t"):
                        t.text = (t.text or "").upper()
                    out.labels[old] = " ".join(_text(tc).split())
                else:
                    for r in tc.iter(f"{W}r"):
                        r.find(f"{W}rPr").append(etree.Element(f"{W}caps"))
    return out


def number_ids(root: etree._Element, rng: random.Random) -> Rewritten:
    """Each letter ID ("A-1", "C-2.3") typed alone in the first text of a paragraph (an ID cell, or an
    ID before its question's words) numbered instead ("1.1", "3.2.3"); one quoted later is left."""
    out = Rewritten()
    for p in root.iter(f"{W}p"):
        first = next((t for t in p.iter(f"{W}t") if (t.text or "").strip()), None)
        m = LETTER_ID.match((first.text or "").strip()) if first is not None else None
        if m and out.ids.get(m.group(0), None) in (None, f"{ord(m.group(1)) - 64}.{m.group(2)}"):
            new = f"{ord(m.group(1)) - 64}.{m.group(2)}"
            first.text = first.text.replace(m.group(0), new, 1)
            out.ids[m.group(0)] = new
            out.changed += 1
    return out


# --- the rewrites of the fourth round: Yes/No tables and rows of response boxes, written otherwise --


def _mid_row(rows: list[etree._Element], first: int) -> int | None:
    """The body row halfway down that starts words and continues no merge (a page break's place)."""
    k = first + (len(rows) - first) // 2
    while k < len(rows) - 1 and (_continues(rows[k]) or not _starts(rows[k])):
        k += 1
    return k if first < k < len(rows) and not _continues(rows[k]) and _starts(rows[k]) else None


def _section_row(tbl: etree._Element, like: etree._Element, title: str) -> etree._Element:
    """A new row of one cell spanning the table, ``title`` in bold."""
    row = etree.Element(f"{W}tr")
    prex = like.find(f"{W}tblPrEx")
    if prex is not None:
        row.append(copy.deepcopy(prex))
    row.append(etree.fromstring(
        f'<w:tc xmlns:w="{W_NS}"><w:tcPr><w:gridSpan w:val="{_grid(tbl)}"/></w:tcPr><w:p><w:r><w:rPr><w:b/>'
        f"</w:rPr><w:t>{title}</w:t></w:r></w:p></w:tc>"
    ))  # fmt: skip
    return row


def header_repeat(root: etree._Element, rng: random.Random) -> Rewritten:
    """In each table of six rows or more whose column header can be told, the header row(s) written
    again before a row halfway down (a page break's repeat, typed), or a "Section 2" row spanning
    the table there (drawn once per document)."""
    out = Rewritten()
    how = rng.choice(("repeat", "section"))
    for tbl in list(root.iter(f"{W}tbl")):
        rows = own_elements(tbl, f"{W}tr")
        head = _column_header(tbl)
        if len(rows) < 6 or not head or head[0] is not rows[0] or _grid(tbl) < 2:
            continue
        k = _mid_row(rows, len(head) + 1)
        if k is None:
            continue
        if how == "repeat":
            for tr in head:
                row = _copy_row(tr)
                for m in row.findall(f"{W}trPr/{W}tblHeader"):
                    m.getparent().remove(m)
                rows[k].addprevious(row)
        else:
            rows[k].addprevious(_section_row(tbl, rows[k], "Section 2"))
        out.changed += 1
    out.labels = {"how": how}
    return out


def _labelled_boxes(tc: etree._Element) -> list[tuple[str, bool]] | None:
    """A cell of two or more boxes each beside its short label ("☐ Yes ☐ No", or "Yes ☐ No ☐"), and
    nothing else: (label, ticked) per box; None for any other cell."""
    found = _boxes(tc)
    if len(found) < 2 or tc.find(f".//{W}tbl") is not None:
        return None
    starts = {els[0]: ticked for _, els, ticked in found}  # (the elements held: lxml keeps their proxies)
    inside = {x for _, els, _ in found for el in els for x in el.iter()}
    segments: list[str] = [""]
    ticks: list[bool] = []
    for el in tc.iter():
        if el in starts:
            segments.append("")
            ticks.append(starts[el])
        elif el.tag == f"{W}t" and el not in inside:
            segments[-1] += el.text or ""
    segments = [" ".join(x.split()) for x in segments]
    labels = segments[1:] if not segments[0] else segments[:-1] if not segments[-1] else None
    if labels is None or not all(0 < len(x) <= 30 for x in labels) or len(labels) != len(ticks):
        return None
    return list(zip(labels, ticks, strict=True))


def option_text(root: etree._Element, rng: random.Random) -> Rewritten:
    """Each table cell of labelled boxes, none ticked, written as its options' text ("Yes / No"), the
    boxes and their paragraphs gone: the chosen option is written in their place."""
    out = Rewritten()
    sep = rng.choice((" / ", "/", " or "))
    for tc in list(root.iter(f"{W}tc")):
        boxed = _labelled_boxes(tc)
        if not boxed or any(ticked for _, ticked in boxed):
            continue
        paras = own_elements(tc, f"{W}p")
        for el in [tc, *tc.iter(f"{W}p", f"{W}tbl")]:
            out.folded[el] = tc
        first = paras[0]
        for p in paras[1:]:
            tc.remove(p)
        for child in [c for c in first if c.tag != f"{W}pPr"]:
            first.remove(child)
        run = etree.SubElement(first, f"{W}r")
        t = etree.SubElement(run, f"{W}t")
        t.text = sep.join(label for label, _ in boxed)
        t.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
        out.changed += 1
    out.labels = {"separator": sep}
    return out


_ID_LIKE = re.compile(r"^\s*(?:\(?[A-Za-z0-9]{1,4}[.)\-]|\d|[A-Z]{1,4}-\d)")


def _uniform(tbl: etree._Element) -> bool:
    """Every row one cell per grid column (none merged), or one cell spanning the table; no nesting."""
    n = _grid(tbl)
    for tr in own_elements(tbl, f"{W}tr"):
        cells = own_elements(tr, f"{W}tc")
        spans = [_span(c) for c in cells]
        if not (len(cells) == n and set(spans) == {1}) and not (len(cells) == 1 and spans[0] == n):
            return False
    return n >= 2 and tbl.find(f".//{W}tbl") is None and tbl.find(f".//{W}vMerge") is None


def number_column(root: etree._Element, rng: random.Random, keep=None) -> Rewritten:
    """A narrow first column "No." / "#" put before the question column of each uniform table: each row
    of a question (``keep``; else each body row starting with words) numbered 1, 2 … in order, when its
    first cell is the question's words (no ID typed before them)."""
    out = Rewritten()
    title = rng.choice(("No.", "#", "Nr."))
    for tbl in list(root.iter(f"{W}tbl")):
        if not _uniform(tbl):
            continue
        rows = own_elements(tbl, f"{W}tr")
        head = _column_header(tbl) or rows[:1]
        body = [tr for tr in rows[len(head) :] if len(own_elements(tr, f"{W}tc")) > 1]
        asked = [tr for tr in body if (keep(tr) if keep is not None else _starts(tr))]
        firsts = [_text(own_elements(tr, f"{W}tc")[0]).strip() for tr in asked]
        if len(asked) < 2 or not all(len(x) > 12 and not _ID_LIKE.match(x) for x in firsts):
            continue
        grid = tbl.find(f"{W}tblGrid")
        grid.insert(0, etree.fromstring(f'<w:gridCol xmlns:w="{W_NS}" w:w="567"/>'))
        for tr in rows:
            cells = own_elements(tr, f"{W}tc")
            if len(cells) == 1:
                cells[0].find(f"{W}tcPr/{W}gridSpan").set(f"{W}val", str(_grid(tbl)))
                continue
            number = str(asked.index(tr) + 1) if tr in asked else title if tr in head else ""
            cell = _blank(cells[0])
            w = cell.find(f"{W}tcPr/{W}tcW")
            if w is not None:
                w.set(f"{W}w", "567")
                w.set(f"{W}type", "dxa")
            if number:
                etree.SubElement(etree.SubElement(cell.find(f"{W}p"), f"{W}r"), f"{W}t").text = number
            cells[0].addprevious(cell)
            if tr in asked:
                out.row_ids[tr] = number
        out.changed += 1
    out.labels = {"title": title}
    return out


_FULL_WIDTH = str.maketrans("0123456789.?", "０１２３４５６７８９．？")


def translate(root: etree._Element, rng: random.Random) -> Rewritten:
    """Every table's header words in one language (German, French, Dutch or Japanese: ``relabel``'s
    words); in Japanese, "?" written "？" and the ID cells' and typed numbers' digits full-width."""
    language = rng.choice(("de", "fr", "nl", "ja"))
    out = relabel(root, random.Random(0), language)
    if language != "ja":
        return out
    for t in root.iter(f"{W}t"):
        if t.text and "?" in t.text:
            t.text = t.text.replace("?", "？")
            out.changed += 1
    for tc in root.iter(f"{W}tc"):  # an ID cell alone ("4.1")
        old = _text(tc).strip()
        if (
            tc.find(f".//{W}tc") is None
            and ID_CELL.match(old)
            and out.ids.get(old) in (None, old.translate(_FULL_WIDTH))
        ):
            _set_text(tc, old.translate(_FULL_WIDTH))
            out.ids[old] = old.translate(_FULL_WIDTH)
            out.changed += 1
    for p, m in _hand_numbered(root):  # "3.1 Do you …": the number typed full-width
        first = next(iter(p.iter(f"{W}t")))
        number = m.group(0).strip()
        first.text = number.translate(_FULL_WIDTH) + first.text[len(number) :]
        out.ids.setdefault(number.rstrip(".)"), number.rstrip(".)").translate(_FULL_WIDTH))
        out.changed += 1
    return out


def bilingual(root: etree._Element, rng: random.Random) -> Rewritten:
    """Every table's header words kept, their translation (German, French, Dutch or Japanese:
    ``relabel``'s words) added under them in the cell, a paragraph of its own."""
    language = rng.choice(("de", "fr", "nl", "ja"))
    out = Rewritten()
    for tbl in root.iter(f"{W}tbl"):
        for tr in own_elements(tbl, f"{W}tr")[:4]:  # as relabel: a header one or two rows deep, under a title
            for tc in own_elements(tr, f"{W}tc"):
                if tc.find(f".//{W}fldChar") is not None or tc.find(f".//{W}sdt") is not None:
                    continue
                old = " ".join(_text(tc).split())
                new = RELABEL.get(old.casefold(), {}).get(language)
                paragraphs = own_elements(tc, f"{W}p")
                if new and new != old and paragraphs:
                    under = copy.deepcopy(paragraphs[-1])
                    paragraphs[-1].addnext(under)
                    _set_text(under, new)
                    out.labels[old] = new
                    out.changed += 1
    return out


LETTER_ID = re.compile(r"^([A-Z])-(\d{1,3}(?:\.\d{1,3})*)$")


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
    "typed_numbers": typed_numbers,
    "empty_rows": empty_rows,
    "number_ids": number_ids,
    "merge_header": merge_header,
    "merge_question": merge_question,
    "nested": nested,
    "header_table": header_table,
    "font": font,
    "header_repeat": header_repeat,
    "option_text": option_text,
    "number_column": number_column,
    "translate": translate,
    "bilingual": bilingual,
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
    folded: frozenset = frozenset()  # old addresses of the boxes (and their cell) written as text
    row_ids: dict[tuple, str] = field(default_factory=dict)  # (t, r) of a numbered row -> its number

    @property
    def labels(self) -> dict[str, str]:
        """Old label -> new (as written: "YES", not "Yes"): relabelled, then typed in capitals."""
        out = {
            k: v
            for kind in ("relabel", "translate", "bilingual")
            if kind in self.done
            for k, v in self.done[kind].labels.items()
        }
        caps = self.done["font"].labels if "font" in self.done else {}
        return {**{k: caps.get(v, v) for k, v in out.items()}, **{k: v for k, v in caps.items() if k not in out}}

    @property
    def ids(self) -> dict[str, str]:
        return {k: v for r in self.done.values() for k, v in r.ids.items()}


def _styles(path: Path) -> str:
    with zipfile.ZipFile(path) as zf:
        return zf.read("word/styles.xml").decode("utf-8", "replace") if "word/styles.xml" in zf.namelist() else ""


def holds_question(truth: tuple[str, list] | None, before: dict[etree._Element, tuple]):
    """Whether a row holds a question of ``truth`` (places: an address in the row; words: the row's
    words hold a word of an item): the rows ``merge_header`` and ``header_table`` leave alone."""
    if truth is None:
        return None
    kind, items = truth
    if kind == "places":
        rows = set()
        for item in items:
            for a in [item.get("answer"), item.get("at"), *item.get("choice", [])]:
                if a and a[0] != "p":
                    rows.add(tuple(a[:2]))
        return lambda tr: any(before.get(tc, ("p",))[:2] in rows for tc in own_elements(tr, f"{W}tc"))
    words = {_norm(w) for i in items for w in ([i] if isinstance(i, str) else i)} - {""}
    return lambda tr: any(w in _norm(_text(tr)) for w in words)  # a word of an item: its label, its part


def rewrite(
    src: Path, kinds: tuple[str, ...], seed: str, dest: Path, truth: tuple[str, list] | None = None
) -> Rewrite | None:
    """``src`` rewritten by ``kinds`` (seeded by ``seed``) into ``dest``; None when a kind changes nothing.
    ``truth`` (its kind and items) keeps ``merge_header`` and ``header_table`` off the rows that hold a
    question."""
    root, lists = _parse(src), _numbering(src)
    before = addresses(root)
    done = {}
    for kind in kinds:
        rng = random.Random(f"{seed}:{kind}")
        if kind == "numbering":
            done[kind] = numbering(root, rng, lists)
        elif kind == "typed_numbers":
            done[kind] = typed_numbers(root, rng, lists, _styles(src))
        elif kind in ("merge_header", "header_table", "number_column"):
            done[kind] = REWRITES[kind](root, rng, holds_question(truth, before))
        else:
            done[kind] = REWRITES[kind](root, rng)
        if not done[kind].changed:
            return None
    parts = {"word/document.xml": root}
    if ("numbering" in kinds or "typed_numbers" in kinds) and lists is not None:
        parts["word/numbering.xml"] = lists
    _save(src, parts, dest)
    after = addresses(root)
    moved = carried(before, after)
    folded = {before[el]: after[tc] for r in done.values() for el, tc in r.folded.items() if el in before}
    rows = {}
    for r in done.values():
        for tr, number in r.row_ids.items():
            rows[after[own_elements(tr, f"{W}tc")[0]][:2]] = number
    return Rewrite(dest, kinds, done, {**moved, **folded}, frozenset(folded), rows)


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
        if "choice" in item and {tuple(a) for a in item["choice"]} <= rw.folded:  # the boxes now the options' text
            new["answer"] = at(item["choice"][0])  # the pick written in place of the options ("Yes / No")
            new.pop("choice")
        elif "choice" in item:
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


def _same_id(a: str, b: str) -> bool:
    """The same ID, whatever the width of its digits ("１．２" is "1.2": the script's, not the number's)."""
    return unicodedata.normalize("NFKC", a) == unicodedata.normalize("NFKC", b)


def _same_text(x, y, rw: Rewrite, number: str | None = None) -> bool:
    """The same ID and text, IDs mapped; a number typed before the text (``numbering``: now drawn by
    Word) may have moved into the ID or be drawn only; ``number``: the ID a ``number_column`` wrote
    in the question's row (the question had none)."""
    text, ident = _norm(map_ids(x.text, rw.ids)), map_ids(x.id or "", rw.ids) or number or ""
    if _norm(y.text) == text and _same_id(y.id or "", ident):
        return True
    if "typed_numbers" in rw.kinds and (  # Word's number now typed: read into the ID or the text
        _norm(f"{y.id or ''} {y.text}") == _norm(f"{ident} {x.text}") or (_norm(y.text) == text and not ident)
    ):
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
        number = next((rw.row_ids[a[:2]] for a in sorted(want, key=str) if a[0] != "p" and a[:2] in rw.row_ids), None)
        text_ok = _same_text(x, q, rw, number) and sorted(q.choices) == sorted(
            rw.labels.get(" ".join(c.split()), c) for c in x.choices
        )  # a relabelled option read by its new label; in any order (the order of its columns or boxes, which
        # ``columns`` changes: an option is written by its label into its own box, the places compared below)
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
        kind, truth = table[name]
        rw = rewrite(src, kinds, f"{n}", dest, (kind, truth))
        if rw is None:
            continue
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


def _figures(rows: list[dict], when: str) -> dict:
    places = [r[when] for r in rows if r["truth_kind"] == "places"]
    every = [r[when] for r in rows]
    truth, found, matched = (sum(s[k] for s in every) for k in ("truth", "found", "matched"))
    return {
        "recall": ratio(matched, truth),
        "precision": ratio(matched, found),
        "usable": ratio(sum(s["usable_n"] for s in places), sum(s["truth"] for s in places)),
    }


def _trips(rows: list[dict], when: str) -> dict:
    trips = [r["round_trip"][when] for r in rows if "round_trip" in r]
    ok = [t for t in trips if "export_error" not in t]
    back = sum(t["texts_back"] + t["choices_back"] for t in ok)
    return {
        "export_refused": len(trips) - len(ok),
        "read_back": ratio(back, sum(t["texts"] + t["choices"] for t in ok)),
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
        "same": ratio(sum(r["same"]["same_n"] for r in done), sum(r["same"]["questions"] for r in done)),
        "text_same": ratio(sum(r["same"]["text_same_n"] for r in done), sum(r["same"]["questions"] for r in done)),
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
