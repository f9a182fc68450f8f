"""What a form's field names and tooltips say beyond its layout: the subforms of a form designed
as XFA (Adobe LiveCycle / AEM Designer), and the fields a form keeps for someone other than the
responder.

**Subforms.** A form designed as XFA names each field by the subforms it sits in (SOM names, every
part indexed: ``form1[0].page1[0].dueARefund[0].refundCheckMail[0]``); its AcroForm copy keeps those
names (the IRS 13614-C and W-9). The check boxes of one subform are the options of one question
(engine/questionnaire/pdf/form.py groups them), whichever lines they are drawn on: "If due a refund,
how would you like your refund" draws its four boxes on two lines, "Received money from any of the
following" one box a line. A box named like its own subform (``…statusDivorced[0].statusDivorced[0]``,
the subform holding the box and its date field) is an option of the subform above it. A page's own
subform (``form1[0].page1[0]``) groups nothing.

**Set aside** (left alone and named in a note), whatever the form's names:

- *someone else's part*: a field whose tooltip marks it "(To be completed by …)" (a preparer,
  a volunteer, the office) or "For office use only", every field of its subform (SOM names), and
  the fields beside them out to the page's right edge (the part's notes column);
- *a table of records*: fields named by rows (``namesOf[0].Row1[0].dateOfBirth[0]``,
  ``…Row2[0].dateOfBirth[0]``: two rows or more with the same columns) are a list the responder
  fills in by hand (the people who lived with you), not questions;
- *a signature line drawn as a text field* (its tooltip names a signature: "Primary taxpayer
  printed name and signature") and the field on its row whose tooltip is "Date".
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from engine.questionnaire.pdf.layout import Box


class FormWidget(Protocol):
    """What is looked at of a form's widget (engine/questionnaire/pdf/form.py's FormWidget)."""

    page: int
    xref: int
    name: str
    kind: str
    box: Box
    tooltip: str


_SOM_PART = re.compile(r"^[^.\[\]]+\[\d+\]$")
_ROW_PART = re.compile(r"^Row\d+(?:\[\d+\])?$", re.I)
_OTHERS_PART = re.compile(r"\(\s*to be completed by\b[^)]*\)|\bfor (?:official|office) use only\b", re.I)
_SIGNATURE = re.compile(r"\bsignature\b", re.I)
OFFICE_USE = "office-use"  # the reasons name the fields in the reader's note ("53 office-use fields")
RECORDS = "table row"
SIGNATURE_LINE = "signature line"


def subform(name: str) -> str | None:
    """The subform a SOM-named field belongs to (see the module docstring); None for a name that is
    not a SOM name, or a field of a page's own subform."""
    parts = name.split(".")
    if len(parts) < 2 or not all(_SOM_PART.match(p) for p in parts):
        return None
    up = parts[:-1]
    if len(up) >= 2 and up[-1] == parts[-1]:
        up = up[:-1]  # a box named like its own subform: an option of the subform above
    return ".".join(up) if len(up) >= 3 else None


def question_stem(tooltip: str) -> str:
    """A tooltip's question before its last sentence, the option's ("If due a refund, how would you
    like your refund. Direct deposit." → "If due a refund, how would you like your refund"); "" when
    it has one sentence."""
    head, dot, _ = " ".join((tooltip or "").split()).rstrip(" .").rpartition(". ")
    return head if dot and len(head.split()) >= 2 else ""


@dataclass
class SetAside:
    """The widgets set aside, each with its reason, and a note per table of records."""

    reasons: dict[int, str] = field(default_factory=dict)  # by widget xref
    notes: list[str] = field(default_factory=list)


def set_aside(widgets: list[FormWidget], page_right: Callable[[int], float]) -> SetAside:
    """The widgets that are not the responder's questions (see the module docstring);
    ``page_right(page)`` is a page's right edge."""
    out = SetAside()
    _others_part(widgets, page_right, out)
    _record_tables(widgets, out)
    _signature_lines(widgets, out)
    return out


def _others_part(widgets: list[FormWidget], page_right: Callable[[int], float], out: SetAside) -> None:
    marked = [w for w in widgets if _OTHERS_PART.search(w.tooltip)]
    for m in marked:
        part = subform(m.name)
        members = [w for w in widgets if w is m or (part and w.page == m.page and w.name.startswith(part + "."))]
        box = members[0].box
        for w in members[1:]:
            box = box.union(w.box)
        column = Box(box.x0, box.y0, page_right(m.page), box.y1)  # and its notes column, to the page's edge
        for w in widgets:
            if w.page == m.page and column.x0 <= w.box.cx <= column.x1 and column.y0 <= w.box.cy <= column.y1:
                out.reasons.setdefault(w.xref, OFFICE_USE)
        for w in members:
            out.reasons.setdefault(w.xref, OFFICE_USE)


def _record_tables(widgets: list[FormWidget], out: SetAside) -> None:
    tables: dict[tuple[int, str], dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for w in widgets:
        parts = w.name.split(".")
        at = next((i for i, p in enumerate(parts) if i and _ROW_PART.match(p)), None)
        if at is not None and at < len(parts) - 1:
            tables[(w.page, ".".join(parts[:at]))][parts[at]].add(".".join(parts[at + 1 :]))
    for (page, prefix), rows in tables.items():
        columns = set.intersection(*rows.values())
        if len(rows) < 2 or len(columns) < 2:
            continue
        fields = [w for w in widgets if w.page == page and w.name.startswith(prefix + ".")]
        for w in fields:
            out.reasons.setdefault(w.xref, RECORDS)
        tips = (w.tooltip for w in fields if w.tooltip and not w.tooltip.lower().startswith("row"))
        tip = next(tips, "") or re.sub(r"\[\d+\]$", "", prefix.rsplit(".", 1)[-1])  # "Row: 1. Column: …" names no table
        first = re.split(r"(?<=[.?:])\s", tip, maxsplit=1)[0][:90]
        out.notes.append(
            f"a table of {len(rows)} rows on page {page + 1} ({first}) is a list to fill in by hand, not questions: "
            f"its {len(fields)} fields are left as they are"
        )


def _signature_lines(widgets: list[FormWidget], out: SetAside) -> None:
    lines = [w for w in widgets if w.kind == "text" and _SIGNATURE.search(w.tooltip)]
    for line in lines:
        out.reasons.setdefault(line.xref, SIGNATURE_LINE)
        for w in widgets:
            if (
                w.kind == "text"
                and w.page == line.page
                and w.tooltip.strip(" .").lower() == "date"
                and w.box.same_row(line.box)
                and w.box.x0 >= line.box.x1
            ):
                out.reasons.setdefault(w.xref, SIGNATURE_LINE)


__all__ = ["OFFICE_USE", "RECORDS", "SIGNATURE_LINE", "SetAside", "question_stem", "set_aside", "subform"]
