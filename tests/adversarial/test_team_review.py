"""The team's loop on one machine (issue #39, items 1, 2, 4, 5): every draft and decision carries
who made it; rows are assigned (by ID, a section, or Review first) to a person or a group with a
due date and a note, and each assignment, reassignment or unassignment is a new record; "My
questions" lists what waits for a person across questionnaires, with the overdue count; a comment's
@name puts the row in that person's queue; a row's history says who did what, when, and what
changed (a text diff), and "restore this version" is a new decision made on the version seen,
refused like any decision when the row changed since.

Real SQLite, real workbooks (openpyxl). The drafts come from ``TableDrafter``
(tests/unit/test_sections_drafting.py), a stated fake drafter: these tests are about the review
store and the team's records, not about generation; no model loads (no answer library: a
``Review`` without one, as ``review show`` reads)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest

from engine.app.settings import Settings
from engine.app.workspace import Workspace
from engine.core.types import Action
from engine.review import team
from engine.review.draft_run import draft_questionnaire
from engine.review.history import history, restore
from engine.review.queue import my_questions
from engine.review.review import Review, RowChanged
from storage.review_store import ReviewStore
from tests.adversarial.conftest import CLI_IMPORTS_MB, measured
from tests.fixtures import write_questionnaire
from tests.unit.test_sections_drafting import TableDrafter

BOOK = "vendor_questionnaire.xlsx"
OTHER = "second_questionnaire.xlsx"
SETTLED = ("INC-01", "ACC-01")  # drafted from five agreeing past answers: low risk, out of Review first


class MixedRiskDrafter(TableDrafter):
    """The stated fake, with two levels of risk (engine/drafting/risk.py): the rows of
    :data:`SETTLED` reuse a past answer of this product that five past answers agree on (stratum
    own:agree:4+:yes, risk about 0.03), the others are the model's choice with no probability
    (model:low:yes, risk 0.5: Review first). The texts are the fake's either way."""

    def draft(self, q, rows=None, source=None, qualifier=None):
        made = super().draft(q, rows, source, qualifier)
        return replace(made, reused=True, past_choices={"Yes": 5}) if q.id in SETTLED else made


@pytest.fixture()
def folder(tmp_path) -> Path:
    """A workspace with two 4-question workbooks (real openpyxl files), drafted for "lead" by the
    stated fake (:class:`MixedRiskDrafter`); the second has other bytes (its questions reworded),
    so it is another project."""
    folder = tmp_path / "workspace"
    ws = Workspace(folder, Settings(reviewer="lead"))
    ws.settings.save(folder)  # the commands' name when they get no --by
    for name, prefix in ((BOOK, ""), (OTHER, "Second: ")):
        book = write_questionnaire(
            tmp_path / name,
            questions=[
                ("ENC-01", prefix + "Is customer data encrypted at rest?"),
                ("BCK-01", prefix + "How long are backups kept?"),
                ("INC-01", prefix + "Are customers notified of a breach?"),
                ("ACC-01", prefix + "Do employees use MFA?"),
            ],
        )
        project, _ = ws.add_questionnaire(name, book.read_bytes())
        draft_questionnaire(ws.questionnaire(project.id), MixedRiskDrafter({}), ws.review_store, by="lead")
    ws.review_store.close()
    return folder


def review_as(folder: Path, name: str, project_id: int = 1) -> Review:
    """``name``'s view of a questionnaire: a Review on its own connection (another person's app)."""
    store = ReviewStore(folder / "review.sqlite")
    return Review(store, project_id, Workspace(folder, Settings()).questionnaire(project_id), by=name)


def by_id(review: Review, qid: str):
    return next(i for i in review.items() if i.question.id == qid)


def test_rows_assigned_to_a_person_and_a_group_fill_their_queues_and_leave_when_settled(folder):
    lead = review_as(folder, "lead")
    items = lead.items()
    picked = team.targets(lead, items, rows=["ENC-01", "Security!B5"])  # by ID and by key
    team.assign(lead, picked, "Ana", due="2020-01-31", note="infra questions")
    team.assign(lead, team.targets(lead, items, section="security"), "infra", note="whole sheet")  # a sheet
    team.assign(lead, team.targets(lead, items, rows=["ENC-01"]), "ana", due=" 2999-01-01 ")  # reassigned
    other = review_as(folder, "lead", 2)
    team.assign(other, team.targets(other, other.items(), rows=["ACC-01"]), "ana")  # another questionnaire

    held = {i.question.id: i.holder for i in lead.items()}
    assert held == {"ENC-01": "ana", "BCK-01": "infra", "INC-01": "infra", "ACC-01": "infra"}
    trail = team.assignment_history(lead, by_id(lead, "ENC-01").key)  # nothing rewritten
    assert [(a.to, a.due, a.note, a.by) for a in trail] == [
        ("Ana", "2020-01-31", "infra questions", "lead"),
        ("infra", None, "whole sheet", "lead"),
        ("ana", "2999-01-01", None, "lead"),
    ]
    queue = my_questions(lead.store, "ANA", today=date(2026, 6, 1))  # names: case ignored
    assert [(i.questionnaire, i.label, i.why, i.due) for i in queue.items] == [
        ("vendor_questionnaire", "ENC-01", "assigned", "2999-01-01"),
        ("second_questionnaire", "ACC-01", "assigned", None),
    ]
    assert queue.overdue == 0 and queue.items[1].question == "Second: Do employees use MFA?"

    team.assign(lead, team.targets(lead, items, rows=["BCK-01"]), "ana", due="2026-05-31")  # due yesterday
    assert my_questions(lead.store, "ana", today=date(2026, 6, 1)).overdue == 1
    ana = review_as(folder, "ana")
    row = by_id(ana, "BCK-01")
    ana.needs_sme(row.key, "still asking", expected=row.version)  # not settled: still hers
    assert "BCK-01" in [i.label for i in my_questions(ana.store, "ana").items]
    row = by_id(ana, "BCK-01")
    done = ana.edit(row.key, "Thirty days.", None, expected=row.version)
    assert done.by == "ana" and "BCK-01" not in [i.label for i in my_questions(ana.store, "ana").items]
    team.assign(lead, team.targets(lead, items, rows=["ENC-01"]), None, note="taken back")  # unassigned
    assert [i.label for i in my_questions(ana.store, "ana").items] == ["ACC-01"]
    assert by_id(lead, "ENC-01").holder is None
    grouped = my_questions(ana.store, "zoe", groups=["INFRA"])  # zoe answers for the infra group
    assert [i.label for i in grouped.items] == ["INC-01", "ACC-01"] and my_questions(ana.store, "zoe").items == ()


def test_review_first_and_bad_assignments_are_refused_with_nothing_written(folder):
    lead = review_as(folder, "lead")
    items = lead.items()
    first = team.targets(lead, items, review_first=True)
    assert [i.question.id for i in first] == ["ENC-01", "BCK-01"]  # the model's; not the rows of SETTLED
    assert [i.question.id for i in items] == ["ENC-01", "BCK-01", "INC-01", "ACC-01"]  # the filter left two out
    for row in first:  # decided: out of Review first
        lead.reject(row.key, "wrong", expected=row.version)
    with pytest.raises(ValueError, match="no row is in Review first now"):
        team.targets(lead, lead.items(), review_first=True)
    for kwargs, said in (
        ({"rows": ["ENC-99"]}, "no row is 'ENC-99' in vendor_questionnaire.xlsx"),
        ({"section": "Privacy"}, "no section or sheet is named 'Privacy'; name one of: Security"),
        ({"rows": ["ENC-01"], "section": "Security"}, "in one way"),
        ({}, "in one way"),
    ):
        with pytest.raises(ValueError, match=said):
            team.targets(lead, items, **kwargs)
    one = team.targets(lead, items, rows=["ENC-01"])
    for to, due, note, said in (
        ("ana", "31/01/2026", None, "the due date '31/01/2026' is not a date; give it as YYYY-MM-DD"),
        ("ana\nbob", None, None, "line break"),
        ("@ana", None, None, "starts with @"),
        ("", None, None, "the assignee is empty"),
        ("ana", None, "x" * 1001, "the note is 1001 characters long"),
    ):
        with pytest.raises(ValueError, match=said):
            team.assign(lead, one, to, due, note)
    with pytest.raises(ValueError, match="the comment is empty"):
        team.comment(lead, one[0].key, "  \n ")
    with pytest.raises(ValueError, match="no reviewer name"):
        team.comment(Review(lead.store, 1, lead.questionnaire), one[0].key, "hello")
    assert lead.store.assignments() == {} and lead.store.comments() == []


def test_a_mention_puts_the_row_in_that_persons_queue_until_they_answer(folder):
    lead = review_as(folder, "lead")
    row = by_id(lead, "INC-01")
    said = team.comment(lead, row.key, "@bob @Carla.M can one of you confirm? (cc ops@example.com)")
    assert said.by == "lead" and said.created
    assert [i.why for i in my_questions(lead.store, "bob").items] == ["mentioned"]
    assert my_questions(lead.store, "carla.m").items[0].note.startswith("@bob @Carla.M")
    assert my_questions(lead.store, "ops").items == () and my_questions(lead.store, "example.com").items == ()
    assert my_questions(lead.store, "lead").items == ()  # one's own mention of others

    bob = review_as(folder, "bob")
    team.comment(bob, row.key, "Yes, within 72 hours; @lead please accept")
    assert my_questions(bob.store, "bob").items == () and my_questions(bob.store, "carla.m").items  # answered / not
    assert [i.label for i in my_questions(bob.store, "lead").items] == ["INC-01"]
    carla = review_as(folder, "Carla.M")
    now = by_id(carla, "INC-01")
    carla.accept(now.key, "Yes, within 72 hours.", "Yes", expected=now.version)
    assert my_questions(carla.store, "carla.m").items == ()
    assert [(c.by, c.text[:3]) for c in team.comments(carla, row.key)] == [("lead", "@bo"), ("bob", "Yes")]


def test_history_says_who_changed_what_and_restore_is_a_new_decision_refused_when_stale(folder):
    lead, ana = review_as(folder, "lead"), review_as(folder, "ana")
    row = by_id(lead, "ENC-01")
    lead.edit(row.key, "Yes.\nAES-256 at rest.", "Yes", expected=row.version)
    row = by_id(ana, "ENC-01")
    ana.edit(row.key, "Yes.\nAES-256 at rest and in transit.", "Yes", expected=row.version)
    row = by_id(ana, "ENC-01")
    ana.reject(row.key, "ask infra", expected=row.version)

    steps = history(lead, row.key)
    assert [(h.ref, h.by, h.what) for h in steps] == [
        ("draft:1", "lead", "drafted"),
        ("decision:1", "lead", "edited"),
        ("decision:2", "ana", "edited"),
        ("decision:3", "ana", "rejected"),
    ]
    assert steps[1].diff == ("- Drafted for ENC-01.", "+ Yes.", "+ AES-256 at rest.")
    assert steps[2].diff == ("  Yes.", "- AES-256 at rest.", "+ AES-256 at rest and in transit.")
    assert steps[3].note == "ask infra" and not steps[3].choice_changed  # a reject shows the draft's text again
    assert steps[3].answer == "Drafted for ENC-01." and steps[3].diff[-1] == "+ Drafted for ENC-01."

    seen = by_id(lead, "ENC-01")  # lead opens the row, then ana decides again
    row = by_id(ana, "ENC-01")
    ana.needs_sme(row.key, "still open", expected=row.version)
    with pytest.raises(RowChanged) as stale:
        restore(lead, seen.key, "decision:1", expected=seen.version)
    assert stale.value.decision.by == "ana" and len(history(lead, seen.key)) == 5  # nothing written
    with pytest.raises(ValueError, match="'decision:9' is not a version of ENC-01; its versions: draft:1, decision:1"):
        restore(lead, seen.key, "decision:9", expected=stale.value.current)

    made = restore(lead, seen.key, "decision:1", expected=stale.value.current)
    assert (made.action, made.by, made.answer, made.choice) == (Action.EDIT, "lead", "Yes.\nAES-256 at rest.", "Yes")
    assert "decision:1, edited by lead" in made.note
    after = history(lead, seen.key)
    assert len(after) == 6 and after[:5] == history(lead, seen.key)[:5]  # appended: the rest is as it was
    assert by_id(lead, "ENC-01").answer == "Yes.\nAES-256 at rest." and after[-1].diff[-1] == "+ AES-256 at rest."


def test_the_review_commands_assign_list_comment_show_history_and_restore(folder):
    """``python -m engine review …`` in a child process: each writing command carries ``--by`` (or
    the settings' name), a bad value or a stale restore is one ``error:`` line and writes nothing."""
    store = ["--store", str(folder)]
    bad = measured("review", "assign", BOOK, "--rows", "ENC-01", "--to", "ana", "--due", "tomorrow", *store)
    assert bad.rc == 2 and bad.within(60, CLI_IMPORTS_MB), bad
    line = bad.error_line(BOOK)
    assert "the due date 'tomorrow' is not a date; give it as YYYY-MM-DD" in line and "nothing was assigned" in line

    done = measured(
        "review", "assign", BOOK, "--rows", "ENC-01,BCK-01", "--to", "ana", "--due", "2020-01-01",
        "--note", "yours", "--by", "lead", *store,
    )  # fmt: skip
    assert done.rc == 0, done.stderr[-2000:]
    assert "2 rows of vendor_questionnaire.xlsx assigned to ana, due 2020-01-01 by lead: ENC-01, BCK-01" in done.stdout
    said = measured("review", "comment", BOOK, "INC-01", "@ana see the 2024 audit", "--by", "lead", *store)
    assert said.rc == 0 and "comment by lead" in said.stdout and "in the queue of ana" in said.stdout, said
    mine = measured("review", "mine", "--as", "ana", *store)
    assert mine.rc == 0, mine.stderr[-2000:]
    assert mine.stdout.startswith("3 questions for ana, 2 overdue"), mine.stdout
    assert "ENC-01\tdue 2020-01-01 (overdue)\tassigned by lead: yours" in mine.stdout
    assert "INC-01\tno due date\tmentioned by lead: @ana see the 2024 audit" in mine.stdout

    ana = review_as(folder, "ana")  # ana edits in the app meanwhile (closed before the next command)
    seen = by_id(ana, "ENC-01")
    ana.edit(seen.key, "No.", "No", expected=seen.version)
    now = by_id(ana, "ENC-01").version
    ana.store.close()
    stale = measured("review", "restore", BOOK, "ENC-01", "--from", "draft:1", "--version", str(seen.version), *store)
    assert stale.rc == 2 and "the row changed since version" in stale.error_line(BOOK), stale
    back = measured("review", "restore", BOOK, "ENC-01", "--from", "draft:1", "--version", str(now), *store)
    assert back.rc == 0 and "ENC-01 (Security!B4): draft:1 restored" in back.stdout, back.stderr[-2000:]
    held = measured("review", "show", BOOK, "BCK-01", *store)
    assert held.rc == 0 and "held by: ana, due 2020-01-01 (assigned by lead at " in held.stdout, held
    trail = measured("review", "history", BOOK, "ENC-01", *store)
    assert trail.rc == 0, trail.stderr[-2000:]
    lines = trail.stdout.splitlines()
    assert lines[0].startswith("ENC-01 (Security!B4) of vendor_questionnaire.xlsx: 3 versions"), lines
    steps = [line for line in lines if not line.startswith(" ")]
    assert [s.split("\t")[0] for s in steps[1:]] == ["draft:1", "decision:1", "decision:2"], steps
    assert steps[1].endswith("\tlead\tdrafted") and steps[2].endswith("\tana\tedited"), steps
    assert "\tlead\tedited (note: restored the version of" in steps[3], steps  # the settings' name: lead
    assert "    choice: Yes → No" in lines and "    + No." in lines and lines[-1] == "    + Drafted for ENC-01.", lines
