"""Word questionnaires printed as flat PDFs (#55), fifth round: small Word documents written here in
the layout of the shared FedRAMP SSP's control sections (a "Control Summary Information" table: a
"Responsible Role:" row and labels over their boxes; a table titled "<control> What is the solution
and how is it implemented?" over rows "Part a | ___"), printed ruled by the bench's printer and read
by the flat PDF reader. Main's reader found none of the parts (299 of the FedRAMP SSP print's 386
misses) and no "Responsible Role:" in a summary table holding it alone beside its boxes."""

from __future__ import annotations

import pytest

from tests import word_fixtures as wf

_fold, _printed = wf.fold, wf.printed

STATUS = ("Implemented", "Partially implemented", "Planned", "Not applicable")
ORIGIN = ("Service Provider Corporate", "Service Provider System Specific", "Provided by Customer")


def _summary(doc, control: str, parameters: list[str]) -> None:
    """A control's summary table: its ID and title, "Responsible Role:" and its parameters, each
    across the table, then two labels over their boxes."""
    rows = [f"Parameter {p}:" for p in parameters]
    table = doc.add_table(rows=4 + len(rows), cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = control, "Control Summary Information"
    for r, label in enumerate(["Responsible Role:", *rows], start=1):
        table.cell(r, 0).merge(table.cell(r, 1)).text = label
    for r, (label, options) in enumerate(
        [
            ("Implementation Status (check all that apply):", STATUS),
            ("Control Origination (check all that apply):", ORIGIN),
        ],
        start=1 + len(parameters) + 1,
    ):
        cell = table.cell(r, 0).merge(table.cell(r, 1))
        cell.text = label
        for option in options:
            cell.add_paragraph(f"☐ {option}")
    doc.add_paragraph("")


def _parts(doc, control: str, parts: list[str]) -> None:
    """A control's "What is the solution and how is it implemented?" table: its title across,
    one row per part with an empty cell for the answer."""
    table = doc.add_table(rows=1 + len(parts), cols=2)
    table.cell(0, 0).merge(table.cell(0, 1)).text = f"{control} What is the solution and how is it implemented?"
    for r, part in enumerate(parts, start=1):
        table.cell(r, 0).text = part
    doc.add_paragraph("")


def _section(doc, control: str, parameters: list[str], parts: list[str]) -> None:
    doc.add_paragraph(f"{control} Access Enforcement")
    doc.add_paragraph("The information system enforces approved authorizations for logical access.")
    _summary(doc, control, parameters)
    _parts(doc, control, parts)


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_a_table_of_a_controls_parts_under_its_question_is_one_text_question_per_part(tmp_path, paper):
    """Each "Part a | ___" row under "AC-3 What is the solution and how is it implemented?" is a
    question named "AC-3 Part a", answered as text; the title alone is none. Main's reader read the
    table as no table (no header, nothing asking in a column) and its title as a line that asks."""
    doc = wf.new()
    _section(doc, "AC-2", ["AC-2(a)", "AC-2(j)"], ["Part a", "Part b", "Part c"])
    _section(doc, "AC-8", [], ["Req. 1", "Req. 2"])
    q = _printed(tmp_path, doc, "ruled", paper)
    named = [_fold(f"{x.id or ''} {x.text}") for x in q.questions]
    for control, part in [
        ("AC-2", "Part a"),
        ("AC-2", "Part b"),
        ("AC-2", "Part c"),
        ("AC-8", "Req. 1"),
        ("AC-8", "Req. 2"),
    ]:
        hits = [x for x, n in zip(q.questions, named) if _fold(f"{control} {part}") in n]
        assert len(hits) == 1, (control, part, named)
        assert hits[0].text_cell and not hits[0].choices and not hits[0].answered
    assert not any(_fold(x.text).endswith(_fold("implemented?")) for x in q.questions)


def test_a_responsible_role_alone_beside_labels_over_their_boxes_is_a_question(tmp_path):
    """A summary table with no parameter: "Responsible Role:" is its only label alone across a row,
    beside the two labels over their boxes; main's reader took it for a lead-in ("For example:")."""
    doc = wf.new()
    _section(doc, "AC-3", [], ["Part a", "Part b"])
    q = _printed(tmp_path, doc, "ruled")
    texts = [x.text for x in q.questions]
    assert texts[:3] == [
        "Responsible Role",
        "Implementation Status (check all that apply)",
        "Control Origination (check all that apply)",
    ]
    assert q.questions[0].text_cell and not q.questions[0].choices
    assert q.questions[1].choices == STATUS and q.questions[2].choices == ORIGIN
