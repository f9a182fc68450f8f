"""The answer places of a Word questionnaire, made from what the reader found (engine/
questionnaire/word/reader.py, word/tables.py): a table cell, empty paragraphs, a content control
or legacy form field, boxes to tick, a new paragraph after the question; and what each already
holds (a questionnaire answered before keeps its answers).

Each maker returns ``(place, existing)``: the :class:`~engine.questionnaire.places.AnswerPlace`
and the answer (text, or the ticked options' labels) already there, None when blank.
"""

from __future__ import annotations

from lxml import etree

from engine.questionnaire.cues import MARKS
from engine.questionnaire.length_limits import stated_limit
from engine.questionnaire.places import AnswerPlace, PlaceKind
from engine.questionnaire.records import joined_choices
from engine.questionnaire.word.xmltree import (
    Box,
    Cell,
    Control,
    W,
    clean,
    is_blank,
    list_items,
    locator,
    one_line,
    read_inline,
    sdt_kind,
    wval,
)

TEXT_CONTROLS = ("text", "rich text", "date", "combo box")
CHOICE_CONTROLS = ("dropdown", "FORMDROPDOWN")


def control_place(c: Control, note: str = "") -> tuple[AnswerPlace, str | None]:
    """A content control or legacy form field that takes text (or a pick from its list)."""
    kind = PlaceKind.FORM_FIELD if c.kind.startswith("FORM") else PlaceKind.CONTENT_CONTROL
    existing = None if c.placeholder or is_blank(c.text) else one_line(c.text)
    if c.items and c.kind in CHOICE_CONTROLS:  # the item shown, as listed ("Level 1:  AAL1", its spaces kept)
        existing = {one_line(i): i for i in c.items}.get(existing or "")  # (none: its prompt, "Choose an item.")
    limit = stated_limit(c.text)  # "Click here to enter text (max 500 characters)."
    longest = c.el.find(f"{W}textInput/{W}maxLength") if c.kind == "FORMTEXT" else None  # a legacy field's limit
    chars = int(wval(longest, "0") or 0) if longest is not None else None
    chars = min(x for x in (chars, limit.max_chars) if x) if chars or limit.max_chars else None
    place = AnswerPlace(kind, locator(c.el), control=c.kind, note=note, max_words=limit.max_words, max_chars=chars)
    return place, existing


def boxes_place(boxes: list[Box], note: str = "") -> tuple[AnswerPlace, str | None]:
    """Boxes to tick, each option labelled; the ticked ones' labels as the existing choice."""
    options = tuple((b.label or f"option {i + 1}", b.locator()) for i, b in enumerate(boxes))
    ticked = [label for (label, _), b in zip(options, boxes) if b.checked]
    return AnswerPlace(PlaceKind.CHECKBOXES, options[0][1], options, control=boxes[0].kind, note=note), (
        joined_choices(ticked) or None
    )


def list_glyph_place(items: list[tuple[etree._Element, str, bool]]) -> tuple[AnswerPlace, str | None]:
    """Options drawn as list items whose bullet is a box (❏ Yes / ❏ No), with whether each is ticked."""
    options = tuple((label, locator(p)) for p, label, _ in items)
    ticked = [label for _, label, on in items if on]
    note = "the option is ticked by drawing its bullet as a ticked box"
    place = AnswerPlace(PlaceKind.CHECKBOXES, options[0][1], options, control="list glyph", note=note)
    return place, joined_choices(ticked) or None


def column_marks_place(cells: list[tuple[str, Cell]]) -> tuple[AnswerPlace, str | None]:
    """Options as columns to mark with "X" (a Yes / No column each); the marked one as existing."""
    options = tuple((label, locator(cell.el)) for label, cell in cells)
    marked = [label for label, cell in cells if one_line(cell.text).lower() in MARKS]
    note = 'the chosen column\'s cell is marked with "X"'
    return AnswerPlace(PlaceKind.CHECKBOXES, options[0][1], options, control="X column", note=note), (
        joined_choices(marked) or None
    )


def cell_place(cell: Cell, prompts: int = 0, note: str = "") -> tuple[AnswerPlace, str | None]:
    """A table cell: its text control when it holds one, else the cell itself (written into its
    first empty paragraph, or below its ``prompts`` first paragraphs of guidance)."""
    wrapper = cell.cell_control()
    controls = [c for c in cell.controls if c.kind in TEXT_CONTROLS or c.kind == "FORMTEXT"]
    if controls:
        return control_place(controls[0], note)
    wrapper = wrapper if wrapper is not None else cell.block_control()
    if wrapper is not None and not cell.boxes and sdt_kind(wrapper) in ("text", "rich text", "date"):
        placeholder = any(s.find(f"{W}showingPlcHdr") is not None for s in wrapper.iter(f"{W}sdtPr"))
        return control_place(Control(sdt_kind(wrapper), wrapper, cell.text, placeholder=placeholder), note)
    inlines = cell.inlines()
    rest = [one_line(i.text) for _, i in inlines[prompts:]]
    existing = "\n".join(t for t in rest if t).strip()
    if prompts and not note:
        note = "below the guidance the cell holds"
    return AnswerPlace(PlaceKind.TABLE_CELL, locator(cell.el), note=note), (None if is_blank(existing) else existing)


def cell_choice(cell: Cell) -> tuple[AnswerPlace, str | None, tuple[str, ...]] | None:
    """A cell whose one place is a drop-down (a content control's list, inline or wrapping the cell or
    its paragraphs, or a FORMDROPDOWN): its place, the item it shows, its items. None when the cell
    holds no drop-down, more than one, or a text control beside it."""
    picks = [c for c in cell.controls if c.kind in CHOICE_CONTROLS and c.items]
    if any(c.kind in TEXT_CONTROLS or c.kind == "FORMTEXT" for c in cell.controls) or cell.boxes:
        return None
    if not picks:
        wrapper = cell.cell_control()
        wrapper = wrapper if wrapper is not None else cell.block_control()
        pr = wrapper.find(f"{W}sdtPr") if wrapper is not None else None
        if pr is None or sdt_kind(wrapper) != "dropdown" or not list_items(pr):
            return None
        shown = pr.find(f"{W}showingPlcHdr") is not None
        picks = [Control("dropdown", wrapper, cell.text, list_items(pr), placeholder=shown)]
    if len(picks) != 1:
        return None
    place, existing = control_place(picks[0])
    return place, existing, picks[0].items


def paragraph_place(p: etree._Element, note: str = "") -> tuple[AnswerPlace, str | None]:
    """An empty paragraph (or one holding only an underscore line or a placeholder) for the answer."""
    text = read_inline(p).text
    return AnswerPlace(PlaceKind.PARAGRAPH, locator(p), note=note), (None if is_blank(text) else one_line(text))


def after_label_place(p: etree._Element, label: str, note: str = "") -> tuple[AnswerPlace, str | None]:
    """The rest of a label's paragraph ("Responsible Role: ___"): written after the label."""
    text = one_line(read_inline(p).text)
    rest = text[len(label) :].strip() if text.startswith(label) else ""
    rest = rest.lstrip(":").strip()
    return AnswerPlace(PlaceKind.AFTER_LABEL, locator(p), note=note or "after the label, in its paragraph"), (
        None if is_blank(rest) else rest
    )


def new_paragraph_place(after: etree._Element, note: str) -> tuple[AnswerPlace, None]:
    """No place in the document: a paragraph inserted after ``after`` (a paragraph)."""
    return AnswerPlace(PlaceKind.NEW_PARAGRAPH, locator(after), note=note), None


def label_of(text: str) -> str:
    """A label as question text: one line, box glyphs and the final colon dropped."""
    return clean(text)


__all__ = [
    "after_label_place",
    "boxes_place",
    "cell_choice",
    "cell_place",
    "column_marks_place",
    "control_place",
    "label_of",
    "list_glyph_place",
    "new_paragraph_place",
    "paragraph_place",
]
