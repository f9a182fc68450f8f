"""The Review card's team part and My questions (issue #39, items 1, 2, 4, 5) on a real workspace:
the 4-question workbook (ENC-01, BCK-01, INC-01, ACC-01) drafted by ``TableDrafter``
(tests/unit/test_sections_drafting.py, a stated fake drafter: these tests are about the screens,
not about generation; the app's LLM is the conftest's stated fake and never drafts here).

The reviewer's name comes from the Settings screen; what a click did is checked where it is
kept: a fresh ``ReviewStore`` on the workspace's database (never ``st.session_state``)."""

from __future__ import annotations

from datetime import date

import pytest

from engine.app.workspace import REVIEW_DB
from engine.core.types import Action
from engine.review.draft_run import draft_questionnaire
from engine.review.queue import my_questions
from engine.review.review import Review
from storage.review_store import ReviewStore
from tests.ui.conftest import add_questionnaire, button, texts
from tests.ui.test_review import LIST, listed, open_question
from tests.unit.test_sections_drafting import TableDrafter

pytestmark = pytest.mark.timeout(300)


@pytest.fixture()
def drafted(ui_workspace, tmp_path):
    """The workbook drafted by the stated fake for "lead", the Settings screen's name."""
    ws = ui_workspace
    ws.apply_settings(ws.settings.changed(reviewer="lead"))
    pid = add_questionnaire(ws, tmp_path)
    draft_questionnaire(ws.questionnaire(pid), TableDrafter({}), ws.review_store, by="lead", project_id=pid)
    return ws, pid


def fresh(ws, pid: int, name: str | None = None) -> Review:
    """The review as another connection to the workspace's database reads it (``name``: acting as)."""
    return Review(ReviewStore(ws.folder / REVIEW_DB), pid, ws.questionnaire(pid), by=name)


def widget(elements, label: str):
    (found,) = [e for e in elements if e.label == label]
    return found


def test_assign_comment_filter_and_my_questions(open_screen, drafted):
    ws, pid = drafted
    at = open_screen("review")
    assert not at.exception and listed(at) == ["ENC-01", "BCK-01", "INC-01", "ACC-01"]
    widget(at.text_input, "Assign to").set_value("Ana")
    widget(at.date_input, "Due date").set_value(date(2020, 1, 31))
    widget(at.text_input, "Assignment note").set_value("the DBA knows")
    at = button(at, "Assign").click().run()
    assert not at.exception
    (held,) = fresh(ws, pid).store.assignments(pid).values()
    assert (held.key, held.to, held.due, held.note, held.by) == (
        "Security!B4",
        "Ana",
        "2020-01-31",
        "the DBA knows",
        "lead",
    )
    assert "Held by **Ana** · due 2020-01-31 :red[(overdue)] · assigned by lead" in texts(at.main.caption)
    assert ":material/person: Ana" in at.sidebar.radio(key=LIST).proto.options[0]

    widget(at.selectbox, "Rows").set_value("Security")  # the whole sheet, to a group
    widget(at.text_input, "Assign to").set_value("infra")
    at = button(at, "Assign").click().run()
    holders = {k: a.to for (_, k), a in fresh(ws, pid).store.assignments(pid).items()}
    assert sorted(holders.values()) == ["infra"] * 4  # ENC-01 reassigned: a new record
    assert [a.to for a in fresh(ws, pid).store.assignment_history(pid, "Security!B4")] == ["Ana", "infra"]

    at.sidebar.radio(key=LIST).set_value("Security!B6")
    at = at.run()
    widget(at.text_area, "Comment").set_value("@bob can you confirm the 72 hours?")
    at = button(at, "Add comment").click().run()
    (said,) = fresh(ws, pid).store.comments(pid, "Security!B6")
    assert (said.by, said.text) == ("lead", "@bob can you confirm the 72 hours?")
    assert "@bob can you confirm the 72 hours?" in texts(at.main.markdown)
    queue = my_questions(fresh(ws, pid).store, "bob")
    assert [(i.label, i.why, i.by) for i in queue.items] == [("INC-01", "mentioned", "lead")]

    at = button(at, "Unassign").click().run()  # INC-01 back to nobody
    at.sidebar.multiselect(key="review_holders").set_value([""])  # the rows nobody holds
    at = at.run()
    assert listed(at) == ["INC-01"]

    at.switch_page("screens/my_questions.py")
    at = at.run()
    widget(at.text_input, "Whose questions").set_value("zoe")
    widget(at.text_input, "And the groups").set_value("infra")  # zoe answers for infra
    at = at.run()
    assert not at.exception
    assert "**3 questions** for zoe, infra" in texts(at.markdown)
    at = [b for b in at.button if b.label == "Open"][1].click().run()  # BCK-01: to the Review screen
    assert not at.exception and at.session_state["question_key"] == "Security!B5"


def test_history_shows_who_changed_what_and_restore_is_a_new_decision(open_screen, drafted):
    ws, pid = drafted
    ana = fresh(ws, pid, "ana")
    row = ana.item("Security!B4")
    ana.edit(row.key, "No.\nOnly the backups are encrypted.", "No", expected=row.version)
    at = open_question(open_screen("review"), row.key)  # decided: not the one opened first
    assert not at.exception
    shown = texts(at.main.markdown)
    assert "· ana · edited" in shown and "· lead · drafted" in shown
    assert "- Drafted for ENC-01.\n+ No.\n+ Only the backups are encrypted." in [c.value for c in at.code]
    assert "Choice: Yes → No" in texts(at.main.caption)
    restores = [b for b in at.button if b.label == "Restore this version"]
    assert [b.disabled for b in restores] == [True, False]  # newest first: the answer now, the draft

    row = ana.item(row.key)  # ana decides again while the card is open: the restore is refused
    ana.reject(row.key, "ask infra", expected=row.version)
    at = restores[1].click().run()
    assert not at.exception
    assert any("not restored — the row changed since you opened it" in e.value for e in at.error)
    assert [d.action for d in fresh(ws, pid).store.history(pid, row.key) if hasattr(d, "action")] == [
        Action.EDIT,
        Action.REJECT,
    ]
    restores = [b for b in at.button if b.label == "Restore this version"]  # drawn again on the row now
    assert [b.disabled for b in restores] == [True, False, True]  # rejected: the draft's text is the answer now
    at = restores[1].click().run()  # ana's edit
    assert not at.exception
    last = fresh(ws, pid).store.latest_decisions(pid)[row.key]
    assert (last.action, last.by, last.choice) == (Action.EDIT, "lead", "No")
    assert last.answer == "No.\nOnly the backups are encrypted."
    assert at.text_area(key=next(t.key for t in at.text_area if t.label == "Answer")).value == last.answer
    assert last.note.startswith("restored the version of") and len(fresh(ws, pid).store.history(pid, row.key)) == 4


def test_the_settings_screen_sets_the_reviewers_name(open_screen, ui_workspace):
    at = open_screen("settings")
    widget(at.text_input, "Your name").set_value("Carla M")
    at = button(at, "Save settings").click().run()
    assert not at.exception and ui_workspace.reviewer == "Carla M"
    assert "Working as: **Carla M**" in texts(at.caption)
    widget(at.text_input, "Your name").set_value("@carla")
    at = button(at, "Save settings").click().run()
    assert any("starts with @" in e.value for e in at.error) and ui_workspace.reviewer == "Carla M"
