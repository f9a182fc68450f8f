"""The history of one row: every draft and decision, oldest first, with who made it, when, and
what it changed in the row's answer (a line diff of the text, ``difflib``, and the choice before
and after), and "restore this version": a new decision (an edit carrying that version's text and
choice, and a note saying which version it restores), never a rewrite, made on the row version the
reviewer saw, so a row changed since is refused (``RowChanged``) like any decision.

The row's answer after each step is what the review shows for it (``current_answer`` of the
latest draft and decision up to that step), so the diffs add up to the answer on screen. Records
kept before names were (review store version < 5) say ``unknown``. A second person's approval
(``Review.approve``) is a step too (``approval``: who, when, which decision), changing nothing;
restoring it restores the answer as it was approved."""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from engine.core.people import UNKNOWN
from engine.core.types import Action, DraftStatus
from engine.review.review import Review
from storage.review_store import Approval, Decision, RowVersion, StoredDraft, current_answer

_DID = {
    Action.ACCEPT: "accepted",
    Action.EDIT: "edited",
    Action.NEEDS_SME: "marked Needs SME",
    Action.REJECT: "rejected",
}
_DRAFTED = {
    DraftStatus.DRAFTED: "drafted",
    DraftStatus.NO_CONTEXT: "drafted (no context found)",
    DraftStatus.ERROR: "drafting failed",
    DraftStatus.NOT_REQUIRED: "not required (its section is switched off)",
}


@dataclass(frozen=True)
class HistoryItem:
    """One step of a row's history. ``kind``: ``draft``, ``decision`` or ``approval`` (with ``id``: which one,
    as ``restore`` takes it); ``what``: what was done, in words; ``answer`` and ``choice``: the
    row's answer after it; ``diff``: the changed lines of the text (``-`` before, ``+`` after; empty:
    the text did not change); ``choice_before``: the choice before, when it changed."""

    kind: str
    id: int
    by: str
    when: str
    what: str
    answer: str
    choice: str | None
    note: str | None
    diff: tuple[str, ...]
    choice_before: str | None = None
    choice_changed: bool = False

    @property
    def ref(self) -> str:
        """How a person names this version (``draft:12``, ``decision:5``): ``review restore --from``."""
        return f"{self.kind}:{self.id}"


def diff_lines(before: str, after: str) -> tuple[str, ...]:
    """The lines of ``before`` taken out (``- …``) and of ``after`` put in (``+ …``), with one line
    of context (``  …``); empty when the texts are the same."""
    if before == after:
        return ()
    lines = difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=1)
    return tuple(f"{line[0]} {line[1:]}" for line in lines if not line.startswith(("---", "+++", "@@")))


def history(review: Review, key: str) -> list[HistoryItem]:
    """Every draft and decision of the row ``key``, oldest first, with what each changed."""
    draft: StoredDraft | None = None
    decision: Decision | None = None
    answer, choice = "", None
    out = []
    steps = review.store.history(review.project_id, key) + review.store.approvals(review.project_id, key)
    for step in sorted(steps, key=_order):
        if isinstance(step, Approval):  # changes nothing in the answer: it signs off the decision it names
            kind, what, note = "approval", f"approved decision:{step.decision_id}", None
        elif isinstance(step, StoredDraft):
            draft, kind, what, note = step, "draft", _DRAFTED[step.status], None
        else:
            decision, kind, what, note = step, "decision", _DID[step.action], step.note
        now, chosen = current_answer(draft, decision)
        out.append(
            HistoryItem(
                kind,
                step.id,
                step.by or UNKNOWN,
                step.created,
                what,
                now,
                chosen,
                note,
                diff_lines(answer, now),
                choice,
                chosen != choice,
            )
        )
        answer, choice = now, chosen
    return out


def _order(step: StoredDraft | Decision | Approval) -> tuple:
    """When it happened; in the same second, drafts before decisions, and an approval right after
    the decision it approves (ids only grow)."""
    if isinstance(step, Approval):
        return (step.created, 1, step.decision_id, 1)
    return (step.created, 0 if isinstance(step, StoredDraft) else 1, step.id, 0)


def restore(review: Review, key: str, ref: str, *, expected: RowVersion) -> Decision:
    """Make the version ``ref`` (``draft:12``, ``decision:5``, as :attr:`HistoryItem.ref`) of the
    row the current answer: a new decision (an edit with its text and choice), by the review's
    reviewer, made on ``expected`` (``RowChanged`` when the row changed since; nothing written).
    ValueError naming the versions the row has when ``ref`` is none of them, or when that version
    holds no answer."""
    steps = history(review, key)
    found = next((h for h in steps if h.ref == ref.strip()), None)
    if found is None:
        refs = ", ".join(h.ref for h in steps) or "none yet"
        raise ValueError(f"{ref!r} is not a version of {review.item(key).label}; its versions: {refs}")
    if not found.answer and not found.choice:
        raise ValueError(f"version {found.ref} of {review.item(key).label} holds no answer; restore another")
    note = f"restored the version of {found.when} ({found.ref}, {found.what} by {found.by})"
    return review.edit(key, found.answer, found.choice, expected=expected, note=note)
