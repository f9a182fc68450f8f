""" "My questions": what waits for one person across every questionnaire of the review store.

A row is in a person's queue while it is assigned to them (its latest assignment record names
them, case ignored) and nobody has settled it since (a decision that accepts, edits or rejects it,
told by the decision's id, never by clock time), or while a comment mentions them (``@ana``) and
they have neither commented on the row nor decided it since. An assigned row with a due date
before today is overdue. Read from the review store alone (the questions' text as the drafting
run stored it), so the queue opens without reading any workbook.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Sequence

from engine.core.people import mentions, same
from engine.core.types import Action
from storage.review_store import ReviewStore

SETTLED = (Action.ACCEPT, Action.EDIT, Action.REJECT)  # a decision that takes a row out of its holder's queue


@dataclass(frozen=True)
class QueueItem:
    """One row waiting for the person: ``why`` is ``assigned`` or ``mentioned``; ``by`` who
    assigned or mentioned them, ``since`` when; ``note``: the assignment's note or the comment."""

    project_id: int
    questionnaire: str
    key: str
    label: str
    question: str
    why: str
    by: str
    since: str
    due: str | None
    note: str | None
    overdue: bool


@dataclass(frozen=True)
class Queue:
    """A person's queue, assigned rows first (by due date, undated last; then by questionnaire and
    in its order), then mentions."""

    name: str
    items: tuple[QueueItem, ...]

    @property
    def overdue(self) -> int:
        return sum(i.overdue for i in self.items)


def my_questions(store: ReviewStore, name: str, today: date | None = None, groups: Sequence[str] = ()) -> Queue:
    """The rows waiting for ``name`` in every project of ``store`` (module docstring), and for
    the ``groups`` they answer for (rows given to a group, comments mentioning it)."""
    today = today or date.today()
    names = (name, *groups)
    decided: dict[tuple[int, str], list] = {}
    for project_id, decision in store.all_decisions():
        decided.setdefault((project_id, decision.key), []).append(decision)
    projects = {p.id: p for p in store.projects()}
    labels: dict[int, dict[str, tuple[str, str]]] = {}

    def row(project_id: int, key: str) -> tuple[str, str]:
        if project_id not in labels:
            labels[project_id] = {k: _label(k, d) for k, d in store.questions(project_id)}
        return labels[project_id].get(key, (key, ""))

    assigned = []
    for (project_id, key), a in store.assignments().items():
        later = [d for d in decided.get((project_id, key), ()) if d.id > a.decision_then]
        mine = any(same(a.to, n) for n in names)
        if not mine or any(d.action in SETTLED for d in later) or project_id not in projects:
            continue
        label, text = row(project_id, key)
        overdue = a.due is not None and date.fromisoformat(a.due) < today
        p = projects[project_id]
        assigned.append(
            QueueItem(project_id, p.name, key, label, text, "assigned", a.by, a.created, a.due, a.note, overdue)
        )
    held = {(i.project_id, i.key) for i in assigned}
    mentioned: dict[tuple[int, str], QueueItem] = {}
    notes = store.comments()
    for c in notes:
        place = (c.project_id, c.key)
        if place in held or same(c.by, name) or not any(same(m, n) for m in mentions(c.text) for n in names):
            continue
        answered = any(same(d.by, name) and d.id > c.decision_then for d in decided.get(place, ()))
        answered |= any(x.id > c.id and same(x.by, name) and (x.project_id, x.key) == place for x in notes)
        if answered or c.project_id not in projects:
            mentioned.pop(place, None)
            continue
        label, text = row(*place)
        mentioned[place] = QueueItem(
            c.project_id,
            projects[c.project_id].name,
            c.key,
            label,
            text,
            "mentioned",
            c.by,
            c.created,
            None,
            c.text,
            False,
        )
    order = {(p, key): n for p, found in labels.items() for n, key in enumerate(found)}  # the questionnaire's
    assigned.sort(key=lambda i: (i.due is None, i.due or "", i.project_id, order.get((i.project_id, i.key), 0)))
    return Queue(name, tuple(assigned) + tuple(mentioned.values()))


def _label(key: str, data: dict) -> tuple[str, str]:
    """(``ID`` or ``Sheet row N``, the question's text) from a question as the store keeps it."""
    label = data.get("id") or (f"{data['sheet']} row {data['row']}" if "sheet" in data and "row" in data else key)
    return str(label), str(data.get("text") or "")
