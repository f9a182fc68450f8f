"""A whole run drafts in two passes (#59 item 6, engine/review/draft_run.py): every row first,
without asking the model to explain another product's choice, then the explanations pass asks it
for those rows — unless the reviewer decided the row meanwhile. Real answer library (real
all-MiniLM-L6-v2, SQLite), real knowledge base (Qdrant local mode), generated workbooks, the real
review store. The LLM is a stated fake (it quotes as ``QuotingGenerator`` and explains in its own
words): these tests are about when the model is asked and what is stored, not generation."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from engine.core.types import Action
from engine.drafting.drafter import EXPLAINED_LATER, Drafter
from engine.index.library import AnswerLibrary
from engine.questionnaire import read_questionnaire
from engine.questionnaire.qualifiers import question_key
from engine.review.draft_run import draft_questionnaire
from storage.review_store import ReviewStore
from tests.fixtures import ChoosingModel, QuotingGenerator, text_kb, write_questionnaire

CHECKS = "Do you perform background checks on all employees?"
ENCRYPT = "Is customer data encrypted at rest?"
QUESTIONS = [("HRS-01", CHECKS), ("ENC-01", ENCRYPT)]
DOCS = {  # a sentence speaking to HRS-01 as a quote must, not as an explanation must: the model is asked
    "hr.md": "# People\n\n## Screening\nEvery new hire is screened by human resources before starting work.\n",
    "crypto.md": "# Encryption\n\nCustomer data is encrypted at rest with AES-256 in every database.\n",
}


class Explaining(QuotingGenerator):
    """The stated fake LLM: quotes the first passage, explains in a sentence of its own, takes the
    only option it is given; it keeps the questions it was asked."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[str] = []

    def generate(self, question, passages, choices):
        self.asked.append(question)
        quoted = super().generate(question, passages, choices)
        only = choices[0] if len(choices) == 1 else None
        return replace(quoted, answer="Every employee is screened before hire.", choice=only)


@pytest.fixture()
def run_parts(tmp_path: Path, encoder):
    """(drafter, questionnaire, review store): Impact, whose only past answers are Parchment's Yes."""
    lib = AnswerLibrary(tmp_path / "lib", encoder)
    lib.import_file(
        write_questionnaire(
            tmp_path / "Parchment HECVAT Full.xlsx",
            answered={4: "Yes", 5: "Yes"},
            comments={4: "Parchment LLC screens staff with Sterling."},
            questions=QUESTIONS,
        ),
        product="Parchment",
    )
    book = read_questionnaire(write_questionnaire(tmp_path / "impact.xlsx", questions=QUESTIONS))
    model = Explaining()
    with text_kb(tmp_path, encoder, DOCS) as base:
        try:
            yield Drafter(base, model, library=lib, product="Impact"), book, ReviewStore(tmp_path / "review.sqlite")
        finally:
            lib.close()


def test_every_row_is_drafted_before_the_model_explains_another_products_choice(run_parts, tmp_path):
    drafter, book, review = run_parts
    model = drafter.generator
    asked_when: list[tuple[str, int, int, list[str]]] = []  # (stage, done, total, questions the model was asked)
    results = tmp_path / "results.jsonl"
    run = draft_questionnaire(
        book, drafter, review, results=results, progress=lambda s, d, t: asked_when.append((s, d, t, list(model.asked)))
    )
    first = [step for step in asked_when if step[0] == "drafting"]
    assert first[-1][1] == first[-1][2] == len(book.questions)  # every row drafted ...
    assert CHECKS not in first[-1][3]  # ... before the model was asked to explain HRS-01's choice
    [explaining] = [s for s in asked_when if s[0] == "explaining"]
    assert explaining[1:3] == (1, 1) and explaining[3] == first[-1][3] + [CHECKS]

    hrs = question_key(next(q for q in book.questions if q.id == "HRS-01"))
    first_hrs = next(d for d in run.drafted if d.key == hrs)
    assert (first_hrs.choice, first_hrs.answer, first_hrs.no_text) == ("Yes", "", EXPLAINED_LATER)
    [later] = run.explained
    assert (later.key, later.choice, later.answer, later.no_text) == (
        hrs,
        "Yes",
        "Every employee is screened before hire.",
        None,
    )
    assert later.text_source == "model" and run.first_pass_s is not None
    stored = review.latest_drafts(review.project_for(book.path).id)[hrs]
    assert stored.answer == "Every employee is screened before hire."
    lines = [json.loads(x) for x in results.read_text(encoding="utf-8").splitlines()]
    mine = [x for x in lines if x["id"] == "HRS-01"]
    assert [x["no_text"] for x in mine] == [
        EXPLAINED_LATER,
        None,
    ]  # the first pass says why, the later line has the text
    assert sum(run.counts.values()) == len(book.questions)


def test_a_row_the_reviewer_decided_before_the_explanations_pass_keeps_the_decision(run_parts):
    drafter, book, review = run_parts
    model = drafter.generator
    hrs = question_key(next(q for q in book.questions if q.id == "HRS-01"))

    def accept_when_all_drafted(stage: str, done: int, total: int) -> None:
        if stage == "drafting" and done == total:  # the reviewer accepts the choice as the first pass left it
            project = review.project_for(book.path).id
            review.decide(project, hrs, Action.ACCEPT, "", "Yes")

    run = draft_questionnaire(book, drafter, review, progress=accept_when_all_drafted)
    assert CHECKS not in model.asked and run.explained == []
    project = review.project_for(book.path).id
    assert review.latest_drafts(project)[hrs].answer == ""
    assert review.latest_decisions(project)[hrs].action is Action.ACCEPT


def test_one_row_drafted_alone_is_explained_at_once(run_parts):
    """Regenerate drafts one row: nothing is left for later."""
    drafter, book, _ = run_parts
    q = next(q for q in book.questions if q.id == "HRS-01")
    d = drafter.draft(q)
    assert d.answer == "Every employee is screened before hire." and drafter.generator.asked == [CHECKS]
    assert drafter.first_pass().draft(q).no_text == EXPLAINED_LATER and drafter.generator.asked == [CHECKS]
    assert drafter.explain_now  # the first pass's drafter is a copy


@pytest.mark.parametrize("silent", [False, True])
def test_an_explanation_is_written_only_when_its_evidence_speaks_to_the_question(run_parts, silent):
    """The model explaining another product's choice is asked for its evidence first (``choose``),
    and for its text only when that evidence reaches SUPPORT_MIN (issue #59 item 6): a model that
    cites no sentence (``silent``) writes no text, and the choice stands alone."""
    drafter, book, _ = run_parts
    model = drafter.generator = ChoosingModel(silent=silent)
    d = drafter.draft(next(q for q in book.questions if q.id == "HRS-01"))
    fields = [f for f, _ in model.calls]
    assert d.choice == "Yes" and fields[0] == ["sentences", "choice"]
    if silent:
        assert fields == [["sentences", "choice"]] and d.answer == "" and d.no_text
    else:
        assert fields[1][-2:] == ["answer", "insufficient_context"]  # the text asked for (then judged)
    assert len(model.forgotten) == 1
