"""A solicitation on the Questionnaire and Export screens (AppTest, issue #57) on a real workspace
(real MiniLM, Qdrant local mode, review store): an uploaded RFP (a generated two-page PDF whose
response due date is past) is shown as its key facts card with the due-date alert first, its
requirements' counts by kind and mandatory and every requirement; the reviewer leaves one out and
changes the kind of another, which is kept with the project (and read back by a fresh screen);
the Export screen's compliance matrix and response outline hold the requirements as corrected and
the reviewer's answer.

No drafting runs here: the answer is the reviewer's own, recorded through the review."""

from __future__ import annotations

import io
from pathlib import Path

import docx
import openpyxl

from engine.app.workspace import ReadOptions
from engine.questionnaire.solicitation import Kind
from tests.solicitation_fixtures import PAGE_ONE, PAGE_TWO, write_pdf
from tests.ui.conftest import button, texts

PDF = "application/pdf"
ANSWER = "We mow every park weekly with our own crews."


COUNTED = ("Requirements", "Mandatory", "Submission", "Evaluation", "Work", "Terms")


def metrics(at) -> dict[str, str]:
    """The requirements' counts on screen (the drafting panel's counts left aside)."""
    return {m.label: m.value for m in at.metric if m.label in COUNTED}


def past_due_rfp(tmp_path: Path) -> Path:
    """The tests' RFP, its response due in 2020 (past: the card says so first)."""
    return write_pdf(tmp_path / "parks_rfp.pdf", [[line.replace("2031", "2020") for line in PAGE_ONE], PAGE_TWO])


def upload(at, path: Path):
    key = "questionnaire_uploader_" + str(at.session_state["questionnaire_uploader_generation"])
    at.file_uploader(key=key).upload(path.name, path.read_bytes(), PDF)
    return at.run()


def option(widget, prefix: str) -> str:
    (match,) = [o for o in widget.options if o.startswith(prefix)]
    return match


def test_a_solicitation_mapped_corrected_and_kept(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    at = open_screen("questionnaire")
    upload(at, past_due_rfp(tmp_path))
    assert not at.exception
    (project,) = ws.projects()
    pid = project.id
    assert "**parks\\_rfp.pdf**: 10 requirements found." in texts(at.success)

    # the key facts card, the due date past said first
    assert "The response due date 2020-03-03 is past" in texts(at.error)
    facts = at.dataframe[0].value
    assert list(facts["Fact"])[:3] == ["Issuing organisation", "Solicitation number", "Response due"]
    assert "Proposals are due no later than March 3, 2020" in facts["As stated"][2] and facts["Page"][2] == "1"
    shown = metrics(at)
    assert shown == {
        "Requirements": "10",
        "Mandatory": "9",
        "Submission": "3",
        "Evaluation": "3",
        "Work": "3",
        "Terms": "1",
    }
    listed = at.dataframe[1].value
    assert list(listed["ID"]) == ["1.1", "1.1a", "1.1b", "2.1", "2.1-2", "2.2", "3.1", "3.1a", "3.1b", "4.1"]
    assert (
        listed["Requirement"][1]
        == "The proposal shall include the following: A cover letter signed by an officer of the firm."
    )

    # the reviewer leaves the evaluation lead-in out and makes the monthly report a submission
    left_out = at.multiselect(key=f"solicitation_exclude_{pid}_0")
    assert left_out.label == "Not requirements: leave these out"
    left_out.select(option(left_out, "3.1 ·"))
    change = at.multiselect(key=f"solicitation_change_{pid}_0")
    change.select(option(change, "2.1-2 ·"))
    at.selectbox(key=f"solicitation_kind_{pid}_0").select("submission")
    button(at, "Apply corrections").click()
    at.run()
    assert not at.exception
    assert "Read again with the corrections: 9 requirements, 1 kind changed to submission." in texts(at.success)
    assert metrics(at) == {
        "Requirements": "9",
        "Mandatory": "8",
        "Submission": "4",
        "Evaluation": "2",
        "Work": "2",
        "Terms": "1",
    }
    options = ws.read_options(pid)
    assert options.exclude == ("3.1",) and options.kinds == ("2.1-2=submission",)
    rows = {q.id: q for q in ws.questionnaire(pid).questions}
    assert "3.1" not in rows and rows["2.1-2"].existing_answer.startswith("Checklist (submission)")  # not drafted
    assert "Kept with this solicitation: 1 left out, 1 kinds changed." in texts(at.caption)

    # kept with the project: a fresh screen reads it so
    again = open_screen("questionnaire")
    assert metrics(again)["Requirements"] == "9" and metrics(again)["Submission"] == "4"


def test_the_compliance_matrix_downloads_with_the_corrections_and_the_answers(
    open_screen, ui_workspace, downloads, tmp_path
):
    ws = ui_workspace
    rfp = past_due_rfp(tmp_path)
    project, _ = ws.add_questionnaire(rfp.name, rfp.read_bytes())
    pid = project.id
    ws.set_read_options(pid, ReadOptions(exclude=("3.1",), kinds=("2.1-2=submission",)))
    review = ws.review(pid)
    mow = next(i for i in review.items() if i.question.id == "2.1")
    review.edit(mow.key, ANSWER, "Comply", expected=mow.version)

    at = open_screen("export")
    assert not at.exception
    (matrix_button,) = [b for b in at.download_button if b.label == "Download the compliance matrix"]
    assert "9 requirements as corrected on the Questionnaire screen" in texts(at.caption)
    served = downloads(matrix_button)
    assert served.filename == "parks_rfp_compliance_matrix.xlsx"
    book = openpyxl.load_workbook(io.BytesIO(served.content))
    sheet = book["Compliance matrix"]
    header = [c.value for c in sheet[1]]
    by_id = {row[0]: dict(zip(header, row)) for row in sheet.iter_rows(min_row=2, values_only=True)}
    assert list(by_id) == ["1.1", "1.1a", "1.1b", "2.1", "2.1-2", "2.2", "3.1a", "3.1b", "4.1"]  # 3.1 left out
    assert by_id["2.1-2"]["Kind"] == Kind.SUBMISSION.value  # the kind as corrected
    assert by_id["2.1"]["Compliance"] == "Comply" and by_id["2.1"]["Response"] == ANSWER
    assert by_id["2.1"]["Status"] == "Edited"
    assert by_id["2.2"]["Response"] in (None, "") and by_id["2.2"]["Status"] == "Not drafted"
    assert book["Key facts"]["B1"].value.startswith("The response due date 2020-03-03 is past")

    # the response outline (Word): the requirement with its answer under it, the checklist at the end
    (outline_button,) = [b for b in at.download_button if b.label == "Download the response outline"]
    outline = downloads(outline_button)
    assert outline.filename == "parks_rfp_response_outline.docx"
    paragraphs = [p.text for p in docx.Document(io.BytesIO(outline.content)).paragraphs]
    mow = paragraphs.index("2.1 (p.1, work, mandatory): The Contractor shall mow all parks weekly.")
    assert paragraphs[mow + 1] == f"Comply. {ANSWER}"
    assert "☐ 2.1-2 (p.1): The Contractor shall submit a monthly report." in paragraphs  # a submission now

    # a questionnaire has no compliance matrix to offer
    ws.add_questionnaire(
        "sample.xlsx",
        (
            Path(__file__).resolve().parents[2] / "assets/sample/questionnaire/Sample_Security_Questionnaire.xlsx"
        ).read_bytes(),
    )
    at = open_screen("export")
    assert "Download the compliance matrix" not in [b.label for b in at.download_button]


def amended_rfp(tmp_path: Path) -> Path:
    """Amendment 1 of the tests' RFP: the mowing changed to twice a week, the electric equipment
    dropped, a performance bond added; everything else as it was."""
    one = [
        line.replace("2031", "2020").replace("mow all parks weekly", "mow all parks twice a week")
        for line in PAGE_ONE
        if not line.startswith("2.2 ")
    ]
    two = [*PAGE_TWO, "4.3 The Contractor shall provide a performance bond."]
    return write_pdf(tmp_path / "parks_rfp_amendment_1.pdf", [one, two])


def test_an_amendment_keeps_the_decisions_on_its_unchanged_requirements(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    rfp = past_due_rfp(tmp_path)
    before, _ = ws.add_questionnaire(rfp.name, rfp.read_bytes())
    review = ws.review(before.id)
    items = {i.question.id: i for i in review.items()}
    review.edit(items["2.1-2"].key, "A monthly report on the 5th.", "Comply", expected=items["2.1-2"].version)
    review.edit(items["2.1"].key, ANSWER, "Comply", expected=items["2.1"].version)  # its words change
    review.needs_sme(items["4.1"].key, "ask finance", expected=items["4.1"].version)

    at = open_screen("questionnaire")
    upload(at, amended_rfp(tmp_path))
    after = next(p for p in ws.projects() if p.id != before.id)
    assert at.session_state["project_id"] == after.id
    at.selectbox(key=f"solicitation_amends_{after.id}").select(before.id).run()
    button(at, "Keep the decisions of unchanged requirements").click()
    at.run()
    assert not at.exception
    assert (
        "Against parks\\_rfp.pdf: 1 added, 1 changed, 1 removed, 8 unchanged; "
        "2 decisions on unchanged requirements kept." in texts(at.success)
    )
    kept = {i.question.id: i for i in ws.review(after.id).items()}
    report = kept["2.1-2"]
    assert (
        report.state.value == "edited" and report.answer == "A monthly report on the 5th." and report.choice == "Comply"
    )
    assert report.decision.note == "kept from parks_rfp.pdf 2.1-2: unchanged in this version"
    assert kept["4.1"].state.value == "needs_sme"
    assert kept["2.1"].decision is None and kept["4.3"].decision is None  # changed, added: reviewed again

    # once more: nothing is decided twice
    button(at, "Keep the decisions of unchanged requirements").click()
    at.run()
    assert "0 decisions on unchanged requirements kept." in texts(at.success)
