"""The governed answer library (#39 item 7): owners, review-by dates, pending answers, who did what.

Before, every accepted answer entered the library at once and stayed there forever, with no
owner and no date. Now: an entry's review-by date is its questionnaire's date (given, else the
workbook's own, else the import day, and the entry says which) plus the policy's months; a
reused entry past it is marked on the draft; with ``admission = "approval"`` an accepted answer
is pending and never reused (nor shown to the model) until approved; pending, stale and
conflicting entries are listed with their actions; every change is appended with who and when;
a schema-3 file (today's) is upgraded in place. Real MiniLM, real SQLite, real workbooks; the
drafting tests replace the LLM with RefusingGenerator / QuotingGenerator (stated fakes: the
tests are about which past answer is reused, not about the model's text)."""

from __future__ import annotations

import re
import sqlite3
import zipfile
from datetime import date
from pathlib import Path

import numpy as np
import pytest

from engine.app.settings import Settings
from engine.app.workspace import Workspace
from engine.cli.main import main
from engine.core.config import EngineConfig
from engine.drafting.drafter import Drafter
from engine.drafting.records import Draft
from engine.index.kb import KnowledgeBase
from engine.index.library import (
    PASSAGE_SCORE,
    AnswerLibrary,
    LibraryPolicy,
    add_months,
    reused_hit,
)
from engine.questionnaire import read_questionnaire
from engine.questionnaire.qualifiers import question_key
from storage.library_store import SCHEMA_VERSION, Change, Dated, LibraryStore, LibraryStoreError
from storage.vector_store import release
from tests.adversarial.conftest import measured
from tests.fixtures import QUESTIONS, QuotingGenerator, RefusingGenerator, topic_pages, write_pdf, write_questionnaire
from ui.review.notes import stale_line

ENC = dict(QUESTIONS)["ENC-01"]
APPROVAL = LibraryPolicy(review_months=12, admission="approval")


def dated_book(path: Path, modified: str | None, answered: dict[int, str] | None = None) -> Path:
    """A filled questionnaire whose document properties say it was last modified on
    ``modified`` (openpyxl stamps the time of saving; the core-properties part is rewritten)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_questionnaire(path, answered=answered or {4: "Yes", 5: "Yes"})
    if modified is None:
        return path
    with zipfile.ZipFile(path) as zf:
        parts = {i.filename: zf.read(i) for i in zf.infolist()}
    parts["docProps/core.xml"] = re.sub(
        rb"(<dcterms:modified[^>]*>)[^<]*", rb"\g<1>" + modified.encode() + b"T09:30:00Z", parts["docProps/core.xml"]
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in parts.items():
            zf.writestr(name, data)
    return path


@pytest.fixture()
def kb(tmp_path: Path, encoder):
    docs = tmp_path / "docs"
    docs.mkdir()
    write_pdf(docs / "handbook.pdf", topic_pages())
    base = KnowledgeBase(tmp_path / "kb", EngineConfig(), encoder)
    base.add([docs])
    yield base
    release(str(tmp_path / "kb" / "qdrant"))


def test_the_questionnaire_date_comes_from_the_option_the_workbook_or_the_import_day(tmp_path, encoder):
    library = AnswerLibrary(tmp_path / "store", encoder, LibraryPolicy(review_months=6))
    given = dated_book(tmp_path / "given" / "a.xlsx", "2023-05-02", {4: "Yes"})
    library.import_file(given, dated=date(2022, 8, 31), owner="Ana Lead", by="sam")
    (e,) = library.entries()
    assert (e.owner, e.dated, e.dated_from, e.review_by) == ("Ana Lead", "2022-08-31", Dated.GIVEN, "2023-02-28")
    library.import_file(dated_book(tmp_path / "wb" / "b.xlsx", "2023-05-02", {5: "No"}), by="sam")
    e = next(e for e in library.entries() if e.file == "b.xlsx")
    assert (e.owner, e.dated, e.dated_from, e.review_by) == ("sam", "2023-05-02", Dated.WORKBOOK, "2023-11-02")
    csv = tmp_path / "c.csv"
    csv.write_text(f"ID,Question,Answer\nACC-01,{dict(QUESTIONS)['ACC-01']},Yes\n")
    library.import_file(csv, by="sam")
    e = next(e for e in library.entries() if e.file == "c.csv")
    today = date.today()
    assert (e.dated, e.dated_from, e.review_by) == (today.isoformat(), Dated.IMPORT, add_months(today, 6).isoformat())
    assert [s.file for s in library.stale()] == ["a.xlsx", "b.xlsx"]  # most overdue first
    library.close()


def test_a_stale_reused_entry_is_marked_on_the_draft_until_renewed(tmp_path, kb, encoder):
    """RefusingGenerator (a stated fake LLM that fails if called): the answer is reused. The mark is
    the draft's ``reused_due``, which the Review screen counts in one line above its list (#50):
    the card itself shows no warning for it (ui/review/notes.py ``stale_line``)."""
    library = AnswerLibrary(tmp_path / "store", encoder)
    library.import_file(dated_book(tmp_path / "past.xlsx", None), dated=date(2024, 3, 1), by="sam")
    q = read_questionnaire(write_questionnaire(tmp_path / "new.xlsx")).questions[0]  # ENC-01
    drafter = Drafter(kb, RefusingGenerator(), library=library)
    draft = drafter.draft(q)
    assert draft.reused and draft.reused_due == "2025-03-01"
    assert not [w for w in draft.warnings if not w.quiet]  # reused, undisputed: nothing in doubt on its card
    stored = Draft.from_stored(draft.key, draft.stored())  # the mark survives the review store
    assert stored.reused_due == "2025-03-01" and stored.to_json()["reused_due"] == "2025-03-01"
    assert stale_line(1) == "1 draft reuses a library answer past its review-by date — review it in the Knowledge base"
    (stale,) = [e for e in library.stale() if e.qid == "ENC-01"]
    library.renew(stale.id, by="ana")
    assert library.entry(stale.id).review_by == add_months(date.today(), 12).isoformat()
    fresh = drafter.draft(q)
    assert fresh.reused and fresh.reused_due is None and not [w for w in fresh.warnings if not w.quiet]
    library.close()


def test_a_pending_answer_is_not_reused_until_approved_through_the_real_drafting_path(tmp_path, encoder):
    """The workspace's own review, library and drafter, with QuotingGenerator as a stated fake
    LLM (it quotes the first passage): the policy is "approval"."""
    docs = tmp_path / "docs"
    docs.mkdir()
    write_pdf(docs / "handbook.pdf", topic_pages())
    ws = Workspace(tmp_path / "ws", Settings(reviewer="Rita", library=APPROVAL))
    ws.__dict__["kb"] = KnowledgeBase(ws.folder, EngineConfig(), encoder)
    ws.__dict__["generator"] = QuotingGenerator()
    try:
        ws.kb.add([docs])
        book = write_questionnaire(tmp_path / "Customer questionnaire.xlsx")
        project, questionnaire = ws.add_questionnaire(book.name, book.read_bytes())
        key = question_key(questionnaire.questions[0])
        ws.regenerate(project.id, key)
        ws.review(project.id).edit(key, "Encrypted with AES-256; keys in an HSM.", "Yes")
        assert ws.library.entries() == []  # pending: not among the entries reused
        (pending,) = ws.library.pending()
        assert (pending.owner, pending.pending, pending.answer) == (
            "Rita",
            True,
            "Encrypted with AES-256; keys in an HSM.",
        )
        assert ws.library.match(ENC, top_k=None) == []  # neither reused nor a passage for the model
        again = ws.regenerate(project.id, key)
        assert not again.reused and ws.generator.calls == 2  # drafted again, not the pending answer
        ws.library.approve(pending.id, by="Lead Lee")
        reused = ws.regenerate(project.id, key)
        assert reused.reused and reused.answer == "Encrypted with AES-256; keys in an HSM." and ws.generator.calls == 2
        assert [(c.action, c.by) for c in ws.library.changes(pending.id)] == [
            (Change.RECORD, "Rita"),
            (Change.APPROVE, "Lead Lee"),
        ]
    finally:
        release(str(ws.folder / "qdrant"))


def test_immediate_admission_is_as_before_and_approving_twice_is_refused(tmp_path, encoder):
    library = AnswerLibrary(tmp_path / "store", encoder)  # the default: immediate
    e = library.record(ENC, "Yes", "AES-256.", "q.xlsx", "Security", 4, "ENC-01", by="Rita")
    assert not e.pending and (e.owner, e.dated_from) == ("Rita", Dated.REVIEW)
    assert reused_hit(library.match(ENC, top_k=None, min_score=PASSAGE_SCORE)).entry.id == e.id
    with pytest.raises(LibraryStoreError, match=f"library entry {e.id} is not pending; nothing to approve"):
        library.approve(e.id, by="Lead")
    with pytest.raises(LibraryStoreError, match="no library entry 999"):
        library.renew(999, by="Lead")
    with pytest.raises(ValueError, match="starts with @"):
        library.set_owner(e.id, "@infra", by="Lead")
    with pytest.raises(ValueError, match="is not a date; give it as YYYY-MM-DD"):
        library.renew(e.id, by="Lead", until="next spring")
    assert [c.action for c in library.changes(e.id)] == [Change.RECORD]  # refused actions recorded nothing
    library.close()


def test_a_pending_answer_updated_again_stays_pending_and_keeps_its_owner(tmp_path, encoder):
    library = AnswerLibrary(tmp_path / "store", encoder, APPROVAL)
    first = library.record(ENC, "Yes", "AES-256.", "q.xlsx", "Security", 4, "ENC-01", by="Rita")
    library.set_owner(first.id, "Infra team", by="Lead")
    library.approve(first.id, by="Infra team")
    assert reused_hit(library.match(ENC, top_k=None)).entry.id == first.id
    second = library.record(ENC, "No", "Not yet.", "q.xlsx", "Security", 4, "ENC-01", by="Bob")
    assert second.id == first.id and second.pending and second.owner == "Infra team"
    assert library.match(ENC, top_k=None) == []  # the changed answer waits for approval again
    library.close()


def test_conflicts_are_listed_with_pending_and_stale(tmp_path, encoder):
    library = AnswerLibrary(tmp_path / "store", encoder, APPROVAL)
    library.import_file(dated_book(tmp_path / "a" / "q.xlsx", None, {4: "Yes"}), by="sam")
    library.import_file(dated_book(tmp_path / "b" / "q.xlsx", None, {4: "No"}), dated=date(2020, 1, 1), by="sam")
    library.record(dict(QUESTIONS)["ACC-01"], "Yes", "", "new.xlsx", "Security", 7, "ACC-01", by="Rita")
    found = library.attention()
    (conflict,) = found.conflicts
    assert conflict.choices == {"Yes": 1, "No": 1} and {e.qid for e in conflict.entries} == {"ENC-01"}
    assert [e.qid for e in found.pending] == ["ACC-01"] and [e.dated for e in found.stale] == ["2020-01-01"]
    library.retire(found.stale[0].id, by="Lead")
    assert library.attention().conflicts == () and library.attention().stale == ()
    no = library.record(ENC, "No", "Not yet.", "new.xlsx", "Security", 4, "ENC-01", by="Bob")  # pending, says No
    (conflict,) = library.attention().conflicts  # against the reused Yes: its approver sees it
    assert conflict.entries[0] == no and conflict.choices == {"No": 1, "Yes": 1}
    library.close()


def test_every_change_is_appended_and_none_rewritten(tmp_path, encoder):
    library = AnswerLibrary(tmp_path / "store", encoder, APPROVAL)
    book = dated_book(tmp_path / "q.xlsx", None, {4: "Yes"})
    library.import_file(book, by="sam")
    (e,) = library.entries()
    library.set_owner(e.id, "Ana", by="Lead")
    library.renew(e.id, by="Ana", until="2030-01-31")
    library.retire(e.id, by="Ana")
    before = library.changes()
    dated_book(book, None, {4: "No"})
    library.import_file(book, by="sam")  # a re-import replaces the entry: its history stays
    after = library.changes()
    assert after[: len(before)] == before
    assert [(c.entry, c.action, c.by) for c in after] == [
        (e.id, Change.IMPORT, "sam"),
        (e.id, Change.OWNER, "Lead"),
        (e.id, Change.RENEW, "Ana"),
        (e.id, Change.RETIRE, "Ana"),
        (e.id, Change.REPLACED, "sam"),
        (e.id + 1, Change.IMPORT, "sam"),
    ]
    assert after[1].detail == "sam → Ana" and after[2].detail.startswith("review by 2030-01-31")
    assert all(c.at.endswith("+00:00") for c in after)
    library.close()


def test_a_schema_3_library_is_upgraded_in_place(tmp_path, encoder):
    """The exact schema today's version writes, with an imported and a reviewed entry."""
    path = tmp_path / "store" / "library.sqlite"
    path.parent.mkdir()
    vector = np.ones(encoder.dim, dtype="<f4").tobytes()
    with sqlite3.connect(path) as db:
        db.executescript("""
            CREATE TABLE entries (id INTEGER PRIMARY KEY, question TEXT NOT NULL, choice TEXT, answer TEXT NOT NULL,
                comment TEXT, file TEXT NOT NULL, sheet TEXT NOT NULL, row INTEGER NOT NULL, qid TEXT,
                imported TEXT NOT NULL, origin TEXT NOT NULL, retired INTEGER NOT NULL DEFAULT 0,
                embedder TEXT NOT NULL, vector BLOB NOT NULL, product TEXT, source TEXT, sha256 TEXT);
            CREATE INDEX entries_by_file ON entries(file, origin);
            PRAGMA user_version=3;""")
        for origin, qid, day in (("import", "ENC-01", "2024-01-15"), ("review", "BCK-01", "2025-06-30")):
            db.execute(
                "INSERT INTO entries (question, choice, answer, file, sheet, row, qid, imported, origin, embedder, "
                "vector, source, sha256) VALUES (?, 'Yes', '', 'q.xlsx', 'Security', 4, ?, ?, ?, 'old', ?, '/q', 'ab')",
                (dict(QUESTIONS)[qid], qid, day, origin, vector),
            )
    library = AnswerLibrary(path.parent, encoder)
    enc, bck = library.entries()
    assert (enc.owner, enc.dated, enc.dated_from, enc.review_by, enc.pending) == (
        None,
        "2024-01-15",
        Dated.IMPORT,
        "2025-01-15",
        False,
    )
    assert (bck.dated_from, bck.review_by) == (Dated.REVIEW, "2026-06-30")
    assert reused_hit(library.match(ENC, top_k=None)).entry.qid == "ENC-01"  # old vectors re-made, still reused
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 5
        assert db.execute("SELECT COUNT(*) FROM changes").fetchone()[0] == 0  # nothing invented
        assert db.execute("SELECT owner, dated, review_by FROM entries").fetchall() == [(None, None, None)] * 2
    library.set_owner(enc.id, "Ana", by="Lead")
    assert [c.by for c in library.changes()] == ["Lead"]
    library.close()
    LibraryStore(path).close()  # opening an upgraded file again changes nothing


def test_the_library_cli_lists_and_acts_with_names(tmp_path, encoder, capsys):
    """``library import`` and ``library attention`` in a child process; then the actions
    (approve, renew, a bad date, history) through the same ``main`` in this one."""
    store = tmp_path / "store"
    Settings(library=APPROVAL).save(store)
    a = dated_book(tmp_path / "a" / "q.xlsx", "2021-02-03", {4: "Yes"})
    b = dated_book(tmp_path / "b" / "q.xlsx", None, {4: "No"})
    run = measured("library", "import", str(a), str(b), "--store", str(store), "--by", "Sam", "--owner", "Infra team")
    assert run.rc == 0, run.stderr
    library = AnswerLibrary(store, encoder, APPROVAL)
    library.record(dict(QUESTIONS)["ACC-01"], "Yes", "", "new.xlsx", "Security", 7, "ACC-01", by="Rita")
    run = measured("library", "attention", "--store", str(store))
    assert run.rc == 0 and "Traceback" not in run.stderr, run.stderr
    out = run.stdout
    assert "pending approval: 1" in out and "stale (past the review-by date): 1" in out and "conflicting: 1" in out
    assert "review by 2022-02-03 (dated 2021-02-03, workbook) (stale)" in out
    assert "owner Infra team" in out and "owner Rita" in out
    pending = re.search(r"pending approval: 1.*\n  #(\d+)", out).group(1)
    stale = re.search(r"stale \(past.*\n  #(\d+)", out).group(1)
    assert main(["library", "approve", pending, "--store", str(store), "--by", "Lead Lee"]) == 0
    assert f"approved #{pending} by Lead Lee" in capsys.readouterr().out
    assert main(["library", "renew", stale, "--until", "soon", "--store", str(store), "--by", "Ana"]) == 2
    assert capsys.readouterr().err == "error: --until 'soon' is not a date; give it as YYYY-MM-DD, e.g. 2026-03-01\n"
    assert main(["library", "renew", stale, "--until", "2031-01-01", "--store", str(store), "--by", "Ana"]) == 0
    found = library.attention()
    assert (found.pending, found.stale, len(found.conflicts)) == ((), (), 1)
    capsys.readouterr()
    assert main(["library", "history", stale, "--store", str(store)]) == 0
    assert re.findall(r"(import|renew) +by (\w+)", capsys.readouterr().out) == [("import", "Sam"), ("renew", "Ana")]
    library.close()


def test_the_policy_is_a_setting_saved_and_refused_in_one_line(tmp_path):
    from engine.app.settings import SettingsError

    saved = Settings().changed(review_months=6, admission="Approval")
    saved.save(tmp_path)
    assert Settings.load(tmp_path).library == LibraryPolicy(6, "approval")
    assert Settings.load(tmp_path / "none").library == LibraryPolicy(12, "immediate")  # the default: as before
    with pytest.raises(SettingsError, match="not a number of months from 1 to 120"):
        Settings().changed(review_months=0)
    with pytest.raises(SettingsError, match="not one of: immediate, approval"):
        Settings().changed(admission="later")


def test_in_a_signed_in_session_only_the_owner_or_a_lead_approves(tmp_path, encoder):
    """engine/core/accounts.py: the app tells the engine who is calling; here the lookup is set
    to each account in turn (restored after)."""
    from engine.core.accounts import Account, NotAllowed, Role, set_caller

    library = AnswerLibrary(tmp_path / "store", encoder, APPROVAL)
    e = library.record(ENC, "Yes", "AES-256.", "q.xlsx", "Security", 4, "ENC-01", by="Rita")
    other = Account("Bob", Role.REVIEWER, "2026-01-01", "2026-01-01")
    owner = Account("rita", Role.EXPERT, "2026-01-01", "2026-01-01")
    try:
        set_caller(lambda: other)
        with pytest.raises(NotAllowed, match="Bob \\(reviewer\\) may not change the answer library"):
            library.approve(e.id, by="Bob")
        assert library.entry(e.id).pending
        set_caller(lambda: owner)
        assert not library.approve(e.id, by="rita").pending  # its owner (names compared without case)
    finally:
        set_caller(lambda: None)
    library.close()
