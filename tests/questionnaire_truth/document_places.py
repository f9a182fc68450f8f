"""Truth of where each question's answer goes in the Word questionnaires added for issue #55, listed
from each document's raw WordprocessingML with the standard library (zipfile + ElementTree: independent
of engine/questionnaire, which uses lxml and its own rules).

    python3 tests/questionnaire_truth/document_places.py ../shared/data/questionnaires > tests/questionnaire_truth/places.json

Addresses (the same in the truth and in the bench, engine/bench/document_places.py):

- a table cell is ``[t, r, c]``: ``t`` the table's index among every ``w:tbl`` of word/document.xml in
  document order (nested tables counted where they start), ``r`` the row's index among that table's own
  ``w:tr`` (not a nested table's), ``c`` the cell's index among that row's own ``w:tc`` (not its grid
  column: a cell spanning two grid columns is one cell);
- a paragraph outside any table is ``["p", n]``: ``n`` its 1-based ordinal among every ``w:p`` of the
  document in document order (the ordinal the Word reader gives a question's row).

Each question is ``{"text": first words, "choice": [addresses of its option boxes/cells], "options":
[labels], "answer": address of its text place}`` (``choice`` or ``answer`` absent when it has none).
A question found matches an item when one of its answer places lies at one of the item's addresses;
it is *usable* when its choice's places are exactly the item's ``choice`` cells and its text place is
the item's ``answer``.

The rule per file is stated in its ``rule`` (written before the reader was changed, issue #55 item 7);
the items are what the rule lists, never edited to match a reader.
"""

from __future__ import annotations

import json
import re
import sys
import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
W14 = "{http://schemas.microsoft.com/office/word/2010/wordml}"
BOX_GLYPH = "\uf06f"  # Wingdings box drawn as a private-use character (the GSA checklist)


# ------------------------------------------------------------------------------------ reading


class Doc:
    def __init__(self, path: Path) -> None:
        self.root = ET.fromstring(zipfile.ZipFile(path).read("word/document.xml"))
        self.tables = list(self.root.iter(W + "tbl"))
        self.para_no = {p: n for n, p in enumerate(self.root.iter(W + "p"), 1)}
        self.parent = {c: p for p in self.root.iter() for c in p}

    def rows(self, t: int) -> list[ET.Element]:
        tbl = self.tables[t]
        return [tr for tr in own(tbl, W + "tr", W + "tbl")]

    def cells(self, tr: ET.Element) -> list[ET.Element]:
        return [tc for tc in own(tr, W + "tc", W + "tbl")]

    def in_table(self, el: ET.Element) -> bool:
        p = self.parent.get(el)
        while p is not None:
            if p.tag == W + "tbl":
                return True
            p = self.parent.get(p)
        return False


def own(el: ET.Element, tag: str, stop: str) -> list[ET.Element]:
    """``el``'s descendants of ``tag`` not inside a nested ``stop`` element."""
    out = []
    for child in el:
        if child.tag == tag:
            out.append(child)
        elif child.tag != stop:
            out.extend(own(child, tag, stop))
    return out


def text(el: ET.Element) -> str:
    out = []
    for x in el.iter():
        if x.tag == W + "t":
            out.append(x.text or "")
        elif x.tag == W + "tab":
            out.append(" ")
    return " ".join("".join(out).replace(BOX_GLYPH, " ").replace("\u2610", " ").split())


def sym_box(el: ET.Element) -> bool:
    """Whether ``el`` holds a box drawn as a symbol (``w:sym``, Wingdings F06F), which ``text`` does not read."""
    return any((x.get(W + "char") or "").upper() == "F06F" for x in el.iter(W + "sym"))


def checkboxes(el: ET.Element) -> int:
    """Legacy FORMCHECKBOX fields and checkbox content controls inside ``el``."""
    return sum(1 for x in el.iter(W + "checkBox")) + sum(1 for x in el.iter(W14 + "checkbox"))


def textfields(el: ET.Element) -> int:
    return sum(1 for x in el.iter(W + "instrText") if "FORMTEXT" in (x.text or ""))


def field_result_text(el: ET.Element) -> str:
    """The text outside form fields' results (a FORMTEXT shows '     ' or a default)."""
    out, inside = [], 0
    for x in el.iter():
        if x.tag == W + "fldChar":
            kind = x.get(W + "fldCharType")
            inside += 1 if kind == "begin" else (-1 if kind == "end" else 0)
        elif x.tag == W + "t" and inside == 0:
            out.append(x.text or "")
    return " ".join("".join(out).split())


def grid_columns(cells: list[ET.Element]) -> list[int]:
    """The grid column each cell starts at (its row's gridBefore and the cells' gridSpan)."""
    out, col = [], 0
    for c in cells:
        out.append(col)
        span = c.find(f"{W}tcPr/{W}gridSpan")
        col += int(span.get(W + "val")) if span is not None else 1
    return out


def first_words(s: str, n: int = 6) -> str:
    return " ".join(s.split()[:n])


# ------------------------------------------------------------------------------------ rules

PCI_RULE = (
    "PCI forms (SAQ and AOC), by the document's own fields: (1) a table row with two or more cells that each hold "
    "one checkbox field and no text is one question, its options those cells (labels: the header row's), its "
    "text place the row's cell that holds only a text field (Part 4's 'Remediation Date and Actions'), if any; "
    "(2) rows of a table whose first cell is a lone checkbox beside a statement, or cells starting with a "
    "checkbox and its label stacked in one column of consecutive rows, are one question (select), anchored at "
    "the first (text fields inside an option's statement are not counted); (3) a cell holding 'Yes' and 'No' checkboxes is one question (its text field in the same cell, "
    "if any, is its text place); (4) a label ending with ':' whose next cell holds only a text field, a cell "
    "holding a label and its text field, a prompt cell beside a cell holding only a text field, and a paragraph "
    "outside tables that holds a text field are one text question each. Not questions: lists of records (a "
    "header row over two or more rows of text-field cells only), example rows, signature rows (a cell 'Signature "
    "of …') and the date field beside a signature."
)


def pci(doc: Doc) -> list[dict]:
    items: list[dict] = []
    for t in range(len(doc.tables)):
        rows = doc.rows(t)
        grid = [doc.cells(tr) for tr in rows]
        header_labels: dict[int, str] = {}
        records = _records(grid)
        box_list: dict | None = None
        for r, cells in enumerate(grid):
            texts = [text(c) for c in cells]
            lone_box = [i for i, c in enumerate(cells) if checkboxes(c) == 1 and not field_result_text(c)]
            lone_field = [
                i for i, c in enumerate(cells) if textfields(c) == 1 and not field_result_text(c) and not checkboxes(c)
            ]
            cols = grid_columns(cells)
            if (
                not lone_box
                and not any(checkboxes(c) or textfields(c) for c in cells)
                and sum(bool(x) for x in texts) >= 2
            ):
                header_labels = {
                    cols[i]: x for i, x in enumerate(texts) if x
                }  # the latest row of labels, by grid column
            if len(lone_box) >= 2:  # rule 1
                box_list = None
                q = {
                    "text": first_words(" ".join(x for x in texts if x)),
                    "choice": [[t, r, i] for i in lone_box],
                    "options": [header_labels.get(cols[i], "") for i in lone_box],
                }
                if lone_field:
                    q["answer"] = [t, r, lone_field[0]]
                items.append(q)
                continue
            if any("signature of" in x.lower() for x in texts):
                box_list = None
                continue
            if r in records:
                continue
            box_cells = [
                i
                for i, c in enumerate(cells)
                if checkboxes(c) == 1 and field_result_text(c) and not re.search(r"\bYes\b.*\bNo\b", text(c))
            ]
            if len(lone_box) == 1 and len(cells) >= 2 or len(box_cells) == 1 and not lone_box:  # rule 2
                at = lone_box[0] if lone_box else box_cells[0]
                label = texts[at + 1] if lone_box and at + 1 < len(cells) else texts[at]
                if box_list is None:
                    prompt = next((x for x in reversed(texts[:at]) if x), "")
                    box_list = {"text": first_words(prompt or label), "choice": [], "options": []}
                    items.append(box_list)
                box_list["choice"].append([t, r, at])
                box_list["options"].append(first_words(label, 4))
                continue
            box_list = None
            for i, c in enumerate(cells):
                if checkboxes(c) >= 2 and re.search(r"\bYes\b.*\bNo\b", text(c)):  # rule 3
                    prompt = next((x for x in reversed(texts[:i]) if x), "") or text(c).split("Yes")[0]
                    q = {"text": first_words(prompt), "choice": [[t, r, i]], "options": ["Yes", "No"]}
                    if textfields(c):
                        q["answer"] = [t, r, i]
                    items.append(q)
            for i, c in enumerate(cells):  # rule 4
                if checkboxes(c) or not textfields(c):
                    continue
                own_label = field_result_text(c)
                if own_label and not re.fullmatch(r"[\s(]*YYYY-MM-DD[\s)]*", own_label):
                    if own_label.lower().startswith("date:") and any("signature" in x.lower() for x in texts):
                        continue
                    items.append({"text": first_words(own_label), "answer": [t, r, i]})
                    continue
                prompt = next((x for x in reversed(texts[:i]) if x), "")
                if prompt and not any(checkboxes(x) for x in cells[:i]):
                    items.append({"text": first_words(prompt), "answer": [t, r, i]})
    for p, n in doc.para_no.items():
        if not doc.in_table(p) and textfields(p):
            items.append({"text": first_words(field_result_text(p)), "answer": ["p", n]})
    return _in_order(items, doc)


def _records(grid: list[list[ET.Element]]) -> set[int]:
    """Rows of a list of records: two or more consecutive rows whose cells are all lone text fields
    (or empty), with their example row above them."""
    flags = []
    for cells in grid:
        flags.append(
            len(cells) >= 2
            and all(
                textfields(c) == 1 and not field_result_text(c).replace("YYYY-MM-DD", "").strip() or not text(c)
                for c in cells
            )
            and any(textfields(c) for c in cells)
        )
    out: set[int] = set()
    r = 0
    while r < len(flags):
        if flags[r]:
            end = r
            while end + 1 < len(flags) and flags[end + 1]:
                end += 1
            if end > r:
                out.update(range(r, end + 1))
            r = end + 1
        else:
            r += 1
    for r, cells in enumerate(grid):
        if any(text(c).lower().startswith("example") for c in cells):
            out.add(r)
    return out


NIST_RULE = (
    "NIST SP 800-171 SSP: (1) each table whose first row is the three checkboxes 'Implemented / Planned to be "
    "Implemented / Not Applicable' is one question (the requirement in the paragraph before it), its choice "
    "those three cells, its text place the description cell of the row below; (2) the labels of the contact "
    "tables ('Name:' … beside an empty cell) and the users table (two labels over one empty row) are one text "
    "question each, its place the empty cell; (3) in section 1 and 2, a paragraph that asks or labels a "
    "field followed by a bracketed placeholder ('System Name/Title: [State the name…]', '… [Document the CUI information types …]', 'Is all hardware … "
    "owned by the organization? [Yes/No - If no, explain:]', 'List all software components … [Insert …]') is "
    "one text question at that paragraph; the topology narrative's placeholder paragraph ('[Insert a system "
    "topology graphic …]') is the place of the paragraph before it. Not questions: the record of changes "
    "(a header over empty rows), the categorization already stated ('System Categorization: Moderate …')."
)


def nist(doc: Doc) -> list[dict]:
    items: list[dict] = []
    paras = {n: p for p, n in doc.para_no.items()}
    for t, tbl in enumerate(doc.tables):
        grid = [doc.cells(tr) for tr in doc.rows(t)]
        if grid and len(grid[0]) == 3 and all(checkboxes(c) == 1 for c in grid[0]):
            first = next(iter(tbl.iter(W + "p")))
            n = doc.para_no[first] - 1
            while n > 0 and (doc.in_table(paras[n]) or not text(paras[n])):
                n -= 1
            items.append(
                {
                    "text": first_words(text(paras[n])),
                    "choice": [[t, 0, 0], [t, 0, 1], [t, 0, 2]],
                    "options": ["Implemented", "Planned to be Implemented", "Not Applicable"],
                    "answer": [t, 1, 0],
                }
            )
            continue
        labels = [text(row[0]) for row in grid if row]
        if grid and all(len(row) == 2 and text(row[0]).endswith(":") and not text(row[1]) for row in grid):
            items += [{"text": text(row[0]), "answer": [t, r, 1]} for r, row in enumerate(grid)]
        elif (
            len(grid) == 2 and all(text(c) for c in grid[0]) and not any(text(c) for c in grid[1]) and len(grid[0]) == 2
        ):
            items += [{"text": text(c), "answer": [t, 1, i]} for i, c in enumerate(grid[0])]
        del labels
    for p, n in doc.para_no.items():
        line = text(p)
        if doc.in_table(p) or n >= paras_of_section3(doc):
            continue
        if re.search(r"\[(?:State|Insert|Provide|Document|Yes/No)[^\]]*\]", line) and not line.startswith("["):
            items.append({"text": first_words(line), "answer": ["p", n]})
        elif line.startswith("[Insert a system topology"):
            before = n - 1
            while not text(paras[before]):
                before -= 1
            items.append({"text": first_words(text(paras[before])), "answer": ["p", n]})
    return _in_order(items, doc)


def paras_of_section3(doc: Doc) -> int:
    for p, n in doc.para_no.items():
        if text(p) == "REQUIREMENTS":
            return n
    return 10**9


GSA_RULE = (
    "GSA PDF test checklist: each paragraph holding box glyphs (Wingdings U+F06F in the 'Square' style) before "
    "'Yes', 'No' (and 'NA') is one question (its statement before the tab), its choice the boxes in that "
    "paragraph (the paragraph's address), its options the labels after the boxes."
)


def gsa(doc: Doc) -> list[dict]:
    items = []
    for p, n in doc.para_no.items():
        raw = "".join(x.text or "" for x in p.iter(W + "t"))
        if BOX_GLYPH in raw:
            labels = [x.strip() for x in raw.split(BOX_GLYPH)[1:]]
            items.append({"text": first_words(raw.split(BOX_GLYPH)[0]), "choice": [["p", n]], "options": labels})
    return items


BC_RULE = (
    "British Council Annex 2: (1) each paragraph 'Label:' followed by an underscore line is one text question at "
    "that paragraph; (2) each row of a requirement table 'ID / % / Requirement' under its header row is one text "
    "question, answered 'in the space below each section' (its place: the requirement cell, or a paragraph after "
    "the table before the next one: 'after_table'); (3) each row of the submission checklist 'Document / Y / N' "
    "under its header row is one question answered Y or N in the row's empty cell. Not questions: the header "
    "rows, the signature block under the checklist (Supplier, Date, Name, Position, Signature, Title), the "
    "confidential-information table (a header over empty rows)."
)


def british_council(doc: Doc) -> list[dict]:
    items: list[dict] = []
    for p, n in doc.para_no.items():
        line = text(p)
        if not doc.in_table(p) and re.match(r"^[A-Z][\w ]{2,40}:\s*_{5,}", line):
            items.append({"text": line.split(":")[0] + ":", "answer": ["p", n]})
    for t in range(len(doc.tables)):
        grid = [doc.cells(tr) for tr in doc.rows(t)]
        heads = [[text(c) for c in row] for row in grid]
        h = next((r for r, row in enumerate(heads) if row[:3] == ["ID", "%", "Requirement"]), None)
        if h is not None:
            for r in range(h + 1, len(grid)):
                items.append(
                    {"text": first_words(heads[r][0] + " " + heads[r][2]), "answer": [t, r, 2], "after_table": t}
                )
        h = next((r for r, row in enumerate(heads) if row[:1] == ["Document"] and "Y / N" in row), None)
        if h is not None:
            for r in range(h + 1, len(grid)):
                items.append({"text": first_words(heads[r][0]), "answer": [t, r, 1], "options": ["Y", "N"]})
    return _in_order(items, doc)


GCLOUD_RULE = (
    "G-Cloud 15 quality questionnaire: each row under the header 'Question / Guidance / Response' whose Question "
    "cell holds text and that is not a row spanning the table ('If No to the above question then:') is one "
    "question, its place the Response cell (which states the answer's type: 'Yes/No', 'Upload', 'Free text 250 "
    "(word limit)'). Not questions: the summary tables 'Question / Question Type / Marking Scheme / Weighting', "
    "the marking-scheme tables and the award criteria above them (asked on the portal, with no place here)."
)


def gcloud(doc: Doc) -> list[dict]:
    items: list[dict] = []
    for t in range(len(doc.tables)):
        grid = [doc.cells(tr) for tr in doc.rows(t)]
        if not grid or [text(c) for c in grid[0]] != ["Question", "Guidance", "Response"]:
            continue
        for r, row in enumerate(grid[1:], 1):
            if len(row) == 3 and text(row[0]):
                items.append({"text": first_words(text(row[0])), "answer": [t, r, 2]})
    return _in_order(items, doc)


MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
YES_NO_LINE = re.compile(r"^Yes\s*/\s*No(\s*/\s*Not Applicable)?$")

CHARNWOOD_RULE = (
    "Charnwood ITT (a council's tender template), the supplier's questions only, by schedule: (1) in schedules 5 "
    "'Business Questionnaire', 6 'Legal Obligations' and 7 'Pricing Schedule' (from the banner (a text box) '5 BUSINESS "
    "QUESTIONNAIRE' to '8 Supporting Information'): a paragraph reading 'Yes/No' (or 'Yes/No/Not Applicable') "
    "is the answer place of the last non-empty paragraph before it (one question, options Yes / No); a paragraph "
    "that ends with 'Yes/No' is one question at itself; paragraphs each holding one FORMCHECKBOX beside its "
    "label, with only empty paragraphs between them, are one choice question (its prompt the last non-empty "
    "paragraph before them), its choice those paragraphs; a paragraph holding two or more FORMCHECKBOX ('Yes "
    "No') is one choice question at itself; in the pricing table, the 'Total Costs' row (a label beside a cell "
    "holding only '£') is one question at that cell; (2) in schedule 8 'Supporting Information': each paragraph "
    "starting with a question ID ('A-1', 'C-1', 'E-1 -') or with 'Please provide' is one text question; its "
    "place the first empty text box not taken by the question before (the drawing's own copy, not its VML "
    "fallback) anchored after the previous "
    "such paragraph and before the next one, else the question's own paragraph (the response is written after "
    "it or attached, labelled with its ID); (3) in schedule 9 'Payment Details': each label beside an underscore "
    "line ('Bank Name____', 'Account Name____', 'Bank Address____', '____ Account No.', 'Postcode____') is one "
    "text question at its paragraph, and 'Sort Code' one question at the first of the empty text boxes "
    "anchored in its paragraph; (4) in schedule 15 'Supplier's Contact Information': each empty text box is "
    "one text question (its label the paragraph it is anchored in, else the next non-empty paragraph), its "
    "place the box; (5) the supplier checklist 'SCHEDULE HEADING / COMPLETED?': each row under the header is "
    "one question answered in its COMPLETED? cell: by the box the cell holds (a Wingdings box drawn by w:sym, "
    "ticked for a schedule completed), else as text when the cell is empty. Not questions: the buyer's own placeholders ('[Insert "
    "…]', the timetable, the quality-question titles, the scoring scale), the conditions of tender and of "
    "contract, notes after a question ('Bidders who answer …'), the list of what a reference includes, the "
    "example method statements and Option 2 guidance, the component rows of the pricing table (a header over "
    "empty rows), the signature blocks (the Declaration table, the Form of Tender, the Contract Conditions "
    "Acceptance, the Articles of Agreement) and the Community Support text."
)


def _body_paragraphs(doc: Doc) -> list[tuple[int, ET.Element]]:
    """Paragraphs outside tables and text boxes, in order, with their ordinals."""
    out = []
    for p, n in doc.para_no.items():
        a, inside = doc.parent.get(p), False
        while a is not None:
            if a.tag in (W + "tbl", W + "txbxContent"):
                inside = True
                break
            a = doc.parent.get(a)
        if not inside:
            out.append((n, p))
    return out


def _empty_boxes(doc: Doc, p: ET.Element) -> list[int]:
    """Ordinals of the first paragraph of each empty text box anchored in ``p`` (not the VML fallback copies)."""
    out = []
    for box in p.iter(W + "txbxContent"):
        a, fallback = doc.parent.get(box), False
        while a is not None and a is not p:
            fallback = fallback or a.tag == MC + "Fallback"
            a = doc.parent.get(a)
        if not fallback and not text(box):
            out.append(doc.para_no[next(box.iter(W + "p"))])
    return out


def _schedule(paras: list[tuple[int, ET.Element]], start: str, end: str) -> list[tuple[int, ET.Element]]:
    """The paragraphs from the schedule's banner (a text box) starting with ``start`` to the banner starting with
    ``end`` (the table of contents' entries are not banners)."""
    texts = [text(next(p.iter(W + "txbxContent"), ET.Element("x"))) for _, p in paras]
    a = next(i for i, x in enumerate(texts) if x.upper().startswith(start.upper()))
    b = next(i for i, x in enumerate(texts) if i > a and x.upper().startswith(end.upper()))
    return paras[a:b]


def _pass_fail(doc: Doc, paras: list[tuple[int, ET.Element]]) -> list[dict]:
    items: list[dict] = []
    last, run = "", None
    for n, p in paras:
        line = text(p)
        boxes = checkboxes(p)
        if boxes == 1 and line:
            if run is None:
                run = {"text": first_words(last), "choice": [], "options": []}
                items.append(run)
            run["choice"].append(["p", n])
            run["options"].append(first_words(line, 4))
            continue
        if line:
            run = None
        if boxes >= 2:
            items.append({"text": first_words(last), "choice": [["p", n]], "options": line.split()})
        elif YES_NO_LINE.match(line):
            items.append({"text": first_words(last), "answer": ["p", n], "options": ["Yes", "No"]})
        elif line.endswith("Yes/No"):
            items.append({"text": first_words(line), "answer": ["p", n], "options": ["Yes", "No"]})
        if line:
            last = line
    return items


def _supporting(doc: Doc, paras: list[tuple[int, ET.Element]]) -> list[dict]:
    asks = [i for i, (_, p) in enumerate(paras) if re.match(r"^([A-F]-\d\b|Please provide)", text(p))]
    items, taken = [], set()
    for k, i in enumerate(asks):
        lo = asks[k - 1] + 1 if k else 0
        hi = asks[k + 1] if k + 1 < len(asks) else len(paras)
        boxes = [b for j in range(lo, hi) for b in _empty_boxes(doc, paras[j][1]) if b not in taken]
        taken.update(boxes[:1])
        item = {"text": first_words(text(paras[i][1])), "answer": ["p", boxes[0] if boxes else paras[i][0]]}
        if not boxes:  # the rule's "written after it": the address is the paragraph the response follows
            item["after"] = True
        items.append(item)
    return items


def _payment(doc: Doc, paras: list[tuple[int, ET.Element]]) -> list[dict]:
    items = []
    for n, p in paras:
        line = text(p)
        for label in re.findall(r"([A-Z][A-Za-z. ]+?)_{5,}|_{5,}\s*([A-Z][A-Za-z. ]+)$", line):
            items.append({"text": (label[0] or label[1]).strip(), "answer": ["p", n]})
        if "Sort Code" in line and _empty_boxes(doc, p):
            items.append({"text": "Sort Code", "answer": ["p", _empty_boxes(doc, p)[0]]})
    return items


def _contacts(doc: Doc, paras: list[tuple[int, ET.Element]]) -> list[dict]:
    items = []
    for i, (_, p) in enumerate(paras):
        for box in _empty_boxes(doc, p):
            label = text(p) or next((text(q) for _, q in paras[i + 1 :] if text(q)), "")
            items.append({"text": first_words(label), "answer": ["p", box]})
    return items


def _charnwood_tables(doc: Doc) -> list[dict]:
    items: list[dict] = []
    for t in range(len(doc.tables)):
        grid = [doc.cells(tr) for tr in doc.rows(t)]
        heads = [[text(c) for c in row] for row in grid]
        if heads and heads[0] == ["SCHEDULE HEADING", "COMPLETED?"]:
            for r, row in enumerate(grid[1:], 1):
                place = "choice" if sym_box(row[1]) else "answer"
                items.append(
                    {"text": first_words(text(row[0])), place: [[t, r, 1]] if place == "choice" else [t, r, 1]}
                )
        for r, row in enumerate(heads):
            if len(row) == 2 and row[0].startswith("Total Costs") and row[1] == "£":
                items.append({"text": first_words(row[0]), "answer": [t, r, 1]})
    return items


def charnwood(doc: Doc) -> list[dict]:
    paras = _body_paragraphs(doc)
    items = _pass_fail(doc, _schedule(paras, "5 BUSINESS QUESTIONNAIRE", "8 Supporting Information"))
    items += _supporting(doc, _schedule(paras, "8 Supporting Information", "9 Payment Details"))
    items += _payment(doc, _schedule(paras, "9 Payment Details", "10 Declaration"))
    items += _contacts(doc, _schedule(paras, "15 Supplier", "16 Community Support"))
    return _in_order(items + _charnwood_tables(doc), doc)


FEDRAMP4_RULE = (
    "FedRAMP Rev 4 Low SSP (content controls), as the CSP fills it: (1) control sections: in each table titled "
    "'<ID> | Control Summary Information', the 'Responsible Role:' row and each 'Parameter …:' row is a text "
    "question answered in its cell, the 'Implementation Status' and 'Control Origination' rows one choice each "
    "(their boxes in that cell); in each table titled '<ID> What is the solution and how is it implemented?', "
    "each row below the title is a text question answered in its last cell; (2) label tables: a row whose only "
    "non-empty cells are a label and, after it, a placeholder ('<Enter Name>', 'Choose level.', 'Click here to "
    "enter text.', 'Enter …', a content control showing its placeholder or its own name) is one question at the placeholder's cell "
    "(a choice when that cell holds a drop-down or combo box); a table of two rows, labels over a row of "
    "placeholders only, is one question per column; a row 'Select One | <question>? …' is one choice at its first "
    "cell; (3) box tables: the rows of a table whose one cell holds a lone checkbox control (or a lone '☐') beside a label are "
    "one choice (options the labels), its text place the cell of those rows holding a control that shows its "
    "placeholder ('Other | Explain: Click here to enter text.'); (4) paragraphs outside tables: a paragraph "
    "holding a drop-down or combo-box control that shows its placeholder ('The digital identity level is Choose "
    "an item.') is one choice at itself; a paragraph holding '<number>' placeholders is one text question "
    "at itself; 'Instruction: In the space that follows, describe …' is one text question at itself. Not "
    "questions: lists of records (rows with three or more cells of placeholders: revision history, information "
    "types, leveraged authorizations, roles, ports, interconnections, references, attachments' file names, "
    "information types with impact levels), the approvals table (rows 'Name | … | Date | …', 'Title', 'Cloud "
    "Service Provider'), the filled example and reference tables, the cloud-model decision table 'Question "
    "(Yes/No) | Conclusion' (its answers are recorded in the service-layer boxes), text inside a sentence that "
    "names the system ('Enter Information System Abbreviation')."
)

PLACEHOLDER = re.compile(r"^(<[^<>]+>\.?|(Choose|Select|Click here|Enter)\b.*)$")


def _controls(doc: Doc, cell: ET.Element) -> list[ET.Element]:
    """Content controls inside ``cell`` or wrapping it."""
    out = list(cell.iter(W + "sdt"))
    a = doc.parent.get(cell)
    while a is not None and a.tag != W + "tbl":
        if a.tag == W + "sdt":
            out.append(a)
        a = doc.parent.get(a)
    return out


def _is_placeholder(doc: Doc, cell: ET.Element) -> bool:
    line = text(cell)
    if not line or checkboxes(cell):
        return False
    if PLACEHOLDER.match(line):
        return True
    for c in _controls(doc, cell):  # a control showing its placeholder, or its own name (its alias)
        alias = c.find(f"{W}sdtPr/{W}alias")
        if c.find(f"{W}sdtPr/{W}showingPlcHdr") is not None and text(c) == line:
            return True
        if alias is not None and text(c) == line == " ".join(alias.get(W + "val", "").split()):
            return True
    return False


def _drop_down(doc: Doc, cell: ET.Element) -> bool:
    return any(
        c.find(f"{W}sdtPr/{W}dropDownList") is not None or c.find(f"{W}sdtPr/{W}comboBox") is not None
        for c in _controls(doc, cell)
    )


def _place(doc: Doc, cell: ET.Element, at: list) -> dict:
    return {"choice": [at]} if _drop_down(doc, cell) else {"answer": at}


def _control_table(t: int, heads: list[list[str]]) -> list[dict]:
    items: list[dict] = []
    title = " ".join(heads[0]) if heads else ""
    if title.endswith("Control Summary Information"):
        for r, row in enumerate(heads[1:], 1):
            line = " ".join(row)
            if line.startswith(("Implementation Status", "Control Origination")):
                items.append({"text": first_words(line), "choice": [[t, r, 0]]})
            elif line.startswith(("Responsible Role", "Parameter")):
                items.append({"text": first_words(line), "answer": [t, r, 0]})
    elif title.endswith("What is the solution and how is it implemented?"):
        for r, row in enumerate(heads[1:], 1):
            items.append({"text": first_words(title.split()[0] + " " + row[0]), "answer": [t, r, len(row) - 1]})
    return items


def _raw(el: ET.Element) -> str:
    return "".join(x.text or "" for x in el.iter(W + "t")).strip()


def _box_rows(doc: Doc, t: int, grid: list[list[ET.Element]]) -> list[dict]:
    group: dict | None = None
    items = []
    for r, cells in enumerate(grid):
        lone = [i for i, c in enumerate(cells) if checkboxes(c) == 1 and not text(c) or _raw(c) == "\u2610"]
        label = next((text(c) for c in cells if text(c)), "")
        if len(lone) != 1 or not label:
            group = None
            continue
        if group is None:
            group = {"text": first_words(text(grid[0][0]) if r == 1 else label), "choice": [], "options": []}
            items.append(group)
        group["choice"].append([t, r, lone[0]])
        group["options"].append(first_words(label, 4))
        for i, c in enumerate(cells):
            if any(x.find(f"{W}sdtPr/{W}showingPlcHdr") is not None for x in _controls(doc, c)):
                group["answer"] = [t, r, i]
    return items


def _label_rows(doc: Doc, t: int, grid: list[list[ET.Element]]) -> list[dict]:
    items = []
    if len(grid) == 2 and all(text(c) and not _is_placeholder(doc, c) for c in grid[0]):
        if len(grid[1]) == len(grid[0]) and all(_is_placeholder(doc, c) for c in grid[1]):
            return [{"text": text(h), **_place(doc, c, [t, 1, i])} for i, (h, c) in enumerate(zip(grid[0], grid[1]))]
    for r, cells in enumerate(grid):
        full = [i for i, c in enumerate(cells) if text(c)]
        if len(full) != 2:
            continue
        a, b = (cells[i] for i in full)
        if _is_placeholder(doc, b) and not _is_placeholder(doc, a):
            items.append({"text": first_words(text(a)), **_place(doc, b, [t, r, full[1]])})
        elif _is_placeholder(doc, a) and "?" in text(b):
            items.append({"text": first_words(text(b)), **_place(doc, a, [t, r, full[0]])})
    return items


def _fedramp4_paragraphs(doc: Doc) -> list[dict]:
    items = []
    for n, p in _body_paragraphs(doc):
        line = text(p)
        shows = [x for x in p.iter(W + "sdt") if x.find(f"{W}sdtPr/{W}showingPlcHdr") is not None]
        if any(
            x.find(f"{W}sdtPr/{W}dropDownList") is not None or x.find(f"{W}sdtPr/{W}comboBox") is not None
            for x in shows
        ):
            items.append({"text": first_words(line), "choice": [["p", n]]})
        elif "<number>" in line or line.startswith("Instruction: In the space that follows"):
            items.append({"text": first_words(line), "answer": ["p", n]})
    return items


def fedramp4(doc: Doc) -> list[dict]:
    items: list[dict] = []
    for t in range(len(doc.tables)):
        grid = [doc.cells(tr) for tr in doc.rows(t)]
        heads = [[text(c) for c in row] for row in grid]
        found = _control_table(t, heads)
        if not found and not any(len(row) == 4 and row[0] == "Name" and row[2] == "Date" for row in heads):
            found = _box_rows(doc, t, grid) or _label_rows(doc, t, grid)
        items += found
    return _in_order(items + _fedramp4_paragraphs(doc), doc)


def _in_order(items: list[dict], doc: Doc) -> list[dict]:
    def key(q: dict) -> tuple:
        at = (q.get("choice") or [q.get("answer")])[0]
        if at[0] == "p":
            return (at[1], 0, 0)
        first = next(iter(doc.tables[at[0]].iter(W + "p")))
        return (doc.para_no[first], at[1], at[2])

    return sorted(items, key=key)


FILES = {
    "docx/pci_dss_v4.0_saq_c-vt.docx": (PCI_RULE, pci),
    "docx/pci_dss_v4.0_aoc_for_saq_b.docx": (PCI_RULE, pci),
    "docx/nist_sp800-171_cui_ssp_template.docx": (NIST_RULE, nist),
    "docx/gsa_aed_cop_pdf_accessibility_test_checklist.docx": (GSA_RULE, gsa),
    "docx/uk_british_council_rfp_annex2_supplier_response.docx": (BC_RULE, british_council),
    "docx/uk_ccs_g-cloud_15_quality_questionnaire.docx": (GCLOUD_RULE, gcloud),
    "docx/uk_charnwood_borough_council_itt_services_template.docx": (CHARNWOOD_RULE, charnwood),
    "docx/fedramp_ssp_rev4_low_baseline_template_content_controls.docx": (FEDRAMP4_RULE, fedramp4),
}


def main(folder: Path) -> dict:
    out = {"about": __doc__.split("\n\n")[0].replace("\n", " "), "files": {}}
    for rel, (rule, fn) in FILES.items():
        items = fn(Doc(folder / rel))
        out["files"][Path(rel).name] = {"rule": rule, "count": len(items), "questions": items}
    return out


if __name__ == "__main__":
    print(json.dumps(main(Path(sys.argv[1])), indent=1, ensure_ascii=False))
