"""A Word questionnaire and a PDF form in a real browser (issue #48's done-when): the app (``streamlit run
ui/app.py``) driven by Playwright through Debian's Chromium. Questionnaire → upload a generated
.docx, see its questions with their kind and answer place, correct one detection (a numbered
paragraph that is no question: "Not questions: leave these out"), Start drafting; Review → accept
a question's answer (the reviewer's words in the answer box); Export → "Download completed document": the downloaded .docx holds the accepted answer
in its cell, and the question left out stays unanswered. The PDF form goes the same way to
"Download completed form": the accepted answer in its field.

The knowledge base (a generated PDF) is indexed through the engine's API before the app starts;
the drafts come from the stated fake OpenAI-compatible server of tests/e2e/test_browser.py (it
quotes the first passage): this test is about the screens and the document's path, not about
generation, so no model loads (the embedder does). Screenshots go to ``tests/e2e/screens/``
(git-ignored) as ``word_NN_<step>.png``."""

from __future__ import annotations

import pytest

from engine.app.settings import GeneratorConfig, Settings
from tests import word_fixtures as wf
from tests.e2e.test_browser import NEEDS_CHROMIUM, open_question, quoting_llm_server
from tests.e2e.test_browser_cases import assert_no_traceback, browser_on
from tests.fixtures import topic_pages, write_pdf
from tests.pdf_forms import SUPPLIER_QUESTIONS, supplier_form

pytestmark = [
    pytest.mark.timeout(600),
    NEEDS_CHROMIUM,
]

NOT_A_QUESTION = "Is this the final version of the questionnaire?"
ANSWER = "Customer data is encrypted at rest with AES-256."


def word_questionnaire(path):
    doc = wf.new()
    doc.add_heading("Vendor security questionnaire", level=1)
    wf.add(doc, wf.table([["ID", "Question", "Response"], ["ENC-01", "Is customer data encrypted at rest?", ""],
                          ["BCK-01", "How long are backups of the production databases kept?", ""]]))  # fmt: skip
    doc.add_paragraph(NOT_A_QUESTION, style="List Number")
    doc.add_paragraph("Thank you for completing this questionnaire.")
    return wf.save(doc, path)


def metric(app, label: str) -> str:
    """The value of the metric labelled ``label`` on the page."""
    box = app.page.locator('[data-testid="stMetric"]').filter(has=app.page.get_by_text(label, exact=True)).first
    return box.locator('[data-testid="stMetricValue"]').inner_text().strip()


def prepared(folder, llm_url, tmp_path) -> None:
    from engine.app.workspace import Workspace

    settings = Settings(generator=GeneratorConfig(llm_url=llm_url))
    settings.save(folder)
    from storage.vector_store import release

    ws = Workspace(folder, settings)
    try:
        ws.add_files([write_pdf(tmp_path / "handbook.pdf", topic_pages())])
    finally:
        ws.review_store.close()
        release(str(folder / "qdrant"))  # the app's process opens the store next


def accepted_in_own_words(app, text: str, done: str) -> None:
    """On the Review screen's open question: ``text``, the reviewer's words over the draft, accepted."""
    answer = app.page.get_by_role("textbox", name="Answer", exact=True)
    answer.fill(text)
    answer.press("Control+Enter")
    app.settle()
    app.button("Accept").click()
    app.expect_text(done)
    app.settle()
    app.shot("accepted")


def downloaded(app, button: str, folder):
    """The file the Export screen's ``button`` downloads, saved in ``folder`` under its own name."""
    app.go("Export")
    with app.page.expect_download(timeout=60_000) as download:
        app.button(button).click()
    saved = folder / download.value.suggested_filename
    download.value.save_as(saved)
    assert_no_traceback(app)
    return saved


def test_a_word_questionnaire_uploaded_corrected_drafted_accepted_and_downloaded(tmp_path):
    from engine.questionnaire import read_questionnaire

    folder = tmp_path / "workspace"
    docx = word_questionnaire(tmp_path / "vendor.docx")
    with quoting_llm_server() as llm_url:
        prepared(folder, llm_url, tmp_path)
        with browser_on(folder, tmp_path / "streamlit.log", "word") as app:
            page = app.page
            app.go("Questionnaire")
            app.uploader("Upload questionnaire").set_input_files(str(docx))
            app.expect_text("Detected in vendor.docx")
            app.settle()
            assert metric(app, "Questions") == "3" and metric(app, "Text") == "3"  # the counts by kind
            app.shot("detected")

            page.locator('[data-testid="stExpander"] summary').filter(has_text="Correct the detection").click()
            app.settle()
            box = page.locator('[data-testid="stMultiSelect"]').filter(has_text="Not questions: leave these out")
            combo = box.get_by_role("combobox")
            combo.scroll_into_view_if_needed()  # below the tables' columns, at the foot of the window
            combo.click()
            page.locator('[role="listbox"] [role="option"]').filter(has_text="final version").first.click()
            page.keyboard.press("Escape")
            app.settle()
            app.button("Apply corrections").click()
            app.expect_text("Read again with the corrections: 2 questions")
            app.settle()
            assert metric(app, "Questions") == "2"
            app.shot("corrected")

            app.button("Start drafting").click()
            app.expect_text("Drafting finished", timeout=300)
            app.settle()
            app.shot("drafted")

            app.go("Review")
            open_question(app, "ENC-01")
            app.settle()
            assert page.get_by_text("ENC-01 · paragraph").count()  # where the question is in its document
            accepted_in_own_words(app, ANSWER, "ENC-01 accepted")
            saved = downloaded(app, "Download completed document", tmp_path)
    assert saved.name == "vendor_completed.docx"
    filled = {x.text: x for x in read_questionnaire(saved).questions}
    assert filled["Is customer data encrypted at rest?"].existing_answer == ANSWER  # the accepted answer, in its cell
    assert not filled["How long are backups of the production databases kept?"].existing_answer  # not accepted
    assert not filled[NOT_A_QUESTION].existing_answer  # left out: nothing written after it


BACKUPS = SUPPLIER_QUESTIONS[2]
PDF_ANSWER = "Backups are kept for thirty-five days."


def test_a_pdf_form_uploaded_drafted_accepted_and_downloaded_filled(tmp_path):
    """A PDF form (#48): uploaded, its three questions found, drafted, one answer accepted in the
    reviewer's words on the Review screen (which names the question's page), and "Download completed
    form" gives the PDF with that answer in its field (read back from the file) and nothing in the
    fields of the answers not accepted."""
    from engine.questionnaire import read_questionnaire

    folder = tmp_path / "workspace"
    form = supplier_form(tmp_path / "supplier.pdf")
    with quoting_llm_server() as llm_url:
        prepared(folder, llm_url, tmp_path)
        with browser_on(folder, tmp_path / "streamlit.log", "pdf") as app:
            page = app.page
            app.go("Questionnaire")
            app.uploader("Upload questionnaire").set_input_files(str(form))
            app.expect_text("Detected in supplier.pdf")
            app.settle()
            assert metric(app, "Questions") == "3" and metric(app, "Text") == "2" and metric(app, "Choice") == "1"
            app.shot("detected")

            app.button("Start drafting").click()
            app.expect_text("Drafting finished", timeout=300)
            app.settle()

            app.go("Review")
            open_question(app, BACKUPS)
            app.settle()
            assert page.get_by_text("page 1", exact=True).count()  # where the question is: its page
            accepted_in_own_words(app, PDF_ANSWER, "accepted")
            saved = downloaded(app, "Download completed form", tmp_path)
    assert saved.name == "supplier_completed.pdf"
    filled = {x.text: x for x in read_questionnaire(saved).questions}
    assert filled[BACKUPS].existing_answer == PDF_ANSWER  # the accepted answer, in its field
    assert (
        not filled["Vendor Name"].existing_answer and not filled["Is customer data encrypted at rest?"].existing_choice
    )


REQUIREMENTS = (
    "Firewall rules are reviewed every six months.",
    "Vendor default passwords are changed before use.",
    "Cardholder data is encrypted in transit.",
)


def checklist(path):
    """A requirement table whose "Adopted" / "Not adopted" columns the reader takes for answer text (#55:
    labels the table model does not know as options, as "In Place" / "Not in Place" it does)."""
    doc = wf.new()
    doc.add_paragraph("Requirement checklist")
    wf.add(doc, wf.table([["Requirement", "Adopted", "Not adopted", "Observations"],
                          *[[r, "", "", ""] for r in REQUIREMENTS]]))  # fmt: skip
    return wf.save(doc, path)


def pick(app, label: str, option: str) -> None:
    """Choose ``option`` in the selectbox labelled ``label``."""
    box = app.page.locator('[data-testid="stSelectbox"]').filter(has_text=label).first
    box.wait_for(timeout=60_000)
    combo = box.get_by_role("combobox")
    combo.scroll_into_view_if_needed()
    combo.click()
    app.page.locator('[role="listbox"] [role="option"]').filter(has_text=option).first.click()
    app.settle()
    assert combo.input_value() == option


def test_a_columns_role_corrected_once_in_the_browser_every_row_of_its_table_follows(tmp_path):
    """#55's done-when: the responder makes a table's "Adopted" and "Not adopted" columns the options
    of one choice once, and every row of the table becomes a choice question (the counts by kind
    on the page: 3 text → 3 choice), kept with the questionnaire."""
    from engine.app.workspace import Workspace
    from engine.questionnaire.corrections import ColumnRole

    folder = tmp_path / "workspace"
    source = checklist(tmp_path / "checklist.docx")
    with quoting_llm_server() as llm_url:
        prepared(folder, llm_url, tmp_path)
        with browser_on(folder, tmp_path / "streamlit.log", "word_roles") as app:
            page = app.page
            app.go("Questionnaire")
            app.uploader("Upload questionnaire").set_input_files(str(source))
            app.expect_text("Detected in checklist.docx")
            app.settle()
            assert metric(app, "Questions") == "3" and metric(app, "Text") == "3"
            page.locator('[data-testid="stExpander"] summary').filter(has_text="Correct the detection").click()
            app.settle()
            app.expect_text("What each column of a table holds")
            pick(app, "Column 2: Adopted", "option")
            pick(app, "Column 3: Not adopted", "option")
            app.shot("roles")
            app.button("Apply corrections").click()
            app.expect_text("Read again with the corrections: 3 questions")
            app.settle()
            assert metric(app, "Questions") == "3" and metric(app, "Choice") == "3"  # every row follows
            assert page.get_by_text("Text", exact=True).count() == 0  # no text-only question left
            app.shot("roles_applied")
            assert_no_traceback(app)
    ws = Workspace(folder)
    try:
        (project,) = ws.projects()
        assert {(c.column, c.role) for c in ws.read_options(project.id).tables} == {
            (1, ColumnRole.OPTIONS),
            (2, ColumnRole.OPTIONS),
        }
        assert [q.choices for q in ws.questionnaire(project.id).questions] == [("Adopted", "Not adopted")] * 3
    finally:
        ws.review_store.close()
