"""Sections a qualifier switches off, during drafting and review: the link between
:mod:`engine.questionnaire.qualifiers` (which rows a qualifier governs) and the review store
(the qualifier's current answer).

A qualifier's current answer is the reviewer's (an accepted or edited decision), else its
latest draft, else what the questionnaire file already holds. A draft whose choice is another
product's past answer (engine/drafting/cross_product.py) switches nothing off until a reviewer accepts
it — one wrong qualifier would blank a whole section of this product's answers — unless at least
three other products gave that choice and none another (``settles_qualifier``: the company-wide
qualifiers such as "Does your product process PHI?"); nor does a low-confidence draft or one
resting on a third party's evidence alone (:func:`switches_sections`). A qualifier about regulated
data (PHI, card data) is answered by the own documents' statements (engine/drafting/regulated.py:
"No" when none mentions the data), as is the hosting option when a product document says who
hosts the product (engine/drafting/hosting.py), and switches its section as any drafted answer does. Drafting asks :class:`SectionGate`
for each question, qualifiers first: a question its qualifier switches off is stored as a
``not_required`` draft (no retrieval, no model) saying why ("not required (QUAL-01 = No)").
The rows a qualifier governs are drafted last (``drafting_order``), and before each of them the
run reads the reviewer's decisions again (:meth:`SectionGate.reviewed`): a qualifier the reviewer
accepts or edits in the app while the rest drafts decides its section from then on, so answering
the qualifiers first saves the model's time on the sections they switch off.
When the reviewer changes the qualifier, the next drafting run drafts the rows switched back on
(their ``not_required`` draft no longer holds) and Review shows the rows switched off as not
required, whatever their draft.
"""

from __future__ import annotations

from typing import Mapping

from engine.core.types import Action, DraftStatus
from engine.drafting.cross_product import settles_qualifier
from engine.drafting.records import Draft
from engine.questionnaire import Question, Questionnaire
from engine.questionnaire.qualifiers import (
    Answer,
    Gate,
    Qualifier,
    answer_of,
    drafting_order,
    find_qualifiers,
    gates,
    qualifiers_of,
    question_key,
)
from storage.review_store import Decision, ReviewStore, StoredDraft


def switches_sections(draft: Draft) -> bool:
    """A qualifier's draft that may switch the sections it governs off before a reviewer has
    looked: drafted, not low confidence, not resting on a third party's evidence alone, and not
    another product's choice short of the quorum (``settles_qualifier``). Any other draft leaves
    its sections on: a wrong "No" would blank answers the customer needs."""
    return (
        draft.status is DraftStatus.DRAFTED
        and not draft.low_confidence
        and draft.inherited_from is None
        and settles_qualifier(draft.from_product, draft.past_answers)
    )


def current_answers(
    questionnaire: Questionnaire,
    keys: set[str],
    drafts: Mapping[str, StoredDraft],
    decisions: Mapping[str, Decision],
    file_answers: bool = True,
) -> dict[str, Answer]:
    """(value, explanation) of the questions ``keys``: the reviewer's approved answer, else the
    latest draft (a drafted one that may switch sections off), else the file's own (unless
    ``file_answers`` is False: an evaluation drafting a filled questionnaire as if blank)."""
    out: dict[str, Answer] = {}
    for q in questionnaire.questions:
        key = question_key(q)
        if key not in keys:
            continue
        d, s = decisions.get(key), drafts.get(key)
        if approved(d):
            out[key] = answer_of(q, d.choice, d.answer)
        elif s is not None and switches_sections(Draft.from_stored(key, s)):
            out[key] = answer_of(q, s.choice, s.answer)
        elif file_answers:
            out[key] = answer_of(q, q.existing_choice, q.existing_answer)
    return out


class SectionGate:
    """The qualifiers of one questionnaire and the state of the rows they govern, kept current
    while a drafting run stores the qualifiers' drafts."""

    def __init__(
        self,
        questionnaire: Questionnaire,
        drafts: Mapping[str, StoredDraft],
        decisions: Mapping[str, Decision],
        file_answers: bool = True,
    ) -> None:
        self.questionnaire = questionnaire
        self.qualifiers: tuple[Qualifier, ...] = (
            qualifiers_of(questionnaire) if isinstance(questionnaire, Questionnaire) else find_qualifiers(questionnaire)
        )
        self._keys = {q.key for q in self.qualifiers}
        self._choices = {question_key(q): q.choices for q in questionnaire.questions if question_key(q) in self._keys}
        self._file_answers = file_answers
        self._drafts = {k: s for k, s in drafts.items() if k in self._keys}  # the qualifiers' latest drafts
        self._decided = _decided(decisions, self._keys)
        self.answers = current_answers(questionnaire, self._keys, drafts, decisions, file_answers)
        self.gates: dict[str, Gate] = gates(self.qualifiers, self.answers, self._choices)

    @classmethod
    def of(cls, questionnaire: Questionnaire, review: ReviewStore, project_id: int) -> SectionGate:
        return cls(questionnaire, review.latest_drafts(project_id), review.latest_decisions(project_id))

    def order(self, questions: list[Question]) -> list[Question]:
        """Qualifiers first."""
        return drafting_order(questions, self.qualifiers)

    def gate(self, q: Question) -> Gate | None:
        return self.gates.get(question_key(q))

    def is_qualifier(self, q: Question) -> bool:
        return question_key(q) in self._keys

    def qualifier(self, q: Question) -> Qualifier | None:
        """The qualifier ``q`` is (its options among what it carries); None for any other question."""
        key = question_key(q)
        return next((qual for qual in self.qualifiers if qual.key == key), None)

    def switched_off(self, q: Question) -> Gate | None:
        """The gate of a question its qualifier switches off now; None when it is to be drafted."""
        gate = self.gate(q)
        return gate if gate is not None and not gate.required else None

    def stale(self, q: Question, stored: StoredDraft) -> bool:
        """A ``not_required`` draft of a question that is required again: it is to be drafted."""
        return stored.status is DraftStatus.NOT_REQUIRED and self.switched_off(q) is None

    def drafted(self, q: Question, draft: Draft) -> None:
        """Record a new draft: a qualifier's changes the state of the rows it governs when it may
        (:func:`switches_sections`, see the module docstring) and no reviewer has decided it."""
        key = question_key(q)
        if key not in self._keys:
            return
        self._drafts[key] = draft.stored()
        if switches_sections(draft) and key not in self._decided:
            self.answers[key] = answer_of(q, draft.choice, draft.answer)
            self.gates = gates(self.qualifiers, self.answers, self._choices)

    def reviewed(self, decisions: Mapping[str, Decision]) -> None:
        """Follow the reviewer: the qualifiers' decisions now (``decisions``: the review store's
        latest, read again during a run); when any of them changed, the sections' state is worked
        out again from them, the qualifiers' drafts and the file."""
        decided = _decided(decisions, self._keys)
        if decided == self._decided:
            return
        self._decided = decided
        self.answers = current_answers(self.questionnaire, self._keys, self._drafts, decisions, self._file_answers)
        self.gates = gates(self.qualifiers, self.answers, self._choices)


def approved(d: Decision | None) -> bool:
    """A reviewer's decision that gives the question its answer: accepted or edited, with a value."""
    return d is not None and d.action in (Action.ACCEPT, Action.EDIT) and (d.answer is not None or bool(d.choice))


def _decided(decisions: Mapping[str, Decision], keys: set[str]) -> dict[str, tuple]:
    """The reviewer's answers to the qualifiers ``keys`` (key → (choice, text)), comparable from one
    reading to the next."""
    return {k: (d.choice, d.answer) for k, d in decisions.items() if k in keys and approved(d)}


__all__ = ["SectionGate", "approved", "current_answers", "switches_sections"]
