"""The team's loop in a real browser (issue #39, the first "Done when"): the app served with
accounts (``python -m engine serve``, tests/e2e/test_browser_accounts.py) to a lead (ana), an
expert (bo) who answers offline and opens the app only to bring his packet back, and a reviewer
(cy), each in a browser context of their own.

Set up through the engine before the app starts: the three accounts; the 4-question workbook
(tests/fixtures.py) drafted for ana by ``TableDrafter`` (a stated fake drafter: every draft is
"Yes" and "Drafted for <ID>.", with ana's name); and the questionnaire's approval step switched
on (``Review.require_approval(True)``, what the Questionnaire screen's toggle does), so an
accepted answer is final only once a second person approves it.

In the browser: ana assigns ENC-01, BCK-01 and INC-01 to bo, one by one, on the Review card's
Assign panel, and accepts ACC-01 herself (accepted, never approved); on Export → Expert packets
she makes and downloads bo's packet (the review store records it). The test fills it in with
openpyxl, as bo would offline: answers to ENC-01 and BCK-01, a comment on INC-01. Meanwhile cy
accepts BCK-01. ana's import of bo's packet is refused (a packet's answers are the importer's:
issue #47), nothing changed. bo signs in and imports it on My questions: one answer by bo, one
comment, and BCK-01 as a conflict with cy's decision, nothing overwritten; he takes the packet's
answer. cy approves bo's ENC-01 and BCK-01 (cy made neither decision) and sees BCK-01's history
name ana, cy and bo. ana's export with "Only approved
answers" (on by default here) holds bo's two answers, and INC-01 (only commented) and ACC-01
(accepted, not approved) stay blank. Last, the history read through the engine
(engine/review/history.py): who drafted, decided and approved, on every step of every row.

The workspace's LLM setting is the stated fake server of tests/e2e/test_browser.py, so no model
drafts or loads here (the embedder does, in the background). Screenshots go to
``tests/e2e/screens/`` as ``team_{lead,reviewer,expert}_NN_<step>.png``.
"""

from __future__ import annotations

import time
from pathlib import Path

import openpyxl
import pytest

from engine.app.settings import Settings
from engine.core.accounts import Role
from storage.accounts import Accounts
from tests.e2e.test_browser import (
    CHROMIUM,
    CHROMIUM_ARGS,
    NEEDS_CHROMIUM,
    SCREENS,
    VIEWPORT,
    open_question,
    quoting_llm_server,
)
from tests.e2e.test_browser_accounts import PASSWORD, served, sign_in
from tests.e2e.test_browser_cases import CaseApp, assert_no_traceback, load, prepared_workspace
from tests.fixtures import QUESTIONS, write_questionnaire

pytestmark = [
    pytest.mark.timeout(600),
    NEEDS_CHROMIUM,
]

TO_BO = ("ENC-01", "BCK-01", "INC-01")  # the rows ana assigns to bo
BO_ANSWERS = {  # ID → (choice, answer): what bo writes in the packet
    "ENC-01": ("Yes", "Yes: AES-256 on every volume, keys held in the cloud KMS and rotated yearly."),
    "BCK-01": ("Yes", "Backups are kept for 35 days and a restore is tested every month."),
}
BO_COMMENT = ("INC-01", "Legal words this one: ask Dana before answering.")
CONFLICTED = "BCK-01"  # cy accepts it after the packet was made
ANA_ACCEPTS = "ACC-01"  # accepted, never approved: not in an export of approved answers
EXPANDER = '[data-testid="stExpander"]'


def open_expander(app: CaseApp, title: str) -> None:
    """Open the card's expander whose summary starts with ``title`` (Assign, History (n), …)."""
    page = app.page
    expander = page.locator(EXPANDER).filter(has=page.locator("summary").filter(has_text=title)).first
    expander.wait_for(timeout=60_000)
    summary = expander.locator("summary").first
    if expander.locator("details").first.get_attribute("open") is None:
        summary.scroll_into_view_if_needed()
        summary.click()
        app.settle()


def assign_to(app: CaseApp, qid: str, person: str) -> None:
    """On the Review card of ``qid``: Assign → This row → ``person``."""
    open_question(app, qid)
    app.settle()
    open_expander(app, "Assign")
    app.type_into(app.page.get_by_role("textbox", name="Assign to", exact=True), person)
    app.button("Assign").click()
    app.expect_text(f"{qid} assigned to {person}.")
    app.settle()


def fill_packet(path: Path) -> None:
    """bo's offline work: the packet's "Your choice" / "Your answer" / "Your comment" cells (G, H,
    I), found by the row's ID, not by position."""
    wb = openpyxl.load_workbook(path)
    sheet = wb["Packet"]
    assert [c.value for c in sheet[1]][6:9] == ["Your choice", "Your answer", "Your comment"]
    rows = {sheet.cell(r, 1).value: r for r in range(2, sheet.max_row + 1)}
    assert sorted(rows) == sorted(TO_BO), rows  # exactly the rows bo holds
    for qid, (choice, answer) in BO_ANSWERS.items():
        sheet.cell(rows[qid], 7, choice)
        sheet.cell(rows[qid], 8, answer)
    qid, text = BO_COMMENT
    sheet.cell(rows[qid], 9, text)
    wb.save(path)


def test_a_lead_an_expert_and_a_reviewer_finish_the_questionnaire_in_the_browser(tmp_path):
    from playwright.sync_api import sync_playwright

    started = time.monotonic()
    folder = tmp_path / "ws"
    folder.mkdir()
    accounts = Accounts(folder)
    for name, role in (("ana", Role.LEAD), ("bo", Role.EXPERT), ("cy", Role.REVIEWER)):
        accounts.add(name, role, PASSWORD)
    accounts.close()
    SCREENS.mkdir(exist_ok=True)
    with quoting_llm_server() as llm_url:
        pid, _ = prepared_workspace(folder, llm_url, write_questionnaire(tmp_path / "vendor.xlsx"), {}, by="ana")
        with engine_review(folder, pid) as review:
            review.require_approval(True)  # as the Questionnaire screen's toggle does
        with served(folder, tmp_path / "team.log") as port, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
            url = f"http://127.0.0.1:{port}"
            lead, reviewer, expert = (
                CaseApp(browser.new_context(viewport=VIEWPORT, accept_downloads=True).new_page(), url, f"team_{who}")
                for who in ("lead", "reviewer", "expert")
            )
            try:
                exported = the_loop(lead, reviewer, expert, tmp_path)
            finally:
                for app in (lead, reviewer, expert):
                    try:
                        app.shot("last")
                    except Exception:
                        pass
                browser.close()
    assert_exported_exactly_the_approved_answers(exported)
    assert_named_history(folder, pid)
    print(f"\nthe team's loop in the browser: {time.monotonic() - started:.1f} s")


def the_loop(lead: CaseApp, reviewer: CaseApp, expert: CaseApp, tmp_path: Path) -> Path:
    """The browser part (module docstring); the export's path."""
    for app, name, role in ((lead, "ana", "lead"), (reviewer, "cy", "reviewer"), (expert, "bo", "expert")):
        load(app)
        sign_in(app, name)
        app.expect_text(f"Signed in as {name} ({role})")

    # ---- ana assigns three rows to bo, and accepts a fourth herself
    lead.go("Review")
    for qid in TO_BO:
        assign_to(lead, qid, "bo")
    lead.expect_text("Held by bo")
    lead.shot("assigned")
    open_question(lead, ANA_ACCEPTS)
    lead.settle()
    lead.button("Accept").click()
    lead.expect_text(f"{ANA_ACCEPTS} accepted")
    lead.settle()
    assert_no_traceback(lead)

    # ---- ana makes and downloads bo's packet; bo fills it in, offline
    lead.go("Export")
    lead.expect_text("Expert packets")
    box = lead.page.locator('[data-testid="stSelectbox"]').filter(has_text="Packet for")
    assert box.get_by_role("combobox").input_value() == "bo"
    lead.button("Make packet").click()
    lead.expect_text("3 rows of bo, made just now.")
    lead.shot("packet")
    with lead.page.expect_download(timeout=60_000) as download:
        lead.button("Download packet").click()
    packet = tmp_path / download.value.suggested_filename
    download.value.save_as(packet)
    assert packet.name == "vendor - bo packet.xlsx"
    fill_packet(packet)

    # ---- meanwhile cy accepts one of bo's rows
    reviewer.go("Review")
    open_question(reviewer, CONFLICTED)
    reviewer.settle()
    reviewer.button("Accept").click()
    reviewer.expect_text(f"{CONFLICTED} accepted")
    reviewer.settle()
    reviewer.shot("accepted_bo_row")
    assert_no_traceback(reviewer)

    # ---- ana cannot import bo's packet: its answers would be recorded as hers, or put words in bo's name
    lead.uploader("Import a filled packet").set_input_files(str(packet))
    lead.settle()
    lead.expect_text(f"{packet.name} was not imported (nothing changed)")
    lead.expect_text("was made for bo, and ana is signed in")
    lead.shot("packet_refused")
    assert_no_traceback(lead)

    # ---- bo imports his filled packet: one conflict, resolved by taking the packet's answer
    expert.go("My questions")
    expert.uploader("Import your filled packet").set_input_files(str(packet))
    expert.settle()
    expert.expect_text(f"{packet.name}: 1 answer by bo, 1 comment, 0 left empty, 1 conflict.")
    conflict = f"Conflict {CONFLICTED}"
    expert.expect_text(conflict)
    assert "decided by cy since the packet was made" in expert.page.locator("body").inner_text()
    expert.shot("conflict")
    expert.button("Take the packet's answer").click()
    expert.settle()
    assert expert.page.get_by_text(conflict).count() == 0
    assert_no_traceback(expert)

    # ---- cy approves the rows bo decided
    for qid in BO_ANSWERS:
        open_question(reviewer, qid)
        reviewer.settle()
        reviewer.expect_text("Waiting for approval of bo's answer")
        reviewer.button("Approve").click()
        reviewer.expect_text(f"{qid} approved by cy.")
        reviewer.settle()
    reviewer.expect_text("Approved by cy")
    open_expander(reviewer, "History (")
    body = reviewer.page.locator("body").inner_text()
    for step in ("ana · drafted", "cy · accepted", "bo · edited", "cy · approved"):
        assert step in body, (step, body[-3000:])
    reviewer.shot("approved_history")
    assert_no_traceback(reviewer)

    # ---- ana exports only the approved answers
    lead.go("Review")
    lead.go("Export")
    lead.expect_text("2 of 3 accepted answers approved")
    only = lead.page.locator('[data-testid="stCheckbox"]').filter(has_text="Only approved answers")
    assert only.get_by_role("checkbox").is_checked()  # on by default for a questionnaire that requires approval
    lead.expect_text("Only the 2 approved answers are written.")
    lead.shot("export")
    with lead.page.expect_download(timeout=60_000) as download:
        lead.button("Download completed workbook").click()
    exported = tmp_path / download.value.suggested_filename
    download.value.save_as(exported)
    assert exported.name == "vendor_completed.xlsx"
    assert_no_traceback(lead)
    return exported


def assert_exported_exactly_the_approved_answers(exported: Path) -> None:
    """bo's two approved answers (choice in C, text in D); every other answer cell blank."""
    sheet = openpyxl.load_workbook(exported)["Security"]
    rows = {sheet.cell(r, 1).value: r for r in range(1, sheet.max_row + 1)}
    for qid, _ in QUESTIONS:
        cells = (sheet.cell(rows[qid], 3).value, sheet.cell(rows[qid], 4).value)
        assert cells == (BO_ANSWERS[qid] if qid in BO_ANSWERS else (None, None)), (qid, cells)


class engine_review:
    """The project's review read straight from the workspace (no caller: the engine's own view)."""

    def __init__(self, folder: Path, pid: int) -> None:
        from engine.app.workspace import Workspace

        self.ws = Workspace(folder, Settings.load(folder))
        self.pid = pid

    def __enter__(self):
        return self.ws.review(self.pid)

    def __exit__(self, *exc) -> None:
        self.ws.review_store.close()


def assert_named_history(folder: Path, pid: int) -> None:
    """Every step of every row names its person: the draft ana's, bo's decisions (the one over
    cy's, from the conflict, too), cy's acceptance and approvals, ana's own acceptance; and bo's
    comment is bo's."""
    from engine.review import team
    from engine.review.history import history

    with engine_review(folder, pid) as review:
        items = {i.question.id: i for i in review.items()}
        steps = {qid: [(h.by, h.what.split(":")[0]) for h in history(review, i.key)] for qid, i in items.items()}
        notes = {qid: [h.note for h in history(review, i.key)] for qid, i in items.items()}
        said = [(c.by, c.text) for c in team.comments(review, items[BO_COMMENT[0]].key)]
        final = {qid: (i.final, i.approval.by if i.approval else None) for qid, i in items.items()}
    assert steps == {
        "ENC-01": [("ana", "drafted"), ("bo", "edited"), ("cy", "approved decision")],
        "BCK-01": [("ana", "drafted"), ("cy", "accepted"), ("bo", "edited"), ("cy", "approved decision")],
        "INC-01": [("ana", "drafted")],
        "ACC-01": [("ana", "drafted"), ("ana", "accepted")],
    }, steps
    assert notes["ENC-01"][1] == "from bo's packet (vendor - bo packet.xlsx)", notes
    assert notes["BCK-01"][2] == "bo's packet, over cy's answer", notes  # the conflict, resolved by bo
    assert said == [("bo", BO_COMMENT[1])]
    assert final == {
        "ENC-01": (True, "cy"),
        "BCK-01": (True, "cy"),
        "INC-01": (False, None),
        "ACC-01": (False, None),
    }, final
