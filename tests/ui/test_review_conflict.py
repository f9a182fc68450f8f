"""The Review screen when another reviewer changed the row on screen (issue #36, item 2): the
decision is refused, nothing is written, the card says who changed it, when, and the answer now,
the reviewer's text stays in the answer box, and they take the newer answer or apply theirs.

"Another reviewer" is a second connection to the workspace's ``review.sqlite`` (another browser
session or process). The drafts come from ``TableDrafter`` and Regenerate drafts with
``FakeDrafter`` (both stated fakes, no model): these tests are about the screen."""

from __future__ import annotations

import pytest

from engine.app.workspace import REVIEW_DB
from engine.review.draft_run import draft_questionnaire
from engine.review.review import Review, ReviewState
from storage.review_store import ReviewStore
from tests.adversarial.test_lost_update import FakeDrafter
from tests.ui.conftest import add_questionnaire, button
from tests.ui.test_review import answer_box, choice_box, on_screen, stored
from tests.unit.test_sections_drafting import TableDrafter

pytestmark = pytest.mark.timeout(300)

B_EDIT = "No — B checked with the storage team."
MINE = "Yes — A's wording, typed before B saved."


def drafted(ws, tmp_path) -> int:
    pid = add_questionnaire(ws, tmp_path)
    draft_questionnaire(ws.questionnaire(pid), TableDrafter({}), ws.review_store)
    return pid


def other_reviewer(ws, pid: int) -> Review:
    return Review(ReviewStore(ws.folder / REVIEW_DB), pid, ws.questionnaire(pid))


def changed_warning(at) -> str:
    found = [w.value for w in at.warning if "changed since you opened it" in w.value]
    assert len(found) == 1, [w.value for w in at.warning]
    return found[0]


def test_accept_on_a_row_another_reviewer_edited_is_refused_and_mine_can_be_applied(
    open_screen, ui_workspace, tmp_path
):
    ws = ui_workspace
    pid = drafted(ws, tmp_path)
    at = open_screen("review")
    assert on_screen(at) == "ENC-01"
    enc = ws.review(pid).items()[0]
    other_reviewer(ws, pid).edit(enc.key, B_EDIT, "No", expected=enc.version)  # B saves an edit

    answer_box(at).set_value(MINE)
    at = button(at, "Accept").click().run()
    assert not at.exception
    text = changed_warning(at)
    assert "another reviewer saved an edit at" in text and "B checked with the storage team" in text, text
    assert "Your text is kept below" in text
    assert answer_box(at).value == MINE and choice_box(at).value == "Yes"  # A's, not lost
    now = stored(ws, pid).item(enc.key)
    assert now.state is ReviewState.EDITED and now.answer == B_EDIT  # nothing of A's written
    assert on_screen(at) == "ENC-01"

    at = button(at, "Apply mine anyway").click().run()  # a new decision on the new version
    assert not at.exception
    now = stored(ws, pid).item(enc.key)
    assert now.state is ReviewState.ACCEPTED and now.answer == MINE and now.choice == "Yes"
    assert not [w for w in at.warning if "changed since" in w.value]
    assert any("ENC-01 accepted" in t.value for t in at.toast)


def test_take_the_newer_answer_and_a_refused_regenerate(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    pid = drafted(ws, tmp_path)
    drafter = ws.__dict__["drafter"] = FakeDrafter()  # a stated fake: no model
    at = open_screen("review")
    enc = ws.review(pid).items()[0]
    b = other_reviewer(ws, pid)
    b.edit(enc.key, B_EDIT, "No", expected=enc.version)

    answer_box(at).set_value(MINE)
    at = button(at, "Save edit").click().run()
    changed_warning(at)
    at = button(at, "Take the newer answer").click().run()  # the row as it is now, my text dropped
    assert not at.exception and not [w for w in at.warning if "changed since" in w.value]
    assert answer_box(at).value == B_EDIT and choice_box(at).value == "No"
    assert stored(ws, pid).item(enc.key).answer == B_EDIT

    b.reject(enc.key, "not ours", expected=stored(ws, pid).item(enc.key).version)  # B again
    at = button(at, "Regenerate").click().run()
    text = changed_warning(at)
    assert "another reviewer rejected it at" in text, text
    assert drafter.asked == []  # refused before drafting
    assert stored(ws, pid).item(enc.key).state is ReviewState.REJECTED

    at = button(at, "Apply mine anyway").click().run()  # drafted again on the new version
    assert not at.exception and drafter.asked == ["ENC-01"]
    now = stored(ws, pid).item(enc.key)
    assert now.draft.answer == "Drafted for ENC-01." and now.state is ReviewState.REJECTED


def test_a_row_changed_under_unsaved_text_is_said_at_once_and_the_text_kept(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    pid = drafted(ws, tmp_path)
    at = open_screen("review")
    enc = ws.review(pid).items()[0]
    answer_box(at).set_value(MINE)
    other_reviewer(ws, pid).edit(enc.key, B_EDIT, "No", expected=enc.version)  # B, while A types

    at = at.run()  # any rerun of A's page (the answer committed, a click elsewhere)
    assert not at.exception
    text = changed_warning(at)
    assert "another reviewer saved an edit at" in text and "B checked with the storage team" in text, text
    assert answer_box(at).value == MINE  # not replaced by B's answer
    assert stored(ws, pid).item(enc.key).answer == B_EDIT

    at = button(at, "Save edit").click().run()  # A has seen B's answer: A's edit goes on the new version
    assert not at.exception
    now = stored(ws, pid).item(enc.key)
    assert now.state is ReviewState.EDITED and now.answer == MINE


def test_my_own_decision_on_the_last_row_is_not_taken_for_a_change(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    pid = drafted(ws, tmp_path)
    review = ws.review(pid)
    *first, last = review.items()
    for item in first:
        review.accept(item.key, expected=item.version)
    at = open_screen("review")
    assert on_screen(at) == last.question.id
    answer_box(at).set_value(MINE)
    at = button(at, "Accept").click().run()  # the last row: the card stays on it
    assert not at.exception and on_screen(at) == last.question.id
    assert not [w for w in at.warning if "changed since" in w.value]
    assert stored(ws, pid).item(last.key).answer == MINE
