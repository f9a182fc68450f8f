"""Questionnaire screen (AppTest) on a real workspace (real MiniLM, Qdrant local mode, review
store): the sample questionnaire and an uploaded workbook become projects, the detection is
shown, a bad override is refused without losing anything, and drafting runs in the background
to the end (or until stopped) with its counts on screen.

The LLM is ``QuotingGenerator``, a stated fake from tests/fixtures.py (installed by the
``ui_workspace`` fixture), because these tests are about the screen, not about generation."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import openpyxl
import pymupdf

from tests.fixtures import write_questionnaire
from tests.pdf_forms import SUPPLIER_QUESTIONS, supplier_form
from tests.ui.conftest import add_handbook, button, texts

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def upload_workbook(at, tmp_path: Path, name: str = "Vendor questionnaire.xlsx"):
    book = write_questionnaire(tmp_path / name)
    at.file_uploader(key="questionnaire_uploader_" + str(at.session_state["questionnaire_uploader_generation"])).upload(
        name, book.read_bytes(), XLSX
    )
    return at.run()


def test_sample_upload_detection_and_a_bad_override(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    at = open_screen("questionnaire")
    assert not at.exception
    assert "Upload the questionnaire you received" in texts(at.info)
    assert at.file_uploader[0].label == "Upload questionnaire"

    button(at, "Use the sample questionnaire").click()
    at.run()
    assert not at.exception
    (sample,) = ws.projects()
    assert sample.file_name == "Sample_Security_Questionnaire.xlsx"
    assert "25 questions found." in texts(at.success)
    assert metrics(at)["Questions"] == "25"

    upload_workbook(at, tmp_path)
    assert not at.exception
    assert len(ws.projects()) == 2
    pid = at.session_state["project_id"]  # ui.resources.PROJECT: the new one is on screen
    assert ws.review_store.project(pid).file_name == "Vendor questionnaire.xlsx"
    assert "**Vendor questionnaire.xlsx**: 4 questions found." in texts(at.success)
    shown = metrics(at)
    assert shown["Questions"] == "4" and shown["Already answered in the file"] == "0"
    sheet = texts(at.markdown) + texts(at.caption)
    assert "**Sheet Security** · 4 questions (4 with a dropdown)" in sheet
    assert "question **B**, ID A, answer **C**, comment D" in sheet and "choices: Yes / No / N/A" in sheet
    first = at.dataframe[0].value
    assert list(first["ID"]) == ["ENC-01", "BCK-01", "INC-01", "ACC-01"]
    assert first["Question"][0] == "Is customer data encrypted at rest?"
    assert at.file_uploader[0].key == "questionnaire_uploader_1" and at.file_uploader[0].value is None

    # several questionnaires: a selector switches the one on screen
    selector = at.selectbox(key="questionnaire_project_choice")
    assert selector.label == "Questionnaire" and selector.options == [
        f"{p.file_name} (added {p.created[:10]})" for p in ws.projects()
    ]
    selector.select(sample.id).run()
    assert at.session_state["project_id"] == sample.id and metrics(at)["Questions"] == "25"
    at.selectbox(key="questionnaire_project_choice").select(pid).run()
    assert metrics(at)["Questions"] == "4"

    # an override that finds no questions is refused; the project is read as before
    keys_before = [k for k, _ in ws.review_store.questions(pid)]
    at.text_input(key=f"questionnaire_override_{pid}_question_col").input("H")
    button(at, "Apply overrides").click()
    at.run()
    assert not at.exception
    error = texts(at.error)
    assert "These overrides were not applied; the questionnaire is still read as before." in error
    assert "**Vendor questionnaire.xlsx**: No questions found" in error
    assert ws.read_options(pid).to_json() == {}
    assert [k for k, _ in ws.review_store.questions(pid)] == keys_before
    assert metrics(at)["Questions"] == "4"

    # a good override is kept; "Reset to detection" removes it
    at.text_input(key=f"questionnaire_override_{pid}_question_col").input("b")
    at.number_input(key=f"questionnaire_override_{pid}_header_row").set_value(2)
    button(at, "Apply overrides").click()
    at.run()
    assert ws.read_options(pid).to_json() == {"question_col": "B", "header_row": 2}
    assert "Read again with the overrides: 4 questions found." in texts(at.success)
    button(at, "Reset to detection").click()
    at.run()
    assert ws.read_options(pid).to_json() == {}
    assert at.text_input(key=f"questionnaire_override_{pid}_question_col").value == ""


def statements_workbook(path: Path) -> Path:
    """Two sheets of statements without an "Answer" header or dropdowns: detection finds none."""
    wb = openpyxl.Workbook()
    for i, title in enumerate(("Main", "Copy")):
        sheet = wb.active if i == 0 else wb.create_sheet(title)
        sheet.title = title
        sheet.append(["Item", "Statement", "Reply"])
        for n, text in enumerate(
            (
                "Customer data is encrypted at rest",
                "Backups are kept for 35 days",
                "Employees use multi-factor authentication",
            ),
            1,
        ):
            sheet.append([n, text, None])
    wb.save(path)
    return path


def test_a_workbook_the_detection_misses_is_added_with_overrides(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    at = open_screen("questionnaire")
    book = statements_workbook(tmp_path / "statements.xlsx")
    at.file_uploader[0].upload(book.name, book.read_bytes(), XLSX)
    at.run()
    assert not at.exception and ws.projects() == []
    error = texts(at.error)
    assert "The questionnaire was not added. **statements.xlsx**: No questions found" in error
    assert "fill in Answer column" in error and "--" not in error  # the screen's words, not CLI flags
    assert "Say where the questions are: fill in the sheet, the header row and the question column" in error

    at.text_input(key="questionnaire_override_upload_sheet").input("Main")
    at.number_input(key="questionnaire_override_upload_header_row").set_value(1)
    at.text_input(key="questionnaire_override_upload_question_col").input("B")
    at.text_input(key="questionnaire_override_upload_answer_col").input("c")
    at.run()
    button(at, "Add with these overrides").click()
    at.run()
    assert not at.exception
    (project,) = ws.projects()
    assert ws.read_options(project.id).to_json() == {
        "sheet": "Main",
        "header_row": 1,
        "question_col": "B",
        "answer_col": "C",
    }
    assert "**statements.xlsx**: 3 questions found." in texts(at.success)
    assert metrics(at)["Questions"] == "3" and not at.error
    # the project's own override fields start from what it was added with
    assert at.text_input(key=f"questionnaire_override_{project.id}_sheet").value == "Main"


def test_empty_knowledge_base_is_flagged(open_screen, ui_workspace, tmp_path):
    at = open_screen("questionnaire")
    upload_workbook(at, tmp_path)
    assert "The knowledge base is empty" in texts(at.warning)
    assert button(at, "Start drafting").disabled
    assert "Go to the Knowledge base screen" in [link.value for link in at.page_link]


def test_drafting_runs_in_the_background_to_the_end(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    add_handbook(ws, tmp_path)
    at = open_screen("questionnaire")
    upload_workbook(at, tmp_path)
    pid = at.session_state["project_id"]
    assert not button(at, "Start drafting").disabled
    assert metrics(at)["Not drafted"] == "4"

    at.number_input(key="questionnaire_limit").set_value(0)
    button(at, "Start drafting").click()
    at.run()
    assert not at.exception
    ws.jobs.wait(pid, 120)
    at.run()
    assert not at.exception
    assert "Drafting finished: 4 questions drafted." in texts(at.success)
    shown = metrics(at)
    assert shown["Drafted"] == "4" and shown["Not drafted"] == "0"
    latest = at.dataframe[-1].value
    assert set(latest["Question"]) == {"ENC-01", "BCK-01", "INC-01", "ACC-01"}
    assert set(latest["State"]) == {"Drafted"}
    assert "Review the drafts" in [link.value for link in at.page_link]


def test_progress_while_drafting_and_stop(open_screen, ui_workspace, gated_generator, tmp_path):
    """The fake LLM is held at each question (``gated_generator``) so the run is seen running."""
    ws = ui_workspace
    add_handbook(ws, tmp_path)
    at = open_screen("questionnaire")
    upload_workbook(at, tmp_path)
    pid = at.session_state["project_id"]

    button(at, "Start drafting").click()
    at.run()
    assert ws.jobs.running(pid)
    (bar,) = at.get("progress")
    assert bar.proto.text.startswith("Drafting: 0 of 4 questions")
    assert button(at, "Start drafting").disabled
    button(at, "Stop drafting").click()
    at.run()
    gated_generator.gate.set()  # the question being drafted finishes, then the run stops
    status = ws.jobs.wait(pid, 60)
    assert not status.running and status.error == "stopped by the reviewer"
    at.run()
    assert "Drafting was stopped after 1 of 4 questions." in texts(at.info)
    assert not button(at, "Start drafting").disabled
    assert metrics(at)["Drafted"] == "1"


def add_workbook(ws, tmp_path: Path) -> int:
    book = write_questionnaire(tmp_path / "Vendor questionnaire.xlsx")
    project, _ = ws.add_questionnaire(book.name, book.read_bytes())
    return project.id


def test_a_run_left_unfinished_resumes_and_says_so(open_screen, ui_workspace, gated_generator, tmp_path):
    """An earlier app process started a run and died; the new one resumes it (as
    ``ui.resources.workspace()`` does at start-up) and the screen says so."""
    ws = ui_workspace
    add_handbook(ws, tmp_path)
    pid = add_workbook(ws, tmp_path)
    run = ws.review_store.start_run(pid, {"limit": None, "redo_answered": False})
    with sqlite3.connect(ws.folder / "review.sqlite") as db:  # started an hour before this process
        db.execute("UPDATE runs SET started = ? WHERE id = ?", ("2020-01-01T00:00:00+00:00", run.id))
    (resumed,) = ws.jobs.resume()
    assert resumed.run_id == run.id and resumed.running
    at = open_screen("questionnaire")
    assert "Resumed after the app restarted; the questions drafted before were kept." in texts(at.caption)
    assert button(at, "Start drafting").disabled
    gated_generator.gate.set()
    ws.jobs.wait(pid, 60)
    at.run()
    assert "Drafting finished: 4 questions drafted." in texts(at.success)
    assert ws.review_store.run(run.id).finished and ws.review_store.run(run.id).error is None


def test_a_run_that_ended_with_an_error_says_why(open_screen, ui_workspace, tmp_path):
    """The error of the project's last run (recorded by an earlier process) is shown plainly."""
    ws = ui_workspace
    pid = add_workbook(ws, tmp_path)
    run = ws.review_store.start_run(pid, {"limit": None, "redo_answered": False})
    ws.review_store.finish_run(run.id, "GeneratorError: the LLM server at http://127.0.0.1:8080 did not answer")
    at = open_screen("questionnaire")
    assert not at.exception
    error = texts(at.error)
    assert (
        "Drafting stopped with an error: GeneratorError: the LLM server at http://127.0.0.1:8080 did not answer."
        in error
    )
    assert "The drafts written so far are kept; *Start drafting* retries the rest." in error


def test_a_pdf_form_is_uploaded_and_its_mapping_shown_with_pages(open_screen, ui_workspace, tmp_path):
    """A PDF questionnaire (#48): the uploader takes .pdf, the mapping lists each question with its
    page, kind and answer place (the form's field), and a PDF's questions can be left out (not added:
    it has no paragraphs to pick), the correction kept with the questionnaire."""
    ws = ui_workspace
    at = open_screen("questionnaire")
    assert "pdf" in at.file_uploader[0].proto.type or ".pdf" in at.file_uploader[0].proto.type
    form = supplier_form(tmp_path / "supplier.pdf")
    at.file_uploader[0].upload(form.name, form.read_bytes(), "application/pdf")
    at.run()
    assert not at.exception
    (project,) = ws.projects()
    assert "**supplier.pdf**: 3 questions found." in texts(at.success)
    shown = metrics(at)
    assert shown["Questions"] == "3" and shown["Text"] == "2" and shown["Choice"] == "1"
    table = at.dataframe[0].value
    assert list(table["Where"]) == ["page 1"] * 3
    assert list(table["Question"]) == list(SUPPLIER_QUESTIONS)
    assert list(table["Answer goes in"])[0].startswith("pdf field")

    exclude = at.multiselect(key=f"questionnaire_override_{project.id}_exclude_0")
    assert not [m for m in at.multiselect if "include" in m.key]  # nothing to add by hand in a PDF
    assert "A PDF's questions can be left out" in texts(at.caption)
    exclude.select(exclude.options[2]).run()
    button(at, "Apply corrections").click()
    at.run()
    assert not at.exception and metrics(at)["Questions"] == "2"
    assert ws.read_options(project.id).exclude == ("Form!A1003",)


def test_a_pdf_that_cannot_be_read_is_refused_in_its_words_without_column_overrides(
    open_screen, ui_workspace, tmp_path
):
    """A scanned PDF: the screen says what the file is and what to do (OCR, or the Word version), and
    offers no sheet and column overrides (they are a spreadsheet's); no project is kept."""
    doc = pymupdf.open()
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 200, 100), 0)
    pix.clear_with(200)
    doc.new_page().insert_image(pymupdf.Rect(50, 50, 450, 250), pixmap=pix)
    scanned = tmp_path / "scanned.pdf"
    doc.save(scanned)
    at = open_screen("questionnaire")
    at.file_uploader[0].upload(scanned.name, scanned.read_bytes(), "application/pdf")
    at.run()
    assert not at.exception and ui_workspace.projects() == []
    error = texts(at.error)
    assert "The questionnaire was not added. **scanned.pdf**: Has no text layer" in error and "OCR" in error
    assert "Say where the questions are" not in texts(at.markdown) and not at.text_input
