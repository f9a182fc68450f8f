"""Formula injection in every CSV the product writes: the app's "Download answers (CSV)",
"Download citations report" and "Download completed workbook" of a CSV questionnaire.

Every column an attacker can reach is loaded: the question ID, the sheet name, the question,
the dropdown choice, the reviewer's answer, the cited document's name and the quoted passage
all start with ``=``, ``+``, ``-`` or ``@`` (``=1+2+cmd|' -C calc'!A0``, ``=HYPERLINK(…)``).
Before #16 the sheet, choice and document columns were written raw. Now no cell of any of the
three files starts with a trigger, and each hostile value is still there, behind a ``'``.

The drafts come from the stated stand-in LLM (``QuotingGenerator``): the test is about the
downloads, not about generation. AppTest of the Export screen on a real workspace."""

from __future__ import annotations

import csv
import io

import openpyxl
from openpyxl.worksheet.datavalidation import DataValidation

from engine.review.draft_run import draft_questionnaire

DOCUMENT = "=1+2+cmd|' -C calc'!A0.md"
SHEET = '=HYPERLINK("x")'
QUOTE = "@SUM(1+1) All customer data is encrypted at rest with AES-256 in a hardware security module."
QUESTIONS = [
    ("+ENC-01", "=1+2 Is customer data encrypted at rest?"),
    ("@BCK-01", "-How long are backups of the databases kept?"),
]
CHOICES = ("Yes", "=1+2", "@No")
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet runs as a formula (OWASP)


def hostile_workbook(path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = SHEET
    ws.append(["ID", "Question", "Answer", "Comments"])
    for row, (qid, text) in enumerate(QUESTIONS, 2):
        for col, value in ((1, qid), (2, text)):
            cell = ws.cell(row, col, value)
            cell.data_type = "s"  # text that looks like a formula, as a customer's file may hold it
    dv = DataValidation(type="list", formula1='"' + ",".join(CHOICES) + '"')
    ws.add_data_validation(dv)
    dv.add("C2:C3")
    wb.save(path)
    return path


def hostile_csv(path):
    rows = [["ID", "Question", "Answer", "Comments"], *[[qid, text, "", ""] for qid, text in QUESTIONS]]
    path.write_text("".join(",".join(f'"{c}"' if "," in c else c for c in r) + "\r\n" for r in rows), encoding="utf-8")
    return path


def cells(data: bytes) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(data.decode("utf-8-sig"))) for cell in row]


def review_everything(ws, name: str, data: bytes):
    """Upload, draft (stand-in LLM), accept the first question with choice "=1+2" and edit the
    second with "-2+3 days" / "@No"."""
    project, questionnaire = ws.add_questionnaire(name, data)
    draft_questionnaire(questionnaire, ws.drafter, ws.review_store)
    review = ws.review(project.id)
    first, second = review.items()
    review.accept(first.key, choice="=1+2")
    review.edit(second.key, "-2+3 days, @once", "@No")
    return review


def test_no_download_has_a_cell_a_spreadsheet_would_run(open_screen, downloads, ui_workspace, tmp_path):
    ws = ui_workspace
    doc = tmp_path / "policy.md"
    doc.write_text(
        f"# Encryption\n\n{QUOTE}\n\nBackups of the databases are kept for thirty-five days.\n", encoding="utf-8"
    )
    assert not ws.kb.add_file(doc, DOCUMENT).errors
    review = review_everything(ws, "hostile.xlsx", hostile_workbook(tmp_path / "hostile.xlsx").read_bytes())
    assert review.items()[0].citations[0].file == DOCUMENT  # the hostile name is in the citations
    review_everything(ws, "hostile.csv", hostile_csv(tmp_path / "hostile.csv").read_bytes())  # reuses those answers

    files = {}  # (questionnaire, download) -> bytes
    for project in ws.projects():
        at = open_screen("export")
        at.session_state["project_id"] = project.id  # the questionnaire the Export screen shows
        at.run()
        assert not at.exception
        buttons = {b.label: b for b in at.download_button}
        for label in ("Download answers (CSV)", "Download citations report", "Download completed workbook"):
            file = downloads(buttons[label])
            if file.filename.endswith(".csv"):
                files[(project.file_name, file.filename)] = file.content
    assert sorted(files) == [
        ("hostile.csv", "hostile_answers.csv"),
        ("hostile.csv", "hostile_citations.csv"),
        ("hostile.csv", "hostile_completed.csv"),
        ("hostile.xlsx", "hostile_answers.csv"),
        ("hostile.xlsx", "hostile_citations.csv"),
    ]
    for key, data in files.items():
        assert not [c for c in cells(data) if c.startswith(FORMULA_TRIGGERS)], key
    answers = cells(files[("hostile.xlsx", "hostile_answers.csv")])
    for value in (SHEET, "=1+2", "-2+3 days, @once", "@No", "+ENC-01", "@BCK-01", QUESTIONS[0][1], QUESTIONS[1][1]):
        assert "'" + value in answers, value
    report = cells(files[("hostile.xlsx", "hostile_citations.csv")])
    assert "'" + DOCUMENT in report and any(c.startswith("'@SUM(1+1) All customer data") for c in report)
    completed = cells(files[("hostile.csv", "hostile_completed.csv")])
    assert completed[4:6] == ["'+ENC-01", "'" + QUESTIONS[0][1]]  # the file's own cells too
    assert "'-2+3 days, @once" in completed and "'@BCK-01" in completed
