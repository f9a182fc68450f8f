"""The questions of a PDF form (AcroForm fields) and where each answer goes.

Which fields are questions: every text field, check box, radio group, combo box and list box a
person fills in. Left alone (named in a note): signature fields and initials boxes (Adobe Sign's
``…_es_:signer:initials`` tags), push buttons, read-only and hidden fields, and fields the form
computes itself (a calculate script).

How fields become questions:

1. **Stacked widgets.** Forms converted from Word and edited later often draw two widgets on the
   same spot (FedRAMP's change form has a ``On Contract - Yes`` box over a
   ``scr_auditor_on_contract_yes`` box). Widgets of one family (boxes, or text) covering at least
   half of the smaller one are one answer place: the writer fills them all alike. Widgets of
   different families over each other (a text field over a check box) make the form ambiguous:
   :class:`~engine.questionnaire.sheet.reader.QuestionnaireError` names them.
0. **Set aside** (engine/questionnaire/pdf/subforms.py): a part marked "(To be completed by …)" or
   "For office use only", a table of records (rows named ``Row1``, ``Row2`` …), a signature line
   drawn as a text field: left alone, named in a note.
2. **One question per field or group of boxes**: the widgets of one field (a radio group, a field
   shown on two pages) are one question; check boxes are one choice question when their names
   say so (``c1_1[0]`` … ``c1_1[6]``; ``… yes`` / ``… no``; the boxes of one XFA subform,
   ``form1[0].page1[0].dueARefund[0].…``, on however many lines), or when they sit on one line with
   a choice label each (☐ Yes ☐ No), a column's label each (the same label beside the boxes of the
   rows above or below: ☐ You ☐ Spouse ☐ No on every row) or none (a table row whose column headers
   name the choices: Implemented / Pending / Not Applicable). A check box alone is a Yes/No question
   (ticked or not).
3. **A row's notes field**: a text field on the same line right after a group of boxes, with no
   text between them, is that question's text place (the row's "Implementation Status Notes"); in
   an XFA form, a text field of the boxes' subform whose tooltip asks to explain or asks the boxes'
   question ("If other, explain …").

A question's text is the field's tooltip (``/TU``: the name the form gives it for screen readers)
when it is a real label, else the label nearest to it on the page: left of it on its row, else
above it; a box's choice is the label right of it, else its column's header. Its ID is the
number the label starts with ("13.", "16.a.", "1 Name") or a control ID ("AC-2 (11)"). What the
fields already hold are the existing answers, except what the form ships in them
(:func:`shipped_placeholder`): a prompt ("Click on arrow to choose an item"), instruction text
("Insert CSP Name", "<Fill In>", "YYYY-MM-DD"), or the field's own default (``/DV``: a combo box
shipped showing its first item). Scripts are read as data and never run (see pdf_reader.py).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property

import pymupdf

from engine.questionnaire.cues import takes_several
from engine.questionnaire.pdf.layout import Bands, Box, PageText, page_widgets, pdf_name, reading_order
from engine.questionnaire.pdf.questions import YES_NO, Found
from engine.questionnaire.pdf.subforms import question_stem, set_aside, subform
from engine.questionnaire.placeholders import is_placeholder
from engine.questionnaire.places import AnswerPlace, PlaceKind
from engine.questionnaire.records import QuestionnaireError, joined_choices

_KINDS = {
    pymupdf.PDF_WIDGET_TYPE_TEXT: "text",
    pymupdf.PDF_WIDGET_TYPE_CHECKBOX: "checkbox",
    pymupdf.PDF_WIDGET_TYPE_RADIOBUTTON: "radio",
    pymupdf.PDF_WIDGET_TYPE_COMBOBOX: "combo",
    pymupdf.PDF_WIDGET_TYPE_LISTBOX: "list",
}
BUTTONS = ("checkbox", "radio")
_CHOICES = ("combo", "list")
_INITIALS = re.compile(r"_es_:[^:]*:(initials|signature)\b", re.I)
_ES_TAG = re.compile(r"_es_:.*$", re.I)  # Adobe Sign's text tag after a field's name
_PROMPT = re.compile(r"^\s*(click|choose|select|pick|please (select|choose)|--+|\s*$)", re.I)
_SHIPPED = re.compile(  # instruction text a form ships in a field: not an answer
    r"^\s*(?:(?:insert|enter|provide|fill in|click|choose|select|pick)\b.*"
    r"|<[^<>]*>|\[[^\[\]]*\]|(?:yyyy|yy|mm|dd)(?:\s*[-/.]\s*(?:yyyy|yy|mm|dd))+|[.…_\s]*)\s*$",
    re.I | re.S,
)
_INSTRUCTION = re.compile(r"\s*\b(click here to enter|click on arrow|press space bar|mark x)\b.*$", re.I | re.S)
_LEADING_CHOICES = re.compile(r"^((yes|no|n/a)\s+)+(?=\S)", re.I)
_INVITES_TEXT = re.compile(r":\s*$|\b(specify|other|explain|describe|if yes|please|enter)\b", re.I)
_BLANKS = re.compile(r"_{3,}|\.{4,}|…{2,}")  # printed blanks and dot leaders
_CHOICE_WORDS = frozenset(
    "yes no n/a na not applicable unknown true false partial partially none y n".split() + ["not applicable"]
)
_NUMBER = re.compile(r"^\s*(\d{1,3}(?:\.\d{1,3})*(?:\.?[a-z])?(?:\.\d{1,3})?)(?:\.|\s|\))", re.I)
_CONTROL = re.compile(r"^[A-Z]{2,4}-\d{1,3}(?:\s?\(\d{1,3}\))?$")
_YES_NO_NAME = re.compile(r"^(.*?)[\s_.-]*(yes|no|n/?a)$", re.I)
_INDEXED_NAME = re.compile(r"^(.*)\[\d+\]$")
_COMB = 1 << 24  # a text field's Ff bit: its characters spread over boxes
_ROW_TOLERANCE = 3.0  # points: boxes whose centres are this close share a line
_TEXT_LIKE = ("text", "combo", "list")
MAX_FIELDS_PER_PAGE = 2_000  # FedRAMP's change form has 88; past this the layout work would take minutes
OVERLAP_FIX = "ask the sender for a form whose fields do not lie over each other, or for the Word version"


@dataclass
class FormWidget:
    """One widget of a field the responder fills in."""

    page: int
    xref: int
    name: str
    kind: str  # text, checkbox, radio, combo, list
    box: Box
    tooltip: str
    value: str = ""
    on_state: str = ""  # a box's "on" appearance name
    is_on: bool = False
    options: tuple[tuple[str, str], ...] = ()  # a combo or list box's (display, export) pairs
    max_chars: int | None = None
    comb: bool = False  # a text field drawn as a row of character boxes (the W-9's SSN)
    nth: int = 0  # its place among the widgets of its field name, in page order (a box's locator)
    default: str = ""  # the field's default value (/DV): what the form ships in it

    @property
    def family(self) -> str:
        return "box" if self.kind in BUTTONS else "text"


@dataclass
class _Slot:
    """Widgets stacked on one spot (usually one widget): one answer place."""

    widgets: list[FormWidget]
    label: str = ""  # the text right of a box (its choice)
    label_end: float = 0.0

    @property
    def first(self) -> FormWidget:
        return self.widgets[0]

    @property
    def box(self) -> Box:
        return self.first.box


@dataclass
class _Skipped:
    counts: Counter = field(default_factory=Counter)
    scripts: int = 0  # fields with format / keystroke / validate scripts (never run)
    boxes: dict[int, list[Box]] = field(default_factory=dict)  # by page: fields left alone (label barriers)


@dataclass
class _Form:
    """What the question builders look at: the pages' text, every slot, the fields left alone."""

    texts: Callable[[int], PageText]
    slots: list[_Slot]
    skipped: _Skipped
    by_page: dict[int, Bands] = field(default_factory=dict)

    def __post_init__(self) -> None:
        pages: dict[int, list[_Slot]] = {}
        for s in self.slots:
            pages.setdefault(s.first.page, []).append(s)
        self.by_page = {page: Bands(slots, lambda s: s.box) for page, slots in pages.items()}

    @cached_property
    def columns(self) -> set[int]:
        """The boxes (``id`` of their slots) whose label is a column's (:func:`_column_labels`)."""
        return _column_labels(self.slots)

    def near(self, box: Box, page: int) -> list[_Slot]:
        """The slots of ``page`` near ``box``'s height (the candidates for its row)."""
        bands = self.by_page.get(page)
        return bands.near(box) if bands else []

    def min_x(self, box: Box, page: int, leave_out: list[_Slot] | None = None) -> float:
        """Where a label left of ``box`` must start: right of the nearest field before it on its
        row (and of that box's own label), the slots in ``leave_out`` aside."""
        edges = [
            max(s.box.x1, s.label_end)
            for s in self.near(box, page)
            if s.box is not box
            and s.box.same_row(box)
            and s.box.x1 <= box.x0 + 1
            and not (leave_out and s in leave_out)
        ]
        edges += [b.x1 for b in self.skipped.boxes.get(page, ()) if b.same_row(box) and b.x1 <= box.x0 + 1]
        return max(edges, default=0.0)

    def box_before(self, box: Box, page: int) -> _Slot | None:
        """The box (check box, radio button) nearest left of ``box`` on its row."""
        before = [
            s
            for s in self.near(box, page)
            if s.first.family == "box" and s.box.same_row(box) and s.box.x1 <= box.x0 + 1
        ]
        return max(before, key=lambda s: s.box.x1, default=None)


class _UnionFind:
    def __init__(self, n: int) -> None:
        self.parent = list(range(n))
        self.size = [1] * n

    def find(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[rb] = ra
            self.size[ra] += self.size[rb]

    def groups(self) -> list[list[int]]:
        out: dict[int, list[int]] = {}
        for i in range(len(self.parent)):
            out.setdefault(self.find(i), []).append(i)
        return list(out.values())


def read_form(doc: pymupdf.Document, texts: Callable[[int], PageText], notes: list[str]) -> list[Found]:
    """The questions of the fields of ``doc`` (``texts(page)`` gives a page's text)."""
    skipped = _Skipped()
    widgets = [w for page in doc for w in _page_widgets(doc, page, skipped)]
    crowded = Counter(w.page for w in widgets).most_common(1)
    if crowded and crowded[0][1] > MAX_FIELDS_PER_PAGE:
        page, count = crowded[0]
        raise QuestionnaireError(
            _name(doc),
            f"has {count:,} form fields on page {page + 1}, more than the {MAX_FIELDS_PER_PAGE:,} a page of a "
            "questionnaire holds",
            "ask the sender for the questionnaire as a Word or Excel file",
        )
    seen: Counter = Counter()
    for w in widgets:
        w.nth, seen[w.name] = seen[w.name], seen[w.name] + 1
    aside = set_aside(widgets, lambda number: doc[number].rect.x1)
    for w in widgets:
        if w.xref in aside.reasons:
            skipped.counts[aside.reasons[w.xref]] += 1
            skipped.boxes.setdefault(w.page, []).append(w.box)
    widgets = [w for w in widgets if w.xref not in aside.reasons]
    notes.extend(aside.notes)
    form = _Form(texts, _slots(doc, widgets), skipped)
    for slot in form.slots:
        if slot.first.family == "box":
            slot.label, slot.label_end = texts(slot.first.page).right_of(slot.box, _next_x(slot, form))
    found = [_question(group, form) for group in _groups(form)]
    _note_skipped(skipped, notes)
    return found


# ---------------------------------------------------------------- widgets


def _page_widgets(doc: pymupdf.Document, page: pymupdf.Page, skipped: _Skipped) -> list[FormWidget]:
    out = []
    for w in page_widgets(page):
        reason = _left_alone(doc, w)
        if reason:
            skipped.counts[reason] += 1
            skipped.boxes.setdefault(page.number, []).append(Box.of(w.rect))
            continue
        if _inherited(doc, w.xref, "AA") is not None:
            skipped.scripts += 1
        kind = _KINDS[w.field_type]
        fw = FormWidget(
            page=page.number,
            xref=w.xref,
            name=w.field_name or "",
            kind=kind,
            box=Box.of(w.rect),
            tooltip=" ".join((w.field_label or "").split()),
        )
        if kind in BUTTONS:
            fw.on_state = w.on_state() or ""
            fw.is_on = bool(fw.on_state) and pdf_name(doc.xref_get_key(w.xref, "AS")[1]) == pdf_name(fw.on_state)
        else:
            value = w.field_value
            fw.value = " ".join(value) if isinstance(value, (list, tuple)) else str(value or "")
            fw.options = tuple(_option(o) for o in (w.choice_values or ()))
            fw.default = _pdf_text(_inherited(doc, w.xref, "DV"))
            fw.max_chars = w.text_maxlen or None if kind == "text" else None
            fw.comb = bool(fw.max_chars) and bool((w.field_flags or 0) & _COMB)
        out.append(fw)
    return out


def _left_alone(doc: pymupdf.Document, w: pymupdf.Widget) -> str | None:
    """Why a widget is not a question (None: it is one)."""
    if w.field_type == pymupdf.PDF_WIDGET_TYPE_SIGNATURE:
        return "signature"
    if w.field_type not in _KINDS:
        return "push button"
    if _INITIALS.search(w.field_name or ""):
        return "initials"
    if (w.field_flags or 0) & 1:
        return "read-only"
    flags = doc.xref_get_key(w.xref, "F")
    if (flags[0] == "int" and int(flags[1]) & (2 | 32)) or Box.of(w.rect).area < 1:
        return "hidden"
    if _inherited(doc, w.xref, "AA/C") is not None:
        return "computed"
    return None


def _inherited(doc: pymupdf.Document, xref: int, key: str) -> str | None:
    """A field's ``key`` (a path such as ``AA/C``), from the widget or a parent field."""
    for _ in range(32):  # a parent chain is short; a loop in a hostile file ends here
        kind, value = doc.xref_get_key(xref, key)
        if kind != "null":
            return value
        kind, parent = doc.xref_get_key(xref, "Parent")
        if kind != "xref":
            return None
        xref = int(parent.split()[0])
    return None


def _pdf_text(raw: str | None) -> str:
    """A PDF string or name as text (``(Low)``, ``/Low``, ``<FEFF…>`` as MuPDF gives it)."""
    if not raw or raw == "null":
        return ""
    raw = raw.strip()
    if raw.startswith("(") and raw.endswith(")"):
        return raw[1:-1].replace("\\(", "(").replace("\\)", ")")
    return pdf_name(raw) if raw.startswith("/") else raw


def shipped_placeholder(value: str, default: str = "", options: tuple[tuple[str, str], ...] = ()) -> bool:
    """Whether a field's value is what the form shipped in it, not an answer: instruction text
    ("Insert CSP Name", "Click here to enter text", "<Fill In>", "[Name]", "YYYY-MM-DD", "…"), or
    a choice field's own default (``/DV``, by its display or export value)."""
    value = (value or "").strip()
    if not value or _SHIPPED.match(value) or _PROMPT.match(value) or is_placeholder(value):
        return True
    if value == (default or "").strip():
        return True
    if options and default:
        same = {d for d, e in options if default in (d, e)} | {e for d, e in options if default in (d, e)}
        return value == default or value in same
    return False


def _option(o: object) -> tuple[str, str]:
    """(display, export) of a choice field's option (PyMuPDF gives ``(export, display)`` pairs)."""
    if isinstance(o, (list, tuple)) and len(o) == 2:
        return str(o[1]), str(o[0])
    return str(o), str(o)


def _note_skipped(skipped: _Skipped, notes: list[str]) -> None:
    if skipped.counts:
        parts = ", ".join(f"{n} {kind} field{'s' if n > 1 else ''}" for kind, n in sorted(skipped.counts.items()))
        notes.append(f"left alone (not questions): {parts}")
    if skipped.scripts:
        notes.append(
            f"{skipped.scripts} fields carry scripts (formatting, keystroke checks); scripts are never run, so "
            "answers are written as given: check dates and numbers against the form's format"
        )


# ---------------------------------------------------------------- stacks


def _slots(doc: pymupdf.Document, widgets: list[FormWidget]) -> list[_Slot]:
    """Widgets grouped by what is stacked on one spot; an ambiguous overlap is refused."""
    sets = _UnionFind(len(widgets))
    by_page: dict[int, list[int]] = {}
    for i, w in enumerate(widgets):
        by_page.setdefault(w.page, []).append(i)
    for indexes in by_page.values():
        indexes.sort(key=lambda i: widgets[i].box.x0)
        for a_pos, a in enumerate(indexes):
            for b in indexes[a_pos + 1 :]:
                if widgets[b].box.x0 >= widgets[a].box.x1:
                    break
                if _stacked(doc, widgets[a], widgets[b]):
                    sets.union(a, b)
    return [_Slot([widgets[i] for i in sorted(group)]) for group in sets.groups()]


def _stacked(doc: pymupdf.Document, a: FormWidget, b: FormWidget) -> bool:
    """Whether ``a`` and ``b`` are one answer place; raises when they overlap ambiguously."""
    shared = a.box.overlap(b.box)
    smaller = min(a.box.area, b.box.area)
    if smaller <= 0 or shared < 0.5 * smaller:
        return False
    same_spot = shared >= 0.8 * max(a.box.area, b.box.area)
    if a.family == b.family == "box" or (a.family == b.family == "text" and same_spot and a.kind == b.kind):
        return True
    where = f"page {a.page + 1}"
    raise QuestionnaireError(
        _name(doc),
        f"has overlapping fields on {where}: '{a.name}' ({a.kind}) and '{b.name}' ({b.kind}) lie over each "
        "other, so an answer in one would hide the other",
        OVERLAP_FIX,
    )


def _name(doc: pymupdf.Document) -> str:
    return doc.name.rsplit("/", 1)[-1] if doc.name else "the PDF"


def _next_x(slot: _Slot, form: _Form) -> float:
    """The left edge of the next field right of ``slot`` on its row (where its label must end)."""
    page = slot.first.page
    xs = [s.box.x0 for s in form.near(slot.box, page) if s is not slot and s.box.same_row(slot.box)]
    xs += [b.x0 for b in form.skipped.boxes.get(page, ()) if b.same_row(slot.box)]
    return min((x for x in xs if x > slot.box.x1), default=1e9)


# ---------------------------------------------------------------- groups


def _groups(form: _Form) -> list[list[_Slot]]:
    """Slots grouped into questions (see the module docstring, steps 2 and 3)."""
    slots = form.slots
    sets = _UnionFind(len(slots))
    keys: dict[tuple, int] = {}
    for i, slot in enumerate(slots):
        for w in slot.widgets:
            for key in _group_keys(w):
                sets.union(keys.setdefault(key, i), i)
    _join_rows(form, sets)
    out = [reading_order([slots[i] for i in g], lambda s: s.box, lambda s: s.first.page) for g in sets.groups()]
    return _join_notes(out, form)


def _group_keys(w: FormWidget) -> list[tuple]:
    """What makes widgets one question: one field name; comb fields of one parent on one row; for
    boxes, one stem of an indexed name (``c1_1[3]``) or of a Yes/No pair (``scr_deadline_yes`` /
    ``scr_deadline_no``)."""
    keys: list[tuple] = [("name", w.family, w.name)]
    if w.comb and "." in w.name:  # the boxes of one number (SSN: 3 fields of one parent on one row)
        keys.append(("comb", w.page, w.name.rsplit(".", 1)[0], round(w.box.cy / 4)))
    if w.kind == "checkbox":
        indexed = _INDEXED_NAME.match(w.name)
        if indexed and _INDEXED_NAME.match(indexed.group(1)) is None:
            keys.append(("stem", w.page, indexed.group(1)))
        pair = _YES_NO_NAME.match(w.name)
        if pair and pair.group(1):
            keys.append(("yes/no", w.page, pair.group(1).lower()))
        asked = _tooltip_question(w.tooltip)
        if asked:  # "4. What additional duties …? (select all that apply): Occupational Health"
            keys.append(("tooltip", w.page, asked))
        part = subform(w.name)
        if part:  # the boxes of one XFA subform (engine/questionnaire/pdf/subforms.py)
            keys.append(("subform", w.page, part))
    return keys


def _tooltip_question(tooltip: str) -> str:
    """The question a box's tooltip names before its option: the words up to its question mark
    ("…? Monthly", "…? (select all that apply): Onsite"), else before its first colon
    ("Rationale for assessment: Outbreak"); "" when it names no option after them."""
    tip = " ".join((tooltip or "").split())
    if "?" in tip:
        head, _, rest = tip.partition("?")
        head += "?"
    else:
        head, _, rest = tip.partition(": ")
    rest = rest.strip(" :")
    return head if rest and len(head.split()) >= 2 else ""


def _is_choice_word(label: str) -> bool:
    return " ".join(re.sub(r"[^\w/ ]", " ", label.lower()).split()) in _CHOICE_WORDS


def _join_rows(form: _Form, sets: _UnionFind) -> None:
    """Boxes on one line, each labelled with a choice word, with a column's label (the same label
    beside the boxes of the rows above or below: You / Spouse / No) or unlabelled (the column
    headers name the choices), with nothing between them but those labels, are one question: the
    options of one choice. Boxes of two XFA subforms are not joined (their names say they answer
    two questions)."""
    slots = form.slots
    columns = form.columns
    candidates = [
        i
        for i, s in enumerate(slots)
        if s.first.family == "box" and (not s.label or _is_choice_word(s.label) or id(s) in columns)
    ]
    lines = reading_order(candidates, lambda i: slots[i].box, lambda i: slots[i].first.page)
    for a, b in zip(lines, lines[1:]):
        sa, sb = slots[a], slots[b]
        if sa.first.page != sb.first.page or abs(sa.box.cy - sb.box.cy) > _ROW_TOLERANCE or sb.box.x0 < sa.box.x1:
            continue
        parts = {subform(sa.first.name), subform(sb.first.name)}
        if len(parts) > 1 and None not in parts:
            continue
        ra, rb = sets.find(a), sets.find(b)
        if ra == rb or (sets.size[ra] > 1 and sets.size[rb] > 1):
            continue  # two groups already (two radio groups on one line): not one question
        if not form.texts(sa.first.page).text_between(sa.box, max(sa.box.x1, sa.label_end), sb.box.x0):
            sets.union(a, b)


def _column_labels(slots: list[_Slot]) -> set[int]:
    """The boxes (``id`` of their slots) whose label is a column's: a short label (four words at
    most) that a box in the same column on another row of the page has too."""
    by_label: dict[tuple[int, str], list[_Slot]] = {}
    for s in slots:
        if s.first.family == "box" and s.label and len(s.label.split()) <= 4:
            by_label.setdefault((s.first.page, " ".join(_words(s.label))), []).append(s)
    out: set[int] = set()
    for same in by_label.values():
        same.sort(key=lambda s: s.box.x0)
        for i, a in enumerate(same):  # the boxes 3 pt or less to its right (a column), not on its row
            for b in same[i + 1 :]:
                if b.box.x0 - a.box.x0 > 3:
                    break
                if not a.box.same_row(b.box):
                    out.update((id(a), id(b)))
                    break
    return out


def _join_notes(groups: list[list[_Slot]], form: _Form) -> list[list[_Slot]]:
    """A text field right after a one-line group of boxes, or after a combo or list box, nothing
    between, joins it (its notes: a requirement table's "Response" combo and "Comments" field)."""
    fields = {id(g): g for g in groups if len(g) == 1 and g[0].first.kind == "text"}
    taken: set[int] = set()
    _join_named(groups, fields, taken)
    boxes = [g for g in groups if all(s.first.family == "box" for s in g) and _one_line(g) and _takes_notes(g)]
    boxes += [g for g in groups if len(g) == 1 and g[0].first.kind in _CHOICES]  # a row's combo, then its comments
    for g in boxes:
        last = max(g, key=lambda s: s.box.x1)
        end = max(last.box.x1, last.label_end)
        near = [
            f
            for f in fields.values()
            if id(f) not in taken
            and f[0].first.page == last.first.page
            and f[0].box.same_row(last.box)
            and f[0].box.x0 >= last.box.x1
            and not form.texts(last.first.page).text_between(last.box, end, f[0].box.x0)
        ]
        if near:
            notes = min(near, key=lambda f: f[0].box.x0)
            taken.add(id(notes))
            g.append(notes[0])
    _join_specified(groups, fields, taken)
    return [g for g in groups if id(g) not in taken]


_SPECIFY = re.compile(r"\bspecify\b|\bother\b", re.I)
_EXPLAIN = re.compile(r"\bspecify\b|\bother\b|\bexplain\b", re.I)


def _join_named(groups: list[list[_Slot]], fields: dict[int, list[_Slot]], taken: set[int]) -> None:
    """A text field of a box group's XFA subform is that group's text when its tooltip asks to
    specify or explain ("If other, explain how you would like your refund") or asks the boxes'
    question ("… in a language other than English. What language."): the first such field."""
    for g in groups:
        part = subform(g[0].first.name)
        if not part or any(s.first.family != "box" or subform(s.first.name) != part for s in g):
            continue
        stems = {question_stem(w.tooltip) for s in g for w in s.widgets} - {""}
        for f in fields.values():
            w = f[0].first
            if id(f) in taken or w.page != g[0].first.page or subform(w.name) != part:
                continue
            if _EXPLAIN.search(w.tooltip) or question_stem(w.tooltip) in stems:
                taken.add(id(f))
                g.append(f[0])
                break


def _join_specified(groups: list[list[_Slot]], fields: dict[int, list[_Slot]], taken: set[int]) -> None:
    """A text field whose tooltip names a box group's question and asks to specify ("Rationale for
    assessment: Other (specify)", "… (select all that apply): Other (specify)") is that group's
    text, wherever it is drawn."""
    boxes = [g for g in groups if g[0].first.family == "box" and not any(s.first.family == "text" for s in g)]
    for f in fields.values():
        tip = " ".join(f[0].first.tooltip.split())
        if id(f) in taken or not _SPECIFY.search(tip):
            continue
        asked = _tooltip_question(tip) or tip
        owner = next(
            (
                g
                for g in boxes
                if g[0].first.page == f[0].first.page
                and any(
                    asked in (_tooltip_question(w.tooltip), " ".join(w.tooltip.split())) for s in g for w in s.widgets
                )
            ),
            None,
        )
        if owner is not None:
            taken.add(id(f))
            owner.append(f[0])
            boxes.remove(owner)


def _takes_notes(group: list[_Slot]) -> bool:
    """A row of unlabelled boxes (a table row whose headers name the choices), or boxes whose last
    label asks for text ("Other (Please Specify):")."""
    if len(group) > 1 and not any(s.label for s in group):
        return True
    last = max(group, key=lambda s: s.box.x1)
    return bool(_INVITES_TEXT.search(last.label))


def _one_line(group: list[_Slot]) -> bool:
    return (
        len({s.first.page for s in group}) == 1
        and max(s.box.cy for s in group) - min(s.box.cy for s in group) <= _ROW_TOLERANCE
    )


# ---------------------------------------------------------------- questions


def _question(group: list[_Slot], form: _Form) -> Found:
    boxes = [s for s in group if s.first.family == "box"]
    notes = [s for s in group if s.first.family == "text"]
    if not boxes:
        parts = [s for s in group if s.first.comb]
        if len(parts) > 1 and len(parts) == len(group):
            return _comb_question(parts, form)
        found = _field_question(group[0], form)
        if len(group) == 2 and group[0].first.kind in _CHOICES:  # a combo with its notes field
            place, answer = _text_place(group[1])
            return replace(found, text_place=place, existing_answer=answer)
        return found
    first = boxes[0]
    label = _group_label(boxes, form)
    choices, options, existing = _box_options(boxes, form)
    text_place, answer, notes_label = None, None, ""
    if notes:
        text_place, answer = _text_place(notes[0])
        notes_label = _tooltip(notes[0]) or _clean(form.texts(notes[0].first.page).header_above(notes[0].box))
    if notes_label and _contains(label, notes_label):
        notes_label = ""
    ident = _ident(label)
    text = label
    if notes_label and (ident or len(label.split()) <= 4):
        text = f"{label}: {' / '.join(choices)}. {notes_label}" if choices != YES_NO else f"{label}. {notes_label}"
    return Found(
        page=first.first.page,
        box=first.box,
        id=ident,
        text=text or _humane(first.first.name),
        choices=choices,
        choice_place=AnswerPlace(PlaceKind.PDF_BUTTONS, first.first.name, options),
        text_place=text_place,
        existing_choice=existing,
        existing_answer=answer,
        several=_several(boxes, choices, label, form),
    )


def _several(boxes: list[_Slot], choices: tuple[str, ...], label: str, form: _Form) -> bool:
    """Whether a group of boxes is a choice of several: independent check boxes (a field each, not
    one radio group) whose label or tooltips say so ("Select all that apply", "Check only the boxes
    that apply to you"), or whose options are the columns of a grid that names who or what the row
    applies to, with a "No" column beside them (the IRS 13614-C's "Legally blind: You / Spouse / No")."""
    fields = {w.name for s in boxes for w in s.widgets}
    if len(boxes) < 2 or len(fields) < len(boxes) or any(w.kind != "checkbox" for s in boxes for w in s.widgets):
        return False
    if takes_several(choices, label, *(w.tooltip for s in boxes for w in s.widgets)):
        return True
    columns = form.columns
    words = [" ".join(_words(c)) for c in choices]
    others = [w for w in words if w not in ("no", "none")]
    return (
        all(id(s) in columns for s in boxes)
        and len(others) >= 2
        and len(others) == len(words) - 1
        and not any(w in _CHOICE_WORDS for w in others)
    )


def _field_question(slot: _Slot, form: _Form) -> Found:
    w = slot.first
    label = _field_label(slot, form)
    found = Found(page=w.page, box=w.box, id=_ident(label), text=label or _humane(w.name))
    if w.kind == "text":
        place, answer = _text_place(slot)
        return replace(found, text_place=place, existing_answer=answer)
    options = tuple((d, e) for d, e in w.options if not _PROMPT.match(d))
    shown = next((d for d, e in w.options if w.value in (d, e)), w.value)
    existing = None if shipped_placeholder(shown, w.default, w.options) else shown
    place = AnswerPlace(PlaceKind.PDF_FIELD, w.name, options)
    return replace(found, choices=tuple(d for d, _ in options), choice_place=place, existing_choice=existing)


def _comb_question(parts: list[_Slot], form: _Form) -> Found:
    """One number typed into several comb fields (the W-9's SSN: 3 + 2 + 4 boxes): one text
    place whose locator lists the fields left to right (a JSON list; the writer spreads the
    answer's characters over them)."""
    parts = sorted(parts, key=lambda s: s.box.x0)
    first = parts[0].first
    label = _field_label(parts[0], form)
    names = [s.first.name for s in parts]
    values = [next((w.value.strip() for w in s.widgets if w.value.strip()), "") for s in parts]
    place = AnswerPlace(
        PlaceKind.PDF_FIELD,
        json.dumps(names),
        max_chars=sum(s.first.max_chars or 0 for s in parts),
        note=f"spread over {len(parts)} fields of {', '.join(str(s.first.max_chars) for s in parts)} characters",
    )
    answer = "-".join(values) if all(values) else None
    return Found(
        page=first.page,
        box=first.box,
        id=_ident(label),
        text=label or _humane(first.name),
        text_place=place,
        existing_answer=answer,
    )


def _text_place(slot: _Slot) -> tuple[AnswerPlace, str | None]:
    w = slot.first
    names = list(dict.fromkeys(x.name for x in slot.widgets))
    note = "" if len(names) == 1 else f"written into the {len(names)} fields drawn on this spot: {', '.join(names)}"
    place = AnswerPlace(PlaceKind.PDF_FIELD, w.name, max_chars=w.max_chars, note=note)
    value = next((x.value.strip() for x in slot.widgets if x.value.strip()), "")
    return place, (None if shipped_placeholder(value, w.default) else value)


def _field_label(slot: _Slot, form: _Form) -> str:
    """A text or choice field's label: its tooltip when a real one (unless the page's label says
    the same at more length: tooltip "Date", label "If yes, what is the date?"), else the page's
    label (see :func:`_page_label`)."""
    return _better(_tooltip(slot), _page_label(slot, form))


def _page_label(slot: _Slot, form: _Form) -> str:
    """The label left of a field on its row; the text above it instead when the left one is a
    sentence of running text (the W-9's SSN boxes beside a paragraph); the label of the box
    before it when that asks for this text ("Other (see instructions) ▶", "If yes, what
    company?"); else the text above it or its column's header."""
    w = slot.first
    text = form.texts(w.page)
    left = _clean(text.left_of(w.box, form.min_x(w.box, w.page)))
    above = _clean(text.above(w.box))
    if left and above and len(left.split()) > 8 and not re.search(r"[?:)]$", left) and not _in_column(slot, form):
        return above
    if not left:
        before = form.box_before(w.box, w.page)
        if before is not None and _INVITES_TEXT.search(before.label):
            return _clean(before.label)
    return left or above or _clean(text.header_above(w.box))


def _in_column(slot: _Slot, form: _Form) -> bool:
    """Whether a field of another row lies below ``slot`` in its column (the same left edge): a
    table of fields, whose column header names the column and whose row's text names the row."""
    box = slot.box
    return any(
        s is not slot and s.first.page == slot.first.page and abs(s.box.x0 - box.x0) <= 2 and s.box.y0 >= box.y1 - 1
        for s in form.slots
    )


def _better(tip: str, page_label: str) -> str:
    """The tooltip, unless it is a word or two that the page's label holds with more, or the same words under
    another number (the printed number is the form's: DD 2875's tooltips number its blocks 2-9
    one higher than the page does), or there is no tooltip."""
    if not tip:
        return page_label
    words = set(_words(tip))
    if page_label and len(words) <= 2 and len(page_label) > len(tip) and words <= set(_words(page_label)):
        return page_label  # a tooltip of a word or two ("Date") that the page's label says in full
    number, printed = _ident(tip), _ident(page_label)
    if number and printed and number != printed and words - {number} <= set(_words(page_label)) | {printed}:
        return page_label
    return tip


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def _tooltip(slot: _Slot) -> str:
    """The first real tooltip of a slot's widgets: not a prompt, not "undefined", not a name
    joined to a cell's text by an underscore (Word's export writes those)."""
    for w in slot.widgets:
        tip = _clean(w.tooltip)
        if tip and "_" not in tip and tip.lower() != "undefined":
            return tip
    return ""


def _clean(text: str) -> str:
    text = _INSTRUCTION.sub(" ", text or "")
    text = _BLANKS.sub(" ", text.replace("▶", " ").replace("►", " "))
    text = " ".join(text.split()).strip(" :")
    text = _LEADING_CHOICES.sub("", text)  # "Yes No If Yes, why": the boxes' labels before it
    return "" if _PROMPT.match(text) or not re.search(r"\w", text) else text


def _group_label(boxes: list[_Slot], form: _Form) -> str:
    """A group of boxes' question: a single box's label (with its tooltip when that says more);
    for several, the label left of the first box on its row, else their tooltip, else the text
    above them."""
    first = boxes[0]
    text = form.texts(first.first.page)
    tips = [_tooltip(s) for s in boxes]
    shared = tips[0] if tips[0] and all(t == tips[0] for t in tips) else ""
    if len(boxes) == 1:
        label = _clean(first.label)
        if shared and label and not _contains(shared, label) and not _contains(label, shared):
            return f"{shared.rstrip('.')}: {label}"
        longer = max((shared, label), key=len) if shared and label else ""
        return longer or shared or label or _clean(text.left_of(first.box, 0.0)) or _clean(text.above(first.box))
    top = min(boxes, key=lambda s: (s.box.y0, s.box.x0))
    page = first.first.page
    around = Box(first.box.x0, first.box.y0 - 60, first.box.x1, first.box.y1 + 60)
    mine = {id(s) for s in boxes}
    rows = [  # the boxes of the grid's rows above and below (their labels are not this row's)
        s.box
        for s in form.near(around, page)
        if id(s) not in mine
        and s.first.family == "box"
        and abs(s.box.x0 - first.box.x0) <= 3
        and not s.box.same_row(first.box)
    ]
    left = _clean(text.left_of(first.box, form.min_x(first.box, page, leave_out=boxes), rows))
    above = "" if left else _clean(text.above(top.box))
    stem = _shared_stem(boxes)
    if stem:  # the tooltips' question, unless the page says it under another number (see _better)
        return _better(stem, left or above)
    return left or _better(shared, above)


def _shared_stem(boxes: list[_Slot]) -> str:
    """The question the boxes' tooltips ask before their options ("A U.S. citizen. You.", "A U.S.
    citizen. Spouse."), when most of them ask the same one."""
    stems = Counter(_clean(question_stem(s.first.tooltip)) for s in boxes)
    stems.pop("", None)
    stem, n = stems.most_common(1)[0] if stems else ("", 0)
    return stem if 2 * n >= len(boxes) else ""


def _contains(a: str, b: str) -> bool:
    """Whether ``a`` holds all of ``b``'s words in order (case and punctuation aside)."""
    return " ".join(_words(b)) in " ".join(_words(a))


def _box_options(boxes: list[_Slot], form: _Form) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...], str | None]:
    """The choices of a group of boxes, each with the widgets (name, on state) it ticks, and the
    choice already ticked."""
    if len(boxes) == 1:
        slot = boxes[0]
        ticks = json.dumps([[w.name, w.on_state, w.nth] for w in slot.widgets])
        on = any(w.is_on for w in slot.widgets)
        return YES_NO, (("Yes", ticks), ("No", "[]")), ("Yes" if on else None)
    headers = not any(s.label for s in boxes)  # a table row: the column headers name the choices
    labels = []
    for slot in boxes:
        label = _clean(slot.label) or (_clean(form.texts(slot.first.page).header_above(slot.box)) if headers else "")
        labels.append(label or _humane(slot.first.on_state))
    labels = _distinct(labels, boxes)
    options = tuple(
        (label, json.dumps([[w.name, w.on_state, w.nth] for w in s.widgets])) for label, s in zip(labels, boxes)
    )
    ticked = [label for label, s in zip(labels, boxes) if any(w.is_on for w in s.widgets)]
    return tuple(labels), options, (joined_choices(ticked) or None)  # several ticked: a choice of several's


def _distinct(labels: list[str], boxes: list[_Slot]) -> list[str]:
    """Labels made distinct: a repeated or empty one becomes the box's state name, then a number."""
    out = []
    for i, (label, slot) in enumerate(zip(labels, boxes)):
        if not label or labels.count(label) > 1:
            state = _humane(slot.first.on_state)
            label = state if state and state not in labels and state not in out else f"Option {i + 1}"
        out.append(label)
    return out


def _ident(label: str) -> str | None:
    """The ID a label gives: its leading number ("16.a.", "1 Name") or a control ID ("AC-2 (11)")."""
    label = label.strip()
    if _CONTROL.match(label):
        return label
    m = _NUMBER.match(label)
    return m.group(1).rstrip(".") if m else None


def _humane(name: str) -> str:
    """A field or state name made readable: ``Federal#20Employee`` → ``Federal Employee``."""
    name = _ES_TAG.sub("", name)
    name = pdf_name(name)
    name = re.sub(r"\[\d+\]", "", name.rsplit(".", 1)[-1] if "[" in name else name)
    return " ".join(re.sub(r"[_]+", " ", name).split())


__all__ = ["BUTTONS", "MAX_FIELDS_PER_PAGE", "OVERLAP_FIX", "FormWidget", "read_form", "shipped_placeholder"]
