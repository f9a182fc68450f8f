"""Small PDF questionnaires generated with PyMuPDF for the PDF intake and write-back tests: form
fields (text, check boxes, radio groups, combo and list boxes, signatures) placed beside printed
labels the way real forms place them, and flat pages of numbered, bulleted and checklist lines
or a ruled table."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

TEXT = pymupdf.PDF_WIDGET_TYPE_TEXT
CHECKBOX = pymupdf.PDF_WIDGET_TYPE_CHECKBOX
RADIO = pymupdf.PDF_WIDGET_TYPE_RADIOBUTTON
COMBO = pymupdf.PDF_WIDGET_TYPE_COMBOBOX
LISTBOX = pymupdf.PDF_WIDGET_TYPE_LISTBOX
SIGNATURE = pymupdf.PDF_WIDGET_TYPE_SIGNATURE


def add_field(
    page: pymupdf.Page,
    kind: int,
    name: str,
    rect: tuple[float, float, float, float],
    *,
    tooltip: str = "",
    value: str | bool | None = None,
    choices: list | None = None,
    flags: int = 0,
    max_chars: int = 0,
) -> None:
    w = pymupdf.Widget()
    w.field_type = kind
    w.field_name = name
    w.rect = pymupdf.Rect(rect)
    if tooltip:
        w.field_label = tooltip
    if choices is not None:
        w.choice_values = choices
    if value is not None:
        w.field_value = value
    if flags:
        w.field_flags = flags
    if max_chars:
        w.text_maxlen = max_chars
    page.add_widget(w)


def label(page: pymupdf.Page, x: float, y: float, text: str, size: float = 10) -> None:
    """Printed text with its baseline at ``y``."""
    page.insert_text((x, y), text, fontsize=size)


def save(doc: pymupdf.Document, path: Path) -> Path:
    doc.save(path)
    doc.close()
    return path


def name_states(path: Path, states: dict[str, list[str]]) -> None:
    """Give the radio widgets of each field name their own "on" states, in page order (PyMuPDF
    creates every radio button with the same one)."""
    doc = pymupdf.open(path)
    seen: dict[str, int] = {}
    for page in doc:
        for w in page.widgets():
            if w.field_name not in states:
                continue
            k = seen[w.field_name] = seen.get(w.field_name, -1) + 1
            state = states[w.field_name][k]
            on = doc.xref_get_key(w.xref, f"AP/N/{w.on_state()}")[1]
            off = doc.xref_get_key(w.xref, "AP/N/Off")[1]
            doc.xref_set_key(w.xref, "AP/N", f"<</Off {off}/{state} {on}>>")
            doc.xref_set_key(w.xref, "AS", "/Off")
            doc.xref_set_key(w.xref, "AP/D", "null")
    doc.saveIncr()
    doc.close()


BOX_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")  # has ☐ (Helvetica has not)


def flat_pdf(path: Path, pages: list[list[tuple[float, float, str]]]) -> Path:
    """A PDF without fields: per page, (x, baseline y, text) lines; a line starting with ☐ is set
    in DejaVu Sans (the test skips where that font is absent)."""
    doc = pymupdf.open()
    for lines in pages:
        page = doc.new_page()
        for x, y, text in lines:
            if text.startswith("\u2610"):
                if not BOX_FONT.is_file():
                    pytest.skip(f"{BOX_FONT} is absent: no font here draws the checklist's box glyph")
                page.insert_text((x, y), text, fontsize=10, fontname="dejavu", fontfile=str(BOX_FONT))
            else:
                label(page, x, y, text)
    return save(doc, path)


def ruled_table(page: pymupdf.Page, top: float, widths: list[float], rows: list[list[str]], x0: float = 50) -> None:
    """A table drawn with rules, one line of text per cell."""
    height = 22
    xs = [x0]
    for w in widths:
        xs.append(xs[-1] + w)
    for r, row in enumerate(rows):
        y = top + r * height
        for c, text in enumerate(row):
            page.draw_rect(pymupdf.Rect(xs[c], y, xs[c + 1], y + height), color=(0, 0, 0), width=0.6)
            if text:
                label(page, xs[c] + 3, y + 15, text, size=8)


SUPPLIER_QUESTIONS = (
    "Vendor Name",
    "Is customer data encrypted at rest?",
    "How long are backups of the production databases kept?",
)


def supplier_form(path: Path) -> Path:
    """A one-page supplier form: the vendor's name and the backup question as text fields named by
    their tooltips, the encryption question as a Yes/No pair of boxes labelled on the page."""
    vendor, encrypted, backups = SUPPLIER_QUESTIONS
    doc = pymupdf.open()
    page = doc.new_page()
    add_field(page, TEXT, "vendor", (200, 88, 500, 104), tooltip=vendor)
    label(page, 50, 140, encrypted)
    add_field(page, CHECKBOX, "encrypted_yes", (300, 130, 310, 140))
    label(page, 313, 139, "Yes")
    add_field(page, CHECKBOX, "encrypted_no", (350, 130, 360, 140))
    label(page, 363, 139, "No")
    add_field(page, TEXT, "backups", (50, 190, 550, 230), tooltip=backups)
    return save(doc, path)
