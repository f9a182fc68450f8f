"""The review store: one SQLite file holding every questionnaire project, its questions,
every draft and every reviewer decision, persisted as it happens.

One project per questionnaire. The uploaded file's bytes are kept in the database, so export
never depends on the upload still existing. Nothing is updated in place: drafts and decisions
are appended with timestamps and the name of who made them (``by``: the reviewer who started the
drafting run or decided; None in records kept before version 5), and a question's current state is
its latest draft plus its latest decision. So are the team's records (engine/review/team.py):
assignments (a question's holder is its latest :class:`Assignment`; reassigning or unassigning
appends another), :class:`Comment` s and :class:`Approval` s (a second person's sign-off on one
accept or edit, made on the row version they saw). So is each expert packet made
(:class:`ExportedPacket`, engine/review/packet.py): whom it was made for, its rows with the version
each had then, and the file's digest; an import believes these, never the packet file.
``PRAGMA user_version`` holds the schema version.

No lost update between two reviewers (two browsers on one app, the app and ``python -m engine
review decide``): a question's :class:`RowVersion` is the pair of the ids of its latest draft and
latest decision, which changes whenever either is added (ids only grow). A reviewer's decision
carries the version of the row they saw (``decide(..., expected=)``, as does ``add_draft`` for
Regenerate): the check and the insert are one ``BEGIN IMMEDIATE`` transaction, so two processes
or threads cannot both pass it, and a stale version raises :class:`RowChanged`, which carries
what the row holds now and what changed it (a new draft, another reviewer's decision, when);
nothing is written. Internal callers (drafting runs) pass no version and are never refused.

An existing file is checked before anything opens it for writing (``storage.sqlite.inspect``:
its bytes, SQLite's integrity check on a copy and every record read through, the schema version,
the tables): a damaged one
raises :class:`ReviewStoreDamaged`, which names the file, the problem and ``python -m engine
restore`` (``storage/snapshots.py``), and is never replaced by a new empty database.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Sequence

from engine.core.people import same
from engine.core.types import Action, DraftStatus, FileProblem, StoreDamaged
from storage.sqlite import FileIdentity, close, connect, inspect, restore_fix, transaction

# 2 added project options and drafting runs, 3 projects.product, 4 reviewer-added citations, 5 who made
# each run, draft and decision (``made_by``), assignments, comments and approvals, 6 the expert packets
# made (older files are upgraded in place)
SCHEMA_VERSION = 6

_SCHEMA = """
CREATE TABLE IF NOT EXISTS projects (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    file_name TEXT NOT NULL,
    file_sha256 TEXT NOT NULL,
    file_bytes BLOB NOT NULL,
    created TEXT NOT NULL,
    product TEXT
);
CREATE TABLE IF NOT EXISTS questions (
    project_id INTEGER NOT NULL REFERENCES projects(id),
    key TEXT NOT NULL,
    position INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (project_id, key)
);
CREATE TABLE IF NOT EXISTS drafts (
    id INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL,
    key TEXT NOT NULL,
    status TEXT NOT NULL,
    answer TEXT NOT NULL,
    choice TEXT,
    data TEXT NOT NULL,
    created TEXT NOT NULL,
    made_by TEXT
);
CREATE INDEX IF NOT EXISTS drafts_by_question ON drafts(project_id, key, id);
CREATE TABLE IF NOT EXISTS decisions (
    id INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL,
    key TEXT NOT NULL,
    action TEXT NOT NULL,
    answer TEXT,
    choice TEXT,
    note TEXT,
    created TEXT NOT NULL,
    made_by TEXT
);
CREATE INDEX IF NOT EXISTS decisions_by_question ON decisions(project_id, key, id);
CREATE TABLE IF NOT EXISTS project_options (
    project_id INTEGER PRIMARY KEY REFERENCES projects(id),
    data TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS added_citations (
    id INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL,
    key TEXT NOT NULL,
    data TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS added_citations_by_question ON added_citations(project_id, key, id);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL,
    options TEXT NOT NULL,
    started TEXT NOT NULL,
    finished TEXT,
    error TEXT,
    made_by TEXT
);
CREATE TABLE IF NOT EXISTS assignments (
    id INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL,
    key TEXT NOT NULL,
    assignee TEXT,
    due TEXT,
    note TEXT,
    made_by TEXT NOT NULL,
    created TEXT NOT NULL,
    decision_then INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS assignments_by_question ON assignments(project_id, key, id);
CREATE TABLE IF NOT EXISTS comments (
    id INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL,
    key TEXT NOT NULL,
    text TEXT NOT NULL,
    made_by TEXT NOT NULL,
    created TEXT NOT NULL,
    decision_then INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS comments_by_question ON comments(project_id, key, id);
CREATE TABLE IF NOT EXISTS approvals (
    id INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL,
    key TEXT NOT NULL,
    decision_id INTEGER NOT NULL,
    made_by TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS approvals_by_question ON approvals(project_id, key, id);
CREATE TABLE IF NOT EXISTS packets (
    id TEXT PRIMARY KEY,
    project_id INTEGER NOT NULL,
    person TEXT NOT NULL,
    rows TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    made_by TEXT,
    created TEXT NOT NULL
);
"""
_MADE_BY = ("runs", "drafts", "decisions")  # the tables version 5 gave a made_by column
_DRAFT = "key, status, answer, choice, data, created, made_by, id"  # the columns of a StoredDraft
_DECISION = "key, action, answer, choice, note, created, made_by, id"  # the columns of a Decision
_RUN = "id, project_id, options, started, finished, error, made_by"


_TABLES = ("projects",)  # in every version
_PROJECT = "id, name, file_name, file_sha256, created, product"  # the columns of a Project


class ReviewStoreError(Exception):
    """The review database cannot be used; the message says why and what to do."""


class ReviewStoreDamaged(ReviewStoreError, StoreDamaged):
    """An existing review database (or its ``-wal``) that cannot be read as a whole; nothing
    was written to it."""

    def __init__(self, path: Path, problem: str) -> None:
        fix = restore_fix(path, "review", "a new review database")
        StoreDamaged.__init__(self, path, f"the review database is damaged: {problem}; nothing was changed", fix)


@dataclass(frozen=True)
class Project:
    id: int
    name: str
    file_name: str
    file_sha256: str
    created: str
    product: str | None = None  # drafted for this product; None: company-wide (engine/core/scopes.py)


@dataclass(frozen=True)
class StoredDraft:
    key: str
    status: DraftStatus
    answer: str
    choice: str | None
    data: dict = field(default_factory=dict)  # citations, prompt_tokens, seconds… (JSON edge)
    created: str = ""
    by: str | None = None  # who drafted it: the reviewer who started the run or Regenerate (None: before version 5)
    id: int = 0  # its id in the store (0: not stored yet); a row's version names the latest (RowVersion)


@dataclass(frozen=True)
class Run:
    """One request to draft a project; ``finished`` is empty while it has not run to its end
    (an app restart resumes those)."""

    id: int
    project_id: int
    options: dict
    started: str
    finished: str | None
    error: str | None
    by: str | None = None  # who started it (None: before version 5)


@dataclass(frozen=True)
class Decision:
    key: str
    action: Action
    answer: str | None
    choice: str | None
    note: str | None
    created: str
    by: str | None = None  # the reviewer (None: before version 5)
    id: int = 0  # its id in the store


def _draft_of(row: Sequence) -> StoredDraft:
    """A StoredDraft from a row of :data:`_DRAFT`."""
    return StoredDraft(row[0], DraftStatus(row[1]), row[2], row[3], json.loads(row[4]), row[5], row[6], row[7])


def _decision_of(row: Sequence) -> Decision:
    """A Decision from a row of :data:`_DECISION`."""
    return Decision(row[0], Action(row[1]), row[2], row[3], row[4], row[5], row[6], row[7])


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@dataclass(frozen=True)
class RowVersion:
    """Which state of one question a reviewer saw: the ids of its latest draft and latest
    decision (0: none yet). Both ids only grow, so any draft or decision added for the question
    changes it. Written ``DRAFT.DECISION`` (``12.5``) where a person passes it back (``review
    show`` prints it, ``review decide --version`` takes it)."""

    draft: int = 0
    decision: int = 0

    def __str__(self) -> str:
        return f"{self.draft}.{self.decision}"

    @classmethod
    def parse(cls, text: str) -> RowVersion:
        """``12.5`` → RowVersion(12, 5); ValueError naming the value and the form otherwise."""
        draft, dot, decision = text.strip().partition(".")
        if not (dot and draft.isdigit() and decision.isdigit()):
            raise ValueError(
                f"{text!r} is not a row version; give it as `python -m engine review show` prints it "
                "(two whole numbers joined by a dot, e.g. 12.5)"
            )
        return cls(int(draft), int(decision))


def current_answer(draft, decision: Decision | None) -> tuple[str, str | None]:
    """A question's answer and choice now (its one definition: the review's rows and
    :class:`RowChanged` use it): the text and choice a reviewer saved with an accept or edit,
    else the latest draft's (``draft``: a ``StoredDraft`` or a drafting ``Draft``, or None)."""
    saved = decision is not None and decision.answer is not None
    answer = decision.answer if saved else (draft.answer if draft is not None else "")
    if saved and decision.action in (Action.ACCEPT, Action.EDIT):
        return answer, decision.choice
    return answer, draft.choice if draft is not None else None


_DONE_BY = {  # what another reviewer's decision did, as the refusal says it
    Action.ACCEPT: "another reviewer accepted it",
    Action.EDIT: "another reviewer saved an edit",
    Action.NEEDS_SME: "another reviewer marked it Needs SME",
    Action.REJECT: "another reviewer rejected it",
}


def _when(created: str) -> str:
    """``2025-05-01T09:30:00+00:00`` → ``2025-05-01 09:30:00 UTC``."""
    return created.replace("T", " ").replace("+00:00", " UTC")


def _one_line(text: str, limit: int = 200) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


class RowChanged(ReviewStoreError, FileProblem):
    """A decision (or a regenerated draft) made on a version of a question that is no longer its
    latest: another reviewer decided, or a new draft was stored (a drafting run, Regenerate), since
    the reviewer opened it. Nothing was written. It carries the row now: ``current`` (its version,
    to decide again on it), ``draft`` and ``decision`` (the latest), ``answer`` and ``choice``
    (:func:`current_answer`), and ``changes``: the drafts and decisions added since ``expected``,
    oldest first; ``by`` says who or what made the newest of them, and when."""

    def __init__(
        self,
        path: Path,
        project_id: int,
        key: str,
        expected: RowVersion,
        current: RowVersion,
        draft: StoredDraft | None,
        decision: Decision | None,
        changes: tuple[StoredDraft | Decision, ...],
    ) -> None:
        self.path, self.project_id, self.key = path, project_id, key
        self.expected, self.current, self.draft, self.decision, self.changes = (
            expected,
            current,
            draft,
            decision,
            changes,
        )
        self.answer, self.choice = current_answer(draft, decision)
        FileProblem.__init__(
            self,
            path,
            f"question {key} of project {project_id} changed since it was opened (version {expected}, now "
            f"{current}): {self.by}; now: {self.now}; nothing was saved",
            f"Read it again (`python -m engine review show`) and decide on version {current}",
        )

    @property
    def by(self) -> str:
        """Who or what changed the row last, and when (``another reviewer saved an edit at …``)."""
        if not self.changes:  # a version the row never had (typed by hand)
            return f"version {self.expected} is not one this question had"
        last = self.changes[-1]
        if isinstance(last, Decision):
            said = f"{_DONE_BY[last.action]} at {_when(last.created)}"
        else:
            said = f"a new draft was stored (by a drafting run or Regenerate) at {_when(last.created)}"
        earlier = len(self.changes) - 1
        return said + (f" (after {earlier} other change{'s' if earlier > 1 else ''})" if earlier > 0 else "")

    @property
    def now(self) -> str:
        """The row's answer now, on one line: ``"Yes" · Encrypted with AES-256…`` (no answer: ``no answer``)."""
        text = _one_line(self.answer) if self.answer else ""
        shown = " · ".join(x for x in (f'"{self.choice}"' if self.choice else "", text) if x)
        return shown or "no answer"


class ReviewStore:
    """Thread-safe (one connection, one lock): the UI's drafting thread and its screens share it."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        found = inspect(self.path, _TABLES)  # before anything may write to the file
        if found.problem:
            raise ReviewStoreDamaged(self.path, found.problem)
        if found.version not in (0, 1, 2, 3, 4, 5, SCHEMA_VERSION):
            raise ReviewStoreError(
                f"{self.path} has review schema {found.version}, this version reads {SCHEMA_VERSION}; "
                "use the version that wrote it (nothing was changed)"
            )
        self._db, version = connect(
            self.path, ReviewStoreError, "a review database ({exc}); move it away or pass another path"
        )
        self._lock = threading.RLock()
        self._opened = FileIdentity.of(self.path)  # a file replaced under it is noticed before a write
        self._upgrade(version)

    def _upgrade(self, version: int) -> None:
        """Bring a file of an older version to this one in place (a new file: its tables made), in
        one ``BEGIN IMMEDIATE`` transaction that reads the version again under the lock, so two
        processes opening one old file upgrade it once: 3 added the projects' product, 5
        ``made_by`` on runs, drafts and decisions (``None``: made before names were kept); tables
        added since are made. A file of this version is not written at all."""
        if version == SCHEMA_VERSION:
            return
        self._db.execute("BEGIN IMMEDIATE")
        try:
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version != SCHEMA_VERSION:
                for statement in self._upgrade_steps(version) + [s for s in _SCHEMA.split(";") if s.strip()]:
                    self._db.execute(statement)
                self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise

    def _upgrade_steps(self, version: int) -> list[str]:
        """The ALTER statements a file of ``version`` needs before the tables of :data:`_SCHEMA`."""
        steps = ["ALTER TABLE projects ADD COLUMN product TEXT"] if version in (1, 2) else []
        tables = {r[0] for r in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        for table in _MADE_BY if version else ():
            columns = {r[1] for r in self._db.execute(f"PRAGMA table_info({table})")} if table in tables else set()
            if table in tables and "made_by" not in columns:
                steps.append(f"ALTER TABLE {table} ADD COLUMN made_by TEXT")
        return steps

    def close(self) -> None:
        close(self._db)

    def backup_to(self, target: Path) -> None:
        """A consistent copy of the whole database at ``target`` (SQLite's online backup API:
        drafting may go on meanwhile)."""
        dest = sqlite3.connect(target)
        try:
            with self._lock:
                self._db.backup(dest)
        finally:
            dest.close()

    def _tx(self):
        return transaction(self._db, self._lock, self._opened)

    def batch(self):
        """One transaction around several writes (``with store.batch(): …``): what is read inside
        it is what the writes find, no other process or thread writes meanwhile, and on an
        exception nothing of it is kept (a :class:`RowChanged` caught inside it wrote nothing)."""
        return self._tx()

    # ---- projects --------------------------------------------------------------------------
    def project_for(self, file: Path, name: str | None = None) -> Project:
        """The project of this questionnaire file (same bytes → same project), created on first use."""
        data = Path(file).read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        with self._tx() as db:
            row = db.execute("SELECT id FROM projects WHERE file_sha256 = ?", (digest,)).fetchone()
            if row is None:
                db.execute(
                    "INSERT INTO projects (name, file_name, file_sha256, file_bytes, created) VALUES (?, ?, ?, ?, ?)",
                    (name or Path(file).stem, Path(file).name, digest, data, now()),
                )
                row = db.execute("SELECT last_insert_rowid()").fetchone()
        return self.project(row[0])

    def project(self, project_id: int) -> Project:
        with self._lock:
            row = self._db.execute(f"SELECT {_PROJECT} FROM projects WHERE id = ?", (project_id,)).fetchone()
        if row is None:
            raise ReviewStoreError(f"no project {project_id} in {self.path}; list them with projects()")
        return Project(*row)

    def projects(self) -> list[Project]:
        with self._lock:
            rows = self._db.execute(f"SELECT {_PROJECT} FROM projects ORDER BY id").fetchall()
        return [Project(*r) for r in rows]

    def set_product(self, project_id: int, product: str | None) -> Project:
        """The product the project's questionnaire is drafted for (None: company-wide)."""
        self.project(project_id)  # a clear error for an unknown project
        with self._tx() as db:
            db.execute("UPDATE projects SET product = ? WHERE id = ?", (product, project_id))
        return self.project(project_id)

    def source_bytes(self, project_id: int) -> bytes:
        """The questionnaire exactly as uploaded."""
        with self._lock:
            row = self._db.execute("SELECT file_bytes FROM projects WHERE id = ?", (project_id,)).fetchone()
        if row is None:
            raise ReviewStoreError(f"no project {project_id} in {self.path}")
        return bytes(row[0])

    def set_options(self, project_id: int, options: dict) -> None:
        """How the questionnaire is read (reader overrides), JSON-able; replaces the previous."""
        with self._tx() as db:
            db.execute(
                "INSERT OR REPLACE INTO project_options (project_id, data) VALUES (?, ?)",
                (project_id, json.dumps(options, ensure_ascii=False)),
            )

    def options(self, project_id: int) -> dict:
        with self._lock:
            row = self._db.execute("SELECT data FROM project_options WHERE project_id = ?", (project_id,)).fetchone()
        return json.loads(row[0]) if row else {}

    # ---- drafting runs ---------------------------------------------------------------------
    def start_run(self, project_id: int, options: dict, *, by: str | None = None) -> Run:
        """Record a request to draft the project, made by ``by`` (the reviewer who started it)."""
        with self._tx() as db:
            db.execute(
                "INSERT INTO runs (project_id, options, started, made_by) VALUES (?, ?, ?, ?)",
                (project_id, json.dumps(options), now(), by),
            )
            run_id = db.execute("SELECT last_insert_rowid()").fetchone()[0]
        return self.run(run_id)

    def finish_run(self, run_id: int, error: str | None = None) -> None:
        with self._tx() as db:
            db.execute("UPDATE runs SET finished = ?, error = ? WHERE id = ?", (now(), error, run_id))

    def run(self, run_id: int) -> Run:
        with self._lock:
            row = self._db.execute(f"SELECT {_RUN} FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            raise ReviewStoreError(f"no drafting run {run_id} in {self.path}")
        return Run(row[0], row[1], json.loads(row[2]), row[3], row[4], row[5], row[6])

    def runs(self, project_id: int | None = None, unfinished: bool = False) -> list[Run]:
        sql = "SELECT id FROM runs WHERE 1=1"
        args: list = []
        if project_id is not None:
            sql, args = sql + " AND project_id = ?", [project_id]
        if unfinished:
            sql += " AND finished IS NULL"
        with self._lock:
            ids = [r[0] for r in self._db.execute(sql + " ORDER BY id", args).fetchall()]
        return [self.run(i) for i in ids]

    # ---- questions -------------------------------------------------------------------------
    def set_questions(self, project_id: int, questions: Sequence[tuple[str, dict]]) -> None:
        """(key, JSON-able description) per question, in questionnaire order; idempotent."""
        with self._tx() as db:
            db.executemany(
                "INSERT OR REPLACE INTO questions (project_id, key, position, data) VALUES (?, ?, ?, ?)",
                [(project_id, key, i, json.dumps(data, ensure_ascii=False)) for i, (key, data) in enumerate(questions)],
            )

    def questions(self, project_id: int) -> list[tuple[str, dict]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT key, data FROM questions WHERE project_id = ? ORDER BY position", (project_id,)
            ).fetchall()
        return [(key, json.loads(data)) for key, data in rows]

    # ---- drafts and decisions --------------------------------------------------------------
    def add_draft(
        self, project_id: int, draft: StoredDraft, *, expected: RowVersion | None = None, by: str | None = None
    ) -> StoredDraft:
        """Append a draft made for ``by`` (who started the run, or Regenerate); with ``expected``
        (Regenerate: the version the reviewer saw), refused with :class:`RowChanged` when the
        question changed since, in the same transaction."""
        stamped = StoredDraft(draft.key, DraftStatus(draft.status), draft.answer, draft.choice, draft.data, now(), by)
        with self._tx() as db:
            if expected is not None:
                self._check(db, project_id, draft.key, expected)
            db.execute(
                "INSERT INTO drafts (project_id, key, status, answer, choice, data, created, made_by) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    project_id,
                    stamped.key,
                    stamped.status.value,
                    stamped.answer,
                    stamped.choice,
                    json.dumps(stamped.data, ensure_ascii=False),
                    stamped.created,
                    by,
                ),
            )
            made = db.execute("SELECT last_insert_rowid()").fetchone()[0]
        return replace(stamped, id=made)

    def latest_drafts(self, project_id: int) -> dict[str, StoredDraft]:
        with self._lock:
            rows = self._db.execute(
                f"SELECT {_DRAFT} FROM drafts WHERE id IN "
                "(SELECT MAX(id) FROM drafts WHERE project_id = ? GROUP BY key)",
                (project_id,),
            ).fetchall()
        return {r[0]: _draft_of(r) for r in rows}

    def decide(
        self,
        project_id: int,
        key: str,
        action: Action,
        answer: str | None = None,
        choice: str | None = None,
        note: str | None = None,
        *,
        expected: RowVersion | None = None,
        by: str | None = None,
    ) -> Decision:
        """Append a reviewer's decision, made by ``by``. ``expected``: the version of the row the
        reviewer saw; checked and inserted in one ``BEGIN IMMEDIATE`` transaction, so of two
        reviewers deciding on the same version only the first is stored and the second gets
        :class:`RowChanged` (None: no check, for internal callers only)."""
        decision = Decision(key, Action(action), answer, choice, note, now(), by)
        with self._tx() as db:
            if expected is not None:
                self._check(db, project_id, key, expected)
            db.execute(
                "INSERT INTO decisions (project_id, key, action, answer, choice, note, created, made_by) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (project_id, key, decision.action.value, answer, choice, note, decision.created, by),
            )
            made = db.execute("SELECT last_insert_rowid()").fetchone()[0]
        return replace(decision, id=made)

    def latest_decisions(self, project_id: int) -> dict[str, Decision]:
        with self._lock:
            rows = self._db.execute(
                f"SELECT {_DECISION} FROM decisions WHERE id IN "
                "(SELECT MAX(id) FROM decisions WHERE project_id = ? GROUP BY key)",
                (project_id,),
            ).fetchall()
        return {r[0]: _decision_of(r) for r in rows}

    # ---- row versions (no lost update) ---------------------------------------------------------
    def versions(self, project_id: int) -> dict[str, RowVersion]:
        """Every drafted or decided question's :class:`RowVersion`, by key (a question with
        neither has ``RowVersion()``). Read before its drafts and decisions by a caller showing
        both: a write in between then makes the version older than what is shown, never newer,
        and a decision on it is refused rather than let through."""
        with self._lock:
            drafts = self._db.execute(
                "SELECT key, MAX(id) FROM drafts WHERE project_id = ? GROUP BY key", (project_id,)
            ).fetchall()
            decisions = self._db.execute(
                "SELECT key, MAX(id) FROM decisions WHERE project_id = ? GROUP BY key", (project_id,)
            ).fetchall()
        found = {key: RowVersion(draft=i) for key, i in drafts}
        for key, i in decisions:
            found[key] = RowVersion(found.get(key, RowVersion()).draft, i)
        return found

    def version(self, project_id: int, key: str) -> RowVersion:
        """One question's :class:`RowVersion` now."""
        with self._lock:
            return self._version(self._db, project_id, key)

    def check(self, project_id: int, key: str, expected: RowVersion) -> None:
        """Raise :class:`RowChanged` when the question is no longer at ``expected`` (Regenerate
        checks before the model drafts, and again when the draft is stored)."""
        with self._lock:
            self._check(self._db, project_id, key, expected)

    @staticmethod
    def _version(db: sqlite3.Connection, project_id: int, key: str) -> RowVersion:
        draft = db.execute("SELECT MAX(id) FROM drafts WHERE project_id = ? AND key = ?", (project_id, key)).fetchone()
        decision = db.execute(
            "SELECT MAX(id) FROM decisions WHERE project_id = ? AND key = ?", (project_id, key)
        ).fetchone()
        return RowVersion(draft[0] or 0, decision[0] or 0)

    def _check(self, db: sqlite3.Connection, project_id: int, key: str, expected: RowVersion) -> None:
        current = self._version(db, project_id, key)
        if current == expected:
            return
        drafts = db.execute(
            f"SELECT {_DRAFT} FROM drafts WHERE project_id = ? AND key = ? AND (id > ? OR id = ?) ORDER BY id",
            (project_id, key, expected.draft, current.draft),
        ).fetchall()
        decisions = db.execute(
            f"SELECT {_DECISION} FROM decisions WHERE project_id = ? AND key = ? AND (id > ? OR id = ?) ORDER BY id",
            (project_id, key, expected.decision, current.decision),
        ).fetchall()
        made = {r[7]: _draft_of(r) for r in drafts}
        decided = {r[7]: _decision_of(r) for r in decisions}
        since = [(d.created, 0, i, d) for i, d in made.items() if i > expected.draft]
        since += [(d.created, 1, i, d) for i, d in decided.items() if i > expected.decision]
        raise RowChanged(
            self.path,
            project_id,
            key,
            expected,
            current,
            made.get(current.draft),
            decided.get(current.decision),
            tuple(item for *_, item in sorted(since, key=lambda t: t[:3])),
        )

    def add_citation(self, project_id: int, key: str, data: dict) -> str:
        """A citation the reviewer added to a question (JSON-able, e.g. an excerpt found by
        asking a document); appended with its timestamp, which is returned."""
        created = now()
        with self._tx() as db:
            db.execute(
                "INSERT INTO added_citations (project_id, key, data, created) VALUES (?, ?, ?, ?)",
                (project_id, key, json.dumps(data, ensure_ascii=False), created),
            )
        return created

    def added_citations(self, project_id: int) -> dict[str, list[dict]]:
        """The citations reviewers added, per question key, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT key, data FROM added_citations WHERE project_id = ? ORDER BY id", (project_id,)
            ).fetchall()
        out: dict[str, list[dict]] = {}
        for key, data in rows:
            out.setdefault(key, []).append(json.loads(data))
        return out

    def history(self, project_id: int, key: str) -> list[StoredDraft | Decision]:
        """Every draft and decision of one question, oldest first."""
        with self._lock:
            drafts = self._db.execute(
                f"SELECT {_DRAFT} FROM drafts WHERE project_id = ? AND key = ?", (project_id, key)
            ).fetchall()
            decisions = self._db.execute(
                f"SELECT {_DECISION} FROM decisions WHERE project_id = ? AND key = ?", (project_id, key)
            ).fetchall()
        items = [(r[5], 0, r[7], _draft_of(r)) for r in drafts]
        items += [(r[5], 1, r[7], _decision_of(r)) for r in decisions]
        return [item for *_, item in sorted(items, key=lambda t: t[:3])]

    # ---- assignments and comments (appended, never rewritten) ----------------------------------
    def assign(
        self,
        project_id: int,
        keys: Sequence[str],
        to: str | None,
        *,
        by: str,
        due: str | None = None,
        note: str | None = None,
    ) -> list[Assignment]:
        """Give each question of ``keys`` to ``to`` (a person or a group; None: nobody), until
        ``due`` (an ISO date), with ``note``, by ``by``: one appended record per question, in one
        transaction; a question's holder is its latest record (:meth:`assignments`)."""
        created = now()
        made = []
        with self._tx() as db:
            for key in keys:
                then = self._version(db, project_id, key).decision
                db.execute(
                    "INSERT INTO assignments (project_id, key, assignee, due, note, made_by, created, decision_then) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (project_id, key, to, due, note, by, created, then),
                )
                made.append(Assignment(project_id, key, to, due, note, by, created, then, _last_id(db)))
        return made

    def assignments(self, project_id: int | None = None) -> dict[tuple[int, str], Assignment]:
        """Every question's latest assignment record (its holder: ``to`` None when it was
        unassigned), by (project id, key); of one project, or of all (a person's queue)."""
        where, args = ("WHERE project_id = ?", (project_id,)) if project_id is not None else ("", ())
        with self._lock:
            rows = self._db.execute(
                f"SELECT {_ASSIGNMENT} FROM assignments WHERE id IN "
                f"(SELECT MAX(id) FROM assignments {where} GROUP BY project_id, key)",
                args,
            ).fetchall()
        return {(r[0], r[1]): Assignment(*r) for r in rows}

    def assignment_history(self, project_id: int, key: str) -> list[Assignment]:
        """Every assignment record of one question, oldest first."""
        with self._lock:
            rows = self._db.execute(
                f"SELECT {_ASSIGNMENT} FROM assignments WHERE project_id = ? AND key = ? ORDER BY id",
                (project_id, key),
            ).fetchall()
        return [Assignment(*r) for r in rows]

    def comment(self, project_id: int, key: str, text: str, *, by: str) -> Comment:
        """Append a comment on one question by ``by``."""
        created = now()
        with self._tx() as db:
            then = self._version(db, project_id, key).decision
            db.execute(
                "INSERT INTO comments (project_id, key, text, made_by, created, decision_then) VALUES (?, ?, ?, ?, ?, ?)",
                (project_id, key, text, by, created, then),
            )
            return Comment(project_id, key, text, by, created, then, _last_id(db))

    def comments(self, project_id: int | None = None, key: str | None = None) -> list[Comment]:
        """The comments of one question, of a project, or of all projects, oldest first."""
        sql, args = f"SELECT {_COMMENT} FROM comments WHERE 1=1", []
        if project_id is not None:
            sql, args = sql + " AND project_id = ?", args + [project_id]
        if key is not None:
            sql, args = sql + " AND key = ?", args + [key]
        with self._lock:
            rows = self._db.execute(sql + " ORDER BY id", args).fetchall()
        return [Comment(*r) for r in rows]

    def all_decisions(self) -> list[tuple[int, Decision]]:
        """Every decision of every project with its project id, oldest first (whether a person
        mentioned in a comment has answered since: engine/review/queue.py)."""
        with self._lock:
            rows = self._db.execute(f"SELECT {_DECISION}, project_id FROM decisions ORDER BY id").fetchall()
        return [(r[8], _decision_of(r)) for r in rows]

    # ---- approvals (a second person's sign-off on an accepted or edited answer) --------------------
    def approve(self, project_id: int, key: str, *, expected: RowVersion, by: str) -> Approval:
        """Record that ``by`` approves the question's latest decision, on the version of the row
        they saw: checked and inserted in one ``BEGIN IMMEDIATE`` transaction, so a row changed
        since raises :class:`RowChanged` (nothing is approved unseen). ValueError, nothing written,
        when that decision is not an accept or an edit, was made by ``by`` (names compared by
        engine/core/people.py ``same``), or is approved already. An approval names its decision,
        so a later decision leaves it behind."""
        with self._tx() as db:
            self._check(db, project_id, key, expected)
            row = db.execute(f"SELECT {_DECISION} FROM decisions WHERE id = ?", (expected.decision,)).fetchone()
            decision = _decision_of(row) if row is not None and expected.decision else None
            if decision is None or decision.action not in (Action.ACCEPT, Action.EDIT):
                state = f"its latest decision is {_DID[decision.action]}" if decision else "nobody has decided on it"
                raise ValueError(f"{state}; only an accepted or edited answer can be approved: accept or edit it first")
            if same(decision.by, by):
                raise ValueError(
                    f"{decision.by} made its latest decision ({_DID[decision.action]} at {_when(decision.created)}); "
                    "a second person approves it, not its author"
                )
            done = db.execute(
                f"SELECT {_APPROVAL} FROM approvals WHERE project_id = ? AND key = ? AND decision_id = ? ORDER BY id",
                (project_id, key, decision.id),
            ).fetchone()
            if done is not None:
                raise ValueError(f"it is approved already, by {done[3]} at {_when(done[4])}; nothing to do")
            created = now()
            db.execute(
                "INSERT INTO approvals (project_id, key, decision_id, made_by, created) VALUES (?, ?, ?, ?, ?)",
                (project_id, key, decision.id, by, created),
            )
            return Approval(project_id, key, decision.id, by, created, _last_id(db))

    def approvals(self, project_id: int, key: str | None = None) -> list[Approval]:
        """Every approval of a project (or of one question), oldest first; one counts while the
        decision it names is the question's latest (``Review.items``)."""
        sql, args = f"SELECT {_APPROVAL} FROM approvals WHERE project_id = ?", [project_id]
        if key is not None:
            sql, args = sql + " AND key = ?", args + [key]
        with self._lock:
            rows = self._db.execute(sql + " ORDER BY id", args).fetchall()
        return [Approval(*r) for r in rows]

    # ---- expert packets (engine/review/packet.py) -------------------------------------------------
    def record_packet(
        self, project_id: int, packet_id: str, person: str, rows: Sequence[PacketEntry], sha256: str, *, by: str | None
    ) -> ExportedPacket:
        """Keep what a packet made for ``person`` holds (``rows``: each with the version it had
        when the packet was made) and the digest of the file, under ``packet_id``."""
        created = now()
        data = json.dumps([[r.key, r.id, r.question, r.version.draft, r.version.decision] for r in rows])
        with self._tx() as db:
            db.execute(
                "INSERT INTO packets (id, project_id, person, rows, sha256, made_by, created) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (packet_id, project_id, person, data, sha256, by, created),
            )
        return ExportedPacket(packet_id, project_id, person, tuple(rows), sha256, by, created)

    def packet(self, packet_id: str) -> ExportedPacket | None:
        """The packet made under ``packet_id`` (None: no packet of this store has it)."""
        with self._lock:
            row = self._db.execute(
                "SELECT id, project_id, person, rows, sha256, made_by, created FROM packets WHERE id = ?", (packet_id,)
            ).fetchone()
        if row is None:
            return None
        rows = tuple(PacketEntry(k, i, q, RowVersion(d, c)) for k, i, q, d, c in json.loads(row[3]))
        return ExportedPacket(row[0], row[1], row[2], rows, row[4], row[5], row[6])


@dataclass(frozen=True)
class PacketEntry:
    """One row of an expert packet as it was made: its key, ID (label) and question text, and
    the version of the row then (what a decision from the packet rests on)."""

    key: str
    id: str
    question: str
    version: RowVersion


@dataclass(frozen=True)
class ExportedPacket:
    """An expert packet as the store recorded it when it was made: its id (also in the file), the
    questionnaire, the person it was made for, its rows, the SHA-256 of the file, who made it, when."""

    id: str
    project_id: int
    person: str
    rows: tuple[PacketEntry, ...]
    sha256: str
    by: str | None
    created: str


def _last_id(db: sqlite3.Connection) -> int:
    return db.execute("SELECT last_insert_rowid()").fetchone()[0]


@dataclass(frozen=True)
class Assignment:
    """One assignment record of a question: it was given to ``to`` (a person or a group; None:
    unassigned) by ``by`` at ``created``, until ``due`` (an ISO date, or None), with ``note``;
    ``decision_then``: the id of the question's latest decision then (0: none), so a decision made
    after it is told exactly (ids only grow; timestamps have seconds)."""

    project_id: int
    key: str
    to: str | None
    due: str | None
    note: str | None
    by: str
    created: str
    decision_then: int = 0
    id: int = 0


@dataclass(frozen=True)
class Comment:
    """A comment on a question, by ``by`` at ``created``; ``decision_then`` as for an
    :class:`Assignment` (a person it mentions has answered once a later decision is theirs)."""

    project_id: int
    key: str
    text: str
    by: str
    created: str
    decision_then: int = 0
    id: int = 0


_ASSIGNMENT = "project_id, key, assignee, due, note, made_by, created, decision_then, id"
_COMMENT = "project_id, key, text, made_by, created, decision_then, id"


@dataclass(frozen=True)
class Approval:
    """``by`` approved the decision ``decision_id`` of a question (an accept or an edit made by
    someone else) at ``created``; it counts while that decision is the question's latest."""

    project_id: int
    key: str
    decision_id: int
    by: str
    created: str
    id: int = 0


_APPROVAL = "project_id, key, decision_id, made_by, created, id"
_DID = {Action.ACCEPT: "an accept", Action.EDIT: "an edit", Action.NEEDS_SME: "Needs SME", Action.REJECT: "a reject"}
