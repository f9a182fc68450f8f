"""Approval (issue #39, item 6): its switch on the Questionnaire screen, the Review card's Approve
button and the Export screen's count, on a real workspace: the 4-question workbook (ENC-01,
BCK-01, INC-01, ACC-01) drafted by ``TableDrafter`` (tests/unit/test_sections_drafting.py, a stated
fake drafter: these tests are about the screens, not about generation; the app's LLM is the
conftest's stated fake and never drafts here).

The app works as "lead" (the Settings screen's name); another reviewer's decisions are made on
their own connection, and what a click did is checked in a fresh ``ReviewStore``."""

from __future__ import annotations

import pytest

from engine.review.draft_run import draft_questionnaire
from tests.ui.conftest import add_questionnaire, button, texts
from tests.ui.test_review import open_question
from tests.ui.test_review_team import fresh
from tests.unit.test_sections_drafting import TableDrafter

pytestmark = pytest.mark.timeout(300)


def test_a_second_reviewer_approves_on_the_card_and_the_export_counts_it(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    ws.apply_settings(ws.settings.changed(reviewer="lead"))
    pid = add_questionnaire(ws, tmp_path)
    draft_questionnaire(ws.questionnaire(pid), TableDrafter({}), ws.review_store, by="lead", project_id=pid)
    at = open_screen("questionnaire")
    (step,) = [t for t in at.toggle if t.label == "Require a second reviewer's approval"]
    assert step.value is False
    at = step.set_value(True).run()  # the questionnaire's option, kept in the review store
    assert not at.exception and fresh(ws, pid).approval_required
    for name, key in (("ana", "Security!B4"), ("lead", "Security!B5")):  # ENC-01 by ana, BCK-01 by lead
        review = fresh(ws, pid, name)
        review.accept(key, expected=review.item(key).version)

    at.switch_page("screens/review.py")
    at = open_question(at.run(), "Security!B4")
    assert not at.exception
    assert "Waiting for approval of ana's answer" in texts(at.main.caption)
    at = button(at, "Approve").click().run()
    assert not at.exception
    assert [(a.key, a.by) for a in fresh(ws, pid).store.approvals(pid)] == [("Security!B4", "lead")]
    assert fresh(ws, pid).item("Security!B4").final
    assert "Approved by **lead**" in texts(at.main.caption) and not [b for b in at.button if b.label == "Approve"]

    at = open_question(at, "Security!B5")  # lead's own decision: waits for someone else
    assert "Waiting for approval by a second reviewer (you made this decision)" in texts(at.main.caption)
    assert not [b for b in at.button if b.label == "Approve"]

    at.switch_page("screens/export.py")
    at = at.run()
    assert not at.exception
    assert "1 of 2 accepted answers approved" in texts(at.caption)
    (only,) = [c for c in at.checkbox if c.label == "Only approved answers"]
    assert only.value is True  # on by default where approval is required
