"""Short cases in a real browser (issues #23, #24, #37 and #51): the app (``streamlit run ui/app.py``
on a free localhost port) driven by Playwright through Debian's Chromium, each on a workspace
prepared through the engine's API before the app starts, so no model drafts anything here.

* A damaged ``review.sqlite`` (emptied with its ``-wal`` beside it, then overwritten with random
  bytes): the page shows the one line naming the file and ``python -m engine restore``, no
  Python traceback and no Streamlit exception box, and no file of the workspace changed
  (SHA-256 of each before and after).
* A questionnaire whose question ID is ``:red[ID-RED]`` and whose question holds
  ``[click](javascript:alert(1))``: its draft on the Review screen and the message after Accept
  show both literally (no link with a ``javascript:`` address, no coloured text).
* A HECVAT-shaped workbook drafted with QUAL-01 = No: the Review screen's Sections summary says
  the HIPAA rows are "not required (QUAL-01 = No)"; the reviewer opens QUAL-01, sets the choice
  to Yes and presses Save edit; the summary then says "required (QUAL-01 = Yes)", and the list's
  Row type filter set to "Gated (not required)" lists only the rows still switched off.
* Review first (issue #37) on six Yes/No rows whose choices come from past answers: two where
  the near-identical past answers disagree, four where they all agree. The toggle counts the two,
  lists them first, each marked; each opens on one warning line with the past answers behind
  "Details"; an agreeing row shows one grey line and no warning box. The drafts reusing library
  answers past their review-by date are one line above the list with a filter, and their cards show
  no warning box; a search that leaves one row opens it; /review opens a live Review screen (#50).

* The coverage report (issue #51) on two questionnaires whose rows nothing answers come back "no
  context": the Export screen's *Gaps by topic* ranks the encryption-at-rest topic first (three
  rows, two questionnaires); its *Open 2 rows in Review* lists exactly those two rows in Review,
  under the figure's name, and *Show all questions* lists them all again.

The drafts are made by ``TableDrafter`` (tests/unit/test_sections_drafting.py), a stated fake
that answers from a table (the Review-first case then stores fakes of reused drafts straight into
the review store): these tests are about the screens, not about generation. The
workspace's LLM setting points at the stated fake OpenAI-compatible server of
tests/e2e/test_browser.py, so the app's background warm-up loads no model (the embedder still
loads). Screenshots go to ``tests/e2e/screens/`` (git-ignored) as ``<case>_NN_<step>.png``.
"""

from __future__ import annotations

import re
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from engine.app.settings import GeneratorConfig, Settings
from tests.e2e.test_browser import (
    CHROMIUM,
    CHROMIUM_ARGS,
    NEEDS_CHROMIUM,
    SCREENS,
    VIEWPORT,
    App,
    open_question,
    quoting_llm_server,
    streamlit_app,
)
from ui.review.notes import stale_line

pytestmark = [
    pytest.mark.timeout(300),
    NEEDS_CHROMIUM,
]

RED_ID = ":red[ID-RED]"
LINK = "[click](javascript:alert(1))"
HOSTILE_QUESTION = f"Is customer data encrypted at rest? {LINK}"
EXCEPTION_BOX = '[data-testid="stException"]'
HELP_BOX = '[data-testid="stHelp"]'


class CaseApp(App):
    """The page driver of test_browser.py, its screenshots named ``<case>_NN_<step>.png`` (the
    full flow's own ``NN_<step>.png`` are left alone)."""

    def __init__(self, page, url: str, case: str) -> None:
        super().__init__(page, url)
        self.case = case
        for old in SCREENS.glob(f"{case}_*.png"):
            old.unlink()

    def shot(self, name: str) -> None:
        self.shots += 1
        self.page.screenshot(path=str(SCREENS / f"{self.case}_{self.shots:02d}_{name}.png"))


@contextmanager
def browser_on(workspace: Path, log: Path, case: str):
    """The app on ``workspace`` and a Chromium page on it, loaded: the page driver."""
    from playwright.sync_api import sync_playwright

    SCREENS.mkdir(exist_ok=True)
    with streamlit_app(workspace, log) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        page = browser.new_context(viewport=VIEWPORT).new_page()
        app = CaseApp(page, url, case)
        try:
            load(app)
            yield app
        finally:
            try:
                app.shot("last")
            except Exception:
                pass
            browser.close()


def load(app: App) -> None:
    app.page.goto(app.url, wait_until="domcontentloaded")
    app.page.wait_for_selector('[data-testid="stApp"]', timeout=120_000)
    app.settle()


def assert_no_traceback(app: App) -> None:
    """No Streamlit exception box and no "Traceback" on the page; nor an object's help table,
    which Streamlit's "magic" writes for a bare expression in the main script (ui/app.py's
    ``ws.kb`` did: a KnowledgeBase's methods above every screen)."""
    page = app.page
    assert page.locator(EXCEPTION_BOX).count() == 0, page.locator(EXCEPTION_BOX).first.inner_text()
    assert page.locator(HELP_BOX).count() == 0, page.locator(HELP_BOX).first.inner_text()[:500]
    body = page.locator("body").inner_text()
    assert "Traceback" not in body, body[-3000:]


def prepared_workspace(folder: Path, llm_url: str, book: Path, table: dict[str, str], by: str | None = None):
    """A workspace whose LLM setting is the stated fake server, holding ``book`` drafted by
    ``TableDrafter(table)`` (the stated fake drafter) for ``by`` (the name its drafts carry; None:
    none); the project's id and the drafter's questions, in the order it was asked them."""
    from engine.app.workspace import Workspace
    from engine.review.draft_run import draft_questionnaire
    from tests.unit.test_sections_drafting import TableDrafter

    settings = Settings(generator=GeneratorConfig(llm_url=llm_url))
    settings.save(folder)
    ws = Workspace(folder, settings)
    try:
        project, _ = ws.add_questionnaire(book.name, book.read_bytes())
        drafter = TableDrafter(table)
        draft_questionnaire(ws.questionnaire(project.id), drafter, ws.review_store, by=by)
        return project.id, drafter.asked
    finally:
        ws.review_store.close()


def review_items(folder: Path, project_id: int) -> dict:
    """The Review items by question ID, read from the workspace's store as the app left it."""
    from engine.app.workspace import Workspace

    ws = Workspace(folder, Settings.load(folder))
    try:
        return {i.question.id: i for i in ws.review(project_id).items()}
    finally:
        ws.review_store.close()


# ---- #23: a damaged review store ----------------------------------------------------------------
def test_a_damaged_review_store_shows_one_line_and_no_traceback_in_the_browser(tmp_path):
    from storage import snapshots
    from storage.review_store import ReviewStore
    from tests.adversarial.damaged import damage, fingerprint, review_store_files

    started = time.monotonic()
    folder = tmp_path / "workspace"
    review_store_files(folder, with_wal=True)  # a killed app's store: the second session in its -wal
    good = {name: (folder / name).read_bytes() for name in ("review.sqlite", "review.sqlite-wal")}
    earlier = tmp_path / "earlier"  # the snapshot an earlier start of the app took
    earlier.mkdir()
    for name, data in good.items():
        (earlier / name).write_bytes(data)
    store = ReviewStore(earlier / "review.sqlite")
    snapshots.take_review(store)
    store.close()
    (earlier / "backups").rename(folder / "backups")
    damage(folder / "review.sqlite", "0 bytes")
    before = fingerprint(folder)
    db = folder / "review.sqlite"

    with browser_on(folder, tmp_path / "streamlit.log", "damaged") as app:
        shown = {}
        for case in ("0 bytes", "garbage"):
            if case == "garbage":  # the same app process, the file now random bytes (no -wal)
                (folder / "review.sqlite-wal").unlink()
                db.write_bytes(good["review.sqlite"])
                damage(db, "garbage")
                before = fingerprint(folder)
                load(app)
            app.expect_text("review database is damaged")
            app.shot(case.replace(" ", "_"))
            alert = app.page.locator('[data-testid="stAlert"]')
            assert alert.count() == 1, [alert.nth(i).inner_text() for i in range(alert.count())]
            text = alert.first.inner_text()
            shown[case] = text
            assert str(db) in text, text
            assert f"python -m engine restore --store {folder}" in text, text
            assert "nothing was changed" in text, text
            assert_no_traceback(app)
            assert "There is no questionnaire" not in app.page.locator("body").inner_text()
            assert fingerprint(folder) == before, case
    assert "the file is empty" in shown["0 bytes"], shown
    assert fingerprint(folder) == before
    print(f"\ndamaged review store in the browser: {time.monotonic() - started:.1f} s; shown: {shown}")


# ---- #23: hostile Markdown in a question ID and text ----------------------------------------------
LITERAL_CHECK = """() => {
  const found = {red: [], link: [], coloured: [], links: []};
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT);
  for (let el = walker.currentNode; el; el = walker.nextNode()) {
    const own = Array.from(el.childNodes).filter(n => n.nodeType === 3).map(n => n.data).join('');
    if (own.includes('ID-RED')) found.red.push(own);
    if (own.includes('alert(1)')) found.link.push(own);
    if (el.tagName === 'A' && /^\\s*javascript:/i.test(el.getAttribute('href') || '')) found.links.push(el.outerHTML);
    if (el.textContent.trim() === 'ID-RED') found.coloured.push(el.outerHTML);
  }
  return found;
}"""


def assert_literal_on_page(app: App) -> dict:
    """``:red[ID-RED]`` and ``[click](javascript:alert(1))`` are on the page as written: every
    element whose own text holds ``ID-RED`` holds ``:red[ID-RED]``, no element holds only
    ``ID-RED`` (the colour directive's span), and no link points at ``javascript:``."""
    page = app.page
    found = page.evaluate(LITERAL_CHECK)
    assert found["red"] and all(RED_ID in t for t in found["red"]), found["red"]
    assert not found["coloured"], found["coloured"]
    assert not found["links"], found["links"]
    assert page.get_by_role("link", name="click", exact=True).count() == 0
    return found


def test_a_hostile_question_id_and_text_show_literally_in_the_browser(tmp_path):
    from tests.fixtures import write_questionnaire

    started = time.monotonic()
    book = write_questionnaire(
        tmp_path / "hostile.xlsx",
        questions=[
            (RED_ID, HOSTILE_QUESTION),
            ("BCK-01", "How long are backups of the production databases kept?"),
        ],
    )
    folder = tmp_path / "workspace"
    with quoting_llm_server() as llm_url:
        pid, _ = prepared_workspace(folder, llm_url, book, {RED_ID: "Yes", "BCK-01": "Yes"})
        with browser_on(folder, tmp_path / "streamlit.log", "hostile") as app:
            page = app.page
            open_question(app, RED_ID)
            app.settle()
            app.page.get_by_text(HOSTILE_QUESTION, exact=True).first.wait_for(timeout=60_000)
            app.shot("review_draft")
            found = assert_literal_on_page(app)
            assert any(LINK in t for t in found["link"]), found["link"]  # the question text, as written
            assert_no_traceback(app)

            app.button("Accept").click()
            app.expect_text(f"{RED_ID} accepted")
            app.shot("review_accepted")
            found = assert_literal_on_page(app)
            assert any(t.startswith(f"{RED_ID} accepted") for t in found["red"]), found["red"]
            assert_no_traceback(app)
            app.settle()
            assert page.locator(EXCEPTION_BOX).count() == 0
    items = review_items(folder, pid)
    assert items[RED_ID].decision is not None and items[RED_ID].decision.action.value == "accepted"
    print(f"\nhostile question ID and text in the browser: {time.monotonic() - started:.1f} s")


# ---- #24: a qualifier switches its section off and on --------------------------------------------
def sections_summary(app: App) -> str:
    """The Sections expander of the Review screen, opened: its text."""
    page = app.page
    expander = (
        page.locator('[data-testid="stExpander"]')
        .filter(has=page.locator("summary").filter(has_text="governed by qualifiers"))
        .first
    )
    expander.wait_for(timeout=60_000)
    details = expander.locator("details")
    if details.count() and details.first.get_attribute("open") is None:
        expander.locator("summary").first.click()
        app.settle()
    expander.scroll_into_view_if_needed()
    return expander.inner_text()


def filter_row_type(app: App, option: str) -> None:
    """Pick ``option`` in the Review list's Row type filter and wait for the rerun."""
    page = app.page
    box = page.locator('[data-testid="stSidebar"] [data-testid="stMultiSelect"]').filter(has_text="Row type")
    box.get_by_role("combobox").click()
    page.locator('[role="listbox"] [role="option"]').filter(has_text=option).first.click()
    page.keyboard.press("Escape")
    app.settle()


def listed_ids(app: App) -> list[str]:
    """The question IDs in the Review list, in order."""
    labels = app.page.locator('[data-testid="stSidebar"] [data-testid="stRadio"] label').all_inner_texts()
    return [m.group(0) for t in labels if (m := re.search(r"[A-Z]{4}-\d\d", t))]


def test_a_qualifier_switches_its_section_off_and_on_in_the_browser(tmp_path):
    from engine.review.review import ReviewState
    from tests.unit.test_qualifiers import hecvat_like

    started = time.monotonic()
    book = hecvat_like(tmp_path / "hecvat.xlsx")
    folder = tmp_path / "workspace"
    with quoting_llm_server() as llm_url:
        pid, asked = prepared_workspace(folder, llm_url, book, {"QUAL-01": "No", "QUAL-05": "No", "QUAL-07": "4) AWS"})
        assert "HIPA-01" not in asked and "HIPA-02" not in asked  # switched off: not drafted
        with browser_on(folder, tmp_path / "streamlit.log", "qualifier") as app:
            page = app.page
            summary = sections_summary(app)
            app.shot("sections_off")
            hipaa = next(line for line in summary.splitlines() if "HIPAA" in line)
            assert "HIPA-01 … HIPA-02" in hipaa and "not required (QUAL-01 = No)" in hipaa, summary
            assert "5 governed by qualifiers, 4 not required" in summary, summary
            assert_no_traceback(app)

            open_question(app, "QUAL-01")
            app.settle()
            box = page.locator('[data-testid="stSelectbox"]').filter(has_text="Choice")
            box.wait_for(timeout=60_000)
            combo = box.get_by_role("combobox")
            assert combo.input_value() == "No"  # as drafted
            combo.scroll_into_view_if_needed()
            combo.click()  # opens the list of choices
            page.locator('[role="listbox"] [role="option"]').filter(has_text="Yes").click()
            app.settle()
            assert combo.input_value() == "Yes"
            app.shot("qual01_yes")
            app.button("Save edit").click()
            app.settle()
            summary = sections_summary(app)
            app.shot("sections_on")
            hipaa = next(line for line in summary.splitlines() if "HIPAA" in line)
            assert "required (QUAL-01 = Yes)" in hipaa and "not required" not in hipaa, summary
            assert "5 governed by qualifiers, 3 not required" in summary, summary
            assert_no_traceback(app)

            assert len(listed_ids(app)) == 10
            filter_row_type(app, "Gated (not required)")  # the HIPAA rows are required again: not listed
            app.shot("row_type_gated")
            assert listed_ids(app) == ["PCID-01", "DCTR-01", "DCTR-03"]
            assert_no_traceback(app)
    items = review_items(folder, pid)
    assert items["QUAL-01"].choice == "Yes"
    assert items["HIPA-01"].state is ReviewState.PENDING and items["HIPA-01"].gate.reason == "required (QUAL-01 = Yes)"
    print(f"\nqualifier off and on in the browser: {time.monotonic() - started:.1f} s")


# ---- #37: Review first holds the disputed drafts, not the agreeing ones ----------------------------
PRODUCTS = ("Canvas LMS", "Canvas Studio", "Mastery Connect", "Parchment", "Impact", "Elevate")
DISPUTED = {"INCI-01": ("Yes", 3, 2), "LOGS-01": ("No", 3, 2)}  # ID → (choice, for it, against it)
AGREEING = {"ENCR-01": 6, "BACK-01": 4, "ACCS-01": 5, "VULN-01": 6}  # ID → products that all said Yes
# of those, reused as this product's own past answers, past their library entry's review-by date (#50)
STALE = {"BACK-01": "2025-03-01", "VULN-01": "2025-06-30"}
REUSED_ROWS = [
    ("ENCR-01", "Is customer data encrypted at rest?"),
    ("BACK-01", "Are backups of the production databases tested?"),
    ("INCI-01", "Are customers notified of a confirmed breach within 72 hours?"),
    ("ACCS-01", "Do employees use multi-factor authentication?"),
    ("LOGS-01", "Are security logs kept for at least one year?"),
    ("VULN-01", "Are vulnerability scans run every month?"),
]


def reused_from_other_products(folder: Path, project_id: int) -> dict:
    """Each draft stored again as a choice taken from other products' near-identical past answers
    (a fake written straight into the review store, as the drafter would store it): disagreeing
    for ``DISPUTED``, all Yes for ``AGREEING``. The drafts by question ID, as the app reads them."""
    from dataclasses import replace

    from engine.app.workspace import Workspace

    ws = Workspace(folder, Settings.load(folder))
    try:
        for item in ws.review(project_id).items():
            qid = item.question.id
            if qid in DISPUTED:
                choice, votes, against = DISPUTED[qid]
                other = "No" if choice == "Yes" else "Yes"
                said = [f"{p}'s HECVAT: {choice}" for p in PRODUCTS[:votes]]
                said += [f"{p}'s HECVAT: {other}" for p in PRODUCTS[votes : votes + against]]
                past = {choice: votes, other: against}
            else:
                choice, said = "Yes", [f"{p}'s HECVAT: Yes" for p in PRODUCTS[: AGREEING[qid]]]
                past = {"Yes": AGREEING[qid]}
            draft = replace(
                item.draft,
                answer="",
                choice=choice,
                reused=True,
                from_product=None if qid in STALE else said[0].split("'s ")[0],
                past_choices=past,
                past_answers=tuple(said),
                reused_due=STALE.get(qid),
            )
            ws.review_store.add_draft(project_id, draft.stored())
        return {i.question.id: i.draft for i in ws.review(project_id).items()}
    finally:
        ws.review_store.close()


def review_first_toggle(app: App):
    return app.page.locator('[data-testid="stSidebar"] [data-testid="stCheckbox"]').filter(has_text="Review first")


def list_labels(app: App) -> dict[str, str]:
    """The Review list's labels (icons as their Material names) by question ID."""
    labels = app.page.locator('[data-testid="stSidebar"] [data-testid="stRadio"] label').all_inner_texts()
    return {m.group(0): t for t in labels if (m := re.search(r"[A-Z]{4}-\d\d", t))}


def test_review_first_holds_the_disputed_drafts_and_not_the_agreeing_ones_in_the_browser(tmp_path):
    from tests.fixtures import write_questionnaire

    started = time.monotonic()
    book = write_questionnaire(tmp_path / "reused.xlsx", questions=REUSED_ROWS)
    folder = tmp_path / "workspace"
    with quoting_llm_server() as llm_url:
        pid, _ = prepared_workspace(folder, llm_url, book, {})
        drafts = reused_from_other_products(folder, pid)
        risky = [qid for qid, d in drafts.items() if d.review_first]
        # the engine's risk ranking (engine/drafting/risk.py, calibrated leave-one-out): disputed in, agreeing out
        assert sorted(risky) == sorted(DISPUTED), {qid: d.risk for qid, d in drafts.items()}
        with browser_on(folder, tmp_path / "streamlit.log", "review_first") as app:
            page = app.page
            toggle = review_first_toggle(app)
            toggle.wait_for(timeout=60_000)
            # the list is drawn after the toggle (a loaded machine shows the toggle first): wait for it
            app.page.locator('[data-testid="stSidebar"] [data-testid="stRadio"] label').filter(
                has_text=re.compile(r"[A-Z]{4}-\d\d")
            ).first.wait_for(timeout=60_000)
            app.settle()
            assert toggle.inner_text().strip() == f"Review first ({len(DISPUTED)})"
            assert listed_ids(app) == [qid for qid, _ in REUSED_ROWS]  # off: the questionnaire's order
            toggle.locator("label").first.click()
            app.settle()
            app.shot("review_first_on")
            shown = listed_ids(app)
            assert sorted(shown[: len(DISPUTED)]) == sorted(DISPUTED), shown  # the disputed ones first
            assert shown[len(DISPUTED) :] == [qid for qid, _ in REUSED_ROWS if qid in AGREEING], shown
            labels = list_labels(app)
            assert all("call_split" in labels[qid] for qid in DISPUTED), labels  # marked
            assert not any("call_split" in labels[qid] for qid in AGREEING), labels
            assert_no_traceback(app)

            warning = page.locator('[data-testid="stMain"] [data-testid="stAlertContentWarning"]')
            open_question(app, "INCI-01")
            app.settle()
            app.expect_text("Other products disagree: Yes ×3, No ×2")
            assert warning.count() == 1, [warning.nth(i).inner_text() for i in range(warning.count())]
            assert warning.first.inner_text().strip().endswith("Other products disagree: Yes ×3, No ×2")
            assert not page.get_by_text("Mastery Connect's HECVAT: Yes").first.is_visible()  # behind Details
            page.locator('[data-testid="stExpander"] summary').filter(has_text="Details").first.click()
            app.settle()
            assert page.get_by_text("Impact's HECVAT: No").first.is_visible()
            app.shot("disputed_details")

            open_question(app, "ENCR-01")
            app.settle()
            app.expect_text("Yes, as 6 other products answered")  # one grey line
            assert warning.count() == 0, warning.first.inner_text()  # all agree: no box
            assert not page.get_by_text("Elevate's HECVAT: Yes").first.is_visible()  # its Details: closed
            app.shot("agreeing")
            assert_no_traceback(app)
            stale_library_answers_are_one_line_above_the_list(app, warning)
            a_search_leaving_one_row_opens_it(app)
            the_reviews_own_address_opens_a_live_screen(app)
    print(f"\nReview first in the browser: {time.monotonic() - started:.1f} s")


# ---- #51: the coverage report, one gap topic followed to its rows in Review -----------------------
COVERED = {  # two questionnaires: their no-context rows (the gaps) and rows drafted Yes
    "first.xlsx": [
        ("ENC-01", "Is customer data encrypted at rest?", False),
        ("BCK-01", "How long are backups of the production databases kept?", False),
        ("TLS-01", "Is data in transit protected with TLS 1.2 or later?", True),
    ],
    "second.xlsx": [
        ("ENC-02", "Describe how customer data is encrypted at rest.", False),
        ("ENC-03", "Which algorithm encrypts customer data at rest?", False),
        ("ACC-01", "Do employees use multi-factor authentication?", True),
    ],
}


def covered_workspace(folder: Path, llm_url: str, tmp_path: Path) -> list[int]:
    """A workspace whose LLM setting is the stated fake server, holding the two questionnaires of
    :data:`COVERED`, drafted by ``TableDrafter`` (the stated fake drafter) with its no-context rows
    answered "no context"; the project ids."""
    from engine.app.workspace import Workspace
    from engine.core.types import DraftStatus
    from engine.drafting.records import Draft
    from engine.questionnaire.qualifiers import question_key
    from engine.review.draft_run import draft_questionnaire
    from tests.fixtures import write_questionnaire
    from tests.unit.test_sections_drafting import TableDrafter

    class Gaps(TableDrafter):  # the rows nothing answers come back "no context"
        def draft(self, q, rows=None, source=None, qualifier=None) -> Draft:
            if q.id in empty:
                return Draft(question_key(q), q.id, q.sheet, q.row, q.text, "", None, DraftStatus.NO_CONTEXT)
            return super().draft(q, rows, source, qualifier)

    empty = {qid for rows in COVERED.values() for qid, _, drafted in rows if not drafted}
    settings = Settings(generator=GeneratorConfig(llm_url=llm_url))
    settings.save(folder)
    ws = Workspace(folder, settings)
    try:
        ids = []
        for name, rows in COVERED.items():
            book = write_questionnaire(tmp_path / name, questions=[(qid, text) for qid, text, _ in rows])
            project, questionnaire = ws.add_questionnaire(name, book.read_bytes())
            draft_questionnaire(questionnaire, Gaps({}), ws.review_store, project_id=project.id)
            ids.append(project.id)
        return ids
    finally:
        ws.review_store.close()


def review_list(app: App) -> list[str]:
    """The question IDs in the Review list, in order."""
    labels = app.page.locator('[data-testid="stSidebar"] [data-testid="stRadio"] label').all_inner_texts()
    return [m.group(0) for t in labels if (m := re.search(r"\b[A-Z]{3}-\d\d\b", t))]


def test_the_coverage_report_follows_a_gap_topic_to_its_rows_in_review_in_the_browser(tmp_path):
    started = time.monotonic()
    folder = tmp_path / "workspace"
    with quoting_llm_server() as llm_url:
        covered_workspace(folder, llm_url, tmp_path)
        with browser_on(folder, tmp_path / "streamlit.log", "coverage") as app:
            page = app.page
            app.go("Export")  # the newest questionnaire: second.xlsx
            page.get_by_role("tab", name="Gaps by topic").wait_for(timeout=120_000)
            app.settle()
            topic = page.locator('[data-testid="stMarkdownContainer"]').filter(has_text=re.compile(r"^#1 ")).first
            topic.scroll_into_view_if_needed()
            said = topic.inner_text()
            app.shot("coverage_topics")
            # the encryption-at-rest topic: ENC-02 and ENC-03 here, ENC-01 in first.xlsx; first by size
            assert "2 rows here, 3 in 2 questionnaires" in said and "no source 3" in said, said
            assert "encrypt" in said.lower(), said
            assert_no_traceback(app)
            page.get_by_role("button", name="Open 2 rows in Review").click()  # topic #1's: the only one with two here
            page.get_by_text("of the report's figure").first.wait_for(timeout=60_000)
            app.settle()
            app.shot("topic_in_review")
            assert review_list(app) == ["ENC-02", "ENC-03"], review_list(app)
            assert "gap topic" in page.get_by_text("of the report's figure").first.inner_text()
            assert_no_traceback(app)
            app.button("Show all questions").click()
            app.settle()
            assert review_list(app) == ["ENC-02", "ENC-03", "ACC-01"], review_list(app)
            app.shot("all_questions")
    print(f"\ncoverage report to Review in the browser: {time.monotonic() - started:.1f} s")


def stale_library_answers_are_one_line_above_the_list(app: App, warning) -> None:
    """#50: the drafts reusing library answers past their review-by date are one line above the
    list, with a filter to them; their cards (reused, undisputed) show no warning box."""
    page = app.page
    app.expect_text(stale_line(len(STALE)))  # "2 drafts reuse library answers past their review-by date — …"
    assert page.get_by_text("due for review").count() == 0  # no card line of it
    open_question(app, "BACK-01")
    app.settle()
    app.expect_text("Yes: 4 past answers agree")  # one grey line
    assert warning.count() == 0, warning.first.inner_text()  # reused, undisputed, stale: no box
    app.shot("stale_card")
    only = page.locator('[data-testid="stSidebar"] [data-testid="stCheckbox"]').filter(has_text="Only these")
    assert only.inner_text().strip() == f"Only these ({len(STALE)})"
    only.locator("label").first.click()
    app.settle()
    assert listed_ids(app) == [qid for qid, _ in REUSED_ROWS if qid in STALE]
    app.shot("stale_filter")
    only.locator("label").first.click()
    app.settle()
    assert len(listed_ids(app)) == len(REUSED_ROWS)


def a_search_leaving_one_row_opens_it(app: App) -> None:
    """#50: typing a search that leaves one row in the list opens that row."""
    page = app.page
    search = page.locator('[data-testid="stSidebar"] [data-testid="stTextInput"] input').first
    app.type_into(search, "breach")  # only INCI-01's question says it
    assert listed_ids(app) == ["INCI-01"]
    app.expect_text("Are customers notified of a confirmed breach within 72 hours?")
    assert page.locator('[data-testid="stMain"]').get_by_text("INCI-01 · sheet").count() == 1
    app.shot("search_opens_the_row")
    app.type_into(search, "")


def the_reviews_own_address_opens_a_live_screen(app: App) -> None:
    """#50: the Review screen's own address (/review) opens it, no "page not found" box over an
    inert screen; the app's address opens it at that address."""
    page = app.page
    for address in ("/review", "/"):
        page.goto(app.url + address, wait_until="domcontentloaded")
        page.locator('[data-testid="stSidebar"] [data-testid="stRadio"] label').filter(
            has_text=re.compile(r"[A-Z]{4}-\d\d")
        ).first.wait_for(timeout=120_000)
        app.settle()
        assert page.url.rstrip("/").endswith("/review"), page.url
        assert "Page not found" not in page.locator("body").inner_text()
        open_question(app, "ACCS-01")  # a click that an inert page would refuse
        app.settle()
        app.expect_text("Do employees use multi-factor authentication?")
        app.shot(f"address_{address.strip('/') or 'root'}")
