"""Two reviewers, one question, in a real browser (issue #36, item 2): two browser contexts (two
sessions, as two people's browsers) on one app (``streamlit run ui/app.py``, Debian's Chromium
through Playwright) and one questionnaire.

B saves an edit of ENC-01; A's screen still shows the draft and A clicks Accept: A sees "This row
changed since you opened it" with B's answer, the stored decision is still B's edit, and A's text
stays in the answer box. A takes the newer answer and accepts it: B's text is accepted. On the
next row B saves an edit while A types: A's page, rerun, says the row changed and keeps A's text;
A applies theirs anyway and A's edit is stored.

The workspace is prepared through the engine's API before the app starts, drafted by
``TableDrafter`` (a stated fake drafter); the app's LLM setting is the stated fake server of
tests/e2e/test_browser.py, so no model drafts or loads here: this test is about the screen and the
review store. Screenshots go to ``tests/e2e/screens/`` as ``lost_update_{a,b}_NN_<step>.png``.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from engine.review.review import ReviewState
from tests.e2e.test_browser import (
    CHROMIUM,
    CHROMIUM_ARGS,
    NEEDS_CHROMIUM,
    SCREENS,
    VIEWPORT,
    quoting_llm_server,
    streamlit_app,
)
from tests.e2e.test_browser_cases import CaseApp, assert_no_traceback, load, prepared_workspace, review_items
from tests.fixtures import write_questionnaire

pytestmark = [
    pytest.mark.timeout(420),
    NEEDS_CHROMIUM,
]

B_EDIT = "No. B checked with the storage team: only the backups are encrypted."
B_BACKUPS = "Backups are kept for 35 days (B's edit)."
A_BACKUPS = "Backups are kept for 90 days (A's edit, applied anyway)."
DRAFT = "Drafted for ENC-01."


@contextmanager
def two_reviewers(workspace: Path, log: Path):
    """The app on ``workspace`` and two browser contexts on it (A and B), each page loaded."""
    from playwright.sync_api import sync_playwright

    SCREENS.mkdir(exist_ok=True)
    with streamlit_app(workspace, log) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        apps = [CaseApp(browser.new_context(viewport=VIEWPORT).new_page(), url, f"lost_update_{who}") for who in "ab"]
        try:
            for app in apps:
                load(app)
            yield apps
        finally:
            for app in apps:
                try:
                    app.shot("last")
                except Exception:
                    pass
            browser.close()


def answer_box(app: CaseApp):
    return app.page.get_by_role("textbox", name="Answer", exact=True)


def shows_answer(app: CaseApp, text: str) -> None:
    """The answer box holds ``text`` (waited for: the page may still be rerunning)."""
    from playwright.sync_api import expect

    expect(answer_box(app)).to_have_value(text, timeout=60_000)


def write_answer(app: CaseApp, text: str) -> None:
    """Type into the answer box and commit it (Ctrl+Enter), as a reviewer does before a button."""
    app.type_into(answer_box(app), text, "Control+Enter")


def changed_warning(app: CaseApp):
    return app.page.locator('[data-testid="stAlert"]').filter(has_text="changed since you opened it")


def on_row(app: CaseApp, qid: str) -> None:
    app.page.locator('[data-testid="stCaptionContainer"]').filter(has_text=f"{qid} · sheet").first.wait_for(
        timeout=60_000
    )


def test_two_reviewers_on_one_row_in_two_browsers(tmp_path):
    started = time.monotonic()
    book = write_questionnaire(tmp_path / "vendor_questionnaire.xlsx")
    folder = tmp_path / "workspace"
    with quoting_llm_server() as llm_url:
        pid, _ = prepared_workspace(folder, llm_url, book, {})
        with two_reviewers(folder, tmp_path / "streamlit.log") as (a, b):
            for app in (a, b):  # both open the first row to review: its draft
                on_row(app, "ENC-01")
                shows_answer(app, DRAFT)
            a.shot("draft")

            write_answer(b, B_EDIT)
            b.button("Save edit").click()
            b.expect_text("ENC-01 edit saved")
            b.shot("edit_saved")

            a.button("Accept").click()  # A's screen still shows the draft
            a.settle()
            warning = changed_warning(a)
            warning.wait_for(timeout=60_000)
            a.shot("refused")
            text = warning.inner_text()
            assert "another reviewer saved an edit at" in text and B_EDIT in text, text
            assert "Your text is kept below" in text
            shows_answer(a, DRAFT)  # what A had on screen, kept
            item = review_items(folder, pid)["ENC-01"]
            assert item.state is ReviewState.EDITED and item.answer == B_EDIT  # A's accept was not written
            assert_no_traceback(a)

            a.button("Take the newer answer").click()
            a.settle()
            shows_answer(a, B_EDIT)
            assert changed_warning(a).count() == 0
            a.button("Accept").click()
            a.expect_text("ENC-01 accepted")
            a.shot("newer_accepted")
            item = review_items(folder, pid)["ENC-01"]
            assert item.state is ReviewState.ACCEPTED and item.answer == B_EDIT and item.choice == "Yes"

            # the next row: both moved on to BCK-01; B saves first, A applies theirs anyway
            for app in (a, b):
                on_row(app, "BCK-01")
            write_answer(b, B_BACKUPS)
            b.button("Save edit").click()
            b.expect_text("BCK-01 edit saved")
            write_answer(a, A_BACKUPS)  # A's page reruns: the row changed under A's unsaved text, said at once
            changed_warning(a).wait_for(timeout=60_000)
            a.shot("changed_while_typing")
            assert B_BACKUPS in changed_warning(a).inner_text()
            shows_answer(a, A_BACKUPS)
            assert review_items(folder, pid)["BCK-01"].answer == B_BACKUPS
            a.button("Apply mine anyway").click()
            a.expect_text("BCK-01 edit saved")
            a.shot("mine_applied")
            assert_no_traceback(a)
            assert_no_traceback(b)
    items = review_items(folder, pid)
    assert items["ENC-01"].state is ReviewState.ACCEPTED and items["ENC-01"].answer == B_EDIT
    assert items["BCK-01"].state is ReviewState.EDITED and items["BCK-01"].answer == A_BACKUPS
    print(f"\ntwo reviewers on one row in the browser: {time.monotonic() - started:.1f} s")
