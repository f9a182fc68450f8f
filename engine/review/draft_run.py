"""Drafting a whole questionnaire into the review store: the questions to draft (already answered
ones skipped unless asked), qualifiers first (engine/drafting/sections.py decides which sections
are switched off; the rows they govern last, following the reviewer's answers to the
qualifiers as the run reaches them), each draft persisted as it finishes (and appended to results.jsonl), so an
interrupted run resumes where it stopped; optionally the drafted answers exported into a copy of
the file (engine/review/export_cells.py).

Two passes (#59 item 6): the first drafts every row without asking the model to explain another
product's choice (``Drafter.first_pass``; such a row says ``EXPLAINED_LATER``), so the reviewer has
every row's draft in a fraction of the time; the explanations pass then drafts those rows again with
the model asked, in sheet order, each stored as a new draft unless the reviewer decided the row
meanwhile (their decision stands; a row changed while the model wrote is left as it is). One question is drafted by engine/drafting/drafter.py;
this is the run over all of them that the workspace (engine/app/), the CLI's ``draft`` and the
benches call.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Callable, Iterator, Mapping, Sequence

from engine.core.types import DraftStatus, Progress, no_progress
from engine.drafting.drafter import EXPLAINED_LATER, Drafter, not_required_draft
from engine.drafting.records import Draft
from engine.drafting.sections import SectionGate
from engine.index.profile import row_ids
from engine.questionnaire import Question, Questionnaire
from engine.questionnaire.language import LanguageSetting, QuestionnaireLanguage, language_of
from engine.questionnaire.qualifiers import question_key
from engine.questionnaire.writes import UnwrittenAnswer
from engine.review.export_cells import export_drafts
from storage.review_store import Decision, ReviewStore, RowChanged


@dataclass
class DraftRun:
    """What ``draft_questionnaire`` did."""

    drafted: list[Draft] = field(default_factory=list)  # in this run
    resumed: int = 0  # drafted in an earlier run and kept
    skipped_answered: int = 0
    counts: dict[str, int] = field(default_factory=dict)  # the run's questions (kept and drafted) by status
    exported: Path | None = None
    unwritten: list[UnwrittenAnswer] = field(default_factory=list)  # answers the export could not write
    explained: list[Draft] = field(default_factory=list)  # the explanations pass's new drafts (of ``drafted``' rows)
    first_pass_s: float | None = None  # seconds until every row had its draft (this process)

    @property
    def not_required(self) -> int:
        """The run's questions a qualifier switched off (``not_required``: no retrieval, no model);
        counted apart from the drafted ones ("204 drafted, 51 not required")."""
        return self.counts.get(DraftStatus.NOT_REQUIRED.value, 0)


def to_draft(questionnaire: Questionnaire, redo_answered: bool, limit: int | None) -> tuple[list[Question], int]:
    """The questions to draft, in order, and how many were skipped as already answered."""
    questions = list(questionnaire.questions)
    wanted = [q for q in questions if redo_answered or not q.answered]
    return (wanted[:limit] if limit else wanted), len(questions) - len(wanted)


def draft_questionnaire(
    questionnaire: Questionnaire,
    drafter: Drafter,
    review: ReviewStore,
    *,
    results: Path | None = None,
    out: Path | None = None,
    limit: int | None = None,
    redo_answered: bool = False,
    progress: Progress = no_progress,
    project_id: int | None = None,
    by: str | None = None,
) -> DraftRun:
    """Draft ``questionnaire``'s questions into ``review`` (see the module docstring); each draft
    carries ``by``, the reviewer the run drafts for (None: no name kept)."""
    # the caller's project (the app knows it), else the one of the file's bytes (hashed; created on first use)
    project = review.project(project_id) if project_id is not None else review.project_for(questionnaire.path)
    review.set_questions(project.id, question_records(questionnaire))
    languages = questionnaire_language(questionnaire, review.options(project.id))
    if languages.translates:  # asked in English, answered in its own (#58)
        drafter = drafter.for_language(languages)
    todo, skipped = to_draft(questionnaire, redo_answered, limit)
    done = review.latest_drafts(project.id)
    sections = SectionGate(questionnaire, done, review.latest_decisions(project.id))
    todo = sections.order(todo)  # qualifiers first: their answers decide which sections are drafted
    reopened = {question_key(q) for q in todo if question_key(q) in done and sections.stale(q, done[question_key(q)])}
    done = {k: s for k, s in done.items() if k not in reopened}  # switched back on: drafted again
    run = DraftRun(skipped_answered=skipped)
    kept = [Draft.from_stored(question_key(q), done[question_key(q)]) for q in todo if question_key(q) in done]
    run.resumed = len(kept)
    sink = _ResultsFile(results, kept)
    pending = [q for q in todo if question_key(q) not in done]
    progress("drafting", len(kept), len(todo))
    decisions = partial(review.latest_decisions, project.id)
    started = time.perf_counter()
    first = first_pass(drafter)
    for i, (q, draft) in enumerate(drafts_in_order(pending, first, sections, questionnaire.path, decisions), 1):
        review.add_draft(project.id, draft.stored(), by=by)
        sink.write(draft)
        run.drafted.append(draft)
        progress("drafting", len(kept) + i, len(todo))
    run.first_pass_s = time.perf_counter() - started
    final = {d.key: d for d in kept + run.drafted}
    later = [q for q in todo if explained_later(final.get(question_key(q)))]
    for i, q in enumerate(later, 1):
        draft = _explained(q, drafter, sections, review, project.id, by)
        if draft is not None:
            sink.write(draft)
            run.explained.append(draft)
            final[draft.key] = draft
        progress("explaining", i, len(later))
    for d in final.values():
        run.counts[d.status.value] = run.counts.get(d.status.value, 0) + 1
    if out is not None:
        latest = review.latest_drafts(project.id)
        drafts = [
            Draft.from_stored(k, latest[k]) for k in (question_key(q) for q in questionnaire.questions) if k in latest
        ]
        run.exported = export_drafts(questionnaire, drafts, out, run.unwritten)
    return run


def questionnaire_language(questionnaire: Questionnaire, options: Mapping) -> QuestionnaireLanguage:
    """The questionnaire's language as drafting takes it: the responder's setting (``options``: the
    project's stored options, their ``language``) over the detected one (issue #58)."""
    return QuestionnaireLanguage.of(language_of(questionnaire), LanguageSetting.from_json(options.get("language")))


def drafts_in_order(
    questions: Sequence[Question],
    drafter: Drafter,
    sections: SectionGate,
    source: Path | None,
    decisions: Callable[[], Mapping[str, Decision]],
) -> Iterator[tuple[Question, Draft]]:
    """Each of ``questions`` (in drafting order: ``SectionGate.order``) with its new draft, as it is
    made: a row its qualifier switches off is ``not_required`` (no retrieval, no model); before
    each governed row the reviewer's decisions (``decisions()``: read now) are taken again, so a
    qualifier answered meanwhile decides its section. ``source``: the questionnaire's file (a
    date's format). The one loop of ``draft_questionnaire`` and of the evaluation's
    ``engine.bench.rows.draft_rows``."""
    rows = row_ids(sections.questionnaire.questions)  # where a profile fact pointing to another row points
    for q in questions:
        if sections.gate(q) is not None:  # a governed row: its qualifier may have been reviewed meanwhile
            sections.reviewed(decisions())
        off = sections.switched_off(q)
        if off is not None:
            draft = not_required_draft(q, off.reason)
        else:
            draft = drafter.draft(q, rows, source, sections.qualifier(q))
        sections.drafted(q, draft)
        yield q, draft


def first_pass(drafter: Drafter) -> Drafter:
    """The drafter of a whole run's first pass (``Drafter.first_pass``); a drafter without one (the
    tests' fakes) drafts every row whole."""
    first = getattr(drafter, "first_pass", None)
    return first() if first is not None else drafter


def explained_later(draft: Draft | None) -> bool:
    """Whether the first pass left this row's explanation to the explanations pass."""
    return draft is not None and draft.no_text == EXPLAINED_LATER


def _explained(
    q: Question, drafter: Drafter, sections: SectionGate, review: ReviewStore, project_id: int, by: str | None
) -> Draft | None:
    """The row drafted again with the model asked to explain its choice, stored as its newest draft;
    None when the reviewer decided it meanwhile or it changed while the model wrote."""
    key = question_key(q)
    seen = review.version(project_id, key)
    if seen.decision:  # the reviewer decided on the first draft: the decision stands
        return None
    draft = drafter.draft(
        q, row_ids(sections.questionnaire.questions), sections.questionnaire.path, sections.qualifier(q)
    )
    try:
        review.add_draft(project_id, draft.stored(), expected=seen, by=by)
    except RowChanged:  # a decision (or another draft) came while the model wrote
        return None
    return draft


def question_records(questionnaire: Questionnaire) -> list[tuple[str, dict]]:
    """(key, JSON-able question) per question, in order, as the review store keeps them."""
    return [(question_key(q), asdict(q)) for q in questionnaire.questions]


class _ResultsFile:
    """results.jsonl: rewritten with the kept drafts at the start, then one line per draft as
    it finishes (flushed, so an interrupted run leaves every finished line); a row the explanations
    pass drafts again gets a second line, and a row's last line is its draft."""

    def __init__(self, path: Path | None, kept: Sequence[Draft]) -> None:
        self.path = path
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("w", encoding="utf-8") as f:
                for d in kept:
                    f.write(json.dumps(d.to_json(), ensure_ascii=False) + "\n")

    def write(self, draft: Draft) -> None:
        if self.path is not None:
            with self.path.open("a", encoding="utf-8") as f:
                f.write(json.dumps(draft.to_json(), ensure_ascii=False) + "\n")
