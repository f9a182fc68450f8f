"""The expert's packet: the rows a person holds, as a workbook they fill in without the app, and
its import back (issue #39, item 3). A packet is a request, checked against the review store,
never a record of fact (issue #47).

**Export** (:func:`packet_bytes`): one sheet, a row per question held by the person (or the rows
given): ID, question, the current draft (choice and text), the allowed values, the sources with
their pages, and three columns for the expert — their choice (a dropdown of the allowed values),
their answer, their comment. The review store records the packet as it is made
(``ReviewStore.record_packet``): a random id, the person it is made for, its rows with the version
(``RowVersion``) each had then, and the SHA-256 of the file. A hidden sheet holds the id, and says
what the packet was made from (the person, the questionnaire, each row's key, ID, question and
version) for whoever reads it; the import reads only the id there.

**Import** (:func:`read_packet`, then :func:`apply_packet`), all or nothing: the file is checked
whole before anything is written — an .xlsx of at most ``PACKET_LIMIT`` bytes, through the same
workbook limits as every other workbook (engine/core/limits.py, before openpyxl unpacks anything),
a packet of this app whose id the store recorded for this questionnaire, and each filled row,
matched by its ID and question text against the rows the store recorded (never by position: an
expert may sort or filter the sheet), for a formula, a choice outside the allowed values, a
comment over the comment limit, a row the packet never held or whose question was edited. Then, in
one transaction of the review store: the answers are the decisions of the **importer** — the
signed-in account in the app (who must be the person the packet was made for), else (the command
line) the person the store recorded for it, never a name in the workbook — and every filled row
must be assigned to that person now. Any problem: :class:`PacketRefused` with one line per problem
(the row and the fix), and nothing changes.

Each filled row then becomes a decision (accept when it is the draft as it stood, else an edit;
the comment a comment) resting on the version the store recorded for the row when the packet was
made. A row decided (or drafted again) since is a :class:`Conflict`, never overwritten:
:func:`resolve` takes the packet's answer (a new decision by the importer on the row as it is now)
or keeps the current one.
"""

from __future__ import annotations

import hashlib
import io
import secrets
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Sequence

from openpyxl import Workbook, load_workbook
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.worksheet.datavalidation import DataValidation

from engine.core.accounts import Permission, acting_account, require
from engine.core.limits import Limits
from engine.core.location import PROMPT
from engine.core.ooxml import is_ole
from engine.core.people import same
from engine.core.types import FileProblem, IngestError
from engine.core.workbook_text import append_text, set_text
from engine.ingest.sheet import cell_text
from engine.questionnaire.records import CHOICE_SEPARATOR
from engine.review.review import Review, ReviewItem
from engine.review.team import comment, comment_body
from engine.review.team import comments as comments_of
from storage.review_store import Decision, ExportedPacket, PacketEntry, ReviewStore, RowChanged, RowVersion

PACKET_LIMIT = 10 * 1024 * 1024  # bytes: a packet of 800 rows is well under 1 MB
KIND = "rfp-review expert packet"
SHEET, META, LISTS = "Packet", "_packet", "_lists"
COLUMNS = (
    ("ID", 12),
    ("Question", 60),
    ("Draft choice", 14),
    ("Draft answer", 60),
    ("Allowed values", 22),
    ("Sources", 40),
    ("Your choice", 16),
    ("Your answer", 60),
    ("Your comment", 40),
)
YOUR_CHOICE, YOUR_ANSWER, YOUR_COMMENT = 7, 8, 9  # 1-based columns of the expert's cells
META_ROWS = 6  # kind, packet, person, file, sha256, made: then the rows it was made from (informative only)
_ID_LIMIT = 64  # characters of a packet id (32 hex digits are made)
_FIX = "export a new packet from the app (Export → Expert packets) and fill that one in"


class PacketRefused(FileProblem):
    """A packet that cannot be imported; ``problems``: one line each (the row, the problem, the
    fix). Nothing was written."""

    def __init__(self, path: Path | str, problems: Sequence[str], fix: str = _FIX) -> None:
        self.problems = tuple(problems)
        first = (
            self.problems[0]
            if len(self.problems) == 1
            else f"{len(self.problems)} problems: " + "; ".join(self.problems)
        )
        super().__init__(Path(path), f"{first}; nothing was imported", fix)


@dataclass(frozen=True)
class PacketRow:
    """One filled-in or empty row of a packet: the row it is as the store recorded it (key, ID,
    question, and the version of the row when the packet was made), its line in the sheet, and
    what the expert filled in (None: left empty)."""

    key: str
    id: str
    question: str
    version: RowVersion
    choice: str | None = None
    answer: str | None = None
    comment: str | None = None
    line: int = 0

    @property
    def filled(self) -> bool:
        return bool(self.choice or self.answer or self.comment)


@dataclass(frozen=True)
class Packet:
    """A packet read back: the store's record of it (whom it was made for, its rows) and its rows
    as filled in."""

    path: Path
    made: ExportedPacket
    rows: tuple[PacketRow, ...]

    @property
    def person(self) -> str:
        """The person it was made for (as the store recorded it)."""
        return self.made.person


@dataclass(frozen=True)
class Conflict:
    """A packet's answer for a row that changed since the packet was made: both sides."""

    row: PacketRow
    current: RowVersion
    now_answer: str
    now_choice: str | None
    changed_by: str  # what changed it, and when (RowChanged.by)
    who: str | None = None  # the person whose decision it now holds (None: a new draft, or no name)
    person: str = ""  # the importer, whose decision the packet's answer becomes


@dataclass(frozen=True)
class Imported:
    """What an import did: whose decisions they are, the decisions made, the comments added, the
    conflicts left for the importer, and the rows left empty."""

    person: str
    decided: tuple[Decision, ...]
    comments: int
    conflicts: tuple[Conflict, ...]
    empty: int


def held_by(review: Review, person: str, items: Sequence[ReviewItem] | None = None) -> list[ReviewItem]:
    """The rows ``person`` holds (assigned to them, by name: engine/core/people.py ``same``)."""
    return [i for i in (review.items() if items is None else items) if same(i.holder, person)]


def _sources(item: ReviewItem) -> str:
    """The sources of the current draft, one per line: "file p. 3"."""
    seen: dict[str, None] = {}
    for c in item.citations:
        seen.setdefault(c.location.label(PROMPT), None)
    return "\n".join(seen)


# ---- export ----------------------------------------------------------------------------------------
def packet_bytes(review: Review, person: str, keys: Sequence[str] | None = None) -> bytes:
    """The packet of ``person``: the rows they hold, or ``keys`` when given (in questionnaire
    order), recorded in the review store as it is made (module docstring). ValueError when there
    is no row to put in it."""
    require(Permission.EXPORT)
    items = review.items()
    rows = [i for i in items if i.key in set(keys)] if keys is not None else held_by(review, person, items)
    if not rows:
        raise ValueError(f"{person} holds no row of {review.questionnaire.path.name}; assign rows to them first")
    packet_id = secrets.token_hex(16)
    data = _workbook(review, person, rows, packet_id)
    entries = [PacketEntry(i.key, i.label, i.question.text, i.version) for i in rows]
    digest = hashlib.sha256(data).hexdigest()
    review.store.record_packet(review.project_id, packet_id, person, entries, digest, by=review.by)
    return data


def _workbook(review: Review, person: str, rows: Sequence[ReviewItem], packet_id: str) -> bytes:
    project = review.store.project(review.project_id)
    wb = Workbook()
    ws = wb.active
    ws.title = SHEET
    append_text(ws, [name for name, _ in COLUMNS])
    for col, (_, width) in enumerate(COLUMNS, start=1):
        ws.cell(1, col).font = Font(bold=True)
        ws.column_dimensions[ws.cell(1, col).column_letter].width = width
    lists = wb.create_sheet(LISTS)
    meta = wb.create_sheet(META)
    made = datetime.now(timezone.utc).isoformat(timespec="seconds")
    for label, value in (
        ("kind", KIND),
        ("packet", packet_id),
        ("person", person),
        ("file", project.file_name),
        ("sha256", project.file_sha256),
        ("made", made),
    ):
        append_text(meta, [label, value])
    append_text(meta, ["key", "id", "question", "version (as made: the app keeps its own record)"])
    yours = PatternFill("solid", fgColor="FFF2CC")
    for n, item in enumerate(rows, start=2):
        q = item.question
        append_text(  # text, never a formula: a question or an answer may start with "="
            ws,
            [
                item.label,
                q.text,
                item.choice or "",
                item.answer,
                ", ".join(q.choices),
                _sources(item),
                None,
                None,
                None,
            ],
        )
        for col in (YOUR_CHOICE, YOUR_ANSWER, YOUR_COMMENT):
            ws.cell(n, col).fill = yours
        for col in range(1, len(COLUMNS) + 1):
            ws.cell(n, col).alignment = Alignment(wrap_text=True, vertical="top")
        if q.choices:
            _dropdown(ws, lists, n, q.choices, q.several)
        append_text(meta, [item.key, item.label, q.text, str(item.version)])
    ws.freeze_panes = "C2"
    lists.sheet_state = meta.sheet_state = "hidden"
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def _dropdown(ws, lists, n: int, choices: Sequence[str], several: bool = False) -> None:
    """Row ``n``'s "Your choice" cell: a list of ``choices``, kept in column ``n`` of ``lists``; for a
    choice of several the list is offered, not enforced (options joined by "; " are typed; the import
    checks each: ``Question.takes``)."""
    column = lists.cell(1, n).column_letter
    for r, choice in enumerate(choices, start=1):
        set_text(lists.cell(r, n), choice)
    rule = DataValidation(
        type="list",
        formula1=f"'{LISTS}'!${column}$1:${column}${len(choices)}",
        allow_blank=True,
        showErrorMessage=not several,
        errorTitle="Not an allowed value",
        error="Pick one of the allowed values",
        showInputMessage=several,
        promptTitle="Several allowed" if several else None,
        prompt=f"Pick one, or type several joined by '{CHOICE_SEPARATOR}'" if several else None,
    )
    ws.add_data_validation(rule)
    rule.add(ws.cell(n, YOUR_CHOICE))


# ---- import: the file ----------------------------------------------------------------------------
@dataclass(frozen=True)
class _Line:
    """One non-empty line of the packet sheet: its number, its cells' values, and the cell
    (A1 reference) of the expert's columns that holds a formula, if any."""

    number: int
    values: tuple
    formula: str | None


def _opened(path: Path, limits: Limits | None) -> tuple[dict[str, str], list[_Line]]:
    """The hidden sheet's labelled values and the packet sheet's non-empty lines of the file at
    ``path``, read within the workbook limits; PacketRefused (one line) otherwise."""
    if path.suffix.lower() != ".xlsx":
        raise PacketRefused(
            path, [f"is not an .xlsx workbook (a packet is the .xlsx the app made, not {path.suffix!r})"]
        )
    try:
        size = path.stat().st_size
        ole = is_ole(path)
    except OSError as exc:
        raise PacketRefused(path, [f"cannot be read ({exc.strerror or exc})"]) from None
    if size > PACKET_LIMIT:
        raise PacketRefused(path, [f"is {size / 1e6:.0f} MB; a packet is at most {PACKET_LIMIT / 1e6:.0f} MB"])
    if ole:
        raise PacketRefused(path, ["is password-protected (encrypted) or an old .xls file; save it as .xlsx"])
    try:
        (limits or Limits.from_env()).check_workbook(path, path.name)  # before openpyxl unpacks anything
    except IngestError as exc:  # LimitError, UnreadableFile (a damaged or crafted package)
        raise PacketRefused(path, [exc.problem], exc.fix) from None
    try:
        # formulas as written (data_only=False): a formula in an answer is refused, never evaluated
        wb = load_workbook(path, read_only=True, data_only=False)
        try:
            if META not in wb.sheetnames or SHEET not in wb.sheetnames:
                raise PacketRefused(path, ["is not an expert packet of this app (its hidden packet sheet is missing)"])
            meta = {}
            for values in wb[META].iter_rows(min_row=1, max_row=META_ROWS, max_col=2, values_only=True):
                if len(values) == 2 and values[0] is not None:
                    meta[cell_text(values[0])] = cell_text(values[1])
            lines = list(_lines(wb[SHEET]))
        finally:
            wb.close()
    except PacketRefused:
        raise
    except Exception as exc:  # BadZipFile, KeyError, XML errors, bad cell values…: whatever openpyxl raises
        raise PacketRefused(
            path,
            [f"is not a readable .xlsx workbook ({type(exc).__name__})"],
            "open it in Excel, save it as .xlsx and import it again, or " + _FIX,
        ) from None
    return meta, lines


def _lines(sheet):
    """The packet sheet's non-empty lines below its header (read-only: streamed)."""
    for number, cells in enumerate(sheet.iter_rows(min_row=2, max_col=len(COLUMNS)), start=2):
        values = tuple(c.value for c in cells) + (None,) * (len(COLUMNS) - len(cells))
        if all(v is None or cell_text(v) == "" for v in values):
            continue
        yours = [cells[c - 1] for c in (YOUR_CHOICE, YOUR_ANSWER, YOUR_COMMENT) if c <= len(cells)]
        formula = next(
            (c for c in yours if getattr(c, "data_type", None) == "f" or str(c.value or "").startswith("=")), None
        )
        where = f"{'GHI'[yours.index(formula)]}{number}" if formula is not None else None
        yield _Line(number, values, where)


def _record(path: Path, meta: dict[str, str], store: ReviewStore) -> ExportedPacket:
    """The store's record of the packet the hidden sheet names; PacketRefused otherwise."""
    if meta.get("kind") != KIND:
        raise PacketRefused(path, ["is not an expert packet of this app"])
    packet_id = meta.get("packet", "")
    if not packet_id:
        raise PacketRefused(path, ["was made by an earlier version of the app, which kept no record of it"])
    made = store.packet(packet_id) if len(packet_id) <= _ID_LIMIT else None
    if made is None:
        raise PacketRefused(path, ["is not a packet this workspace made (no packet made here has its id)"])
    return made


def packet_project(path: Path | str, store: ReviewStore, limits: Limits | None = None) -> int:
    """The project (questionnaire) the packet at ``path`` was made from, as the store recorded
    it; PacketRefused when it is no packet this store made (My questions imports a packet of any
    questionnaire)."""
    path = Path(path)
    meta, _ = _opened(path, limits)
    return _record(path, meta, store).project_id


def check_packet_file(path: Path | str, limits: Limits | None = None) -> None:
    """The packet's workbook opened and read as :func:`read_packet` reads it, keeping nothing: what
    the served app runs in a child process first (engine/app/read_apart.py); PacketRefused otherwise."""
    _opened(Path(path), limits)


def read_packet(path: Path | str, review: Review, limits: Limits | None = None) -> Packet:
    """The packet at ``path``, checked against the store's record of it and ``review`` (module
    docstring); PacketRefused with one line per problem otherwise. ``limits``: the workbook limits
    (default: the ``RFP_MAX_*`` environment variables, else the defaults)."""
    path = Path(path)
    meta, lines = _opened(path, limits)
    made = _record(path, meta, review.store)
    if made.project_id != review.project_id:
        other = review.store.project(made.project_id).file_name
        name = review.store.project(review.project_id).file_name
        raise PacketRefused(path, [f"is the packet of another questionnaire ({other}), not of {name}"])
    entries = {e.id: e for e in made.rows}
    items = {i.key: i for i in review.items()}
    problems, rows, seen = [], [], set()
    for line in lines:
        row = _row(line, entries, items, seen, problems)
        if row is not None:
            rows.append(row)
    if problems:
        raise PacketRefused(path, problems)
    held = {r.key for r in rows}
    rows += [PacketRow(e.key, e.id, e.question, e.version) for e in made.rows if e.key not in held]  # deleted: empty
    return Packet(path, made, tuple(rows))


def _row(
    line: _Line, entries: dict[str, PacketEntry], items: dict[str, ReviewItem], seen: set[str], problems: list[str]
) -> PacketRow | None:
    """The line as a row of the packet, or None with its problem added to ``problems``."""
    qid = cell_text(line.values[0]) or None
    where = f"row {line.number}" + (f" ({qid})" if qid else "")
    entry = entries.get(qid or "")
    said = _line_problem(line, entry, items, seen)
    if said is not None:
        problems.append(f"{where}: {said}")
        return None
    seen.add(entry.id)
    choice, answer, note = (cell_text(line.values[c - 1]) or None for c in (YOUR_CHOICE, YOUR_ANSWER, YOUR_COMMENT))
    allowed = items[entry.key].question.choices
    if choice is not None and allowed and not items[entry.key].question.takes(choice):
        problems.append(f"{where}: {choice!r} is not one of the allowed values ({', '.join(allowed)}); pick one")
        return None
    if note is not None:
        try:
            comment_body(note)
        except ValueError as exc:
            problems.append(f"{where}: {exc}")
            return None
    return PacketRow(entry.key, entry.id, entry.question, entry.version, choice, answer, note, line.number)


def _line_problem(line: _Line, entry: PacketEntry | None, items: dict[str, ReviewItem], seen: set[str]) -> str | None:
    """What makes the line no row of the packet (the problem and the fix), or None."""
    if entry is None:
        return "this ID was not in the packet when it was made; delete the row"
    if " ".join(cell_text(line.values[1]).split()) != " ".join(entry.question.split()):
        return "its question was changed; put it back as it was (rows are matched by ID and question)"
    if entry.key not in items:
        return "the questionnaire has no such question any more; delete the row"
    if entry.id in seen:
        return "the row is in the packet twice; delete one of them"
    if line.formula is not None:
        return f"{line.formula} holds a formula; type the answer as text"
    return None


# ---- import: the decisions -----------------------------------------------------------------------
def importer(packet: Packet) -> str:
    """Whose decisions the packet's answers become: the signed-in account's (the app), who must
    be the person the packet was made for; else (the command line) that person, as the store
    recorded it. PacketRefused otherwise."""
    account = acting_account()
    if account is None:
        return packet.person
    if not same(account.name, packet.person):
        raise PacketRefused(
            packet.path,
            [
                f"was made for {packet.person}, and {account.name} is signed in; its answers are recorded as the importer's"
            ],
            f"sign in as {packet.person} and import it on My questions",
        )
    return account.name


def apply_packet(review: Review, packet: Packet) -> Imported:
    """Each filled row of ``packet`` as a decision of the :func:`importer`, all or nothing
    (module docstring)."""
    require(Permission.DECIDE)
    person = importer(packet)
    if packet.made.project_id != review.project_id:
        raise PacketRefused(packet.path, ["is the packet of another questionnaire"])
    expert = Review(review.store, review.project_id, review.questionnaire, by=person)  # the library: after the commit
    filled = [r for r in packet.rows if r.filled]
    with review.store.batch():  # checked and written in one transaction: all or nothing
        items = {i.key: i for i in review.items()}
        problems = [
            f"row {r.line} ({r.id}): {_not_held(items.get(r.key), person)}"
            for r in filled
            if not _holds(items, r, person)
        ]
        if problems:
            raise PacketRefused(
                packet.path, problems, "ask a lead to assign those rows back, or clear them in the packet"
            )
        decided, conflicts, comments = [], [], 0
        note = f"from {person}'s packet ({packet.path.name})"
        for row in filled:
            if row.choice or row.answer:
                try:
                    decided.append(_decide(expert, items[row.key], row, note))
                except RowChanged as exc:
                    who = exc.decision.by if exc.decision is not None else None
                    conflicts.append(Conflict(row, exc.current, exc.answer, exc.choice, exc.by, who, person))
                    continue
            if row.comment and not any(c.by == person and c.text == row.comment for c in comments_of(review, row.key)):
                comment(expert, row.key, row.comment)  # the same packet imported again adds no second copy
                comments += 1
    librarian = Review(review.store, review.project_id, review.questionnaire, review.library, by=person)
    for d in decided:
        librarian.record_in_library(items[d.key].question, d.answer, d.choice)
    review.library_problem = librarian.library_problem or review.library_problem
    return Imported(person, tuple(decided), comments, tuple(conflicts), len(packet.rows) - len(filled))


def _holds(items: dict[str, ReviewItem], row: PacketRow, person: str) -> bool:
    return row.key in items and same(items[row.key].holder, person)


def _not_held(item: ReviewItem | None, person: str) -> str:
    if item is None:
        return "the questionnaire has no such question any more"
    return f"it is assigned to {item.holder or 'nobody'} now, not to {person}"


def _decide(expert: Review, item: ReviewItem, row: PacketRow, note: str) -> Decision:
    """The row's answer as the expert's decision on the version recorded when the packet was
    made: an accept when it is the draft as it stood then, else an edit (RowChanged: changed since)."""
    choice = row.choice if row.choice is not None else item.choice
    answer = row.answer if row.answer is not None else item.answer
    if (answer, choice) == (item.answer, item.choice) and item.version == row.version:
        return expert.accept(row.key, expected=row.version)
    return expert.edit(row.key, answer, choice, expected=row.version, note=note)


def resolve(review: Review, conflict: Conflict, take_packet: bool) -> Decision | None:
    """Settle a conflict: the packet's answer as a new decision by its importer on the row as it
    is now (``conflict.current``; a row changed again since is refused with RowChanged), its note
    naming whose answer it replaced and who took it (``review.by``); or keep the current answer
    (nothing written, None). ValueError, nothing written, when someone else than the importer is
    signed in, or the row is assigned to someone else now."""
    if not take_packet:
        return None
    row, person = conflict.row, conflict.person
    account = acting_account()
    if account is not None and not same(account.name, person):
        raise ValueError(f"{row.id}: the packet's answer is {person}'s; {person} takes it, signed in")
    holder = review.item(row.key).holder
    if not same(holder, person):
        raise ValueError(f"{row.id} is assigned to {holder or 'nobody'} now, not to {person}; nothing was taken")
    expert = Review(review.store, review.project_id, review.questionnaire, review.library, by=person)
    choice = row.choice if row.choice is not None else conflict.now_choice
    answer = row.answer if row.answer is not None else conflict.now_answer
    over = conflict.who or "a change"
    taken = f", taken by {review.by}" if review.by and not same(review.by, person) else ""
    return expert.edit(
        row.key, answer, choice, expected=conflict.current, note=f"{person}'s packet, over {over}'s answer{taken}"
    )


def packet_name(review: Review, person: str) -> str:
    """The packet's file name: ``<questionnaire> - <person> packet.xlsx``."""
    stem = Path(review.store.project(review.project_id).file_name).stem
    safe = "".join(ch if ch.isalnum() or ch in " -_." else "_" for ch in person).strip() or "expert"
    return f"{stem} - {safe} packet.xlsx"


__all__ = [
    "Conflict",
    "Imported",
    "PACKET_LIMIT",
    "Packet",
    "PacketRefused",
    "PacketRow",
    "apply_packet",
    "check_packet_file",
    "held_by",
    "importer",
    "packet_bytes",
    "packet_name",
    "packet_project",
    "read_packet",
    "resolve",
]
