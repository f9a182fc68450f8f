"""The expert's packet: the rows a person holds, as a workbook they fill in without the app, and
its import back (issue #39, item 3).

**Export** (:func:`packet_bytes`): one sheet, a row per question held by the person (or the rows
given): ID, question, the current draft (choice and text), the allowed values, the sources with
their pages, and three columns for the expert — their choice (a dropdown of the allowed values),
their answer, their comment. A hidden sheet records what the packet was made from: the
questionnaire's file and SHA-256, the person, and per row its key, ID, question text and the row
version (``RowVersion``) the expert saw.

**Import** (:func:`read_packet`, then :func:`apply_packet`): the file is checked whole before
anything is written: its size (``PACKET_LIMIT``), that it is a packet of this app and of this
questionnaire, and each filled row — matched by its ID and question text, never by position (an
expert may sort or filter the sheet) — for a formula, a choice outside the allowed values, a row
the packet never held or whose question was edited. Any problem: :class:`PacketRefused` with one
line per problem, and nothing changes. Then each filled row becomes a decision by the packet's
person (accept when it is the draft as it stood, else an edit; the comment a comment). A row
that someone decided (or that was drafted again) since the packet was made is a
:class:`Conflict`, never overwritten: :func:`resolve` takes the packet's answer (a new decision on
the row as it is now) or keeps the current one.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Sequence

from openpyxl import Workbook, load_workbook
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.worksheet.datavalidation import DataValidation

from engine.core.accounts import Permission, require
from engine.core.location import PROMPT
from engine.core.people import same
from engine.core.types import FileProblem
from engine.review.review import Review, ReviewItem
from engine.review.team import comment
from engine.review.team import comments as comments_of
from storage.review_store import Decision, RowChanged, RowVersion

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
_FIX = "export a new packet from the app (Export → Expert packets) and fill that one in"


class PacketRefused(FileProblem):
    """A packet that cannot be imported; ``problems``: one line each. Nothing was written."""

    def __init__(self, path: Path | str, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
        first = (
            self.problems[0]
            if len(self.problems) == 1
            else f"{len(self.problems)} problems: " + "; ".join(self.problems)
        )
        super().__init__(Path(path), f"{first}; nothing was imported", _FIX)


@dataclass(frozen=True)
class PacketRow:
    """One row the packet held: its key, ID and question as exported, the version the expert
    saw, and what they filled in (None: left empty)."""

    key: str
    id: str
    question: str
    version: RowVersion
    choice: str | None = None
    answer: str | None = None
    comment: str | None = None

    @property
    def filled(self) -> bool:
        return bool(self.choice or self.answer or self.comment)


@dataclass(frozen=True)
class Packet:
    """A packet read back: whose it is, the questionnaire it was made from, and its rows."""

    path: Path
    person: str
    file_name: str
    file_sha256: str
    made: str
    rows: tuple[PacketRow, ...]


@dataclass(frozen=True)
class Conflict:
    """A packet's answer for a row that changed since the packet was made: both sides."""

    row: PacketRow
    current: RowVersion
    now_answer: str
    now_choice: str | None
    changed_by: str  # what changed it, and when (RowChanged.by)
    who: str | None = None  # the person whose decision it now holds (None: a new draft, or no name)
    person: str = ""  # the packet's expert, whose decision the packet's answer becomes


@dataclass(frozen=True)
class Imported:
    """What an import did: the decisions made (by the packet's person), the comments added, the
    conflicts left for the reviewer, and the rows left empty."""

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


def packet_bytes(review: Review, person: str, keys: Sequence[str] | None = None) -> bytes:
    """The packet of ``person``: the rows they hold, or ``keys`` when given (in questionnaire
    order). ValueError when there is no row to put in it."""
    require(Permission.EXPORT)
    items = review.items()
    rows = [i for i in items if i.key in set(keys)] if keys is not None else held_by(review, person, items)
    if not rows:
        raise ValueError(f"{person} holds no row of {review.questionnaire.path.name}; assign rows to them first")
    project = review.store.project(review.project_id)
    wb = Workbook()
    ws = wb.active
    ws.title = SHEET
    ws.append([name for name, _ in COLUMNS])
    for col, (_, width) in enumerate(COLUMNS, start=1):
        ws.column_dimensions[ws.cell(1, col).column_letter].width = width
        ws.cell(1, col).font = Font(bold=True)
    lists = wb.create_sheet(LISTS)
    meta = wb.create_sheet(META)
    made = datetime.now(timezone.utc).isoformat(timespec="seconds")
    meta.append(["kind", KIND])
    meta.append(["person", person])
    meta.append(["file", project.file_name])
    meta.append(["sha256", project.file_sha256])
    meta.append(["made", made])
    meta.append(["key", "id", "question", "version"])
    yours = PatternFill("solid", fgColor="FFF2CC")
    for n, item in enumerate(rows, start=2):
        q = item.question
        ws.append(
            [item.label, q.text, item.choice or "", item.answer, ", ".join(q.choices), _sources(item), None, None, None]
        )
        for col in (YOUR_CHOICE, YOUR_ANSWER, YOUR_COMMENT):
            ws.cell(n, col).fill = yours
        for col in range(1, len(COLUMNS) + 1):
            ws.cell(n, col).alignment = Alignment(wrap_text=True, vertical="top")
        if q.choices:
            column = lists.cell(1, n).column_letter
            for r, choice in enumerate(q.choices, start=1):
                lists.cell(r, n, choice)
            rule = DataValidation(
                type="list",
                formula1=f"'{LISTS}'!${column}$1:${column}${len(q.choices)}",
                allow_blank=True,
                showErrorMessage=True,
                errorTitle="Not an allowed value",
                error="Pick one of the allowed values",
            )
            ws.add_data_validation(rule)
            rule.add(ws.cell(n, YOUR_CHOICE))
        meta.append([item.key, item.label, q.text, str(item.version)])
    ws.freeze_panes = "C2"
    lists.sheet_state = meta.sheet_state = "hidden"
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def _cell(value) -> str | None:
    text = "" if value is None else str(value).strip()
    return text or None


def read_packet(path: Path | str, review: Review) -> Packet:
    """The packet at ``path``, checked against ``review`` (module docstring); PacketRefused with
    one line per problem otherwise."""
    path = Path(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise PacketRefused(path, [f"cannot be read ({exc.strerror or exc})"]) from None
    if size > PACKET_LIMIT:
        raise PacketRefused(path, [f"is {size / 1e6:.0f} MB; a packet is at most {PACKET_LIMIT / 1e6:.0f} MB"])
    try:
        # formulas as written (data_only=False): a formula in an answer is refused, never evaluated
        wb = load_workbook(path, read_only=False, data_only=False)
    except (zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
        raise PacketRefused(path, [f"is not a readable .xlsx workbook ({type(exc).__name__})"]) from None
    if META not in wb.sheetnames or SHEET not in wb.sheetnames:
        raise PacketRefused(path, ["is not an expert packet of this app (its hidden packet sheet is missing)"])
    meta = {str(r[0].value): r[1].value for r in wb[META].iter_rows(min_row=1, max_row=5) if r[0].value}
    if meta.get("kind") != KIND:
        raise PacketRefused(path, ["is not an expert packet of this app"])
    project = review.store.project(review.project_id)
    if meta.get("sha256") != project.file_sha256:
        raise PacketRefused(
            path,
            [f"is the packet of another questionnaire ({meta.get('file')}), not of {project.file_name}"],
        )
    exported: dict[str, tuple[str, str, RowVersion]] = {}  # ID → (key, question, version)
    for key, qid, question, version in wb[META].iter_rows(min_row=7, values_only=True, max_col=4):
        if key:
            exported[str(qid)] = (str(key), str(question), RowVersion.parse(str(version)))
    choices = {i.key: i.question.choices for i in review.items()}
    problems, rows, seen = [], [], set()
    sheet = wb[SHEET]
    for cells in sheet.iter_rows(min_row=2):
        values = [c.value for c in cells[: len(COLUMNS)]]
        if not any(v not in (None, "") for v in values):
            continue
        where = f"row {cells[0].row}"
        qid, question = _cell(values[0]), _cell(values[1])
        if qid not in exported:
            problems.append(f"{where}: ID {qid!r} was not in this packet")
            continue
        key, asked, version = exported[qid]
        if " ".join((question or "").split()) != " ".join(asked.split()):
            problems.append(
                f"{where} ({qid}): its question was changed; the packet's rows are matched by ID and question"
            )
            continue
        if key not in choices:
            problems.append(f"{where} ({qid}): the questionnaire has no such question any more")
            continue
        if qid in seen:
            problems.append(f"{where} ({qid}): the row is in the packet twice")
            continue
        seen.add(qid)
        yours = [cells[c - 1] for c in (YOUR_CHOICE, YOUR_ANSWER, YOUR_COMMENT)]
        formulas = [c for c in yours if c.data_type == "f" or str(c.value or "").startswith("=")]
        if formulas:
            problems.append(f"{where} ({qid}): {formulas[0].coordinate} holds a formula; type the answer as text")
            continue
        choice, answer, comment = (_cell(c.value) for c in yours)
        item_choices = choices[key]
        if choice is not None and item_choices and choice not in item_choices:
            problems.append(f"{where} ({qid}): {choice!r} is not one of the allowed values ({', '.join(item_choices)})")
            continue
        rows.append(PacketRow(key, qid, asked, version, choice, answer, comment))
    if problems:
        raise PacketRefused(path, problems)
    return Packet(
        path,
        str(meta.get("person") or ""),
        str(meta.get("file")),
        str(meta["sha256"]),
        str(meta.get("made")),
        tuple(rows),
    )


def apply_packet(review: Review, packet: Packet) -> Imported:
    """Each filled row of ``packet`` as a decision by its person (module docstring)."""
    require(Permission.DECIDE)
    expert = Review(review.store, review.project_id, review.questionnaire, review.library, by=packet.person)
    items = {i.key: i for i in review.items()}
    decided, conflicts, comments, empty = [], [], 0, 0
    note = f"from {packet.person}'s packet ({packet.path.name})"
    for row in packet.rows:
        if not row.filled:
            empty += 1
            continue
        if row.choice or row.answer:
            item = items[row.key]
            choice = row.choice if row.choice is not None else item.choice
            answer = row.answer if row.answer is not None else item.answer
            try:
                if (answer, choice) == (item.answer, item.choice) and item.version == row.version:
                    decided.append(expert.accept(row.key, expected=row.version))
                else:
                    decided.append(expert.edit(row.key, answer, choice, expected=row.version, note=note))
            except RowChanged as exc:
                who = exc.decision.by if exc.decision is not None else None
                conflicts.append(Conflict(row, exc.current, exc.answer, exc.choice, exc.by, who, packet.person))
                continue
        if row.comment and not any(
            c.by == packet.person and c.text == row.comment for c in comments_of(review, row.key)
        ):  # the same packet imported again adds no second copy
            comment(expert, row.key, row.comment)
            comments += 1
    return Imported(tuple(decided), comments, tuple(conflicts), empty)


def resolve(review: Review, conflict: Conflict, take_packet: bool) -> Decision | None:
    """Settle a conflict: the packet's answer as a new decision by its expert on the row as it is
    now (``conflict.current``; a row changed again since is refused with RowChanged), its note
    naming whose answer it replaced and who took it (``review.by``); or keep the current answer
    (nothing written, None)."""
    if not take_packet:
        return None
    row = conflict.row
    person = conflict.person
    expert = Review(review.store, review.project_id, review.questionnaire, review.library, by=person)
    choice = row.choice if row.choice is not None else conflict.now_choice
    answer = row.answer if row.answer is not None else conflict.now_answer
    over = conflict.who or "a change"
    taken = f", taken by {review.by}" if review.by and review.by != person else ""
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
    "held_by",
    "packet_bytes",
    "packet_name",
    "read_packet",
    "resolve",
]
