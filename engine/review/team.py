"""Team work on one questionnaire: giving rows to a person or a group, and comments.

Rows are assigned by name (engine/core/people.py) — chosen one by one, a section (one a
qualifier governs, or a sheet), or every row in *Review first* (``ReviewItem.review_first``) —
with an optional due date and note. Nothing is rewritten: each assignment, reassignment or
unassignment is a new record in the review store, by the reviewer who made it, and a row's
holder is its latest record (``ReviewItem.holder``). A comment is appended with its author and
time; the names it mentions (``@ana``) find the row in their queue (engine/review/queue.py).
Everything here is refused with a ``ValueError`` naming the value and the fix before anything is
written."""

from __future__ import annotations

from datetime import date
from typing import Sequence

from engine.core.accounts import Permission, require
from engine.core.people import person_name, same
from engine.review.draft_run import question_records
from engine.review.review import Review, ReviewItem
from storage.review_store import Assignment, Comment

COMMENT_LIMIT = 4000  # characters: a comment is a note on one row, not a document
NOTE_LIMIT = 1000


def parse_due(text: str | None) -> str | None:
    """A due date given as ``YYYY-MM-DD`` (None or empty: none), as that ISO text; ValueError otherwise."""
    if text is None or not str(text).strip():
        return None
    try:
        return date.fromisoformat(str(text).strip()).isoformat()
    except ValueError:
        raise ValueError(f"the due date {text!r} is not a date; give it as YYYY-MM-DD, e.g. 2026-12-01") from None


def _text(text: str | None, limit: int, what: str) -> str | None:
    flat = (text or "").strip()
    if len(flat) > limit:
        raise ValueError(f"the {what} is {len(flat)} characters long; keep it under {limit}")
    return flat or None


def targets(
    review: Review,
    items: list[ReviewItem],
    *,
    rows: Sequence[str] = (),
    section: str | None = None,
    review_first: bool = False,
) -> list[ReviewItem]:
    """The rows named by their question ID, key or label (``rows``), the rows of ``section`` (a
    section a qualifier governs, else a sheet, by name, case ignored) or every row in *Review
    first*, in the questionnaire's order; exactly one of the three; ValueError naming what matches
    nothing."""
    if sum((bool(rows), section is not None, review_first)) != 1:
        raise ValueError("name the rows to assign in one way: rows by ID, a section, or the rows in Review first")
    if review_first:
        found = [i for i in items if i.review_first]
        if not found:
            raise ValueError("no row is in Review first now; name rows by ID or a section instead")
        return found
    if section is not None:
        return _section(review, items, section)
    by_name = {}
    for name in rows:
        match = [i for i in items if i.key == name] or [i for i in items if name in (i.question.id, i.label)]
        if len(match) != 1:
            problem = "no row is" if not match else f"{len(match)} rows are"
            raise ValueError(f"{problem} {name!r} in {review.questionnaire.path.name}; name rows by ID or key")
        by_name[match[0].key] = match[0]
    return [i for i in items if i.key in by_name]


def _section(review: Review, items: list[ReviewItem], name: str) -> list[ReviewItem]:
    governed = [s for s in review.sections(items) if same(s.section, name)]
    if governed:
        ids = {row for s in governed for row in s.rows}
        return [i for i in items if i.question.id in ids]
    on_sheet = [i for i in items if same(i.question.sheet, name)]
    if on_sheet:
        return on_sheet
    known = sorted({s.section for s in review.sections(items)} | {i.question.sheet for i in items})
    raise ValueError(f"no section or sheet is named {name!r}; name one of: {', '.join(known)}")


def assign(
    review: Review,
    rows: Sequence[ReviewItem],
    to: str | None,
    due: str | None = None,
    note: str | None = None,
) -> list[Assignment]:
    """Give ``rows`` to ``to`` (a person or a group; None: unassign them), until ``due``
    (``YYYY-MM-DD``), with ``note``, by the review's reviewer: a new record per row."""
    require(Permission.ASSIGN)  # a lead or a reviewer (engine/core/accounts.py)
    holder = person_name(to, "the assignee") if to is not None else None
    if not rows:
        raise ValueError("no rows to assign; name rows by ID, a section, or the rows in Review first")
    if not review.store.questions(review.project_id):  # not drafted yet: the queues show the questions' text
        review.store.set_questions(review.project_id, question_records(review.questionnaire))
    return review.store.assign(
        review.project_id,
        [i.key for i in rows],
        holder,
        by=_by(review),
        due=parse_due(due),
        note=_text(note, NOTE_LIMIT, "note"),
    )


def comment(review: Review, key: str, text: str) -> Comment:
    """Add a comment on the row ``key`` by the review's reviewer; the names it mentions
    (``@ana``) find the row in their queue."""
    review.item(key)  # KeyError: no such row
    return review.store.comment(review.project_id, key, comment_body(text), by=_by(review))


def comment_body(text: str | None) -> str:
    """A comment's text as it is kept (stripped); ValueError saying the fix when it is empty or
    longer than ``COMMENT_LIMIT`` (an expert packet checks its comments with it before anything is written)."""
    body = _text(text, COMMENT_LIMIT, "comment")
    if body is None:
        raise ValueError("the comment is empty; write something first")
    return body


def comments(review: Review, key: str) -> list[Comment]:
    """The row's comments, oldest first."""
    return review.store.comments(review.project_id, key)


def assignment_history(review: Review, key: str) -> list[Assignment]:
    """Every assignment record of the row, oldest first."""
    return review.store.assignment_history(review.project_id, key)


def _by(review: Review) -> str:
    if not review.by:
        raise ValueError("no reviewer name: set one on the Settings screen or pass --by NAME")
    return review.by


__all__ = ["Assignment", "Comment", "assign", "comment", "comment_body", "comments", "parse_due", "targets"]
