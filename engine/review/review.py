"""One questionnaire under review: every question with its latest draft and the reviewer's
latest decision, the actions a reviewer takes (each persisted at once), and the three exports
(the completed workbook, a CSV of the answers, a citations report).

A question's answer in the export is what the reviewer approved: the edited text for
``edited``, the draft (or the text saved with the acceptance) for ``accepted``. Drafts nobody
accepted are left out unless ``include_unreviewed`` asks for them; ``needs_sme`` and
``rejected`` questions are always left blank.

With an answer library, every accepted or edited answer is also recorded there (or updates the
entry of the same question of this questionnaire), dated, for the next questionnaires. While the
library is damaged (``library_problem``: found when it was opened, or when recording into it),
the decision is still stored in the review store, and ``library_problem`` says why it went there
only; the screen says so beside "accepted".

No lost update: each row carries its :class:`~storage.review_store.RowVersion` (``ReviewItem.version``,
read before its draft and decision), and a reviewer's accept, edit, needs-SME or reject passes back
the version they saw (``expected``); a row that changed since (another reviewer's decision, a new
draft) is refused with ``RowChanged``, which carries the row now and who or what changed it, and
nothing is written. ``expected=None`` (no check) is for internal callers only: the app and the CLI
always pass it.

Approval (optional, per questionnaire: ``require_approval``): a second person approves an accepted
or edited row (``approve``, on the version they saw; never the decision's own author), and the
row is ``final`` once approved. An approval names the decision it approves, so a later decision
leaves it behind; the export can be limited to approved answers (``approved_only``).
"""

from __future__ import annotations

import tempfile
from collections import Counter
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from engine.core.accounts import Permission, require, require_row
from engine.core.types import Action, DraftStatus, StoreDamaged
from engine.drafting.records import Citation, Draft
from engine.drafting.sections import SectionGate, approved
from engine.index.library import AnswerLibrary
from engine.questionnaire import Question, Questionnaire
from engine.questionnaire.csv_writer import csv_text
from engine.questionnaire.export import export
from engine.questionnaire.language import Language
from engine.questionnaire.places import Unwritten
from engine.questionnaire.qualifiers import Gate, contradiction, qualifiers_of, question_key
from engine.questionnaire.records import CHOICE_SEPARATOR, joined_choices, picked_choices
from engine.questionnaire.row_types import RowType, classify, row_types_of
from engine.questionnaire.writes import UnwrittenAnswer, unwritten_answers
from engine.review.export_cells import answer_writes
from storage.review_store import (
    Approval,
    Assignment,
    Decision,
    ReviewStore,
    RowChanged,
    RowVersion,
    current_answer,
)


class ReviewState(str, Enum):
    """Where a question stands: the decision when there is one, else the draft's status."""

    PENDING = "pending"  # not drafted yet
    DRAFTED = "drafted"
    NO_CONTEXT = "no_context"
    ERROR = "error"
    ACCEPTED = "accepted"
    EDITED = "edited"
    NEEDS_SME = "needs_sme"
    REJECTED = "rejected"
    NOT_REQUIRED = "not_required"  # a qualifier switches its section off (engine/drafting/sections.py)

    @property
    def label(self) -> str:
        return _LABELS[self]

    @property
    def approved(self) -> bool:
        return self in (ReviewState.ACCEPTED, ReviewState.EDITED)


APPROVAL_OPTION = "approval_required"  # the project option (ReviewStore.options) of ``Review.approval_required``
_LABELS = {
    ReviewState.PENDING: "Not drafted",
    ReviewState.DRAFTED: "Drafted",
    ReviewState.NO_CONTEXT: "No context",
    ReviewState.ERROR: "Error",
    ReviewState.ACCEPTED: "Accepted",
    ReviewState.EDITED: "Edited",
    ReviewState.NEEDS_SME: "Needs SME",
    ReviewState.REJECTED: "Rejected",
    ReviewState.NOT_REQUIRED: "Not required",
}


@dataclass(frozen=True)
class ReviewItem:
    key: str
    question: Question
    draft: Draft | None
    decision: Decision | None
    added: tuple[Citation, ...] = ()  # citations the reviewer added (excerpts of an asked document)
    gate: Gate | None = None  # the qualifier governing it and its current answer, when one does
    shape: RowType | None = (
        None  # its row type from its shape (``engine.questionnaire.row_types.row_types_of``); None: worked out here
    )
    qualifier: bool = False  # a qualifier: its answer decides whether the sections it governs are required
    version: RowVersion = RowVersion()  # of the draft and decision above: a decision passes it back (no lost update)
    assignment: Assignment | None = None  # its latest assignment record (engine/review/team.py)
    approval: Approval | None = None  # a second person's approval of its latest decision (an accept or edit)
    approval_required: bool = False  # its questionnaire counts an answer final only once approved

    @property
    def final(self) -> bool:
        """Accepted or edited, and approved by a second person when the questionnaire requires it."""
        return self.state.approved and (self.approval is not None or not self.approval_required)

    @property
    def holder(self) -> str | None:
        """Who holds the row: the person or group it is assigned to (None: nobody)."""
        return self.assignment.to if self.assignment is not None else None

    @property
    def review_first(self) -> bool:
        """In *Review first*: a qualifier the reviewer has not answered yet (its answer decides
        whole sections, even while drafting runs), or a draft nobody has decided on yet whose
        estimated risk of being wrong is at or above the threshold (``Draft.review_first``,
        engine/drafting/risk.py)."""
        if self.unanswered_qualifier:
            return True
        return self.state is ReviewState.DRAFTED and self.draft is not None and self.draft.review_first

    @property
    def reads_model_text(self) -> bool:
        """In *Read the model's texts* (#59): a draft nobody has decided on yet whose text is the
        model's wording and that is not in Review first (``Draft.reads_model_text``): a reviewer
        reads what the model wrote, though no choice of it is in doubt."""
        return self.state is ReviewState.DRAFTED and self.draft is not None and self.draft.reads_model_text

    @property
    def unanswered_qualifier(self) -> bool:
        """A qualifier the reviewer has not answered yet: answered early, it decides its sections
        before drafting reaches them (engine/drafting/sections.py)."""
        return self.qualifier and not approved(self.decision) and not self.question.answered  # the file's holds

    @property
    def row_type(self) -> RowType:
        """``gated`` while its qualifier's current answer switches it off, else its shape:
        ``yes_no``, ``dropdown``, ``profile`` or ``narrative`` (engine/questionnaire/row_types.py)."""
        if not self.required:
            return RowType.GATED
        return self.shape or classify(self.question)

    @property
    def required(self) -> bool:
        """False when its qualifier's current answer switches its section off."""
        return self.gate is None or self.gate.required

    @property
    def conflict(self) -> str | None:
        """A follow-up answered (by the reviewer or in the file) although its qualifier switches
        it off: one of the two is wrong."""
        if self.decision is not None and self.decision.action in (Action.ACCEPT, Action.EDIT):
            return contradiction(self.gate, (self.choice, self.answer))
        return contradiction(self.gate, (self.question.existing_choice, self.question.existing_answer))

    @property
    def state(self) -> ReviewState:
        if not self.required and not (self.decision is not None and self.state_of_decision.approved):
            return ReviewState.NOT_REQUIRED
        if self.decision is not None:
            return ReviewState(self.decision.action.value)
        if self.draft is None or self.draft.status is DraftStatus.NOT_REQUIRED:
            return ReviewState.PENDING  # not drafted (its section was switched off, and is on again)
        return ReviewState(self.draft.status.value)

    @property
    def state_of_decision(self) -> ReviewState:
        return ReviewState(self.decision.action.value) if self.decision is not None else ReviewState.PENDING

    @property
    def answer(self) -> str:
        """The current answer text: the reviewer's when saved with the decision, else the draft's."""
        return current_answer(self.draft, self.decision)[0]

    @property
    def choice(self) -> str | None:
        return current_answer(self.draft, self.decision)[1]

    @property
    def citations(self) -> tuple[Citation, ...]:
        """The draft's citations, then the ones the reviewer added."""
        return (self.draft.citations if self.draft is not None else ()) + self.added

    def cites(self, citation: Citation) -> bool:
        """Whether the question already cites that very place (file, page, offsets, quote)."""
        return any(_place(c) == _place(citation) for c in self.citations)

    @property
    def label(self) -> str:
        """``ID`` or ``Sheet row N``: how a reviewer names the question."""
        return self.question.id or f"{self.question.sheet} row {self.question.row}"

    def exported(self, include_unreviewed: bool) -> tuple[str, str | None] | None:
        """(text, choice) to write into the workbook, or None to leave the cells as they are."""
        state = self.state
        if state is ReviewState.NOT_REQUIRED:
            return None  # left as the template expects: blank
        if state.approved or (include_unreviewed and state is ReviewState.DRAFTED):
            if self.answer or self.choice:
                return self.answer, self.choice
        return None


@dataclass(frozen=True)
class Completed:
    """A completed file: its bytes, and the answers it could not hold (the others are in it)."""

    data: bytes
    unwritten: tuple[UnwrittenAnswer, ...] = ()


@dataclass(frozen=True)
class SectionState:
    """A section a qualifier governs: ``required`` None while the qualifier is unanswered."""

    section: str
    qualifier: str
    qualifier_key: str
    value: str | None
    required: bool | None
    reason: str  # "not required (QUAL-01 = No)"
    rows: tuple[str, ...]  # the governed questions' IDs


class Review:
    """The review of one project (questionnaire) in a review store; approved answers go into
    ``library`` when one is given. ``library_problem``: the answer library is damaged (approved
    answers are kept in the review store only). ``by``: the reviewer whose name its decisions,
    comments and assignments carry (engine/core/people.py; None: none kept, internal callers)."""

    def __init__(
        self,
        store: ReviewStore,
        project_id: int,
        questionnaire: Questionnaire,
        library: AnswerLibrary | None = None,
        *,
        library_problem: StoreDamaged | None = None,
        by: str | None = None,
    ) -> None:
        self.store, self.project_id, self.questionnaire = store, project_id, questionnaire
        self.library = library
        self.library_problem = library_problem
        self.by = by

    # ---- reading -----------------------------------------------------------------------------
    def items(self) -> list[ReviewItem]:
        versions = self.store.versions(self.project_id)  # first: a write in between makes it older, never newer
        drafts = self.store.latest_drafts(self.project_id)
        decisions = self.store.latest_decisions(self.project_id)
        added = self.store.added_citations(self.project_id)
        held = self.store.assignments(self.project_id)
        signed = {(a.key, a.decision_id): a for a in self.store.approvals(self.project_id)}  # by the decision approved
        required = self.approval_required
        sections = SectionGate(self.questionnaire, drafts, decisions)
        shapes = row_types_of(self.questionnaire)  # once per questionnaire read
        items = []
        for q in self.questionnaire.questions:
            key = question_key(q)
            draft = Draft.from_stored(key, drafts[key]) if key in drafts else None
            extra = tuple(Citation.from_json(c) for c in added.get(key, ()))
            items.append(
                ReviewItem(
                    key,
                    q,
                    draft,
                    decisions.get(key),
                    extra,
                    sections.gate(q),
                    shapes.get(key),
                    sections.is_qualifier(q),
                    versions.get(key, RowVersion()),
                    held.get((self.project_id, key)),
                    signed.get((key, decisions[key].id)) if key in decisions else None,  # its latest only
                    required,
                )
            )
        return items

    def sections(self, items: list[ReviewItem] | None = None) -> list[SectionState]:
        """Every section a qualifier governs, with its state and why, in questionnaire order;
        ``items``: this review's :meth:`items` just read (the store is not read again)."""
        if items is None:
            drafts = self.store.latest_drafts(self.project_id)
            state = SectionGate(self.questionnaire, drafts, self.store.latest_decisions(self.project_id)).gates
        else:
            state = {i.key: i.gate for i in items if i.gate is not None}
        out = []
        for qual in qualifiers_of(self.questionnaire):
            gate = state.get(qual.governs[0]) if qual.governs else None
            value = gate.value if gate else None
            required = None if value is None else bool(gate and gate.required)
            reason = gate.reason if gate else f"depends on {qual.id} (unanswered)"
            out.append(SectionState(qual.section, qual.id, qual.key, value, required, reason, qual.governs_ids))
        return out

    def item(self, key: str) -> ReviewItem:
        for item in self.items():
            if item.key == key:
                return item
        raise KeyError(f"no question {key} in {self.questionnaire.path.name}")

    def counts(self) -> dict[ReviewState, int]:
        counted = Counter(item.state for item in self.items())
        return {state: counted.get(state, 0) for state in ReviewState}

    # ---- actions (persisted at once) -----------------------------------------------------------
    # Each takes ``expected``, the version of the row the reviewer saw (``ReviewItem.version``):
    # a row that changed since raises RowChanged and nothing is written (see the module docstring).
    def _may_decide(self, key: str) -> None:
        """The caller's role may decide on this row: an expert only on a row assigned to them
        (engine/core/accounts.py)."""
        require(Permission.DECIDE)
        require_row(lambda: self.item(key).holder)

    def accept(
        self, key: str, answer: str | None = None, choice: str | None = None, *, expected: RowVersion | None = None
    ) -> Decision:
        """Accept the draft as it is, or with the text and choice on screen."""
        self._may_decide(key)
        item = self.item(key)
        answer = item.answer if answer is None else answer
        choice = self._check_choice(item, item.choice if choice is None else choice)
        decision = self.store.decide(self.project_id, key, Action.ACCEPT, answer, choice, expected=expected, by=self.by)
        self.record_in_library(item.question, answer, choice, item.draft)
        return decision

    def edit(
        self,
        key: str,
        answer: str,
        choice: str | None,
        *,
        expected: RowVersion | None = None,
        note: str | None = None,
    ) -> Decision:
        """Save the reviewer's text and choice (``note``: why, e.g. which version a restore took)."""
        self._may_decide(key)
        item = self.item(key)
        choice = self._check_choice(item, choice)
        decision = self.store.decide(
            self.project_id, key, Action.EDIT, answer, choice, note, expected=expected, by=self.by
        )
        self.record_in_library(item.question, answer, choice, item.draft)
        return decision

    def add_citation(self, key: str, citation: Citation) -> bool:
        """Add a citation to a question (persisted at once, like an edit); False when the
        question already cites that very place (same file, page, offsets and quote)."""
        self._may_decide(key)
        if self.item(key).cites(citation):
            return False
        self.store.add_citation(self.project_id, key, citation.to_json())
        return True

    def record_in_library(
        self, q: Question, answer: str | None, choice: str | None, draft: Draft | None = None
    ) -> None:
        """The approved answer into the answer library, under this questionnaire's file name and
        the product it is drafted for, in the language it is written in (a translated draft's,
        with the question as asked in English and, accepted as drafted, the English text it was
        translated from: issue #58); a library found damaged now is kept in ``library_problem``
        (the decision is already in the review store)."""
        if self.library is not None:
            project = self.store.project(self.project_id)
            language, asked_as, english = _language_of(draft, answer)
            try:
                self.library.record(
                    q.text,
                    choice,
                    answer,
                    project.file_name,
                    q.sheet,
                    q.row,
                    q.id,
                    project.product,
                    by=self.by,
                    language=language,
                    question_en=asked_as,
                    answer_en=english,
                )
            except StoreDamaged as exc:
                self.library_problem = exc

    def check(self, key: str, expected: RowVersion) -> None:
        """Raise ``RowChanged`` (who or what changed the row, its answer now) when the row is no
        longer at ``expected``: the screen says so as soon as it notices, before any click."""
        self.store.check(self.project_id, key, expected)

    def needs_sme(self, key: str, note: str | None = None, *, expected: RowVersion | None = None) -> Decision:
        self._may_decide(key)
        return self.store.decide(self.project_id, key, Action.NEEDS_SME, note=note, expected=expected, by=self.by)

    def reject(self, key: str, note: str | None = None, *, expected: RowVersion | None = None) -> Decision:
        self._may_decide(key)
        return self.store.decide(self.project_id, key, Action.REJECT, note=note, expected=expected, by=self.by)

    # ---- approval (optional, per questionnaire) ------------------------------------------------
    @property
    def approval_required(self) -> bool:
        """Whether an accepted or edited answer counts as final only once a second person approves
        it (``ReviewItem.final``); a project option, off unless a lead turns it on."""
        return bool(self.store.options(self.project_id).get(APPROVAL_OPTION, False))

    def require_approval(self, on: bool) -> None:
        """Turn the questionnaire's approval step on or off (its other options, such as how it is
        read, are kept); approvals already made stay either way."""
        require(Permission.SETTINGS)
        self.store.set_options(self.project_id, {**self.store.options(self.project_id), APPROVAL_OPTION: bool(on)})

    def approve(self, key: str, *, expected: RowVersion) -> Approval:
        """Approve the row's accepted or edited answer as the review's reviewer, on the version of
        the row they saw: ``RowChanged`` when it changed since (an edit after they looked is not
        approved unseen); ValueError naming the row when it is not accepted or edited, when the
        reviewer made that decision themself, or when it is approved already. Nothing is written
        then. A later decision leaves the approval behind (the row waits for a new one). Allowed
        to whoever may decide on the row (an expert: on the rows assigned to them)."""
        self._may_decide(key)
        label = self.item(key).label  # KeyError: no such row
        if not self.by:
            raise ValueError(f"{label}: no reviewer name; set one on the Settings screen or pass --by NAME")
        try:
            return self.store.approve(self.project_id, key, expected=expected, by=self.by)
        except ValueError as exc:
            raise ValueError(f"{label} is not approved: {exc}") from None

    @staticmethod
    def _check_choice(item: ReviewItem, choice: str | None) -> str | None:
        """``choice`` as stored (a choice of several's options in the list's order, each once), or a
        ValueError naming the row and the allowed values when its question does not take it."""
        if choice and item.question.several and item.question.takes(choice):
            return joined_choices(picked_choices(choice, item.question.choices))
        if choice and item.question.choices and not item.question.takes(choice):
            allowed = ", ".join(item.question.choices)
            several = f" (several joined by '{CHOICE_SEPARATOR}')" if item.question.several else ""
            raise ValueError(f"{choice!r} is not an allowed value of {item.label}; pick one of: {allowed}{several}")
        return choice

    # ---- exports -----------------------------------------------------------------------------
    def unapproved(self) -> list[ReviewItem]:
        return [i for i in self.items() if not i.state.approved]

    def export_workbook(
        self,
        out: Path,
        include_unreviewed: bool = False,
        approved_only: bool = False,
        unwritten: list[UnwrittenAnswer] | None = None,
    ) -> Path:
        """The original questionnaire with the approved answers filled in, nothing else changed (a
        flat PDF's: its Word response document, ``out`` with the suffix .docx); ``approved_only``:
        only the accepted or edited answers a second person approved (``ReviewItem.approval``),
        every other answer cell left as it is. Returns the file written. Given ``unwritten``, an
        answer its place cannot take is listed there (the question and why) and the others are
        written; without it, that answer refuses the export."""
        require(Permission.EXPORT)
        places: list[Unwritten] | None = [] if unwritten is not None else None
        answers = {}
        for item in self.items():
            value = item.exported(include_unreviewed)
            if value is not None and not (approved_only and (item.approval is None or not item.state.approved)):
                answers[item.key] = value
        dates = {
            i.key for i in self.items() if i.draft is not None and i.draft.profile_fact == "date"
        }  # written as dates
        writes = answer_writes(self.questionnaire, answers, dates)
        written = export(self.questionnaire.path, Path(out), writes, self.questionnaire, places)
        if unwritten is not None and places:
            unwritten.extend(unwritten_answers(self.questionnaire, places))
        return written

    def workbook_bytes(self, include_unreviewed: bool = False, approved_only: bool = False) -> bytes:
        """The bytes of :meth:`export_workbook`'s file (its suffix: engine.questionnaire.export.completed_suffix)."""
        return self.completed(include_unreviewed, approved_only).data

    def completed(self, include_unreviewed: bool = False, approved_only: bool = False) -> Completed:
        """The completed file's bytes and the answers it could not hold (each question and why):
        one answer its place refuses never refuses the others."""
        require(Permission.EXPORT)
        unwritten: list[UnwrittenAnswer] = []
        with tempfile.TemporaryDirectory(prefix="rfp-export-") as tmp:
            target = Path(tmp) / f"completed{self.questionnaire.path.suffix}"
            data = self.export_workbook(target, include_unreviewed, approved_only, unwritten).read_bytes()
        return Completed(data, tuple(unwritten))

    def answers_csv(self) -> str:
        """One row per question: id, sheet, row, question, state, choice, answer (every cell
        neutralised against formula injection by :mod:`engine.questionnaire.csv_writer`)."""
        require(Permission.EXPORT)
        rows = [
            [
                item.question.id,
                item.question.sheet,
                item.question.row,
                item.question.text,
                item.state.value,
                item.choice,
                item.answer,
            ]
            for item in self.items()
        ]
        return csv_text(["id", "sheet", "row", "question", "state", "choice", "answer"], rows)

    def citations_report(self) -> str:
        """CSV, one row per citation (a question without citations gets one row): question,
        answer, state, source file, page / sheet and row / section, quote, label, score (every
        cell neutralised against formula injection by :mod:`engine.questionnaire.csv_writer`)."""
        require(Permission.EXPORT)
        rows = []
        for item in self.items():
            q = item.question
            head = [q.id, q.sheet, q.row, q.text, item.state.value, item.answer, item.choice]
            if not item.citations:
                rows.append(head + ["", "", "", "", ""])
            for c in item.citations:
                rows.append(head + [c.file, c.location.label(), c.quote, c.label.value, round(c.score, 1)])
        return csv_text(
            [
                "id",
                "sheet",
                "row",
                "question",
                "state",
                "answer",
                "choice",
                "source",
                "location",
                "quote",
                "label",
                "score",
            ],
            rows,
        )


def _language_of(draft: Draft | None, answer: str | None) -> tuple[Language | None, str | None, str | None]:
    """What the library keeps of an accepted answer's language (issue #58): the draft's language
    when the answer is the draft's text (None: the library detects it from the text), the question
    as the drafter asked it in English, and the English text a translated draft was made from when
    the answer is that translation unchanged (an edited text has no English source any more)."""
    if draft is None:
        return None, None, None
    unchanged = (answer or "").strip() == draft.answer.strip()
    language = Language.parse(draft.language) if unchanged else None
    return language, draft.asked_as, draft.english if unchanged and draft.translated else None


def _place(c: Citation) -> tuple:
    return (c.file, c.page, c.sheet, c.row, c.section, c.start, c.end, " ".join(c.quote.split()))


__all__ = ["DraftStatus", "Review", "ReviewItem", "ReviewState", "RowChanged", "RowType", "RowVersion", "SectionState"]
