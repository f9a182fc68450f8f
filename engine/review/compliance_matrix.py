"""A shredded solicitation's exports (engine/questionnaire/solicitation/): the compliance matrix
(XLSX) and the response outline (DOCX).

- :func:`write_compliance_matrix`: a first sheet "Key facts" (fact, value as quoted, file, page;
  the due-date alert above them), then "Compliance matrix": one row per requirement with ID,
  file, section, page, kind, mandatory, requirement text (a list item with its lead-in), owner,
  proposal volume/section (the outline's section that answers it), compliance, response,
  evidence citations, status. The header row is frozen and filtered; every cell is text
  (engine/core/workbook_text.py: a quote starting with "=" never becomes a formula).
- :func:`write_response_outline`: the proposal's skeleton in Word: the key facts, then each
  volume or section the instructions ask for, in their order, with its limit; under it the
  requirements it answers (ID, page, mandatory, the quote) and, where drafted, the response
  with its compliance and citations; the submission and terms requirements close it as a
  checklist.

Both files are written atomically; the entries (owner, compliance, response, citations, status)
come from the caller by requirement key (``Requirement.key``), empty where none is given.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping
from pathlib import Path

import docx
from openpyxl import Workbook
from openpyxl.styles import Alignment, Font

from engine.core.files import write_atomic
from engine.core.workbook_text import append_text, plain_text
from engine.drafting.anchoring import AnchorLabel
from engine.questionnaire.solicitation import Compliance, MatrixEntry, Shredded
from engine.questionnaire.solicitation.outline import Outline, outline
from engine.questionnaire.writes import ExportError
from engine.review.review import ReviewItem

FACTS_SHEET = "Key facts"
MATRIX_SHEET = "Compliance matrix"
FACTS_HEADER = ("Fact", "Value (quoted)", "File", "Page")
HEADER = (
    "ID",
    "File",
    "Section",
    "Page",
    "Kind",
    "Mandatory",
    "Requirement",
    "Owner",
    "Proposal volume / section",
    "Compliance",
    "Response",
    "Evidence citations",
    "Status",
)
_WIDTHS = (12, 24, 30, 6, 12, 10, 70, 14, 30, 16, 60, 40, 10)
NO_ENTRY = MatrixEntry()


def entries_from_results(shredded: Shredded, rows: Iterable[Mapping]) -> dict[str, MatrixEntry]:
    """The matrix's entries from a draft run's results (``draft --results FILE.jsonl``: one JSON
    object per row with its ``id``, ``choice``, ``answer``, ``citations`` and ``status``), by
    requirement ID; a choice that is not a compliance choice is left out, the row's last result
    wins. Checklist rows, which the run skipped, keep no entry."""
    by_id = {r.id: r for r in shredded.requirements}
    choices = {c.value: c for c in Compliance}
    entries: dict[str, MatrixEntry] = {}
    for row in rows:
        req = by_id.get(str(row.get("id") or ""))
        if req is None:
            continue
        citations = tuple(
            f"{c.get('file', '')}{' p.' + str(c['page']) if c.get('page') else ''}: {c.get('quote', '')}"
            for c in row.get("citations") or ()
            if c.get("label", "verified") == "verified"
        )
        entries[req.key] = MatrixEntry(
            compliance=choices.get(str(row.get("choice") or "")),
            response=str(row.get("answer") or ""),
            citations=citations,
            status=str(row.get("status") or "drafted"),
        )
    return entries


def matrix_rows(
    shredded: Shredded, entries: Mapping[str, MatrixEntry] | None = None, plan: Outline | None = None
) -> list[tuple[str, ...]]:
    """The matrix's rows (all text), one per requirement, in document order."""
    entries = entries or {}
    plan = plan or outline(shredded.requirements)
    rows = []
    for req in shredded.requirements:
        entry = entries.get(req.key, NO_ENTRY)
        rows.append(
            (
                req.id,
                req.file,
                req.section,
                str(req.page),
                req.kind.value,
                "yes" if req.mandatory else "no",
                req.text,
                entry.owner,
                plan.answered_in.get(req.key, ""),
                entry.compliance.value if entry.compliance else "",
                entry.response,
                "\n".join(entry.citations),
                entry.status,
            )
        )
    return rows


def _target(target: str | Path, suffix: str, shredded: Shredded) -> Path:
    target = Path(target)
    if target.suffix.lower() != suffix:
        raise ExportError(target, f"this export is a {suffix} file", f"name it *{suffix}")
    if not target.parent.is_dir():
        raise ExportError(target, "the target folder does not exist", "create the folder or choose another target")
    if target.name in shredded.files:
        raise ExportError(target, "the export target has the name of a solicitation file", "export to a new file")
    return target


def entries_from_review(
    shredded: Shredded, items: Iterable[ReviewItem], include_unreviewed: bool = False
) -> dict[str, MatrixEntry]:
    """The matrix's entries from a project's review (the app's Export screen), by requirement ID:
    every row's state as its status and its assignee as its owner; the compliance choice, response
    and verified citations of an accepted or edited answer (also of an unreviewed draft with
    ``include_unreviewed``), as the completed file writes them (``ReviewItem.exported``)."""
    by_id = {r.id: r for r in shredded.requirements}
    choices = {c.value: c for c in Compliance}
    entries: dict[str, MatrixEntry] = {}
    for item in items:
        req = by_id.get(item.question.id or "")
        if req is None:
            continue
        written = item.exported(include_unreviewed)
        answer, choice = written if written is not None else ("", None)
        citations = tuple(
            f"{c.file}{f' p.{c.page}' if c.page else ''}: {c.quote}"
            for c in (item.citations if written is not None else ())
            if c.label is AnchorLabel.VERIFIED
        )
        entries[req.key] = MatrixEntry(
            owner=item.holder or "",
            compliance=choices.get(choice or ""),
            response=answer,
            citations=citations,
            status=item.state.label,
        )
    return entries


def write_compliance_matrix(
    shredded: Shredded, target: str | Path, entries: Mapping[str, MatrixEntry] | None = None
) -> Path:
    """The compliance matrix as XLSX (see the module docstring)."""
    target = _target(target, ".xlsx", shredded)
    write_atomic(target, compliance_matrix_bytes(shredded, entries))
    return target


def compliance_matrix_bytes(shredded: Shredded, entries: Mapping[str, MatrixEntry] | None = None) -> bytes:
    """The bytes of :func:`write_compliance_matrix`'s file (the app's download)."""
    wb = Workbook()
    facts = wb.active
    facts.title = FACTS_SHEET
    if shredded.alert is not None:
        append_text(facts, ("Alert", shredded.alert.line, "", ""))
    append_text(facts, FACTS_HEADER)
    header_row = facts.max_row
    for fact in shredded.facts:
        append_text(facts, (fact.fact.label, fact.value, fact.file, str(fact.page) if fact.stated else ""))
    for cell in facts[header_row]:
        cell.font = Font(bold=True)
    facts.column_dimensions["A"].width, facts.column_dimensions["B"].width = 30, 100
    ws = wb.create_sheet(MATRIX_SHEET)
    append_text(ws, HEADER)
    for row in matrix_rows(shredded, entries):
        append_text(ws, row)
    for cell in ws[1]:
        cell.font = Font(bold=True)
    for row in ws.iter_rows(min_row=2):
        for cell in row:
            cell.alignment = Alignment(wrap_text=True, vertical="top")
    for c, width in enumerate(_WIDTHS, start=1):
        ws.column_dimensions[ws.cell(1, c).column_letter].width = width
    ws.freeze_panes = "A2"
    ws.auto_filter.ref = ws.dimensions
    buffer = io.BytesIO()
    wb.save(buffer)
    return buffer.getvalue()


def write_response_outline(
    shredded: Shredded, target: str | Path, entries: Mapping[str, MatrixEntry] | None = None
) -> Path:
    """The response outline as DOCX (see the module docstring)."""
    target = _target(target, ".docx", shredded)
    write_atomic(target, response_outline_bytes(shredded, entries))
    return target


def response_outline_bytes(shredded: Shredded, entries: Mapping[str, MatrixEntry] | None = None) -> bytes:
    """The bytes of :func:`write_response_outline`'s file (the app's download)."""
    entries = entries or {}
    plan = outline(shredded.requirements)
    document = docx.Document()
    document.add_heading(plain_text("Response outline: " + ", ".join(shredded.files)), level=0)
    if shredded.alert is not None:
        document.add_paragraph(plain_text(shredded.alert.line)).runs[0].bold = True
    document.add_heading("Key facts", level=1)
    for fact in shredded.facts:
        where = f" ({fact.file} p.{fact.page})" if fact.stated else ""
        p = document.add_paragraph(style="List Bullet")
        p.add_run(plain_text(fact.fact.label + ": ")).bold = True
        p.add_run(plain_text(fact.value + where))
    for section in plan.sections:
        document.add_heading(plain_text(section.title), level=1)
        if section.limit:
            document.add_paragraph(plain_text("Limit: " + section.limit)).runs[0].italic = True
        for req in plan.requirements_of(section.title, shredded.requirements):
            p = document.add_paragraph()
            p.add_run(
                plain_text(f"{req.id} (p.{req.page}, {req.kind.value}{', mandatory' if req.mandatory else ''}): ")
            )
            p.runs[0].bold = True
            p.add_run(plain_text(req.text))
            entry = entries.get(req.key)
            if entry is not None and (entry.response or entry.compliance):
                answer = document.add_paragraph()
                if entry.compliance:
                    answer.add_run(plain_text(entry.compliance.value + ". ")).bold = True
                answer.add_run(plain_text(entry.response))
                for citation in entry.citations:
                    document.add_paragraph(plain_text(citation), style="List Bullet 2")
    checklist = [r for r in shredded.requirements if not r.drafted]
    if checklist:
        document.add_heading("Checklist: submission and terms", level=1)
        for req in checklist:
            document.add_paragraph(plain_text(f"☐ {req.id} (p.{req.page}): {req.text}"))
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


__all__ = [
    "FACTS_SHEET",
    "HEADER",
    "MATRIX_SHEET",
    "compliance_matrix_bytes",
    "entries_from_results",
    "entries_from_review",
    "matrix_rows",
    "response_outline_bytes",
    "write_compliance_matrix",
    "write_response_outline",
]
