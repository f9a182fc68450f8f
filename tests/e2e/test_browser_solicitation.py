"""A solicitation in a real browser (issue #57's done-when): the app (``streamlit run ui/app.py``)
driven by Playwright through Debian's Chromium. Questionnaire → upload the shared federal RFQ
(``questionnaires/pdf/gsa_18f_ads_bpa_rfq_solicitation_flat.pdf`` of the shared data; skipped
when absent), see its key facts card and its 169 requirements counted by kind, correct one
requirement (1.2-3, a submission requirement the shredder puts on the checklist, changed to
work: it is drafted), draft three (a limit of 3); Review → the corrected one shown outlined on
its page of the RFQ (page 4), accepted with a compliance choice and the reviewer's words; Export → "Download the compliance matrix": the
downloaded XLSX (opened with openpyxl) holds that answer on that requirement's row, with its
kind as corrected, and the other two rows drafted with their state but no answer (not accepted).

The knowledge base (a generated PDF) is indexed through the engine's API before the app starts;
the drafts come from the stated fake OpenAI-compatible server of tests/e2e/test_browser.py (it
quotes the first passage): this test is about the screens and the solicitation's path to its
compliance matrix, not about generation (three real drafts take minutes on this machine), so no
model loads (the embedder does). Screenshots go to ``tests/e2e/screens/`` (git-ignored) as
``solicitation_NN_<step>.png``."""

from __future__ import annotations

import openpyxl
import pytest

from tests.e2e.test_browser import NEEDS_CHROMIUM, open_question, quoting_llm_server
from tests.e2e.test_browser_cases import assert_no_traceback, browser_on
from tests.e2e.test_browser_word import metric, prepared

pytestmark = [
    pytest.mark.timeout(600),
    NEEDS_CHROMIUM,
]

RFQ = "questionnaires/pdf/gsa_18f_ads_bpa_rfq_solicitation_flat.pdf"
CORRECTED = "1.2-3"  # "Quoters shall complete the … Compliance Review Checklist …": submission → work
ANSWER = "We will complete the Compliance Review Checklist and submit it in eBuy with our quote."


def pick(app, widget: str, label: str, option: str) -> None:
    """In the ``widget`` ("stMultiSelect", "stSelectbox") labelled ``label``: the option starting with ``option``."""
    page = app.page
    box = page.locator(f'[data-testid="{widget}"]').filter(has=page.get_by_text(label, exact=True))
    combo = box.get_by_role("combobox")
    combo.scroll_into_view_if_needed()
    combo.click()  # opens the list of options
    many = widget == "stMultiSelect"
    if many:
        combo.press_sequentially(option)  # 169 requirements: typed, the list shows the one
    page.locator('[role="listbox"] [role="option"]').filter(has_text=option).first.click()
    if many:
        page.keyboard.press("Escape")  # a multiselect stays open for more
    app.settle()


def test_a_solicitation_uploaded_corrected_drafted_accepted_and_its_matrix_downloaded(tmp_path, shared_data):
    rfq = shared_data / RFQ
    if not rfq.is_file():
        pytest.skip(f"{rfq} is absent from the shared data")
    folder = tmp_path / "workspace"
    with quoting_llm_server() as llm_url:
        prepared(folder, llm_url, tmp_path)
        with browser_on(folder, tmp_path / "streamlit.log", "solicitation") as app:
            page = app.page
            app.go("Questionnaire")
            app.uploader("Upload questionnaire").set_input_files(str(rfq))
            app.expect_text(f"Detected in {rfq.name}", timeout=120)
            app.settle()
            app.expect_text("Key facts")
            assert metric(app, "Requirements") == "169" and metric(app, "Work") == "5"
            assert metric(app, "Submission") == "79"
            app.shot("mapped")

            page.locator('[data-testid="stExpander"] summary').filter(has_text="Correct the detection").click()
            app.settle()
            pick(app, "stMultiSelect", "Change the kind of these requirements", f"{CORRECTED} ·")
            pick(app, "stSelectbox", "to", "work")
            app.button("Apply corrections").click()
            app.expect_text("Read again with the corrections: 169 requirements, 1 kind changed to work")
            app.settle()
            assert metric(app, "Work") == "6" and metric(app, "Submission") == "78"
            app.shot("corrected")

            app.type_into(page.get_by_label("Questions to draft (0 = all)"), "3")
            app.button("Start drafting").click()
            app.expect_text("Drafting finished", timeout=300)
            app.settle()
            app.shot("drafted")

            app.go("Review")
            open_question(app, CORRECTED)
            app.settle()
            app.expect_text("The requirement on its page")  # the RFQ's page 4, the requirement's words outlined
            app.expect_text(f"{rfq.name}, page 4 — the quoted lines are outlined.")
            app.shot("requirement_page")
            pick(app, "stSelectbox", "Choice", "Comply")
            answer = page.get_by_role("textbox", name="Answer", exact=True)
            answer.fill(ANSWER)
            answer.press("Control+Enter")
            app.settle()
            app.button("Accept").click()
            app.expect_text(f"{CORRECTED} accepted")
            app.settle()
            app.shot("accepted")

            app.go("Export")
            with page.expect_download(timeout=60_000) as download:
                app.button("Download the compliance matrix").click()
            saved = tmp_path / download.value.suggested_filename
            download.value.save_as(saved)
            assert_no_traceback(app)
    assert saved.name == "gsa_18f_ads_bpa_rfq_solicitation_flat_compliance_matrix.xlsx"
    sheet = openpyxl.load_workbook(saved)["Compliance matrix"]
    header = [c.value for c in sheet[1]]
    rows = {row[0]: dict(zip(header, row)) for row in sheet.iter_rows(min_row=2, values_only=True)}
    assert len(rows) == 169
    accepted = rows[CORRECTED]
    assert accepted["Kind"] == "work" and accepted["Mandatory"] == "yes"  # the kind as corrected
    assert accepted["Compliance"] == "Comply" and accepted["Response"] == ANSWER and accepted["Status"] == "Accepted"
    # the other two drafted ("Drafted", or "No context" where the handbook holds nothing on them), not accepted:
    # their state is said, no answer written
    others = [row for rid, row in rows.items() if rid != CORRECTED and row["Status"] != "Not drafted"]
    assert len(others) == 2 and all(row["Status"] in ("Drafted", "No context") for row in others), others
    assert all(not row["Response"] and not row["Compliance"] for row in others)
