"""The compliance matrix (XLSX) and the response outline (DOCX) of a shredded solicitation
(engine/review/compliance_matrix.py), opened with openpyxl and python-docx and checked row by
row against what the shredder found and what the team filled in."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import docx
import openpyxl
import pytest

from engine.questionnaire.solicitation import Compliance, MatrixEntry, shred
from engine.questionnaire.solicitation.outline import outline
from engine.questionnaire.writes import ExportError
from engine.review.compliance_matrix import (
    FACTS_SHEET,
    HEADER,
    MATRIX_SHEET,
    write_compliance_matrix,
    write_response_outline,
)
from tests.solicitation_fixtures import PAGE_ONE, PAGE_TWO, write_pdf

ROOT = Path(__file__).resolve().parents[2]
FORMULA_LIKE = '=HYPERLINK("http://x") the Contractor shall not be fooled.'


@pytest.fixture
def shredded(tmp_path: Path):
    lines = [*PAGE_TWO, "4.3 " + FORMULA_LIKE]
    return shred([write_pdf(tmp_path / "rfp.pdf", [PAGE_ONE, lines])])


def entries_for(shredded) -> dict[str, MatrixEntry]:
    work = next(r for r in shredded.requirements if r.id == "2.1")
    return {
        work.key: MatrixEntry(
            owner="Ops lead",
            compliance=Compliance.COMPLY,
            response="We mow every park each week with our own crews.",
            citations=("Operations manual p.4: crews mow weekly",),
            status="accepted",
        )
    }


def test_matrix_rows_are_the_requirements_and_every_cell_is_text(shredded, tmp_path: Path) -> None:
    entries = entries_for(shredded)
    target = write_compliance_matrix(shredded, tmp_path / "matrix.xlsx", entries)
    wb = openpyxl.load_workbook(target)
    assert wb.sheetnames == [FACTS_SHEET, MATRIX_SHEET]
    ws = wb[MATRIX_SHEET]
    assert tuple(c.value for c in ws[1]) == HEADER
    assert ws.freeze_panes == "A2" and ws.auto_filter.ref == ws.dimensions
    rows = list(ws.iter_rows(min_row=2))
    plan = outline(shredded.requirements)
    assert len(rows) == len(shredded.requirements)
    for row, req in zip(rows, shredded.requirements, strict=True):
        values = {h: c.value for h, c in zip(HEADER, row, strict=True)}
        assert values["ID"] == req.id and values["File"] == "rfp.pdf" and values["Page"] == str(req.page)
        assert values["Kind"] == req.kind.value and values["Mandatory"] == ("yes" if req.mandatory else "no")
        assert values["Requirement"] == req.text
        assert values["Proposal volume / section"] == plan.answered_in[req.key]
        entry = entries.get(req.key)
        assert values["Compliance"] == (entry.compliance.value if entry else None)
        assert values["Response"] == (entry.response if entry else None)
        assert values["Evidence citations"] == (entry.citations[0] if entry else None)
        assert values["Status"] == (entry.status if entry else "open")
        assert all(c.data_type == "s" for c in row if c.value is not None)  # text, never a formula
    assert any(r.quote == FORMULA_LIKE for r in shredded.requirements)


def test_key_facts_sheet_quotes_each_fact_with_its_page(shredded, tmp_path: Path) -> None:
    wb = openpyxl.load_workbook(write_compliance_matrix(shredded, tmp_path / "m.xlsx"))
    rows = [tuple(c.value for c in r) for r in wb[FACTS_SHEET].iter_rows()]
    assert rows[0] == ("Fact", "Value (quoted)", "File", "Page")
    facts = {r[0]: r for r in rows[1:]}
    for fact in shredded.facts:
        label, value, file, page = facts[fact.fact.label]
        assert value == fact.value
        assert page == (str(fact.page) if fact.stated else None)


def test_outline_sections_in_order_with_requirements_and_drafted_responses(shredded, tmp_path: Path) -> None:
    entries = entries_for(shredded)
    document = docx.Document(str(write_response_outline(shredded, tmp_path / "outline.docx", entries)))
    paragraphs = [(p.style.name, p.text) for p in document.paragraphs]
    headings = [t for s, t in paragraphs if s == "Heading 1"]
    plan = outline(shredded.requirements)
    assert headings == ["Key facts", *[s.title for s in plan.sections], "Checklist: submission and terms"]
    texts = [t for _, t in paragraphs]
    for section in plan.sections:
        at = texts.index(section.title)
        following = texts[at + 1 :]
        for req in plan.requirements_of(section.title, shredded.requirements):
            assert any(req.id in t and req.text in t for t in following)
    work = next(r for r in shredded.requirements if r.id == "2.1")
    at = next(i for i, t in enumerate(texts) if t.startswith("2.1 (p.1"))
    assert texts[at + 1] == "Comply. We mow every park each week with our own crews."
    assert texts[at + 2] == "Operations manual p.4: crews mow weekly"
    checklist = texts[texts.index("Checklist: submission and terms") + 1 :]
    assert [t.split(" ", 2)[1] for t in checklist] == [r.id for r in shredded.requirements if not r.drafted]
    assert work.drafted


def test_outline_section_limit_from_the_instructions(shredded) -> None:
    plan = outline(shredded.requirements)
    limited = [s for s in plan.sections if s.limit]
    assert limited and "ten (10) pages" in limited[0].limit


def test_export_refuses_a_wrong_suffix_or_a_missing_folder(shredded, tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="xlsx"):
        write_compliance_matrix(shredded, tmp_path / "matrix.csv")
    with pytest.raises(ExportError, match="folder does not exist"):
        write_response_outline(shredded, tmp_path / "nowhere" / "outline.docx")


def test_a_draft_runs_results_fill_the_matrix_through_the_command(tmp_path: Path) -> None:
    """The results file is written here in the shape `draft --results` writes (a real run's keys)."""
    rfp = write_pdf(tmp_path / "rfp.pdf", [PAGE_ONE, PAGE_TWO])
    row = {
        "id": "2.1",
        "sheet": "Document",
        "row": 1006,
        "choice": "Comply",
        "answer": "Our crews mow every park weekly.",
        "status": "drafted",
        "citations": [{"file": "ops.pdf", "page": 4, "quote": "Crews mow weekly.", "label": "verified"}],
    }
    results = tmp_path / "results.jsonl"
    results.write_text(json.dumps(row) + "\n", encoding="utf-8")
    target = tmp_path / "matrix.xlsx"
    run = subprocess.run(
        [sys.executable, "-m", "engine", "shred", str(rfp), "--results", str(results), "--matrix", str(target)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    ws = openpyxl.load_workbook(target)[MATRIX_SHEET]
    rows = {r[0]: dict(zip(HEADER, r, strict=True)) for r in ws.iter_rows(min_row=2, values_only=True)}
    assert rows["2.1"]["Compliance"] == "Comply" and rows["2.1"]["Response"] == "Our crews mow every park weekly."
    assert rows["2.1"]["Evidence citations"] == "ops.pdf p.4: Crews mow weekly." and rows["2.1"]["Status"] == "drafted"
    assert all(r["Compliance"] is None and r["Status"] == "open" for k, r in rows.items() if k != "2.1")
