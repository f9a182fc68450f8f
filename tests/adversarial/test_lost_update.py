"""No lost update between two reviewers (issue #36, item 2): two browsers on one questionnaire,
B saved an edit of a row and saw "edit saved"; A's screen still showed the draft, A clicked
Accept and saw "accepted", and Review and Export carried the draft's text again: B's edit
survived only in the history.

Each reviewer here is a ``Review`` on its own ``ReviewStore`` connection to one real
``review.sqlite`` (what two processes, or the app's two sessions, see). A decision passes back
the version of the row the reviewer saw (``ReviewItem.version``); on a row that changed since
(another reviewer's decision, a new draft) it is refused with ``RowChanged``, which says who or
what changed it, when, and the answer now; nothing is written, the row keeps B's answer, and A
can decide again on the new version. The same for Regenerate (before the model drafts and when
its draft is stored), for two processes racing on one version (exactly one wins), and for
``python -m engine review decide`` in a child process (one ``error:`` line, exit 2).

The drafts come from ``TableDrafter`` (tests/unit/test_sections_drafting.py), a stated fake
drafter, and Regenerate drafts with :class:`FakeDrafter`, a stated fake too: these tests are
about the review store, not about generation. The browser case is tests/e2e/test_browser_lost_update.py.
"""

from __future__ import annotations

import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest

from engine.app.settings import Settings
from engine.app.workspace import Workspace
from engine.core.types import Action
from engine.questionnaire import Questionnaire
from engine.review.draft_run import draft_questionnaire
from engine.review.review import Review, ReviewState, RowChanged, RowVersion
from storage.review_store import ReviewStore
from tests.adversarial.conftest import CLI_IMPORTS_MB, ROOT, measured
from tests.fixtures import write_questionnaire
from tests.unit.test_sections_drafting import TableDrafter

ACTIONS = {"accept": Action.ACCEPT, "edit": Action.EDIT, "needs_sme": Action.NEEDS_SME, "reject": Action.REJECT}
B_EDIT = "No — B checked with the storage team: only the backups are encrypted."
BOOK = "vendor_questionnaire.xlsx"


class FakeDrafter(TableDrafter):
    """A stated fake drafter for Regenerate (no model): answers from a table, and runs
    ``meanwhile`` (another reviewer acting) while it "drafts"."""

    def __init__(self, meanwhile=None) -> None:
        super().__init__({})
        self.meanwhile = meanwhile

    def for_product(self, product):  # the Drafter's API, as Workspace.drafter_for calls it
        return self

    def draft(self, q, rows=None, source=None, qualifier=None):
        if self.meanwhile is not None:
            self.meanwhile()
        return super().draft(q, rows, source, qualifier)


_READ: dict[Path, Questionnaire] = {}  # each workspace's questionnaire, read once


@pytest.fixture()
def folder(tmp_path) -> Path:
    """A workspace with the 4-question workbook (a real openpyxl file) drafted by the stated fake."""
    folder = tmp_path / "workspace"
    book = write_questionnaire(tmp_path / BOOK)
    ws = Workspace(folder, Settings())
    project, _ = ws.add_questionnaire(BOOK, book.read_bytes())
    _READ[folder] = ws.questionnaire(project.id)
    draft_questionnaire(_READ[folder], TableDrafter({}), ws.review_store)
    ws.review_store.close()
    yield folder
    del _READ[folder]


def reviewer(folder: Path) -> Review:
    """A reviewer's view: a Review on its own connection to the workspace's review store."""
    return Review(ReviewStore(folder / "review.sqlite"), 1, _READ[folder])


@contextmanager
def reviewing(folder: Path) -> Iterator[Review]:
    """A reviewer's view whose connection is closed at the end: the CLI test holds none open while
    a command runs (see the note in its docstring)."""
    review = reviewer(folder)
    try:
        yield review
    finally:
        review.store.close()


def row(review: Review, qid: str = "ENC-01"):
    return next(i for i in review.items() if i.question.id == qid)


def decisions(folder: Path, key: str) -> list:
    store = ReviewStore(folder / "review.sqlite")
    try:
        return [h for h in store.history(1, key) if hasattr(h, "action")]
    finally:
        store.close()


def act(review: Review, action: str, key: str, expected: RowVersion):
    """A's click: the action on the text A's screen shows (the draft)."""
    if action == "accept":
        return review.accept(key, "Yes. Encrypted at rest (the draft).", "Yes", expected=expected)
    if action == "edit":
        return review.edit(key, "A's own wording.", "Yes", expected=expected)
    if action == "needs_sme":
        return review.needs_sme(key, "ask the DBA", expected=expected)
    return review.reject(key, "wrong", expected=expected)


# ---- two reviewers, one row ------------------------------------------------------------------------
@pytest.mark.parametrize("action", list(ACTIONS))
def test_a_decision_on_a_row_another_reviewer_edited_is_refused_with_the_edit_shown(folder, action):
    a, b = reviewer(folder), reviewer(folder)
    seen_by_a = row(a)  # A's screen shows the draft
    assert seen_by_a.state is ReviewState.DRAFTED and seen_by_a.version != RowVersion()
    b.edit(seen_by_a.key, B_EDIT, "No", expected=row(b).version)  # B saves an edit: "edit saved"

    with pytest.raises(RowChanged) as refused:
        act(a, action, seen_by_a.key, seen_by_a.version)
    exc = refused.value
    assert exc.answer == B_EDIT and exc.choice == "No"
    assert exc.by.startswith("another reviewer saved an edit at ") and exc.by.endswith(" UTC"), exc.by
    assert B_EDIT in exc.now and '"No"' in exc.now
    assert exc.expected == seen_by_a.version and exc.current == row(a).version != seen_by_a.version

    for view in (a, reviewer(folder)):  # A's own view, and a fresh process's
        now = row(view)
        assert now.state is ReviewState.EDITED and now.answer == B_EDIT and now.choice == "No"
    assert [d.action for d in decisions(folder, seen_by_a.key)] == [Action.EDIT]  # A's was never written
    assert B_EDIT in a.answers_csv()  # what Export carries

    act(a, action, seen_by_a.key, exc.current)  # A read the newer answer and decides again: stored
    assert [d.action for d in decisions(folder, seen_by_a.key)] == [Action.EDIT, ACTIONS[action]]


def test_the_refusal_names_a_new_draft_and_the_other_reviewers_action(folder):
    a, b = reviewer(folder), reviewer(folder)
    seen = row(a)
    b.reject(seen.key, "not ours to answer", expected=row(b).version)
    with pytest.raises(RowChanged) as refused:
        a.accept(seen.key, expected=seen.version)
    first = refused.value
    assert first.by.startswith("another reviewer rejected it at "), first.by

    store = ReviewStore(folder / "review.sqlite")  # a drafting run (another process) stores a new draft
    store.add_draft(1, TableDrafter({"ENC-01": "N/A"}).draft(seen.question).stored())
    store.close()
    with pytest.raises(RowChanged) as refused:
        a.accept(seen.key, expected=first.current)
    exc = refused.value
    assert exc.by.startswith("a new draft was stored (by a drafting run or Regenerate) at "), exc.by
    assert exc.choice == "N/A"  # the rejection keeps no answer: the newest draft's is the row's now
    assert len(exc.changes) == 1 and exc.changes[0].choice == "N/A"
    assert row(a).state is ReviewState.REJECTED


def test_a_version_the_row_never_had_is_refused(folder):
    a = reviewer(folder)
    with pytest.raises(RowChanged) as refused:
        a.accept(row(a).key, expected=RowVersion(999, 999))
    assert "is not one this question had" in refused.value.by
    assert decisions(folder, row(a).key) == []


# ---- Regenerate ----------------------------------------------------------------------------------
def test_regenerate_on_a_row_another_reviewer_edited_is_refused_before_drafting(folder):
    b = reviewer(folder)
    ws = Workspace(folder, Settings())
    drafter = ws.__dict__["drafter"] = FakeDrafter()  # a stated fake: no model
    seen = row(ws.review(1))
    b.edit(seen.key, B_EDIT, "No", expected=seen.version)

    with pytest.raises(RowChanged) as refused:
        ws.regenerate(1, seen.key, seen.version)
    assert refused.value.answer == B_EDIT and refused.value.by.startswith("another reviewer saved an edit")
    assert drafter.asked == []  # refused before the model drafts
    now = row(reviewer(folder))
    assert now.answer == B_EDIT and now.version == refused.value.current  # no new draft stored


def test_regenerate_is_refused_when_the_row_changes_while_it_drafts(folder):
    b = reviewer(folder)
    seen = row(b)
    drafter = FakeDrafter(meanwhile=lambda: b.edit(seen.key, B_EDIT, "No", expected=seen.version))
    ws = Workspace(folder, Settings())
    ws.__dict__["drafter"] = drafter  # a stated fake: B saves an edit while it "drafts"

    with pytest.raises(RowChanged) as refused:
        ws.regenerate(1, seen.key, seen.version)
    assert drafter.asked == ["ENC-01"]  # it drafted; its draft was not stored
    now = row(reviewer(folder))
    assert now.state is ReviewState.EDITED and now.answer == B_EDIT and now.version == refused.value.current

    drafter.meanwhile = None  # regenerate again on the version now shown: stored, B's edit stays the decision
    ws.regenerate(1, seen.key, refused.value.current)
    now = row(reviewer(folder))
    assert now.draft.answer == "Drafted for ENC-01." and now.state is ReviewState.EDITED and now.answer == B_EDIT


# ---- two processes on one version ------------------------------------------------------------------
ROUNDS = 5


RACER = """
import sys, time
from pathlib import Path
from engine.core.types import Action
from storage.review_store import ReviewStore, RowChanged
db, key, who, go = sys.argv[1:5]
store = ReviewStore(Path(db))
version = store.version(1, key)
print("ready", flush=True)
while not Path(go).exists():  # both have read the same version: decide at the same moment
    time.sleep(0.001)
try:
    store.decide(1, key, Action.EDIT, f"{who}'s answer", "Yes", expected=version)
    print("stored", flush=True)
except RowChanged as exc:
    print("refused:" + exc.answer, flush=True)
store.close()
"""


def _round(db: Path, key: str, go: Path) -> list[tuple[str, str]]:
    """Two reviewer processes (plain child processes: multiprocessing's spawn would re-run the
    test process's ``__main__``, which an AppTest leaves as ui/app.py) read the row's version,
    then decide on it together; what each got."""
    racers = {
        who: subprocess.Popen(
            [sys.executable, "-c", RACER, str(db), key, who, str(go)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for who in "AB"
    }
    try:
        for proc in racers.values():
            assert proc.stdout.readline().strip() == "ready", proc.stderr.read()
        go.touch()
        outcomes = []
        for who, proc in racers.items():
            out, err = proc.communicate(timeout=120)
            assert proc.returncode == 0, err
            what = out.strip()
            outcomes.append((who, "stored" if what == "stored" else what.removeprefix("refused:")))
        return outcomes
    finally:
        go.unlink(missing_ok=True)
        for proc in racers.values():
            if proc.poll() is None:
                proc.kill()


def test_two_processes_deciding_on_the_same_version_store_exactly_one(folder, tmp_path):
    with reviewing(folder) as view:
        key = row(view).key
    for _ in range(ROUNDS):  # in each round one was stored, and the other was shown the winner's answer
        pair = _round(folder / "review.sqlite", key, tmp_path / "go")
        kinds = sorted("stored" if what == "stored" else "refused" for _, what in pair)
        assert kinds == ["refused", "stored"], pair
        winner = next(who for who, what in pair if what == "stored")
        assert next(what for _, what in pair if what != "stored") == f"{winner}'s answer", pair
    assert len(decisions(folder, key)) == ROUNDS


# ---- the CLI, in a child process --------------------------------------------------------------------
def test_review_decide_on_a_stale_version_is_one_error_line_and_writes_nothing(folder):
    """This process holds no connection open while a command runs: storage.sqlite.inspect (a
    second store opened here) would drop its POSIX locks, and the command closing its own
    connection could then delete the -wal under it (SQLite's "how to corrupt", 2.2)."""
    with reviewing(folder) as a:
        seen = row(a)
    shown = measured("review", "show", BOOK, "ENC-01", "--store", str(folder))
    assert shown.rc == 0, shown.stderr[-2000:]
    assert f"version {seen.version}" in shown.stdout and "Drafted for ENC-01." in shown.stdout

    with reviewing(folder) as b:  # B, in the app, meanwhile
        b.edit(seen.key, B_EDIT, "No", expected=seen.version)
    for action in ("accept", "regenerate"):  # regenerate: refused before any model loads
        run = measured(
            "review", "decide", BOOK, "ENC-01", action, "--version", str(seen.version), "--store", str(folder)
        )
        assert run.rc == 2, (run.rc, run.stderr[-2000:])
        assert run.within(60, CLI_IMPORTS_MB), run  # refused before any model loads
        line = run.error_line(BOOK)
        assert "ENC-01" in line and "another reviewer saved an edit at" in line, line
        assert f'now: "No" · {B_EDIT}' in line and "nothing was saved" in line, line
        assert "python -m engine review show" in line, line
    with reviewing(folder) as view:
        now = row(view)
    assert now.answer == B_EDIT and [d.action for d in decisions(folder, seen.key)] == [Action.EDIT]

    run = measured(  # decided again on the version the refusal named: stored
        "review", "decide", BOOK, "ENC-01", "needs-sme", "--note", "ask the DBA", "--version", str(now.version),
        "--store", str(folder),
    )  # fmt: skip
    assert run.rc == 0, run.stderr[-2000:]
    assert "ENC-01 (Security!B4) sent to an SME" in run.stdout
    with reviewing(folder) as view:
        assert row(view).state is ReviewState.NEEDS_SME
