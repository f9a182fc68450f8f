"""Approval (issue #39, item 6), optional per questionnaire: an accepted or edited row is final
once a second person approves it. An approval names the decision it approves, is made on the row
version the approver saw (a row changed since is refused, ``RowChanged``), is never the decision's
author's own, and a later decision leaves it behind. The export can be limited to approved rows.

Real SQLite, real workbooks (openpyxl), the real CLI in a child process. The drafts come from
``TableDrafter`` (tests/unit/test_sections_drafting.py), a stated fake drafter: these tests are
about the review store and the approval rule, not about generation; no model loads."""

from __future__ import annotations

import io
from pathlib import Path

import openpyxl
import pytest

from engine.app.settings import Settings
from engine.app.workspace import Workspace
from engine.core.accounts import Account, NotAllowed, Role, set_caller
from engine.review import team
from engine.review.draft_run import draft_questionnaire
from engine.review.history import history
from engine.review.review import Review, ReviewState, RowChanged
from tests.adversarial.conftest import CLI_IMPORTS_MB, measured
from tests.adversarial.test_team_review import by_id, review_as
from tests.fixtures import write_questionnaire
from tests.unit.test_sections_drafting import TableDrafter

BOOK = "vendor_questionnaire.xlsx"


@pytest.fixture()
def folder(tmp_path) -> Path:
    """A workspace with the 4-question workbook (ENC-01, BCK-01, INC-01, ACC-01 on rows 4 to 7; a
    real openpyxl file) drafted for "lead" by the stated fake."""
    folder = tmp_path / "workspace"
    ws = Workspace(folder, Settings(reviewer="lead"))
    ws.settings.save(folder)  # the commands' name when they get no --by
    project, _ = ws.add_questionnaire(BOOK, write_questionnaire(tmp_path / BOOK).read_bytes())
    draft_questionnaire(ws.questionnaire(project.id), TableDrafter({}), ws.review_store, by="lead")
    ws.review_store.close()
    return folder


def answers(sheet) -> dict[str, tuple]:
    """ID → (Answer cell, Comments cell) of the four questions."""
    return {sheet.cell(r, 1).value: (sheet.cell(r, 3).value, sheet.cell(r, 4).value) for r in range(4, 8)}


def test_a_second_person_approves_and_a_later_decision_leaves_the_approval_behind(folder):
    lead, ana, bob = review_as(folder, "lead"), review_as(folder, "ana"), review_as(folder, "bob")
    assert not lead.approval_required
    lead.require_approval(True)
    assert ana.approval_required and "read" in ana.store.options(1)  # how the file is read is kept beside it
    row = by_id(ana, "ENC-01")
    ana.accept(row.key, expected=row.version)
    row = by_id(bob, "ENC-01")
    assert row.state is ReviewState.ACCEPTED and row.approval is None and not row.final

    for own in (ana, review_as(folder, " ANA ")):  # the decision's author, whatever the case
        with pytest.raises(ValueError, match=r"^ENC-01 is not approved: ana made its latest decision \(an accept at "):
            own.approve(row.key, expected=row.version)
    drafted = by_id(bob, "BCK-01")
    with pytest.raises(
        ValueError, match="BCK-01 is not approved: nobody has decided on it; only an accepted or edited"
    ):
        bob.approve(drafted.key, expected=drafted.version)
    sent = by_id(ana, "INC-01")
    ana.needs_sme(sent.key, "ask infra", expected=sent.version)
    sent = by_id(bob, "INC-01")
    with pytest.raises(ValueError, match="INC-01 is not approved: its latest decision is Needs SME"):
        bob.approve(sent.key, expected=sent.version)
    with pytest.raises(ValueError, match="no reviewer name"):
        Review(bob.store, 1, bob.questionnaire).approve(row.key, expected=row.version)
    assert bob.store.approvals(1) == []

    seen = by_id(bob, "ENC-01")  # bob reads the answer; ana edits it before he approves
    now = by_id(ana, "ENC-01")
    ana.edit(now.key, "Yes, AES-256.", "Yes", expected=now.version)
    with pytest.raises(RowChanged) as stale:
        bob.approve(seen.key, expected=seen.version)
    assert stale.value.decision.by == "ana" and stale.value.answer == "Yes, AES-256."
    assert bob.store.approvals(1) == []  # nothing approved unseen
    made = bob.approve(seen.key, expected=stale.value.current)
    row = by_id(lead, "ENC-01")
    assert (made.by, made.decision_id) == ("bob", row.decision.id) and row.approval == made and row.final
    with pytest.raises(ValueError, match="ENC-01 is not approved: it is approved already, by bob at "):
        lead.approve(row.key, expected=row.version)
    assert row.version == stale.value.current  # an approval is not a decision: the row's version stays

    ana.edit(row.key, "Yes, AES-256 at rest.", "Yes", expected=row.version)  # a later decision
    row = by_id(lead, "ENC-01")
    assert row.approval is None and not row.final and len(lead.store.approvals(1)) == 1
    steps = history(lead, row.key)
    assert [(h.kind, h.by, h.what) for h in steps] == [
        ("draft", "lead", "drafted"),
        ("decision", "ana", "accepted"),
        ("decision", "ana", "edited"),
        ("approval", "bob", f"approved decision:{made.decision_id}"),
        ("decision", "ana", "edited"),
    ]
    assert steps[3].when == made.created and steps[3].diff == () and steps[3].answer == "Yes, AES-256."

    lead.approve(row.key, expected=row.version)  # approved again, by someone else than its author
    assert by_id(bob, "ENC-01").final
    lead.require_approval(False)  # without the step, an accepted answer is final as it is
    other = by_id(bob, "ACC-01")
    bob.accept(other.key, expected=other.version)
    assert by_id(bob, "ACC-01").final and by_id(bob, "ACC-01").approval is None


def test_an_expert_approves_only_a_row_they_hold_and_only_a_lead_switches_approval_on(folder):
    """Roles (engine/core/accounts.py) as the app's session tells them (``set_caller``)."""
    ana, eve = review_as(folder, "ana"), review_as(folder, "eve")
    row = by_id(ana, "ENC-01")
    ana.accept(row.key, expected=row.version)
    row = by_id(eve, "ENC-01")
    try:
        set_caller(lambda: Account("eve", Role.EXPERT, "", ""))
        with pytest.raises(NotAllowed, match="eve"):
            eve.approve(row.key, expected=row.version)  # not hers
        with pytest.raises(NotAllowed):
            eve.require_approval(True)
        set_caller(lambda: Account("rita", Role.REVIEWER, "", ""))
        with pytest.raises(NotAllowed):
            eve.require_approval(True)
        set_caller(lambda: None)
        team.assign(review_as(folder, "lead"), [row], "eve")
        set_caller(lambda: Account("eve", Role.EXPERT, "", ""))
        eve.approve(row.key, expected=row.version)  # hers now (an assignment leaves the version as it is)
    finally:
        set_caller(lambda: None)
    assert not eve.approval_required and [a.by for a in eve.store.approvals(1)] == ["eve"]


def test_an_export_of_approved_answers_writes_exactly_those(folder, tmp_path):
    lead, ana, bob = review_as(folder, "lead"), review_as(folder, "ana"), review_as(folder, "bob")
    lead.require_approval(True)
    for qid in ("ENC-01", "BCK-01", "INC-01"):
        row = by_id(ana, qid)
        ana.edit(row.key, f"Ana's answer to {qid}.", "No", expected=row.version)
    for qid in ("ENC-01", "INC-01"):
        row = by_id(bob, qid)
        bob.approve(row.key, expected=row.version)
    row = by_id(ana, "INC-01")
    ana.edit(row.key, "Changed after it was approved.", "Yes", expected=row.version)  # waits again

    approved = lead.export_workbook(tmp_path / "approved.xlsx", include_unreviewed=True, approved_only=True)
    assert answers(openpyxl.load_workbook(approved)["Security"]) == {
        "ENC-01": ("No", "Ana's answer to ENC-01."),
        "BCK-01": (None, None),  # accepted, not approved
        "INC-01": (None, None),  # its approval was left behind by the later edit
        "ACC-01": (None, None),  # a draft nobody reviewed: approved_only outranks include_unreviewed
    }
    downloaded = openpyxl.load_workbook(io.BytesIO(lead.workbook_bytes(approved_only=True)))["Security"]
    assert answers(downloaded) == answers(openpyxl.load_workbook(approved)["Security"])
    every = answers(openpyxl.load_workbook(lead.export_workbook(tmp_path / "all.xlsx"))["Security"])
    assert every == {
        "ENC-01": ("No", "Ana's answer to ENC-01."),
        "BCK-01": ("No", "Ana's answer to BCK-01."),
        "INC-01": ("Yes", "Changed after it was approved."),
        "ACC-01": (None, None),
    }


def test_the_approve_and_approval_commands(folder):
    """``python -m engine review approval|approve`` in a child process: a self-approval is one
    ``error:`` line and writes nothing (a stale version is refused as ``decide``'s is, by the same
    ``refusal``); ``approval`` alone says how many are approved."""
    store = ["--store", str(folder)]
    on = measured("review", "approval", BOOK, "on", *store)
    assert on.rc == 0 and on.within(60, CLI_IMPORTS_MB), on
    assert on.stdout.strip() == (
        f"{BOOK}: approval on: an accepted answer is final once a second person approves it; "
        "0 of 0 accepted answers approved"
    )
    ana = review_as(folder, "ana")  # ana accepts in the app meanwhile (closed before the next command)
    seen = by_id(ana, "ENC-01")
    ana.accept(seen.key, expected=seen.version)
    now = by_id(ana, "ENC-01").version
    ana.store.close()

    own = measured("review", "approve", BOOK, "ENC-01", "--version", str(now), "--by", "Ana", *store)
    line = own.error_line(BOOK)
    assert own.rc == 2 and "ENC-01 is not approved: ana made its latest decision" in line, own
    assert line.endswith("a second person approves it, not its author. nothing was saved"), line
    done = measured("review", "approve", BOOK, "ENC-01", "--version", str(now), "--by", "bob", *store)
    assert done.rc == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "ENC-01 (Security!B4) approved by bob (the accepted answer of ana)"
    said = measured("review", "approval", BOOK, *store)
    assert said.rc == 0 and said.stdout.strip().endswith("; 1 of 1 accepted answers approved"), said
    approvals = review_as(folder, "lead").store.approvals(1)
    assert [(a.key, a.by) for a in approvals] == [("Security!B4", "bob")]
